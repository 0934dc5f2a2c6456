//! The scoring section of rulesets: every parameter checked at its place.
mod common;
use common::*;

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
    let e = check("extends: advciv\nscoring:\n  pot:\n    stake: -5\n", ".yaml");
    assert!(e.contains(":4:12:") && e.contains("cannot be negative"), "{e}");
    let e = check("extends: cep\nscoring:\n  cep:\n    grade: { clamp: -1 }\n", ".yaml");
    assert!(e.contains("`clamp` cannot be negative"), "{e}");
    let e = check("extends: elo\nscoring:\n  elo:\n    scale: 0\n", ".yaml");
    assert!(e.contains(":4:12:") && e.contains("positive"), "{e}");
}

#[test]
fn the_k_formula_may_only_read_rating_and_games() {
    let e = check("extends: elo\nscoring:\n  elo:\n    k: 40 - wins\n", ".yaml");
    assert!(e.contains(":4:13:") && e.contains("unknown variable `wins`"), "{e}");
}

#[test]
fn two_ranks_that_differ_only_by_accent_are_one_rank() {
    let e = check("extends: cep\nscoring:\n  cep:\n    ranks:\n      capitan: 7\n", ".yaml");
    assert!(e.contains(":5:7:") && e.contains("same name as `capitán`"), "{e}");
}
