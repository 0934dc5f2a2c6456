//! `simulate(a, b, n, seed)` and `volley(a, b, range, dice)`: the combat engine from a script,
//! with rhai tactics (see `script::tactic`).
//!
//! ```rhai
//! let r = rules("startrek");
//! r.ship("UFP heavy cruiser").shields = 9;                 // the next simulation sees it
//! r.simulate("UFP heavy cruiser", "Klingon battle cruiser", 1000, 1).a.win_rate;
//! fn tactic(me, enemy, ctx) { if me.hull_left < 4 { #{ flee: true } } else { #{ range: 2 } } }
//! r.simulate("UFP heavy cruiser", "Klingon battle cruiser", 1000, 1, #{ tactic_a: Fn("tactic") });
//! volley("UFP heavy cruiser", "Klingon battle cruiser", 5, 4).hit_chance;
//! volley("Romulan bird of prey", "UFP frigate", 3, "torpedo");
//! ```
use super::convert::{checked, input, report_under, script_error, ScriptResult};
use super::which_ruleset::ruleset_for;
use super::ApiDoc;
use crate::combat::{
    self, context::Context, default_tactic::DefaultTactic, scenario::Scenario, sim::SimOptions,
    tactics::Tactic, volley::Shot,
};
use crate::script::tactic::ScriptTactic;
use crate::script::{engine::Session, handle::RulesHandle, sandbox::engine_call};
use rhai::{Dynamic, Engine, FnPtr, Map, INT};

pub(crate) const HELP: &[ApiDoc] = &[
    ApiDoc::new(
        "simulate",
        "simulate(a, b, n, seed[, options])",
        "n battles of ship a against ship b (as `combat sim --json`, plus by_turn); options: \
         tactic_a, tactic_b (Fn(\"name\") or a .rhai file), threads, scenario (map or path)",
    ),
    ApiDoc::new(
        "simulate",
        "r.simulate(a, b, n, seed[, options])",
        "the same with r, ship and combat changes included",
    ),
    ApiDoc::new(
        "volley",
        "volley(a, b, range[, dice])",
        "exact outcome of one phaser volley of `dice` dice (all when absent) or \"torpedo\" (as \
         `combat volley --json`)",
    ),
    ApiDoc::new("volley", "r.volley(a, b, range[, dice])", "the same with r"),
    ApiDoc::new(
        "tactic",
        "fn tactic(me, enemy, ctx)",
        "a side's tactic, called each turn: return #{range, fire_at, torpedo_at, warp_margin, \
         flee} (or ()) to steer the classic tactic (sides without one play the default tactic)",
    ),
];

/// Most battles one call may ask for: a sandbox bound (a script must not start hours of work).
const MAX_BATTLES: INT = 1_000_000;

/// Most worker threads one call may start (each has its own stack).
const MAX_THREADS: INT = 64;

pub(crate) fn register(engine: &mut Engine, session: &Session) {
    let s = session.clone();
    let current = move || ruleset_for(&s, None, None, Some(crate::rules::builtin::DEFAULT_COMBAT));

    let (c, s) = (current.clone(), session.clone());
    engine.register_fn("simulate", move |a: &str, b: &str, n: INT, seed: INT| {
        simulate(&s, &c()?, a, b, n, seed, &Map::new())
    });
    let (c, s) = (current.clone(), session.clone());
    engine.register_fn(
        "simulate",
        move |a: &str, b: &str, n: INT, seed: INT, options: Map| {
            simulate(&s, &c()?, a, b, n, seed, &options)
        },
    );
    let s = session.clone();
    engine.register_fn(
        "simulate",
        move |r: &mut RulesHandle, a: &str, b: &str, n: INT, seed: INT| {
            simulate(&s, r, a, b, n, seed, &Map::new())
        },
    );
    let s = session.clone();
    engine.register_fn(
        "simulate",
        move |r: &mut RulesHandle, a: &str, b: &str, n: INT, seed: INT, options: Map| {
            simulate(&s, r, a, b, n, seed, &options)
        },
    );

    let c = current.clone();
    engine.register_fn("volley", move |a: &str, b: &str, range: INT| {
        volley(&c()?, a, b, range, &Dynamic::UNIT)
    });
    let c = current;
    engine.register_fn(
        "volley",
        move |a: &str, b: &str, range: INT, dice: Dynamic| volley(&c()?, a, b, range, &dice),
    );
    engine.register_fn(
        "volley",
        |r: &mut RulesHandle, a: &str, b: &str, range: INT| volley(r, a, b, range, &Dynamic::UNIT),
    );
    engine.register_fn(
        "volley",
        |r: &mut RulesHandle, a: &str, b: &str, range: INT, dice: Dynamic| {
            volley(r, a, b, range, &dice)
        },
    );
}

/// The option keys `simulate` accepts.
const SIM_OPTIONS: &[&str] = &["tactic_a", "tactic_b", "threads", "scenario", "first"];

