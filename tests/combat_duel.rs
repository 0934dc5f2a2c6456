//! `combat duel` and `combat ships`.
use crate::common::*;

#[test]
fn duel_is_narrated_and_replays_from_its_seed() {
    let a = ok(&[
        "combat",
        "duel",
        "UFP heavy cruiser",
        "Klingon battle cruiser",
        "--seed",
        "7",
    ]);
    let b = ok(&[
        "combat",
        "duel",
        "Crucero pesado de la UFP",
        "Crucero de batalla Klingon",
        "--seed",
        "7",
    ]);
    assert_eq!(a, b);
    assert!(a.contains("== Turn 1 =="), "{a}");
    assert!(
        a.contains("gunnery roll") && a.contains(" vs "),
        "rolls and what they needed: {a}"
    );
    assert!(a.contains("shield"), "{a}");
    let last = a.trim_end().lines().last().unwrap();
    assert!(
        last.contains("destroyed")
            || last.contains("captured")
            || last.contains("escapes")
            || last.contains("draw"),
        "{last}"
    );
    let c = ok(&[
        "combat",
        "duel",
        "UFP heavy cruiser",
        "Klingon battle cruiser",
        "--seed",
        "8",
    ]);
    assert_ne!(a, c);
}

/// A short duel of two different classes.
const CRUISER_VS_TRANSPORT: [&str; 6] = [
    "combat",
    "duel",
    "UFP heavy cruiser",
    "Transport",
    "--seed",
    "11",
];

#[test]
fn duel_json_is_an_event_list_that_agrees_with_the_outcome() {
    let d = json(&CRUISER_VS_TRANSPORT);
    let events = d["events"].as_array().unwrap();
    assert_eq!(events[0]["event"], "turn");
    let turns = events.iter().filter(|e| e["event"] == "turn").count() as u64;
    assert_eq!(turns, d["turns"].as_u64().unwrap());
    match d["outcome"].as_str().unwrap() {
        "destroyed" => assert!(events.iter().any(|e| e["event"] == "destroyed")),
        "captured" => assert!(events.iter().any(|e| e["event"] == "captured")),
        "escaped" => assert!(events.iter().any(|e| e["event"] == "warp")),
        other => assert_eq!(other, "turn_limit"),
    }
    // Every hit is consistent with the shield formula.
    for h in events.iter().filter(|e| e["event"] == "hit") {
        let (dmg, s) = (
            h["damage"].as_i64().unwrap(),
            h["shield_before"].as_i64().unwrap(),
        );
        assert_eq!(h["to_hull"].as_i64().unwrap(), (dmg - 2 * s).max(0), "{h}");
    }
}

#[test]
fn ships_lists_the_whole_table() {
    let out = ok(&["combat", "ships"]);
    for name in [
        "UFP heavy cruiser",
        "UFP light cruiser",
        "Gorn attack cruiser",
        "Klingon battle cruiser",
        "Romulan battle cruiser",
        "Pirate attack cruiser",
        "UFP destroyer",
        "UFP frigate",
        "Pirate frigate",
        "Klingon bird of prey",
        "Romulan bird of prey",
        "Transport",
    ] {
        assert!(out.contains(name), "{name} missing:\n{out}");
    }
    assert!(
        out.contains("Crucero pesado de la UFP") && out.contains("3 plasma"),
        "{out}"
    );
    let d: serde_json::Value = serde_json::from_str(&ok(&["combat", "ships", "--json"])).unwrap();
    let ships = d.as_array().unwrap();
    assert_eq!(ships.len(), 12);
    let gorn = ships
        .iter()
        .find(|s| s["name"] == "Gorn attack cruiser")
        .unwrap();
    assert_eq!(
        (
            gorn["shields"].as_u64(),
            gorn["security_teams"].as_u64(),
            gorn["size"].as_str()
        ),
        (Some(8), Some(12), Some("large"))
    );
    assert_eq!(gorn["generator"], 11, "2 · 4 phaser dice + speed 3");
}

#[test]
fn a_house_rule_changes_the_numbers_without_rust() {
    // Gunnery penalty 10 a hex instead of 5: at range 5 a 60% gunner needs 10.
    let house = temp_file(
        "extends startrek\nname = house\ncombat {\n  phasers { range_penalty = 10 }\n}\n",
        ".rules",
    );
    let d = json(&[
        "combat",
        "volley",
        "UFP heavy cruiser",
        "Transport",
        "--range",
        "5",
        "--rules",
        path(&house),
    ]);
    assert!(
        (d["hit_chance"].as_f64().unwrap() - 0.10).abs() < 1e-12,
        "{d}"
    );
    // A broken location table is refused with its place.
    let bad = temp_file("extends startrek\nname = bad\ncombat {\n  locations {\n    bridge { roll = [1, 6] }\n  }\n}\n", ".rules");
    let e = fails(&["combat", "ships", "--rules", path(&bad)]);
    assert!(e.contains("exactly once"), "{e}");
}

#[test]
fn a_mirror_duel_says_which_side_each_line_means() {
    let args = [
        "combat",
        "duel",
        "Gorn attack cruiser",
        "Gorn attack cruiser",
        "--seed",
        "4",
    ];
    let text = ok(&args);
    let mut lines = text.lines();
    assert_eq!(
        lines.next().unwrap(),
        "Gorn attack cruiser (a) vs Gorn attack cruiser (b) (ruleset startrek, seed 4)"
    );
    // Every line about a ship names its side.
    for line in lines.filter(|l| l.starts_with("Gorn")) {
        assert!(
            line.starts_with("Gorn attack cruiser (a)")
                || line.starts_with("Gorn attack cruiser (b)"),
            "{line}"
        );
    }
    let d = json(&args);
    assert_eq!(d["outcome"], "destroyed");
    // The side destroyed is the side of the hit that broke its hull.
    let events = d["events"].as_array().unwrap();
    let broken = events
        .iter()
        .rev()
        .find(|e| e["event"] == "hit")
        .map(|e| e["side"].as_u64().unwrap())
        .unwrap();
    let (lost, won) = if broken == 0 { ("a", "b") } else { ("b", "a") };
    assert_eq!(d["side"], lost);
    let last = text.trim_end().lines().last().unwrap();
    assert_eq!(
        last,
        format!(
            "Gorn attack cruiser ({lost}) is destroyed on turn {}. Gorn attack cruiser ({won}) wins.",
            d["turns"]
        )
    );
    // Ships of different classes keep their plain names.
    let other = ok(&CRUISER_VS_TRANSPORT);
    assert!(
        other.starts_with("UFP heavy cruiser vs Transport (ruleset"),
        "{other}"
    );
    assert!(!other.contains("(a)"), "{other}");
}
