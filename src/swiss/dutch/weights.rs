//! One number per possible pair that orders pairings by the Dutch criteria: each criterion gets
//! a bit field, more important ones higher, each wide enough that the lower ones can never add
//! up past it. Maximising the total over a matching then satisfies them lexicographically.
//! The low `3 × player bits + 1` bits are left free for the bracket procedure's own ordering
//! (which players move, which exchanges, which opponents).
use super::seat::{Float, Seat};
use crate::swiss::model::Colour;
use crate::swiss::wide::Wide;
use std::collections::HashMap;

/// Bits needed to write `n` (0 for 0).
pub fn bits(n: usize) -> u32 {
    usize::BITS - n.leading_zeros()
}

/// Colour preferences that can both be met.
pub fn preferences_compatible(a: Option<Colour>, b: Option<Colour>) -> bool {
    a.is_none() || b.is_none() || a != b
}

/// The shape of the weights for one bracket: which fields exist and how wide they are.
pub struct Shape {
    /// Pairing the last bracket, or the collapsed penultimate one: everyone left is here.
    pub special: bool,
    /// The next score group is the last one.
    pub last_next: bool,
    /// Bits for a count of the bracket's players.
    pub player_bits: u32,
    /// Bits for a count of the next score group's players.
    pub next_bits: u32,
    /// Width of a score-difference field, and where each difference sits in it.
    pub diff_bits: u32,
    shifts: HashMap<u32, u32>,
    min_score: u32,
    played_rounds: usize,
}

/// A score difference above the bracket's lowest score, kept apart from the difference within
/// a pair (offset by one point, as the reference does).
const FLOATER_OFFSET: u32 = 10;

impl Shape {
    /// `players`: the bracket (moved-down players first, `movers` of them, then residents up
    /// to `resident_end`) followed by the next score group (or everyone left, when special).
    pub fn new(
        players: &[&Seat],
        movers: usize,
        resident_end: usize,
        special: bool,
        last_next: bool,
        played_rounds: usize,
    ) -> Shape {
        let min_score = players.last().map_or(0, |p| p.score);
        let mut diffs = Vec::new();
        for (i, p) in players[..resident_end].iter().enumerate() {
            diffs.push(p.score - min_score + FLOATER_OFFSET);
            let first = movers.max(i + 1);
            for o in first..resident_end {
                // One entry per distinct opponent score is enough: a player is in one pair.
                if o == first || players[o].score < players[o - 1].score {
                    diffs.push(p.score - players[o].score);
                }
            }
        }
        diffs.sort_unstable();
        let mut shifts = HashMap::new();
        let mut width = 0;
        let mut run = 0;
        for (i, &d) in diffs.iter().enumerate() {
            run += 1;
            if i + 1 == diffs.len() || diffs[i + 1] != d {
                shifts.insert(d, width);
                width += bits(run);
                run = 0;
            }
        }
        Shape {
            special,
            last_next,
            player_bits: bits(resident_end - movers),
            next_bits: bits(players.len() - resident_end),
            diff_bits: width,
            shifts,
            min_score,
            played_rounds,
        }
    }

    fn floats_counted(&self) -> usize {
        self.played_rounds.min(2)
    }

    /// Total width of all fields below the top one.
    fn shifts_total(&self) -> u32 {
        let p = self.player_bits;
        let mut t = p + self.diff_bits;
        if !self.special {
            t += if self.last_next {
                p.max(self.next_bits) + 3
            } else {
                self.next_bits
            };
            t += self.diff_bits;
        }
        t += 4 * p;
        t += self.floats_counted() as u32 * (2 * p + 2 * self.diff_bits);
        t + 3 * p + 1
    }

    /// Bits the weights and the matching's dual values need, sign included.
    pub fn bits_needed(&self) -> u32 {
        self.shifts_total() + 2 + 2 + 4
    }

    /// A weight above every pair's (given to a pair once it is settled).
    pub fn max_weight<const N: usize>(&self) -> Wide<N> {
        let mut r = Wide::<N>::from_u64(if self.special { 2 } else { 1 });
        r.shl(self.shifts_total() + 1);
        r - Wide::from_u64(1)
    }

    fn diff_bit<const N: usize>(&self, d: u32) -> Wide<N> {
        Wide::bit(self.shifts[&d])
    }

    fn above_floor<const N: usize>(&self, p: &Seat) -> Wide<N> {
        self.diff_bit(p.score - self.min_score + FLOATER_OFFSET)
    }

