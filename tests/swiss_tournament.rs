//! Running a Swiss tournament from the command line: new, pair, record, bye, withdraw, add,
//! table (hand-worked tie-breaks with byes and a withdrawal), export.
use crate::common::*;

/// Five players, two rounds: a pairing-allocated bye, a half-point bye, D withdrawn from
/// round 3.
const TOURNAMENT: &str = "\
rules: swiss
rounds: 3
players:
- {name: A, rating: 2000}
- {name: B, rating: 1900, byes: [{round: 2, kind: half}]}
- {name: C, rating: 1800}
- {name: D, rating: 1700, withdrawn_from: 3}
- {name: E, rating: 1600}
paired:
- boards:
  - {white: 1, black: 4, result: 1-0}
  - {white: 2, black: 3, result: 1/2-1/2}
  bye: 5
- boards:
  - {white: 5, black: 1, result: 0-1}
  - {white: 3, black: 4, result: 1-0}
";

#[test]
fn tie_breaks_by_hand_with_byes_and_a_withdrawal() {
    let f = temp_file(TOURNAMENT, ".yaml");
    let t = json(&["swiss", "table", path(&f), "--json"]);
    let rows = t["standings"].as_array().unwrap();
    let row = |name: &str| rows.iter().find(|r| r["name"] == name).unwrap().clone();
    // Scores: A 2, C 1.5, B 1 (draw + half bye), E 1 (bye), D 0.
    // Buchholz counts an unplayed round as a game against the player's own score:
    // A: D 0 + E 1 = 1; B: C 1.5 + own 1 = 2.5; C: B 1 + D 0 = 1; D: A 2 + C 1.5 = 3.5;
    // E: own 1 + A 2 = 3. Cut-1 drops the lowest. WIN (C.07 7.1) counts the rounds that
    // earned a win's points, E's pairing-allocated bye too.
    let want = [
        ("A", 1, 2.0, 1.0, 1.0, 1.0, 2.0),
        ("C", 2, 1.5, 1.0, 1.0, 0.5, 1.0),
        ("E", 3, 1.0, 2.0, 3.0, 1.0, 1.0),
        ("B", 4, 1.0, 1.5, 2.5, 1.25, 0.0),
        ("D", 5, 0.0, 2.0, 3.5, 0.0, 0.0),
    ];
    for (name, rank, points, cut1, bh, sb, wins) in want {
        let r = row(name);
        assert_eq!(r["rank"], rank, "{name}");
        assert_eq!(r["points"], points, "{name}");
        assert_eq!(r["tiebreaks"]["buchholz_cut1"], cut1, "{name}");
        assert_eq!(r["tiebreaks"]["buchholz"], bh, "{name}");
        assert_eq!(r["tiebreaks"]["sonneborn_berger"], sb, "{name}");
        assert_eq!(r["tiebreaks"]["win"], wins, "{name}");
    }
    // Round 3 leaves the withdrawn D out: four players, no bye, no rematch.
    let p = json(&["swiss", "pair", path(&f), "--json"]);
    assert_eq!(p["round"], 3);
    assert_eq!(p["bye"], serde_json::Value::Null);
    let pairs = p["pairs"].as_array().unwrap();
    assert_eq!(pairs.len(), 2);
    let met = [(1, 4), (2, 3), (5, 1), (3, 4)];
    for pr in pairs {
        let (w, b) = (pr["white"].as_u64().unwrap(), pr["black"].as_u64().unwrap());
        assert!(w != 4 && b != 4);
        assert!(!met
            .iter()
            .any(|&(x, y)| (x, y) == (w, b) || (y, x) == (w, b)));
    }
    // The round is stored: pairing again before the results are in is refused.
    let e = fails(&["swiss", "pair", path(&f)]);
    assert!(e.contains("round 3 is not finished"), "{e}");
}

#[test]
fn three_one_zero_points_come_from_the_ruleset() {
    let text = TOURNAMENT.replace("rules: swiss", "rules: bloodbowl-swiss");
    let f = temp_file(&text, ".yaml");
    let t = json(&["swiss", "table", path(&f), "--json"]);
    let rows = t["standings"].as_array().unwrap();
    // A: two wins 6; C: draw + win 4; B: draw + half bye 2; E: bye 3; D 0.
    let points: Vec<f64> = rows.iter().map(|r| r["points"].as_f64().unwrap()).collect();
    assert_eq!(points, vec![6.0, 4.0, 3.0, 2.0, 0.0]);
}

