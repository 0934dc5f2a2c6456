//! `schedule` and `standings` from scripts, through `arbiter run`: the schedule command's JSON,
//! the ruleset's league defaults, league points and tie-breakers changed in the script.
use crate::common::*;
use serde_json::Value;

fn run_script(script: &str, extra: &[&str]) -> String {
    let f = temp_file(script, ".rhai");
    let mut args = vec!["run", path(&f)];
    args.extend_from_slice(extra);
    ok(&args)
}

fn run_fails(script: &str) -> String {
    let f = temp_file(script, ".rhai");
    fails(&["run", path(&f)])
}

fn script_json(script: &str, extra: &[&str]) -> Value {
    let out = run_script(script, extra);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}):\n{out}"))
}

#[test]
fn schedule_is_the_schedule_commands_json() {
    let s = script_json(
        "print(schedule(12, #{ shuffle: true, seed: 7 }).to_json());",
        &[],
    );
    let cli = json(&["league", "schedule", "12", "--shuffle", "--seed", "7"]);
    for key in [
        "rounds",
        "carryover",
        "seed",
        "breaks",
        "method",
        "legs",
        "shuffled",
    ] {
        assert_eq!(s[key], cli[key], "{key}");
    }
    assert_eq!(s["seed"], 7);
    assert_eq!(s["rounds"].as_array().unwrap().len(), 11);
    // The teams in the league's order, so the schedule can go back to `standings`.
    assert_eq!(
        s["teams"],
        serde_json::json!([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
    );
}

#[test]
fn the_sources_rotation_for_names_with_a_bye() {
    // Three teams: the rotation rests one team a round, and every pair meets once.
    let out = run_script(
        "let s = schedule([\"Orcs\", \"Elves\", \"Dwarfs\"]);\nfor r in s.rounds { print(`${r.round}: ${r.matches[0].home}-${r.matches[0].away} rests ${r.bye}`); }\nprint(s.seed == ());",
        &[],
    );
    let names = temp_file("Orcs\nElves\nDwarfs\n", ".txt");
    let cli = json(&["league", "schedule", path(&names), "--json"]);
    let expected: String = cli["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            format!(
                "{}: {}-{} rests {}\n",
                r["round"],
                s(&r["matches"][0]["home"]),
                s(&r["matches"][0]["away"]),
                s(&r["bye"])
            )
        })
        .collect();
    assert_eq!(out, format!("{expected}true\n"));
}

fn s(v: &Value) -> String {
    v.as_str().unwrap().to_string()
}

#[test]
fn options_override_the_rulesets_defaults() {
    // A ruleset with two legs by default; options still win.
    let out = run_script(
        "let r = rules(\"bloodbowl\");\nr.league.legs = 2;\nprint(r.schedule(6).rounds.len());\nprint(r.schedule(6, #{ legs: 1 }).rounds.len());\nprint(r.schedule(6, #{ method: \"berger\" }).method);\nprint(schedule(6).rounds.len());",
        &[],
    );
    assert_eq!(out, "10\n5\nberger\n5\n");
    // The same seed, the same shuffle; balanced 8 is Russell's construction (carry-over at its bound).
    let out = run_script("print(schedule(10, #{ shuffle: true, seed: 3 }).rounds == schedule(10, #{ shuffle: true, seed: 3 }).rounds);\nlet b = schedule(8, #{ method: \"balanced\" });\nprint(b.carryover.value == b.carryover.lower_bound);\nprint(schedule(4, #{ matrix: true }).carryover.matrix.len());", &[]);
    assert_eq!(out, "true\ntrue\n4\n");
}

const RESULTS: &str = "[
  #{ home: \"Elves\", away: \"Dwarfs\", home_score: 1, away_score: 1 },
  #{ home: \"Orcs\", away: \"Skaven\", home_score: 1, away_score: 1 },
  #{ home: \"Dwarfs\", away: \"Orcs\", home_score: 0, away_score: 1 },
  #{ home: \"Elves\", away: \"Skaven\", home_score: 1, away_score: 0 },
  #{ home: \"Orcs\", away: \"Elves\", home_score: 0, away_score: 1 },
  #{ home: \"dwarfs\", away: \"SKAVEN\", home_score: 5, away_score: 0 } ]";

