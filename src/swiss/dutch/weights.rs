//! One number per possible pair that orders pairings by the Dutch criteria: each criterion gets
//! a bit field, more important ones higher, each wide enough that the lower ones can never add
//! up past it. Maximising the total over a matching then satisfies them lexicographically.
//! The low `3 × group bits + 1` bits are left free for the bracket procedure's own ordering
//! (which players move down, which exchanges, which opponents).
use super::seat::{Float, Seat};
use crate::swiss::model::Colour;
use crate::swiss::wide::Wide;
use std::collections::HashMap;

/// Bits needed to write `n` (0 for 0).
pub(super) fn bits(n: usize) -> u32 {
    usize::BITS - n.leading_zeros()
}

/// Colour preferences that can both be met.
pub(super) fn preferences_compatible(a: Option<Colour>, b: Option<Colour>) -> bool {
    a.is_none() || b.is_none() || a != b
}

/// The layout of the weights for one round: a field per score group wide enough to count its
/// players, so "the scores of the players paired" compare lexicographically from the top
/// score down.
pub(super) struct Shape {
    /// Bits for a count of the largest score group's players.
    pub group_bits: u32,
    /// Width of a per-score-group field, and where each score sits in it.
    pub scores_bits: u32,
    shifts: HashMap<u32, u32>,
    played_rounds: usize,
}

/// The pairing-allocated bye, as far as it is decided: the score it goes to, and (C.9) whether
/// the fewest unplayed games among that score decide who it is.
#[derive(Clone)]
pub(super) struct ByeTarget {
    pub score: u32,
    pub by_games: bool,
    /// For C.9: players with more games played rank first (a smaller number).
    pub games_rank: HashMap<usize, u64>,
}

impl ByeTarget {
    pub(super) fn none() -> ByeTarget {
        ByeTarget {
            score: 0,
            by_games: false,
            games_rank: HashMap::new(),
        }
    }

    fn candidate(&self, p: &Seat) -> bool {
        p.bye_eligible && p.score <= self.score
    }
}

/// Where a pair's lower player sits relative to the bracket being paired.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Place {
    Bracket,
    NextGroup,
    Below,
}

impl Shape {
    /// `sorted`: the players to pair, best first.
    pub(super) fn new(sorted: &[Seat], played_rounds: usize) -> Shape {
        let mut shifts = HashMap::new();
        let mut width = 0;
        let mut largest = 0;
        let mut run = 0;
        for (i, p) in sorted.iter().enumerate().rev() {
            run += 1;
            if i == 0 || sorted[i - 1].score > p.score {
                shifts.insert(p.score, width);
                width += bits(run);
                largest = largest.max(run);
                run = 0;
            }
        }
        Shape {
            group_bits: bits(largest),
            scores_bits: width,
            shifts,
            played_rounds,
        }
    }

    fn floats_counted(&self) -> usize {
        self.played_rounds.min(2)
    }

    /// Total width of all fields below the top one.
    fn shifts_total(&self) -> u32 {
        let (g, s) = (self.group_bits, self.scores_bits);
        let floats = self.floats_counted() as u32;
        2 * (g + s) + 2 * g + 4 * g + floats * (2 * g) + floats * (2 * s) + 3 * g + 1
    }

    /// Bits the weights and the matching's dual values need, sign included.
    pub(super) fn bits_needed(&self) -> u32 {
        self.shifts_total() + 2 + 2 + 4
    }

    /// A weight above every pair's (given to a pair once it is settled).
    pub(super) fn max_weight<const N: usize>(&self) -> Wide<N> {
        let mut r = Wide::<N>::from_u64(2);
        r.shl(self.shifts_total() + 1);
        r - Wide::from_u64(1)
    }

    fn score_bit<const N: usize>(&self, score: u32) -> Wide<N> {
        Wide::bit(self.shifts[&score])
    }

