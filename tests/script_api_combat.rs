//! `simulate` and `volley` from scripts, through `arbiter run`: the combat commands' JSON, ship
//! edits feeding the next simulation, rhai tactics (deterministic whatever the thread count),
//! and tactics that fail.
use crate::common::*;
use serde_json::Value;

const A: &str = "UFP heavy cruiser";
const B: &str = "Klingon battle cruiser";

fn run_script(script: &str) -> String {
    let f = temp_file(script, ".rhai");
    ok(&["run", path(&f)])
}

fn run_fails(script: &str) -> (String, String) {
    let f = temp_file(script, ".rhai");
    (fails(&["run", path(&f)]), path(&f).to_string())
}

fn script_json(script: &str) -> Value {
    let out = run_script(script);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}):\n{out}"))
}

/// The script's report without `by_turn` (which the command leaves to its chart), after
/// checking that the by-turn counts add up to the totals.
fn summary(mut report: Value) -> Value {
    let by_turn = report
        .as_object_mut()
        .unwrap()
        .remove("by_turn")
        .expect("scripts get battles by turn");
    let total = |key: &str| {
        by_turn
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t[key].as_u64().unwrap())
            .sum::<u64>()
    };
    assert_eq!(total("a_wins"), report["a"]["wins"].as_u64().unwrap());
    assert_eq!(total("b_wins"), report["b"]["wins"].as_u64().unwrap());
    assert_eq!(total("draws"), report["draws"].as_u64().unwrap());
    assert_eq!(total("escapes"), report["escapes"].as_u64().unwrap());
    report
}

#[test]
fn simulate_is_the_sim_commands_json() {
    let from_script = summary(script_json(&format!(
        "print(simulate(\"{A}\", \"{B}\", 300, 5).to_json());"
    )));
    let from_cli = json(&["combat", "sim", A, B, "-n", "300", "--seed", "5"]);
    same_data(&from_script, &from_cli, "");
    assert_eq!(from_script["battles"], 300);
    assert_eq!(from_script["seed"], 5);
    let a = &from_script["a"];
    assert_eq!(
        a["wins"].as_u64().unwrap()
            + from_script["b"]["wins"].as_u64().unwrap()
            + from_script["draws"].as_u64().unwrap()
            + from_script["escapes"].as_u64().unwrap(),
        300
    );
}

#[test]
fn a_ship_edited_in_the_script_is_what_the_next_simulation_flies() {
    // Shields 10 → 3 from the script, and the same change as a house-rule file for the CLI.
    let out = run_script(&format!(
        "let r = rules(\"startrek\");\nlet before = r.simulate(\"{A}\", \"{B}\", 400, 2);\nr.ship(\"{A}\").shields = 3;\nlet after = r.simulate(\"{A}\", \"{B}\", 400, 2);\nprint(before.b.win_rate);\nprint(after.b.win_rate);\nprint(after.to_json());"
    ));
    let lines: Vec<&str> = out.lines().collect();
    let (before, after): (f64, f64) = (lines[0].parse().unwrap(), lines[1].parse().unwrap());
    assert!(
        after > before + 0.1,
        "weaker shields must lose more often: {before} -> {after}"
    );
    let dir = tempfile::tempdir().unwrap();
    let house = dir.path().join("house.rules");
    std::fs::write(
        &house,
        format!("extends startrek\nships {{\n  \"{A}\" {{ shields = 3 }}\n}}\n"),
    )
    .unwrap();
    let cli = json(&[
        "combat",
        "sim",
        A,
        B,
        "-n",
        "400",
        "--seed",
        "2",
        "--rules",
        house.to_str().unwrap(),
    ]);
    // The same battles; the provenance differs, since the script's ruleset is startrek changed
    // in the session and the command's is a house-rule file.
    let from_script = summary(serde_json::from_str(lines[2]).unwrap());
    same_data(
        &without_provenance(from_script.clone()),
        &without_provenance(cli),
        "",
    );
    let startrek = ok(&["rules", "hash", "startrek"]);
    let changed = from_script["ruleset_sha256"].as_str().unwrap();
    assert_eq!(changed.len(), 64);
    assert!(
        !startrek.starts_with(changed),
        "an edited ruleset has its own hash"
    );
}

#[test]
fn volley_is_the_volley_commands_json() {
    let from_script = script_json(&format!("print(volley(\"{A}\", \"{B}\", 5, 4).to_json());"));
    same_data(
        &from_script,
        &(json(&["combat", "volley", A, B, "--range", "5", "--dice", "4"])),
        "",
    );
    let torpedo = script_json("print(rules(\"startrek\").volley(\"Romulan bird of prey\", \"UFP frigate\", 3, \"torpedo\").to_json());");
    same_data(
        &torpedo,
        &(json(&[
            "combat",
            "volley",
            "Romulan bird of prey",
            "UFP frigate",
            "--range",
            "3",
            "--torpedo",
        ])),
        "",
    );
    // Without dice: every phaser die the attacker has, as the command.
    let all = script_json(&format!("print(volley(\"{A}\", \"{B}\", 2).to_json());"));
    same_data(
        &all,
        &(json(&["combat", "volley", A, B, "--range", "2"])),
        "",
    );
}

