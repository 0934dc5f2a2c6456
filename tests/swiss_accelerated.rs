//! Accelerated pairings (issue 34): virtual points from JaVaFo's `XXA`, TRF-2026's `250` and
//! the Baku method (`192 FIDE_DUTCH_BAKU`, `swiss new --accelerate N`; FIDE C.04.5.1) are
//! added to the pairing score, never to the standings.
use crate::common::*;

/// Eight players, rated in starting order, round 1 of 5 still to pair; `extra` lines after.
fn field(extra: &str) -> String {
    let mut t = String::from("012 Accelerated\nXXR 5\nXXC white1\n");
    for i in 1..=8 {
        let name = format!("Test{i:04} Player{i:04}");
        t.push_str(&format!(
            "001 {i:>4}      {name:<33}{:>4}{:>33}\n",
            2700 - 10 * i,
            "0.0"
        ));
    }
    t.push_str(extra);
    t
}

fn pairs(text: &str) -> (String, serde_json::Value) {
    let f = temp_file(text, ".trf");
    let v = json(&["swiss", "pair", path(&f), "--json"]);
    let p = v["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| format!("{}-{}", p["white"], p["black"]))
        .collect::<Vec<_>>()
        .join(" ");
    (p, v["bye"].clone())
}

/// Without virtual points round 1 pairs top half against bottom half; with a point for the
/// top four (group A of eight players is 2 x ceil(8/4) = 4), they form their own score group
/// and pair among themselves, as do the other four.
const PLAIN: &str = "1-5 6-2 3-7 8-4";
const ACCELERATED: &str = "1-3 4-2 5-7 8-6";

#[test]
fn virtual_points_from_xxa_250_and_baku_pair_the_top_half_together() {
    assert_eq!(pairs(&field("")).0, PLAIN);
    // JaVaFo's XXA: player in columns 5-8, round r's points from column 10 + 5(r - 1).
    let xxa: String = (1..=4)
        .map(|p| format!("XXA {p:>4}  1.0  1.0  0.5\n"))
        .collect();
    assert_eq!(pairs(&field(&xxa)).0, ACCELERATED);
    // TRF-2026's 250: points, first and last round, first and last player.
    let r250 = "250       1.0   1   2    1    4\n250       0.5   3   3    1    4\n";
    assert_eq!(pairs(&field(r250)).0, ACCELERATED);
    // The coded system with the Baku acceleration.
    assert_eq!(pairs(&field("192 FIDE_DUTCH_BAKU\n")).0, ACCELERATED);
    // Virtual points for another round than the one being paired change nothing.
    let later: String = (1..=4).map(|p| format!("XXA {p:>4}       1.0\n")).collect();
    assert_eq!(pairs(&field(&later)).0, PLAIN);
    // XXA given: the file's own virtual points win over 192's Baku.
    let only_two: String = (1..=2).map(|p| format!("XXA {p:>4}  1.0\n")).collect();
    assert_eq!(
        pairs(&field(&format!("192 FIDE_DUTCH_BAKU\n{only_two}"))).0,
        "1-2 3-6 7-4 5-8"
    );
}

#[test]
fn virtual_points_never_reach_the_standings() {
    let xxa: String = (1..=4).map(|p| format!("XXA {p:>4}  1.0\n")).collect();
    let f = temp_file(&field(&xxa), ".trf");
    let t = json(&["swiss", "table", path(&f), "--json"]);
    for row in t["standings"].as_array().unwrap() {
        assert_eq!(row["points"], 0.0, "{row}");
    }
}

#[test]
fn bad_virtual_points_are_refused_at_their_line() {
    let cases = [
        (
            "XXA    9  1.0\n",
            ":12:5: virtual points for player 9, who is not entered",
        ),
        ("XXA    1  1.x\n", ":12:10: virtual points must be a number"),
        (
            "XXA    1  1.0  1.0  1.0  1.0  1.0  1.0\n",
            ":12:1: virtual points for round 6",
        ),
        (
            "250       1.0   3   2    1    4\n",
            ":12:19: the last round comes before the first",
        ),
        (
            "250  1.0  1.0   1   2    1    4\n",
            ":12:5: match points (team tournaments)",
        ),
        (
            "XXA    1 120.0\n",
            ":12:10: virtual points are at most 99.9",
        ),
    ];
    for (line, want) in cases {
        let f = temp_file(&field(line), ".trf");
        let e = fails(&["swiss", "pair", path(&f)]);
        assert!(e.contains(want), "{line:?}: {e}");
    }
    // Overlapping lines may rewrite the table a few times over, not without end.
    let five = "250       1.0   1   5    1    8\n".repeat(5);
    let f = temp_file(&field(&five), ".trf");
    let e = fails(&["swiss", "pair", path(&f)]);
    assert!(
        e.contains(":16:1: virtual points given more than 4 times over"),
        "{e}"
    );
    let four = "250       1.0   1   5    1    8\n".repeat(4);
    assert_eq!(pairs(&field(&four)).0, PLAIN);
    // The Baku method is for win / half a win / nothing.
    let f = temp_file(&field("162  W 3.0    D 1.0\n192 FIDE_DUTCH_BAKU\n"), ".trf");
    let e = fails(&["swiss", "pair", path(&f)]);
    assert!(
        e.contains(":13:5: the Baku acceleration is for a point system"),
        "{e}"
    );
}

/// `swiss new --accelerate N` pairs as the TRF with `192 FIDE_DUTCH_BAKU` does, writes its
/// virtual points to `export --trf` as XXA lines, and keeps them out of the standings.
#[test]
fn a_tournament_made_with_accelerate_pairs_as_fide_baku() {
    let dir = tempfile::tempdir().unwrap();
    let players = dir.path().join("p.csv");
    let mut csv = String::from("name,rating\n");
    for i in 1..=8 {
        csv.push_str(&format!("Test{i:04} Player{i:04},{}\n", 2700 - 10 * i));
    }
    std::fs::write(&players, csv).unwrap();
    let t = dir.path().join("t.yaml");
    let t = t.to_str().unwrap();
    let p = players.to_str().unwrap();
    ok(&[
        "swiss",
        "new",
        t,
        "--players",
        p,
        "--rounds",
        "5",
        "--accelerate",
        "3",
    ]);
    assert!(std::fs::read_to_string(t)
        .unwrap()
        .contains("accelerated_rounds: 3"));
    let v = json(&["swiss", "pair", t, "--json"]);
    let got: Vec<String> = v["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| format!("{}-{}", p["white"], p["black"]))
        .collect();
    assert_eq!(got.join(" "), ACCELERATED);
    // Its TRF carries the virtual points of the three accelerated rounds (FIDE's split: two at
    // a point, one at half a point) for the top four, and pairs the same.
    let out = dir.path().join("t.trf");
    let out = out.to_str().unwrap();
    ok(&["swiss", "export", t, "--trf", "-o", out]);
    let trf = std::fs::read_to_string(out).unwrap();
    assert!(trf.contains("XXA    1  1.0  1.0  0.5\n"), "{trf}");
    assert!(trf.contains("XXA    4  1.0  1.0  0.5\n"), "{trf}");
    assert!(!trf.contains("XXA    5"), "{trf}");
    assert_eq!(pairs(&trf).0, ACCELERATED);
    // More accelerated rounds than the tournament has, or a ruleset without virtual points,
    // are refused before a file is written.
    let t2 = dir.path().join("t2.yaml");
    let t2 = t2.to_str().unwrap();
    let e = fails(&[
        "swiss",
        "new",
        t2,
        "--players",
        p,
        "--rounds",
        "5",
        "--accelerate",
        "6",
    ]);
    assert!(e.contains("--accelerate"), "{e}");
    let e = fails(&[
        "swiss",
        "new",
        t2,
        "--players",
        p,
        "--rounds",
        "5",
        "--accelerate",
        "2",
        "--rules",
        "bloodbowl-swiss",
    ]);
    assert!(e.contains("no `swiss.acceleration` section"), "{e}");
    assert!(!std::path::Path::new(t2).exists());
}

#[test]
fn import_keeps_the_baku_acceleration_and_refuses_other_virtual_points() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("t.yaml");
    let out = out.to_str().unwrap();
    let f = temp_file(&field("192 FIDE_DUTCH_BAKU\n"), ".trf");
    ok(&["swiss", "import", path(&f), "-o", out]);
    // FIDE's count for five rounds: three accelerated.
    assert!(std::fs::read_to_string(out)
        .unwrap()
        .contains("accelerated_rounds: 3"));
    let v = json(&["swiss", "pair", out, "--json"]);
    assert_eq!(v["pairs"][0]["black"], 3);
    let only_two: String = (1..=2).map(|p| format!("XXA {p:>4}  1.0\n")).collect();
    let f = temp_file(&field(&only_two), ".trf");
    let other = dir.path().join("u.yaml");
    let e = fails(&["swiss", "import", path(&f), "-o", other.to_str().unwrap()]);
    assert!(e.contains("not the Baku acceleration's"), "{e}");
    assert!(!other.exists());
}
