//! The script API through `arbiter run`: rulesets read and changed, dice, errors with places.
use crate::common::*;

/// Run a script (with extra arguments) and return its standard output.
fn run_script(script: &str, extra: &[&str]) -> String {
    let f = temp_file(script, ".rhai");
    let mut args = vec!["run", path(&f)];
    args.extend_from_slice(extra);
    ok(&args)
}

fn shown(ruleset: &str) -> serde_json::Value {
    serde_json::from_str(&ok(&["rules", "show", ruleset, "--format", "json"])).unwrap()
}

fn run_fails(script: &str, extra: &[&str]) -> (String, String) {
    let f = temp_file(script, ".rhai");
    let mut args = vec!["run", path(&f)];
    args.extend_from_slice(extra);
    (fails(&args), path(&f).to_string())
}

#[test]
fn dice_gives_the_exact_distribution_like_the_dice_command() {
    let out = run_script("let d = dice(\"3D6\");\nprint(`${d.dice} ${d.min} ${d.max} ${d.mean}`);\nprint(d.distribution[\"10\"] * 216.0);\nlet total = 0.0; for p in d.distribution.values() { total += p; } print(total);", &[]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "3D6 3 18 10.5");
    assert!(
        (lines[1].parse::<f64>().unwrap() - 27.0).abs() < 1e-9,
        "27 of 216 rolls make 10: {}",
        lines[1]
    );
    assert!((lines[2].parse::<f64>().unwrap() - 1.0).abs() < 1e-12);
    let cli = json(&["dice", "3D6"]);
    assert_eq!(cli["min"], 3);
    assert_eq!(cli["max"], 18);
}

#[test]
fn dice_with_modifiers_and_sums() {
    let out = run_script("let d = dice(\"2D6+1D3\");\nprint(`${d.min} ${d.max} ${d.mean}`);\nlet e = dice(\"4D6-2\"); print(`${e.min} ${e.max}`);", &[]);
    assert_eq!(out, "3 15 9.0\n2 22\n");
}

#[test]
fn seeded_rolls_repeat_and_stay_in_range() {
    let script = "let g = rng(42);\nlet a = g.rolls(\"2D6\", 50);\nlet h = rng(42);\nlet b = h.rolls(\"2D6\", 50);\nprint(a == b);\nprint(a.all(|x| x >= 2 && x <= 12));\nprint(rng(1).rolls(\"D100\", 20) == rng(2).rolls(\"D100\", 20));";
    assert_eq!(run_script(script, &[]), "true\ntrue\nfalse\n");
}

#[test]
fn a_bad_dice_expression_is_a_located_error() {
    let (err, file) = run_fails("let x = 1;\nlet d = dice(\"3X6\");\n", &[]);
    assert!(
        err.strip_prefix("error: ")
            .unwrap_or_else(|| panic!("no `error: ` in {}", err))
            .starts_with(&format!("{file}:2:9: "))
            && err.contains("not dice notation"),
        "{err}"
    );
}

#[test]
fn ships_are_read_by_name_or_alias() {
    let out = run_script(
        "let r = rules(\"startrek\");\nlet s = r.ship(\"crucero pesado de la ufp\");\nprint(s.shields);\nprint(s.hull);\nprint(r.ship_names()[0]);\nprint(r.ships.keys() == r.ship_names());\nprint(r.ship_names().len());\nprint(r.ship(\"UFP HEAVY CRUISER\").shields);",
        &[],
    );
    let shown = shown("startrek");
    let ships = shown["ships"].as_object().unwrap();
    assert_eq!(
        out,
        format!(
            "10\n3D6/3D3\nUFP heavy cruiser\ntrue\n{}\n10\n",
            ships.len()
        )
    );
}

#[test]
fn a_ship_edit_writes_back_into_the_ruleset() {
    let out = run_script(
        "let r = rules(\"startrek\");\nr.ship(\"UFP heavy cruiser\").shields = 9;\nprint(r.get(\"ships.UFP heavy cruiser.shields\"));\nlet s = r.ship(\"UFP heavy cruiser\");\ns.max_speed += 1;\nprint(r.ship(\"ufp heavy cruiser\").max_speed);\nprint(r.changes().to_json());",
        &[],
    );
    assert_eq!(
        out,
        "9\n4\n{\"ships\":{\"UFP heavy cruiser\":{\"max_speed\":4,\"shields\":9}}}\n"
    );
}

#[test]
fn cep_values_read_and_change() {
    let out = run_script(
        "let r = rules(\"cep\");\nprint(r.ship(\"trialon\").value);\nprint(r.ship(\"virel\").value);\nr.ship(\"trialon\").value = 30;\nprint(r.ship(\"Trialón\").value);",
        &[],
    );
    assert_eq!(out, "27.0\n63.0\n30.0\n");
}

