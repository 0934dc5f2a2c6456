//! `combat sim`: the agreed JSON, determinism across threads, sanity, --vs, --plot, scenarios.
use crate::common::*;

const HC: &str = "UFP heavy cruiser";
const KBC: &str = "Klingon battle cruiser";

#[test]
fn sim_json_has_the_agreed_keys() {
    let d = json(&["combat", "sim", HC, KBC, "-n", "200", "--seed", "1"]);
    assert_eq!(d["battles"], 200);
    assert_eq!(d["seed"], 1);
    for side in ["a", "b"] {
        let s = &d[side];
        assert!(
            s["name"].is_string() && s["wins"].is_u64() && s["win_rate"].is_f64(),
            "{s}"
        );
        let ci = s["ci95"].as_array().unwrap();
        let (lo, hi, p) = (
            ci[0].as_f64().unwrap(),
            ci[1].as_f64().unwrap(),
            s["win_rate"].as_f64().unwrap(),
        );
        assert!(lo <= p && p <= hi && lo >= 0.0 && hi <= 1.0, "{s}");
    }
    assert_eq!(d["a"]["name"], HC);
    let total = d["a"]["wins"].as_u64().unwrap()
        + d["b"]["wins"].as_u64().unwrap()
        + d["draws"].as_u64().unwrap()
        + d["escapes"].as_u64().unwrap();
    assert_eq!(total, 200, "every battle ends one way: {d}");
    let turns = d["mean_turns"].as_f64().unwrap();
    assert!(turns >= 1.0 && turns <= d["turn_limit"].as_f64().unwrap());
}

#[test]
fn same_seed_same_result_whatever_the_thread_count() {
    let one = ok(&[
        "combat",
        "sim",
        HC,
        KBC,
        "-n",
        "600",
        "--seed",
        "9",
        "--threads",
        "1",
        "--json",
    ]);
    let two = ok(&[
        "combat",
        "sim",
        HC,
        KBC,
        "-n",
        "600",
        "--seed",
        "9",
        "--threads",
        "2",
        "--json",
    ]);
    let four = ok(&[
        "combat",
        "sim",
        HC,
        KBC,
        "-n",
        "600",
        "--seed",
        "9",
        "--threads",
        "4",
        "--json",
    ]);
    assert_eq!(one, two);
    assert_eq!(one, four);
    let other = ok(&[
        "combat",
        "sim",
        HC,
        KBC,
        "-n",
        "600",
        "--seed",
        "10",
        "--threads",
        "2",
        "--json",
    ]);
    assert_ne!(one, other, "another seed, other battles");
}

#[test]
fn heavy_cruiser_beats_a_transport_at_least_nine_times_in_ten() {
    let d = json(&[
        "combat",
        "sim",
        HC,
        "Transport",
        "-n",
        "1000",
        "--seed",
        "3",
    ]);
    let rate = d["a"]["win_rate"].as_f64().unwrap();
    assert!(rate >= 0.9, "heavy cruiser won only {rate}: {d}");
    assert_eq!(d["b"]["wins"], 0);
}

#[test]
fn spanish_names_are_aliases() {
    let d = json(&[
        "combat",
        "sim",
        "Crucero pesado de la UFP",
        "Transporte",
        "-n",
        "50",
        "--seed",
        "2",
    ]);
    assert_eq!(d["a"]["name"], HC);
    assert_eq!(d["b"]["name"], "Transport");
    let e = json(&[
        "combat",
        "sim",
        "crucero pesado de la ufp",
        "TRANSPORTE",
        "-n",
        "50",
        "--seed",
        "2",
    ]);
    assert_eq!(d, e);
}

