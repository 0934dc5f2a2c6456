//! Properties of every method for any league of up to 40 teams, through the library API the
//! scripting layer uses: each team once a round, each pair once a leg, legs swapped, and the
//! reported carry-over and breaks consistent with the schedule.
use arbiter::league::{
    home_away::HomeAway,
    schedule::{schedule, Method, Schedule, ScheduleOptions},
    search::SearchBudget,
    teams::{Team, Teams},
};
use proptest::prelude::*;
use std::collections::{HashMap, HashSet};

fn key(t: &Team) -> String {
    t.to_string()
}

fn check(s: &Schedule, n: usize, legs: u32) -> Result<(), TestCaseError> {
    let per_leg = if n.is_multiple_of(2) { n - 1 } else { n };
    prop_assert_eq!(s.rounds.len(), per_leg * legs as usize);
    let mut games_by_leg: Vec<HashSet<(String, String)>> = vec![HashSet::new(); legs as usize];
    for (i, r) in s.rounds.iter().enumerate() {
        prop_assert_eq!(r.round as usize, i + 1);
        prop_assert_eq!(r.leg as usize, i / per_leg + 1);
        let mut seen = HashSet::new();
        for m in &r.matches {
            prop_assert!(
                seen.insert(key(&m.home)),
                "{} twice in round {}",
                m.home,
                r.round
            );
            prop_assert!(
                seen.insert(key(&m.away)),
                "{} twice in round {}",
                m.away,
                r.round
            );
            prop_assert!(games_by_leg[r.leg as usize - 1].insert((key(&m.home), key(&m.away))));
        }
        if let Some(b) = &r.bye {
            prop_assert!(seen.insert(key(b)));
        }
        prop_assert_eq!(r.bye.is_some(), n % 2 == 1);
        prop_assert_eq!(
            seen.len(),
            n,
            "round {}: every team plays or rests once",
            r.round
        );
    }
    // Each pair once per leg.
    for games in &games_by_leg {
        prop_assert_eq!(games.len(), n * (n - 1) / 2);
        let pairs: HashSet<(String, String)> = games
            .iter()
            .map(|(h, a)| {
                if h < a {
                    (h.clone(), a.clone())
                } else {
                    (a.clone(), h.clone())
                }
            })
            .collect();
        prop_assert_eq!(pairs.len(), n * (n - 1) / 2);
    }
    // Every further leg swaps home and away.
    for w in games_by_leg.windows(2) {
        let swapped: HashSet<(String, String)> =
            w[0].iter().map(|(h, a)| (a.clone(), h.clone())).collect();
        prop_assert_eq!(&swapped, &w[1]);
    }
    // Breaks as reported: recount from the rounds.
    let mut last: HashMap<String, bool> = HashMap::new();
    let mut breaks: HashMap<String, u32> = HashMap::new();
    for r in &s.rounds {
        for m in &r.matches {
            for (t, home) in [(key(&m.home), true), (key(&m.away), false)] {
                if last.get(&t) == Some(&home) {
                    *breaks.entry(t.clone()).or_default() += 1;
                }
                last.insert(t, home);
            }
        }
    }
    for b in &s.breaks {
        prop_assert_eq!(b.breaks, breaks.get(&key(&b.team)).copied().unwrap_or(0));
        prop_assert_eq!((b.home + b.away) as usize, (n - 1) * legs as usize);
    }
    prop_assert!(s.carryover.value >= s.carryover.lower_bound);
    Ok(())
}

fn method() -> impl Strategy<Value = Method> {
    prop_oneof![
        Just(Method::Rotation),
        Just(Method::Berger),
        Just(Method::Balanced)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn every_method_is_a_round_robin_per_leg(n in 2usize..=40, m in method(), legs in 1u32..=3, shuffle in any::<bool>(), balanced in any::<bool>(), seed in any::<u64>()) {
        let options = ScheduleOptions {
            method: m,
            legs,
            shuffle: shuffle && m != Method::Balanced,
            seed: Some(seed),
            matrix: false,
            search: SearchBudget { moves: Some(3000), seconds: None },
            home_away: if balanced { HomeAway::Balanced } else { HomeAway::Source },
        };
        let s = schedule(&options, &Teams::Count(n)).unwrap();
        check(&s, n, legs)?;
        // Balanced venues: every team's home and away counts differ by at most one.
        if balanced {
            for b in &s.breaks {
                prop_assert!(b.home.abs_diff(b.away) <= 1, "{}: {} home, {} away", b.team, b.home, b.away);
            }
        }
    }

    #[test]
    fn names_work_like_numbers(n in 2usize..=12, m in method()) {
        let names: Vec<String> = (0..n).map(|i| format!("Team {i}")).collect();
        let options = ScheduleOptions { method: m, search: SearchBudget { moves: Some(2000), seconds: None }, seed: Some(1), ..ScheduleOptions::default() };
        let s = schedule(&options, &Teams::Names(names)).unwrap();
        check(&s, n, 1)?;
        let by_number = schedule(&options, &Teams::Count(n)).unwrap();
        prop_assert_eq!(s.carryover, by_number.carryover);
    }
}

#[test]
fn options_come_from_a_map() {
    // What a script passes: a map with any subset of the options.
    let o: ScheduleOptions = serde_json::from_str(r#"{"method": "berger", "legs": 2}"#).unwrap();
    assert_eq!((o.method, o.legs, o.shuffle), (Method::Berger, 2, false));
    assert!(serde_json::from_str::<ScheduleOptions>(r#"{"legz": 2}"#).is_err());
    let t: Teams = serde_json::from_str(r#"["Orcs", "Elves"]"#).unwrap();
    assert_eq!(t.len(), 2);
    let t: Teams = serde_json::from_str("6").unwrap();
    assert_eq!(t, Teams::Count(6));
}
