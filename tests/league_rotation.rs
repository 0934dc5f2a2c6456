//! The source's rotation through the binary: its seven tables pair by pair, home and away,
//! in order; byes; names; legs; the seeded shuffle; carry-over; CSV.
use crate::common::*;
use serde_json::Value;

/// The tables of the source (Frikonsejo, 2014) for 4 to 10 teams, as printed there:
/// home-away pairs in order, and the resting team.
const SOURCE: &[(usize, &[&str])] = &[
    (4, &["02-03 01-04", "03-01 02-04", "01-02 03-04"]),
    (
        5,
        &[
            "02-05 03-04 rest 01",
            "03-01 04-05 rest 02",
            "04-02 05-01 rest 03",
            "05-03 01-02 rest 04",
            "01-04 02-03 rest 05",
        ],
    ),
    (
        6,
        &[
            "02-05 03-04 01-06",
            "03-01 04-05 02-06",
            "04-02 05-01 03-06",
            "05-03 01-02 04-06",
            "01-04 02-03 05-06",
        ],
    ),
    (
        7,
        &[
            "02-07 03-06 04-05 rest 01",
            "03-01 04-07 05-06 rest 02",
            "04-02 05-01 06-07 rest 03",
            "05-03 06-02 07-01 rest 04",
            "06-04 07-03 01-02 rest 05",
            "07-05 01-04 02-03 rest 06",
            "01-06 02-05 03-04 rest 07",
        ],
    ),
    (
        8,
        &[
            "02-07 03-06 04-05 01-08",
            "03-01 04-07 05-06 02-08",
            "04-02 05-01 06-07 03-08",
            "05-03 06-02 07-01 04-08",
            "06-04 07-03 01-02 05-08",
            "07-05 01-04 02-03 06-08",
            "01-06 02-05 03-04 07-08",
        ],
    ),
    (
        9,
        &[
            "02-09 03-08 04-07 05-06 rest 01",
            "03-01 04-09 05-08 06-07 rest 02",
            "04-02 05-01 06-09 07-08 rest 03",
            "05-03 06-02 07-01 08-09 rest 04",
            "06-04 07-03 08-02 09-01 rest 05",
            "07-05 08-04 09-03 01-02 rest 06",
            "08-06 09-05 01-04 02-03 rest 07",
            "09-07 01-06 02-05 03-04 rest 08",
            "01-08 02-07 03-06 04-05 rest 09",
        ],
    ),
    (
        10,
        &[
            "02-09 03-08 04-07 05-06 01-10",
            "03-01 04-09 05-08 06-07 02-10",
            "04-02 05-01 06-09 07-08 03-10",
            "05-03 06-02 07-01 08-09 04-10",
            "06-04 07-03 08-02 09-01 05-10",
            "07-05 08-04 09-03 01-02 06-10",
            "08-06 09-05 01-04 02-03 07-10",
            "09-07 01-06 02-05 03-04 08-10",
            "01-08 02-07 03-06 04-05 09-10",
        ],
    ),
];

/// A round of the JSON in the source's notation.
fn as_source(round: &Value) -> String {
    let mut parts: Vec<String> = round["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            format!(
                "{:02}-{:02}",
                m["home"].as_u64().unwrap(),
                m["away"].as_u64().unwrap()
            )
        })
        .collect();
    if let Some(b) = round["bye"].as_u64() {
        parts.push(format!("rest {b:02}"));
    }
    parts.join(" ")
}

#[test]
fn all_seven_source_tables_pair_by_pair() {
    for &(n, table) in SOURCE {
        let d = json(&["league", "schedule", &n.to_string()]);
        let rounds = d["rounds"].as_array().unwrap();
        assert_eq!(rounds.len(), table.len(), "{n} teams: number of rounds");
        for (i, (got, want)) in rounds.iter().zip(table.iter()).enumerate() {
            assert_eq!(got["round"], i + 1);
            assert_eq!(as_source(got), *want, "{n} teams, round {}", i + 1);
            if n % 2 == 0 {
                assert!(got["bye"].is_null(), "{n} teams: nobody rests");
            }
        }
        assert!(d["seed"].is_null(), "nothing random in the plain rotation");
    }
}

#[test]
fn team_numbers_are_json_integers() {
    let d = json(&["league", "schedule", "4"]);
    assert_eq!(
        d["rounds"][0]["matches"][0],
        serde_json::json!({"home": 2, "away": 3})
    );
}

#[test]
fn the_text_table_reads_like_the_source() {
    let out = ok(&["league", "schedule", "5"]);
    assert!(
        out.starts_with(
            "Round 1: home - away\n  2 - 5\n  3 - 4\n  rests: 1\n\nRound 2: home - away\n  3 - 1\n"
        ),
        "{out}"
    );
    assert!(out.contains("carry-over: 45 (lower bound 15)"), "{out}");
}

#[test]
fn carry_over_of_the_rotation() {
    for (n, value, bound) in [(6, 60, 30), (8, 196, 56), (10, 468, 90)] {
        let d = json(&["league", "schedule", &n.to_string()]);
        assert_eq!(d["carryover"]["value"], value, "{n} teams");
        assert_eq!(d["carryover"]["lower_bound"], bound, "{n} teams");
    }
}

