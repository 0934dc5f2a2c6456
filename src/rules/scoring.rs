//! Scoring and rating parameters (CEP, FIGF percentile, Advanced Civilization pot, Elo,
//! Weng-Lin, TrueSkill). Every number an engine uses is here; the engines hold none.
use super::doc::{pointer_push, Doc};
use super::formula::{Formula, NumberOrFormula};
use super::model::Ruleset;
use crate::error::Result;
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

/// Which engine scores or rates with this ruleset.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum System {
    /// CEP scenario points from a game record (sides, players, ships).
    Cep,
    /// FIGF percentile of a result table.
    Percentile,
    /// Advanced Civilization ladder pot of a result table.
    Pot,
    /// Elo: two-player, and multiplayer Elo for free-for-all tables.
    Elo,
    /// Weng-Lin (OpenSkill) Bayesian rating, from the skillratings crate.
    WengLin,
    /// TrueSkill Bayesian rating, from the skillratings crate.
    #[serde(rename = "trueskill")]
    TrueSkill,
}

impl System {
    pub fn name(self) -> &'static str {
        match self {
            System::Cep => "cep",
            System::Percentile => "percentile",
            System::Pot => "pot",
            System::Elo => "elo",
            System::WengLin => "weng_lin",
            System::TrueSkill => "trueskill",
        }
    }

    /// The section of `scoring` this system reads its parameters from.
    fn section(self) -> &'static str {
        self.name()
    }
}

fn yes() -> bool {
    true
}

fn is_true(b: &bool) -> bool {
    *b
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ScoringRules {
    pub system: System,
    /// Honour the `period` of rated games: the games of one period are all computed against
    /// the ratings at its start (FIDE). `false`: every game on its own, in file order.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub periods: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cep: Option<CepRules>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub percentile: Option<PercentileRules>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pot: Option<PotRules>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub elo: Option<EloRules>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weng_lin: Option<WengLinRules>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trueskill: Option<TrueSkillRules>,
}

// ---- CEP ------------------------------------------------------------------------------------

/// The result index `In` of a side.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ResultIndex {
    pub win: f64,
    pub loss: f64,
    pub draw: f64,
}

/// The grade factor: `G = base + step · Ig`, with Ig clamped to ±clamp.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct GradeRules {
    pub base: f64,
    pub step: f64,
    /// Largest grade index in either direction.
    pub clamp: i64,
    /// G for everyone when the game is played without ranks.
    pub unranked: f64,
}

/// How CEP rounds.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Rounding {
    /// Exact factors; only the final points are rounded (halves away from zero).
    Final,
    /// Result, violence and grade rounded to two decimals first, as the source's example does.
    TwoDecimals,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct CepRules {
    pub index: ResultIndex,
    pub grade: GradeRules,
    /// The rank ladder: rank name → level (a higher level is a higher rank).
    pub ranks: IndexMap<String, i64>,
    pub rounding: Rounding,
    /// The points of a player, from the factors in `CEP_VARIABLES`.
    pub points: Formula,
}

/// The variables a CEP points formula may read.
pub const CEP_VARIABLES: &[(&str, &str)] = &[
    ("result", "Res = In · Nj / Nb"),
    ("violence", "v = Rp / Vp"),
    ("grade", "G = base + step · Ig"),
    ("game_value", "Vp: victory points of every ship in the game"),
    ("index", "In: the result index of the player's side"),
    ("own_value", "Nj: victory points of the player's ships"),
    ("side_value", "Nb: victory points of the player's side"),
    ("residue", "Rp: residual points of the surviving ships"),
    ("grade_index", "Ig: rank steps below the enemy, clamped"),
    ("turns", "turns the game lasted"),
];

impl CepRules {
    /// The ladder's own spelling and level of a rank name (case and accents ignored).
    pub fn rank(&self, name: &str) -> Option<(&str, i64)> {
        self.ranks
            .iter()
            .find(|(k, _)| crate::names::same(k, name))
            .map(|(k, v)| (k.as_str(), *v))
    }
}

