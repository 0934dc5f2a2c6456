//! `score(game)`, `score_vs(game, other)` and `rate(history)`: the scoring engine from a script.
//!
//! ```rhai
//! let s = score("game.yaml");                 // the session's ruleset, else the file's `rules:`
//! print(s.players[0].points);                 // the keys of `arbiter score --json`
//! let v = rules("cep");
//! v.scoring.cep.index.loss = 0.3;             // a house rule...
//! print(v.score("game.yaml").players[2].points);   // ...scored at once
//! score(#{ Ana: 7500, Bo: 7200 })             // a quick table (figf, advciv)
//! rate("games.yaml", #{ games: true })        // the keys of `arbiter rate --json`
//! ```
use super::convert::{
    checked, dynamic_to_json, from_dynamic, readable, report_under, script_error, to_dynamic,
    ScriptResult,
};
use super::which_ruleset::ruleset_for;
use super::ApiDoc;
use crate::io::policy::Kind;
use crate::rules::doc::Doc;
use crate::scoring::{
    self,
    game::{ResultTable, ScoreInput},
    history::History,
    ratings::RateOptions,
    HistoryFile,
};
use crate::script::{engine::Session, handle::RulesHandle, sandbox::engine_call};
use rhai::{Dynamic, Engine, Map};
use serde::Deserialize;
use serde_json::Value;

pub(crate) const HELP: &[ApiDoc] = &[
    ApiDoc::new(
        "score",
        "score(game)",
        "score a game record or result table (map or path), as `arbiter score --json`",
    ),
    ApiDoc::new(
        "score",
        "r.score(game)",
        "score with r (and whatever the script changed in it)",
    ),
    ApiDoc::new(
        "score_vs",
        "r.score_vs(game, other)",
        "the same game under r and another ruleset, side by side (`score --vs`)",
    ),
    ApiDoc::new(
        "rate",
        "rate(history[, #{games: true}])",
        "rate a history (map or path, YAML/JSON/CSV), as `arbiter rate --json`",
    ),
    ApiDoc::new(
        "rate",
        "r.rate(history[, options])",
        "rate with r; `games: true` adds each game's changes",
    ),
];

pub(crate) fn register(engine: &mut Engine, session: &Session) {
    let s = session.clone();
    engine.register_fn("score", move |game: Dynamic| -> ScriptResult<Dynamic> {
        let input = Scorable::read(&game)?;
        let r = ruleset_for(&s, input.input.rules(), input.file.as_deref(), None)?;
        input.score(&r)
    });
    engine.register_fn("score", |r: &mut RulesHandle, game: Dynamic| {
        Scorable::read(&game)?.score(r)
    });

    engine.register_fn(
        "score_vs",
        |r: &mut RulesHandle, game: Dynamic, other: RulesHandle| {
            Scorable::read(&game)?.compare(r, &other)
        },
    );
    engine.register_fn(
        "score_vs",
        |r: &mut RulesHandle, game: Dynamic, other: &str| {
            let other = load_named(other)?;
            Scorable::read(&game)?.compare(r, &other)
        },
    );

    for with_options in [false, true] {
        let s = session.clone();
        let rate_fn = move |history: Dynamic, options: Dynamic| -> ScriptResult<Dynamic> {
            let input = Ratable::read(&history)?;
            let r = ruleset_for(
                &s,
                input.rules(),
                input.file(),
                Some(crate::rules::builtin::DEFAULT_RATING),
            )?;
            input.rate(&r, &options)
        };
        if with_options {
            engine.register_fn("rate", rate_fn);
            engine.register_fn(
                "rate",
                |r: &mut RulesHandle, history: Dynamic, options: Dynamic| {
                    Ratable::read(&history)?.rate(r, &options)
                },
            );
        } else {
            engine.register_fn("rate", move |history: Dynamic| {
                rate_fn(history, Dynamic::from_map(Map::new()))
            });
            engine.register_fn("rate", |r: &mut RulesHandle, history: Dynamic| {
                Ratable::read(&history)?.rate(r, &Dynamic::from_map(Map::new()))
            });
        }
    }
}

/// A ruleset a script names by string (built-in name or path).
fn load_named(reference: &str) -> ScriptResult<RulesHandle> {
    if reference.contains(['/', '\\', '.']) {
        readable(reference, Kind::Ruleset)?;
    }
    checked(engine_call(|| RulesHandle::load(reference)))
}