#[test]
fn a_changed_gunnery_penalty_changes_the_volley() {
    // Hit chance falls with range by the ruleset's penalty: no penalty, the same at 1 and 8.
    let out = run_script(&format!(
        "let r = rules(\"startrek\");\nlet far = r.volley(\"{A}\", \"{B}\", 8, 4).hit_chance;\nr.combat.phasers.range_penalty = 0;\nprint(far < r.volley(\"{A}\", \"{B}\", 8, 4).hit_chance);\nprint(r.volley(\"{A}\", \"{B}\", 8, 4).hit_chance == r.volley(\"{A}\", \"{B}\", 1, 4).hit_chance);"
    ));
    assert_eq!(out, "true\ntrue\n");
}

#[test]
fn a_tactic_that_holds_fire_never_wins() {
    let out = run_script(&format!(
        "fn hold(me, enemy, ctx) {{ #{{ fire_at: 2.0, torpedo_at: 2.0 }} }}\nlet x = simulate(\"{A}\", \"{B}\", 200, 3, #{{ tactic_a: Fn(\"hold\") }});\nprint(x.a.wins);\nprint(x.b.wins > 0);\nlet y = simulate(\"{A}\", \"{B}\", 200, 3);\nprint(y.a.wins > 0);"
    ));
    assert_eq!(out, "0\ntrue\ntrue\n");
}

#[test]
fn a_rhai_tactic_gives_the_same_result_whatever_the_thread_count() {
    let script = format!(
        "fn careful(me, enemy, ctx) {{\n  if me.hull_left < 6 {{ return #{{ flee: true }}; }}\n  if ctx.turn < 3 {{ #{{ range: 5 }} }} else {{ #{{ range: 2, fire_at: 0.05 }} }}\n}}\nlet one = simulate(\"{A}\", \"{B}\", 30, 9, #{{ tactic_a: Fn(\"careful\"), threads: 1 }});\nlet two = simulate(\"{A}\", \"{B}\", 30, 9, #{{ tactic_a: Fn(\"careful\"), threads: 2 }});\nlet four = simulate(\"{A}\", \"{B}\", 30, 9, #{{ tactic_a: Fn(\"careful\"), threads: 4 }});\nprint(one.to_json() == two.to_json() && two.to_json() == four.to_json());\nprint(one.to_json() != simulate(\"{A}\", \"{B}\", 30, 9).to_json());\nfn runner(me, enemy, ctx) {{ #{{ flee: true }} }}\nlet run = simulate(\"{A}\", \"{B}\", 100, 9, #{{ tactic_a: Fn(\"runner\") }});\nprint(run.a.escaped > 40 && simulate(\"{A}\", \"{B}\", 100, 9).a.escaped < 5);"
    );
    // The last line: a side told to flee from the first turn jumps to warp in 45 battles of
    // 100 (the default Klingon catches it in the rest), one that fights on in 1.
    assert_eq!(run_script(&script), "true\ntrue\ntrue\n");
}

#[test]
fn tactics_from_a_file_and_from_a_closure() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hold.rhai");
    std::fs::write(
        &file,
        "// never fires\nfn tactic(me, enemy, ctx) {\n  #{ fire_at: 2.0, torpedo_at: 2.0 }\n}\n",
    )
    .unwrap();
    let out = run_script(&format!(
        "print(simulate(\"{A}\", \"{B}\", 100, 4, #{{ tactic_b: \"{}\" }}).b.wins);\nlet k = 2.0;\nlet hold = |me, enemy, ctx| #{{ fire_at: k, torpedo_at: k }};\nprint(simulate(\"{A}\", \"{B}\", 100, 4, #{{ tactic_a: hold }}).a.wins);",
        file.display()
    ));
    assert_eq!(out, "0\n0\n");
}

#[test]
fn a_failing_tactic_is_a_located_error() {
    let (err, file) = run_fails(&format!("fn t(me, enemy, ctx) {{\n  me.hull_left / 0\n}}\nsimulate(\"{A}\", \"{B}\", 50, 1, #{{ tactic_a: Fn(\"t\") }});\n"));
    assert!(
        err.contains(&format!("{file}:2:")) && err.contains("in tactic `t`"),
        "{err}"
    );
    let (err, _) = run_fails(&format!("fn t(me, enemy, ctx) {{ #{{ rnage: 2 }} }}\nsimulate(\"{A}\", \"{B}\", 50, 1, #{{ tactic_a: Fn(\"t\") }});\n"));
    assert!(
        err.contains("unknown order `rnage`") && err.contains("range"),
        "{err}"
    );
    let (err, _) = run_fails(&format!("fn t(me, enemy, ctx) {{ 5 }}\nsimulate(\"{A}\", \"{B}\", 50, 1, #{{ tactic_a: Fn(\"t\") }});\n"));
    assert!(err.contains("returns a map of orders"), "{err}");
    let (err, _) = run_fails(&format!(
        "simulate(\"{A}\", \"{B}\", 50, 1, #{{ tactic_a: Fn(\"nowhere\") }});\n"
    ));
    assert!(err.contains("no function `nowhere`"), "{err}");
}

