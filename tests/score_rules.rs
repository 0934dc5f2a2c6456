//! The scoring section of rulesets: every parameter checked at its place.
use crate::common::*;

fn check(text: &str, suffix: &str) -> String {
    let f = temp_file(text, suffix);
    fails(&["rules", "check", path(&f)])
}

#[test]
fn the_built_in_scoring_rulesets_check_and_convert() {
    for r in ["cep", "figf", "advciv", "elo"] {
        ok(&["rules", "check", r]);
        let rules = ok(&["rules", "show", r, "--format", "rules"]);
        let f = temp_file(&rules, ".rules");
        ok(&["rules", "check", path(&f)]);
    }
}

#[test]
fn a_system_needs_its_parameters() {
    let e = check("name: x\nscoring:\n  system: pot\n", ".yaml");
    assert!(e.contains(":3:11:") && e.contains("a `pot` section"), "{e}");
}

#[test]
fn an_unknown_system_is_refused() {
    let e = check("name = x\nscoring {\n  system = glicko\n}\n", ".rules");
    assert!(e.contains(":3:12:") && e.contains("glicko"), "{e}");
}

#[test]
fn numbers_out_of_range_are_refused() {
    let e = check(
        "extends: advciv\nscoring:\n  pot:\n    stake: -5\n",
        ".yaml",
    );
    assert!(
        e.contains(":4:12:") && e.contains("cannot be negative"),
        "{e}"
    );
    let e = check(
        "extends: cep\nscoring:\n  cep:\n    grade: { clamp: -1 }\n",
        ".yaml",
    );
    assert!(e.contains("`clamp` cannot be negative"), "{e}");
    let e = check("extends: elo\nscoring:\n  elo:\n    scale: 0\n", ".yaml");
    assert!(e.contains(":4:12:") && e.contains("positive"), "{e}");
}

#[test]
fn the_k_formula_may_only_read_rating_and_games() {
    let e = check(
        "extends: elo\nscoring:\n  elo:\n    k: 40 - wins\n",
        ".yaml",
    );
    assert!(
        e.contains(":4:13:") && e.contains("unknown variable `wins`"),
        "{e}"
    );
}

#[test]
fn two_ranks_that_differ_only_by_accent_are_one_rank() {
    // In one file: an error at the second spelling.
    let base = ok(&["rules", "show", "cep", "--format", "yaml"])
        .replace("capitán: 3,", "capitán: 3, capitan: 3,");
    let f = temp_file(&base, ".yaml");
    let e = fails(&["rules", "check", path(&f)]);
    assert!(e.contains("same name as `capitán`"), "{e}");
    // In an overlay: the key matches the base's rank, whose spelling is kept.
    let f = temp_file(
        "extends: cep\nscoring:\n  cep:\n    ranks:\n      capitan: 7\n",
        ".yaml",
    );
    let v: serde_json::Value =
        serde_json::from_str(&ok(&["rules", "show", path(&f), "--format", "json"])).unwrap();
    assert_eq!(v["scoring"]["cep"]["ranks"]["capitán"], 7);
    assert!(v["scoring"]["cep"]["ranks"].get("capitan").is_none());
}
