//! The balance lab: `combat sweep | matrix | balance`, `sim --precision`, and the script API.
use crate::common::*;

const HC: &str = "UFP heavy cruiser";
const KBC: &str = "Klingon battle cruiser";
const SHIELDS: &str = "/ships/Klingon battle cruiser/shields";

#[test]
fn sweep_json_has_the_agreed_keys_and_every_point_the_same_seeds() {
    let set = format!("{SHIELDS}=9,9,4");
    let d = json(&["combat", "sweep", HC, KBC, "--set", &set, "-n", "300"]);
    assert_eq!(d["parameter"], SHIELDS);
    let points = d["points"].as_array().unwrap();
    assert_eq!(points.len(), 3);
    for p in points {
        assert_eq!(p["battles"], 300);
        assert_eq!(p["a"]["name"], HC);
        assert!(p["draws"].is_u64() && p["b"]["ci95"].is_array(), "{p}");
    }
    // The same value twice is the same battles: identical results.
    assert_eq!(points[0], points[1]);
    assert_eq!(points[2]["value"], 4);
    // Weaker Klingon shields: the cruiser wins more often on the same seeds.
    assert!(points[2]["a"]["wins"].as_u64() > points[0]["a"]["wins"].as_u64());
}

#[test]
fn lab_results_are_the_same_whatever_the_thread_count() {
    let runs: [&[&str]; 3] = [
        &[
            "combat",
            "sweep",
            HC,
            KBC,
            "--set",
            "combat.start_distance=4..10:3",
            "-n",
            "700",
            "--json",
        ],
        &[
            "combat",
            "matrix",
            "UFP frigate",
            "Pirate frigate",
            "Transport",
            "-n",
            "300",
            "--json",
        ],
        &[
            "combat",
            "balance",
            HC,
            KBC,
            "--vary",
            SHIELDS,
            "--precision",
            "0.06",
            "--json",
        ],
    ];
    for args in runs {
        let one = Test::new()
            .args(args.iter().copied())
            .env("RAYON_NUM_THREADS", "1")
            .run();
        let two = Test::new()
            .args(args.iter().copied())
            .env("RAYON_NUM_THREADS", "2")
            .run();
        assert_eq!(one.stdout, two.stdout, "{args:?}");
    }
}

#[test]
fn a_grid_sweep_writes_csv_and_a_chart() {
    let t = Test::new()
        .args(["combat", "sweep", "UFP frigate", "Pirate frigate"])
        .args([
            "--set",
            "ships.UFP frigate.torpedoes=0,5",
            "--set",
            "ships.Pirate frigate.shields=3..5",
        ])
        .args(["-n", "100", "--csv", "grid.csv", "--plot", "grid.svg"])
        .stderr_has("wrote grid.csv")
        .stderr_has("wrote grid.svg")
        .stdout_has("sweep of ships.UFP frigate.torpedoes × ships.Pirate frigate.shields")
        .run();
    let csv = t.read("grid.csv");
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(lines.len(), 1 + 2 * 3, "{csv}");
    assert!(
        lines[0].starts_with("value,value_2,battles,a,a_wins,a_win_rate"),
        "{csv}"
    );
    assert!(lines[2].starts_with("0,4,100,UFP frigate,"), "{csv}");
    let svg = t.read("grid.svg");
    assert!(svg.starts_with("<svg") && svg.contains("ships.Pirate frigate.shields = 5"));
    // CSV on standard output with a bare --csv.
    Test::new()
        .args([
            "combat",
            "sweep",
            "UFP frigate",
            "Pirate frigate",
            "--set",
            "combat.start_distance=5",
            "-n",
            "20",
            "--csv",
        ])
        .stdout_regex(r"^value,battles,a,a_wins,.*\n5,20,UFP frigate,")
        .run();
}