    /// The weight of pairing `hi` with `lo` (`hi` ranked above), 0 when they may not meet.
    pub(super) fn weight<const N: usize>(
        &self,
        hi: &Seat,
        lo: &Seat,
        place: Place,
        bye: &ByeTarget,
        compatible: bool,
    ) -> Wide<N> {
        let mut r = Wide::<N>::ZERO;
        if !compatible {
            return r;
        }
        let one = |b: bool| b as u64;
        let g = self.group_bits;
        let lo_in = place == Place::Bracket;
        let lo_next = place == Place::NextGroup;
        // C.4/C.5 (completion, no second bye): everyone pairable, and the player left over
        // eligible for the bye and no higher than the score it must go to.
        r.or_u64(1 + one(!bye.candidate(hi)) + one(!bye.candidate(lo)));
        // C.6: as many pairs as possible in this bracket ...
        r.shl(g);
        r.or_u64(one(lo_in));
        // C.7: ... with the highest scores (the fewest and lowest downfloaters).
        r.shl(self.scores_bits);
        if lo_in {
            r = or(r, self.score_bit(hi.score));
        }
        // C.8: and the same for the next bracket, so this one leaves it pairable.
        r.shl(g);
        r.or_u64(one(lo_next));
        r.shl(self.scores_bits);
        if lo_next {
            r = or(r, self.score_bit(hi.score));
        }
        // C.9: the bye goes to the candidate with the fewest unplayed games.
        r.shl(2 * g);
        if bye.by_games {
            if hi.score == bye.score {
                r.or_u64(bye.games_rank[&hi.games]);
            }
            if lo.score == bye.score {
                r += Wide::from_u64(bye.games_rank[&lo.games]);
            }
        }
        colour_fields(&mut r, lo, hi, lo_in, g);
        for back in 0..self.floats_counted() {
            // C.14-C.17: no repeated downfloat, then no repeated upfloat (one and two rounds
            // back).
            r.shl(g);
            if lo_in {
                r.or_u64(one(lo.floats[back] == Float::Down));
                r += Wide::from_u64(one(hi.score <= lo.score && hi.floats[back] == Float::Down));
            }
            r.shl(g);
            if lo_in {
                r.or_u64(one(!(hi.score > lo.score && lo.floats[back] == Float::Up)));
            }
        }
        for back in 0..self.floats_counted() {
            // C.18-C.21: where a repeated float must happen, the lowest scores take it.
            r.shl(self.scores_bits);
            if lo_in {
                if lo.floats[back] == Float::Down {
                    r += self.score_bit(lo.score);
                }
                if hi.floats[back] == Float::Down {
                    r += self.score_bit(hi.score);
                }
            }
            r.shl(self.scores_bits);
            if lo_in && !(lo.floats[back] == Float::Up && hi.score > lo.score) {
                r = or(r, self.score_bit(hi.score));
            }
        }
        // Room for the bracket procedure's ordering of transpositions and exchanges.
        r.shl(3 * g + 1);
        r
    }

    /// Before the brackets: a weight that only asks for a complete pairing whose unpaired
    /// player has the lowest possible score, to find the score the bye goes to.
    pub(super) fn completion_weight<const N: usize>(
        &self,
        hi: &Seat,
        lo: &Seat,
        top_score: u32,
    ) -> Wide<N> {
        let mut r = Wide::<N>::from_u64(1 + (!hi.bye_eligible) as u64 + (!lo.bye_eligible) as u64);
        r.shl(self.scores_bits);
        r.or_u64((self.shifts[&lo.score] + self.shifts[&hi.score]) as u64);
        r.shl(self.group_bits);
        r.or_u64((lo.score >= top_score) as u64);
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
fn colour_fields<const N: usize>(r: &mut Wide<N>, lo: &Seat, hi: &Seat, lo_in: bool, g: u32) {
    let one = |b: bool| (lo_in && b) as u64;
    let differ = lo.preference != hi.preference;
    // C.10: no two players with an absolute colour difference and the same preference.
    r.shl(g);
    r.or_u64(one(!lo.absolute_imbalance()
        || !hi.absolute_imbalance()
        || differ));
    // C.11: no player gets the same colour three times running.
    r.shl(g);
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
    r.shl(g);
    r.or_u64(one(preferences_compatible(lo.preference, hi.preference)));
    // C.13: as many strong colour preferences met as possible.
    r.shl(g);
    r.or_u64(one((!lo.strong && !lo.absolute())
        || (!hi.strong && !hi.absolute())
        || (lo.absolute() && hi.absolute())
        || differ));
}
