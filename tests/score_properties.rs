//! Invariants of the scoring and rating engines, on random inputs (proptest, library API).
use arbiter::rules::load::load;
use arbiter::scoring::{
    self,
    game::GameRecord,
    history::{History, HistoryGame, Period, Placing},
    ScoreReport,
};
use proptest::prelude::*;
use std::collections::HashMap;

/// Points by name for a result table as listed and after a seeded shuffle of its rows.
fn points_listed_and_shuffled(
    rules: &arbiter::rules::model::Ruleset,
    rows: Vec<(String, f64)>,
    seed: u64,
) -> (HashMap<String, i64>, HashMap<String, i64>) {
    let mut shuffled = rows.clone();
    shuffle(&mut shuffled, seed);
    let a = scoring::score_table(rules, &rows).unwrap();
    let b = scoring::score_table(rules, &shuffled).unwrap();
    (points_by_name(&a), points_by_name(&b))
}

fn points_by_name(r: &ScoreReport) -> HashMap<String, i64> {
    r.headlines()
        .into_iter()
        .map(|h| (h.name, h.points))
        .collect()
}

fn named(scores: &[i64]) -> Vec<(String, f64)> {
    scores
        .iter()
        .enumerate()
        .map(|(i, s)| (format!("P{i}"), *s as f64))
        .collect()
}

