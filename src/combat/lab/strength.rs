//! Bradley–Terry strengths from a table of results: P(i beats j) = p_i / (p_i + p_j), fitted
//! by maximum likelihood with Hunter's MM iteration (2004). A draw counts half a win to each.
//!
//! A ship that never wins (or never loses) has no finite maximum-likelihood strength; `prior`
//! virtual battles per pair, split evenly, keep every strength finite (a Bayesian-style
//! shrinkage towards equal strength, negligible beside hundreds of real battles).

/// One pairing's results, draws already split between the two.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct PairScore {
    /// The two ships (indices).
    pub(crate) i: usize,
    pub(crate) j: usize,
    /// What each scored against the other.
    pub(crate) score_i: f64,
    pub(crate) score_j: f64,
}

/// Strengths normalised to a geometric mean of 1, one per ship.
pub(crate) fn bradley_terry(ships: usize, results: &[PairScore], prior: f64) -> Vec<f64> {
    let mut score = vec![0.0f64; ships];
    let mut games = vec![vec![0.0f64; ships]; ships];
    for &PairScore {
        i,
        j,
        score_i: si,
        score_j: sj,
    } in results
    {
        score[i] += si;
        score[j] += sj;
        games[i][j] += si + sj;
        games[j][i] += si + sj;
    }
    if prior > 0.0 {
        for i in 0..ships {
            for j in (i + 1)..ships {
                if games[i][j] > 0.0 {
                    score[i] += prior / 2.0;
                    score[j] += prior / 2.0;
                    games[i][j] += prior;
                    games[j][i] += prior;
                }
            }
        }
    }
    let mut p = vec![1.0f64; ships];
    for _ in 0..10_000 {
        let mut next = vec![0.0f64; ships];
        for i in 0..ships {
            let denom: f64 = (0..ships)
                .filter(|&j| j != i && games[i][j] > 0.0)
                .map(|j| games[i][j] / (p[i] + p[j]))
                .sum();
            next[i] = if denom > 0.0 { score[i] / denom } else { p[i] };
        }
        normalise(&mut next);
        let change = p
            .iter()
            .zip(&next)
            .map(|(a, b)| (a.ln() - b.ln()).abs())
            .fold(0.0, f64::max);
        p = next;
        if change < 1e-12 {
            break;
        }
    }
    p
}

/// Scale to a geometric mean of 1 (strengths are defined up to a factor).
fn normalise(p: &mut [f64]) {
    let positive: Vec<f64> = p.iter().copied().filter(|x| *x > 0.0).collect();
    if positive.is_empty() {
        return;
    }
    let mean_log = positive.iter().map(|x| x.ln()).sum::<f64>() / positive.len() as f64;
    let g = mean_log.exp();
    for x in p.iter_mut() {
        *x /= g;
    }
}

/// A strength on the Elo scale: 1500 for the geometric-mean ship, +400 for ten times the odds.
pub(crate) fn elo_scale(strength: f64) -> f64 {
    if strength > 0.0 {
        1500.0 + 400.0 * strength.log10()
    } else {
        f64::NEG_INFINITY
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(i: usize, j: usize, score_i: f64, score_j: f64) -> PairScore {
        PairScore {
            i,
            j,
            score_i,
            score_j,
        }
    }

    #[test]
    fn a_table_drawn_from_known_strengths_gives_them_back() {
        // Strengths 4 : 2 : 1. Expected scores of 700 battles a pair are exactly the model's:
        // 4 v 2 → 466.67 : 233.33, 4 v 1 → 560 : 140, 2 v 1 → 466.67 : 233.33. The fit must
        // return the ratios (geometric mean 2, so 2, 1, 0.5).
        let third = 700.0 / 3.0;
        let table = [
            pair(0, 1, 2.0 * third, third),
            pair(0, 2, 560.0, 140.0),
            pair(1, 2, 2.0 * third, third),
        ];
        let p = bradley_terry(3, &table, 0.0);
        for (got, want) in p.iter().zip([2.0, 1.0, 0.5]) {
            assert!((got - want).abs() < 1e-9, "{p:?}");
        }
        assert!((elo_scale(p[0]) - (1500.0 + 400.0 * 2f64.log10())).abs() < 1e-6);
    }

    #[test]
    fn draws_are_halves_and_equal_ships_are_equal() {
        // 10 wins each way and 20 draws: equal.
        let p = bradley_terry(2, &[pair(0, 1, 10.0 + 10.0, 10.0 + 10.0)], 0.0);
        assert!((p[0] - 1.0).abs() < 1e-12 && (p[1] - 1.0).abs() < 1e-12);
        // 30 : 10 → odds 3 : 1, strengths √3 and 1/√3.
        let p = bradley_terry(2, &[pair(0, 1, 30.0, 10.0)], 0.0);
        assert!((p[0] / p[1] - 3.0).abs() < 1e-9, "{p:?}");
    }

    #[test]
    fn the_prior_keeps_a_ship_that_never_wins_finite() {
        let p = bradley_terry(2, &[pair(0, 1, 400.0, 0.0)], 1.0);
        // 400.5 : 0.5 → odds 801.
        assert!(p.iter().all(|x| x.is_finite() && *x > 0.0));
        assert!((p[0] / p[1] - 801.0).abs() < 1e-6, "{p:?}");
    }
}