// ---- FIGF percentile ------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum TieRule {
    /// Every player tied for first gets the whole bonus.
    Full,
    /// Players tied for first split the bonus.
    Split,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Aggregate {
    Sum,
    Mean,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PercentileRules {
    /// The winner's percentile (score / winner's score · scale).
    pub scale: f64,
    /// Extra points for the winner, on top of the gap to the runner-up.
    pub bonus: f64,
    pub ties: TieRule,
    /// A new player's ranking value.
    pub initial: f64,
    /// How the ranking combines a player's game points.
    pub aggregate: Aggregate,
}

// ---- Advanced Civilization pot --------------------------------------------------------------

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Remainder {
    /// One point at a time to the players in ranking order, top first, round again if needed.
    TopFirst,
    /// One point at a time to the largest dropped fractions first.
    LargestFraction,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PotRules {
    /// Ladder points of a new player.
    pub initial: i64,
    /// What each player pays into the pot.
    pub stake: i64,
    /// Shares are whole 1/share_scale parts of the game spread (1000: a percentage with one
    /// decimal).
    pub share_scale: i64,
    pub remainder: Remainder,
}

// ---- Ratings --------------------------------------------------------------------------------

/// The variables a K-factor formula may read.
pub const K_VARIABLES: &[&str] = &["rating", "games"];

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct EloRules {
    /// Development coefficient: a number, or a formula of `rating` and `games` (played so far).
    pub k: NumberOrFormula,
    pub initial: f64,
    /// Rating difference at which the stronger player is expected to score 10 to 1.
    pub scale: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct WengLinRules {
    pub initial: f64,
    pub uncertainty: f64,
    pub beta: f64,
    /// Lower bound of the uncertainty updates.
    pub tolerance: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct TrueSkillRules {
    pub initial: f64,
    pub uncertainty: f64,
    pub beta: f64,
    pub draw_probability: f64,
    pub dynamics: f64,
}

// ---- validation -----------------------------------------------------------------------------

/// Largest rank level, grade clamp, stake, share scale or ladder start (a billion).
pub const MAX_WHOLE_NUMBER: f64 = 1e9;

impl ScoringRules {
    pub fn validate(&self, _ruleset: &Ruleset, doc: &Doc, pointer: &str) -> Result<()> {
        let present = match self.system {
            System::Cep => self.cep.is_some(),
            System::Percentile => self.percentile.is_some(),
            System::Pot => self.pot.is_some(),
            System::Elo => self.elo.is_some(),
            System::WengLin => self.weng_lin.is_some(),
            System::TrueSkill => self.trueskill.is_some(),
        };
        if !present {
            return Err(doc.error_at(
                &pointer_push(pointer, "system"),
                format!(
                    "system `{}` needs its parameters in a `{}` section of `scoring`",
                    self.system.name(),
                    self.system.section()
                ),
            ));
        }
        let at = |section: &str, field: &str| pointer_push(&pointer_push(pointer, section), field);
        let positive = |x: f64, section: &str, field: &str| -> Result<()> {
            if x.is_finite() && x > 0.0 {
                Ok(())
            } else {
                Err(doc.error_at(
                    &at(section, field),
                    format!("`{field}` must be a positive number"),
                ))
            }
        };
        // Whole numbers the engines add and subtract in 64 bits: far below where that wraps.
        super::ranges::at_most(
            doc,
            &pointer_push(pointer, "cep"),
            MAX_WHOLE_NUMBER,
            &["index", "points"],
        )?;
        super::ranges::at_most(doc, &pointer_push(pointer, "pot"), MAX_WHOLE_NUMBER, &[])?;
        if let Some(c) = &self.cep {
            let allowed: Vec<&str> = CEP_VARIABLES.iter().map(|v| v.0).collect();
            let p = at("cep", "points");
            c.points
                .check(&allowed)
                .map_err(|e| doc.formula_error(&p, &e))?;
            if c.grade.clamp < 0 {
                return Err(doc.error_at(
                    &pointer_push(&at("cep", "grade"), "clamp"),
                    "`clamp` cannot be negative",
                ));
            }
            if c.ranks.is_empty() {
                return Err(doc.error_at(
                    &at("cep", "ranks"),
                    "the rank ladder needs at least one rank",
                ));
            }
            let mut seen: std::collections::HashMap<String, &str> =
                std::collections::HashMap::new();
            for name in c.ranks.keys() {
                if let Some(first) = seen.insert(crate::names::normalize(name), name) {
                    return Err(doc.error_at_key(
                        &pointer_push(&at("cep", "ranks"), name),
                        format!(
                            "rank `{name}` is the same name as `{first}` (case and accents are \
                             ignored)"
                        ),
                    ));
                }
            }
        }
        if let Some(p) = &self.percentile {
            positive(p.scale, "percentile", "scale")?;
        }
        if let Some(p) = &self.pot {
            if p.stake < 0 {
                return Err(doc.error_at(&at("pot", "stake"), "`stake` cannot be negative"));
            }
            if p.share_scale < 1 {
                return Err(doc.error_at(
                    &at("pot", "share_scale"),
                    "`share_scale` must be at least 1",
                ));
            }
        }
        if let Some(e) = &self.elo {
            positive(e.scale, "elo", "scale")?;
            if let NumberOrFormula::Formula(f) = &e.k {
                let p = at("elo", "k");
                f.check(K_VARIABLES)
                    .map_err(|err| doc.formula_error(&p, &err))?;
            }
        }
        if let Some(w) = &self.weng_lin {
            positive(w.uncertainty, "weng_lin", "uncertainty")?;
            positive(w.beta, "weng_lin", "beta")?;
        }
        if let Some(t) = &self.trueskill {
            positive(t.uncertainty, "trueskill", "uncertainty")?;
            positive(t.beta, "trueskill", "beta")?;
            if !(0.0..1.0).contains(&t.draw_probability) {
                return Err(doc.error_at(
                    &at("trueskill", "draw_probability"),
                    "`draw_probability` must be in [0, 1)",
                ));
            }
        }
        Ok(())
    }
}
