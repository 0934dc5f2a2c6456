//! Where the dice come from: a seeded PCG generator in play, a rigged sequence in tests.
use crate::rules::dice::Dice;
use rand::{Rng, SeedableRng};
use rand_pcg::Pcg64Mcg;

/// A source of die rolls. The engine is generic over it, so tests can rig every roll.
pub trait Roller {
    /// One die of `sides` faces: 1..=sides.
    fn die(&mut self, sides: u32) -> u32;

    /// A dice expression (3D6, 6D6-2, ...).
    fn roll(&mut self, dice: &Dice) -> i64 {
        let mut total = 0i64;
        for t in &dice.terms {
            let v: i64 = if t.sides == 0 {
                t.count as i64
            } else {
                (0..t.count).map(|_| self.die(t.sides) as i64).sum()
            };
            total += if t.negative { -v } else { v };
        }
        total
    }
}

/// The generator every battle uses: PCG seeded from the battle's seed.
#[derive(Debug, Clone)]
pub struct Pcg(Pcg64Mcg);

impl Pcg {
    pub fn new(seed: u64) -> Pcg {
        Pcg(Pcg64Mcg::seed_from_u64(seed))
    }
}

impl Roller for Pcg {
    #[inline]
    fn die(&mut self, sides: u32) -> u32 {
        if sides <= 1 {
            return sides;
        }
        self.0.gen_range(1..=sides)
    }
}

#[cfg(test)]
/// Rolls given in advance, in order; for tests of each rule. Running out is a test bug.
#[derive(Debug, Clone, Default)]
pub(crate) struct Rigged {
    rolls: Vec<u32>,
    next: usize,
}

#[cfg(test)]
impl Rigged {
    pub(crate) fn new(rolls: &[u32]) -> Rigged {
        Rigged {
            rolls: rolls.to_vec(),
            next: 0,
        }
    }

    /// How many rigged rolls have been used.
    pub(crate) fn used(&self) -> usize {
        self.next
    }

    pub(crate) fn exhausted(&self) -> bool {
        self.next >= self.rolls.len()
    }
}

#[cfg(test)]
impl Roller for Rigged {
    fn die(&mut self, sides: u32) -> u32 {
        let v = *self.rolls.get(self.next).unwrap_or_else(|| {
            panic!(
                "rigged dice ran out after {} rolls (wanted a D{sides})",
                self.next
            )
        });
        assert!(
            v >= 1 && v <= sides.max(1),
            "rigged roll {v} cannot come from a D{sides} (roll #{})",
            self.next + 1
        );
        self.next += 1;
        v
    }
}

/// The seed of battle `index` of a run seeded `run_seed` (SplitMix64 mixing), so a battle
/// replays alone and results do not depend on which thread ran it.
pub fn battle_seed(run_seed: u64, index: u64) -> u64 {
    let mut z = run_seed
        ^ index
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(0xD1B5_4A32_D192_ED03);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
