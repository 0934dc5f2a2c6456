//! The result of rating a history: standings, and each game's changes.
use crate::output::{trim_number, Align, Table};
use serde::Serialize;

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct RatingReport {
    pub ruleset: String,
    pub system: &'static str,
    pub games_rated: usize,
    /// Every player in the order the history first names them.
    pub players: Vec<PlayerRating>,
    /// Each game's changes (when asked for).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub games: Vec<GameChanges>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PlayerRating {
    pub name: String,
    pub rating: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uncertainty: Option<f64>,
    /// Place in the standings (equal ratings share a place).
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
    pub players: Vec<PlayerChange>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PlayerChange {
    pub name: String,
    /// Finishing place (tied players hold the average of their places).
    pub place: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    pub before: f64,
    pub after: f64,
    pub change: f64,
}

impl RatingReport {
    /// Final standings, best first.
    pub fn table(&self) -> String {
        let bayesian = self.players.iter().any(|p| p.uncertainty.is_some());
        let mut cols = vec![
            ("#", Align::Right),
            ("player", Align::Left),
            ("rating", Align::Right),
        ];
        if bayesian {
            cols.push(("±", Align::Right));
        }
        cols.extend([("games", Align::Right), ("change", Align::Right)]);
        let mut t = Table::new(&cols);
        let mut sorted: Vec<&PlayerRating> = self.players.iter().collect();
        sorted.sort_by_key(|p| p.rank);
        for p in sorted {
            let mut row = vec![p.rank.to_string(), p.name.clone(), trim_number(p.rating, 1)];
            if let Some(u) = p.uncertainty {
                row.push(trim_number(u, 2));
            }
            row.extend([p.games.to_string(), signed(p.change)]);
            t.row(row);
        }
        format!(
            "{} ratings ({}), {} games\n\n{}",
            self.system,
            self.ruleset,
            self.games_rated,
            t.render()
        )
    }

    /// Each game's changes; only `player`'s lines when given.
    pub fn history_table(&self, player: Option<&str>) -> String {
        let mut t = Table::new(&[
            ("game", Align::Right),
            ("period", Align::Left),
            ("player", Align::Left),
            ("place", Align::Right),
            ("before", Align::Right),
            ("after", Align::Right),
            ("change", Align::Right),
        ]);
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
                        g.period
                            .clone()
                            .or_else(|| g.label.clone())
                            .unwrap_or_default()
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
        t.render()
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
