//! Scoring and rating parameters (CEP, FIGF percentile, Advanced Civilization pot, Elo, ...).
use super::doc::Doc;
use super::model::Ruleset;
use crate::error::Result;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ScoringRules {
    /// Which scoring or rating system the ruleset uses.
    pub system: String,
}

impl ScoringRules {
    pub fn validate(&self, _ruleset: &Ruleset, _doc: &Doc, _pointer: &str) -> Result<()> {
        Ok(())
    }
}
