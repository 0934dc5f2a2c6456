//! FIDE's published tie-break exercises (IA Mario Held, "Exercises in Tie-Breaking", Rev.
//! 2403220900 / C.07-2023, 2024-03-22), individual Swiss part: the 16-player, 5-round
//! tournament of its section 2.1 and the answers of its exercises 1-33, as FIDE's Technical
//! Commission's tie-break checker pins them (source: tests/data/swiss_tiebreaks/README.md).
//! It has a withdrawal (Nick after round 3), forfeits both ways, half-point byes, a
//! zero-point bye and pairing-allocated byes.
use crate::common::*;

const RULES: &str = "\
extends = swiss
name = held
version = \"1.0.0\"
swiss {
  tiebreakers = [buchholz, buchholz_cut1, sonneborn_berger, average_rating_of_opponents,
                 performance_rating, perfect_performance, win, won, black_games, black_wins,
                 progressive]
}
";

/// Each player's value, by starting number 1..16, as the exercise paper gives it.
type Answers = [f64; 16];

const BH: Answers = [
    12.5, 13.0, 15.5, 15.0, 8.5, 12.0, 14.5, 13.5, 9.0, 13.0, 13.5, 11.5, 14.0, 11.0, 12.0, 12.5,
];
const BH_C1: Answers = [
    11.0, 12.0, 13.0, 11.5, 7.5, 11.0, 12.5, 12.0, 7.5, 11.5, 12.0, 9.5, 12.0, 9.0, 11.0, 11.0,
];
const SB: Answers = [
    8.0, 9.5, 10.5, 9.75, 4.25, 6.5, 3.25, 5.25, 2.25, 1.5, 5.75, 4.0, 4.25, 4.5, 3.5, 7.25,
];
const ARO: Answers = [
    1820., 1880., 1940., 1888., 1690., 1813., 1760., 1730., 1975., 1880., 1863., 2050., 1930.,
    1800., 1860., 1820.,
];
const TPR: Answers = [
    1969., 2120., 2089., 2081., 1690., 1813., 1611., 1730., 1175., 1640., 1776., 1250., 1781.,
    1925., 1788., 1969.,
];
const WIN: Answers = [
    2., 3., 2., 2., 2., 3., 1., 2., 1., 1., 2., 2., 1., 2., 2., 3.,
];
const WON: Answers = [
    2., 3., 2., 2., 2., 2., 1., 2., 0., 1., 1., 0., 1., 2., 2., 3.,
];
const BPG: Answers = [
    2., 3., 2., 2., 2., 2., 3., 2., 1., 3., 2., 0., 3., 2., 3., 2.,
];
const BWG: Answers = [
    1., 1., 1., 1., 0., 1., 0., 0., 0., 1., 0., 0., 1., 1., 1., 1.,
];
const PS: Answers = [
    11.0, 13.0, 11.0, 11.5, 5.0, 6.0, 6.0, 8.5, 2.5, 4.0, 5.5, 7.0, 7.0, 6.0, 7.0, 10.5,
];

/// The exercise tournament imported under the ruleset above, its standings as JSON rows.
fn standings() -> Vec<serde_json::Value> {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("held.rules"), RULES).unwrap();
    let trf = format!(
        "{}/tests/data/swiss_tiebreaks/held-swiss-5.trf",
        env!("CARGO_MANIFEST_DIR")
    );
    let import = run_in(
        dir.path(),
        &[
            "swiss",
            "import",
            &trf,
            "-o",
            "held.yaml",
            "--rules",
            "held.rules",
        ],
        None,
    );
    assert!(import.status.success(), "{}", stderr(&import));
    let out = run_in(dir.path(), &["swiss", "table", "held.yaml", "--json"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    let v: serde_json::Value = serde_json::from_str(&stdout(&out)).unwrap();
    v["standings"].as_array().unwrap().clone()
}

fn check(rows: &[serde_json::Value], key: &str, answers: &Answers) {
    let mut wrong = Vec::new();
    for (i, want) in answers.iter().enumerate() {
        let row = rows.iter().find(|r| r["player"] == i + 1).unwrap();
        let got = row["tiebreaks"][key].as_f64().unwrap();
        if got != *want {
            wrong.push(format!("#{} {}: {got}, FIDE {want}", i + 1, row["name"]));
        }
    }
    assert!(wrong.is_empty(), "{key}: {}", wrong.join("; "));
}

#[test]
fn every_published_answer_of_the_individual_swiss_exercises() {
    let rows = standings();
    assert_eq!(rows.len(), 16);
    // Final scores as the cross table has them (Nick 2.0 after withdrawing).
    let points: Vec<f64> = (1..=16)
        .map(|p| {
            rows.iter().find(|r| r["player"] == p).unwrap()["points"]
                .as_f64()
                .unwrap()
        })
        .collect();
    assert_eq!(
        points,
        [3.5, 4.0, 3.5, 3.5, 2.5, 3.0, 1.5, 2.5, 1.5, 1.0, 2.5, 2.0, 1.5, 2.0, 2.0, 3.5]
    );
    // Exercises 1-4 and 9: Buchholz; 5-8: Cut-1; 12: Sonneborn-Berger; 17: ARO; 19-20:
    // TPR; 27-32: WIN, WON, BPG, BWG, progressive.
    check(&rows, "buchholz", &BH);
    check(&rows, "buchholz_cut1", &BH_C1);
    check(&rows, "sonneborn_berger", &SB);
    check(&rows, "average_rating_of_opponents", &ARO);
    check(&rows, "performance_rating", &TPR);
    check(&rows, "win", &WIN);
    check(&rows, "won", &WON);
    check(&rows, "black_games", &BPG);
    check(&rows, "black_wins", &BWG);
    check(&rows, "progressive", &PS);
    // Exercise 22: Charline's PTP, 3.5 points against 1700, 1950, 1850, 2050, 2150. At 2112
    // the expected scores are .93 + .71 + .82 + .59 + .45 = 3.50; at 2111, 3.48.
    let charline = rows.iter().find(|r| r["player"] == 3).unwrap();
    assert_eq!(charline["tiebreaks"]["perfect_performance"], 2112.0);
}

#[test]
fn the_exercise_ranks_the_three_and_a_half_group_as_fide_does() {
    // By Buchholz Charline (15.5) before David (15.0); Alyx and Stephan level on Buchholz
    // (12.5) and Cut-1 (11.0), Sonneborn-Berger puts Alyx (8.00) before Stephan (7.25).
    let rows = standings();
    let group: Vec<u64> = rows
        .iter()
        .filter(|r| r["points"] == 3.5)
        .map(|r| r["player"].as_u64().unwrap())
        .collect();
    assert_eq!(group, [3, 4, 1, 16]);
}
