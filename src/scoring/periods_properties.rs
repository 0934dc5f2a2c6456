//! Properties of rating periods in the Bayesian systems (TrueSkill, Weng-Lin): a period's
//! games are rated in order, so a player's μ stays inside the system's range however many
//! games a period holds, and rating with periods forecasts a league of known skills no worse
//! than rating game by game.
use super::history::{History, HistoryGame, Period, Placing};
use super::ratings::{rate_with, RateOptions};
use crate::rules::scoring::System;
use proptest::prelude::*;
use rand::{Rng, SeedableRng};

fn ruleset(system: System) -> crate::rules::model::Ruleset {
    let mut r = crate::rules::load::load("elo").expect("built-in elo");
    r.scoring.as_mut().expect("scoring").system = system;
    r
}

/// A league of `players` with known skills (μ scale: 25 ± 8), tables of four whose order
/// is each player's skill plus a performance spread of β = 25/6, `per_period` games a period.
fn league(seed: u64, players: usize, games: usize, per_period: usize) -> (Vec<f64>, History) {
    let mut rng = rand_pcg::Pcg64Mcg::seed_from_u64(seed);
    let normal = move |rng: &mut rand_pcg::Pcg64Mcg| {
        // Box–Muller from the seeded generator.
        let (u, v): (f64, f64) = (rng.gen_range(1e-12..1.0), rng.gen());
        (-2.0 * u.ln()).sqrt() * (2.0 * std::f64::consts::PI * v).cos()
    };
    let skills: Vec<f64> = (0..players)
        .map(|_| 25.0 + 8.0 * normal(&mut rng))
        .collect();
    let mut history = History::default();
    for g in 0..games {
        let mut table: Vec<usize> = Vec::new();
        while table.len() < 4 {
            let p = rng.gen_range(0..players);
            if !table.contains(&p) {
                table.push(p);
            }
        }
        let mut perf: Vec<(f64, usize)> = table
            .iter()
            .map(|&p| (skills[p] + 25.0 / 6.0 * normal(&mut rng), p))
            .collect();
        perf.sort_by(|a, b| b.0.total_cmp(&a.0));
        history.games.push(HistoryGame {
            period: (per_period > 0).then(|| Period::Number((g / per_period) as i64 + 1)),
            order: Some(
                perf.iter()
                    .map(|&(_, p)| Placing::One(format!("P{p}")))
                    .collect(),
            ),
            ..HistoryGame::default()
        });
    }
    (skills, history)
}

/// Mean log-loss of the forecasts, and every μ any game left a player with.
fn rate(system: System, history: &History) -> (f64, Vec<f64>) {
    let report = rate_with(
        &ruleset(system),
        history,
        RateOptions {
            record_games: true,
            predict: true,
        },
    )
    .expect("rated");
    let loss = report.predictions.iter().map(|p| p.log_loss).sum::<f64>()
        / report.predictions.len() as f64;
    let mus = report
        .games
        .iter()
        .flat_map(|g| g.players.iter().map(|p| p.after))
        .chain(report.players.iter().map(|p| p.rating))
        .collect();
    (loss, mus)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 6, ..ProptestConfig::default() })]

    #[test]
    fn periods_stay_in_range_and_forecast_no_worse(seed in any::<u64>(), per_period in 5usize..60) {
        let (_, by_game) = league(seed, 20, 600, 0);
        let (_, by_period) = league(seed, 20, 600, per_period);
        for system in [System::TrueSkill, System::WengLin] {
            let range = ruleset(system).scoring.unwrap().scale().range.expect("a range");
            let (loss_game, _) = rate(system, &by_game);
            let (loss_period, mus) = rate(system, &by_period);
            for mu in mus {
                prop_assert!(mu >= range[0] && mu <= range[1], "{system:?}: μ {mu} left {range:?}");
            }
            // The same games in the same order; periods change only how σ grows.
            prop_assert!(
                loss_period <= loss_game + 0.002,
                "{system:?}: with periods of {per_period} log-loss {loss_period}, game by game {loss_game}"
            );
        }
    }
}

/// One player winning every game of one period, against fresh opponents each time: rated in
/// order, as if game by game (σ grows once for the period, not once a game).
fn winning_streak(wins: usize, period: bool) -> f64 {
    let history = History {
        games: (0..wins)
            .map(|g| HistoryGame {
                period: period.then_some(Period::Number(1)),
                order: Some(vec![
                    Placing::One("Ana".into()),
                    Placing::One(format!("Opponent {g}")),
                ]),
                ..HistoryGame::default()
            })
            .collect(),
        ..History::default()
    };
    let report = rate_with(
        &ruleset(System::TrueSkill),
        &history,
        RateOptions::default(),
    )
    .expect("rated");
    report.players[0].rating
}

#[test]
fn a_streak_inside_a_period_does_not_overshoot() {
    // Added up from the period's start the eight wins made μ 60.2; in order they make 38.0.
    let (in_period, by_game) = (winning_streak(8, true), winning_streak(8, false));
    assert!(
        (in_period - by_game).abs() < 0.05,
        "{in_period} vs {by_game}"
    );
    assert!(in_period > 37.5 && in_period < 38.5, "{in_period}");
    // Forty wins once made μ 200.8, twice the system's range.
    let forty = winning_streak(40, true);
    assert!(forty < 100.0 && forty > in_period, "{forty}");
}
