//! Statistics of a simulation: the Wilson interval of a win rate and the chi-square test that
//! compares two runs.

/// Wilson score interval at 95%.
pub(crate) fn wilson(successes: u64, n: u64) -> [f64; 2] {
    if n == 0 {
        return [0.0, 1.0];
    }
    let z = 1.959_963_984_540_054_f64;
    let n = n as f64;
    let p = successes as f64 / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    [(centre - half).max(0.0), (centre + half).min(1.0)]
}

/// Chi-square test of homogeneity for two rows of counts: (statistic, p-value).
pub(crate) fn chi_square(rows: [[u64; 3]; 2]) -> (f64, f64) {
    let total: u64 = rows.iter().flatten().sum();
    if total == 0 {
        return (0.0, 1.0);
    }
    let row_sum = [
        rows[0].iter().sum::<u64>() as f64,
        rows[1].iter().sum::<u64>() as f64,
    ];
    let mut chi2 = 0.0;
    let mut categories = 0;
    for k in 0..3 {
        let col = (rows[0][k] + rows[1][k]) as f64;
        if col == 0.0 {
            continue;
        }
        categories += 1;
        for (r, row) in rows.iter().enumerate() {
            let expected = row_sum[r] * col / total as f64;
            if expected > 0.0 {
                chi2 += (row[k] as f64 - expected).powi(2) / expected;
            }
        }
    }
    let p = match categories {
        0 | 1 => 1.0,
        // One degree of freedom: P(χ² > x) = erfc(√(x/2)).
        2 => erfc((chi2 / 2.0).sqrt()),
        // Two: P(χ² > x) = e^(−x/2).
        _ => (-chi2 / 2.0).exp(),
    };
    (chi2, p)
}

/// Complementary error function (Abramowitz & Stegun 7.1.26, error below 1.5e-7).
fn erfc(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736
                + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let e = poly * (-x * x).exp();
    if x >= 0.0 {
        e
    } else {
        2.0 - e
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_interval_known_values() {
        // 50 of 100: 0.4038 to 0.5962; 0 of 10: 0 to 0.2775.
        let [lo, hi] = wilson(50, 100);
        assert!(
            (lo - 0.403_831).abs() < 1e-5 && (hi - 0.596_169).abs() < 1e-5,
            "{lo} {hi}"
        );
        let [lo, hi] = wilson(0, 10);
        assert!(lo == 0.0 && (hi - 0.277_533).abs() < 1e-5, "{hi}");
    }

    #[test]
    fn chi_square_known_values() {
        // Identical rows: 0, p = 1.
        assert_eq!(chi_square([[10, 20, 70], [10, 20, 70]]).0, 0.0);
        // [[30, 70, 0], [50, 50, 0]]: one degree of freedom, χ² = 8.333, p ≈ 0.00389.
        let (c, p) = chi_square([[30, 70, 0], [50, 50, 0]]);
        assert!(
            (c - 8.333_333).abs() < 1e-5 && (p - 0.003_892).abs() < 1e-5,
            "{c} {p}"
        );
        // Two degrees: p = e^(−χ²/2).
        let (c, p) = chi_square([[40, 64, 296], [28, 200, 172]]);
        assert!((p - (-c / 2.0).exp()).abs() < 1e-15 && p < 0.001);
    }
}
