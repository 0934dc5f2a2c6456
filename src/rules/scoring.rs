//! Scoring and rating parameters (CEP, FIGF percentile, Advanced Civilization pot, Elo,
//! Weng-Lin, TrueSkill). Every number an engine uses is here; the engines hold none.
use super::formula::{Formula, NumberOrFormula};
use super::model::Ruleset;
use crate::error::Result;
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use {super::doc::Doc, crate::pointer::pointer_push};

/// Which engine scores or rates with this ruleset.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, schemars::JsonSchema, PartialEq, Eq)]
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
    /// Weng-Lin (OpenSkill) Bayesian rating: Plackett–Luce, Bradley–Terry or Thurstone–Mosteller.
    WengLin,
    /// TrueSkill Bayesian rating, from the skillratings crate.
    #[serde(rename = "trueskill")]
    TrueSkill,
    /// Glicko-2 (rating, deviation, volatility) with rating periods, from the skillratings crate.
    #[serde(rename = "glicko2")]
    Glicko2,
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
            System::Glicko2 => "glicko2",
        }
    }

    /// The systems that rate players from finishing orders (and can predict a game).
    pub const RATINGS: [System; 4] = [
        System::Elo,
        System::Glicko2,
        System::WengLin,
        System::TrueSkill,
    ];

    /// A built-in system name (`elo`, `glicko2`, `weng_lin`, `trueskill`, ...).
    pub(crate) fn named(name: &str) -> Option<System> {
        [
            System::Cep,
            System::Percentile,
            System::Pot,
            System::Elo,
            System::WengLin,
            System::TrueSkill,
            System::Glicko2,
        ]
        .into_iter()
        .find(|s| s.name().eq_ignore_ascii_case(name.trim()))
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

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ScoringRules {
    /// The scoring or rating system.
    pub system: System,
    /// Honour the `period` of rated games: the games of one period are all computed against
    /// the ratings at its start (FIDE). `false`: every game on its own, in file order.
    #[serde(default = "yes", skip_serializing_if = "is_true")]
    pub periods: bool,
    /// CEP scenario scoring (`system: cep`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) cep: Option<CepRules>,
    /// FIGF percentile scoring (`system: percentile`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) percentile: Option<PercentileRules>,
    /// Advanced Civilization pot ladder (`system: pot`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pot: Option<PotRules>,
    /// Elo ratings (`system: elo`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) elo: Option<EloRules>,
    /// Weng-Lin (OpenSkill) ratings (`system: weng_lin`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) weng_lin: Option<WengLinRules>,
    /// TrueSkill ratings (`system: trueskill`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) trueskill: Option<TrueSkillRules>,
    /// Glicko-2 ratings (`system: glicko2`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) glicko2: Option<Glicko2Rules>,
    /// Players with fewer rated games than this are provisional: flagged, and left off the
    /// leaderboard unless asked for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provisional_games: Option<u32>,
}

// ---- CEP ------------------------------------------------------------------------------------

/// The result index `In` of a side.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct ResultIndex {
    /// In of a winning side.
    pub win: f64,
    /// In of a losing side.
    pub loss: f64,
    /// In of a side in a drawn game.
    pub draw: f64,
}

/// The grade factor: `G = base + step · Ig`, with Ig clamped to ±clamp.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct GradeRules {
    /// G when the ranks are equal (the constant of G = base + step · Ig).
    pub base: f64,
    /// What each rank step below the enemy adds to G.
    pub step: f64,
    /// Largest grade index in either direction.
    pub clamp: i64,
    /// G for everyone when the game is played without ranks.
    pub unranked: f64,
}

/// How CEP rounds.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, schemars::JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Rounding {
    /// Exact factors; only the final points are rounded (halves away from zero).
    Final,
    /// Result, violence and grade rounded to two decimals first, as the source's example does.
    TwoDecimals,
}

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct CepRules {
    pub index: ResultIndex,
    pub grade: GradeRules,
    /// The rank ladder: rank name → level (a higher level is a higher rank).
    pub ranks: IndexMap<String, i64>,
    pub rounding: Rounding,
    /// The points of a player: a formula of result, violence, grade, game_value, index,
    /// own_value, side_value, residue, grade_index and turns.
    pub points: Formula,
}

super::formula::formula_variables! {
    /// What a CEP points formula reads: one field per variable, named as the formula names it.
    pub struct CepVariables {
        /// Res = In · Nj / Nb
        result,
        /// v = Rp / Vp
        violence,
        /// G = base + step · Ig
        grade,
        /// Vp: victory points of every ship in the game
        game_value,
        /// In: the result index of the player's side
        index,
        /// Nj: victory points of the player's ships
        own_value,
        /// Nb: victory points of the player's side
        side_value,
        /// Rp: residual points of the surviving ships
        residue,
        /// Ig: rank steps below the enemy, clamped
        grade_index,
        /// turns the game lasted
        turns,
    }
}

