//! A history as the rating loop wants it: players interned to numbers, places worked out,
//! every game's players in flat arrays. Built from a `History` or straight from CSV rows, so
//! a 100k-game file costs no per-game allocations.
use std::collections::HashMap;
use std::hash::Hasher;

/// A small fast hasher for player names and game keys from files. Keyed once per process and
/// mixed by a folded multiplication (the high half of each product folded into the low), so
/// every byte of a name reaches the low bits a table indexes by and a file cannot be written
/// to make its names collide: a plain multiply left those bits to the first bytes alone, and
/// 900,000 names sharing a prefix took a minute to intern.
#[derive(Clone, Copy)]
pub(crate) struct NameHasher(u64);

/// Makes the tables' hashers, each starting from the process's key (looked up once a table).
#[derive(Clone, Copy)]
pub(crate) struct NameState(u64);

impl Default for NameState {
    fn default() -> NameState {
        NameState(process_key())
    }
}

impl std::hash::BuildHasher for NameState {
    type Hasher = NameHasher;
    #[inline]
    fn build_hasher(&self) -> NameHasher {
        NameHasher(self.0)
    }
}

/// This process's hashing key, drawn once (only where names land in a table depends on it,
/// never an output).
fn process_key() -> u64 {
    static KEY: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *KEY.get_or_init(|| {
        use std::hash::BuildHasher;
        std::collections::hash_map::RandomState::new().hash_one(0x2545_f491_4f6c_dd1d_u64)
    })
}

/// The product's two halves folded together.
#[inline]
fn folded_multiply(a: u64, b: u64) -> u64 {
    let full = u128::from(a) * u128::from(b);
    (full as u64) ^ ((full >> 64) as u64)
}

impl NameHasher {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = folded_multiply(self.0 ^ word, 0x51_7c_c1_b7_27_22_0a_95);
    }
}

/// The last 0 to 7 bytes as one word, read with fixed-size loads (copying them into a buffer
/// called `memcpy` and stalled on reading it back: most names are shorter than a word).
#[inline]
fn tail(rest: &[u8]) -> u64 {
    let n = rest.len();
    match n {
        0 => 0,
        1..=3 => u64::from(rest[0]) | u64::from(rest[n / 2]) << 8 | u64::from(rest[n - 1]) << 16,
        _ => {
            let word = |at: usize| u32::from_le_bytes(rest[at..at + 4].try_into().expect("4"));
            u64::from(word(0)) | u64::from(word(n - 4)) << 32
        }
    }
}

