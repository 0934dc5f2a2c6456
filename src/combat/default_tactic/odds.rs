//! The odds of at least k successes in a number of Piloting rolls, by number of rolls.
use crate::combat::reach::MAX_MOVES;

/// By number of rolls (0 to `MAX_MOVES`): the chance of at least k successes in that many
/// rolls of chance `p`, for each k up to `N - 1`.
pub(super) fn at_least<const N: usize>(p: f64) -> [[f64; N]; MAX_MOVES + 1] {
    // The distribution of successes, built roll by roll (more than N − 1 count as N − 1).
    let mut exactly = [0.0; N];
    exactly[0] = 1.0;
    let mut by_rolls = [[0.0; N]; MAX_MOVES + 1];
    for (rolls, odds) in by_rolls.iter_mut().enumerate() {
        if rolls > 0 {
            for k in (0..N).rev() {
                let stay = if k == N - 1 {
                    exactly[k]
                } else {
                    exactly[k] * (1.0 - p)
                };
                let up = if k > 0 { exactly[k - 1] * p } else { 0.0 };
                exactly[k] = stay + up;
            }
        }
        let mut tail = 0.0;
        for k in (0..N).rev() {
            tail += exactly[k];
            odds[k] = tail;
        }
    }
    by_rolls
}

/// `at_least` for one chance, kept while the chance holds: a side's Piloting chances change
/// only with damage, while every scan asks for the odds of its own number of rolls.
#[derive(Debug, Clone, Copy)]
pub(super) struct OddsByRolls<const N: usize> {
    chance: Option<f64>,
    by_rolls: [[f64; N]; MAX_MOVES + 1],
}

impl<const N: usize> Default for OddsByRolls<N> {
    fn default() -> Self {
        OddsByRolls {
            chance: None,
            by_rolls: [[0.0; N]; MAX_MOVES + 1],
        }
    }
}

impl<const N: usize> OddsByRolls<N> {
    /// The odds for `rolls` rolls (at most `MAX_MOVES` count) of chance `p`.
    pub(super) fn get(&mut self, rolls: u32, p: f64) -> [f64; N] {
        if self.chance != Some(p) {
            (self.chance, self.by_rolls) = (Some(p), at_least(p));
        }
        self.by_rolls[(rolls as usize).min(MAX_MOVES)]
    }
}
