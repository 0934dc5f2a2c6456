//! League formats: scheduling defaults, points for a result and the tie-breaker order.
//!
//! Everything a league engine counts with lives here, so a club changes its points or its
//! tie-breakers in the ruleset, never in code.
use crate::error::{Error, Result};
use serde::{Deserialize, Serialize};
use {super::doc::Doc, crate::pointer::pointer_push};

/// The scheduling methods the league engine knows.
pub(crate) const METHODS: &[&str] = &["rotation", "berger", "balanced"];

/// Most legs a league may play (each is a full round robin).
pub(crate) const MAX_LEGS: u32 = 100;

/// The tie-breakers the standings know, by the name a ruleset uses for them.
pub(crate) const TIEBREAKERS: &[(&str, &str)] = &[
    (
        "head_to_head",
        "points in the games among the tied teams (re-applied to any smaller group left level)",
    ),
    (
        "head_to_head_difference",
        "score difference in the games among the tied teams",
    ),
    (
        "head_to_head_scored",
        "scored in the games among the tied teams",
    ),
    ("difference", "score difference (for minus against)"),
    ("scored", "more scored (for)"),
    ("conceded", "fewer conceded (against)"),
    ("won", "more games won"),
    ("away_scored", "more scored in away games"),
    (
        "fewer_played",
        "fewer games played (a team with games in hand ranks first)",
    ),
];

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct LeagueRules {
    /// Default scheduling method: rotation (the source's), berger (FIDE) or balanced.
    #[serde(default = "default_method")]
    pub method: String,
    /// Default number of legs (each further leg swaps home and away).
    #[serde(default = "default_legs")]
    pub legs: u32,
    /// Play the rounds in a seeded random order by default (the source's cure for the
    /// "following" pattern).
    #[serde(default)]
    pub shuffle: bool,
    /// League points for each result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub points: Option<Points>,
    /// Tie-breakers after points, in order, by name (head_to_head, difference, scored, won,
    /// ...: the schema lists them all).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tiebreakers: Vec<String>,
    /// What a score counts ("touchdowns", "goals"), for headings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score_name: Option<String>,
}

/// League points for a win, a draw and a loss.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct Points {
    /// League points for a win.
    pub win: f64,
    /// League points for a draw.
    pub draw: f64,
    /// League points for a loss.
    pub loss: f64,
}

fn default_method() -> String {
    METHODS[0].to_string()
}

fn default_legs() -> u32 {
    1
}

impl LeagueRules {
    pub(crate) fn validate(&self, doc: &Doc, pointer: &str) -> Result<()> {
        if !METHODS.contains(&self.method.as_str()) {
            return Err(Error::unknown("scheduling method", &self.method, METHODS)
                .placed_at(doc, &pointer_push(pointer, "method")));
        }
        if self.legs == 0 {
            return Err(doc.error_at(
                &pointer_push(pointer, "legs"),
                "a league needs at least one leg",
            ));
        }
        if self.legs > MAX_LEGS {
            return Err(doc.error_at(
                &pointer_push(pointer, "legs"),
                format!("a league plays at most {MAX_LEGS} legs"),
            ));
        }
        if let Some(p) = &self.points {
            for (name, v) in [("win", p.win), ("draw", p.draw), ("loss", p.loss)] {
                if !v.is_finite() {
                    return Err(doc.error_at(
                        &pointer_push(&pointer_push(pointer, "points"), name),
                        "points must be a finite number",
                    ));
                }
            }
        }
        let known: Vec<&str> = TIEBREAKERS.iter().map(|t| t.0).collect();
        let list = pointer_push(pointer, "tiebreakers");
        for (i, name) in self.tiebreakers.iter().enumerate() {
            let at = pointer_push(&list, &i.to_string());
            if !known.contains(&name.as_str()) {
                return Err(Error::unknown("tie-breaker", name, &known).placed_at(doc, &at));
            }
            if self.tiebreakers[..i].contains(name) {
                return Err(doc.error_at(&at, format!("tie-breaker `{name}` is listed twice")));
            }
        }
        Ok(())
    }
}
