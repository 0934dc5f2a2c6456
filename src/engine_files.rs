//! The files the engines work on, read and written through the I/O layer (`crate::io`): the
//! engines themselves take documents and texts, never paths. Used by the CLI and the script API.
use crate::combat::scenario::Scenario;
use crate::error::{Conflict, Error, Result};
use crate::io::{read_text, write_file, Replace};
use crate::league::season::{RecordRequest, Recorded};
use crate::league::{season::Season, teams::Teams};
use crate::rules::doc::Doc;
use crate::rules::load::read_doc;
use crate::rules::resolve::{self, Choice};
use crate::rules::swiss::SwissRules;
use crate::rules::{builtin, model::Ruleset};
use crate::scoring::{game::ScoreInput, HistoryFile};
use crate::swiss::players::PlayerList;
use crate::swiss::tournament::Tournament;

/// Read and check a season file; errors name its line and column.
pub(crate) fn season(path: &str) -> Result<Season> {
    Season::from_doc(&read_doc(path)?)
}

/// A season's own ruleset: the copy embedded in it, else its `rules:` (a relative path found
/// beside the season file); with the warning to give when the ruleset has changed since the
/// season recorded it.
pub(crate) fn season_rules(path: &str, season: &Season) -> Result<(Ruleset, Option<String>)> {
    if let Some(text) = &season.embedded_rules {
        crate::style::explain(&format!("ruleset: the copy embedded in {path}"));
        let rules = crate::rules::identity::embedded(path, text, season.ruleset.as_ref())?;
        return Ok((rules, None));
    }
    crate::style::explain(&format!(
        "ruleset `{}`: named by {path}'s `rules:` line",
        season.rules
    ));
    let rules = crate::rules::load::load_beside(&season.rules, Some(path))
        .map_err(|e| e.context(&format!("{path}: its ruleset `{}`", season.rules)))?;
    let warning = season
        .ruleset
        .as_ref()
        .and_then(|r| crate::rules::identity::drift(path, r, &rules))
        .map(|w| format!("{w} (`league new --embed-rules` keeps a season's rules with it)"));
    Ok((rules, warning))
}

/// Write a new season file; refuses to replace an existing one unless `replace`.
pub(crate) fn create_season(path: &str, season: &Season, replace: bool) -> Result<()> {
    season.check_names().map_err(|(_, e)| e)?;
    if !replace && std::path::Path::new(path).exists() {
        return Err(Error::conflict(
            Conflict::FileExists,
            format!("{path}: already exists (a season file is the league's record)"),
        ));
    }
    // Checked again as the file is created, should another run create it meanwhile.
    write_file(
        path,
        &season.to_yaml(),
        if replace {
            Replace::Output
        } else {
            Replace::Nothing
        },
    )
}

/// Record one result in a season file, under a lock on the file.
pub(crate) fn record_result(path: &str, request: &RecordRequest) -> Result<Recorded> {
    crate::io::with_file_lock(path, || {
        let mut season = season(path)?;
        let done = season.record(request)?;
        write_file(path, &season.to_yaml(), Replace::ItsOwnInput)?;
        Ok(done)
    })
}

/// A TEAMS argument: a number of teams, or the path of a file with one name a line.
pub(crate) fn teams(arg: &str) -> Result<Teams> {
    match Teams::from_number(arg) {
        Some(teams) => teams,
        None => Teams::parse(arg, &read_text(arg)?),
    }
}

/// A file of team names, one a line.
pub(crate) fn team_names(path: &str) -> Result<Teams> {
    Teams::parse(path, &read_text(path)?)
}

/// A game record or result table file (YAML, JSON or the rules language), and its document
/// (which locates problems found while scoring).
pub(crate) fn score_input(path: &str) -> Result<(Doc, ScoreInput)> {
    let doc = read_doc(path)?;
    let input = ScoreInput::from_doc(&doc)?;
    Ok((doc, input))
}

