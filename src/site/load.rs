//! Reading what a club file names, through the I/O layer and the read policy: each season,
//! tournament and rating history (with the ruleset it names), each ruleset listed, and the
//! balance matrix asked for. A file that cannot be read is reported at the club file's line
//! that names it; a mistake inside a file, at that file's line.
use super::club::{Club, Entry};
use crate::combat::default_tactic::DefaultTactic;
use crate::combat::lab::{
    self,
    matrix::{MatrixOptions, MatrixReport},
};
use crate::error::{Error, Result};
use crate::io::policy::{self, Kind};
use crate::league::{season::Season, standings::Standings};
use crate::rules::comments::Comments;
use crate::rules::identity::Identity;
use crate::rules::load as rules;
use crate::rules::resolve::{self, Choice, How};
use crate::rules::{builtin, explain, model::Ruleset};
use crate::scoring::{rating_report::RatingReport, ratings::RateOptions};
use crate::swiss::tournament::Tournament;
use std::path::{Path, PathBuf};

/// A season with its table.
pub(crate) struct SeasonIn {
    pub title: String,
    pub season: Season,
    pub standings: Standings,
    /// Its ruleset (an index into `Loaded::rulesets`).
    pub ruleset: usize,
}

/// A Swiss tournament with its standings.
pub(crate) struct TournamentIn {
    pub title: String,
    pub tournament: Tournament,
    pub standings: crate::swiss::standings::Standings,
    pub ruleset: usize,
}

/// A rating history, rated (every game's changes kept).
pub(crate) struct RatingsIn {
    pub title: String,
    pub report: RatingReport,
    pub ruleset: usize,
}

/// A ruleset the site shows, with what it extends and its files' comments.
pub(crate) struct RulesetIn {
    pub ruleset: Ruleset,
    pub id: Identity,
    /// Where it was read from: `built-in bloodbowl`, a file, or the season it is embedded in.
    pub origin: String,
    /// The ruleset it extends, by the name it gives it.
    pub base: Option<(String, Ruleset)>,
    /// The comments of its files, nearest first (what `rules explain` quotes).
    pub comments: Vec<(String, Comments)>,
}

/// The balance matrix asked for.
pub(crate) struct BalanceIn {
    pub report: MatrixReport,
    pub battles: u64,
    pub ruleset: usize,
}

/// Everything the site is made from.
pub(crate) struct Loaded {
    pub club: String,
    pub seasons: Vec<SeasonIn>,
    pub tournaments: Vec<TournamentIn>,
    pub ratings: Vec<RatingsIn>,
    /// Every ruleset a page is made under, once each (by hash): the club file's list first.
    pub rulesets: Vec<RulesetIn>,
    pub balance: Option<BalanceIn>,
    /// Things to tell the person building the site (a ruleset changed since a season began).
    pub warnings: Vec<String>,
}

/// Where a ruleset came from, to find what it extends and its comments.
enum Source {
    /// A built-in name or a path, read from `dir` when named inside a file there.
    Reference(String, Option<PathBuf>),
    /// The copy embedded in a season file.
    Embedded(String),
}

/// Read everything `club` names.
pub(crate) fn load(club: &Club) -> Result<Loaded> {
    let mut out = Loaded {
        club: club.name.clone(),
        seasons: Vec::new(),
        tournaments: Vec::new(),
        ratings: Vec::new(),
        rulesets: Vec::new(),
        balance: None,
        warnings: Vec::new(),
    };
    let folder = club.folder();
    for entry in &club.rulesets {
        let r = rules::resolve_doc_beside(&entry.given, Some(&folder))
            .and_then(|d| rules::ruleset_from_doc(&d))
            .map_err(|e| club.error_at(entry, e))?;
        let source = Source::Reference(entry.given.clone(), Some(folder.clone()));
        add_ruleset(&mut out.rulesets, r, source).map_err(|e| club.error_at(entry, e))?;
    }
    for entry in &club.seasons {
        let s = season(club, entry, &mut out)?;
        out.seasons.push(s);
    }
    for entry in &club.tournaments {
        let t = tournament(club, entry, &mut out.rulesets)?;
        out.tournaments.push(t);
    }
    for entry in &club.ratings {
        let r = ratings(club, entry, &mut out.rulesets)?;
        out.ratings.push(r);
    }
    if let Some(b) = &club.balance {
        let rules = rules::resolve_doc_beside(&b.rules.given, Some(&folder))
            .and_then(|d| rules::ruleset_from_doc(&d))
            .map_err(|e| club.error_at(&b.rules, e))?;
        let tactic = DefaultTactic::of(&rules).map_err(|e| club.error_at(&b.rules, e))?;
        let options = MatrixOptions {
            ships: b.ships.clone(),
            battles: b.battles,
            seed: b.seed,
            points_scale: b.points_scale,
        };
        let report = lab::matrix::matrix(&rules, &options, [&tactic, &tactic], &|_| {})
            .map_err(|e| club.error_at_pointer("/balance/ships", e.unplaced_message()))?;
        let source = Source::Reference(b.rules.given.clone(), Some(folder.clone()));
        let ruleset = add_ruleset(&mut out.rulesets, rules, source)
            .map_err(|e| club.error_at(&b.rules, e))?;
        out.balance = Some(BalanceIn {
            report,
            battles: b.battles,
            ruleset,
        });
    }
    Ok(out)
}

/// A path the club file gives, from the club file's folder.
fn joined(folder: &Path, given: &str) -> PathBuf {
    if folder == Path::new(".") {
        PathBuf::from(given)
    } else {
        folder.join(given)
    }
}

