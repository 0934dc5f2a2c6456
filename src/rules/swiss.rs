//! Swiss tournaments: the pairing system, what each result is worth, and the tie-breaks in
//! order (FIDE C.07 names). Engines read these; a club changes them here, never in code.
use crate::error::Result;
use serde::{Deserialize, Serialize};
use {super::doc::Doc, crate::pointer::pointer_push};

/// The pairing systems the Swiss engine knows.
pub(crate) const SYSTEMS: &[&str] = &["dutch"];

/// The tie-breaks the Swiss standings know (FIDE C.07), by the name a ruleset uses.
pub(crate) const TIEBREAKS: &[(&str, &str)] = &[
    (
        "buchholz",
        "sum of the opponents' scores, each counting as draws the rounds he did not play after \
         the last round he played or was given (a withdrawal); the player's own unplayed \
         rounds count his own score (C.07 8.1, 16.3, 16.4)",
    ),
    (
        "buchholz_cut1",
        "Buchholz without one term: a round the player chose not to play, else the lowest \
         (C.07 8.1 with the Cut-1 modifier, 14 and 16.5)",
    ),
    (
        "buchholz_median",
        "Buchholz without the highest term and the one Cut-1 drops (C.07 8.1 with the \
         Median-1 modifier, 14)",
    ),
    (
        "sonneborn_berger",
        "opponents' scores, counted as for the Buchholz, weighted by the result against each; \
         an unplayed round weighs the player's own score by what it earned (C.07 9.1, 16.3, \
         16.4)",
    ),
    (
        "direct_encounter",
        "points among the tied players, if they all met (C.07 6)",
    ),
    (
        "win",
        "rounds that earned a win's points, byes and forfeits included (C.07 7.1, WIN)",
    ),
    ("won", "games won over the board (C.07 7.2, WON)"),
    (
        "wins",
        "games won over the board and by forfeit, byes excluded (arbiter's own; C.07 has WIN \
         and WON)",
    ),
    ("black_games", "games played with black (C.07 7.3, BPG)"),
    (
        "black_wins",
        "games won with black over the board (C.07 7.4, BWG)",
    ),
    (
        "average_rating_of_opponents",
        "average rating of the opponents met over the board (C.07 10.1, ARO)",
    ),
    (
        "performance_rating",
        "tournament performance rating: the average rating of the rated opponents met over \
         the board plus the rating difference dp the ruleset's `performance` table gives for \
         the share of those games' points, in hundredths (C.07 10.2, TPR; FIDE B.02 8.1.1)",
    ),
    (
        "perfect_performance",
        "perfect tournament performance: the lowest rating whose expected score against the \
         rated opponents met over the board, by the ruleset's `performance` table, reaches \
         the points scored in those games; a zero score is the lowest opponent's rating plus \
         the table's dp for 0, a perfect score the highest's plus its dp for 1 (C.07 10.3, \
         PTP; FIDE B.02 8.1.2)",
    ),
    (
        "progressive",
        "sum of the running score after each round (C.07 7.5, PS)",
    ),
    (
        "koya",
        "points against the opponents with at least half the possible score, for round \
         robins (C.07 9.2, KS)",
    ),
];

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct SwissRules {
    /// The pairing system (`dutch`: FIDE C.04.3).
    #[serde(default = "default_system")]
    pub system: String,
    #[serde(default)]
    pub(crate) points: SwissPoints,
    /// Tie-breaks after points, in order, by name (buchholz, buchholz_cut1, sonneborn_berger,
    /// direct_encounter, win, ...: `rules explain` gives each one's FIDE C.07 article).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tiebreakers: Vec<String>,
    /// Accelerated pairings (FIDE C.04.5.1, the Baku method) for the tournaments that ask for
    /// them (`swiss new --accelerate N`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) acceleration: Option<SwissAcceleration>,
    /// The FIDE rating tables the performance tie-breaks read (`performance_rating`,
    /// `perfect_performance`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) performance: Option<SwissPerformance>,
}

