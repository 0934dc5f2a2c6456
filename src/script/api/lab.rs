//! The balance lab from a script: `r.sweep`, `r.matrix`, `r.balance` (as `combat sweep`,
//! `combat matrix`, `combat balance --json`), inside the sandbox's budgets.
//!
//! ```rhai
//! let r = rules("startrek");
//! let s = r.sweep("UFP heavy cruiser", "Klingon battle cruiser",
//!                 "/ships/Klingon battle cruiser/shields", [6, 8, 10], 500);
//! s.points[0].a.win_rate;
//! r.matrix(["UFP frigate", "Pirate frigate", "Transport"], 200).strength[0].points;
//! r.balance("UFP heavy cruiser", "Klingon battle cruiser",
//!           "/ships/Klingon battle cruiser/shields", #{ precision: 0.05 }).value;
//! ```
use super::convert::{
    checked, dynamic_to_json, from_dynamic, report_under, script_error, ScriptResult,
};
use super::which_ruleset::ruleset_for;
use super::ApiDoc;
use crate::combat::lab::{
    self, balance::BalanceOptions, matrix::MatrixOptions, parameter::Parameter, sweep::Axis,
};
use crate::combat::{default_tactic::DefaultTactic, sim::SimOptions};
use crate::script::{engine::Session, handle::RulesHandle, sandbox::engine_call};
use rhai::{Array, Dynamic, Engine, Map, INT};

pub(crate) const HELP: &[ApiDoc] = &[
    ApiDoc::new(
        "sweep",
        "r.sweep(a, b, path, values, n[, seed])",
        "n battles at each value of the ruleset value at path, the same battles at every point \
         (as `combat sweep --json`)",
    ),
    ApiDoc::new(
        "matrix",
        "r.matrix(ships, n[, seed])",
        "every ordered pair of ships ([] for all), n battles a cell; strengths and points (as \
         `combat matrix --json`)",
    ),
    ApiDoc::new(
        "balance",
        "r.balance(a, b, path, options)",
        "the value at path that evens the matchup; options: min, max, target, precision, seed, \
         max_battles (as `combat balance --json`)",
    ),
];

/// Most battles one call may fight in all: the sandbox bound `simulate` has.
const MAX_BATTLES: u64 = 1_000_000;

pub(crate) fn register(engine: &mut Engine, session: &Session) {
    let s = session.clone();
    let current = move || ruleset_for(&s, None, None, Some(crate::rules::builtin::DEFAULT_COMBAT));

    let c = current.clone();
    engine.register_fn(
        "sweep",
        move |a: &str, b: &str, path: &str, values: Array, n: INT| {
            sweep(&c()?, a, b, path, &values, n, 1)
        },
    );
    engine.register_fn(
        "sweep",
        |r: &mut RulesHandle, a: &str, b: &str, path: &str, values: Array, n: INT| {
            sweep(r, a, b, path, &values, n, 1)
        },
    );
    engine.register_fn(
        "sweep",
        |r: &mut RulesHandle, a: &str, b: &str, path: &str, values: Array, n: INT, seed: INT| {
            sweep(r, a, b, path, &values, n, seed)
        },
    );
    let c = current.clone();
    engine.register_fn("matrix", move |ships: Array, n: INT| {
        matrix(&c()?, &ships, n, 1)
    });
    engine.register_fn("matrix", |r: &mut RulesHandle, ships: Array, n: INT| {
        matrix(r, &ships, n, 1)
    });
    engine.register_fn(
        "matrix",
        |r: &mut RulesHandle, ships: Array, n: INT, seed: INT| matrix(r, &ships, n, seed),
    );
    let c = current;
    engine.register_fn(
        "balance",
        move |a: &str, b: &str, path: &str, options: Map| balance(&c()?, a, b, path, &options),
    );
    engine.register_fn(
        "balance",
        |r: &mut RulesHandle, a: &str, b: &str, path: &str, options: Map| {
            balance(r, a, b, path, &options)
        },
    );
}

fn count(what: &str, n: INT) -> ScriptResult<u64> {
    match u64::try_from(n) {
        Ok(n) if (1..=MAX_BATTLES).contains(&n) => Ok(n),
        _ => Err(script_error(format!(
            "{what}: give 1 to {MAX_BATTLES} battles, not {n}"
        ))),
    }
}

