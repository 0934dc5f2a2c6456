//! Swiss tournaments from a script: create one, enter players, pair rounds, record results,
//! read the standings and export the TRF, as the `swiss` commands do.
//!
//! ```rhai
//! let t = swiss_new(["Ann", #{ name: "Bo", rating: 2100 }, "Cy", "Di"], 3);
//! t.add("Ed", 1500);                         // a late entry: its starting number
//! let p = t.pair();                          // the keys of `swiss pair --json`
//! t.record(1, p.pairs[0].white, p.pairs[0].black, "1-0");
//! t.standings()                              // the keys of `swiss table --json`
//! t.trf()                                    // the text of `swiss export --trf`
//! t.save("open.yaml")                        // --allow-write only, a new file
//! ```
//!
//! A tournament is a value (`let u = t` copies it); nothing is written until `t.save(path)` or
//! `t.save_trf(path)`, under the sandbox's write policy. It counts under the ruleset it was
//! made or loaded with (as that ruleset is at each call).
use super::convert::{checked, from_dynamic, readable, report_under, script_error, ScriptResult};
use super::which_ruleset::ruleset_for;
use super::ApiDoc;
use crate::io::policy::Kind;
use crate::rules::identity::Identity;
use crate::rules::swiss::SwissRules;
use crate::script::{engine::Session, handle::RulesHandle, sandbox::engine_call};
use crate::swiss::report::RoundPairing;
use crate::swiss::tournament::{points_of, ByeKind, Tournament};
use rhai::{Array, Dynamic, Engine, INT};
use serde::Deserialize;

pub(crate) const HELP: &[ApiDoc] = &[
    ApiDoc::new(
        "swiss_new",
        "swiss_new(players, rounds[, options])",
        "a new Swiss tournament: players a list of names or #{name, rating}, or a player-list \
         file (as `swiss new --players`); options: name, rules",
    ),
    ApiDoc::new(
        "swiss_new",
        "r.swiss_new(players, rounds[, options])",
        "a new Swiss tournament under r's points and tie-breaks",
    ),
    ApiDoc::new(
        "swiss",
        "swiss(tournament)",
        "a tournament file (or a map with its keys) from `swiss new` or `swiss import`",
    ),
    ApiDoc::new(
        "add",
        "t.add(name[, rating])",
        "enter a player late (absent before the next round); its starting number",
    ),
    ApiDoc::new(
        "pair",
        "t.pair()",
        "pair the next round (FIDE Dutch) into t, as `swiss pair --json`: round, pairs \
         [#{white, black}], bye",
    ),
    ApiDoc::new(
        "record",
        "t.record(round, white, black, result)",
        "record a board's result (1-0 0-1 1/2-1/2 +- -+ --); players by number or name",
    ),
    ApiDoc::new(
        "correct",
        "t.correct(round, white, black, result)",
        "replace a recorded result (until the next round is paired); the one it replaced",
    ),
    ApiDoc::new(
        "bye",
        "t.bye(player, round[, kind])",
        "a bye asked for ahead: kind half (default), zero or full",
    ),
    ApiDoc::new(
        "withdraw",
        "t.withdraw(player, from)",
        "withdraw a player from round `from` on",
    ),
    ApiDoc::new(
        "standings",
        "t.standings()",
        "the standings with the ruleset's tie-breaks, as `swiss table --json`",
    ),
    ApiDoc::new(
        "trf",
        "t.trf()",
        "the tournament as TRF-2026 text, as `swiss export --trf`",
    ),
    ApiDoc::new(
        "to_map",
        "t.to_map()",
        "the tournament file's keys (name, rules, rounds, players, paired)",
    ),
    ApiDoc::new(
        "save",
        "t.save(path)",
        "write the tournament file (YAML; --allow-write only, a new file)",
    ),
    ApiDoc::new(
        "save_trf",
        "t.save_trf(path)",
        "write the TRF (--allow-write only, a new file)",
    ),
];

/// A tournament a script holds, with the ruleset it counts under.
#[derive(Clone)]
pub(crate) struct SwissTournament {
    tournament: Tournament,
    rules: RulesHandle,
}

/// What `swiss_new(players, rounds, options)` accepts in `options`.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct NewOptions {
    name: Option<String>,
    rules: Option<String>,
}

/// A player of a list given as data: a name, or `#{name, rating}`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PlayerEntry {
    name: String,
    #[serde(default)]
    rating: u32,
}

