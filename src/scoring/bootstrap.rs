//! The block bootstrap the backtest and the fit share: resamples of consecutive games, the
//! same resamples for every series, so two series' means compare pair by pair.
use rand::{RngCore, SeedableRng};
use rayon::prelude::*;

/// The mean of each series (each a value per game, all of one length) on each of
/// `resamples` block-bootstrap resamples: `out[r][k]` is series k's mean on resample r.
///
/// Blocks are ∛n consecutive games, not single games: a forecast leans on the games before
/// it, and blocks keep that dependence. Each resample has its own generator, seeded from
/// `seed` and its number, so the result does not depend on the thread count.
pub(crate) fn block_means(series: &[&[f64]], resamples: usize, seed: u64) -> Vec<Vec<f64>> {
    let games = series.first().map_or(0, |s| s.len());
    if games == 0 {
        return vec![vec![0.0; series.len()]; resamples];
    }
    let block = ((games as f64).cbrt().ceil() as usize).max(1);
    let blocks = games.div_ceil(block);
    let block_sums: Vec<Vec<f64>> = series
        .iter()
        .map(|f| f.chunks(block).map(|c| c.iter().sum()).collect())
        .collect();
    let block_len: Vec<f64> = (0..blocks)
        .map(|b| (games.min((b + 1) * block) - b * block) as f64)
        .collect();
    (0..resamples)
        .into_par_iter()
        .map(|r| {
            let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(
                seed ^ (r as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
            );
            let mut sums = vec![0.0; block_sums.len()];
            let mut count = 0.0;
            for _ in 0..blocks {
                // A uniform pick of a block (multiply-shift: no division).
                let b = ((rng.next_u64() as u128 * blocks as u128) >> 64) as usize;
                count += block_len[b];
                for (sum, l) in sums.iter_mut().zip(&block_sums) {
                    *sum += l[b];
                }
            }
            sums.iter().map(|s| s / count).collect()
        })
        .collect()
}

/// The central `level` interval of sorted values.
pub(crate) fn interval(sorted: &[f64], level: f64) -> Option<(f64, f64)> {
    if sorted.is_empty() {
        return None;
    }
    let tail = (1.0 - level) / 2.0;
    let at =
        |q: f64| sorted[((q * (sorted.len() - 1) as f64).round() as usize).min(sorted.len() - 1)];
    Some((at(tail), at(1.0 - tail)))
}

/// The interval of a − b over the resamples (`a`, `b`: series indices of `means`).
pub(crate) fn paired_interval(
    means: &[Vec<f64>],
    a: usize,
    b: usize,
    level: f64,
) -> Option<(f64, f64)> {
    let mut d: Vec<f64> = means.iter().map(|m| m[a] - m[b]).collect();
    d.sort_by(f64::total_cmp);
    interval(&d, level)
}
