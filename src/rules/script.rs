//! Scripting settings of a ruleset: sandbox limits and rule hooks.
use super::doc::Doc;
use crate::error::Result;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ScriptRules {}

impl ScriptRules {
    pub fn validate(&self, _doc: &Doc, _pointer: &str) -> Result<()> {
        Ok(())
    }
}