#[test]
fn a_tournament_from_new_to_export() {
    let dir = tempfile::tempdir().unwrap();
    let players = dir.path().join("players.csv");
    std::fs::write(
        &players,
        "name,rating\nAnna,1800\nBoris,2100\nCarla,\nDan,1950\n",
    )
    .unwrap();
    let t = dir.path().join("open.yaml");
    let t = t.to_str().unwrap();
    ok(&[
        "swiss",
        "new",
        t,
        "--players",
        players.to_str().unwrap(),
        "--rounds",
        "3",
    ]);
    // Numbered by rating: Boris 1, Dan 2, Anna 3, Carla 4.
    let p = json(&["swiss", "pair", t, "--json"]);
    assert_eq!(p["pairs"][0]["white"], 1);
    assert_eq!(p["pairs"][0]["black"], 3);
    assert_eq!(p["pairs"][1]["white"], 4);
    assert_eq!(p["pairs"][1]["black"], 2);
    let before = std::fs::read(t).unwrap();
    // A refused command leaves the file byte for byte as it was.
    fails(&["swiss", "record", t, "1", "Boris", "Dan", "1-0"]);
    fails(&["swiss", "record", t, "1", "Boris", "Anna", "2-0"]);
    fails(&["swiss", "bye", t, "Anna", "1"]);
    assert_eq!(std::fs::read(t).unwrap(), before);
    ok(&["swiss", "record", t, "1", "Boris", "Anna", "1-0"]);
    ok(&["swiss", "record", t, "1", "Carla", "Dan", "-+"]);
    ok(&["swiss", "bye", t, "Carla", "2", "--zero"]);
    ok(&["swiss", "add", t, "Eve", "--rating", "1500"]);
    let p = json(&["swiss", "pair", t, "--json"]);
    // Eve (1500) enters as 4, by rating above unrated Carla, who is 5 now. Carla sits out;
    // Eve (entered late, 0 points) is among four: Boris, Dan (1) and Anna, Eve.
    assert_eq!(p["round"], 2);
    let all: Vec<u64> = p["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|x| [x["white"].as_u64().unwrap(), x["black"].as_u64().unwrap()])
        .collect();
    assert!(!all.contains(&5) && all.contains(&4), "{p}");
    assert_eq!(all.len(), 4);
    let trf = ok(&["swiss", "export", t, "--trf"]);
    assert!(trf.contains("XXR 3"));
    // Round 2 is not finished, so the export holds round 1: Dan's forfeit win against
    // Carla, number 5 since Eve came in.
    let dan = trf.lines().find(|l| l.contains("Dan")).unwrap();
    assert!(dan.ends_with("5 b +"), "{dan}");
    let csv = ok(&["swiss", "table", t, "--csv"]);
    assert!(
        csv.starts_with("rank,player,name,points,buchholz_cut1"),
        "{csv}"
    );
}

/// Four players, round 1 paired, no result yet.
const ROUND_ONE: &str = "\
rules: swiss
rounds: 3
players:
- {name: A, rating: 2000}
- {name: B, rating: 1900}
- {name: C, rating: 1800}
- {name: D, rating: 1700}
paired:
- boards:
  - {white: 1, black: 3}
  - {white: 4, black: 2}
";

#[test]
fn a_result_is_replaced_only_with_correct_and_never_once_the_next_round_is_paired() {
    let f = temp_file(ROUND_ONE, ".yaml");
    let t = path(&f);
    assert_eq!(
        ok(&["swiss", "record", t, "1", "A", "C", "1-0"]),
        "round 1: A - C 1-0\n"
    );
    let before = std::fs::read(t).unwrap();
    let e = fails(&["swiss", "record", t, "1", "A", "C", "0-1"]);
    assert!(
        e.contains("round 1: A - C already has a result (1-0); use --correct to replace it"),
        "{e}"
    );
    assert_eq!(std::fs::read(t).unwrap(), before);
    assert_eq!(
        ok(&["swiss", "record", t, "1", "A", "C", "0-1", "--correct"]),
        "round 1: A - C 0-1 (was 1-0)\n"
    );
    ok(&["swiss", "record", t, "1", "D", "B", "1/2-1/2"]);
    // C won: round 2 is paired on that result, so round 1 can no longer change.
    ok(&["swiss", "pair", t]);
    let before = std::fs::read(t).unwrap();
    let e = fails(&["swiss", "record", t, "1", "A", "C", "1-0", "--correct"]);
    assert!(
        e.contains(
            "round 1: A - C cannot change (it has 0-1): round 2 is already paired on round 1's \
             results"
        ),
        "{e}"
    );
    assert!(!e.contains("--correct"), "no advice that cannot work: {e}");
    assert_eq!(std::fs::read(t).unwrap(), before);
    let table = json(&["swiss", "table", t, "--json"]);
    assert_eq!(table["standings"][0]["name"], "C");
}

#[test]
fn the_trf_pair_writes_keeps_its_new_round_whole() {
    let f = temp_file(ROUND_ONE, ".yaml");
    let t = path(&f);
    ok(&["swiss", "record", t, "1", "A", "C", "1-0"]);
    ok(&["swiss", "record", t, "1", "D", "B", "0-1"]);
    let out = temp_file("", ".trf");
    ok(&["swiss", "pair", t, "--trf", path(&out)]);
    let text = std::fs::read_to_string(path(&out)).unwrap();
    // Every player line: 89 fixed columns, round 1, and round 2 as opponent, colour and a
    // blank result, 8 columns (trailing blank kept).
    for line in text.lines().filter(|l| l.starts_with("001")) {
        assert_eq!(line.chars().count(), 89 + 2 * 10, "{line:?}");
        assert!(line.ends_with("  "), "{line:?}");
    }
    // Read back, it is a tournament whose round 2 is still to be played.
    let e = fails(&["swiss", "pair", path(&out)]);
    assert!(
        e.contains("round 2: paired against") && e.contains("not played yet"),
        "{e}"
    );
}
