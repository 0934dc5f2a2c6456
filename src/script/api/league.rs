//! `schedule(n_or_names, options)` and `standings(...)`: the league engine from a script.
//!
//! ```rhai
//! let s = schedule(12, #{ shuffle: true, seed: 7 });   // the keys of `league schedule --json`
//! print(s.carryover.value);                            // plus `teams`, in the league's order
//! let r = rules("bloodbowl");
//! r.league.points.win = 2;                             // a house rule...
//! r.standings(s, [#{ home: 1, away: 12, home_score: 2, away_score: 0 }]);  // ...counts at once
//! // a season file (or map), as `league table --json`:
//! standings("season.yaml")
//! ```
use super::convert::{
    checked, dynamic_to_json, from_dynamic, readable, report_under, script_error, to_dynamic,
    ScriptResult,
};
use super::which_ruleset::ruleset_for;
use super::ApiDoc;
use crate::io::policy::Kind;
use crate::league::season::{RecordRequest, SeasonSchedule};
use crate::league::{
    self,
    schedule::{Method, Round, ScheduleOptions},
    search::SearchBudget,
    season::Season,
    teams::{Team, Teams},
};
use crate::rules::doc::Doc;
use crate::script::{engine::Session, handle::RulesHandle, sandbox::engine_call};
use rhai::{Array, Dynamic, Engine, Map, INT};
use serde::Deserialize;
use serde_json::Value;

pub(crate) const HELP: &[ApiDoc] = &[
    ApiDoc::new(
        "schedule",
        "schedule(n_or_names[, options])",
        "a league schedule (rounds, carryover {value, lower_bound}, breaks, seed, teams); \
         options: method, legs, shuffle, seed, matrix, effort, time_limit",
    ),
    ApiDoc::new(
        "schedule",
        "r.schedule(n_or_names[, options])",
        "a schedule starting from r's league defaults (method, legs, shuffle)",
    ),
    ApiDoc::new(
        "standings",
        "standings(season)",
        "the table of a season (map or path), as `arbiter league table --json`",
    ),
    ApiDoc::new(
        "standings",
        "r.standings(schedule, results)",
        "the table of a schedule and results [#{home, away, home_score, away_score}] under r's \
         points and tie-breakers",
    ),
];

pub(crate) fn register(engine: &mut Engine, session: &Session) {
    let default =
        |s: &Session| ruleset_for(s, None, None, Some(crate::rules::builtin::DEFAULT_LEAGUE));
    let s = session.clone();
    engine.register_fn("schedule", move |teams: Dynamic| {
        schedule(&s, &default(&s)?, &teams, &Dynamic::UNIT)
    });
    let s = session.clone();
    engine.register_fn("schedule", move |teams: Dynamic, options: Dynamic| {
        schedule(&s, &default(&s)?, &teams, &options)
    });
    let s = session.clone();
    engine.register_fn("schedule", move |r: &mut RulesHandle, teams: Dynamic| {
        schedule(&s, r, &teams, &Dynamic::UNIT)
    });
    let s = session.clone();
    engine.register_fn(
        "schedule",
        move |r: &mut RulesHandle, teams: Dynamic, options: Dynamic| {
            schedule(&s, r, &teams, &options)
        },
    );

    let s = session.clone();
    engine.register_fn(
        "standings",
        move |season: Dynamic| -> ScriptResult<Dynamic> {
            let (season, file) = read_season(&season)?;
            let r = ruleset_for(&s, Some(&season.rules), file.as_deref(), None)?;
            table(&r, &season)
        },
    );
    engine.register_fn("standings", |r: &mut RulesHandle, season: Dynamic| {
        table(r, &read_season(&season)?.0)
    });
    let s = session.clone();
    engine.register_fn(
        "standings",
        move |schedule: Dynamic, results: Array| -> ScriptResult<Dynamic> {
            let r = ruleset_for(&s, None, None, Some(crate::rules::builtin::DEFAULT_LEAGUE))?;
            table(&r, &season_of(&r, &schedule, &results)?)
        },
    );
    engine.register_fn(
        "standings",
        |r: &mut RulesHandle, schedule: Dynamic, results: Array| {
            table(r, &season_of(r, &schedule, &results)?)
        },
    );
}

/// What `schedule(teams, options)` accepts in `options`; absent keys keep the ruleset's defaults.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields, default)]
struct ScheduleScriptOptions {
    method: Option<String>,
    legs: Option<u32>,
    shuffle: Option<bool>,
    seed: Option<u64>,
    /// Include the carry-over matrix (`carryover.matrix`).
    matrix: bool,
    /// Moves of the balanced search.
    effort: Option<u64>,
    /// Seconds the balanced search may take (the result then depends on the machine).
    time_limit: Option<f64>,
}