fn pot_ruleset(stake: i64, share_scale: i64, remainder: &str) -> arbiter::rules::model::Ruleset {
    let mut r = load("advciv").unwrap();
    let pot = r.scoring.as_mut().unwrap().pot.as_mut().unwrap();
    pot.stake = stake;
    pot.share_scale = share_scale;
    pot.remainder = serde_json::from_value(serde_json::json!(remainder)).unwrap();
    r
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn the_pot_pays_out_exactly_stake_times_players(
        scores in prop::collection::vec(-100_000i64..100_000, 2..12),
        stake in 0i64..1000,
        scale in prop::sample::select(vec![1i64, 7, 10, 100, 1000, 10_000]),
        remainder in prop::sample::select(vec!["top_first", "largest_fraction"]),
    ) {
        let rules = pot_ruleset(stake, scale, remainder);
        let r = scoring::score_table(&rules, &named(&scores)).unwrap();
        let ScoreReport::Pot(pot) = &r else { panic!("pot report") };
        let paid: i64 = pot.players.iter().map(|p| p.points).sum();
        prop_assert_eq!(paid, stake * scores.len() as i64);
        prop_assert!(pot.players.iter().all(|p| p.points >= 0));
        let changes: i64 = pot.players.iter().map(|p| p.change).sum();
        prop_assert_eq!(changes, 0);
    }

    #[test]
    fn the_pot_does_not_depend_on_listing_order_for_distinct_scores(
        scores in prop::collection::hash_set(-10_000i64..10_000, 2..9),
        seed in any::<u64>(),
    ) {
        let rules = load("advciv").unwrap();
        let scores: Vec<i64> = scores.into_iter().collect();
        let (listed, shuffled) = points_listed_and_shuffled(&rules, named(&scores), seed);
        prop_assert_eq!(listed, shuffled);
    }

    #[test]
    fn the_figf_winner_scores_at_least_2000(scores in prop::collection::vec(1u32..1_000_000, 2..10)) {
        let rules = load("figf").unwrap();
        let rows: Vec<(String, f64)> = scores.iter().enumerate().map(|(i, s)| (format!("P{i}"), *s as f64)).collect();
        let r = scoring::score_table(&rules, &rows).unwrap();
        let best = *scores.iter().max().unwrap();
        for (h, s) in r.headlines().iter().zip(&scores) {
            if *s == best {
                prop_assert!(h.points >= 2000, "winner {} got {}", s, h.points);
            } else {
                prop_assert!(h.points <= 1000);
            }
        }
    }

    #[test]
    fn figf_does_not_depend_on_listing_order(scores in prop::collection::vec(1u32..100_000, 2..10), seed in any::<u64>()) {
        let rules = load("figf").unwrap();
        let rows: Vec<(String, f64)> = scores.iter().enumerate().map(|(i, s)| (format!("P{i}"), *s as f64)).collect();
        let (listed, shuffled) = points_listed_and_shuffled(&rules, rows, seed);
        prop_assert_eq!(listed, shuffled);
    }

    #[test]
    fn two_player_elo_is_zero_sum(
        games in prop::collection::vec((0usize..4, 0usize..4, 0u8..3), 1..40),
        starts in prop::collection::vec(600.0f64..2400.0, 4),
    ) {
        let rules = load("elo").unwrap();
        let names = ["Ana", "Bo", "Cy", "Di"];
        let mut h = History::default();
        for (i, s) in starts.iter().enumerate() {
            h.ratings.insert(names[i].to_string(), scoring::history::StartRating::Rating(*s));
        }
        for (a, b, result) in games {
            let b = if a == b { (b + 1) % 4 } else { b };
            let order = match result {
                0 => vec![Placing::One(names[a].into()), Placing::One(names[b].into())],
                1 => vec![Placing::One(names[b].into()), Placing::One(names[a].into())],
                _ => vec![Placing::Tied(vec![names[a].into(), names[b].into()])],
            };
            h.games.push(HistoryGame { order: Some(order), ..HistoryGame::default() });
        }
        let r = scoring::ratings::rate(&rules, &h).unwrap();
        let before: f64 = starts.iter().sum();
        let after: f64 = r.players.iter().map(|p| p.rating).sum();
        prop_assert!((before - after).abs() < 1e-6, "{} vs {}", before, after);
        for g in &r.games {
            prop_assert!((g.players[0].change + g.players[1].change).abs() < 1e-9);
        }
    }

    #[test]
    fn multiplayer_elo_is_zero_sum_and_ignores_listing_order(
        places in prop::collection::vec(0i64..4, 3..7),
        ratings in prop::collection::vec(800.0f64..2000.0, 7),
        seed in any::<u64>(),
    ) {
        let rules = load("elo").unwrap();
        let game = |order: Vec<(String, f64)>| {
            let mut h = History::default();
            for (i, r) in ratings.iter().enumerate() {
                h.ratings.insert(format!("P{i}"), scoring::history::StartRating::Rating(*r));
            }
            h.games.push(HistoryGame { scores: Some(order.into_iter().collect()), ..HistoryGame::default() });
            scoring::ratings::rate(&rules, &h).unwrap()
        };
        let rows: Vec<(String, f64)> = places.iter().enumerate().map(|(i, p)| (format!("P{i}"), *p as f64)).collect();
        let mut shuffled = rows.clone();
        shuffle(&mut shuffled, seed);
        let a = game(rows);
        let b = game(shuffled);
        let total: f64 = a.games[0].players.iter().map(|p| p.change).sum();
        prop_assert!(total.abs() < 1e-9);
        for (x, y) in a.players.iter().zip(&b.players) {
            prop_assert!((x.rating - y.rating).abs() < 1e-9);
        }
    }

    #[test]
    fn games_of_one_period_can_come_in_any_order(
        games in prop::collection::vec((0usize..5, 0usize..5), 1..15),
        seed in any::<u64>(),
    ) {
        let rules = load("elo").unwrap();
        let names = ["A", "B", "C", "D", "E"];
        let history = |games: &[(usize, usize)]| {
            let mut h = History::default();
            for n in names {
                h.ratings.insert(n.to_string(), scoring::history::StartRating::Rating(1000.0));
            }
            for (a, b) in games {
                let b = if a == b { (b + 1) % 5 } else { *b };
                h.games.push(HistoryGame {
                    period: Some(Period::Number(1)),
                    order: Some(vec![Placing::One(names[*a].into()), Placing::One(names[b].into())]),
                    ..HistoryGame::default()
                });
            }
            scoring::ratings::rate(&rules, &h).unwrap()
        };
        let mut shuffled = games.clone();
        shuffle(&mut shuffled, seed);
        let a = history(&games);
        let b = history(&shuffled);
        for (x, y) in a.players.iter().zip(&b.players) {
            prop_assert_eq!(&x.name, &y.name);
            prop_assert!((x.rating - y.rating).abs() < 1e-9);
        }
    }

    #[test]
    fn cep_does_not_depend_on_the_order_of_sides_and_players(seed in any::<u64>(), turns in 3i64..15) {
        let rules = load("cep").unwrap();
        let mut game: GameRecord = serde_yaml::from_str(&format!("
turns: {turns}
sides:
  - {{ name: A, result: win, players: [
      {{ name: a1, rank: teniente, ships: [{{ type: trialon, count: 2, entered: 2, structure_left: 1 }}] }},
      {{ name: a2, rank: mayor, ships: [{{ type: virel }}] }} ] }}
  - {{ name: B, result: loss, players: [
      {{ name: b1, rank: capitan, ships: [{{ type: virel, destroyed: true }}] }},
      {{ name: b2, rank: subteniente, ships: [{{ type: trialon, left: 3 }}] }} ] }}
  - {{ name: C, result: loss, players: [{{ name: c1, rank: teniente, ships: [{{ value: 40 }}] }}] }}
")).unwrap();
        let a = scoring::score_game(&rules, &game).unwrap();
        shuffle(&mut game.sides, seed);
        for s in &mut game.sides {
            shuffle(&mut s.players, seed ^ 0x9e37);
        }
        let b = scoring::score_game(&rules, &game).unwrap();
        prop_assert_eq!(points_by_name(&a), points_by_name(&b));
    }
}

/// A deterministic Fisher-Yates shuffle from a seed.
fn shuffle<T>(items: &mut [T], seed: u64) {
    let mut x = seed | 1;
    for i in (1..items.len()).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        items.swap(i, (x % (i as u64 + 1)) as usize);
    }
}