impl CepRules {
    /// The ladder's own spelling and level of a rank name (case and accents ignored).
    pub(crate) fn rank(&self, name: &str) -> Option<(&str, i64)> {
        self.ranks
            .iter()
            .find(|(k, _)| crate::names::same(k, name))
            .map(|(k, v)| (k.as_str(), *v))
    }
}

// ---- FIGF percentile ------------------------------------------------------------------------

#[derive(Debug, Clone, Copy, Serialize, Deserialize, schemars::JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub(crate) enum TieRule {
    /// Every player tied for first gets the whole bonus.
    Full,
    /// Players tied for first split the bonus.
    Split,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, schemars::JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Aggregate {
    Sum,
    Mean,
}

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct PercentileRules {
    /// The winner's percentile (score / winner's score · scale).
    pub scale: f64,
    /// Extra points for the winner, on top of the gap to the runner-up.
    pub bonus: f64,
    /// How players tied for first share the winner's bonus.
    pub ties: TieRule,
    /// A new player's ranking value.
    pub initial: f64,
    /// How the ranking combines a player's game points.
    pub aggregate: Aggregate,
}

// ---- Advanced Civilization pot --------------------------------------------------------------

#[derive(Debug, Clone, Copy, Serialize, Deserialize, schemars::JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum Remainder {
    /// One point at a time to the players in ranking order, top first, round again if needed.
    TopFirst,
    /// One point at a time to the largest dropped fractions first.
    LargestFraction,
}

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct PotRules {
    /// Ladder points of a new player.
    pub initial: i64,
    /// What each player pays into the pot.
    pub stake: i64,
    /// Shares are whole 1/share_scale parts of the game spread (1000: a percentage with one
    /// decimal).
    pub share_scale: i64,
    /// Who gets the points that rounding the shares leaves over.
    pub remainder: Remainder,
}

// ---- Ratings --------------------------------------------------------------------------------

/// What a K formula may read: the player's record (rating, games played so far, idle periods
/// and days since their last game) and `field`, the players of the game's rating period (a
/// tournament), or of the game itself outside one.
pub const K_VARIABLES: &[&str] = &["rating", "games", "idle_periods", "idle_days", "field"];
/// A decay formula also reads the ruleset's initial rating.
pub const DECAY_VARIABLES: &[&str] = &["rating", "games", "idle_periods", "idle_days", "initial"];
/// What an initial-rating formula may read: the players rated so far.
pub const INITIAL_VARIABLES: &[&str] = &["mean_rating", "players"];

/// The ratings a system's numbers live between: a starting rating outside is on another
/// system's scale (an Elo 1613 given to TrueSkill), refused rather than mixed in.
pub(crate) type Range = [f64; 2];

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct EloRules {
    /// Development coefficient: a number, or a formula of the player's record (rating, games,
    /// idle_periods, idle_days, field).
    pub k: NumberOrFormula,
    /// A new player's rating: a number, or a formula of `mean_rating` and `players` (those
    /// rated so far).
    pub initial: NumberOrFormula,
    /// Rating difference at which the stronger player is expected to score 10 to 1.
    pub scale: f64,
    /// A returning player's rating after idle time: a formula of rating, games, idle_periods,
    /// idle_days and initial; none: no decay.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decay: Option<Formula>,
    /// The ratings this system's numbers live between, [low, high]: a starting rating outside is refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<Range>,
}

/// Weng and Lin's models, as python `openskill` names them.
#[derive(
    Debug, Clone, Copy, Default, Serialize, Deserialize, schemars::JsonSchema, PartialEq, Eq,
)]
#[serde(rename_all = "snake_case")]
pub(crate) enum WengLinModel {
    /// Plackett–Luce: a finishing order as successive choices of the best of those left.
    PlackettLuce,
    /// Bradley–Terry over every pair of players (logistic).
    #[default]
    BradleyTerryFull,
    /// Bradley–Terry over the nearest places only.
    BradleyTerryPart,
    /// Thurstone–Mosteller over every pair (normal, with a draw margin).
    ThurstoneMostellerFull,
    /// Thurstone–Mosteller over the nearest places only.
    ThurstoneMostellerPart,
}

impl WengLinModel {
    fn is_default(&self) -> bool {
        *self == WengLinModel::default()
    }
}

fn default_window() -> usize {
    4
}

fn is_default_window(w: &usize) -> bool {
    *w == default_window()
}

fn default_draw_margin() -> f64 {
    0.1
}

