//! The example scripts in scripts/, each run as a user would, with its output checked.
mod common;
use common::*;

fn script(name: &str) -> String {
    format!("{}/scripts/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn dice_odds_gives_the_chance_of_at_least_a_target() {
    let out = ok(&["run", &script("dice_odds.rhai"), "--", "3D6", "12"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "3D6: 3..18, mean 10.5");
    // 81 of the 216 rolls of 3D6 make 12 or more.
    assert_eq!(lines[1], "P(3D6 >= 12) = 0.375");
    assert_eq!(lines[2], "  >= 18: 0.5%");
    assert!(lines.contains(&"  >= 11: 50.0%") && lines.contains(&"  >= 14: 16.2%"), "{out}");
    assert_eq!(lines.last(), Some(&"  >= 3: 100.0%"));
}

#[test]
fn compare_dice_is_exact() {
    // P(2D6 > D12) = (1/12) * sum over y of P(2D6 > y) = 216/36/12 = 1/2; ties 1/12.
    let out = ok(&["run", &script("compare_dice.rhai"), "--", "2D6", "D12"]);
    let value = |prefix: &str| -> f64 {
        out.lines().find_map(|l| l.strip_prefix(prefix)).unwrap_or_else(|| panic!("{prefix} in {out}")).trim().parse().unwrap()
    };
    assert!((value("2D6 beats 1D12:") - 0.5).abs() < 1e-12);
    assert!((value("tie:") - 1.0 / 12.0).abs() < 1e-12);
    assert!((value("1D12 beats 2D6:") - 5.0 / 12.0).abs() < 1e-12);
}

#[test]
fn explore_ruleset_lists_ships_and_tries_a_variant() {
    let out = ok(&["run", &script("explore_ruleset.rhai"), "--rules", "startrek"]);
    assert_eq!(
        out,
        "startrek: 1 ships\n  UFP heavy cruiser: shields 10, phasers 4D6 (mean 14.0)\nvariant changes: {\"ships\":{\"UFP heavy cruiser\":{\"shields\":11}}}\noriginal still: 10\n"
    );
}

#[test]
fn house_rule_writes_a_file_that_loads_back() {
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("house.rules");
    let out = ok(&["run", &script("house_rule.rhai"), "--allow-write", "--", out_file.to_str().unwrap()]);
    assert!(out.ends_with(": startrek, shields 9, max speed 4, start 8\n"), "{out}");
    let text = std::fs::read_to_string(&out_file).unwrap();
    assert!(text.starts_with("extends startrek"), "{text}");
    assert!(ok(&["rules", "check", out_file.to_str().unwrap()]).contains("ok"));
    // Without --allow-write the script is refused and writes nothing.
    let other = dir.path().join("other.rules");
    let err = fails(&["run", &script("house_rule.rhai"), "--", other.to_str().unwrap()]);
    assert!(err.contains("--allow-write") && !other.exists(), "{err}");
}

#[test]
fn cep_house_rule_compares_points_on_the_recorded_game() {
    let out = ok(&["run", &script("cep_house_rule.rhai"), "--", &script("records/cep_example.yaml")]);
    // Under cep the source's 31 / 16 / 13. The variant, by hand (violence 75/241.5, so
    // In · share · violence · game value = In · share · 75): Teniente 0.75 · 81/126 · 75 · 0.95
    // = 34.35; Capitán 0.75 · 45/126 · 75 · 0.85 = 17.08; Mayor 0.35 · 75 · 0.65 = 17.06.
    assert_eq!(
        out,
        "game value 241.5, violence 0.311\nhouse rule: {\"scoring\":{\"cep\":{\"grade\":{\"step\":0.1},\"index\":{\"loss\":0.35}}}}\nTeniente: 31 -> 34 (+3)\nCapitán: 16 -> 17 (+1)\nMayor: 13 -> 17 (+4)\n"
    );
}

#[test]
fn league_carryover_of_a_seeded_twelve_team_league() {
    let out = ok(&["run", &script("league_carryover.rhai"), "--", "12", "7"]);
    let carry = |args: &[&str]| json(args)["carryover"]["value"].as_u64().unwrap();
    let rotation = carry(&["league", "schedule", "12"]);
    let shuffled = carry(&["league", "schedule", "12", "--shuffle", "--seed", "7"]);
    let balanced = carry(&["league", "schedule", "12", "--method", "balanced", "--seed", "7"]);
    assert_eq!((rotation, shuffled, balanced), (924, 222, 192));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "12 teams, 11 rounds; carry-over lower bound 132");
    assert_eq!(lines[1], format!("rotation: {rotation}"));
    assert_eq!(lines[2], format!("shuffled (seed 7): {shuffled}"));
    assert_eq!(lines[3], format!("balanced (seed 7): {balanced}"));
    assert_eq!(lines[4], "most repeated: after playing 6, 4 teams play 12 next");
    // Round 1 as the command prints it for the same seed.
    let first = &json(&["league", "schedule", "12", "--shuffle", "--seed", "7"])["rounds"][0]["matches"];
    let expected: Vec<String> = first.as_array().unwrap().iter().map(|m| format!("  {} - {}", m["home"], m["away"])).collect();
    assert_eq!(lines[5], "round 1 of the shuffled schedule:");
    assert_eq!(lines[6..].to_vec(), expected);
}
