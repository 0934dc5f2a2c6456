//! Elo for two players: expectation from the rating gap, change K · (S − E).

/// The expected score of a player rated `own` against one rated `other`:
/// `1 / (1 + 10^((other − own) / scale))`.
pub(crate) fn expected(own: f64, other: f64, scale: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf((other - own) / scale))
}

#[cfg(test)]
/// The rating change of a player who scored `actual` (1 win, ½ draw, 0 loss).
pub(crate) fn change(own: f64, other: f64, actual: f64, k: f64, scale: f64) -> f64 {
    k * (actual - expected(own, other, scale))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_ratings_expect_half() {
        assert_eq!(expected(1500.0, 1500.0, 400.0), 0.5);
        assert_eq!(change(1500.0, 1500.0, 1.0, 32.0, 400.0), 16.0);
    }

    #[test]
    fn four_hundred_points_is_ten_to_one() {
        assert!((expected(1800.0, 1400.0, 400.0) - 10.0 / 11.0).abs() < 1e-12);
        // Wikipedia's example: 1613 against 1609 expects 0.506 (three significant digits).
        assert!((expected(1613.0, 1609.0, 400.0) - 0.5057).abs() < 1e-4);
    }
}
