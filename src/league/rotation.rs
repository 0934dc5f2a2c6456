//! The source's rotation (Frikonsejo, 2014), restated in league.md.
//!
//! With m = n (odd n) or n − 1 (even n), round r rests team r and pairs (r + k, r − k) for
//! k = 1 .. (m − 1)/2, modulo m into 1..m, the first team at home. For even n the resting
//! team plays team n instead, listed last as (r, n).
use super::plan::{Plan, RoundPlan};

pub(crate) fn rotation(n: usize) -> Plan {
    let m = if n.is_multiple_of(2) { n - 1 } else { n };
    // 1-based team number x, reduced modulo m into 1..m, as a 0-based index.
    let index = |x: isize| -> usize { (x - 1).rem_euclid(m as isize) as usize };
    (1..=m as isize)
        .map(|r| {
            let mut games: Vec<(usize, usize)> = (1..=(m as isize - 1) / 2)
                .map(|k| (index(r + k), index(r - k)))
                .collect();
            let resting = index(r);
            let bye = if n.is_multiple_of(2) {
                games.push((resting, n - 1));
                None
            } else {
                Some(resting)
            };
            RoundPlan { games, bye }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::league::plan::check_round_robin;

    /// 1-based (home, away) pairs of each round.
    fn numbered(plan: &Plan) -> Vec<Vec<(usize, usize)>> {
        plan.iter()
            .map(|r| r.games.iter().map(|&(h, a)| (h + 1, a + 1)).collect())
            .collect()
    }

    #[test]
    fn the_spec_checks() {
        assert_eq!(numbered(&rotation(5))[0], vec![(2, 5), (3, 4)]);
        assert_eq!(rotation(5)[0].bye, Some(0));
        assert_eq!(numbered(&rotation(6))[0], vec![(2, 5), (3, 4), (1, 6)]);
        assert_eq!(numbered(&rotation(7))[3], vec![(5, 3), (6, 2), (7, 1)]);
        assert_eq!(rotation(7)[3].bye, Some(3));
    }

    #[test]
    fn every_size_is_a_round_robin() {
        for n in 2..=41 {
            check_round_robin(&rotation(n), n).unwrap_or_else(|e| panic!("n = {n}: {e}"));
        }
    }
}