#[test]
fn sections_read_and_write_as_properties_and_by_path() {
    let out = run_script(
        "let r = rules(\"startrek\");\nprint(r.combat.start_distance);\nr.combat.start_distance = 6;\nprint(r.get(\"combat.start_distance\"));\nr.set(\"/combat/start_distance\", 7);\nprint(r[\"combat\"][\"start_distance\"]);\nprint(r.name);",
        &[],
    );
    assert_eq!(out, "10\n6\n7\nstartrek\n");
}

#[test]
fn a_refused_change_leaves_the_ruleset_as_it_was() {
    let (err, file) = run_fails(
        "let r = rules(\"startrek\");\nr.ship(\"UFP heavy cruiser\").shields = \"thick\";\n",
        &[],
    );
    assert!(
        err.strip_prefix("error: ")
            .unwrap_or_else(|| panic!("no `error: ` in {}", err))
            .starts_with(&format!("{file}:2:28: ")),
        "{err}"
    );
    assert!(
        err.contains("cannot set `ships.UFP heavy cruiser.shields` to \"thick\"")
            && err.contains("whole number"),
        "{err}"
    );
    let out = run_script(
        "let r = rules(\"startrek\");\ntry { r.set(\"ships.UFP heavy cruiser.generator\", \"2 * warp\"); } catch (e) { print(e); }\nprint(r.ship(\"UFP heavy cruiser\").generator == ());",
        &[],
    );
    assert!(out.contains("unknown variable `warp`"), "{out}");
    // The ship still takes the ruleset-wide generator formula (it has none of its own).
    assert!(out.ends_with("true\n"), "{out}");
}

#[test]
fn unknown_ships_and_fields_suggest_the_right_name() {
    let (err, _) = run_fails(
        "let r = rules(\"startrek\");\nr.ship(\"UFP heavy crusier\").shields\n",
        &[],
    );
    assert!(err.contains("did you mean `UFP heavy cruiser`"), "{err}");
    let (err, _) = run_fails(
        "let r = rules(\"startrek\");\nr.ship(\"UFP heavy cruiser\").sheilds = 3;\n",
        &[],
    );
    assert!(
        err.contains("has no `sheilds` (did you mean `shields`?)"),
        "{err}"
    );
    let (err, _) = run_fails("rules(\"startrak\")\n", &[]);
    assert!(err.contains("startrek"), "{err}");
}

#[test]
fn copies_are_independent_and_plain_assignment_shares() {
    let out = run_script(
        "let r = rules(\"startrek\");\nlet same = r;\nlet v = r.copy();\nv.ship(\"UFP heavy cruiser\").shields = 7;\nsame.ship(\"UFP heavy cruiser\").shields = 8;\nprint([r.ship(\"UFP heavy cruiser\").shields, v.ship(\"UFP heavy cruiser\").shields]);",
        &[],
    );
    assert_eq!(out, "[8, 7]\n");
}

#[test]
fn extend_applies_an_overlay_map_or_file() {
    let overlay = temp_file("extends: startrek\nships:\n  +Scout:\n    shields: 4\n    phasers: 2D6\ncombat:\n  start_distance: 5\n", ".yaml");
    let script = format!(
        "let r = rules(\"startrek\");\nr.extend(\"{}\");\nprint(r.ship_names());\nprint(r.combat.start_distance);\nr.extend(#{{ ships: #{{ Scout: () }} }});\nprint(r.ship_names());",
        path(&overlay)
    );
    let out = run_script(&script, &[]);
    let lines: Vec<&str> = out.lines().collect();
    // The overlay's ship joins after the ruleset's own; `()` removes it again.
    assert!(
        lines[0].starts_with("[\"UFP heavy cruiser\", ") && lines[0].ends_with(", \"Scout\"]"),
        "{out}"
    );
    assert_eq!(lines[1], "5");
    assert_eq!(lines[2], lines[0].replace(", \"Scout\"", ""));
    let bad = temp_file("ships:\n  Scout:\n    sheilds: 4\n", ".yaml");
    let (err, _) = run_fails(
        &format!("rules(\"startrek\").extend(\"{}\");\n", path(&bad)),
        &[],
    );
    assert!(
        err.contains(&format!("{}:3:5", path(&bad))) && err.contains("sheilds"),
        "{err}"
    );
}

