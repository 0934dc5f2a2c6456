//! Accelerated pairings: virtual points added to the pairing score of the top of the field in
//! the first rounds, so that the strongest meet sooner (FIDE C.04.5.1, the Baku Acceleration
//! Method). They decide who is paired with whom, never the standings.

/// Group A of the Baku method: the first half of the `players`, rounded up to an even number
/// (C.04.5.1 2: 161 players make a group of 82, "2 × Q, Q the players divided by 4 and rounded
/// upwards"). Group A is the starting numbers 1 to this.
pub(crate) fn baku_group(players: usize) -> usize {
    (2 * players.div_ceil(4)).min(players)
}

/// The rounds the Baku method accelerates when the tournament does not say: the first half,
/// rounded up (C.04.5.1 4; nine rounds: five).
pub(crate) fn baku_rounds(total_rounds: usize) -> usize {
    total_rounds.div_ceil(2)
}

/// Virtual points in tenths, by player (starting number order) and round, for the Baku
/// method over the first `accelerated` rounds: group A gets `stages[0]` in the first share of
/// those rounds, `stages[1]` in the next and so on, the rounds shared out evenly with an
/// earlier stage taking the odd one (FIDE: one point in the first half, rounded up, then half
/// a point); group B and every later round get none.
pub(crate) fn baku(players: usize, accelerated: usize, stages: &[u32]) -> Vec<Vec<u32>> {
    let per_round = by_round(accelerated, stages);
    let group = baku_group(players);
    (0..players)
        .map(|p| {
            if p < group {
                per_round.clone()
            } else {
                Vec::new()
            }
        })
        .collect()
}

/// The virtual points of each of the `accelerated` rounds: the rounds shared out among the
/// `stages` in order, an earlier stage taking the odd round.
pub(crate) fn by_round(accelerated: usize, stages: &[u32]) -> Vec<u32> {
    if stages.is_empty() {
        return Vec::new();
    }
    let k = stages.len();
    let mut out = Vec::with_capacity(accelerated);
    for (i, &v) in stages.iter().enumerate() {
        let share = accelerated / k + usize::from(i < accelerated % k);
        out.extend(std::iter::repeat_n(v, share));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn group_a_is_the_first_half_rounded_up_to_even() {
        // C.04.5.1's own example, and the small fields around a multiple of four.
        assert_eq!(baku_group(161), 82);
        assert_eq!(baku_group(160), 80);
        assert_eq!(baku_group(162), 82);
        assert_eq!(baku_group(163), 82);
        assert_eq!(baku_group(20), 10);
        assert_eq!(baku_group(5), 4);
        assert_eq!(baku_group(1), 1);
    }

    #[test]
    fn nine_rounds_give_one_point_three_times_then_half_twice() {
        // C.04.5.1: "In a nine-round tournament, the accelerated rounds are five. The players
        // in GA are assigned one virtual point in the first three rounds, and half virtual
        // point in the next two rounds."
        assert_eq!(baku_rounds(9), 5);
        let v = baku(6, baku_rounds(9), &[10, 5]);
        assert_eq!(v[0], vec![10, 10, 10, 5, 5]);
        assert_eq!(v[3], v[0]);
        assert!(v[4].is_empty() && v[5].is_empty());
        // Seven rounds: four accelerated, two at a point and two at a half.
        assert_eq!(baku(4, baku_rounds(7), &[10, 5])[0], vec![10, 10, 5, 5]);
        // A single accelerated round takes the first stage only.
        assert_eq!(baku(4, 1, &[10, 5])[1], vec![10]);
        assert_eq!(baku(4, 0, &[10, 5])[0], Vec::<u32>::new());
    }
}
