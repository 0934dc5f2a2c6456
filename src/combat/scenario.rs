//! YAML scenarios: which ships, where, facing where, with what crews, who moves first, and
//! the turn limit. Errors point at the file, line and column.
use super::context::Context;
use super::hex::Hex;
use super::ship::ShipClass;
use super::turn::Setup;
use crate::error::Result;
use crate::rules::model::Ruleset;
use crate::rules::tactic::TacticRules;
use crate::{pointer::pointer_push, rules::doc::Doc};
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Scenario {
    /// The ruleset (name or path); the command line's --rules wins if given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    pub(crate) a: ScenarioShip,
    pub(crate) b: ScenarioShip,
    /// `a` or `b` (default `a`, the attacker).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_limit: Option<u32>,
    /// Defaults for `sim`: battles and seed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub battles: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct ScenarioShip {
    /// A ship of the ruleset (name or alias).
    pub ship: String,
    /// Axial hex coordinates [q, r] (default: a at [0, 0], b at [start_distance, 0]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub position: Option<[i32; 2]>,
    /// 0..5, counter-clockwise from +q (default: facing each other, 0 and 3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub facing: Option<u8>,
    /// Shields raised before turn 1 (default true: a meeting engagement, ruling R9; false
    /// plays an ambush on this ship).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shields_up: Option<bool>,
    /// Crew skills that differ from the ruleset's (gunnery: 75, ...).
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub crew: IndexMap<String, u32>,
    /// The side's tactic: a built-in name (`classic`), or the default tactic's knobs that
    /// differ from the ruleset's `tactic` section (`{aggression: 0.2, cloak: {max_turns: 2}}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tactic: Option<serde_json::Value>,
}

/// Lay `changes` over `base`: every key must be one of the base's, with a number for a
/// number and a map for a map.
fn overlay(
    base: &mut serde_json::Value,
    changes: &serde_json::Value,
    at: &str,
    err: &dyn Fn(&str, String) -> crate::error::Error,
) -> Result<()> {
    use serde_json::Value;
    let (Value::Object(base), Value::Object(changes)) = (base, changes) else {
        return Err(err(at, "expected a map of tactic knobs".to_string()));
    };
    for (key, change) in changes {
        let here = pointer_push(at, key);
        let Some(old) = base.get_mut(key) else {
            let known: Vec<&str> = base.keys().map(String::as_str).collect();
            return Err(err(
                &here,
                format!(
                    "unknown tactic knob `{key}`{}; knobs here are {}",
                    crate::names::suggestion(key, known.iter().copied()),
                    known.join(", ")
                ),
            ));
        };
        match (&*old, change) {
            (Value::Object(_), Value::Object(_)) => overlay(old, change, &here, err)?,
            (Value::Number(_), Value::Number(_)) => *old = change.clone(),
            (Value::Object(_), _) => {
                return Err(err(&here, format!("`{key}` is a map of knobs")));
            }
            _ => return Err(err(&here, format!("`{key}` is a number"))),
        }
    }
    Ok(())
}

/// How far from the origin a scenario may place a ship (keeps hex arithmetic in range).
pub(crate) const MAX_COORDINATE: u32 = 1_000_000;

/// A scenario resolved against a ruleset.
#[derive(Debug, Clone)]
pub(crate) struct Resolved {
    pub classes: [ShipClass; 2],
    pub setup: Setup,
}