fn is_default_draw_margin(x: &f64) -> bool {
    *x == default_draw_margin()
}

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct WengLinRules {
    /// A new player's μ.
    pub initial: f64,
    /// A new player's σ.
    pub uncertainty: f64,
    /// Performance spread: the skill gap at which the stronger player wins about 76% of games.
    pub beta: f64,
    /// Lower bound of the uncertainty updates.
    pub tolerance: f64,
    /// Uncertainty added before each game (τ, openskill's `tau`), so ratings keep moving;
    /// none: 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub dynamics: f64,
    /// Which of Weng and Lin's models: plackett_luce, bradley_terry_full (the default),
    /// bradley_terry_part, thurstone_mosteller_full or thurstone_mosteller_part.
    #[serde(default, skip_serializing_if = "WengLinModel::is_default")]
    pub model: WengLinModel,
    /// The partial models compare a player with this many places either side (openskill: 4).
    #[serde(default = "default_window", skip_serializing_if = "is_default_window")]
    pub window: usize,
    /// The Thurstone–Mosteller models' draw margin ε (openskill: 0.1).
    #[serde(
        default = "default_draw_margin",
        skip_serializing_if = "is_default_draw_margin"
    )]
    pub draw_margin: f64,
    /// The ratings this system's numbers live between, [low, high]: a starting rating outside is refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<Range>,
    /// The conservative rating shown beside μ is μ − conservative · σ.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conservative: Option<f64>,
}

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct TrueSkillRules {
    /// A new player's μ.
    pub initial: f64,
    /// A new player's σ.
    pub uncertainty: f64,
    /// Performance spread: the skill gap at which the stronger player wins about 76% of games.
    pub beta: f64,
    /// The chance of a draw between equal players.
    pub draw_probability: f64,
    /// Uncertainty added before each game (τ), so ratings keep moving.
    pub dynamics: f64,
    /// The ratings this system's numbers live between, [low, high]: a starting rating outside is refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<Range>,
    /// The conservative rating shown beside μ is μ − conservative · σ.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conservative: Option<f64>,
}

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct Glicko2Rules {
    /// A new player's rating.
    pub initial: f64,
    /// A new player's rating deviation; also the most an idle player's deviation grows to.
    pub deviation: f64,
    /// A new player's volatility.
    pub volatility: f64,
    /// How fast volatility may change (Glickman: 0.3 to 1.2).
    pub tau: f64,
    /// Tolerance of the volatility iteration.
    pub convergence: f64,
    /// The largest volatility a history may start a player with.
    pub max_volatility: f64,
    /// Days that count as one rating period of idle time when games are dated: a player
    /// away for n whole such spans has their deviation widened n times, as after n periods
    /// without games (explicit `period`s count instead where the games have them); none:
    /// dates widen nothing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub days_per_period: Option<f64>,
    /// Round the rating and deviation after each period to this many decimals of the
    /// Glicko-2 scale (μ, φ), as Glickman's worked example does; none: exact.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub digits: Option<u32>,
    /// The ratings this system's numbers live between, [low, high]: a starting rating outside is refused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<Range>,
    /// The conservative rating shown beside the rating is rating − conservative · deviation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub conservative: Option<f64>,
}

/// The scale a rating system's numbers live on, for checks and for the report.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Scale {
    pub range: Option<Range>,
    /// A new player's deviation (None: the system keeps none).
    pub deviation: Option<f64>,
    pub volatility: Option<f64>,
    pub max_volatility: Option<f64>,
    pub conservative: Option<f64>,
}

impl ScoringRules {
    /// The scale of the ruleset's system.
    pub(crate) fn scale(&self) -> Scale {
        let plain = |range| Scale {
            range,
            deviation: None,
            volatility: None,
            max_volatility: None,
            conservative: None,
        };
        match self.system {
            System::Elo => plain(self.elo.as_ref().and_then(|e| e.range)),
            System::WengLin => match &self.weng_lin {
                Some(w) => Scale {
                    deviation: Some(w.uncertainty),
                    conservative: w.conservative,
                    ..plain(w.range)
                },
                None => plain(None),
            },
            System::TrueSkill => match &self.trueskill {
                Some(t) => Scale {
                    deviation: Some(t.uncertainty),
                    conservative: t.conservative,
                    ..plain(t.range)
                },
                None => plain(None),
            },
            System::Glicko2 => match &self.glicko2 {
                Some(g) => Scale {
                    deviation: Some(g.deviation),
                    volatility: Some(g.volatility),
                    max_volatility: Some(g.max_volatility),
                    conservative: g.conservative,
                    ..plain(g.range)
                },
                None => plain(None),
            },
            System::Cep | System::Percentile | System::Pot => plain(None),
        }
    }

