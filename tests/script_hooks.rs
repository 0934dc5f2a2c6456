//! Rule hooks: a ruleset names a rhai file for a rule its formulas cannot express. Loading the
//! ruleset compiles and runs the file in the sandbox; the hook is then callable.
use crate::common::*;
use std::path::Path;

/// A ruleset extending startrek with a hook `rule` in `file`, both in `dir`.
fn ruleset_with_hook(dir: &Path, rule: &str, hook_text: &str) -> String {
    std::fs::write(dir.join("hook.rhai"), hook_text).unwrap();
    let rules = dir.join("house.rules");
    std::fs::write(
        &rules,
        format!("extends startrek\nscript {{\n  hooks {{ {rule} = \"hook.rhai\" }}\n}}\n"),
    )
    .unwrap();
    rules.to_str().unwrap().to_string()
}

#[test]
fn a_hook_is_loaded_with_its_ruleset_and_callable() {
    let dir = tempfile::tempdir().unwrap();
    // Damage that halves above a threshold: easy in rhai, awkward in a formula.
    let rules = ruleset_with_hook(
        dir.path(),
        "damage",
        "const CAP = 10;\nfn damage(roll, shields) {\n  let over = roll - shields;\n  if over <= 0 { 0 } else if over > CAP { CAP + (over - CAP) / 2 } else { over }\n}\n",
    );
    assert!(ok(&["rules", "check", &rules]).contains("ok"));
    let script = temp_file("print(r.hook(\"damage\", [14, 10]));\nprint(r.hook(\"damage\", [30, 10]));\nprint(r.hook(\"damage\", [5, 10]));\n", ".rhai");
    assert_eq!(ok(&["run", path(&script), "--rules", &rules]), "4\n15\n0\n");
}

#[test]
fn a_hook_with_a_syntax_error_fails_the_load_at_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let rules = ruleset_with_hook(dir.path(), "damage", "fn damage(roll) {\n  roll +\n}\n");
    let err = fails(&["rules", "check", &rules]);
    let hook = dir.path().join("hook.rhai");
    assert!(err.contains(&format!("{}:3:1", hook.display())), "{err}");
}

#[test]
fn a_hook_must_define_its_rule() {
    let dir = tempfile::tempdir().unwrap();
    let rules = ruleset_with_hook(dir.path(), "damage", "fn harm(roll) { roll }\n");
    let err = fails(&["rules", "check", &rules]);
    assert!(
        err.contains("must define `fn damage(...)`") && err.contains("`harm`"),
        "{err}"
    );
}

#[test]
fn a_hostile_hook_stops_at_load() {
    let dir = tempfile::tempdir().unwrap();
    let rules = ruleset_with_hook(dir.path(), "damage", "loop { }\nfn damage(x) { x }\n");
    let err = fails(&["rules", "check", &rules]);
    assert!(
        err.contains("hook.rhai:1:6") && err.contains("operation limit"),
        "{err}"
    );
}

#[test]
fn a_missing_hook_file_is_reported_where_the_ruleset_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("house.rules");
    std::fs::write(
        &rules,
        "extends startrek\nscript {\n  hooks { damage = \"nowhere.rhai\" }\n}\n",
    )
    .unwrap();
    let err = fails(&["rules", "check", rules.to_str().unwrap()]);
    assert!(
        err.contains("house.rules:3:20") && err.contains("no such file"),
        "{err}"
    );
}

#[test]
fn a_hook_runs_under_the_rulesets_tightened_limits() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("hook.rhai"),
        "fn count(n) {\n  let i = 0;\n  while i < n { i += 1; }\n  i\n}\n",
    )
    .unwrap();
    let rules = dir.path().join("house.rules");
    std::fs::write(&rules, "extends startrek\nscript {\n  limits { max_operations = 2000 }\n  hooks { count = \"hook.rhai\" }\n}\n").unwrap();
    let script = temp_file(
        "print(r.hook(\"count\", [100]));\nprint(r.hook(\"count\", [100000]));\n",
        ".rhai",
    );
    let o = run(&["run", path(&script), "--rules", rules.to_str().unwrap()]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "100\n");
    let err = stderr(&o);
    assert!(
        err.contains("hook.rhai")
            && err.contains("operation limit")
            && err.contains("in hook `count`"),
        "{err}"
    );
}

#[test]
fn hooks_survive_edits_of_the_ruleset_in_a_script() {
    let dir = tempfile::tempdir().unwrap();
    let rules = ruleset_with_hook(dir.path(), "twice", "fn twice(x) { x * 2 }\n");
    let script = temp_file("r.ship(\"UFP heavy cruiser\").shields = 8;\nprint(r.hook(\"twice\", [21]));\nlet c = r.copy();\nc.combat.start_distance = 3;\nprint(c.hook(\"twice\", [5]));\n", ".rhai");
    assert_eq!(ok(&["run", path(&script), "--rules", &rules]), "42\n10\n");
}
