//! `dice(expr)`: the exact distribution, as `arbiter dice --json` gives it; and seeded rolls.
//!
//! ```rhai
//! let d = dice("3D6");
//! // #{dice: "3D6", min: 3, max: 18, mean: 10.5, distribution: #{"3": 0.00463, ...}}
//! d.distribution["10"]          // chance of exactly 10
//! let g = rng(42);              // a seeded generator: the same seed, the same rolls
//! g.roll("2D6")
//! ```
use super::convert::{script_error, to_dynamic, ScriptResult};
use super::ApiDoc;
use crate::rules::dice::Dice;
use crate::script::handle::RulesHandle;
use crate::{rules::limits::Limits, script::sandbox::engine_call};
use indexmap::IndexMap;
use rand::SeedableRng;
use rand_pcg::Pcg64Mcg;
use rhai::{Array, Dynamic, Engine, INT};
use serde::Serialize;
use std::sync::{Arc, Mutex};

pub(crate) const HELP: &[ApiDoc] = &[
    ApiDoc::new(
        "dice",
        "dice(expr)",
        "exact distribution of a roll: min, max, mean, distribution (like `arbiter dice --json`)",
    ),
    ApiDoc::new(
        "rng",
        "rng(seed)",
        "a seeded dice roller: g.roll(\"2D6\"), g.rolls(\"D6\", n)",
    ),
    ApiDoc::new("roll", "g.roll(expr)", "one roll from a seeded roller"),
    ApiDoc::new(
        "rolls",
        "g.rolls(expr, n)",
        "n rolls from a seeded roller, as an array",
    ),
];

/// Most convolution steps `dice` does for one expression: keeps a script's `dice("1000D1000")`
/// from computing for minutes (each step is one multiply-add).
pub(crate) const MAX_DICE_WORK: f64 = 5.0e7;

/// What `dice(expr)` returns; the same keys as `arbiter dice --json`.
#[derive(Debug, Serialize)]
pub(crate) struct DiceReport {
    pub dice: String,
    pub min: i64,
    pub max: i64,
    pub mean: f64,
    pub distribution: IndexMap<String, f64>,
}

/// The exact distribution of a dice expression, refusing ones too costly to enumerate.
pub(crate) fn dice_report(expr: &str) -> Result<DiceReport, String> {
    let dice = Dice::parse(expr)?;
    let work = convolution_work(&dice);
    if work > MAX_DICE_WORK {
        return Err(format!(
            "{dice} is too large to enumerate exactly here (about {work:.0} steps; the limit is \
             {MAX_DICE_WORK:.0})"
        ));
    }
    let (low, probs) = dice.distribution()?;
    Ok(DiceReport {
        dice: dice.to_string(),
        min: dice.min(),
        max: dice.max(),
        // From the dice themselves: exact (3D6 is 10.5, not a sum of rounded chances).
        mean: dice.mean(),
        distribution: probs
            .iter()
            .enumerate()
            .map(|(i, p)| ((low + i as i64).to_string(), *p))
            .collect(),
    })
}

/// Multiply-adds the convolution in `Dice::distribution` does.
fn convolution_work(dice: &Dice) -> f64 {
    let mut outcomes = 1.0f64;
    let mut work = 0.0f64;
    for t in dice.terms.iter().filter(|t| t.sides > 0) {
        for _ in 0..t.count.min(100_000) {
            work += outcomes * t.sides as f64;
            outcomes += t.sides as f64 - 1.0;
            if work > MAX_DICE_WORK {
                return work;
            }
        }
    }
    work
}

/// A seeded generator a script rolls dice with.
#[derive(Clone)]
pub(crate) struct Roller(Arc<Mutex<Pcg64Mcg>>);

impl Roller {
    pub(crate) fn new(seed: u64) -> Roller {
        Roller(Arc::new(Mutex::new(Pcg64Mcg::seed_from_u64(seed))))
    }

    pub(crate) fn roll(&self, dice: &Dice) -> i64 {
        let mut g = self.0.lock().unwrap_or_else(|p| p.into_inner());
        dice.roll(&mut *g)
    }
}

pub(crate) fn register(engine: &mut Engine, limits: &Limits) {
    let report = |expr: &str| -> ScriptResult<Dynamic> {
        to_dynamic(
            &engine_call(|| dice_report(expr).map_err(crate::error::Error::msg))
                .map_err(script_error)?,
        )
    };
    engine.register_fn("dice", report);
    engine.register_fn("dice", move |_r: &mut RulesHandle, expr: &str| report(expr));

    engine.register_type_with_name::<Roller>("Roller");
    engine.register_fn("rng", |seed: INT| Roller::new(seed as u64));
    engine.register_fn("roll", |g: &mut Roller, expr: &str| -> ScriptResult<INT> {
        let dice = Dice::parse(expr).map_err(script_error)?;
        Ok(g.roll(&dice) as INT)
    });
    let max_rolls = limits.max_array_size;
    engine.register_fn(
        "rolls",
        move |g: &mut Roller, expr: &str, n: INT| -> ScriptResult<Array> {
            let dice = Dice::parse(expr).map_err(script_error)?;
            if n < 0 || n as usize > max_rolls {
                return Err(script_error(format!(
                    "rolls: {n} rolls is outside 0..={max_rolls} (the sandbox's array limit)"
                )));
            }
            if dice.dice_count() as f64 * n as f64 > MAX_DICE_WORK {
                return Err(script_error(format!(
                    "rolls: {n} rolls of {dice} is too many dice"
                )));
            }
            Ok((0..n)
                .map(|_| Dynamic::from(g.roll(&dice) as INT))
                .collect())
        },
    );
    engine.register_fn("to_string", |_g: &mut Roller| {
        "a seeded dice roller".to_string()
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_d6_report_matches_the_hand_count() {
        let r = dice_report("2D6").unwrap();
        assert_eq!((r.min, r.max), (2, 12));
        assert!((r.mean - 7.0).abs() < 1e-12);
        assert!((r.distribution["7"] - 6.0 / 36.0).abs() < 1e-12);
        assert!((r.distribution["12"] - 1.0 / 36.0).abs() < 1e-12);
        assert_eq!(r.distribution.len(), 11);
    }

    #[test]
    fn huge_expressions_are_refused_before_computing() {
        let e = dice_report("1000D1000").unwrap_err();
        assert!(e.contains("too large"), "{e}");
        // The bound counts the convolution's steps: 100D6 is small, 1000D1000 is not.
        assert!(convolution_work(&Dice::parse("100D6").unwrap()) < 1.0e6);
        assert!(convolution_work(&Dice::parse("1000D1000").unwrap()) > MAX_DICE_WORK);
    }

    #[test]
    fn the_same_seed_rolls_the_same() {
        let d = Dice::parse("3D6").unwrap();
        let (a, b) = (Roller::new(7), Roller::new(7));
        let ra: Vec<i64> = (0..20).map(|_| a.roll(&d)).collect();
        let rb: Vec<i64> = (0..20).map(|_| b.roll(&d)).collect();
        assert_eq!(ra, rb);
        assert!(ra.iter().all(|x| (3..=18).contains(x)));
    }
}