fn table_script(edit: &str) -> String {
    format!(
        "let r = rules(\"bloodbowl\");\n{edit}\nlet s = schedule([\"Orcs\", \"Elves\", \"Dwarfs\", \"Skaven\"]);\nlet t = r.standings(s, {RESULTS});\nfor x in t.standings {{ print(`${{x.position}} ${{x.team}} ${{x.points}} ${{x.difference}}`); }}"
    )
}

#[test]
fn standings_from_a_schedule_and_results() {
    // 3/1/0: Elves 7; Orcs and Dwarfs 4, Orcs won their game (head to head first); Skaven 1.
    assert_eq!(
        run_script(&table_script(""), &[]),
        "1 Elves 7 2\n2 Orcs 4 0\n3 Dwarfs 4 4\n4 Skaven 1 -6\n"
    );
}

#[test]
fn league_points_changed_in_the_script_change_the_table() {
    assert_eq!(
        run_script(&table_script("r.league.points.win = 2;"), &[]),
        "1 Elves 5 2\n2 Orcs 3 0\n3 Dwarfs 3 4\n4 Skaven 1 -6\n"
    );
    // Tie-breakers too: score difference first puts Dwarfs (+4) above Orcs (0).
    assert_eq!(
        run_script(
            &table_script("r.league.tiebreakers = [\"difference\"];\nr.league.points.draw = 0;"),
            &[]
        ),
        "1 Elves 6 2\n2 Dwarfs 3 4\n3 Orcs 3 0\n4 Skaven 0 -6\n"
    );
}

#[test]
fn standings_of_a_season_file_is_the_table_commands_json() {
    let dir = tempfile::tempdir().unwrap();
    let teams = dir.path().join("teams.txt");
    std::fs::write(&teams, "Orcs\nElves\nDwarfs\nSkaven\n").unwrap();
    let season = dir.path().join("season.yaml").to_str().unwrap().to_string();
    let list = teams.to_str().unwrap();
    ok(&[
        "league",
        "new",
        &season,
        "--teams",
        list,
        "--home-away",
        "source",
    ]);
    for (h, a, hs, as_) in [
        ("Elves", "Dwarfs", "1", "1"),
        ("Orcs", "Skaven", "1", "1"),
        ("Dwarfs", "Orcs", "0", "1"),
    ] {
        ok(&["league", "record", &season, h, a, hs, as_]);
    }
    let from_script = script_json(&format!("print(standings(\"{season}\").to_json());"), &[]);
    // The same keys, the ruleset's name, version and hash included.
    assert_eq!(from_script, json(&["league", "table", &season]));
    // The same season under a changed ruleset, as a method.
    let out = run_script(&format!("let r = rules(\"bloodbowl\");\nr.league.points.win = 5;\nprint(r.standings(\"{season}\").standings[0].points);"), &[]);
    assert_eq!(out, "6\n");
}

#[test]
fn league_errors_are_clear() {
    let err = run_fails("schedule(1);");
    assert!(err.contains("at least 2 teams"), "{err}");
    let err = run_fails("schedule(6, #{ shufle: true });");
    assert!(
        err.contains("schedule options") && err.contains("shufle"),
        "{err}"
    );
    let err = run_fails("schedule(6, #{ method: \"swiss\" });");
    assert!(err.contains("swiss"), "{err}");
    let err = run_fails("schedule([\"A\", \"a\"]);");
    assert!(err.contains("listed twice"), "{err}");
    let err = run_fails("schedule(\"/etc/passwd\");");
    assert!(
        err.contains("outside what this script may read") && !err.contains("root:"),
        "{err}"
    );
    let err = run_fails("let s = schedule(4);\nrules(\"bloodbowl\").standings(s, [#{ home: 1, away: 9, home_score: 1, away_score: 0 }]);");
    assert!(
        err.contains("result 1") && err.contains("team `9`"),
        "{err}"
    );
    let err = run_fails("let s = schedule(4);\nrules(\"startrek\").standings(s, []);");
    assert!(err.contains("no league section"), "{err}");
}
