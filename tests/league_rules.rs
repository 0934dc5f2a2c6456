//! The league section of a ruleset: bloodbowl's numbers, house rules in either format, and
//! located errors for names the engine does not know.
use crate::common::*;

#[test]
fn bloodbowl_is_three_one_nothing_with_head_to_head_first() {
    let r: serde_json::Value =
        serde_json::from_str(&ok(&["rules", "show", "bloodbowl", "--format", "json"])).unwrap();
    let league = &r["league"];
    assert_eq!(
        league["points"],
        serde_json::json!({"win": 3, "draw": 1, "loss": 0})
    );
    assert_eq!(
        league["tiebreakers"],
        serde_json::json!(["head_to_head", "difference", "scored", "won"])
    );
    assert_eq!(league["method"], "rotation");
    ok(&["rules", "check", "rulesets/bloodbowl.rules"]);
}

#[test]
fn the_ruleset_sets_the_schedule_defaults() {
    let house = temp_file(
        "name: house\nextends: bloodbowl\nleague:\n  method: berger\n  legs: 2\n",
        ".yaml",
    );
    let d = json(&["league", "schedule", "4", "--rules", path(&house)]);
    assert_eq!(d["method"], "berger");
    assert_eq!(d["legs"], 2);
    assert_eq!(d["rounds"].as_array().unwrap().len(), 6);
    // A flag still wins over the ruleset.
    let d = json(&[
        "league",
        "schedule",
        "4",
        "--rules",
        path(&house),
        "--method",
        "rotation",
        "--legs",
        "1",
    ]);
    assert_eq!(
        d["rounds"][0]["matches"][0],
        serde_json::json!({"home": 2, "away": 3})
    );
}

#[test]
fn unknown_names_in_the_league_section_are_located() {
    let bad = temp_file(
        "extends bloodbowl\nname = bad\nleague {\n  tiebreakers = [head_to_head, diference]\n}\n",
        ".rules",
    );
    let e = fails(&["rules", "check", path(&bad)]);
    assert!(
        e.contains(":4:32: unknown tie-breaker `diference` (did you mean `difference`?)"),
        "{e}"
    );
    let bad = temp_file("name: bad\nleague:\n  method: swiss\n", ".yaml");
    let e = fails(&["league", "schedule", "6", "--rules", path(&bad)]);
    assert!(
        e.contains(":3:11: unknown scheduling method `swiss`"),
        "{e}"
    );
    let bad = temp_file("name: bad\nleague:\n  legs: 0\n", ".yaml");
    let e = fails(&["rules", "check", path(&bad)]);
    assert!(e.contains(":3:9: a league needs at least one leg"), "{e}");
}

#[test]
fn the_league_section_converts_both_ways() {
    let yaml = ok(&[
        "rules",
        "convert",
        "rulesets/bloodbowl.rules",
        "--to",
        "yaml",
    ]);
    let f = temp_file(&yaml, ".yaml");
    let a: serde_json::Value =
        serde_json::from_str(&ok(&["rules", "show", path(&f), "--format", "json"])).unwrap();
    let b: serde_json::Value =
        serde_json::from_str(&ok(&["rules", "show", "bloodbowl", "--format", "json"])).unwrap();
    assert_eq!(a, b);
}

#[test]
fn guards_and_time_limits() {
    let e = fails(&["league", "schedule", "5000"]);
    assert!(e.contains("more than this program schedules"), "{e}");
    let e = fails(&["league", "schedule", "3000", "--legs", "5"]);
    assert!(e.contains("more than this program writes"), "{e}");
    // A huge effort with a tiny time limit stops early and says so.
    let d = json(&[
        "league",
        "schedule",
        "30",
        "--method",
        "balanced",
        "--seed",
        "1",
        "--effort",
        "1000000000",
        "--time-limit",
        "0.01",
    ]);
    assert_eq!(d["search"]["stopped_by_time"], true);
    assert!(d["search"]["moves"].as_u64().unwrap() < 1_000_000_000);
}
