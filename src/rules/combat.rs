//! Combat constants: sizes and damage thresholds, hit locations, skill rolls, energy costs...
use super::doc::Doc;
use super::model::Ruleset;
use crate::error::Result;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CombatRules {
    /// Hexes between the ships at the start.
    pub start_distance: u32,
}

impl CombatRules {
    pub fn validate(&self, _ruleset: &Ruleset, _doc: &Doc, _pointer: &str) -> Result<()> {
        Ok(())
    }
}
