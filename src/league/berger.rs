//! FIDE Berger tables (Handbook C.05, Annex 1), white as home.
//!
//! For an even number of players n (odd n: a phantom last player, whose opponent rests),
//! round 1 is 1−n, 2−(n−1), …, n/2−(n/2+1). Each later round adds n/2 to every player but
//! n (modulo n − 1, into 1..n−1) on the same board, and the first board's colours
//! alternate: player n is black in odd rounds, white in even ones.
use super::plan::{mirrored, Plan, RoundPlan};

pub(crate) fn berger(n: usize) -> Plan {
    let players = n + n % 2;
    let m = players - 1;
    let half = players / 2;
    let last = players - 1; // 0-based index of player n
    (0..m)
        .map(|r| {
            let shift = r * half;
            // 1-based player x shifted, as a 0-based index among the first m players.
            let moved = |x: usize| (x - 1 + shift) % m;
            let first = moved(1);
            let mut games = vec![if r % 2 == 0 {
                (first, last)
            } else {
                (last, first)
            }];
            games.extend((2..=half).map(|k| (moved(k), moved(players + 1 - k))));
            let mut bye = None;
            if n % 2 == 1 {
                games.retain(|&(h, a)| {
                    let phantom = h == last || a == last;
                    if phantom {
                        bye = Some(if h == last { a } else { h });
                    }
                    !phantom
                });
            }
            RoundPlan { games, bye }
        })
        .collect()
}

/// FIDE's double round robin: the first cycle with its last two rounds swapped (so nobody
/// gets the same colour three times running across the turn), then the original cycle
/// with colours reversed.
pub(crate) fn fide_double(single: &Plan) -> (Plan, Plan) {
    let mut first = single.clone();
    let len = first.len();
    if len >= 2 {
        first.swap(len - 2, len - 1);
    }
    let second = single.iter().map(mirrored).collect();
    (first, second)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::league::plan::check_round_robin;

    #[test]
    fn every_size_is_a_round_robin() {
        for n in 2..=41 {
            check_round_robin(&berger(n), n).unwrap_or_else(|e| panic!("n = {n}: {e}"));
        }
    }

    #[test]
    fn fide_double_swaps_the_last_two_rounds_of_the_first_cycle() {
        let single = berger(6);
        let (first, second) = fide_double(&single);
        assert_eq!(first[3], single[4]);
        assert_eq!(first[4], single[3]);
        assert_eq!(first[..3], single[..3]);
        assert_eq!(
            second[0].games,
            single[0]
                .games
                .iter()
                .map(|&(h, a)| (a, h))
                .collect::<Vec<_>>()
        );
    }
}