#[test]
fn matrix_has_every_ordered_pair_strengths_and_points() {
    let d = json(&[
        "combat",
        "matrix",
        HC,
        KBC,
        "Transport",
        "-n",
        "100",
        "--points-scale",
        "50",
    ]);
    assert_eq!(d["ships"], serde_json::json!([HC, KBC, "Transport"]));
    let cells = d["cells"].as_array().unwrap();
    assert_eq!(cells.len(), 6);
    for c in cells {
        let sum = c["a_wins"].as_u64().unwrap()
            + c["b_wins"].as_u64().unwrap()
            + c["draws"].as_u64().unwrap();
        assert_eq!((c["battles"].as_u64(), sum), (Some(100), 100), "{c}");
    }
    let strength = d["strength"].as_array().unwrap();
    let points: Vec<u64> = strength
        .iter()
        .map(|s| s["points"].as_u64().unwrap())
        .collect();
    assert_eq!(points.iter().max(), Some(&50));
    assert!(
        points[2] < points[0] && points[2] < points[1],
        "the transport is weakest: {d}"
    );
    Test::new()
        .args([
            "combat",
            "matrix",
            "UFP frigate",
            "Transport",
            "-n",
            "40",
            "--plot",
            "m.svg",
        ])
        .stderr_has("wrote m.svg")
        .stdout_has("to paste into a ruleset")
        .stdout_regex(r#""UFP frigate" \{ value = 100 \}"#)
        .run();
}

#[test]
fn balance_reports_the_value_its_share_and_every_value_tried() {
    let d = json(&[
        "combat",
        "balance",
        HC,
        KBC,
        "--vary",
        SHIELDS,
        "--precision",
        "0.05",
    ]);
    assert_eq!(d["parameter"], SHIELDS);
    let tried = d["tried"].as_array().unwrap();
    // The default range: 0 to twice the rating now (9), ends first.
    assert_eq!(
        (tried[0]["value"].as_u64(), tried[1]["value"].as_u64()),
        (Some(0), Some(18))
    );
    let spent: u64 = tried.iter().map(|t| t["battles"].as_u64().unwrap()).sum();
    assert_eq!(d["battles"].as_u64(), Some(spent));
    let chosen = tried
        .iter()
        .find(|t| t["value"] == d["value"])
        .expect("the answer was tried");
    // The battles nobody won are reported with the answer and with every value tried.
    assert_eq!(d["undecided"], chosen["undecided"]);
    assert_eq!(d["answer_battles"], chosen["battles"]);
    for t in tried {
        assert!(t["undecided"].as_u64() <= t["battles"].as_u64(), "{t}");
    }
    assert_eq!(chosen["share"], d["share"]);
    // The answer's interval holds the target, or (the parameter being whole) the target
    // falls between it and a neighbouring value tried on the other side.
    let ci = d["ci95"].as_array().unwrap();
    let holds = ci[0].as_f64() <= Some(0.5) && Some(0.5) <= ci[1].as_f64();
    let value = d["value"].as_i64().unwrap();
    let side = |t: &serde_json::Value| t["verdict"].as_str().unwrap().to_string();
    let between = tried
        .iter()
        .any(|t| (t["value"].as_i64().unwrap() - value).abs() == 1 && side(t) != side(chosen));
    assert!(holds || between, "{d}");
    assert_eq!(d["holds_target"], holds, "{d}");
    // The fixed-size search it is measured against is reported (with battles decided far
    // more often since battles end as the book's do, the adaptive search no longer always
    // spends fewer: 2048 against 1587 here; see notes/issue32.md).
    assert!(d["fixed_size_battles"].as_u64() > Some(0), "{d}");
}

#[test]
fn sim_to_a_precision_says_when_and_why_it_stopped() {
    let d = json(&["combat", "sim", HC, "Transport", "--precision", "0.04"]);
    assert_eq!(d["precise"], true);
    assert!(
        d["stopped"].as_str().unwrap().contains("within ±4.0%"),
        "{d}"
    );
    let a = &d["a"];
    let (p, lo, hi) = (
        a["win_rate"].as_f64().unwrap(),
        a["ci95"][0].as_f64().unwrap(),
        a["ci95"][1].as_f64().unwrap(),
    );
    assert!(p - lo <= 0.04 && hi - p <= 0.04, "{d}");
    Test::new()
        .args([
            "combat",
            "sim",
            HC,
            KBC,
            "--precision",
            "0.001",
            "-n",
            "600",
        ])
        .stdout_has("600 battles")
        .stdout_has("stopped at the ceiling of 600 battles (-n) before ±0.1%")
        .run();
}

#[test]
fn bad_paths_and_values_are_clear_errors() {
    for (set, says) in [
        (
            "ships.Nonesuch.shields=1..3",
            "ruleset `startrek` has no `ships.Nonesuch`",
        ),
        (
            "ships.UFP frigate.shields=a..3",
            "the low end `a` is not a number",
        ),
        (
            "ships.UFP frigate.shields=1..3:0",
            "the step must be more than 0",
        ),
        (
            "ships.UFP frigate.shields=-3..1",
            "cannot set `ships.UFP frigate.shields` to -3",
        ),
        ("ships.UFP frigate", "write PATH=LO..HI[:STEP]"),
    ] {
        Test::new()
            .args(["combat", "sweep", "UFP frigate", "Transport", "--set", set])
            .status(1)
            .stderr_has(says)
            .run();
    }
    Test::new()
        .args([
            "combat",
            "balance",
            HC,
            KBC,
            "--vary",
            "ships.UFP heavy cruiser.hull",
            "--precision",
            "0.1",
        ])
        .status(1)
        .stderr_has("is not a number")
        .run();
}

#[test]
fn the_script_api_returns_the_json_keys_and_keeps_to_the_budget() {
    let script = format!(
        r#"let r = rules("startrek");
let s = r.sweep("{HC}", "{KBC}", "{SHIELDS}", [8, 8], 200);
print(s.parameter + "|" + s.points.len() + "|" + (s.points[0].a.wins == s.points[1].a.wins));
let m = r.matrix(["UFP frigate", "Transport"], 50);
print(m.cells.len() + "|" + m.strength[0].points);
let b = r.balance("UFP frigate", "Transport", "/ships/Transport/shields", #{{ precision: 0.25, min: 2, max: 6 }});
print(b.tried[0].value + "|" + b.tried[1].value);
"#
    );
    Test::new()
        .file("lab.rhai", &script)
        .args(["run", "lab.rhai"])
        .stdout(format!("{SHIELDS}|2|true\n2|100\n2|6\n"))
        .run();
    // 120,000 battles is over the script's time limit: stopped with its reason.
    Test::new()
        .file("big.rhai", "rules(\"startrek\").sweep(\"UFP frigate\", \"Transport\", \"combat.start_distance\", [4, 5, 6, 7], 30000);")
        .args(["run", "big.rhai"])
        .status(1)
        .stderr_has("ran out of time")
        .run();
    Test::new()
        .file("huge.rhai", "rules(\"startrek\").matrix([], 100000);")
        .args(["run", "huge.rhai"])
        .status(1)
        .stderr_has("more than a script call fights")
        .run();
}

#[test]
fn a_sweep_of_a_tactic_knob_changes_how_the_default_tactic_plays() {
    // The same seeds at both points: any difference is the knob's.
    let d = json(&[
        "combat",
        "sweep",
        "UFP heavy cruiser",
        "Klingon battle cruiser",
        "--set",
        "tactic.preferred_range=1,4",
        "-n",
        "1000",
        "--json",
    ]);
    let points = d["points"].as_array().unwrap();
    assert_eq!(points.len(), 2);
    assert_ne!(points[0]["a"], points[1]["a"], "{d}");
}
