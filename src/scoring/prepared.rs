//! A history as the rating loop wants it: players interned to numbers, places worked out,
//! every game's players in flat arrays. Built from a `History` or straight from CSV rows, so
//! a 100k-game file costs no per-game allocations.
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A small fast hasher for player names (not exposed to untrusted collisions that matter:
/// the worst case is a slower lookup).
#[derive(Default)]
pub struct NameHasher(u64);

impl NameHasher {
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl Hasher for NameHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.add(u64::from_le_bytes(chunk.try_into().expect("8 bytes")));
        }
        let mut word = [0u8; 8];
        let rest = chunks.remainder();
        word[..rest.len()].copy_from_slice(rest);
        self.add(u64::from_le_bytes(word) ^ bytes.len() as u64);
    }
    fn write_u8(&mut self, byte: u8) {
        self.add(byte as u64);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type FastMap<V> = HashMap<String, V, BuildHasherDefault<NameHasher>>;

/// Player names: exact spellings first (fast), then case- and accent-insensitive.
#[derive(Default)]
pub struct Names {
    pub shown: Vec<String>,
    exact: FastMap<usize>,
    normal: FastMap<usize>,
}

impl Names {
    pub fn id(&mut self, name: &str) -> usize {
        if let Some(&i) = self.exact.get(name) {
            return i;
        }
        let n = crate::names::normalize(name);
        let id = match self.normal.get(&n) {
            Some(&i) => i,
            None => {
                self.shown.push(name.to_string());
                self.normal.insert(n, self.shown.len() - 1);
                self.shown.len() - 1
            }
        };
        self.exact.insert(name.to_string(), id);
        id
    }

    pub fn len(&self) -> usize {
        self.shown.len()
    }

    pub fn is_empty(&self) -> bool {
        self.shown.is_empty()
    }
}

/// One game: its players are `players[from..to]` (with their places, ranks and scores).
pub struct GameSlot {
    pub from: usize,
    pub to: usize,
    /// Index into `periods`.
    pub period: Option<usize>,
    pub label: Option<String>,
    /// Day number of its date (days since 1970-01-01), when it has one.
    pub day: Option<i64>,
    pub has_scores: bool,
}

#[derive(Default)]
pub struct Prepared {
    pub names: Names,
    /// Starting ratings (and deviations, volatilities) of players the history gives one.
    pub starts: Vec<(usize, super::history::FullStart)>,
    pub games: Vec<GameSlot>,
    pub players: Vec<usize>,
    /// Average place, 1 = first (tied players hold the average of their places).
    pub places: Vec<f64>,
    /// Competition rank (1, 1, 3).
    pub ranks: Vec<usize>,
    /// Final scores of score-based games (0 elsewhere).
    pub scores: Vec<f64>,
    /// Period names, as written.
    pub periods: Vec<String>,
    period_ids: FastMap<usize>,
}

/// How a game's values rank its players.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Ranking {
    /// Lower is better (places, group numbers of an order).
    Ascending,
    /// Higher is better (scores).
    Descending,
}

impl Prepared {
    /// Room for about `players` player entries.
    pub fn reserve(&mut self, players: usize) {
        self.players.reserve(players);
        self.places.reserve(players);
        self.ranks.reserve(players);
        self.scores.reserve(players);
    }

    /// Where each period stands in time: its number when every period is a whole number,
    /// else its order of appearance. Idle periods are counted on this.
    pub fn period_positions(&self) -> Vec<i64> {
        let numbers: Option<Vec<i64>> = self.periods.iter().map(|p| p.parse().ok()).collect();
        numbers.unwrap_or_else(|| (0..self.periods.len() as i64).collect())
    }

    pub fn period_id(&mut self, period: &str) -> usize {
        if let Some(&i) = self.period_ids.get(period) {
            return i;
        }
        self.periods.push(period.to_string());
        self.period_ids
            .insert(period.to_string(), self.periods.len() - 1);
        self.periods.len() - 1
    }

    /// Add a game from (player, value) rows; `Err(i)` when row `i` repeats a player.
    pub fn push_game(
        &mut self,
        rows: &mut [(usize, f64, usize)],
        ranking: Ranking,
        period: Option<usize>,
        day: Option<i64>,
        label: Option<String>,
    ) -> Result<(), usize> {
        for (i, r) in rows.iter().enumerate() {
            if rows[..i].iter().any(|o| o.0 == r.0) {
                return Err(r.2);
            }
        }
        match ranking {
            Ranking::Ascending => rows.sort_by(|a, b| a.1.total_cmp(&b.1)),
            Ranking::Descending => rows.sort_by(|a, b| b.1.total_cmp(&a.1)),
        }
        let from = self.players.len();
        let mut i = 0;
        while i < rows.len() {
            let j = (i..rows.len())
                .find(|&j| rows[j].1 != rows[i].1)
                .unwrap_or(rows.len());
            let average = (i + 1) as f64 + (j - i - 1) as f64 / 2.0;
            for r in &rows[i..j] {
                self.players.push(r.0);
                self.places.push(average);
                self.ranks.push(i + 1);
                self.scores.push(if ranking == Ranking::Descending {
                    r.1
                } else {
                    0.0
                });
            }
            i = j;
        }
        self.games.push(GameSlot {
            from,
            to: self.players.len(),
            period,
            label,
            day,
            has_scores: ranking == Ranking::Descending,
        });
        Ok(())
    }
}