#[test]
fn save_writes_a_ruleset_that_loads_back_in_either_format() {
    let dir = tempfile::tempdir().unwrap();
    // Scripts write under the current folder: run there.
    let write = |script: &str| {
        std::fs::write(dir.path().join("write.rhai"), script).unwrap();
        let o = run_in(dir.path(), &["run", "write.rhai", "--allow-write"], None);
        assert!(o.status.success(), "{}", stderr(&o));
    };
    for file in ["variant.rules", "variant.yaml", "variant.json"] {
        let out = dir.path().join(file);
        write(&format!("let r = rules(\"startrek\");\nr.ship(\"UFP heavy cruiser\").shields = 9;\nr.save(\"{file}\");\n"));
        let shown = shown(out.to_str().unwrap());
        assert_eq!(shown["ships"]["UFP heavy cruiser"]["shields"], 9, "{file}");
        assert_eq!(shown["combat"]["start_distance"], 10, "{file}");
    }
    let house = dir.path().join("house.rules");
    write("let r = rules(\"startrek\");\nr.combat.start_distance = 8;\nr.save_changes(\"house.rules\");\n");
    let text = std::fs::read_to_string(&house).unwrap();
    assert!(text.starts_with("extends startrek"), "{text}");
    assert!(!text.contains("UFP"), "only the changes: {text}");
    let shown = shown(house.to_str().unwrap());
    assert_eq!(shown["combat"]["start_distance"], 8);
    assert_eq!(shown["ships"]["UFP heavy cruiser"]["shields"], 10);
}

#[test]
fn save_refuses_an_unknown_format() {
    let (err, _) = run_fails(
        "rules(\"startrek\").save(\"variant.txt\");\n",
        &["--allow-write"],
    );
    assert!(
        err.contains("variant.txt: a ruleset file ends in .rules, .yaml, .yml, .json"),
        "{err}"
    );
}

#[test]
fn the_rules_option_gives_r_and_rules() {
    let out = run_script(
        "print(r.name);\nprint(rules().ship_names());\n",
        &["--rules", "cep"],
    );
    assert_eq!(out.lines().next().unwrap(), "cep");
    let (err, _) = run_fails("rules().name\n", &[]);
    assert!(err.contains("no ruleset chosen"), "{err}");
}

#[test]
fn arguments_after_the_double_dash_are_args() {
    let out = run_script(
        "print(ARGS.len());\nprint(ARGS[1]);\n",
        &["--", "3D6", "--json"],
    );
    assert_eq!(out, "2\n--json\n");
}

#[test]
fn errors_name_the_script_line_and_column() {
    let (err, file) = run_fails("let a = 1;\nlet b = a +;\n", &[]);
    assert!(
        err.strip_prefix("error: ")
            .unwrap_or_else(|| panic!("no `error: ` in {}", err))
            .starts_with(&format!("{file}:2:")),
        "{err}"
    );
    assert!(
        err.contains(" 2 | let b = a +;"),
        "the line is shown: {err}"
    );
    let (err, file) = run_fails("fn half(x) {\n  x / 0\n}\nhalf(4)\n", &[]);
    assert!(
        err.strip_prefix("error: ")
            .unwrap_or_else(|| panic!("no `error: ` in {}", err))
            .starts_with(&format!("{file}:2:5: "))
            && err.contains("in `half` called at 4:1"),
        "{err}"
    );
    let (err, file) = run_fails(
        "let r = rules(\"startrek\");\n\n  throw \"house rule refused\";\n",
        &[],
    );
    assert!(
        err.strip_prefix("error: ")
            .unwrap_or_else(|| panic!("no `error: ` in {}", err))
            .starts_with(&format!("{file}:3:3: house rule refused")),
        "{err}"
    );
}

#[test]
fn a_missing_script_is_a_clear_error() {
    let err = fails(&["run", "no/such/script.rhai"]);
    assert!(err.contains("no/such/script.rhai: no such file"), "{err}");
}

#[test]
fn scripts_catch_errors_as_maps_in_their_own_words() {
    let out = run_script(
        "try { rules(\"startrak\") } catch (e) {\n  print(type_of(e)); print(e.kind); print(e.message); print(e.option == ());\n}\n\
         try { schedule(6, #{method: \"balanced\", shuffle: true}) } catch (e) {\n  print(e.kind); print(e.option); print(e.message);\n}\n",
        &[],
    );
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "map", "{out}");
    assert_eq!(lines[1], "unknown_name", "{out}");
    assert!(lines[2].contains("did you mean `startrek`"), "{out}");
    assert_eq!(lines[3], "true", "{out}");
    assert_eq!(lines[4], "conflict", "{out}");
    assert_eq!(lines[5], "shuffle", "{out}");
    // A script is told the option's own name, never a command-line flag.
    assert!(lines[6].starts_with("`shuffle` would undo"), "{out}");
    assert!(!out.contains("--"), "{out}");
}

#[test]
fn an_uncaught_error_prints_as_before() {
    let (err, _) = run_fails("rules(\"startrak\")\n", &[]);
    assert!(err.contains("did you mean `startrek`"), "{err}");
    assert!(!err.contains("#{"), "{err}");
}
