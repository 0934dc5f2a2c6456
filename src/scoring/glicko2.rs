//! Glicko-2 (Glickman) through the skillratings crate: a player's games of one rating period
//! are rated together against their opponents' ratings at the period's start, and an idle
//! period widens the deviation.
use crate::rules::scoring::Glicko2Rules;
use skillratings::glicko2::{expected_score, glicko2_rating_period, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

/// A player's Glicko-2 numbers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Glicko {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
}

impl Glicko {
    fn lib(self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }
}

/// One game of a rating period, as the player saw it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct PeriodGame {
    /// The opponent's numbers at the period's start.
    pub(crate) opponent: Glicko,
    /// The player's score: 1, ½ or 0.
    pub(crate) score: f64,
}

/// The player after a rating period with these results (none: only the deviation grows).
pub(crate) fn rate_period(player: Glicko, games: &[PeriodGame], rules: &Glicko2Rules) -> Glicko {
    let config = Glicko2Config {
        tau: rules.tau,
        convergence_tolerance: rules.convergence,
    };
    let results: Vec<(Glicko2Rating, Outcomes)> = games
        .iter()
        .map(|g| {
            let outcome = if g.score > 0.5 {
                Outcomes::WIN
            } else if g.score < 0.5 {
                Outcomes::LOSS
            } else {
                Outcomes::DRAW
            };
            (g.opponent.lib(), outcome)
        })
        .collect();
    let after = glicko2_rating_period(&player.lib(), &results, &config);
    let rating = rounded(after.rating - rules.initial, rules.digits) + rules.initial;
    Glicko {
        rating,
        // Rounding must not make a tiny deviation none at all.
        deviation: match rounded(after.deviation, rules.digits) {
            d if d > 0.0 => d.min(rules.deviation),
            _ => after.deviation.min(rules.deviation),
        },
        volatility: after.volatility,
    }
}

/// Glicko-2's own scale: a rating of r is μ = (r − 1500) / 173.7178 inside the algorithm.
const GLICKO2_SCALE: f64 = 173.7178;

/// A rating difference (or deviation) rounded on the Glicko-2 scale, as Glickman's worked
/// example rounds μ′ and φ′ to four decimals.
fn rounded(x: f64, digits: Option<u32>) -> f64 {
    match digits {
        Some(d) => crate::rules::formula::round_to(x / GLICKO2_SCALE, d as i32) * GLICKO2_SCALE,
        None => x,
    }
}

/// The deviation after `periods` rating periods without a game: each is the paper's step 6,
/// φ* = √(φ² + σ²) on the Glicko-2 scale, so n of them are √(φ² + n·σ²) (σ, the volatility,
/// does not change while idle); never above a new player's.
pub(crate) fn idle(player: Glicko, periods: f64, rules: &Glicko2Rules) -> Glicko {
    // Not a positive number of periods (zero, negative or NaN): nothing to widen.
    if periods.partial_cmp(&0.0) != Some(std::cmp::Ordering::Greater) {
        return player;
    }
    let phi = player.deviation / GLICKO2_SCALE;
    let widened =
        (phi * phi + periods * player.volatility * player.volatility).sqrt() * GLICKO2_SCALE;
    Glicko {
        deviation: if widened.is_finite() {
            widened
                .max(player.deviation)
                .min(rules.deviation.max(player.deviation))
        } else {
            rules.deviation.max(player.deviation)
        },
        ..player
    }
}

/// The chance that `a` beats `b`.
pub(crate) fn expected(a: Glicko, b: Glicko) -> f64 {
    expected_score(&a.lib(), &b.lib()).0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(opponent: Glicko, score: f64) -> PeriodGame {
        PeriodGame { opponent, score }
    }

    fn rules() -> Glicko2Rules {
        Glicko2Rules {
            initial: 1500.0,
            deviation: 350.0,
            volatility: 0.06,
            tau: 0.5,
            convergence: 0.000001,
            max_volatility: 0.5,
            days_per_period: None,
            digits: Some(4),
            range: None,
            conservative: Some(2.0),
        }
    }

    fn g(rating: f64, deviation: f64) -> Glicko {
        Glicko {
            rating,
            deviation,
            volatility: 0.06,
        }
    }

    #[test]
    fn glickmans_worked_example() {
        // Glickman, "Example of the Glicko-2 system": 1500/200/0.06 beats 1400/30 and loses
        // to 1550/100 and 1700/300 in one period → 1464.06, 151.52, 0.05999.
        let after = rate_period(
            g(1500.0, 200.0),
            &[
                game(g(1400.0, 30.0), 1.0),
                game(g(1550.0, 100.0), 0.0),
                game(g(1700.0, 300.0), 0.0),
            ],
            &rules(),
        );
        assert_eq!(format!("{:.2}", after.rating), "1464.06");
        assert_eq!(format!("{:.2}", after.deviation), "151.52");
        assert!((after.volatility - 0.05999).abs() < 1e-5, "{after:?}");
        // Unrounded, the same period gives what exact arithmetic does (1464.0507).
        let exact = rate_period(
            g(1500.0, 200.0),
            &[
                game(g(1400.0, 30.0), 1.0),
                game(g(1550.0, 100.0), 0.0),
                game(g(1700.0, 300.0), 0.0),
            ],
            &Glicko2Rules {
                digits: None,
                ..rules()
            },
        );
        assert_eq!(format!("{:.2}", exact.rating), "1464.05");
        assert_eq!(format!("{:.2}", exact.deviation), "151.52");
    }

    #[test]
    fn idle_periods_widen_the_deviation_up_to_a_new_players() {
        let once = idle(g(1500.0, 50.0), 1.0, &rules());
        // √((50/173.7178)² + 0.06²) · 173.7178 = 51.0749
        assert!((once.deviation - 51.0749).abs() < 1e-3, "{once:?}");
        assert!(idle(g(1500.0, 50.0), 5.0, &rules()).deviation > once.deviation);
        assert_eq!(idle(g(1500.0, 340.0), 1.0e9, &rules()).deviation, 350.0);
        assert_eq!(idle(g(1500.0, 50.0), 0.0, &rules()), g(1500.0, 50.0));
        // n idle periods are n steps of φ* = √(φ² + σ²): 5 of them from 50 by hand,
        // √((50/173.7178)² + 5 · 0.06²) · 173.7178 = 55.16.
        let five = idle(g(1500.0, 50.0), 5.0, &rules()).deviation;
        let by_hand = ((50.0f64 / 173.7178).powi(2) + 5.0 * 0.06 * 0.06).sqrt() * 173.7178;
        assert!(
            (five - by_hand).abs() < 1e-9 && (five - 55.16).abs() < 0.01,
            "{five}"
        );
    }
}