pub(crate) fn register(engine: &mut Engine, session: &Session) {
    engine.register_type_with_name::<SwissTournament>("Tournament");
    let default = crate::rules::builtin::DEFAULT_SWISS;
    for with_options in [false, true] {
        let s = session.clone();
        let new = move |players: Dynamic, rounds: INT, options: Dynamic| {
            let o: NewOptions = if options.is_unit() {
                NewOptions::default()
            } else {
                from_dynamic(&options, "swiss_new options")?
            };
            let r = match &o.rules {
                Some(reference) => {
                    checked(engine_call(|| RulesHandle::load_beside(reference, None)))?
                }
                None => ruleset_for(&s, None, None, Some(default))?,
            };
            create(&r, &players, rounds, o.name.as_deref())
        };
        if with_options {
            engine.register_fn("swiss_new", new);
        } else {
            engine.register_fn("swiss_new", move |players: Dynamic, rounds: INT| {
                new(players, rounds, Dynamic::UNIT)
            });
        }
    }
    engine.register_fn(
        "swiss_new",
        |r: &mut RulesHandle, players: Dynamic, rounds: INT| create(r, &players, rounds, None),
    );
    engine.register_fn(
        "swiss_new",
        |r: &mut RulesHandle, players: Dynamic, rounds: INT, options: Dynamic| {
            let o: NewOptions = from_dynamic(&options, "swiss_new options")?;
            if o.rules.is_some() {
                return Err(script_error(
                    "swiss_new options: `rules` is for swiss_new(...); r.swiss_new uses r",
                ));
            }
            create(r, &players, rounds, o.name.as_deref())
        },
    );
    let s = session.clone();
    engine.register_fn("swiss", move |t: Dynamic| load(&s, &t));

    engine.register_fn("add", |t: &mut SwissTournament, name: &str| add(t, name, 0));
    engine.register_fn("add", |t: &mut SwissTournament, name: &str, rating: INT| {
        let rating = u32::try_from(rating)
            .map_err(|_| script_error(format!("rating {rating}: a rating is 0 or more")))?;
        add(t, name, rating)
    });
    engine.register_fn("pair", |t: &mut SwissTournament| pair(t));
    for (name, correct) in [("record", false), ("correct", true)] {
        engine.register_fn(
            name,
            move |t: &mut SwissTournament,
                  round: INT,
                  white: Dynamic,
                  black: Dynamic,
                  result: &str|
                  -> ScriptResult<Dynamic> {
                let (w, b) = (player(t, &white)?, player(t, &black)?);
                let round = usize::try_from(round).unwrap_or(0);
                let replaced = checked(t.tournament.record(round, w, b, result, correct))?;
                Ok(replaced.map_or(Dynamic::UNIT, Dynamic::from))
            },
        );
    }
    engine.register_fn(
        "bye",
        |t: &mut SwissTournament, who: Dynamic, round: INT| bye(t, &who, round, "half"),
    );
    engine.register_fn(
        "bye",
        |t: &mut SwissTournament, who: Dynamic, round: INT, kind: &str| bye(t, &who, round, kind),
    );
    engine.register_fn(
        "withdraw",
        |t: &mut SwissTournament, who: Dynamic, from: INT| -> ScriptResult<()> {
            let p = player(t, &who)?;
            checked(t.tournament.withdraw(p, usize::try_from(from).unwrap_or(0)))
        },
    );
    engine.register_fn("standings", |t: &mut SwissTournament| standings(t));
    engine.register_fn("trf", |t: &mut SwissTournament| trf(t));
    engine.register_fn("to_map", |t: &mut SwissTournament| {
        super::convert::to_dynamic(&t.tournament)
    });
    engine.register_fn("to_string", |t: &mut SwissTournament| summary(t));
    engine.register_fn("to_debug", |t: &mut SwissTournament| summary(t));
    let writes = session.writes.clone();
    engine.register_fn(
        "save",
        move |t: &mut SwissTournament, path: &str| -> ScriptResult<()> {
            let call = format!("t.save(\"{path}\")");
            checked(writes.write(&call, path, || {
                crate::engine_files::create_tournament(path, &t.tournament, true)
            }))
        },
    );
    let writes = session.writes.clone();
    engine.register_fn(
        "save_trf",
        move |t: &mut SwissTournament, path: &str| -> ScriptResult<()> {
            let text = trf(t)?;
            let call = format!("t.save_trf(\"{path}\")");
            checked(writes.write(&call, path, || {
                crate::io::write_file(path, &text, crate::io::Replace::Output)
            }))
        },
    );
}

/// The ruleset's Swiss section, or an error naming the ruleset.
fn swiss_rules(r: &RulesHandle) -> ScriptResult<SwissRules> {
    r.with(|rules| {
        rules.swiss.clone().ok_or_else(|| {
            script_error(format!(
                "ruleset `{}` has no `swiss` section (points and tie-breaks)",
                rules.name
            ))
        })
    })
}

fn create(
    r: &RulesHandle,
    players: &Dynamic,
    rounds: INT,
    name: Option<&str>,
) -> ScriptResult<SwissTournament> {
    let swiss = swiss_rules(r)?;
    let list = read_players(players)?;
    let name = name.unwrap_or_default();
    checked(crate::names::check_printable("tournament", name))?;
    let rounds = usize::try_from(rounds).unwrap_or(0);
    let mut t = checked(Tournament::new(name, &r.name(), rounds, list))?;
    checked(t.check_scores_fit(&points_of(&swiss)))?;
    t.ruleset = Some(r.with(Identity::of));
    Ok(SwissTournament {
        tournament: t,
        rules: r.clone(),
    })
}