/// A game record or result table, with the file it came from (errors then name its lines).
struct Scorable {
    input: ScoreInput,
    doc: Option<Doc>,
    file: Option<String>,
}

impl Scorable {
    fn read(game: &Dynamic) -> ScriptResult<Scorable> {
        if game.is_string() {
            let path = game.to_string();
            readable(&path, Kind::Record)?;
            let (doc, input) = checked(engine_call(|| crate::engine_files::score_input(&path)))?;
            return Ok(Scorable {
                input,
                doc: Some(doc),
                file: Some(path),
            });
        }
        let json =
            dynamic_to_json(game).map_err(|e| script_error(format!("a game record: {e}")))?;
        let input = match quick_table(&json) {
            Some(table) => ScoreInput::Table(table),
            None => checked(ScoreInput::from_doc(&Doc::new(json)))?,
        };
        Ok(Scorable {
            input,
            doc: None,
            file: None,
        })
    }

    fn score(&self, r: &RulesHandle) -> ScriptResult<Dynamic> {
        let report = engine_call(|| {
            r.with(|rules| scoring::score_input(rules, &self.input, self.doc.as_ref()))
        });
        report_under(r, &checked(report)?)
    }

    fn compare(&self, r: &RulesHandle, other: &RulesHandle) -> ScriptResult<Dynamic> {
        let (a, b) = (r.snapshot(), other.snapshot());
        let mut comparison = checked(engine_call(|| {
            scoring::compare::compare(&a, &b, &self.input).map_err(|e| e.locate(self.doc.as_ref()))
        }))?;
        // A variant usually keeps the name of what it came from: say which is which.
        if comparison.rules == comparison.vs {
            let changed = |h: &RulesHandle| h.changes().as_object().is_some_and(|m| !m.is_empty());
            for (label, handle) in [(&mut comparison.rules, r), (&mut comparison.vs, other)] {
                if changed(handle) {
                    label.push_str(" (changed)");
                }
            }
            if comparison.rules == comparison.vs {
                comparison.vs.push_str(" (2)");
            }
        }
        to_dynamic(&comparison)
    }
}

/// `#{Ana: 7500, Bo: 7200}`: a result table without the `players` list (rows in key order).
fn quick_table(json: &Value) -> Option<ResultTable> {
    let map = json.as_object()?;
    if map.is_empty() || !map.values().all(Value::is_number) {
        return None;
    }
    let rows: Vec<(String, f64)> = map
        .iter()
        .map(|(k, v)| (k.clone(), v.as_f64().unwrap_or(f64::NAN)))
        .collect();
    Some(ResultTable::from_pairs(&rows))
}

/// A history: a file (YAML/JSON, rules language or CSV) or a script's map.
enum Ratable {
    File(Box<HistoryFile>, String),
    Map(History),
}

/// What `rate(history, options)` accepts in `options`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct RateScriptOptions {
    /// Keep each game's changes (`games` in the result), like `arbiter rate --history`.
    games: bool,
}

impl Ratable {
    fn read(history: &Dynamic) -> ScriptResult<Ratable> {
        if history.is_string() {
            let path = history.to_string();
            readable(&path, Kind::Record)?;
            let file = checked(engine_call(|| crate::engine_files::history(&path)))?;
            return Ok(Ratable::File(Box::new(file), path));
        }
        Ok(Ratable::Map(from_dynamic::<History>(history, "a history")?))
    }

    fn rules(&self) -> Option<&str> {
        match self {
            Ratable::File(f, _) => f.rules.as_deref(),
            Ratable::Map(h) => h.rules.as_deref(),
        }
    }

    fn file(&self) -> Option<&str> {
        match self {
            Ratable::File(_, path) => Some(path),
            Ratable::Map(_) => None,
        }
    }

    fn rate(&self, r: &RulesHandle, options: &Dynamic) -> ScriptResult<Dynamic> {
        let options: RateScriptOptions = if options.is_unit() {
            RateScriptOptions::default()
        } else {
            from_dynamic(options, "rate options")?
        };
        let options = RateOptions {
            record_games: options.games,
            ..RateOptions::default()
        };
        let report = engine_call(|| {
            r.with(|rules| match self {
                Ratable::File(file, _) => file.rate(rules, options),
                Ratable::Map(history) => {
                    scoring::ratings::rate_with(rules, history, options).map_err(|e| e.locate(None))
                }
            })
        });
        report_under(r, &checked(report)?)
    }
}