#[test]
fn vs_runs_both_rulesets_on_the_same_seeds() {
    // A house rule that strips the heavy cruiser's shields: clearly worse for it.
    let house = temp_file(
        "extends startrek\nname = weak\nships {\n  \"UFP heavy cruiser\" { shields = 2 }\n}\n",
        ".rules",
    );
    let d = json(&[
        "combat",
        "sim",
        HC,
        KBC,
        "-n",
        "400",
        "--seed",
        "4",
        "--vs",
        path(&house),
    ]);
    assert_eq!(d["base"]["ruleset"], "startrek");
    assert_eq!(d["variant"]["ruleset"], "weak");
    assert_eq!(d["base"]["seed"], d["variant"]["seed"]);
    assert!(d["difference"].as_f64().unwrap() < 0.0, "{d}");
    assert_eq!(d["significant"], true, "{d}");
    // The verdict's numbers: win rates with one decimal, the p-value as "p < 0.001" or three
    // decimals.
    let verdict = d["verdict"].as_str().unwrap();
    let p = d["p_value"].as_f64().unwrap();
    let p_shown = if p < 0.001 {
        "p < 0.001".to_string()
    } else {
        format!("p = {p:.3}")
    };
    assert!(verdict.ends_with(&format!("{p_shown})")), "{verdict}");
    // Rounded as the report rounds: to the nearest tenth of a percent, halves away from 0
    // (11.25% shows as 11.3%, where `{:.1}` may print 11.2).
    let rate = |side: &str, run: &str| {
        let tenths = (d[run][side]["win_rate"].as_f64().unwrap() * 1000.0).round();
        format!("{:.1}%", tenths / 10.0)
    };
    assert!(
        verdict.contains(&format!("{} → {}", rate("a", "base"), rate("a", "variant"))),
        "{verdict}"
    );
    // The same ruleset against itself: identical, not significant.
    let same = json(&[
        "combat", "sim", HC, KBC, "-n", "200", "--seed", "4", "--vs", "startrek",
    ]);
    assert_eq!(same["difference"], 0.0);
    assert_eq!(same["significant"], false);
    assert!(
        same["verdict"]
            .as_str()
            .unwrap()
            .ends_with("chi-square 0.00, p = 1.000)"),
        "{same}"
    );
    let text = ok(&[
        "combat",
        "sim",
        HC,
        KBC,
        "-n",
        "200",
        "--seed",
        "4",
        "--vs",
        path(&house),
    ]);
    assert!(text.contains("significant"), "{text}");
}

#[test]
fn plot_writes_an_svg_of_outcomes_over_turns() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("outcomes.svg");
    let f = file.to_str().unwrap();
    ok(&[
        "combat", "sim", HC, KBC, "-n", "100", "--seed", "1", "--plot", f,
    ]);
    let svg = std::fs::read_to_string(&file).unwrap();
    assert!(
        svg.starts_with("<svg") && svg.contains("battles decided by turn") && svg.contains(HC),
        "{}",
        &svg[..200.min(svg.len())]
    );
}

#[test]
fn sim_table_for_people() {
    let out = ok(&["combat", "sim", HC, KBC, "-n", "100", "--seed", "1"]);
    assert!(
        out.contains("100 battles") && out.contains("95% CI") && out.contains("mean turns"),
        "{out}"
    );
}

#[test]
fn a_mirror_sim_labels_its_rows_by_side() {
    let out = ok(&["combat", "sim", KBC, KBC, "-n", "50", "--seed", "1"]);
    let rows: Vec<&str> = out.lines().filter(|l| l.starts_with(KBC)).collect();
    assert_eq!(rows.len(), 2, "{out}");
    assert!(rows[0].starts_with(&format!("{KBC} (a) ")), "{out}");
    assert!(rows[1].starts_with(&format!("{KBC} (b) ")), "{out}");
    assert!(
        out.contains(&format!("turns cloaked: {KBC} (a) ")),
        "the statistics line names sides too: {out}"
    );
    // So does the verdict of a comparison of two rulesets.
    let compared = ok(&[
        "combat", "sim", KBC, KBC, "-n", "50", "--seed", "1", "--vs", "startrek",
    ]);
    let verdict = compared.trim_end().lines().last().unwrap();
    assert!(
        verdict.starts_with(&format!("{KBC} (a) wins "))
            && verdict.contains(&format!(", {KBC} (b) wins ")),
        "{verdict}"
    );
    // The JSON keeps the ship's name as it is.
    let d = json(&[
        "combat", "sim", KBC, KBC, "-n", "50", "--seed", "1", "--json",
    ]);
    assert_eq!(d["a"]["name"], KBC);
    assert_eq!(d["b"]["name"], KBC);
}