    /// The same rules rating with another of their systems (the backtest's comparison).
    pub(crate) fn with_system(&self, system: System) -> ScoringRules {
        ScoringRules {
            system,
            ..self.clone()
        }
    }

    /// The systems this ruleset has the parameters of.
    pub(crate) fn present(&self) -> Vec<System> {
        System::RATINGS
            .into_iter()
            .filter(|s| self.has(*s))
            .collect()
    }

    fn has(&self, system: System) -> bool {
        match system {
            System::Cep => self.cep.is_some(),
            System::Percentile => self.percentile.is_some(),
            System::Pot => self.pot.is_some(),
            System::Elo => self.elo.is_some(),
            System::WengLin => self.weng_lin.is_some(),
            System::TrueSkill => self.trueskill.is_some(),
            System::Glicko2 => self.glicko2.is_some(),
        }
    }
}

// ---- validation -----------------------------------------------------------------------------

/// Largest rank level, grade clamp, stake, share scale or ladder start (a billion).
pub(crate) const MAX_WHOLE_NUMBER: f64 = 1e9;

impl ScoringRules {
    pub(crate) fn validate(&self, _ruleset: &Ruleset, doc: &Doc, pointer: &str) -> Result<()> {
        if !self.has(self.system) {
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
            let p = at("cep", "points");
            c.points
                .check_for::<CepVariables>()
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
        // A range holds the system's own new-player rating; a conservative multiple is ≥ 0.
        let scale_checks = |section: &str,
                            range: Option<Range>,
                            initial: Option<f64>,
                            conservative: Option<f64>|
         -> Result<()> {
            if let Some([low, high]) = range {
                if !(low.is_finite() && high.is_finite() && low < high) {
                    return Err(doc.error_at(
                        &at(section, "range"),
                        "`range` is [lowest, highest]: two numbers, the first smaller",
                    ));
                }
                if let Some(i) = initial.filter(|i| !(low..=high).contains(i)) {
                    return Err(doc.error_at(
                        &at(section, "range"),
                        format!("the new-player rating {i} is outside `range` [{low}, {high}]"),
                    ));
                }
            }
            if conservative.is_some_and(|c| !(c.is_finite() && c >= 0.0)) {
                return Err(doc.error_at(
                    &at(section, "conservative"),
                    "`conservative` (how many deviations below the rating) must be 0 or more",
                ));
            }
            Ok(())
        };
        if let Some(e) = &self.elo {
            positive(e.scale, "elo", "scale")?;
            if let NumberOrFormula::Formula(f) = &e.k {
                let p = at("elo", "k");
                f.check(K_VARIABLES)
                    .map_err(|err| doc.formula_error(&p, &err))?;
            }
            let initial = match &e.initial {
                NumberOrFormula::Number(n) => Some(*n),
                NumberOrFormula::Formula(f) => {
                    let p = at("elo", "initial");
                    f.check(INITIAL_VARIABLES)
                        .map_err(|err| doc.formula_error(&p, &err))?;
                    None
                }
            };
            if let Some(f) = &e.decay {
                let p = at("elo", "decay");
                f.check(DECAY_VARIABLES)
                    .map_err(|err| doc.formula_error(&p, &err))?;
            }
            scale_checks("elo", e.range, initial, None)?;
        }
        if let Some(w) = &self.weng_lin {
            positive(w.uncertainty, "weng_lin", "uncertainty")?;
            positive(w.beta, "weng_lin", "beta")?;
            scale_checks("weng_lin", w.range, Some(w.initial), w.conservative)?;
        }
        if let Some(g) = &self.glicko2 {
            positive(g.deviation, "glicko2", "deviation")?;
            positive(g.volatility, "glicko2", "volatility")?;
            positive(g.tau, "glicko2", "tau")?;
            positive(g.convergence, "glicko2", "convergence")?;
            positive(g.max_volatility, "glicko2", "max_volatility")?;
            if !g.initial.is_finite() {
                return Err(doc.error_at(&at("glicko2", "initial"), "`initial` must be a number"));
            }
            if g.digits.is_some_and(|d| d > 15) {
                return Err(doc.error_at(
                    &at("glicko2", "digits"),
                    "`digits` is at most 15 (a float holds no more)",
                ));
            }
            if g.volatility > g.max_volatility {
                return Err(doc.error_at(
                    &at("glicko2", "max_volatility"),
                    "`max_volatility` is below the new-player `volatility`",
                ));
            }
            scale_checks("glicko2", g.range, Some(g.initial), g.conservative)?;
        }
        if let Some(t) = &self.trueskill {
            positive(t.uncertainty, "trueskill", "uncertainty")?;
            positive(t.beta, "trueskill", "beta")?;
            scale_checks("trueskill", t.range, Some(t.initial), t.conservative)?;
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
