//! Free-for-all Elo: multiplayer Elo (the spec's formula); the Bayesian systems are in
//! `weng_lin` and `trueskill`.
use super::elo::expected;

/// Multiplayer Elo changes for N players with `ratings`, finishing at `places` (1 = first;
/// tied players hold the average of the places they share), with K factors `k`.
///
/// Expected `E_A` = Σ over the others of the two-player expectation / (N(N−1)/2);
/// actual `S_A` = (N − p_A) / (N(N−1)/2); change `K · (N − 1) · (S_A − E_A)`.
/// With two players this is plain Elo.
pub(crate) fn elo_changes(
    ratings: &[f64],
    places: &[f64],
    k: &[f64],
    scale: f64,
    out: &mut Vec<f64>,
) {
    let n = ratings.len();
    let pairs = (n * (n - 1)) as f64 / 2.0;
    // E(a, b) = q_a / (q_a + q_b) with q = 10^(r / scale): one power per player, not per
    // pair. Ratings are taken relative to the table's best so q never overflows.
    let top = ratings.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mut q = [0.0f64; 16];
    let mut q_heap = Vec::new();
    let q: &mut [f64] = if n <= q.len() {
        &mut q[..n]
    } else {
        q_heap.resize(n, 0.0);
        &mut q_heap
    };
    for (qi, r) in q.iter_mut().zip(ratings) {
        *qi = ((r - top) / scale * std::f64::consts::LN_10).exp();
    }
    out.clear();
    for a in 0..n {
        let mut e = 0.0;
        for b in 0..n {
            if a != b {
                let both = q[a] + q[b];
                // Both far below the table's best (both powers underflowed): compare directly.
                e += if both > 0.0 {
                    q[a] / both
                } else {
                    expected(ratings[a], ratings[b], scale)
                };
            }
        }
        let s = (n as f64 - places[a]) / pairs;
        out.push(k[a] * (n as f64 - 1.0) * (s - e / pairs));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_players_is_plain_elo() {
        let mut out = Vec::new();
        elo_changes(
            &[1613.0, 1609.0],
            &[1.0, 2.0],
            &[32.0, 32.0],
            400.0,
            &mut out,
        );
        let e = expected(1613.0, 1609.0, 400.0);
        assert!((out[0] - 32.0 * (1.0 - e)).abs() < 1e-12);
        assert!((out[0] + out[1]).abs() < 1e-12);
    }

    #[test]
    fn one_power_per_player_matches_the_pairwise_formula() {
        let ratings = [1813.0, 1400.0, 1655.5, 990.0, 2400.0];
        let places = [2.0, 4.5, 1.0, 4.5, 3.0];
        let k = [32.0, 24.0, 16.0, 40.0, 10.0];
        let mut out = Vec::new();
        elo_changes(&ratings, &places, &k, 400.0, &mut out);
        let n = ratings.len() as f64;
        let pairs = n * (n - 1.0) / 2.0;
        for a in 0..ratings.len() {
            let e: f64 = (0..ratings.len())
                .filter(|&b| b != a)
                .map(|b| expected(ratings[a], ratings[b], 400.0))
                .sum::<f64>()
                / pairs;
            let want = k[a] * (n - 1.0) * ((n - places[a]) / pairs - e);
            assert!((out[a] - want).abs() < 1e-9, "{a}: {} vs {want}", out[a]);
        }
    }

    #[test]
    fn huge_gaps_stay_finite() {
        let mut out = Vec::new();
        elo_changes(
            &[1.0e6, 0.0, 0.0],
            &[3.0, 1.0, 2.0],
            &[32.0; 3],
            400.0,
            &mut out,
        );
        assert!(out.iter().all(|c| c.is_finite()), "{out:?}");
        assert!(out.iter().sum::<f64>().abs() < 1e-9);
    }

    #[test]
    fn equal_four_player_table_by_hand() {
        // N = 4, pairs = 6, every E = 1.5/6 = 0.25; S = 3/6, 2/6, 1/6, 0; K·3·(S − E).
        let mut out = Vec::new();
        elo_changes(
            &[1000.0; 4],
            &[1.0, 2.0, 3.0, 4.0],
            &[32.0; 4],
            400.0,
            &mut out,
        );
        let want = [24.0, 8.0, -8.0, -24.0];
        for (g, w) in out.iter().zip(want) {
            assert!((g - w).abs() < 1e-9, "{out:?}");
        }
    }

    #[test]
    fn a_tie_shares_the_average_place() {
        let mut out = Vec::new();
        elo_changes(&[1000.0; 3], &[1.5, 1.5, 3.0], &[30.0; 3], 400.0, &mut out);
        // pairs 3, E = 1/3 each; S = 1.5/3 = 0.5 for the tied pair, 0 for the last.
        assert!((out[0] - 30.0 * 2.0 * (0.5 - 1.0 / 3.0)).abs() < 1e-9);
        assert_eq!(out[0], out[1]);
    }
}