fn simulate(
    session: &Session,
    r: &RulesHandle,
    a: &str,
    b: &str,
    n: INT,
    seed: INT,
    options: &Map,
) -> ScriptResult<Dynamic> {
    if !(1..=MAX_BATTLES).contains(&n) {
        return Err(script_error(format!(
            "simulate: give 1 to {MAX_BATTLES} battles, not {n}"
        )));
    }
    let seed = u64::try_from(seed).map_err(|_| {
        script_error(format!(
            "simulate: a seed is a whole number of 0 or more, not {seed}"
        ))
    })?;
    let mut threads = None;
    let mut scenario: Option<Scenario> = None;
    let mut first = None;
    let mut tactics: [Option<ScriptTactic>; 2] = [None, None];
    for (key, value) in options.iter() {
        match key.as_str() {
            "tactic_a" => tactics[0] = tactic(session, value)?,
            "tactic_b" => tactics[1] = tactic(session, value)?,
            "threads" => {
                let t = value
                    .as_int()
                    .ok()
                    .filter(|&t| (1..=MAX_THREADS).contains(&t));
                let t = t.ok_or_else(|| {
                    script_error(format!(
                        "simulate options: threads is 1 to {MAX_THREADS}, not {value}"
                    ))
                })?;
                // More threads than battles would only start idle threads.
                threads = Some(t.min(n) as usize);
            }
            // Ships, positions, facings, crews, who moves first, turn limit (as `sim --scenario`).
            "scenario" => scenario = Some(input::<Scenario>(value, "a scenario")?),
            // Who moves first: "a", "b" or "alternate" (the default, R9).
            "first" => {
                let text = value.clone().into_string().unwrap_or_default();
                first = Some(combat::side::First::parse(&text).ok_or_else(|| {
                    script_error(format!(
                        "simulate options: first is \"a\", \"b\" or \"alternate\", not {value}"
                    ))
                })?);
            }
            other => {
                return Err(script_error(format!(
                    "simulate options: unknown `{other}`{}; options are {}",
                    crate::names::suggestion(other, SIM_OPTIONS.iter().copied()),
                    SIM_OPTIONS.join(", ")
                )))
            }
        }
    }
    let opts = SimOptions {
        threads,
        scenario,
        first,
        ..SimOptions::new(a, b, n as u64, seed)
    };
    // Sides without a script play the default tactic, with the ruleset's style.
    let built_in = checked(r.with(DefaultTactic::of))?;
    let sides: [&dyn Tactic; 2] = [side(&tactics[0], &built_in), side(&tactics[1], &built_in)];
    // A broken tactic (a typo, an endless loop) usually fails in its first battle: try one
    // before starting them all, so the script hears of it at once.
    if tactics.iter().any(Option::is_some) {
        let pilot = SimOptions {
            battles: 1,
            threads: Some(1),
            ..opts.clone()
        };
        checked(engine_call(|| {
            r.with(|rules| combat::sim::simulate_with(rules, &pilot, sides, &|_| {}))
        }))?;
        if let Some(e) = tactics.iter().flatten().find_map(|t| t.take_failure()) {
            return Err(script_error(e));
        }
    }
    let bar = crate::progress::Progress::battles(opts.battles);
    let tick = |n: u64| bar.tick(n);
    let report =
        engine_call(|| r.with(|rules| combat::sim::simulate_with(rules, &opts, sides, &tick)));
    drop(bar);
    let report = checked(report)?;
    // A tactic that failed played the classic tactic after its failure: say so, not a result.
    if let Some(e) = tactics.iter().flatten().find_map(|t| t.take_failure()) {
        return Err(script_error(e));
    }
    report_under(r, &report)
}

fn side<'a>(script: &'a Option<ScriptTactic>, built_in: &'a DefaultTactic) -> &'a dyn Tactic {
    match script {
        Some(t) => t,
        None => built_in,
    }
}

/// A tactic from a script function (`Fn("name")`, a closure) or a tactic file; `()` is none.
fn tactic(session: &Session, value: &Dynamic) -> ScriptResult<Option<ScriptTactic>> {
    if value.is_unit() {
        return Ok(None);
    }
    if let Some(f) = value.clone().try_cast::<FnPtr>() {
        let functions = session
            .functions()
            .ok_or_else(|| script_error("a tactic: this session has no script functions"))?;
        return checked(ScriptTactic::from_script(f, &functions, &session.limits)).map(Some);
    }
    if value.is_string() {
        let path = value.to_string();
        // Where it is first (a refused file is refused as such), then what it is.
        crate::io::policy::check_script_location(&path).map_err(script_error)?;
        if crate::io::FileKind::of(&path) != Some(crate::io::FileKind::Script) {
            return Err(script_error(format!(
                "{path}: a tactic file is a .rhai script defining `fn tactic(me, enemy, ctx)`"
            )));
        }
        super::convert::readable(&path, crate::io::policy::Kind::Script)?;
        return checked(engine_call(|| {
            ScriptTactic::from_file(&path, &session.limits)
        }))
        .map(Some);
    }
    Err(script_error(format!(
        "a tactic is Fn(\"name\") or the path of a .rhai file, not a `{}`",
        value.type_name()
    )))
}

fn volley(r: &RulesHandle, a: &str, b: &str, range: INT, dice: &Dynamic) -> ScriptResult<Dynamic> {
    let range = u32::try_from(range).map_err(|_| {
        script_error(format!(
            "volley: range must be a whole number of hexes, not {range}"
        ))
    })?;
    let report = r.with(|rules| -> crate::error::Result<_> {
        let shot = if dice.is_unit() {
            Shot::Phasers {
                dice: Context::new(rules)?.class(rules, a)?.phaser_dice,
            }
        } else if let Ok(k) = dice.as_int() {
            Shot::Phasers {
                dice: u32::try_from(k).map_err(|_| {
                    crate::error::Error::msg(format!("volley: {k} is not a number of dice"))
                })?,
            }
        } else if dice.is_string() && crate::names::same(&dice.to_string(), "torpedo") {
            Shot::Torpedo
        } else {
            return Err(crate::error::Error::msg(format!(
                "volley: the shot is a number of phaser dice or \"torpedo\", not {dice}"
            )));
        };
        engine_call(|| combat::volley::volley(rules, a, b, range, shot))
    });
    report_under(r, &checked(report)?)
}