/// FIDE's conversion tables between a share of the points and a rating difference (FIDE
/// Handbook B.02, 8.1.1 and 8.1.2).
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct SwissPerformance {
    /// The rating difference dp for a share p of the points, p = 0.00, 0.01, ... 1.00
    /// (101 values, B.02 8.1.1).
    pub rating_difference: Vec<i32>,
    /// The largest rating difference D at which the higher-rated player's expected score is
    /// 0.50, 0.51, ... 0.99 (50 values, B.02 8.1.2); beyond the last it is 1.00, and the
    /// lower-rated player's is the rest of 1.
    pub expected_score_until: Vec<u32>,
}

/// Hundredths of a point from a share of 0 to 1: the `rating_difference` table has one more.
pub(crate) const PERFORMANCE_STEPS: usize = 100;
/// Expected scores from 0.50 to 0.99 by hundredths: the `expected_score_until` table's length.
pub(crate) const EXPECTED_SCORE_STEPS: usize = 50;

/// The tie-breaks that read the `performance` tables.
const NEEDS_PERFORMANCE: &[&str] = &["performance_rating", "perfect_performance"];

/// The Baku acceleration: the top half of the field, rounded up to an even number of
/// players, has virtual points added to its pairing score (never to its standings) in the
/// rounds the tournament accelerates.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct SwissAcceleration {
    /// Virtual points by stage: the accelerated rounds are shared out among the stages in
    /// order, an earlier stage taking the odd round (FIDE: `[1, 0.5]`, a point in the first
    /// half of them, rounded up, half a point in the rest).
    pub virtual_points: Vec<f64>,
}

/// What each result is worth.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct SwissPoints {
    /// Points for a win.
    pub win: f64,
    /// Points for a draw.
    pub draw: f64,
    /// Points for a loss.
    #[serde(default)]
    pub loss: f64,
    /// Defaults to a win.
    #[serde(default)]
    pub forfeit_win: Option<f64>,
    /// Points for a loss by forfeit.
    #[serde(default)]
    pub forfeit_loss: f64,
    /// The pairing-allocated bye; defaults to a win.
    #[serde(default)]
    pub pairing_bye: Option<f64>,
    /// A half-point bye asked for in advance; defaults to a draw.
    #[serde(default)]
    pub half_bye: Option<f64>,
    /// Points for a zero-point bye (asked for, or given to an absent player).
    #[serde(default)]
    pub zero_bye: f64,
}

impl Default for SwissPoints {
    fn default() -> Self {
        SwissPoints {
            win: 1.0,
            draw: 0.5,
            loss: 0.0,
            forfeit_win: None,
            forfeit_loss: 0.0,
            pairing_bye: None,
            half_bye: None,
            zero_bye: 0.0,
        }
    }
}

fn default_system() -> String {
    SYSTEMS[0].to_string()
}

impl SwissPoints {
    /// Every value, named, defaults filled in.
    pub(crate) fn all(&self) -> [(&'static str, f64); 8] {
        [
            ("win", self.win),
            ("draw", self.draw),
            ("loss", self.loss),
            ("forfeit_win", self.forfeit_win.unwrap_or(self.win)),
            ("forfeit_loss", self.forfeit_loss),
            ("pairing_bye", self.pairing_bye.unwrap_or(self.win)),
            ("half_bye", self.half_bye.unwrap_or(self.draw)),
            ("zero_bye", self.zero_bye),
        ]
    }
}

/// Most points a single result may be worth (TRF writes scores as `99.9`).
pub(crate) const MAX_RESULT_POINTS: f64 = 9.9;

/// Whole tenths between 0 and `MAX_RESULT_POINTS`.
fn is_tenths(v: f64) -> bool {
    let tenths = v * 10.0;
    (0.0..=MAX_RESULT_POINTS).contains(&v) && (tenths - tenths.round()).abs() <= 1e-9
}

impl SwissRules {
    pub(crate) fn validate(&self, doc: &Doc, pointer: &str) -> Result<()> {
        if !SYSTEMS.contains(&self.system.as_str()) {
            return Err(doc.error_at(
                &pointer_push(pointer, "system"),
                crate::names::unknown("pairing system", &self.system, SYSTEMS),
            ));
        }
        let points = pointer_push(pointer, "points");
        for (name, v) in self.points.all() {
            if !is_tenths(v) {
                return Err(doc.error_at(
                    &pointer_push(&points, name),
                    format!(
                        "points are tenths between 0 and {MAX_RESULT_POINTS} (as TRF writes them)"
                    ),
                ));
            }
        }
        if let Some(a) = &self.acceleration {
            let at = pointer_push(&pointer_push(pointer, "acceleration"), "virtual_points");
            if a.virtual_points.is_empty() {
                return Err(doc.error_at(&at, "give the virtual points of at least one stage"));
            }
            for (i, &v) in a.virtual_points.iter().enumerate() {
                if !is_tenths(v) {
                    return Err(doc.error_at(
                        &pointer_push(&at, &i.to_string()),
                        format!(
                            "virtual points are tenths between 0 and {MAX_RESULT_POINTS} (as TRF \
                             writes them)"
                        ),
                    ));
                }
            }
        }
        if let Some(p) = &self.performance {
            p.validate(doc, &pointer_push(pointer, "performance"))?;
        }
        let known: Vec<&str> = TIEBREAKS.iter().map(|t| t.0).collect();
        let list = pointer_push(pointer, "tiebreakers");
        for (i, name) in self.tiebreakers.iter().enumerate() {
            let at = pointer_push(&list, &i.to_string());
            if !known.contains(&name.as_str()) {
                return Err(doc.error_at(&at, crate::names::unknown("tie-break", name, &known)));
            }
            if self.tiebreakers[..i].contains(name) {
                return Err(doc.error_at(&at, format!("tie-break `{name}` is listed twice")));
            }
            if NEEDS_PERFORMANCE.contains(&name.as_str()) && self.performance.is_none() {
                return Err(doc.error_at(
                    &at,
                    format!(
                        "tie-break `{name}` reads FIDE's rating tables: give them in \
                         `swiss.performance` (or extend the built-in `swiss`, which has them)"
                    ),
                ));
            }
        }
        Ok(())
    }