#[test]
fn an_endless_tactic_ends_quickly_with_an_error() {
    let started = std::time::Instant::now();
    let (err, _) = run_fails(&format!("fn spin(me, enemy, ctx) {{\n  loop {{ }}\n}}\nrules(\"startrek\").simulate(\"{A}\", \"{B}\", 100000, 1, #{{ tactic_b: Fn(\"spin\") }});\n"));
    assert!(
        err.contains("in tactic `spin`") && err.contains("operation limit"),
        "{err}"
    );
    // A broken tactic is caught in a pilot battle, before the 100000 (a bound, not a benchmark).
    assert!(
        started.elapsed() < std::time::Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn combat_errors_are_clear() {
    let (err, _) = run_fails(&format!("simulate(\"{A}\", \"Borg cube\", 10, 1);"));
    assert!(err.contains("Borg cube"), "{err}");
    let (err, _) = run_fails(&format!("simulate(\"{A}\", \"{B}\", 0, 1);"));
    assert!(err.contains("battles"), "{err}");
    let (err, _) = run_fails(&format!("simulate(\"{A}\", \"{B}\", 10, -1);"));
    assert!(err.contains("seed"), "{err}");
    let (err, _) = run_fails(&format!(
        "simulate(\"{A}\", \"{B}\", 10, 1, #{{ threds: 2 }});"
    ));
    assert!(err.contains("threds") && err.contains("threads"), "{err}");
    let (err, _) = run_fails(&format!("volley(\"{A}\", \"{B}\", 5, 99);"));
    assert!(err.contains("99"), "{err}");
    let (err, _) = run_fails(&format!("volley(\"{A}\", \"{B}\", 5, \"laser\");"));
    assert!(err.contains("torpedo"), "{err}");
    let (err, _) = run_fails(&format!(
        "simulate(\"{A}\", \"{B}\", 10, 1, #{{ tactic_a: \"/etc/passwd\" }});"
    ));
    assert!(err.contains(".rhai"), "{err}");
}

#[test]
fn a_tactic_that_gives_no_orders_plays_as_the_classic_tactic() {
    // `()` keeps every choice of the classic tactic (whose knobs a script's orders are): the
    // same battles and the same report as the command line's classic against classic.
    let quiet = summary(script_json(&format!(
        "fn quiet(me, enemy, ctx) {{ if ctx.turn < 0 {{ #{{ range: 1 }} }} }}\nprint(simulate(\"{A}\", \"{B}\", 200, 6, #{{ tactic_a: Fn(\"quiet\"), tactic_b: Fn(\"quiet\") }}).to_json());"
    )));
    let classic = json(&[
        "combat",
        "sim",
        A,
        B,
        "-n",
        "200",
        "--seed",
        "6",
        "--tactic-a",
        "classic",
        "--tactic-b",
        "classic",
    ]);
    same_data(&quiet, &classic, "");
    // Sides without a script play the default tactic, which plays differently.
    let plain = summary(script_json(&format!(
        "print(simulate(\"{A}\", \"{B}\", 200, 6).to_json());"
    )));
    assert_ne!(plain, quiet);
}

#[test]
fn a_scenario_map_or_file_sets_the_battle() {
    let yaml = "rules: startrek\nturn_limit: 5\nfirst: b\na:\n  ship: Transporte\n  position: [0, 0]\n  facing: 0\nb:\n  ship: UFP heavy cruiser\n  position: [2, 0]\n  facing: 3\n  crew: { gunnery: 95 }\n";
    let f = temp_file(yaml, ".yaml");
    let from_file = summary(script_json(&format!(
        "print(simulate(\"x\", \"y\", 300, 5, #{{ scenario: \"{}\" }}).to_json());",
        path(&f)
    )));
    let cli = json(&[
        "combat",
        "sim",
        "--scenario",
        path(&f),
        "-n",
        "300",
        "--seed",
        "5",
    ]);
    same_data(&from_file, &cli.clone(), "");
    assert_eq!(from_file["a"]["name"], "Transport");
    assert_eq!(from_file["turn_limit"], 5);
    let from_map = summary(script_json("let s = #{ turn_limit: 5, first: \"b\", a: #{ ship: \"Transporte\", position: [0, 0], facing: 0 }, b: #{ ship: \"UFP heavy cruiser\", position: [2, 0], facing: 3, crew: #{ gunnery: 95 } } };\nprint(simulate(\"x\", \"y\", 300, 5, #{ scenario: s }).to_json());"));
    same_data(&from_map, &cli, "");
}

#[test]
fn a_tactic_defined_in_an_earlier_repl_entry_can_fly() {
    let o = run_stdin(
        &["repl", "--rules", "startrek"],
        &format!("fn hold(me, enemy, ctx) {{ #{{ fire_at: 2.0, torpedo_at: 2.0 }} }}\nlet x = r.simulate(\"{A}\", \"{B}\", 100, 2, #{{ tactic_a: Fn(\"hold\") }});\nprint(`held fire: ${{x.a.wins}} wins`);\n"),
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("held fire: 0 wins"), "{}", stdout(&o));
}