fn schedule(
    session: &Session,
    r: &RulesHandle,
    teams: &Dynamic,
    options: &Dynamic,
) -> ScriptResult<Dynamic> {
    let teams = read_teams(teams)?;
    let given: ScheduleScriptOptions = if options.is_unit() {
        ScheduleScriptOptions::default()
    } else {
        from_dynamic(options, "schedule options")?
    };
    let mut o = checked(r.with(|rules| ScheduleOptions::from_rules(rules.league.as_ref())))?;
    if let Some(m) = &given.method {
        o.method = checked(Method::parse(m))?;
    }
    if let Some(legs) = given.legs {
        o.legs = legs;
    }
    if let Some(shuffle) = given.shuffle {
        o.shuffle = shuffle;
    }
    if let Some(t) = given.time_limit {
        if !(t.is_finite() && t > 0.0) {
            return Err(script_error(
                "schedule options: time_limit takes a positive number of seconds",
            ));
        }
    }
    o.seed = given.seed;
    o.matrix = given.matrix;
    o.search = SearchBudget {
        moves: given.effort,
        seconds: given.time_limit,
    };
    // Refused before anything is built: a schedule a script could not hold (its games are
    // more than the array limit) would take gigabytes on the way to that error.
    let n = teams.len();
    let games = (n * n.saturating_sub(1) / 2).saturating_mul(o.legs.max(1) as usize);
    let most = session.limits.max_array_size;
    if games > most {
        return Err(script_error(format!(
            "schedule: {n} teams over {} leg{} is {games} games, more than a script may hold \
             ({most}, the sandbox's max_array_size)",
            o.legs,
            if o.legs == 1 { "" } else { "s" }
        )));
    }
    let s = checked(engine_call(|| league::schedule::schedule(&o, &teams)))?;
    let mut result = to_dynamic(&s)?;
    // The teams in the league's order, so the schedule can be handed back to `standings`.
    if let Some(mut map) = result.write_lock::<Map>() {
        map.insert("teams".into(), to_dynamic(&s.teams)?);
    }
    Ok(result)
}

/// A number of teams, a list of names, or the path of a team list (one name a line).
fn read_teams(teams: &Dynamic) -> ScriptResult<Teams> {
    if let Some(n) = teams.clone().try_cast::<INT>() {
        let t = Teams::Count(usize::try_from(n).unwrap_or(0));
        checked(t.check())?;
        return Ok(t);
    }
    if teams.is_string() {
        let path = teams.to_string();
        // Team lists are plain text, one name a line (or a record file).
        readable(&path, Kind::TeamList)?;
        return checked(engine_call(|| crate::engine_files::team_names(&path)));
    }
    if let Some(items) = teams.read_lock::<Array>() {
        let names = items
            .iter()
            .map(|t| {
                if t.is_string() {
                    Ok(t.to_string())
                } else {
                    Err(())
                }
            })
            .collect::<Result<Vec<_>, _>>();
        let names = names
            .map_err(|_| script_error("teams: a list of team names must hold only strings"))?;
        let t = Teams::Names(names);
        checked(t.check())?;
        return Ok(t);
    }
    Err(script_error(format!(
        "teams: give a number, a list of names or a team-list file, not a `{}`",
        teams.type_name()
    )))
}

/// A season file or map, and the file it came from.
fn read_season(season: &Dynamic) -> ScriptResult<(Season, Option<String>)> {
    if season.is_string() {
        let path = season.to_string();
        readable(&path, Kind::Record)?;
        return Ok((
            checked(engine_call(|| crate::engine_files::season(&path)))?,
            Some(path),
        ));
    }
    let json = dynamic_to_json(season).map_err(|e| script_error(format!("a season: {e}")))?;
    let doc = Doc::new(json);
    let s: Season = doc
        .deserialize()
        .map_err(|e| script_error(format!("a season: {e}")))?;
    checked(s.check(&doc))?;
    Ok((s, None))
}

/// The parts of a schedule (as `schedule()` returns it) a season keeps.
#[derive(Debug, Deserialize)]
struct ScheduleParts {
    #[serde(default)]
    teams: Option<Vec<Team>>,
    #[serde(default)]
    method: Method,
    #[serde(default = "one_leg")]
    legs: u32,
    #[serde(default)]
    seed: Option<u64>,
    rounds: Vec<Round>,
}

fn one_leg() -> u32 {
    1
}

/// A season under `r` from a schedule and the results played so far (each checked and
/// placed in its round as `arbiter league record` would).
fn season_of(r: &RulesHandle, schedule: &Dynamic, results: &Array) -> ScriptResult<Season> {
    let parts: ScheduleParts = from_dynamic(schedule, "a schedule")?;
    let teams = parts.teams.unwrap_or_else(|| teams_in(&parts.rounds));
    let mut season = Season {
        name: None,
        rules: r.name(),
        ruleset: None,
        embedded_rules: None,
        teams,
        schedule: SeasonSchedule {
            method: parts.method,
            legs: parts.legs,
            seed: parts.seed,
            rounds: parts.rounds,
        },
        results: Vec::new(),
    };
    if season.teams.len() < 2 {
        return Err(script_error("a schedule: a season needs at least 2 teams"));
    }
    for (i, result) in results.iter().enumerate() {
        let what = format!("result {}", i + 1);
        let mut json = dynamic_to_json(result).map_err(|e| script_error(format!("{what}: {e}")))?;
        // Numbered teams may be given as numbers.
        if let Some(map) = json.as_object_mut() {
            for side in ["home", "away"] {
                if let Some(Value::Number(n)) = map.get(side) {
                    let text = n.to_string();
                    map.insert(side.to_string(), Value::String(text));
                }
            }
        }
        let request: RecordRequest = Doc::new(json)
            .deserialize()
            .map_err(|e| script_error(format!("{what}: {e}")))?;
        season
            .record(&request)
            .map_err(|e| script_error(format!("{what}: {e}")))?;
    }
    Ok(season)
}

/// Teams in order of first appearance, for a schedule map made without `teams`.
fn teams_in(rounds: &[Round]) -> Vec<Team> {
    let mut teams: Vec<Team> = Vec::new();
    for r in rounds {
        for t in r
            .matches
            .iter()
            .flat_map(|m| [&m.home, &m.away])
            .chain(r.bye.as_ref())
        {
            if !teams.contains(t) {
                teams.push(t.clone());
            }
        }
    }
    teams
}

fn table(r: &RulesHandle, season: &Season) -> ScriptResult<Dynamic> {
    let t = engine_call(|| r.with(|rules| league::standings::standings(rules, season)));
    report_under(r, &checked(t)?)
}