/// A list of names or `#{name, rating}` maps, or the path of a player list.
fn read_players(players: &Dynamic) -> ScriptResult<Vec<(String, u32)>> {
    if players.is_string() {
        let path = players.to_string();
        readable(&path, Kind::TeamList)?;
        let list = checked(engine_call(|| crate::engine_files::swiss_players(&path)))?;
        return Ok(list.players);
    }
    let Some(items) = players.read_lock::<Array>() else {
        return Err(script_error(format!(
            "players: give a list of names or #{{name, rating}}, or a player-list file, not a \
             `{}`",
            players.type_name()
        )));
    };
    items
        .iter()
        .enumerate()
        .map(|(i, p)| {
            if p.is_string() {
                return Ok((p.to_string(), 0));
            }
            let e: PlayerEntry = from_dynamic(p, &format!("player {}", i + 1))?;
            Ok((e.name, e.rating))
        })
        .collect()
}

/// A tournament file (its ruleset found beside it) or a map with a tournament file's keys.
fn load(session: &Session, value: &Dynamic) -> ScriptResult<SwissTournament> {
    let (t, file) = if value.is_string() {
        let path = value.to_string();
        readable(&path, Kind::Record)?;
        let t = checked(engine_call(|| crate::engine_files::tournament(&path)))?;
        (t, Some(path))
    } else {
        let t: Tournament = from_dynamic(value, "a tournament")?;
        checked(t.check().map_err(|e| e.context("a tournament")))?;
        (t, None)
    };
    // Rules embedded in the tournament (`swiss new --embed-rules`) are its rules.
    let rules = match &t.embedded_rules {
        Some(text) => {
            let record = file.as_deref().unwrap_or("a tournament");
            let recorded = t.ruleset.as_ref();
            let ruleset = checked(crate::rules::identity::embedded(record, text, recorded))?;
            RulesHandle::from_ruleset(ruleset, record)
        }
        None => ruleset_for(
            session,
            Some(&t.rules),
            file.as_deref(),
            Some(crate::rules::builtin::DEFAULT_SWISS),
        )?,
    };
    swiss_rules(&rules)?;
    Ok(SwissTournament {
        tournament: t,
        rules,
    })
}

/// A player by starting number (an integer or its text) or by name.
fn player(t: &SwissTournament, who: &Dynamic) -> ScriptResult<usize> {
    let typed = match who.as_int() {
        Ok(n) => n.to_string(),
        Err(_) if who.is_string() => who.to_string(),
        Err(_) => {
            return Err(script_error(format!(
                "a player is a starting number or a name, not a `{}`",
                who.type_name()
            )))
        }
    };
    checked(t.tournament.player(&typed))
}

fn add(t: &mut SwissTournament, name: &str, rating: u32) -> ScriptResult<INT> {
    if rating > crate::swiss::tournament::MAX_RATING {
        return Err(script_error(crate::error::Error::out_of_range(
            "rating",
            format!(
                "rating {rating} is more than {}",
                crate::swiss::tournament::MAX_RATING
            ),
        )));
    }
    // On a copy: a refused entry leaves the tournament as it was.
    let mut next = t.tournament.clone();
    let number = checked(next.add(name, rating))?;
    t.tournament = next;
    Ok(number as INT)
}

fn pair(t: &mut SwissTournament) -> ScriptResult<Dynamic> {
    let swiss = swiss_rules(&t.rules)?;
    let mut next = t.tournament.clone();
    let (field, pairing) = checked(engine_call(|| next.pair_next(&swiss)))?;
    t.tournament = next;
    report_under(&t.rules, &RoundPairing::new(&field, &pairing))
}

fn bye(t: &mut SwissTournament, who: &Dynamic, round: INT, kind: &str) -> ScriptResult<()> {
    let kind = match kind {
        "half" => ByeKind::Half,
        "zero" => ByeKind::Zero,
        "full" => ByeKind::Full,
        other => {
            return Err(script_error(format!(
                "bye kind `{other}`: half, zero or full"
            )))
        }
    };
    let p = player(t, who)?;
    checked(
        t.tournament
            .request_bye(p, usize::try_from(round).unwrap_or(0), kind),
    )
}

fn standings(t: &SwissTournament) -> ScriptResult<Dynamic> {
    let swiss = swiss_rules(&t.rules)?;
    let s = checked(engine_call(|| {
        let field = t.tournament.field(&swiss, false)?;
        Ok(crate::swiss::standings::standings(&field, &swiss))
    }))?;
    report_under(&t.rules, &s)
}

fn trf(t: &SwissTournament) -> ScriptResult<String> {
    let swiss = swiss_rules(&t.rules)?;
    checked(engine_call(|| {
        let field = t.tournament.field(&swiss, false)?;
        crate::swiss::trf_out::write(&field, &t.tournament.name, None)
    }))
}

impl SwissTournament {
    /// One line for people: its name, players and rounds paired.
    pub(crate) fn summary(&self) -> String {
        summary(self)
    }
}

fn summary(t: &SwissTournament) -> String {
    let t = &t.tournament;
    let name = if t.name.is_empty() {
        String::from("a Swiss tournament")
    } else {
        format!("Swiss tournament `{}`", t.name)
    };
    format!(
        "{name}: {} players, {} of {} rounds paired",
        t.players.len(),
        t.paired.len(),
        t.rounds
    )
}