    /// A point value in tenths (validated to be whole tenths).
    pub(crate) fn tenths(v: f64) -> u32 {
        (v * 10.0).round() as u32
    }
}

impl SwissPerformance {
    fn validate(&self, doc: &Doc, pointer: &str) -> Result<()> {
        let dp = pointer_push(pointer, "rating_difference");
        if self.rating_difference.len() != PERFORMANCE_STEPS + 1 {
            return Err(doc.error_at(
                &dp,
                format!(
                    "give {} rating differences, for p = 0.00, 0.01, ... 1.00 (this has {})",
                    PERFORMANCE_STEPS + 1,
                    self.rating_difference.len()
                ),
            ));
        }
        if let Some(i) = (1..self.rating_difference.len())
            .find(|&i| self.rating_difference[i] < self.rating_difference[i - 1])
        {
            return Err(doc.error_at(
                &pointer_push(&dp, &i.to_string()),
                "a larger share of the points cannot give a smaller rating difference",
            ));
        }
        let pd = pointer_push(pointer, "expected_score_until");
        if self.expected_score_until.len() != EXPECTED_SCORE_STEPS {
            return Err(doc.error_at(
                &pd,
                format!(
                    "give {EXPECTED_SCORE_STEPS} rating differences, the last for each \
                     expected score 0.50, 0.51, ... 0.99 (this has {})",
                    self.expected_score_until.len()
                ),
            ));
        }
        if let Some(i) = (1..self.expected_score_until.len())
            .find(|&i| self.expected_score_until[i] <= self.expected_score_until[i - 1])
        {
            return Err(doc.error_at(
                &pointer_push(&pd, &i.to_string()),
                "each expected score starts where the one before ends: the differences rise",
            ));
        }
        Ok(())
    }

    /// The rating difference for `hundredths` of the points (0 to 100).
    pub(crate) fn dp(&self, hundredths: u32) -> i32 {
        self.rating_difference[(hundredths as usize).min(PERFORMANCE_STEPS)]
    }

    /// The expected score, in hundredths, of a player `difference` rating points above his
    /// opponent (below, when negative).
    pub(crate) fn expected(&self, difference: i64) -> u32 {
        let d = difference.unsigned_abs();
        let half = (PERFORMANCE_STEPS / 2) as u32;
        let higher = self
            .expected_score_until
            .iter()
            .position(|&limit| d <= u64::from(limit))
            .unwrap_or(self.expected_score_until.len()) as u32
            + half;
        if difference >= 0 {
            higher
        } else {
            PERFORMANCE_STEPS as u32 - higher
        }
    }
}
