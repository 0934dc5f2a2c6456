//! FIGF percentile and the Advanced Civilization pot through the binary.
use crate::common::*;
use serde_json::Value;

fn column(v: &Value, key: &str) -> Vec<i64> {
    v["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p[key].as_i64().unwrap_or_else(|| panic!("{key} in {p}")))
        .collect()
}

fn names(v: &Value) -> Vec<String> {
    v["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn figf_example_2040_960_880() {
    let v = json(&["score", "--rules", "figf", "A=7500", "B=7200", "C=6600"]);
    assert_eq!(names(&v), ["A", "B", "C"]);
    assert_eq!(column(&v, "points"), [2040, 960, 880]);
    assert_eq!(column(&v, "percentile"), [1000, 960, 880]);
}

#[test]
fn figf_keeps_input_order_whoever_wins() {
    let v = json(&["score", "--rules", "figf", "C=6600", "A=7500", "B=7200"]);
    assert_eq!(names(&v), ["C", "A", "B"]);
    assert_eq!(column(&v, "points"), [880, 2040, 960]);
}

#[test]
fn figf_tied_winners_each_get_2000_or_split_the_bonus() {
    let v = json(&["score", "--rules", "figf", "A=500", "B=500", "C=250"]);
    assert_eq!(column(&v, "points"), [2000, 2000, 500]);
    let split = temp_file(
        "extends: figf\nscoring:\n  percentile:\n    ties: split\n",
        ".yaml",
    );
    let v = json(&["score", "--rules", path(&split), "A=500", "B=500", "C=250"]);
    assert_eq!(column(&v, "points"), [1500, 1500, 500]);
}

#[test]
fn figf_percentiles_round_to_the_nearest() {
    // 2/3 · 1000 = 666.67 → 667, gap 333; 1/3 → 333.
    let v = json(&["score", "--rules", "figf", "A=3", "B=2", "C=1"]);
    assert_eq!(column(&v, "points"), [2333, 667, 333]);
}

#[test]
fn figf_refuses_a_winner_at_zero() {
    let e = fails(&["score", "--rules", "figf", "A=0", "B=0"]);
    assert!(e.contains("must be positive"), "{e}");
    // A negative total is refused before that, at its own entry.
    let e = fails(&["score", "--rules", "figf", "A=0", "B=-5"]);
    assert!(e.contains("`B` has a negative total (-5)"), "{e}");
}

#[test]
fn a_result_table_file_is_scored_and_located() {
    let f = temp_file("rules: figf\nplayers:\n  - { name: A, score: 7500 }\n  - { name: B, score: 7200 }\n  - { name: C, score: 6600 }\n", ".yaml");
    let v = json(&["score", path(&f)]);
    assert_eq!(column(&v, "points"), [2040, 960, 880]);
    let bad = temp_file(
        "rules: figf\nplayers:\n  - { name: A, score: 7500 }\n  - { name: a, score: 7200 }\n",
        ".yaml",
    );
    let e = fails(&["score", path(&bad)]);
    assert!(e.contains(":4:13:") && e.contains("listed twice"), "{e}");
}

const CIV: [(&str, i64); 7] = [
    ("Illyria", 5042),
    ("Crete", 3791),
    ("Egypt", 3789),
    ("Africa", 3211),
    ("Babylon", 3183),
    ("Assyria", 2878),
    ("Iberia", 1807),
];

fn civ(args: &[(&str, i64)], rules: &str) -> Value {
    let pairs: Vec<String> = args.iter().map(|(n, s)| format!("{n}={s}")).collect();
    let mut a = vec!["score", "--rules", rules];
    a.extend(pairs.iter().map(|s| s.as_str()));
    json(&a)
}

#[test]
fn the_whole_pot_table_of_the_source() {
    let v = civ(&CIV, "advciv");
    assert_eq!(v["pot"], 700);
    assert_eq!(v["game_spread"], 11052);
    assert_eq!(
        column(&v, "spread"),
        [3235, 1984, 1982, 1404, 1376, 1071, 0]
    );
    assert_eq!(column(&v, "share"), [293, 180, 179, 127, 125, 97, 0]);
    assert_eq!(column(&v, "floor"), [205, 126, 125, 88, 87, 67, 0]);
    assert_eq!(column(&v, "remainder"), [1, 1, 0, 0, 0, 0, 0]);
    assert_eq!(column(&v, "points"), [206, 127, 125, 88, 87, 67, 0]);
    assert_eq!(column(&v, "change"), [106, 27, 25, -12, -13, -33, -100]);
    let table = ok(&[
        "score",
        "--rules",
        "advciv",
        "Illyria=5042",
        "Crete=3791",
        "Iberia=1807",
    ]);
    assert!(table.contains("share") && table.contains('%'), "{table}");
}

#[test]
fn pot_all_equal_gives_every_stake_back() {
    let v = civ(&[("A", 40), ("B", 40), ("C", 40)], "advciv");
    assert_eq!(column(&v, "points"), [100, 100, 100]);
    assert_eq!(column(&v, "change"), [0, 0, 0]);
}

#[test]
fn pot_remainder_never_splits_equal_scores() {
    // Spreads 1, 1, 0 (game spread 2): shares 500, 500 of a 300 pot = 150 each, nothing left.
    let v = civ(&[("A", 5), ("B", 5), ("C", 4)], "advciv");
    assert_eq!(column(&v, "points"), [150, 150, 0]);
    // Four players (pot 400): spreads 1,1,1,0 → 333 each → 133 each, 1 left. The three tied
    // leaders cannot share one point, and D at the lowest score took no share and takes no
    // remainder (the spec: top first): by the spec's ruling on equal scores the first listed
    // takes it, and a note says so.
    let v = civ(&[("B", 5), ("A", 5), ("C", 5), ("D", 4)], "advciv");
    assert_eq!(column(&v, "points"), [134, 133, 133, 0]);
    assert_eq!(names(&v), ["B", "A", "C", "D"]);
    let text = ok(&["score", "--rules", "advciv", "B=5", "A=5", "C=5", "D=4"]);
    assert!(
        text.contains("one point each to B (ranking order)"),
        "{text}"
    );
}

#[test]
fn pot_remainder_goes_to_the_top_first() {
    // Seven players, spreads 1..=6 and 0: game spread 21, pot 700.
    // Shares (per-mille, nearest): 48, 95, 143, 190, 238, 286, 0 → floors 33, 66, 100, 133, 166, 200 = 698;
    // 2 left: top two (the 6 and the 5).
    let v = civ(
        &[
            ("a", 1),
            ("b", 2),
            ("c", 3),
            ("d", 4),
            ("e", 5),
            ("f", 6),
            ("z", 0),
        ],
        "advciv",
    );
    assert_eq!(column(&v, "share"), [48, 95, 143, 190, 238, 286, 0]);
    assert_eq!(column(&v, "points"), [33, 66, 100, 133, 167, 201, 0]);
    assert_eq!(column(&v, "points").iter().sum::<i64>(), 700);
}

#[test]
fn pot_remainder_goes_round_again_when_shares_are_coarse() {
    // Shares in tenths: spreads 1, 1, 1, 0 → 3/10 each → 120 each of 400; 40 left go round
    // the players who took a share, top first: thirteen rounds and one point more; D at the
    // lowest score takes none.
    let rules = temp_file(
        "extends: advciv\nscoring:\n  pot:\n    share_scale: 10\n",
        ".yaml",
    );
    let v = civ(&[("A", 5), ("B", 5), ("C", 5), ("D", 4)], path(&rules));
    assert_eq!(column(&v, "points"), [134, 133, 133, 0]);
}

#[test]
fn pot_scores_must_be_whole() {
    let e = fails(&["score", "--rules", "advciv", "A=1.5", "B=2"]);
    assert!(e.contains("whole numbers"), "{e}");
}

#[test]
fn vs_compares_a_house_pot_with_the_original() {
    // Half the stake: pot 150, shares 600, 400, 0 → 90, 60, 0 against advciv's 180, 120, 0.
    let house = temp_file(
        "name: half\nextends: advciv\nscoring:\n  pot:\n    stake: 50\n",
        ".yaml",
    );
    let v = json(&[
        "score",
        "--rules",
        "advciv",
        "--vs",
        path(&house),
        "A=7500",
        "B=7200",
        "C=6600",
    ]);
    let p = &v["players"];
    assert_eq!(
        (
            p[0]["points"].as_i64(),
            p[0]["vs_points"].as_i64(),
            p[0]["difference"].as_i64()
        ),
        (Some(180), Some(90), Some(-90))
    );
    assert_eq!(p[2]["vs_change"], -50);
    assert_eq!(v["a"]["system"], "pot");
    // FIGF percentiles against pot points do not compare point for point.
    let e = fails(&[
        "score", "--rules", "figf", "--vs", "advciv", "A=7500", "B=7200",
    ]);
    assert!(e.contains("do not compare point for point"), "{e}");
}
