//! `swiss pair` against the reference engine's pairings: cases cut from the reference
//! tournaments (the ones that separate the 2025 Dutch rules from the earlier ones: the bye by
//! fewest unplayed games, floats after unscored unplayed rounds).
use crate::common::*;

fn pairs_of(v: &serde_json::Value) -> Vec<(u64, u64)> {
    let mut p: Vec<(u64, u64)> = v["pairs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| match x {
            serde_json::Value::Array(a) => (a[0].as_u64().unwrap(), a[1].as_u64().unwrap()),
            o => (o["white"].as_u64().unwrap(), o["black"].as_u64().unwrap()),
        })
        .collect();
    p.sort();
    p
}

#[test]
fn reference_cases_are_paired_identically() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/swiss/cases");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "trf") {
            let want: serde_json::Value = serde_json::from_str(
                &std::fs::read_to_string(path.with_extension("expected.json")).unwrap(),
            )
            .unwrap();
            let got = json(&["swiss", "pair", path.to_str().unwrap(), "--json"]);
            assert_eq!(got["round"], want["round"], "{path:?}");
            assert_eq!(pairs_of(&got), pairs_of(&want), "{path:?}");
            assert_eq!(got["bye"], want["bye"], "{path:?}");
            n += 1;
        }
    }
    assert_eq!(n, 6);
}

#[test]
fn pair_writes_the_trf_with_the_round_added() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("next.trf");
    let case = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/swiss/cases/p05-r05.trf"
    );
    ok(&["swiss", "pair", case, "--trf", out.to_str().unwrap()]);
    let text = std::fs::read_to_string(&out).unwrap();
    // Player 39 takes the bye; 35 plays 40 with white.
    let line = |n: usize| {
        text.lines()
            .find(|l| l.starts_with(&format!("001 {n:>4}")))
            .unwrap()
            .to_string()
    };
    assert!(line(39).ends_with("0000 - U"), "{}", line(39));
    assert!(line(35).trim_end().ends_with("40 w"), "{}", line(35));
    // And the written file reads back for the round after (once results are in).
    assert!(text.contains("XXR 10"));
}

#[test]
fn a_finished_tournament_and_a_bad_file_are_refused() {
    let line = |n: usize, pts: &str, round: &str| {
        format!(
            "001 {n:>4}      {:<34}{:>4}{:>28}{pts:>4}{:>7}{round}\n",
            "Player", "", "", ""
        )
    };
    let text = format!(
        "XXR 1\n{}{}",
        line(1, "1.0", "   2 w 1"),
        line(2, "0.0", "   1 b 0")
    );
    let f = temp_file(&text, ".trf");
    let e = fails(&["swiss", "pair", path(&f)]);
    assert!(e.contains("rounds are already paired"), "{e}");
    let bad = text.replace("2 w 1", "2 x 1").replace("XXR 1", "XXR 2");
    let f = temp_file(&bad, ".trf");
    let e = fails(&["swiss", "pair", path(&f)]);
    assert!(e.contains(":2:97:") && e.contains("colour"), "{e}");
}
