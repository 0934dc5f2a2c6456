//! FIDE Berger tables (Handbook C.05, Annex 1) through the binary, white as home.
use crate::common::*;
use serde_json::Value;

/// FIDE's tables for 4, 6 and 8 players, round by round, white first.
const FIDE: &[(usize, &[&str])] = &[
    (4, &["1-4 2-3", "4-3 1-2", "2-4 3-1"]),
    (
        6,
        &[
            "1-6 2-5 3-4",
            "6-4 5-3 1-2",
            "2-6 3-1 4-5",
            "6-5 1-4 2-3",
            "3-6 4-2 5-1",
        ],
    ),
    (
        8,
        &[
            "1-8 2-7 3-6 4-5",
            "8-5 6-4 7-3 1-2",
            "2-8 3-1 4-7 5-6",
            "8-6 7-5 1-4 2-3",
            "3-8 4-2 5-1 6-7",
            "8-7 1-6 2-5 3-4",
            "4-8 5-3 6-2 7-1",
        ],
    ),
];

fn pairs(round: &Value) -> String {
    round["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| format!("{}-{}", m["home"], m["away"]))
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn fide_tables_for_4_6_and_8() {
    for &(n, table) in FIDE {
        let d = json(&["league", "schedule", &n.to_string(), "--method", "berger"]);
        let got: Vec<String> = d["rounds"].as_array().unwrap().iter().map(pairs).collect();
        assert_eq!(got, table, "{n} players");
    }
}

#[test]
fn an_odd_field_gives_the_last_numbers_games_as_byes() {
    // 5 players use the 6-player table; whoever meets 6 rests.
    let d = json(&["league", "schedule", "5", "--method", "berger"]);
    let got: Vec<String> = d["rounds"].as_array().unwrap().iter().map(pairs).collect();
    assert_eq!(got, ["2-5 3-4", "5-3 1-2", "3-1 4-5", "1-4 2-3", "4-2 5-1"]);
    let byes: Vec<u64> = d["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["bye"].as_u64().unwrap())
        .collect();
    assert_eq!(byes, [1, 4, 2, 5, 3]);
}

#[test]
fn the_double_round_robin_swaps_the_last_two_rounds_of_the_first_cycle() {
    let d = json(&[
        "league", "schedule", "6", "--method", "berger", "--legs", "2",
    ]);
    let got: Vec<String> = d["rounds"].as_array().unwrap().iter().map(pairs).collect();
    assert_eq!(
        got,
        [
            "1-6 2-5 3-4",
            "6-4 5-3 1-2",
            "2-6 3-1 4-5",
            "3-6 4-2 5-1",
            "6-5 1-4 2-3",
            "6-1 5-2 4-3",
            "4-6 3-5 2-1",
            "6-2 1-3 5-4",
            "5-6 4-1 3-2",
            "6-3 2-4 1-5",
        ]
    );
}

/// Each team's venues in order (true: home), rests skipped.
fn venues(d: &Value, n: u64) -> Vec<Vec<bool>> {
    let mut v = vec![Vec::new(); n as usize];
    for r in d["rounds"].as_array().unwrap() {
        for m in r["matches"].as_array().unwrap() {
            v[m["home"].as_u64().unwrap() as usize - 1].push(true);
            v[m["away"].as_u64().unwrap() as usize - 1].push(false);
        }
    }
    v
}

#[test]
fn nobody_gets_the_same_colour_three_times_running_in_a_double_round_robin() {
    for n in (4..=16).step_by(2) {
        let d = json(&[
            "league",
            "schedule",
            &n.to_string(),
            "--method",
            "berger",
            "--legs",
            "2",
        ]);
        for (t, seq) in venues(&d, n).iter().enumerate() {
            for w in seq.windows(3) {
                assert!(
                    !(w[0] == w[1] && w[1] == w[2]),
                    "{n} players: player {} has three in a row: {seq:?}",
                    t + 1
                );
            }
        }
    }
}

#[test]
fn colours_alternate_in_a_single_cycle_but_for_one_break_at_most() {
    // Berger tables give every player at most one repeated colour over a single cycle.
    for n in (4..=20).step_by(2) {
        let d = json(&["league", "schedule", &n.to_string(), "--method", "berger"]);
        for b in d["breaks"].as_array().unwrap() {
            assert!(b["breaks"].as_u64().unwrap() <= 1, "{n} players: {b}");
        }
    }
}
