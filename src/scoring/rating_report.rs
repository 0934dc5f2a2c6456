//! The result of rating a history: standings, and each game's changes.
use crate::output::{trim_number, Align, Table};
use serde::Serialize;

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct RatingReport {
    pub ruleset: String,
    pub system: &'static str,
    pub games_rated: usize,
    /// Players with fewer games are provisional (0: nobody).
    pub provisional_games: u32,
    /// The conservative rating is rating − conservative · deviation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conservative: Option<f64>,
    /// What the leaderboard's places (`rank`) follow: `rating`, or `conservative` (the
    /// Bayesian systems, μ − c·σ).
    pub ranked_by: &'static str,
    /// Things the ratings officer should know (a pot remainder that equal scores could not
    /// share), each naming its game.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
    /// Every player in the order the history first names them.
    pub players: Vec<PlayerRating>,
    /// Each game's changes (when asked for).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub games: Vec<GameChanges>,
    /// Each game's forecast from the ratings before it (when asked for).
    #[serde(skip)]
    pub(crate) predictions: Vec<Prediction>,
}

/// How well one game was foreseen: the mean over its pairs of players of the log-loss and
/// Brier score of "A finishes above B", and the decided pairs whose favourite won.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Prediction {
    pub log_loss: f64,
    pub brier: f64,
    /// Decided pairs the favourite won (an even forecast counts half).
    pub correct: f64,
    /// Pairs that did not tie.
    pub decided: u32,
}

/// A forecast this close to ½ is even: half a hit whoever wins.
const EVEN: f64 = 1e-9;

/// Forecasts are kept this far from 0 and 1 so one sure miss costs a lot, not infinity.
const SUREST: f64 = 1e-15;

impl Prediction {
    pub(crate) fn add(&mut self, chance: f64, actual: f64) {
        let p = if chance.is_finite() {
            chance.clamp(SUREST, 1.0 - SUREST)
        } else {
            0.5
        };
        self.log_loss -= actual * p.ln() + (1.0 - actual) * (1.0 - p).ln();
        self.brier += (p - actual) * (p - actual);
        if actual != 0.5 {
            self.decided += 1;
            // An even forecast favours nobody, whatever rounding left in its last digits.
            self.correct += if (p - 0.5).abs() <= EVEN {
                0.5
            } else if (p > 0.5) == (actual == 1.0) {
                1.0
            } else {
                0.0
            };
        }
    }

