//! The balanced method through the binary: Russell's perfect schedules for powers of two,
//! the seeded search otherwise, and home/away chosen for few breaks.
use crate::common::*;
use serde_json::Value;

fn check_round_robin(d: &Value, n: u64) {
    let rounds = d["rounds"].as_array().unwrap();
    let expect = if n.is_multiple_of(2) { n - 1 } else { n };
    assert_eq!(rounds.len() as u64, expect);
    let mut met = std::collections::HashSet::new();
    for r in rounds {
        let mut seen = std::collections::HashSet::new();
        for m in r["matches"].as_array().unwrap() {
            let (h, a) = (m["home"].as_u64().unwrap(), m["away"].as_u64().unwrap());
            assert!(
                seen.insert(h) && seen.insert(a),
                "a team twice in round {}",
                r["round"]
            );
            assert!(met.insert((h.min(a), h.max(a))), "{h} and {a} meet twice");
        }
        if let Some(b) = r["bye"].as_u64() {
            assert!(seen.insert(b));
        }
        assert_eq!(seen.len() as u64, n);
    }
}

#[test]
fn powers_of_two_reach_the_lower_bound() {
    // Two teams play one round: nothing carries over.
    assert_eq!(
        json(&["league", "schedule", "2", "--method", "balanced"])["carryover"]["value"],
        0
    );
    for n in [4u64, 8, 16, 32, 64] {
        let d = json(&[
            "league",
            "schedule",
            &n.to_string(),
            "--method",
            "balanced",
            "--carryover",
        ]);
        check_round_robin(&d, n);
        assert_eq!(d["carryover"]["value"], n * (n - 1), "{n} teams");
        assert_eq!(d["carryover"]["lower_bound"], n * (n - 1));
        // Every ordered pair carries over exactly once.
        for (j, row) in d["carryover"]["matrix"]
            .as_array()
            .unwrap()
            .iter()
            .enumerate()
        {
            for (k, c) in row.as_array().unwrap().iter().enumerate() {
                assert_eq!(
                    c.as_u64().unwrap(),
                    u64::from(j != k),
                    "{n} teams: c[{j}][{k}]"
                );
            }
        }
        assert!(
            d["seed"].is_null(),
            "Russell's construction uses no randomness"
        );
    }
}

#[test]
fn other_sizes_beat_the_rotation_by_far() {
    // A short search (fixed moves, so the test does not depend on the machine).
    for (n, within) in [
        (10u64, 1.7),
        (12, 1.7),
        (14, 1.7),
        (9, 1.7),
        (20, 1.7),
        (6, 2.0),
    ] {
        let args = [
            "league",
            "schedule",
            &n.to_string(),
            "--method",
            "balanced",
            "--seed",
            "3",
            "--effort",
            "20000",
        ];
        let d = json(&args);
        check_round_robin(&d, n);
        let value = d["carryover"]["value"].as_f64().unwrap();
        let bound = d["carryover"]["lower_bound"].as_f64().unwrap();
        let rotation = json(&["league", "schedule", &n.to_string()])["carryover"]["value"]
            .as_f64()
            .unwrap();
        assert!(
            value <= within * bound,
            "{n} teams: {value} against bound {bound}"
        );
        assert!(
            value < rotation || n == 6,
            "{n} teams: {value} not below the rotation's {rotation}"
        );
        assert_eq!(d["seed"], 3);
        assert_eq!(json(&args), d, "the same seed gives the same schedule");
    }
}

#[test]
fn six_teams_cannot_do_better_than_sixty_but_the_search_finds_it() {
    // 60 is the known minimum for six teams (the bound 30 is not reachable there).
    let d = json(&[
        "league", "schedule", "6", "--method", "balanced", "--seed", "1", "--effort", "20000",
    ]);
    assert_eq!(d["carryover"]["value"], 60);
}

#[test]
fn home_and_away_are_chosen_for_few_breaks() {
    // Orientation never changes the carry-over, so the balanced method may cut breaks freely:
    // for 8 teams no more than the rotation's, which keeps team 8 away or home throughout.
    let balanced = json(&["league", "schedule", "8", "--method", "balanced"]);
    let total = |d: &Value| {
        d["breaks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["breaks"].as_u64().unwrap())
            .sum::<u64>()
    };
    let rotation = json(&["league", "schedule", "8"]);
    assert!(
        total(&balanced) < total(&rotation),
        "{} vs {}",
        total(&balanced),
        total(&rotation)
    );
    for b in balanced["breaks"].as_array().unwrap() {
        let (h, a) = (b["home"].as_u64().unwrap(), b["away"].as_u64().unwrap());
        assert!(h.abs_diff(a) <= 3, "{b}");
    }
}

#[test]
fn the_shuffle_is_refused_with_the_balanced_method() {
    let e = fails(&[
        "league",
        "schedule",
        "8",
        "--method",
        "balanced",
        "--shuffle",
    ]);
    assert!(e.contains("--shuffle would undo"), "{e}");
}
