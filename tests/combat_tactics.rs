use crate::common::*;

#[test]
fn sim_takes_a_tactic_per_side() {
    let j = json(&[
        "combat",
        "sim",
        "UFP frigate",
        "UFP frigate",
        "-n",
        "200",
        "--seed",
        "3",
        "--tactic-a",
        "classic",
        "--tactic-b",
        "default",
        "--json",
    ]);
    assert_eq!(j["battles"], 200);
    let decided = j["a"]["wins"].as_u64().unwrap() + j["b"]["wins"].as_u64().unwrap();
    assert!(decided > 0, "{j}");
}

#[test]
fn an_unknown_tactic_is_refused_with_a_suggestion() {
    Test::new()
        .args([
            "combat",
            "sim",
            "UFP frigate",
            "UFP frigate",
            "--tactic-a",
            "clasic",
        ])
        .status(1)
        .stderr_has("did you mean `classic`")
        .run();
}

#[test]
fn the_ladder_rates_tactics_and_gives_the_same_result_on_any_thread_count() {
    let args = |t: &'static str| {
        vec![
            "combat",
            "ladder",
            "--ships",
            "UFP frigate,Pirate frigate",
            "-n",
            "100",
            "--seed",
            "2",
            "--threads",
            t,
            "--json",
        ]
    };
    let one = json(&args("1"));
    assert_eq!(one, json(&args("2")));
    assert_eq!(one["ships"].as_array().unwrap().len(), 2);
    // Two tactics, two ships, each tactic on each side: four matches.
    assert_eq!(one["matches"].as_array().unwrap().len(), 4);
    let tactics = one["tactics"].as_array().unwrap();
    assert_eq!(tactics.len(), 2);
    for t in tactics {
        assert!(
            t["rating"].as_f64().is_some() && t["share"].as_f64().is_some(),
            "{t}"
        );
    }
}

#[test]
fn a_ladder_match_with_nothing_decided_has_no_share() {
    let out = json(&[
        "combat",
        "ladder",
        "--ships",
        "Transport,UFP frigate",
        "-n",
        "40",
        "--seed",
        "1",
        "--json",
    ]);
    for m in out["matches"].as_array().unwrap() {
        let decided = m["a_wins"].as_u64().unwrap() + m["b_wins"].as_u64().unwrap();
        // The outcome split, under the lab's names, adds up to the battles.
        let o = &m["outcomes"];
        let kind = |k: &str| o[k].as_u64().unwrap_or_else(|| panic!("no `{k}` in {m}"));
        assert_eq!(OUTCOME_KINDS.map(kind).iter().sum::<u64>(), 40, "{m}");
        assert_eq!(kind("destroyed") + kind("captured"), decided, "{m}");
        assert!(
            m.get("draws").is_none() && m.get("escapes").is_none(),
            "{m}"
        );
        if m["ship"] == "Transport" {
            // Neither side has a weapon: every battle is a draw, and no share is 0.
            assert_eq!(decided, 0, "{m}");
            assert!(m["a_share"].is_null(), "{m}");
        } else {
            assert!(decided > 0, "{m}");
            let share = m["a_share"].as_f64().unwrap();
            let wins = m["a_wins"].as_u64().unwrap() as f64;
            assert!((share - wins / decided as f64).abs() < 1e-12, "{m}");
        }
    }
}

#[test]
fn a_bad_tactic_knob_in_a_ruleset_is_located() {
    Test::new()
        .file(
            "h.rules",
            "extends startrek\ntactic {\n  aggression = 3\n}\n",
        )
        .args(["rules", "check", "h.rules"])
        .status(1)
        .stderr_has("h.rules:3:")
        .stderr_has("share from 0 to 1")
        .run();
}

#[test]
fn a_scenario_side_changes_the_default_tactic_s_knobs() {
    Test::new()
        .file(
            "s.yaml",
            "a: { ship: UFP frigate, tactic: { agression: 0.2 } }\nb: { ship: UFP frigate }\n",
        )
        .args(["combat", "sim", "--scenario", "s.yaml", "-n", "10"])
        .status(1)
        .stderr_has("s.yaml:1:")
        .stderr_has("did you mean `aggression`")
        .run();
    Test::new()
        .file(
            "s.yaml",
            "a: { ship: UFP frigate, tactic: { aggression: 0.2, cloak: { max_turns: 2 } } }\n\
             b: { ship: UFP frigate, tactic: classic }\n",
        )
        .args([
            "combat",
            "sim",
            "--scenario",
            "s.yaml",
            "-n",
            "50",
            "--json",
        ])
        .stdout_has("\"battles\": 50")
        .run();
}

#[test]
fn the_ladder_shows_the_outcome_split_within_80_columns() {
    let ran = Test::new()
        .env("COLUMNS", "80")
        .args([
            "combat",
            "ladder",
            "--ships",
            "Klingon bird of prey",
            "-n",
            "40",
            "--seed",
            "1",
        ])
        .stdout_has("destroyed  captured  escaped  disengaged  unfinished")
        .run();
    let long: Vec<&str> = ran
        .stdout
        .lines()
        .filter(|l| l.chars().count() > 80)
        .collect();
    assert!(long.is_empty(), "{long:?}\n{}", ran.stdout);
    assert!(!ran.stdout.contains("draws"), "{}", ran.stdout);
}