impl Hasher for NameHasher {
    fn write(&mut self, bytes: &[u8]) {
        let mut chunks = bytes.chunks_exact(8);
        for chunk in &mut chunks {
            self.add(u64::from_le_bytes(chunk.try_into().expect("8 bytes")));
        }
        self.add(tail(chunks.remainder()) ^ (bytes.len() as u64).rotate_right(8));
    }
    fn write_u8(&mut self, byte: u8) {
        self.add(byte as u64);
    }
    fn write_u64(&mut self, word: u64) {
        self.add(word);
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

type FastMap<V> = HashMap<String, V, NameState>;

/// Player names: exact spellings first (fast), then case- and accent-insensitive.
#[derive(Default)]
pub(crate) struct Names {
    pub shown: Vec<String>,
    exact: FastMap<usize>,
    normal: FastMap<usize>,
}

impl Names {
    pub(crate) fn id(&mut self, name: &str) -> usize {
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

    pub(crate) fn len(&self) -> usize {
        self.shown.len()
    }
}

/// One game: its players are `players[from..to]` (with their places, ranks and scores).
pub(crate) struct GameSlot {
    pub from: usize,
    pub to: usize,
    /// Index into `periods`.
    pub period: Option<usize>,
    pub label: Option<String>,
    /// Day number of its date (days since 1970-01-01), when it has one.
    pub day: Option<i64>,
    pub has_scores: bool,
    /// Its place in the file (games may be sorted by date before rating).
    pub source: usize,
}

#[derive(Default)]
pub(crate) struct Prepared {
    pub names: Names,
    /// Starting ratings (and deviations, volatilities) of players the history gives one.
    pub starts: Vec<(usize, super::history::FullStart)>,
    pub games: Vec<GameSlot>,
    pub players: Vec<usize>,
    /// Average place, 1 = first (tied players hold the average of their places).
    pub places: Vec<f64>,
    /// Competition rank (1, 1, 3); at most a game's player cap, so 4 bytes (a million
    /// games' ranks are 16 MB).
    pub ranks: Vec<u32>,
    /// Final scores of score-based games, up to the last one (0 before it for the others):
    /// a history of places keeps none (32 MB a million four-player games). Read it through
    /// `scores_of`.
    scores: Vec<f64>,
    /// Period names, as written.
    pub periods: Vec<String>,
    period_ids: FastMap<usize>,
}

/// How a game's values rank its players.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Ranking {
    /// Lower is better (places, group numbers of an order).
    Ascending,
    /// Higher is better (scores).
    Descending,
}

impl Prepared {
    /// A game's final scores (all 0 for a game of places).
    pub(crate) fn scores_of(&self, game: &GameSlot) -> &[f64] {
        static ZEROS: [f64; super::game::MAX_PLAYERS_PER_GAME] =
            [0.0; super::game::MAX_PLAYERS_PER_GAME];
        self.scores
            .get(game.from..game.to)
            .unwrap_or(&ZEROS[..game.to - game.from])
    }

    /// Where each period stands in time: its number when every period is a whole number,
    /// else its order of appearance. Idle periods are counted on this.
    pub(crate) fn period_positions(&self) -> Vec<i64> {
        let numbers: Option<Vec<i64>> = self.periods.iter().map(|p| p.parse().ok()).collect();
        numbers.unwrap_or_else(|| (0..self.periods.len() as i64).collect())
    }

    /// Games in the order they were played: by date, then by period (a stable sort: games
    /// of one day keep their file order; undated games come first).
    pub(crate) fn sort_by_date(&mut self) {
        let positions = self.period_positions();
        self.games
            .sort_by_key(|g| (g.day, g.period.map(|p| positions[p])));
    }

    pub(crate) fn period_id(&mut self, period: &str) -> usize {
        if let Some(&i) = self.period_ids.get(period) {
            return i;
        }
        self.periods.push(period.to_string());
        self.period_ids
            .insert(period.to_string(), self.periods.len() - 1);
        self.periods.len() - 1
    }

    /// Add a game from (player, value) rows; `Err(i)` when row `i` repeats a player.
    pub(crate) fn push_game(
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
        let has_scores = ranking == Ranking::Descending;
        // A table past the cap (its callers refuse one) keeps its zeros: `scores_of` has
        // only the cap's worth to lend.
        let keep_scores = has_scores || rows.len() > super::game::MAX_PLAYERS_PER_GAME;
        if keep_scores {
            self.scores.resize(from, 0.0);
        }
        let mut i = 0;
        while i < rows.len() {
            let j = (i..rows.len())
                .find(|&j| rows[j].1 != rows[i].1)
                .unwrap_or(rows.len());
            let average = (i + 1) as f64 + (j - i - 1) as f64 / 2.0;
            for r in &rows[i..j] {
                self.players.push(r.0);
                self.places.push(average);
                self.ranks.push((i + 1) as u32);
                if keep_scores {
                    self.scores.push(if has_scores { r.1 } else { 0.0 });
                }
            }
            i = j;
        }
        self.games.push(GameSlot {
            from,
            to: self.players.len(),
            period,
            label,
            day,
            has_scores,
            source: self.games.len(),
        });
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::BuildHasher;

    #[test]
    fn names_that_differ_late_spread_over_the_low_bits() {
        // A table of 4096 slots indexes by the low 12 bits: 4096 names sharing their first
        // eight bytes must land in most of them (a plain multiply put them in 50).
        let slots: std::collections::HashSet<u64> = (0..4096)
            .map(|i| {
                let mut h = NameState::default().build_hasher();
                h.write(format!("player{i:06}").as_bytes());
                h.finish() & 0xfff
            })
            .collect();
        assert!(slots.len() > 2000, "{} slots of 4096", slots.len());
    }

    #[test]
    fn only_games_of_scores_keep_their_scores() {
        // Places, then scores, then places: each game reads its own scores, zeros for places.
        let mut p = Prepared::default();
        p.push_game(
            &mut [(0, 1.0, 0), (1, 2.0, 1)],
            Ranking::Ascending,
            None,
            None,
            None,
        )
        .unwrap();
        assert!(p.scores.is_empty(), "a history of places keeps no scores");
        p.push_game(
            &mut [(0, 7.0, 0), (1, 9.0, 1)],
            Ranking::Descending,
            None,
            None,
            None,
        )
        .unwrap();
        p.push_game(
            &mut [(1, 2.0, 0), (0, 1.0, 1)],
            Ranking::Ascending,
            None,
            None,
            None,
        )
        .unwrap();
        let scores: Vec<&[f64]> = p.games.iter().map(|g| p.scores_of(g)).collect();
        assert_eq!(scores, [&[0.0, 0.0][..], &[9.0, 7.0], &[0.0, 0.0]]);
        assert_eq!(p.ranks, [1, 2, 1, 2, 1, 2]);
    }

    #[test]
    fn spellings_of_one_name_are_one_player() {
        let mut names = Names::default();
        let ana = names.id("Ana");
        assert_eq!(names.id("ANA"), ana);
        assert_eq!(names.id("Ana"), ana);
        assert_ne!(names.id("Bo"), ana);
        assert_eq!(names.len(), 2);
    }
}