    /// The weight of pairing `hi` with `lo` (`hi` ranked above), 0 when they may not meet.
    /// `hi_in`/`lo_in`: whether each is in the bracket being paired (not the next group).
    pub fn weight<const N: usize>(
        &self,
        hi: &Seat,
        lo: &Seat,
        hi_in: bool,
        lo_in: bool,
        compatible: bool,
    ) -> Wide<N> {
        let mut r = Wide::<N>::ZERO;
        if !compatible {
            return r;
        }
        let one = |b: bool| b as u64;
        let p = self.player_bits;
        // C.5/C.6 (completion, no second bye): everyone must be pairable, and the player left
        // over must be allowed the bye.
        if self.special {
            r.or_u64(1 + one(!hi.bye_eligible) + one(!lo.bye_eligible));
        }
        // C.6: as many pairs as possible in this bracket.
        r.shl(p);
        r.or_u64(one(lo_in));
        // C.7: the scores of the floaters as low as possible (pairing score differences).
        r.shl(self.diff_bits);
        if lo_in {
            r += self.above_floor(hi);
            r += self.above_floor(lo);
            r -= self.diff_bit(hi.score - lo.score);
        }
        if !self.special {
            // C.8: as many pairs as possible in the next bracket (and a bye allowed at the end).
            if self.last_next {
                r.shl(p.max(self.next_bits));
                r.shl(3);
                r.or_u64(1 + one(!hi.bye_eligible) + one(!lo.bye_eligible));
            } else {
                r.shl(self.next_bits);
                r.or_u64(one(!lo_in));
            }
            // C.9: the scores of the players moving down to the next bracket as high as possible.
            r.shl(self.diff_bits);
            if hi_in {
                r = or(r, self.above_floor(hi));
            }
            if lo_in {
                r += self.above_floor(lo);
            }
        }
        colour_fields(&mut r, lo, hi, lo_in, p);
        for back in 0..self.floats_counted() {
            // C.14-C.17: no repeated down- or upfloat from the last two rounds.
            r.shl(p);
            if lo_in {
                r.or_u64(one(lo.floats[back] == Float::Down));
                r += Wide::from_u64(one(hi.score <= lo.score && hi.floats[back] == Float::Down));
            }
            r.shl(p);
            if lo_in && hi.score > lo.score && lo.floats[back] == Float::Up {
                r -= Wide::from_u64(1);
            }
        }
        for back in 0..self.floats_counted() {
            // C.18-C.21: and, where it must happen, with the smallest score differences.
            r.shl(self.diff_bits);
            if lo_in {
                if lo.floats[back] == Float::Down {
                    r += self.above_floor(lo);
                }
                if hi.floats[back] == Float::Down {
                    r += self.above_floor(hi);
                    if hi.score > lo.score {
                        r -= self.diff_bit(hi.score - lo.score);
                    }
                }
            }
            r.shl(self.diff_bits);
            if lo_in && lo.floats[back] == Float::Up && hi.score > lo.score {
                r -= self.diff_bit(hi.score - lo.score);
            }
        }
        // Room for the bracket procedure's ordering of transpositions and exchanges.
        r.shl(3 * p + 1);
        r
    }
}

fn or<const N: usize>(a: Wide<N>, b: Wide<N>) -> Wide<N> {
    let mut out = a;
    for (o, l) in out.0.iter_mut().zip(b.0) {
        *o |= l;
    }
    out
}

/// C.10-C.13: colour criteria, most important first.
fn colour_fields<const N: usize>(r: &mut Wide<N>, lo: &Seat, hi: &Seat, lo_in: bool, p: u32) {
    let one = |b: bool| (lo_in && b) as u64;
    let differ = lo.preference != hi.preference;
    // C.10: no two players with an absolute colour difference and the same preference.
    r.shl(p);
    r.or_u64(one(!lo.absolute_imbalance()
        || !hi.absolute_imbalance()
        || differ));
    // C.11: no player gets the same colour three times running (or, topscorers, beyond).
    r.shl(p);
    let third_same = if lo.imbalance == hi.imbalance {
        lo.repeated.is_none() || lo.repeated != hi.repeated
    } else {
        let lesser = if lo.imbalance > hi.imbalance { hi } else { lo };
        lesser.repeated != lo.preference.map(Colour::other)
    };
    r.or_u64(one(!lo.absolute()
        || !hi.absolute()
        || differ
        || third_same));
    // C.12: as many colour preferences met as possible.
    r.shl(p);
    r.or_u64(one(preferences_compatible(lo.preference, hi.preference)));
    // C.13: as many strong colour preferences met as possible.
    r.shl(p);
    r.or_u64(one((!lo.strong && !lo.absolute())
        || (!hi.strong && !hi.absolute())
        || (lo.absolute() && hi.absolute())
        || differ));
}
