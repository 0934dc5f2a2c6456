//! League formats: scheduling method, legs, shuffle, points and tie-breakers.
use super::doc::Doc;
use crate::error::Result;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct LeagueRules {
    /// Default scheduling method.
    pub method: String,
}

impl LeagueRules {
    pub fn validate(&self, _doc: &Doc, _pointer: &str) -> Result<()> {
        Ok(())
    }
}
