//! Home and away: `league schedule` keeps the source's tables unless asked; `league new`
//! balances them (every team's home and away within one, the fewest breaks), keeping the
//! source's pairings round by round.
use crate::common::*;
use serde_json::Value;

/// Per round, the pairs as unordered (low, high) team numbers.
fn pairings(d: &Value) -> Vec<Vec<(u64, u64)>> {
    d["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            r["matches"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| {
                    let (h, a) = (m["home"].as_u64().unwrap(), m["away"].as_u64().unwrap());
                    (h.min(a), h.max(a))
                })
                .collect()
        })
        .collect()
}

#[test]
fn balanced_home_and_away_keeps_the_pairings_and_evens_the_counts() {
    for n in 2..=20u32 {
        for legs in ["1", "2"] {
            let n_s = n.to_string();
            let source = json(&["league", "schedule", &n_s, "--legs", legs]);
            let fair = json(&[
                "league",
                "schedule",
                &n_s,
                "--legs",
                legs,
                "--home-away",
                "balanced",
            ]);
            assert_eq!(source["home_away"], "source");
            assert_eq!(fair["home_away"], "balanced");
            assert_eq!(pairings(&fair), pairings(&source), "{n} teams, {legs} legs");
            let byes = |d: &Value| -> Vec<Value> {
                d["rounds"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|r| r["bye"].clone())
                    .collect()
            };
            assert_eq!(byes(&fair), byes(&source));
            let mut breaks = 0;
            for t in fair["breaks"].as_array().unwrap() {
                let (h, a) = (t["home"].as_u64().unwrap(), t["away"].as_u64().unwrap());
                assert!(h.abs_diff(a) <= 1, "{n} teams, {legs} legs: {t}");
                breaks += t["breaks"].as_u64().unwrap();
            }
            // One leg: n − 2 (even n: the least possible), 0 (odd n). Two mirrored legs:
            // 3n − 6 (even, de Werra's least) and n (odd: each team turns once).
            let expected = match (n % 2 == 0, legs) {
                (true, "1") => n - 2,
                (false, "1") => 0,
                (true, _) => 3 * n - 6,
                (false, _) => n,
            };
            assert_eq!(breaks, expected as u64, "{n} teams, {legs} legs");
        }
    }
}

#[test]
fn league_new_gives_every_team_home_games_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let teams = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/teams.txt");
    let season = dir.path().join("one.yaml");
    let out = ok(&[
        "league",
        "new",
        season.to_str().unwrap(),
        "--teams",
        teams.to_str().unwrap(),
    ]);
    assert!(out.contains("home/away balanced"), "{out}");
    // The printed split: Chaos All-Stars (last in the file, always away in the source's
    // tables) now plays at home.
    let line = out
        .lines()
        .find(|l| l.starts_with("Chaos All-Stars"))
        .unwrap_or_else(|| panic!("{out}"));
    let cells: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(&cells[2..], ["3", "2", "0"], "{line}");
    assert!(out.contains("breaks: 4 in all"), "{out}");
    for line in out.lines() {
        assert!(line.chars().count() <= 80, "{line}");
    }
    let text = std::fs::read_to_string(&season).unwrap();
    let homes = text.matches("home: \"Chaos All-Stars\"").count();
    assert_eq!(homes, 3, "{text}");
    // The source's venues, by name.
    let source = dir.path().join("source.yaml");
    let out = ok(&[
        "league",
        "new",
        source.to_str().unwrap(),
        "--teams",
        teams.to_str().unwrap(),
        "--home-away",
        "source",
    ]);
    let line = out
        .lines()
        .find(|l| l.starts_with("Chaos All-Stars"))
        .unwrap();
    let cells: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(&cells[2..4], ["0", "5"], "{line}");
}

#[test]
fn the_schedule_hint_points_at_balanced_home_and_away() {
    let out = ok(&["league", "schedule", "6"]);
    assert!(
        out.contains(
            "hint: --home-away balanced keeps these pairings and evens out home and away:\n  \
             every team's home and away games differ by at most 1 instead of up to 5,\n  \
             and 4 breaks in all instead of 16"
        ),
        "{out}"
    );
    assert!(!out.contains("1 games"), "{out}");
    for line in out.lines() {
        assert!(line.chars().count() <= 80, "{line}");
    }
    let fair = ok(&["league", "schedule", "6", "--home-away", "balanced"]);
    assert!(!fair.contains("hint:"), "{fair}");
    let e = fails(&["league", "schedule", "6", "--home-away", "fair"]);
    assert!(e.contains("--home-away") && e.contains("balanced"), "{e}");
}