impl Scenario {
    /// Side `side`'s tactic (0 is a): its name if the scenario names one, and the default
    /// tactic's knobs, the ruleset's with the scenario's changes. `doc` locates errors.
    pub(crate) fn side_tactic(
        &self,
        side: usize,
        rules: &Ruleset,
        doc: Option<&Doc>,
    ) -> Result<(Option<String>, TacticRules)> {
        let base = TacticRules::of(rules)?;
        let (key, ship) = if side == 0 {
            ("a", &self.a)
        } else {
            ("b", &self.b)
        };
        let at = pointer_push(&pointer_push("", key), "tactic");
        let err = |pointer: &str, message: String| {
            let e = crate::error::Error::msg(message);
            match doc {
                Some(d) => e.placed_at(d, pointer),
                None => e,
            }
        };
        match &ship.tactic {
            None => Ok((None, base)),
            Some(serde_json::Value::String(name)) => Ok((Some(name.clone()), base)),
            Some(changes @ serde_json::Value::Object(_)) => {
                let mut value = serde_json::to_value(&base)
                    .map_err(|e| crate::error::Error::msg(e.to_string()))?;
                overlay(&mut value, changes, &at, &err)?;
                let knobs: TacticRules = serde_json::from_value(value)
                    .map_err(|e| err(&at, format!("a tactic's knobs: {e}")))?;
                match doc {
                    Some(d) => knobs.validate(d, &at)?,
                    None => knobs.validate(&Doc::new(serde_json::Value::Null), "")?,
                }
                Ok((None, knobs))
            }
            Some(_) => Err(err(
                &at,
                "a side's `tactic` is a tactic's name or a map of the default tactic's knobs"
                    .to_string(),
            )),
        }
    }

    /// A scenario from a loaded document (`crate::engine_files::scenario` reads the file).
    pub(crate) fn from_doc(doc: &Doc) -> Result<Scenario> {
        doc.deserialize()
    }

    /// Resolve ships and positions; `doc` (if the scenario came from a file) locates errors.
    pub(crate) fn resolve(
        &self,
        rules: &Ruleset,
        ctx: &Context,
        doc: Option<&Doc>,
    ) -> Result<Resolved> {
        let err = |pointer: &str, e: crate::error::Error| match doc {
            Some(d) => e.placed_at(d, pointer),
            None => e,
        };
        let mut setup = Setup::standard(ctx);
        let mut classes = Vec::new();
        for (i, (key, ship)) in [("a", &self.a), ("b", &self.b)].into_iter().enumerate() {
            let p = pointer_push("", key);
            let mut class = ctx
                .class(rules, &ship.ship)
                .map_err(|e| err(&pointer_push(&p, "ship"), e))?;
            class
                .set_crew(&ship.crew)
                .map_err(|e| err(&pointer_push(&p, "crew"), e))?;
            if let Some([q, r]) = ship.position {
                if q.unsigned_abs() > MAX_COORDINATE || r.unsigned_abs() > MAX_COORDINATE {
                    return Err(err(
                        &pointer_push(&p, "position"),
                        crate::error::Error::msg(format!(
                            "coordinates are at most {MAX_COORDINATE} from 0"
                        )),
                    ));
                }
                setup.positions[i] = Hex::new(q, r);
            }
            if let Some(f) = ship.facing {
                if f > 5 {
                    return Err(err(
                        &pointer_push(&p, "facing"),
                        crate::error::Error::msg("facing is 0 to 5"),
                    ));
                }
                setup.facings[i] = f;
            }
            if let Some(up) = ship.shields_up {
                setup.shields_up[i] = up;
            }
            classes.push(class);
        }
        if setup.positions[0] == setup.positions[1] {
            // Facing, arcs and the face hit all need two different hexes.
            let at = if self.b.position.is_some() {
                "/b/position"
            } else {
                "/a/position"
            };
            return Err(err(
                at,
                crate::error::Error::msg("the two ships cannot start in the same hex"),
            ));
        }
        if let Some(first) = &self.first {
            setup.first = match super::side::Side::from_letter(first) {
                Some(side) => side,
                None => {
                    return Err(err(
                        "/first",
                        crate::error::Error::msg(format!("`first` is a or b, not `{first}`")),
                    ))
                }
            };
        }
        if let Some(t) = self.turn_limit {
            if t > crate::rules::combat::MAX_TURN_LIMIT {
                return Err(err(
                    "/turn_limit",
                    crate::error::Error::msg(format!(
                        "turn_limit is at most {}",
                        crate::rules::combat::MAX_TURN_LIMIT
                    )),
                ));
            }
            setup.turn_limit = t;
        }
        let b = classes.pop().expect("two ships");
        let a = classes.pop().expect("two ships");
        Ok(Resolved {
            classes: [a, b],
            setup,
        })
    }
}