/// The text of a file the club file names (a record: YAML, JSON, CSV or the rules language),
/// read if the read policy lets the club file name it; its path as shown in messages.
fn read_named(club: &Club, entry: &Entry) -> Result<(String, String)> {
    let folder = club.folder();
    let path = joined(&folder, &entry.given);
    let text = policy::permit(&path, Kind::Record, Some(&folder))
        .and_then(|p| p.read_text())
        .map_err(|e| club.error_at(entry, e))?;
    Ok((path.display().to_string(), text))
}

/// A record's title: its own name, else its file's name without the extension.
fn title(name: Option<&str>, path: &str) -> String {
    match name.map(str::trim).filter(|n| !n.is_empty()) {
        Some(n) => n.to_string(),
        None => Path::new(path)
            .file_stem()
            .map_or(path.to_string(), |s| s.to_string_lossy().into_owned()),
    }
}

fn season(club: &Club, entry: &Entry, out: &mut Loaded) -> Result<SeasonIn> {
    let (path, text) = read_named(club, entry)?;
    let doc = rules::parse_text(&path, &text, crate::io::Format::of(&path))?;
    let season = Season::from_doc(&doc)?;
    let (rules, warning) =
        crate::engine_files::season_rules(&path, &season).map_err(|e| club.error_at(entry, e))?;
    out.warnings.extend(warning);
    let standings =
        crate::league::standings::standings(&rules, &season).map_err(|e| e.context(&path))?;
    let source = match season.embedded_rules {
        Some(_) => Source::Embedded(path.clone()),
        None => Source::Reference(season.rules.clone(), dir_of(&season.rules, &path)),
    };
    let ruleset = add_ruleset(&mut out.rulesets, rules, source)?;
    Ok(SeasonIn {
        title: title(season.name.as_deref(), &path),
        season,
        standings,
        ruleset,
    })
}

fn tournament(club: &Club, entry: &Entry, rulesets: &mut Vec<RulesetIn>) -> Result<TournamentIn> {
    let (path, text) = read_named(club, entry)?;
    let t = Tournament::parse(&path, &text)?;
    let (swiss, rules) =
        crate::engine_files::tournament_rules(&t, &path).map_err(|e| club.error_at(entry, e))?;
    let field = t.field(&swiss, false).map_err(|e| e.context(&path))?;
    let standings = crate::swiss::standings::standings(&field, &swiss);
    let source = Source::Reference(t.rules.clone(), dir_of(&t.rules, &path));
    let ruleset = add_ruleset(rulesets, rules, source)?;
    Ok(TournamentIn {
        title: title(Some(&t.name), &path),
        tournament: t,
        standings,
        ruleset,
    })
}

fn ratings(club: &Club, entry: &Entry, rulesets: &mut Vec<RulesetIn>) -> Result<RatingsIn> {
    let (path, text) = read_named(club, entry)?;
    let file = if crate::io::FileKind::of(&path) == Some(crate::io::FileKind::Csv) {
        crate::scoring::parse_csv_history(
            &path,
            text.as_bytes(),
            crate::engine_files::MAX_HISTORY_ROWS,
        )?
    } else {
        crate::scoring::parse_history(&path, text)?
    };
    let chosen = Choice {
        typed: None,
        named: file.rules.as_deref().map(|n| (n, Some(path.as_str()))),
        default: builtin::DEFAULT_RATING,
    }
    .load(resolve::needs_scoring, |e| {
        file.source
            .locate(Error::new("/rules", e.unplaced_message()))
    })?;
    let report = file.rate(
        &chosen.ruleset,
        RateOptions {
            record_games: true,
            ..RateOptions::default()
        },
    )?;
    let dir = match chosen.how {
        How::Named => dir_of(&chosen.reference, &path),
        _ => None,
    };
    let source = Source::Reference(chosen.reference.clone(), dir);
    let ruleset = add_ruleset(rulesets, chosen.ruleset, source)?;
    Ok(RatingsIn {
        title: title(None, &path),
        report,
        ruleset,
    })
}

/// The folder a ruleset named inside `record` is read from (as `rules::load_beside` reads it).
fn dir_of(reference: &str, record: &str) -> Option<PathBuf> {
    rules::beside(reference, Path::new(record).parent()).map(Path::to_path_buf)
}

/// The ruleset's place in the list, adding it (with its base and comments) when no ruleset
/// with its hash is there yet.
fn add_ruleset(list: &mut Vec<RulesetIn>, ruleset: Ruleset, source: Source) -> Result<usize> {
    let id = Identity::of(&ruleset);
    if let Some(i) = list.iter().position(|r| r.id.sha256 == id.sha256) {
        return Ok(i);
    }
    let (origin, base, comments) = match source {
        Source::Embedded(season) => (format!("the copy embedded in {season}"), None, Vec::new()),
        Source::Reference(reference, dir) => {
            let base = rules::base_of_beside(&reference, dir.as_deref())?;
            let looks_like_path = reference.contains(['/', '\\', '.']);
            let (origin, path) = match (&dir, looks_like_path) {
                (_, false) if builtin::find(&reference).is_some() => {
                    (format!("built-in {reference}"), reference.clone())
                }
                (Some(d), _) => {
                    let p = joined(d, &reference).display().to_string();
                    (p.clone(), p)
                }
                (None, _) => (reference.clone(), reference.clone()),
            };
            (origin, base, explain::comment_chain(&path))
        }
    };
    list.push(RulesetIn {
        ruleset,
        id,
        origin,
        base,
        comments,
    });
    Ok(list.len() - 1)
}
