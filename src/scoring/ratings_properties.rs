//! Property: every rating system, over any history (upsets, ties, periods, extreme start
//! ratings on its scale), gives finite numbers or refuses the input at its place.
use super::history::{FullStart, History, HistoryGame, Period, Placing, StartRating};
use super::ratings::{rate_with, RateOptions};
use crate::rules::scoring::System;
use proptest::prelude::*;

fn ruleset(system: System) -> crate::rules::model::Ruleset {
    let mut r = crate::rules::load::load("elo").expect("built-in elo");
    let s = r.scoring.as_mut().expect("scoring");
    s.system = system;
    s.provisional_games = Some(3);
    r
}

/// A start on `system`'s scale: `at` in [0, 1] picks a point of its range (the ends too).
fn start(system: System, at: f64, deviation: Option<f64>) -> StartRating {
    let r = ruleset(system);
    let scale = r.scoring.as_ref().expect("scoring").scale();
    let [low, high] = scale.range.expect("built-in ranges");
    let rating = low + (high - low) * at;
    StartRating::Full(FullStart {
        rating,
        deviation: scale.deviation.map(|most| most * deviation.unwrap_or(1.0)),
        volatility: scale.max_volatility.map(|v| v * deviation.unwrap_or(1.0)),
    })
}

/// A game: its period, and its players in finishing order, each tied with the one before or not.
type Game = (Option<i64>, Vec<(usize, bool)>);

#[derive(Debug, Clone)]
struct Case {
    /// Per player: where in the range they start (None: the ruleset's initial), deviation share.
    starts: Vec<Option<(f64, f64)>>,
    /// Per game: period, the players' order (indices), ties with the one before.
    games: Vec<Game>,
}

fn case() -> impl Strategy<Value = Case> {
    (2usize..9).prop_flat_map(|players| {
        let starts = proptest::collection::vec(
            proptest::option::of((
                prop_oneof![Just(0.0), Just(1.0), 0.0..=1.0f64],
                prop_oneof![Just(1e-9), Just(1.0), 0.0001..=1.0f64],
            )),
            players,
        );
        let game = (
            proptest::option::of(1i64..6),
            Just((0..players).collect::<Vec<usize>>()).prop_shuffle(),
            2usize..=players.min(6),
            proptest::collection::vec(any::<bool>(), 6),
        )
            .prop_map(|(period, order, n, ties)| {
                let seats = order[..n]
                    .iter()
                    .zip(ties)
                    .enumerate()
                    .map(|(k, (&p, t))| (p, t && k > 0))
                    .collect();
                (period, seats)
            });
        (starts, proptest::collection::vec(game, 1..30))
            .prop_map(|(starts, games)| Case { starts, games })
    })
}

fn history(system: System, c: &Case) -> History {
    let name = |i: usize| format!("P{i}");
    let mut h = History::default();
    for (i, s) in c.starts.iter().enumerate() {
        if let Some((at, dev)) = s {
            h.ratings.insert(name(i), start(system, *at, Some(*dev)));
        }
    }
    // Periods must stay together: sort games by period (none last, in file order).
    let mut games = c.games.clone();
    games.sort_by_key(|g| g.0.unwrap_or(i64::MAX));
    for (period, seats) in games {
        let mut order: Vec<Placing> = Vec::new();
        for (p, tie) in seats {
            match (tie, order.last_mut()) {
                (true, Some(Placing::One(prev))) => {
                    let prev = prev.clone();
                    *order.last_mut().expect("there") = Placing::Tied(vec![prev, name(p)]);
                }
                (true, Some(Placing::Tied(group))) => group.push(name(p)),
                _ => order.push(Placing::One(name(p))),
            }
        }
        h.games.push(HistoryGame {
            period: period.map(Period::Number),
            order: Some(order),
            ..HistoryGame::default()
        });
    }
    h
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn every_system_gives_finite_ratings_or_a_located_refusal(c in case()) {
        for system in System::RATINGS {
            let h = history(system, &c);
            let options = RateOptions { record_games: true, predict: true };
            match rate_with(&ruleset(system), &h, options) {
                Ok(report) => {
                    for p in &report.players {
                        prop_assert!(p.rating.is_finite(), "{system:?}: {p:?}");
                        prop_assert!(p.deviation.is_none_or(|d| d.is_finite() && d > 0.0), "{system:?}: {p:?}");
                        prop_assert!(p.conservative.is_none_or(f64::is_finite), "{system:?}: {p:?}");
                        prop_assert_eq!(p.provisional, p.games < 3);
                    }
                    for g in &report.games {
                        for row in &g.players {
                            prop_assert!(row.after.is_finite() && row.change.is_finite(), "{system:?}: {row:?}");
                        }
                    }
                    for f in &report.predictions {
                        prop_assert!(f.log_loss.is_finite() && f.brier.is_finite(), "{system:?}: {f:?}");
                    }
                }
                Err(e) => prop_assert!(false, "{system:?}: refused: {e:?}"),
            }
        }
    }

    #[test]
    fn a_start_off_the_systems_scale_is_refused_at_its_entry(
        system in prop::sample::select(System::RATINGS.to_vec()),
        beyond in 1.0001..1000.0f64,
        below in any::<bool>(),
    ) {
        let r = ruleset(system);
        let [low, high] = r.scoring.as_ref().unwrap().scale().range.unwrap();
        let rating = if below { low - (high - low) * (beyond - 1.0) - 1e-6 } else { high * beyond + 1.0 };
        let mut h = History::default();
        h.ratings.insert("Ana".into(), StartRating::Rating(rating));
        h.games.push(HistoryGame {
            order: Some(vec![Placing::One("Ana".into()), Placing::One("Bo".into())]),
            ..HistoryGame::default()
        });
        let e = rate_with(&r, &h, RateOptions::default()).unwrap_err();
        prop_assert_eq!(e.pointer(), Some("/ratings/Ana"));
        prop_assert!(e.message().contains("another system's scale"), "{}", e.message());
    }
}
