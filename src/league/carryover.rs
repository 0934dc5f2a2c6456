//! The carry-over effect: team j gives a carry-over to team k each time some team meets j in
//! one round and k in the next. Counted cyclically over one leg (the last round carries over
//! into the first), as in the scheduling literature (Russell 1980).
use super::plan::{opponents, RoundPlan};
use serde::Serialize;

/// The carry-over of a schedule: its value (sum of squares of the matrix), the lower bound
/// for its number of teams, and the matrix itself when asked for.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Carryover {
    pub value: u64,
    pub lower_bound: u64,
    /// `matrix[j][k]`: how often a team met j and then k, teams in list order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matrix: Option<Vec<Vec<u32>>>,
}

/// Carry-over counts, flat: `counts[j * n + k]`.
pub(crate) fn counts(plan: &[RoundPlan], n: usize) -> Vec<u32> {
    let opp = opponents(plan, n);
    let rounds = opp.len();
    let mut c = vec![0u32; n * n];
    if rounds < 2 {
        return c;
    }
    for r in 0..rounds {
        let next = &opp[(r + 1) % rounds];
        for (t, now) in opp[r].iter().enumerate() {
            if let (Some(j), Some(k)) = (now, next[t]) {
                c[j * n + k] += 1;
            }
        }
    }
    c
}

/// Sum of squares of the counts.
pub(crate) fn value_of(counts: &[u32]) -> u64 {
    counts.iter().map(|&x| (x as u64) * (x as u64)).sum()
}

/// The smallest value any schedule with this many carry-overs could have: the events spread
/// as evenly as possible over the n(n − 1) cells off the diagonal. For even n that is
/// n(n − 1) (every cell once), reached when n is a power of two.
pub(crate) fn lower_bound(counts: &[u32], n: usize) -> u64 {
    let events: u64 = counts.iter().map(|&x| x as u64).sum();
    let cells = (n * (n - 1)) as u64;
    if cells == 0 {
        return 0;
    }
    let (q, r) = (events / cells, events % cells);
    r * (q + 1) * (q + 1) + (cells - r) * q * q
}

/// Value and bound of one leg, with the matrix if `with_matrix`.
pub(crate) fn carryover(plan: &[RoundPlan], n: usize, with_matrix: bool) -> Carryover {
    let c = counts(plan, n);
    Carryover {
        value: value_of(&c),
        lower_bound: lower_bound(&c, n),
        matrix: with_matrix.then(|| c.chunks(n).map(|row| row.to_vec()).collect()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::league::rotation::rotation;

    #[test]
    fn the_rotation_scores_as_the_spec_says() {
        for (n, value, bound) in [(6, 60, 30), (8, 196, 56), (10, 468, 90)] {
            let c = carryover(&rotation(n), n, false);
            assert_eq!((c.value, c.lower_bound), (value, bound), "n = {n}");
        }
    }

    #[test]
    fn team_one_follows_team_eight_in_the_ten_team_table() {
        // The source: team 1 always meets whoever team 8 met the round before (rounds 2 to
        // 8; in round 9 team 1 meets team 8 itself).
        let plan = rotation(10);
        let opp = crate::league::plan::opponents(&plan, 10);
        for r in 0..7 {
            assert_eq!(opp[r + 1][0], opp[r][7], "round {}", r + 2);
        }
    }

    #[test]
    fn hand_counted_four_teams() {
        // (2,3),(1,4) / (3,1),(2,4) / (1,2),(3,4), cyclic. Team 1 meets 4, 3, 2: carry-overs
        // 4→3, 3→2, 2→4; team 2: 3→4, 4→1, 1→3; team 3: 2→1, 1→4, 4→2; team 4: 1→2, 2→3,
        // 3→1. Twelve different cells: every off-diagonal entry is 1, value 12 = bound.
        let c = counts(&rotation(4), 4);
        for j in 0..4 {
            for k in 0..4 {
                assert_eq!(c[j * 4 + k], u32::from(j != k), "c[{}][{}]", j + 1, k + 1);
            }
        }
        let co = carryover(&rotation(4), 4, true);
        assert_eq!((co.value, co.lower_bound), (12, 12));
    }

    #[test]
    fn odd_leagues_count_only_real_games() {
        // n = 5: each team plays 4 of 5 rounds, so 3 consecutive pairs cyclically... the
        // rest splits the cycle: 5 rounds, 2 transitions touch the rest, 3 remain: 15 events.
        let c = counts(&rotation(5), 5);
        assert_eq!(c.iter().sum::<u32>(), 15);
        assert_eq!(lower_bound(&c, 5), 15);
    }
}