fn seed_of(what: &str, seed: INT) -> ScriptResult<u64> {
    u64::try_from(seed).map_err(|_| {
        script_error(format!(
            "{what}: a seed is a whole number of 0 or more, not {seed}"
        ))
    })
}

/// The bound on a whole call: `total` battles at most.
fn within_budget(what: &str, total: u64) -> ScriptResult<()> {
    if total > MAX_BATTLES {
        return Err(script_error(format!(
            "{what}: {total} battles in all is more than a script call fights ({MAX_BATTLES})"
        )));
    }
    Ok(())
}

fn sweep(
    r: &RulesHandle,
    a: &str,
    b: &str,
    path: &str,
    values: &Array,
    n: INT,
    seed: INT,
) -> ScriptResult<Dynamic> {
    let n = count("sweep", n)?;
    let seed = seed_of("sweep", seed)?;
    if values.is_empty() || values.len() > lab::parameter::MAX_VALUES {
        return Err(script_error(format!(
            "sweep: give 1 to {} values, not {}",
            lab::parameter::MAX_VALUES,
            values.len()
        )));
    }
    within_budget("sweep", n.saturating_mul(values.len() as u64))?;
    let values = values
        .iter()
        .map(|v| dynamic_to_json(v).map_err(|e| script_error(format!("sweep values: {e}"))))
        .collect::<ScriptResult<Vec<_>>>()?;
    let report = r.with(|rules| {
        let t = DefaultTactic::of(rules)?;
        let axis = Axis {
            parameter: Parameter::new(rules, path)?,
            values,
        };
        let opts = SimOptions::new(a, b, n, seed);
        let total = n * axis.values.len() as u64;
        engine_call(|| {
            crate::progress::with_battles(Some(total), |tick| {
                lab::sweep::sweep(rules, &opts, &[axis], [&t, &t], tick)
            })
        })
    });
    report_under(r, &checked(report)?)
}

fn matrix(r: &RulesHandle, ships: &Array, n: INT, seed: INT) -> ScriptResult<Dynamic> {
    let n = count("matrix", n)?;
    let seed = seed_of("matrix", seed)?;
    let ships = ships
        .iter()
        .map(|s| {
            s.clone().into_string().map_err(|t| {
                script_error(format!("matrix: a ship is named by a string, not a `{t}`"))
            })
        })
        .collect::<ScriptResult<Vec<String>>>()?;
    let report = r.with(|rules| {
        let k = if ships.is_empty() {
            crate::combat::context::Context::new(rules)?.ships.len() as u64
        } else {
            ships.len() as u64
        };
        let total = (k * k.saturating_sub(1)).saturating_mul(n);
        if total > MAX_BATTLES {
            return Err(crate::error::Error::msg(format!(
                "matrix: {k} ships at {n} battles a cell is {total} battles, more than a script \
                 call fights ({MAX_BATTLES})"
            )));
        }
        let o = MatrixOptions {
            ships,
            battles: n,
            seed,
            points_scale: 100.0,
        };
        let t = DefaultTactic::of(rules)?;
        engine_call(|| {
            crate::progress::with_battles(Some(total), |tick| {
                lab::matrix::matrix(rules, &o, [&t, &t], tick)
            })
        })
    });
    report_under(r, &checked(report)?)
}

fn balance(r: &RulesHandle, a: &str, b: &str, path: &str, options: &Map) -> ScriptResult<Dynamic> {
    let o: BalanceOptions = from_dynamic(&Dynamic::from_map(options.clone()), "balance options")?;
    if o.max_battles > MAX_BATTLES {
        return Err(script_error(format!(
            "balance options: max_battles is at most {MAX_BATTLES} in a script, not {}",
            o.max_battles
        )));
    }
    let report = r.with(|rules| {
        let t = DefaultTactic::of(rules)?;
        engine_call(|| {
            crate::progress::with_battles(None, |tick| {
                lab::balance::balance(rules, a, b, path, &o, [&t, &t], tick)
            })
        })
    });
    report_under(r, &checked(report)?)
}