#[test]
fn scenarios_set_ships_positions_crews_and_who_moves_first() {
    let s = temp_file(
        "rules: startrek\nturn_limit: 5\nfirst: b\nbattles: 300\nseed: 5\na:\n  ship: Transporte\n  position: [0, 0]\n  facing: 0\nb:\n  ship: UFP heavy cruiser\n  position: [2, 0]\n  facing: 3\n  crew: { gunnery: 95 }\n",
        ".yaml",
    );
    let d = json(&["combat", "sim", "--scenario", path(&s)]);
    assert_eq!(d["battles"], 300);
    assert_eq!(d["seed"], 5);
    assert_eq!(d["turn_limit"], 5);
    assert_eq!(d["a"]["name"], "Transport");
    assert!(d["mean_turns"].as_f64().unwrap() <= 5.0);
    assert!(d["b"]["win_rate"].as_f64().unwrap() > 0.7, "{d}");
    // The same scenario narrates as a duel.
    let duel = ok(&["combat", "duel", "--scenario", path(&s), "--seed", "1"]);
    assert!(duel.starts_with("Transport vs UFP heavy cruiser"), "{duel}");
    let first_move = duel
        .lines()
        .find(|l| l.contains("energy this turn"))
        .unwrap();
    assert!(
        first_move.starts_with("UFP heavy cruiser"),
        "b moves first: {first_move}"
    );
}

#[test]
fn bad_scenarios_point_at_the_line() {
    let s = temp_file(
        "a:\n  ship: UFP heavy cruiser\nb:\n  ship: Enterprise-D\n",
        ".yaml",
    );
    let e = fails(&["combat", "sim", "--scenario", path(&s)]);
    assert!(e.contains(":4:") && e.contains("Enterprise-D"), "{e}");
    let s = temp_file(
        "a:\n  ship: UFP heavy cruiser\n  facing: 9\nb:\n  ship: Transport\n",
        ".yaml",
    );
    assert!(fails(&["combat", "sim", "--scenario", path(&s)]).contains(":3:"));
    let s = temp_file(
        "a:\n  ship: UFP heavy cruiser\n  speed: 9\nb:\n  ship: Transport\n",
        ".yaml",
    );
    assert!(fails(&["combat", "sim", "--scenario", path(&s)]).contains("speed"));
    let s = temp_file(
        "a:\n  ship: UFP heavy cruiser\n  crew: { gunery: 70 }\nb:\n  ship: Transport\n",
        ".yaml",
    );
    assert!(fails(&["combat", "sim", "--scenario", path(&s)]).contains("gunnery"));
    let s = temp_file(
        "a:\n  ship: UFP heavy cruiser\n  position: [3000000000, 0]\nb:\n  ship: Transport\n",
        ".yaml",
    );
    fails(&["combat", "sim", "--scenario", path(&s)]);
    let s = temp_file("a:\n  ship: UFP heavy cruiser\n  position: [2000000, 0]\nb:\n  ship: Transport\nturn_limit: 4000000000\n", ".yaml");
    assert!(fails(&["combat", "sim", "--scenario", path(&s)]).contains(":3:"));
    assert!(fails(&["combat", "sim", "UFP heavy cruiser"]).contains("two ships"));
    assert!(fails(&["combat", "sim", HC, KBC, "--threads", "0"]).contains("threads"));
}

#[test]
fn the_headline_gives_every_outcome_kind_and_they_add_up() {
    let args = [
        "combat",
        "sim",
        "UFP heavy cruiser",
        "Klingon battle cruiser",
        "-n",
        "400",
    ];
    let text = ok(&args);
    let d = json(&[&args[..], &["--json"]].concat());
    let o = &d["outcomes"];
    let total: u64 = OUTCOME_KINDS.iter().map(|k| o[k].as_u64().unwrap()).sum();
    assert_eq!(total, 400, "{o}");
    assert_eq!(d["unfinished"], o["unfinished"]);
    assert_eq!(d["disengaged"], o["disengaged"]);
    let headline = text.lines().next().unwrap();
    for (kind, word) in OUTCOME_KINDS.iter().zip([
        "destroyed",
        "captured",
        "escaped by warp",
        "disengaged",
        "unfinished",
    ]) {
        let share = o[kind].as_f64().unwrap() / 400.0 * 100.0;
        let shown: f64 = headline
            .split(", ")
            .find_map(|part| {
                part.rsplit(": ")
                    .next()
                    .unwrap()
                    .strip_prefix(&format!("{word} "))
            })
            .and_then(|p| p.strip_suffix('%'))
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("{kind} in {headline}"));
        assert!(
            (shown - share).abs() <= 0.05 + 1e-9,
            "{headline} ({kind} {share}%)"
        );
    }
    assert!(!headline.contains("draw"), "{headline}");
}
