//! A ship (or any playing piece): scenario-scoring stats and combat stats.
use super::dice::{Dice, DicePair};
use super::doc::Doc;
use super::formula::NumberOrFormula;
use crate::error::Result;
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

/// Every field but `aliases` is optional: a CEP ruleset needs only `value` and `structure`,
/// a combat ruleset the combat stats. Engines say which ones they miss.
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Ship {
    /// Other names the ship answers to (the source's Spanish names, say).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub aliases: Vec<String>,

    // --- scenario scoring (CEP) ---
    /// Victory-point value of one ship.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
    /// Initial structure points.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structure: Option<f64>,

    // --- combat ---
    /// Shield rating of each of the six faces.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shields: Option<u32>,
    /// Hull roll: intact / damaged ("3D6/3D3").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) hull: Option<DicePair>,
    /// Most energy that may go into maneuvers in a turn (Vm).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_speed: Option<u32>,
    /// Free 60° turns per move (M).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub maneuverability: Option<u32>,
    /// Phaser dice a turn ("4D6").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phasers: Option<Dice>,
    /// Torpedoes carried.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub torpedoes: Option<u32>,
    /// Which kind of torpedo (a key of the ruleset's `combat.torpedoes`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub torpedo_kind: Option<String>,
    /// Whether the ship has a cloaking device.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cloak: Option<bool>,
    /// Repair teams (EqR).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub repair_teams: Option<u32>,
    /// Security teams (EqS).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub security_teams: Option<u32>,
    /// Size class (a key of the ruleset's `combat.sizes`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub size: Option<String>,
    /// Generator output a turn: a number, or a formula of the ship's stats.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) generator: Option<NumberOrFormula>,
    /// Auxiliary battery capacity: a number, or a formula (may use `generator`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) battery: Option<NumberOrFormula>,
    /// Crew skills that differ from the ruleset's defaults.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub crew: IndexMap<String, u32>,
}

/// The ship stats a generator or battery formula may read.
pub const SHIP_FORMULA_VARIABLES: &[&str] = &[
    "shields",
    "max_speed",
    "maneuverability",
    "phaser_dice",
    "torpedoes",
    "repair_teams",
    "security_teams",
    "generator",
];

/// What the formula of a `generator` or `battery` field may read: the stats, and a battery
/// also the generator's output (a generator cannot read itself).
pub(crate) fn ship_formula_variables(field: &str) -> Vec<&'static str> {
    SHIP_FORMULA_VARIABLES
        .iter()
        .copied()
        .filter(|v| !(field == "generator" && *v == "generator"))
        .collect()
}

impl Ship {
    pub(crate) fn validate(&self, doc: &Doc, pointer: &str) -> Result<()> {
        for (field, value) in [("generator", &self.generator), ("battery", &self.battery)] {
            if let Some(NumberOrFormula::Formula(f)) = value {
                let allowed = ship_formula_variables(field);
                let p = crate::pointer::pointer_push(pointer, field);
                f.check(&allowed).map_err(|e| doc.formula_error(&p, &e))?;
            }
        }
        Ok(())
    }

    /// The value of a stat a formula may read, by its formula name.
    pub(crate) fn stat(&self, name: &str) -> Option<f64> {
        Some(match name {
            "shields" => self.shields? as f64,
            "max_speed" => self.max_speed? as f64,
            "maneuverability" => self.maneuverability? as f64,
            "phaser_dice" => self.phasers.as_ref()?.dice_count() as f64,
            "torpedoes" => self.torpedoes? as f64,
            "repair_teams" => self.repair_teams? as f64,
            "security_teams" => self.security_teams? as f64,
            "generator" => self.generator_output()?,
            _ => return None,
        })
    }

    /// Generator output a turn, with its formula evaluated.
    pub(crate) fn generator_output(&self) -> Option<f64> {
        let g = self.generator.as_ref()?;
        let mut without_generator = self.clone();
        without_generator.generator = None;
        Some(g.value(&|v| without_generator.stat(v)))
    }
}
