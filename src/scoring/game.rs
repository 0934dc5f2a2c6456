//! The inputs of scoring: a CEP game record and a result table (NAME=SCORE rows).
use crate::error::Error;
use crate::{pointer::pointer_push, rules::doc::Doc};
use serde::{Deserialize, Serialize};

/// How a side's scenario ended.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Outcome {
    Win,
    Loss,
    Draw,
}

/// One CEP scenario as played: its length, its sides, who flew what and how it ended.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct GameRecord {
    /// The ruleset to score with when none is given on the command line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<String>,
    /// The turn the scenario ended on.
    pub turns: i64,
    /// Played with the rank ladder; absent: ranked when any player has a rank.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ranked: Option<bool>,
    pub sides: Vec<SideRecord>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SideRecord {
    pub name: String,
    pub(crate) result: Outcome,
    pub players: Vec<PlayerRecord>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PlayerRecord {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rank: Option<String>,
    pub(crate) ships: Vec<ShipRecord>,
}

/// Ships of one kind flown by a player. `type` names a ship of the ruleset; explicit
/// `value` / `structure` give (or override) its numbers.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct ShipRecord {
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structure: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<i64>,
    /// The turn the ship entered (1 when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entered: Option<i64>,
    /// The turn the scenario made it leave the map, if it did (that turn counts as present).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub left: Option<i64>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub destroyed: bool,
    /// Structure points at the end (full when absent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub structure_left: Option<f64>,
}

/// A result table for score-based systems: players and their final scores, in listed order.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ResultTable {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
    pub(crate) players: Vec<ResultRow>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct ResultRow {
    pub name: String,
    pub score: f64,
}

impl ResultTable {
    pub(crate) fn from_pairs(pairs: &[(String, f64)]) -> ResultTable {
        ResultTable {
            rules: None,
            players: pairs
                .iter()
                .map(|(n, s)| ResultRow {
                    name: n.clone(),
                    score: *s,
                })
                .collect(),
        }
    }
}

/// Any scorable input.
#[derive(Debug, Clone, PartialEq)]
pub enum ScoreInput {
    Game(GameRecord),
    Table(ResultTable),
}

impl ScoreInput {
    /// The ruleset the input names for itself (`rules:`).
    pub(crate) fn rules(&self) -> Option<&str> {
        match self {
            ScoreInput::Game(g) => g.rules.as_deref(),
            ScoreInput::Table(t) => t.rules.as_deref(),
        }
    }

    /// Read a loaded file: a game record has `sides`, a result table `players`.
    pub fn from_doc(doc: &Doc) -> crate::error::Result<ScoreInput> {
        let Some(map) = doc.value.as_object() else {
            return Err(doc.error_at(
                "",
                "expected a game record (`turns`, `sides`) or a result table (`players`)",
            ));
        };
        if map.contains_key("sides") {
            Ok(ScoreInput::Game(doc.deserialize()?))
        } else if map.contains_key("players") {
            Ok(ScoreInput::Table(doc.deserialize()?))
        } else {
            Err(doc.error_at(
                "",
                "expected a game record (with `sides`) or a result table (with `players`)",
            ))
        }
    }
}

/// A problem with an input at a JSON pointer into it (`Invalid::new(pointer, message)`):
/// `locate` makes it a located error when the input came from a file; otherwise it names the
/// path.
pub(crate) type Invalid = Error;

/// Pointer helpers for the places engines report problems at.
pub(crate) fn at(base: &str, segment: impl ToString) -> String {
    pointer_push(base, &segment.to_string())
}

/// Most players (or sides) in one game: multiplayer ratings compare every pair of a game.
pub(crate) const MAX_PLAYERS_PER_GAME: usize = 256;

/// The error for a game with more than `MAX_PLAYERS_PER_GAME` players.
pub(crate) fn too_many(kind: &str) -> String {
    format!("more than {MAX_PLAYERS_PER_GAME} {kind}s in one game")
}

/// Reject a missing or repeated name (compared ignoring case and accents), or one name too
/// many, at `pointer_of(i)`.
pub(crate) fn unique_names<'a>(
    names: impl IntoIterator<Item = &'a str>,
    kind: &str,
    pointer_of: impl Fn(usize) -> String,
) -> Result<(), Invalid> {
    let mut seen = std::collections::HashSet::new();
    for (i, name) in names.into_iter().enumerate() {
        if i == MAX_PLAYERS_PER_GAME {
            return Err(Invalid::new(pointer_of(i), too_many(kind)));
        }
        let n = crate::names::normalize(name);
        if n.is_empty() {
            return Err(Invalid::new(
                pointer_of(i),
                format!("a {kind} needs a name"),
            ));
        }
        if !seen.insert(n) {
            return Err(Invalid::new(
                pointer_of(i),
                format!("{kind} `{name}` is listed twice"),
            ));
        }
    }
    Ok(())
}
