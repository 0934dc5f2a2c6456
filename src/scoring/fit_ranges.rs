//! What a fit may tune, and over which range: one row a parameter. The ranges are
//! data (here and in `arbiter help ratings`), not numbers inside the search.
use crate::rules::scoring::{ScoringRules, System};

/// What a range's bounds are multiples of.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Unit {
    /// Plain numbers (a chance, Glicko-2's τ: scale-free).
    One,
    /// The ruleset's own value of the parameter (K 32 with [1/8, 8]: 4 to 256).
    Itself,
    /// Another value of the same system (TrueSkill's τ as a share of a newcomer's σ).
    Key(&'static str),
}

/// One tunable parameter: `scoring.<system>.<key>`, searched between `low` and `high`
/// (multiples of `unit`), on a log scale when `log` (a factor matters, not a difference).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Knob {
    pub system: System,
    pub key: &'static str,
    pub low: f64,
    pub high: f64,
    pub(crate) unit: Unit,
    pub log: bool,
}

/// Every tunable parameter. Elo's `k` may be a formula of the player's record: then each
/// number outside its conditions (the K values, not the thresholds) is a parameter of this
/// row's range, around its own value.
pub const KNOBS: &[Knob] = &[
    Knob {
        system: System::Elo,
        key: "k",
        low: 0.125,
        high: 8.0,
        unit: Unit::Itself,
        log: true,
    },
    // Glickman suggests τ from 0.3 to 1.2; a little either side.
    Knob {
        system: System::Glicko2,
        key: "tau",
        low: 0.1,
        high: 1.5,
        unit: Unit::One,
        log: false,
    },
    Knob {
        system: System::Glicko2,
        key: "deviation",
        low: 0.25,
        high: 1.5,
        unit: Unit::Itself,
        log: true,
    },
    Knob {
        system: System::TrueSkill,
        key: "beta",
        low: 0.125,
        high: 8.0,
        unit: Unit::Itself,
        log: true,
    },
    Knob {
        system: System::TrueSkill,
        key: "dynamics",
        low: 0.0,
        high: 0.1,
        unit: Unit::Key("uncertainty"),
        log: false,
    },
    Knob {
        system: System::TrueSkill,
        key: "draw_probability",
        low: 0.0,
        high: 0.5,
        unit: Unit::One,
        log: false,
    },
    Knob {
        system: System::WengLin,
        key: "beta",
        low: 0.125,
        high: 8.0,
        unit: Unit::Itself,
        log: true,
    },
    Knob {
        system: System::WengLin,
        key: "dynamics",
        low: 0.0,
        high: 0.1,
        unit: Unit::Key("uncertainty"),
        log: false,
    },
];

/// The knobs of one system.
pub(crate) fn knobs(system: System) -> impl Iterator<Item = &'static Knob> {
    KNOBS.iter().filter(move |k| k.system == system)
}

/// A plain-number parameter of `rules` (None: absent, or a formula).
pub(crate) fn get(rules: &ScoringRules, system: System, key: &str) -> Option<f64> {
    use crate::rules::formula::NumberOrFormula;
    match system {
        System::Elo => rules.elo.as_ref().and_then(|e| match key {
            "k" => match &e.k {
                NumberOrFormula::Number(k) => Some(*k),
                NumberOrFormula::Formula(_) => None,
            },
            "scale" => Some(e.scale),
            _ => None,
        }),
        System::Glicko2 => rules.glicko2.as_ref().and_then(|g| match key {
            "tau" => Some(g.tau),
            "deviation" => Some(g.deviation),
            "volatility" => Some(g.volatility),
            _ => None,
        }),
        System::TrueSkill => rules.trueskill.as_ref().and_then(|t| match key {
            "beta" => Some(t.beta),
            "dynamics" => Some(t.dynamics),
            "draw_probability" => Some(t.draw_probability),
            "uncertainty" => Some(t.uncertainty),
            _ => None,
        }),
        System::WengLin => rules.weng_lin.as_ref().and_then(|w| match key {
            "beta" => Some(w.beta),
            "dynamics" => Some(w.dynamics),
            "uncertainty" => Some(w.uncertainty),
            _ => None,
        }),
        _ => None,
    }
}

/// Set a plain-number parameter of `rules` (one `get` can read).
pub(crate) fn set(rules: &mut ScoringRules, system: System, key: &str, value: f64) {
    use crate::rules::formula::NumberOrFormula;
    match system {
        System::Elo => {
            if let Some(e) = rules.elo.as_mut() {
                match key {
                    "k" => e.k = NumberOrFormula::Number(value),
                    "scale" => e.scale = value,
                    _ => {}
                }
            }
        }
        System::Glicko2 => {
            if let Some(g) = rules.glicko2.as_mut() {
                match key {
                    "tau" => g.tau = value,
                    "deviation" => g.deviation = value,
                    "volatility" => g.volatility = value,
                    _ => {}
                }
            }
        }
        System::TrueSkill => {
            if let Some(t) = rules.trueskill.as_mut() {
                match key {
                    "beta" => t.beta = value,
                    "dynamics" => t.dynamics = value,
                    "draw_probability" => t.draw_probability = value,
                    "uncertainty" => t.uncertainty = value,
                    _ => {}
                }
            }
        }
        System::WengLin => {
            if let Some(w) = rules.weng_lin.as_mut() {
                match key {
                    "beta" => w.beta = value,
                    "dynamics" => w.dynamics = value,
                    "uncertainty" => w.uncertainty = value,
                    _ => {}
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_knob_reads_and_writes_its_own_value() {
        let base = crate::rules::load::load("elo").unwrap();
        for knob in KNOBS {
            let mut rules = base.scoring.clone().unwrap();
            assert!(knob.low < knob.high, "{knob:?}");
            assert!(!knob.log || knob.low > 0.0, "{knob:?}");
            let before = get(&rules, knob.system, knob.key).unwrap_or_else(|| panic!("{knob:?}"));
            set(&mut rules, knob.system, knob.key, before + 0.25);
            assert_eq!(
                get(&rules, knob.system, knob.key),
                Some(before + 0.25),
                "{knob:?}"
            );
            if let Unit::Key(unit) = knob.unit {
                assert!(get(&rules, knob.system, unit).is_some(), "{knob:?}");
            }
        }
    }
}
