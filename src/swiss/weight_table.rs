//! Every pair's weight for the matching, kept as a small number into the list of the distinct
//! weights. A round of 1000 players has half a million pairs but only a few thousand distinct
//! weights (the criteria give most pairs the same few values), and each weight is hundreds of
//! bits wide: a dense table of the weights themselves was 112 MB, read all over by every scan.
//! The numbers are 4 MB and the distinct weights stay in cache; the values read are the same.
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hash, Hasher};
use std::ops::Add;

/// Number of the weight zero (no edge), always present.
const ZERO_ID: u32 = 0;

pub(crate) struct WeightTable<W> {
    n: usize,
    /// By pair, row by row (both halves, so a vertex's row is read in order).
    ids: Vec<u32>,
    /// Each distinct weight twice over (`w + w`, what every slack subtracts), by number.
    doubled: Vec<W>,
    values: Vec<W>,
    numbers: HashMap<W, u32, BuildHasherDefault<LimbHasher>>,
}

impl<W: Copy + Eq + Hash + Add<Output = W>> WeightTable<W> {
    /// `n` vertices, every pair at `zero`.
    pub(crate) fn new(n: usize, zero: W) -> Self {
        let mut numbers = HashMap::default();
        numbers.insert(zero, ZERO_ID);
        WeightTable {
            n,
            ids: vec![ZERO_ID; n * n],
            doubled: vec![zero + zero],
            values: vec![zero],
            numbers,
        }
    }

    /// The weight of the pair a-b.
    #[inline(always)]
    pub(crate) fn get(&self, a: usize, b: usize) -> W {
        self.values[self.ids[a * self.n + b] as usize]
    }

    /// Twice the weight of the pair a-b.
    #[inline(always)]
    pub(crate) fn doubled(&self, a: usize, b: usize) -> W {
        self.doubled[self.ids[a * self.n + b] as usize]
    }

    /// Vertex `v`'s row of weight numbers, for `doubled_of`.
    #[inline(always)]
    pub(crate) fn row(&self, v: usize) -> &[u32] {
        &self.ids[v * self.n..(v + 1) * self.n]
    }

    #[inline(always)]
    pub(crate) fn doubled_of(&self, id: u32) -> W {
        self.doubled[id as usize]
    }

    /// Set the pair a-b to `w`; true when that changed its weight.
    pub(crate) fn set(&mut self, a: usize, b: usize, w: W) -> bool {
        let next = self.values.len() as u32;
        let id = *self.numbers.entry(w).or_insert(next);
        if id == next {
            self.values.push(w);
            self.doubled.push(w + w);
        }
        let n = self.n;
        let changed = self.ids[a * n + b] != id;
        (self.ids[a * n + b], self.ids[b * n + a]) = (id, id);
        changed
    }
}

/// A fast hash of a weight's 64-bit limbs (the multiply-rotate of rustc's FxHasher): the
/// weights come from the pairing criteria, not from text anyone could aim at collisions, and
/// SipHash over hundreds of bits cost a good part of what the table saves.
#[derive(Default)]
pub(crate) struct LimbHasher(u64);

impl Hasher for LimbHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut limb = [0u8; 8];
            limb[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(limb));
        }
    }

    #[inline(always)]
    fn write_u64(&mut self, limb: u64) {
        self.0 = (self.0.rotate_left(5) ^ limb).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_weights_share_a_number_and_reads_give_what_was_set() {
        let mut t = WeightTable::new(3, 0i64);
        assert!(t.set(0, 1, 7));
        assert!(t.set(2, 1, 7));
        assert!(!t.set(1, 0, 7));
        assert_eq!((t.get(1, 0), t.get(1, 2), t.get(0, 2)), (7, 7, 0));
        assert_eq!(t.row(1)[0], t.row(1)[2]);
        assert_eq!(t.doubled(0, 1), 14);
        assert!(t.set(0, 1, 0));
        assert_eq!((t.get(0, 1), t.get(1, 2)), (0, 7));
    }
}