/// Most player rows (one per player per game) read from a CSV history unless the caller
/// says otherwise: ten million four-player games.
pub(crate) const MAX_HISTORY_ROWS: usize = 40_000_000;

/// A rating history: CSV (`.csv`), the rules language (`.rules`), or YAML/JSON.
pub fn history(path: &str) -> Result<HistoryFile> {
    history_capped(path, MAX_HISTORY_ROWS)
}

/// A rating history; a CSV one is read as a stream (never held whole), at most `max_rows`
/// rows; the others as one text, at most `MAX_FILE_BYTES`.
pub(crate) fn history_capped(path: &str, max_rows: usize) -> Result<HistoryFile> {
    if crate::io::FileKind::of(path) == Some(crate::io::FileKind::Csv) {
        let input = crate::io::open_text_stream(path)?;
        return crate::scoring::parse_csv_history(path, input, max_rows);
    }
    crate::scoring::parse_history(path, read_text(path)?)
}

/// A combat scenario file (YAML, JSON or the rules language), and its document.
pub(crate) fn scenario(path: &str) -> Result<(Scenario, Doc)> {
    let doc = read_doc(path)?;
    Ok((Scenario::from_doc(&doc)?, doc))
}

/// Read and check a Swiss tournament file (from `swiss new` or `swiss import`).
pub(crate) fn tournament(path: &str) -> Result<Tournament> {
    Tournament::parse(path, &read_text(path)?)
}

/// Write a new tournament file; refuses to replace an existing one unless `replace` (checked as
/// the file is created).
pub(crate) fn create_tournament(path: &str, t: &Tournament, replace: bool) -> Result<()> {
    let replace = if replace {
        Replace::Output
    } else {
        Replace::Nothing
    };
    write_file(path, &t.to_yaml(), replace)
}

/// Read, change and write a tournament file under its lock; nothing is written when `work`
/// refuses the change.
pub(crate) fn change_tournament<T>(
    path: &str,
    work: impl FnOnce(&mut Tournament) -> Result<T>,
) -> Result<T> {
    crate::io::with_file_lock(path, || {
        let mut t = tournament(path)?;
        let done = work(&mut t)?;
        write_file(path, &t.to_yaml(), Replace::ItsOwnInput)?;
        Ok(done)
    })
}

/// A Swiss player list: a CSV with `name` (and `rating`) columns, or one name a line.
pub(crate) fn swiss_players(path: &str) -> Result<PlayerList> {
    crate::swiss::players::parse(path, &read_text(path)?)
}

/// A ruleset's Swiss section, chosen as every input's ruleset is (`rules::resolve`); `record`
/// names the choice in messages.
pub(crate) fn swiss_rules(choice: Choice, record: &str) -> Result<(SwissRules, Ruleset)> {
    let chosen = choice.load(resolve::needs_swiss, |e| e.context(record))?;
    if crate::style::is_verbose() {
        crate::style::explain(&chosen.why());
    }
    let swiss = chosen.ruleset.swiss.clone();
    Ok((swiss.expect("checked by needs_swiss"), chosen.ruleset))
}

/// A tournament's own ruleset: the copy embedded in it (`swiss new --embed-rules`), else the
/// one its `rules:` names (a relative one is found beside the tournament file).
pub(crate) fn tournament_rules(t: &Tournament, path: &str) -> Result<(SwissRules, Ruleset)> {
    if let Some(text) = &t.embedded_rules {
        let ruleset = crate::rules::identity::embedded(path, text, t.ruleset.as_ref())?;
        if let Some(missing) = resolve::needs_swiss(&ruleset) {
            return Err(Error::msg(format!("{path}: its embedded rules {missing}")));
        }
        let swiss = ruleset.swiss.clone().expect("checked by needs_swiss");
        return Ok((swiss, ruleset));
    }
    let choice = Choice {
        typed: None,
        named: Some((&t.rules, Some(path))),
        default: builtin::DEFAULT_SWISS,
    };
    swiss_rules(choice, &format!("{path}: its ruleset `{}`", t.rules))
}