#[test]
fn the_carry_over_matrix_of_four_teams() {
    // Hand count (see carryover.rs): every ordered pair once, nothing on the diagonal.
    let d = json(&["league", "schedule", "4", "--carryover"]);
    let m = &d["carryover"]["matrix"];
    for j in 0..4 {
        for k in 0..4 {
            assert_eq!(m[j][k], u64::from(j != k), "c[{}][{}]", j + 1, k + 1);
        }
    }
    let text = ok(&["league", "schedule", "4", "--carryover"]);
    assert!(text.contains("carry-over matrix"), "{text}");
}

#[test]
fn names_from_a_file_replace_numbers() {
    let f = temp_file(
        "# our league\nOrcs\nElves\n\nDwarfs\nSkaven\nHumans\n",
        ".txt",
    );
    let d = json(&["league", "schedule", path(&f)]);
    // Team 2 is Elves, 5 Humans, 3 Dwarfs, 4 Skaven, 1 Orcs: round 1 is 02-05, 03-04, rest 01.
    assert_eq!(
        d["rounds"][0]["matches"][0],
        serde_json::json!({"home": "Elves", "away": "Humans"})
    );
    assert_eq!(
        d["rounds"][0]["matches"][1],
        serde_json::json!({"home": "Dwarfs", "away": "Skaven"})
    );
    assert_eq!(d["rounds"][0]["bye"], "Orcs");
}

#[test]
fn bad_team_files_are_located_errors() {
    let f = temp_file("Orcs\nElves\nORCS\n", ".txt");
    let e = fails(&["league", "schedule", path(&f)]);
    assert!(
        e.contains(":3:1: team `ORCS` is listed twice (first on line 1)"),
        "{e}"
    );
    let e = fails(&["league", "schedule", "1"]);
    assert!(e.contains("at least 2 teams"), "{e}");
    let e = fails(&["league", "schedule", "no-such-file.txt"]);
    assert!(e.contains("no-such-file.txt: no such file"), "{e}");
    let e = fails(&["league", "schedule", "6", "--method", "bergr"]);
    assert!(e.contains("did you mean `berger`"), "{e}");
    let e = fails(&["league", "schedule", "6", "--legs", "0"]);
    assert!(e.contains("at least one leg"), "{e}");
}

#[test]
fn a_second_leg_swaps_home_and_away() {
    let d = json(&["league", "schedule", "6", "--legs", "2"]);
    let rounds = d["rounds"].as_array().unwrap();
    assert_eq!(rounds.len(), 10);
    for i in 0..5 {
        let (a, b) = (&rounds[i], &rounds[i + 5]);
        assert_eq!(a["leg"], 1);
        assert_eq!(b["leg"], 2);
        assert_eq!(b["round"], i + 6);
        for (x, y) in a["matches"]
            .as_array()
            .unwrap()
            .iter()
            .zip(b["matches"].as_array().unwrap())
        {
            assert_eq!(
                (x["home"].clone(), x["away"].clone()),
                (y["away"].clone(), y["home"].clone())
            );
        }
    }
    // Breaks per team over both legs: hand count for team 6, which is away in every
    // first-leg round (x-06) and at home in every second-leg round: 4 + 4 breaks.
    let six = d["breaks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["team"] == 6)
        .unwrap()
        .clone();
    assert_eq!(
        six,
        serde_json::json!({"team": 6, "home": 5, "away": 5, "breaks": 8})
    );
}

#[test]
fn the_shuffle_is_seeded_and_reproducible() {
    let a = json(&["league", "schedule", "10", "--shuffle", "--seed", "42"]);
    let b = json(&["league", "schedule", "10", "--shuffle", "--seed", "42"]);
    assert_eq!(a, b);
    assert_eq!(a["seed"], 42);
    // The same rounds as the table, in another order.
    let plain = json(&["league", "schedule", "10"]);
    let mut got: Vec<String> = a["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .map(as_source)
        .collect();
    let mut want: Vec<String> = plain["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .map(as_source)
        .collect();
    assert_ne!(got, want, "seed 42 keeps the rounds in order");
    got.sort();
    want.sort();
    assert_eq!(got, want);
    // Numbered 1.. in the order they are played.
    for (i, r) in a["rounds"].as_array().unwrap().iter().enumerate() {
        assert_eq!(r["round"], i + 1);
    }
}

#[test]
fn without_a_seed_one_is_drawn_and_printed() {
    let d = json(&["league", "schedule", "8", "--shuffle"]);
    let seed = d["seed"].as_u64().expect("a drawn seed");
    let again = json(&[
        "league",
        "schedule",
        "8",
        "--shuffle",
        "--seed",
        &seed.to_string(),
    ]);
    assert_eq!(d["rounds"], again["rounds"]);
    let text = ok(&["league", "schedule", "8", "--shuffle"]);
    assert!(
        text.contains("seed: ") && text.contains("(the same schedule again: --seed "),
        "{text}"
    );
}

#[test]
fn csv_has_a_line_a_game_and_a_line_a_rest() {
    let out = ok(&["league", "schedule", "5", "--csv"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "round,leg,home,away,bye");
    assert_eq!(lines[1], "1,1,2,5,");
    assert_eq!(lines[2], "1,1,3,4,");
    assert_eq!(lines[3], "1,1,,,1");
    assert_eq!(lines.len(), 1 + 5 * 3);
}
