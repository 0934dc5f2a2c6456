//! Records are not rulesets: a game record, season, tournament or combat scenario opened in the
//! editor is told by its keys (or a modeline, `# arbiter: game`) and checked by the library's
//! own loaders, as `score`, `league`, `swiss` and `combat` check it, its ruleset found from its
//! `rules:` line (beside the file, through the read policy).
use crate::combat::{context::Context, scenario::Scenario};
use crate::error::{Error, Result};
use crate::league::season::Season;
use crate::rules::doc::Doc;
use crate::rules::resolve::{self, Choice};
use crate::scoring::game::ScoreInput;
use crate::swiss::tournament::Tournament;
use crate::{
    io::Format,
    rules::{builtin, load},
};

/// What a file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Ruleset,
    /// A game record or result table (`score`).
    Game,
    /// A league season (`league`).
    Season,
    /// A Swiss tournament (`swiss`).
    Tournament,
    /// A combat scenario (`combat sim --scenario`).
    Scenario,
}

/// Lines at the top of a file a modeline is looked for in.
const MODELINE_LINES: usize = 5;

/// What `text` holds: its modeline's word (`# arbiter: game|season|tournament|scenario|ruleset`)
/// if it has one, else what its top-level keys say (a ruleset unless they are a record's).
pub(crate) fn kind_of(text: &str, doc: Option<&Doc>) -> Kind {
    for line in text.lines().take(MODELINE_LINES) {
        let Some(comment) = line.trim_start().strip_prefix('#') else {
            continue;
        };
        if let Some(word) = comment.trim().strip_prefix("arbiter:") {
            match word.trim() {
                "ruleset" | "rules" => return Kind::Ruleset,
                "game" | "record" => return Kind::Game,
                "season" | "league" => return Kind::Season,
                "tournament" | "swiss" => return Kind::Tournament,
                "scenario" | "combat" => return Kind::Scenario,
                _ => {}
            }
        }
    }
    let Some(map) = doc.and_then(|d| d.value.as_object()) else {
        return Kind::Ruleset;
    };
    let has = |k: &str| map.contains_key(k);
    // A ruleset names its base with `extends`; a record names its ruleset with `rules`.
    if has("extends") || !has("rules") {
        return Kind::Ruleset;
    }
    if has("schedule") && has("teams") {
        Kind::Season
    } else if has("rounds") && has("players") {
        Kind::Tournament
    } else if has("a") && has("b") {
        Kind::Scenario
    } else if has("sides") || has("players") {
        Kind::Game
    } else {
        Kind::Ruleset
    }
}

/// The problems of a record: its loader's, then its ruleset's (at its `rules:` line), then
/// what checking the record against the ruleset finds. Empty for a record with none.
pub(crate) fn check(kind: Kind, name: &str, text: &str) -> Vec<Error> {
    let parsed = || load::parse_text(name, text, Format::of(name));
    let checked = match kind {
        Kind::Ruleset => Ok(()),
        Kind::Game => parsed().and_then(|doc| game(name, &doc)),
        Kind::Season => parsed().and_then(|doc| season(name, &doc)),
        Kind::Scenario => parsed().and_then(|doc| scenario(name, &doc)),
        Kind::Tournament => tournament(name, text),
    };
    checked.err().into_iter().collect()
}

/// The ruleset a record's `rules:` names, an error placed at that line.
fn rules_of(
    name: &str,
    doc: &Doc,
    rules: &str,
    default: &str,
    needs: impl Fn(&crate::rules::model::Ruleset) -> Option<String>,
) -> Result<crate::rules::model::Ruleset> {
    let choice = Choice {
        typed: None,
        named: Some((rules, Some(name))),
        default,
    };
    let placed = |e: Error| match doc.value.get("rules") {
        Some(_) => e.placed_at(doc, "/rules"),
        None => e,
    };
    Ok(choice.load(needs, placed)?.ruleset)
}

fn game(name: &str, doc: &Doc) -> Result<()> {
    let input = ScoreInput::from_doc(doc)?;
    if let Some(rules) = input.rules() {
        let ruleset = rules_of(name, doc, rules, "", resolve::needs_scoring)?;
        crate::scoring::score_input(&ruleset, &input, Some(doc))?;
    }
    Ok(())
}

fn season(name: &str, doc: &Doc) -> Result<()> {
    let season = Season::from_doc(doc)?;
    if season.embedded_rules.is_none() {
        let rules = season.rules.clone();
        rules_of(
            name,
            doc,
            &rules,
            builtin::DEFAULT_LEAGUE,
            resolve::needs_nothing,
        )?;
    }
    Ok(())
}

fn scenario(name: &str, doc: &Doc) -> Result<()> {
    let scenario = Scenario::from_doc(doc)?;
    let rules = scenario.rules.as_deref().unwrap_or(builtin::DEFAULT_COMBAT);
    let ruleset = rules_of(
        name,
        doc,
        rules,
        builtin::DEFAULT_COMBAT,
        resolve::needs_nothing,
    )?;
    scenario.resolve(&ruleset, &Context::new(&ruleset)?, Some(doc))?;
    Ok(())
}

fn tournament(name: &str, text: &str) -> Result<()> {
    let t = Tournament::parse(name, text)?;
    crate::engine_files::tournament_rules(&t, name)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kind(name: &str, text: &str) -> Kind {
        let doc = load::parse_text(name, text, Format::of(name)).ok();
        kind_of(text, doc.as_ref())
    }

    #[test]
    fn a_file_is_told_by_its_keys_or_its_modeline() {
        let game = std::fs::read_to_string("examples/cep-game.yaml").unwrap();
        assert_eq!(kind("g.yaml", &game), Kind::Game);
        let scenario = std::fs::read_to_string("examples/ambush.yaml").unwrap();
        assert_eq!(kind("s.yaml", &scenario), Kind::Scenario);
        assert_eq!(kind("h.yaml", "extends: startrek\n"), Kind::Ruleset);
        assert_eq!(
            kind("h.yaml", "# arbiter: season\nrules: x\n"),
            Kind::Season
        );
        assert_eq!(
            kind("t.yaml", "rules: swiss\nrounds: 5\nplayers: []\n"),
            Kind::Tournament
        );
        assert!(check(Kind::Game, "examples/cep-game.yaml", &game).is_empty());
        assert!(check(Kind::Scenario, "examples/ambush.yaml", &scenario).is_empty());
    }
}
