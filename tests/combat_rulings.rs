//! The revised combat rulings from the command line: `--first`, the sim report's reasons for
//! ending, the rulings `rules show` lists, and the D3-hull house rule.
use crate::common::*;

const HC: &str = "UFP heavy cruiser";
const KBC: &str = "Klingon battle cruiser";

#[test]
fn sim_reports_why_battles_end_and_results_by_initiative() {
    let d = json(&[
        "combat", "sim", HC, KBC, "-n", "300", "--seed", "4", "--json",
    ]);
    assert_eq!(d["first"], "alternate");
    let (a, b) = (
        &d["by_initiative"]["a_first"],
        &d["by_initiative"]["b_first"],
    );
    assert_eq!(
        (a["battles"].as_u64(), b["battles"].as_u64()),
        (Some(150), Some(150))
    );
    for key in ["a_wins", "b_wins", "draws", "escapes"] {
        let (x, y) = (a[key].as_u64().unwrap(), b[key].as_u64().unwrap());
        let total = match key {
            "a_wins" => d["a"]["wins"].as_u64().unwrap(),
            "b_wins" => d["b"]["wins"].as_u64().unwrap(),
            other => d[other].as_u64().unwrap(),
        };
        assert_eq!(x + y, total, "{key}: {d}");
    }
    let l = &d["limit_states"];
    // The states at the turn limit are the unfinished battles'; draws add the disengaged.
    assert_eq!(l["battles"], d["unfinished"]);
    assert_eq!(
        d["draws"].as_u64(),
        Some(d["unfinished"].as_u64().unwrap() + d["disengaged"].as_u64().unwrap())
    );
    let states: u64 = [
        "both_fighting",
        "one_crippled",
        "out_of_torpedoes",
        "out_of_range",
    ]
    .iter()
    .map(|k| l[k].as_u64().unwrap())
    .sum();
    assert_eq!(states, d["unfinished"].as_u64().unwrap(), "{l}");
    let distance = d["mean_distance"].as_f64().unwrap();
    assert!(distance > 0.0 && distance < 40.0, "{distance}");
    for side in ["a", "b"] {
        let share = d[side]["cloaked_share"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&share), "{share}");
        assert!(d[side]["shots_per_battle"].as_f64().unwrap() > 0.0);
    }
    // The heavy cruiser has no cloak.
    assert_eq!(d["a"]["cloaked_share"], 0.0);
    let text = ok(&["combat", "sim", HC, KBC, "-n", "300", "--seed", "4"]);
    for part in [
        "first move: alternate",
        "a moved first (150 battles)",
        "b moved first (150 battles)",
        "at the turn limit: both fighting",
        "turns cloaked",
        "shots per battle",
    ] {
        assert!(text.contains(part), "{part} in\n{text}");
    }
}

#[test]
fn first_a_or_b_gives_one_side_every_first_move() {
    for (first, key) in [("a", "a_first"), ("b", "b_first")] {
        let d = json(&[
            "combat", "sim", HC, KBC, "-n", "40", "--seed", "2", "--first", first, "--json",
        ]);
        assert_eq!(d["first"], first);
        assert_eq!(d["by_initiative"][key]["battles"], 40);
    }
    // A usage error, as clap reports them.
    Test::new()
        .args(["combat", "sim", HC, KBC, "--first", "c"])
        .status(2)
        .stderr_has("`c` is not a, b or alternate")
        .run();
}

#[test]
fn duel_first_b_moves_the_second_ship_first_with_shields_already_up() {
    let d = json(&[
        "combat", "duel", HC, KBC, "--seed", "5", "--first", "b", "--json",
    ]);
    let events = d["events"].as_array().unwrap();
    let first_side = events
        .iter()
        .find(|e| e["event"] != "turn")
        .map(|e| e["side"].clone());
    assert_eq!(first_side, Some(serde_json::json!(1)));
    // A meeting engagement: nobody raises shields on turn 1, they are up already.
    assert!(!events.iter().any(|e| e["event"] == "shields_raised"));
    Test::new()
        .args(["combat", "duel", HC, KBC, "--first", "alternate"])
        .status(2)
        .stderr_has("`alternate` is not a or b")
        .run();
}

#[test]
fn duel_narration_reads_in_order() {
    let text = ok(&["combat", "duel", HC, KBC, "--seed", "5"]);
    // A torpedo is launched before the target's dodge rolls are told, which show the roll
    // each needs; a face with its shield at 0 is "down", never "(0 → 0)".
    assert!(!text.contains("(0 → 0)"), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    for (i, l) in lines.iter().enumerate() {
        if l.contains("evasive") {
            assert!(l.contains("(dodges on "), "{l}");
            let before = lines[..i].iter().rev().find(|p| !p.contains("evasive"));
            assert!(
                before.is_some_and(|p| p.contains("launches a")),
                "a dodge follows its launch: {l}"
            );
        }
    }
}

#[test]
fn rules_show_lists_the_rulings() {
    let text = ok(&["rules", "show", "startrek"]);
    for r in 1..=11 {
        assert!(text.contains(&format!("\"R{r} ")), "R{r} in rules show");
    }
    assert!(text.contains("halving_divisor = 2"));
    assert!(text.contains("generator_points_per_turn = 1"));
}

#[test]
fn the_prose_d3_hulls_ship_as_a_house_rule() {
    let d = Test::in_project()
        .args([
            "combat",
            "ships",
            "--rules",
            "examples/house-d3-hulls.rules",
            "--json",
        ])
        .run()
        .json();
    let hull = |name: &str| {
        d.as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name)
            .map(|s| (s["hull_intact"].clone(), s["hull_damaged"].clone()))
    };
    use serde_json::json as j;
    assert_eq!(hull(HC), Some((j!("4D3"), j!("2D3"))));
    assert_eq!(hull("UFP frigate"), Some((j!("3D3"), j!("2D3"))));
    assert_eq!(hull("Transport"), Some((j!("2D3"), j!("1D3"))));
    // Thinner hulls end battles sooner: on this seed the mean battle falls from 58.2 turns to
    // 29.8. (Battles run to a finish either way, so who wins barely moves.)
    let v = Test::in_project()
        .args([
            "combat",
            "sim",
            HC,
            KBC,
            "-n",
            "2000",
            "--seed",
            "1",
            "--vs",
            "examples/house-d3-hulls.rules",
            "--json",
        ])
        .run()
        .json();
    let turns = |k: &str| v[k]["mean_turns"].as_f64().unwrap();
    assert!(turns("base") > 50.0, "{v}");
    assert!(turns("variant") < 0.6 * turns("base"), "{v}");
}