    /// Turn the sums over `pairs` pairs into means.
    pub(crate) fn finish(&mut self, pairs: u32) {
        if pairs > 0 {
            self.log_loss /= pairs as f64;
            self.brier /= pairs as f64;
        }
    }
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PlayerRating {
    pub name: String,
    pub rating: f64,
    /// The rating's deviation (σ), for the systems that keep one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deviation: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub volatility: Option<f64>,
    /// rating − conservative · deviation: a rating the player very likely deserves.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub conservative: Option<f64>,
    /// Fewer games than the ruleset's `provisional_games`: off the leaderboard.
    pub provisional: bool,
    /// Place in the standings (equal ratings share a place; provisional players after the
    /// established ones).
    pub rank: usize,
    pub games: u32,
    pub start: f64,
    pub change: f64,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct GameChanges {
    /// 1-based position in the history.
    pub game: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub period: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    /// Inside a rating period: `before` is the rating at the period's start, what the game
    /// is computed from (and Glicko-2's `after` is the period's end).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub from_period_start: bool,
    pub players: Vec<PlayerChange>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PlayerChange {
    /// The player's number in the history.
    #[serde(skip)]
    pub id: usize,
    pub name: String,
    /// Finishing place (tied players hold the average of their places).
    pub place: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    pub before: f64,
    pub after: f64,
    pub change: f64,
    /// The deviation after the game, for the systems that keep one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deviation: Option<f64>,
}

impl RatingReport {
    /// Final standings, best first; provisional players only with `all`. `list_all` says how
    /// the caller asks for them (the CLI's `--all`).
    pub(crate) fn table(&self, all: bool, list_all: &str, layout: crate::output::Layout) -> String {
        let uncertain = self.players.iter().any(|p| p.deviation.is_some());
        let conservative = self.conservative.filter(|_| uncertain);
        let mut cols = vec![
            ("#".to_string(), Align::Right),
            ("player".to_string(), Align::Left),
            ("rating".to_string(), Align::Right),
        ];
        if uncertain {
            cols.push(("±".to_string(), Align::Right));
        }
        if let Some(c) = conservative {
            cols.push((format!("rating−{}σ", trim_number(c, 2)), Align::Right));
        }
        cols.extend([
            ("games".to_string(), Align::Right),
            ("change".to_string(), Align::Right),
        ]);
        let header: Vec<(&str, Align)> = cols.iter().map(|(n, a)| (n.as_str(), *a)).collect();
        let mut t = Table::new(&header);
        t.key(&["player", "rating"]);
        let mut sorted: Vec<&PlayerRating> = self.players.iter().collect();
        sorted.sort_by_key(|p| p.rank);
        let hidden = sorted.iter().filter(|p| p.provisional && !all).count();
        for p in sorted {
            if p.provisional && !all {
                continue;
            }
            let mark = if p.provisional { " (provisional)" } else { "" };
            let mut row = vec![
                p.rank.to_string(),
                format!("{}{mark}", p.name),
                trim_number(p.rating, 1),
            ];
            if uncertain {
                row.push(p.deviation.map(|u| trim_number(u, 2)).unwrap_or_default());
            }
            if conservative.is_some() {
                row.push(
                    p.conservative
                        .map(|c| trim_number(c, 1))
                        .unwrap_or_default(),
                );
            }
            row.extend([p.games.to_string(), signed(p.change)]);
            t.row(row);
        }
        let mut text = format!(
            "{} ratings ({}), {} games\n\n{}",
            self.system,
            self.ruleset,
            self.games_rated,
            t.render(layout)
        );
        if self.ranked_by == "conservative" {
            if let Some(c) = conservative {
                text.push_str(&format!(
                    "\nplaces follow rating−{}σ: a rating is only as sure as its games\n",
                    trim_number(c, 2)
                ));
            }
        }
        for note in &self.notes {
            text.push_str(&format!("\n{note}"));
        }
        if !self.notes.is_empty() {
            text.push('\n');
        }
        if hidden > 0 {
            text.push_str(&format!(
                "\n{hidden} provisional player{} (fewer than {} games) not shown: {list_all} lists them\n",
                if hidden == 1 { "" } else { "s" },
                self.provisional_games
            ));
        }
        text
    }

    /// Each game's changes; only `player`'s lines when given.
    pub(crate) fn history_table(
        &self,
        player: Option<&str>,
        layout: crate::output::Layout,
    ) -> String {
        let mut t = Table::new(&[
            ("game", Align::Right),
            ("period", Align::Left),
            ("player", Align::Left),
            ("place", Align::Right),
            ("before", Align::Right),
            ("after", Align::Right),
            ("change", Align::Right),
        ]);
        t.key(&["player", "change"]);
        let mut periods = false;
        for g in &self.games {
            for (j, c) in g.players.iter().enumerate() {
                if player.is_some_and(|n| !crate::names::same(n, &c.name)) {
                    continue;
                }
                let first = j == 0 || player.is_some();
                t.row([
                    if first {
                        g.game.to_string()
                    } else {
                        String::new()
                    },
                    if first {
                        let shown = g
                            .period
                            .clone()
                            .or_else(|| g.label.clone())
                            .unwrap_or_default();
                        if g.from_period_start {
                            periods = true;
                            format!("{shown}*")
                        } else {
                            shown
                        }
                    } else {
                        String::new()
                    },
                    c.name.clone(),
                    trim_number(c.place, 1),
                    trim_number(c.before, 1),
                    trim_number(c.after, 1),
                    signed(c.change),
                ]);
            }
        }
        let mut text = t.render(layout);
        if periods {
            text.push_str(if self.system == "glicko2" {
                "\n* a rating period: `before` is the rating at the period's start, `after` at its end (Glicko-2 rates a period's games together)\n"
            } else {
                "\n* a rating period: the change is computed from the rating at the period's start (`before`), not from the game before\n"
            });
        }
        text
    }
}

fn signed(x: f64) -> String {
    let s = trim_number(x, 1);
    if x >= 0.05 {
        format!("+{s}")
    } else if s == "-0" {
        "0".to_string()
    } else {
        s
    }
}
