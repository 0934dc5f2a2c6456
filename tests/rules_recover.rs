//! `rules check` reports every problem of a file, each at its line and column: a syntax error
//! in one entry does not hide an unknown key in the next or a bad value in a third.
use crate::common::*;

const THREE_KINDS: &str = "extends startrek\n\
ships {\n  \"UFP heavy cruiser\" {\n    shields = = 3\n  }\n\
  \"Klingon battle cruiser\" {\n    sheilds = 4\n  }\n\
  \"Romulan battle cruiser\" {\n    shields = \"ten\"\n  }\n}\n";

#[test]
fn a_syntax_error_an_unknown_key_and_a_bad_value_are_all_reported() {
    let ran = Test::new()
        .file("house.rules", THREE_KINDS)
        .args(["rules", "check", "house.rules"])
        .status(1)
        .stderr_has("error: house.rules:4:15: expected a value\n")
        .stderr_has(
            "error: house.rules:7:5: unknown field `sheilds` (did you mean `shields`?); the \
             fields here are",
        )
        .stderr_has("error: house.rules:10:15: wrong type: found string \"ten\"")
        .stderr_has("error: house.rules: 3 problems\n")
        .run();
    // In the order of the file, each with its line shown.
    let at = |needle: &str| ran.stderr.find(needle).unwrap();
    assert!(at(":4:15:") < at(":7:5:") && at(":7:5:") < at(":10:15:"));
    assert!(
        ran.stderr.contains(" 7 |     sheilds = 4\n"),
        "{}",
        ran.stderr
    );
}

#[test]
fn a_key_left_without_value_and_a_string_left_open_are_one_problem_each() {
    let text = "extends startrek\nships {\n  \"UFP heavy cruiser\" {\n    shields =\n    \
                structure = 3\n  }\n  \"UFP\n  \"Gorn attack cruiser\" { max_speed = -1 }\n}\n";
    Test::new()
        .file("house.rules", text)
        .args(["rules", "check", "house.rules"])
        .status(1)
        .stderr_has("error: house.rules:4:13: `shields =` has no value")
        .stderr_has("error: house.rules:7:3: this string is never closed")
        .stderr_has("error: house.rules:8:39: wrong value: found integer `-1`")
        .stderr_has("error: house.rules: 3 problems\n")
        .run();
}

#[test]
fn yaml_reports_every_problem_too() {
    let text = "extends: startrek\nships:\n  UFP heavy cruiser:\n    shields: 3: 4\n  \
                Klingon battle cruiser:\n    sheilds: 4\n  Romulan battle cruiser:\n    \
                shields: ten\n";
    let ran = Test::new()
        .file("house.yaml", text)
        .args(["rules", "check", "house.yaml"])
        .status(1)
        .stderr_has("error: house.yaml:6:5: unknown field `sheilds` (did you mean `shields`?)")
        .stderr_has("error: house.yaml:8:14: wrong type")
        .run();
    assert!(
        ran.stderr
            .contains("error: house.yaml:4:15: YAML: mapping values are not allowed"),
        "{}",
        ran.stderr
    );
    assert!(
        ran.stderr.contains("error: house.yaml: 3 problems\n"),
        "{}",
        ran.stderr
    );
}

#[test]
fn a_file_with_one_problem_reads_as_before_and_a_good_one_passes() {
    Test::new()
        .file(
            "house.rules",
            "extends startrek\nships {\n  \"UFP heavy cruiser\" {\n    shields = 13\n  }\n}\n",
        )
        .args(["rules", "check", "house.rules"])
        .stdout_regex(r"^house\.rules: ok \(ruleset `startrek`, \d+ ships\)\n$")
        .run();
    let ran = Test::new()
        .file(
            "house.rules",
            "extends startrek\nships {\n  \"UFP heavy cruiser\" {\n    sheilds = 13\n  }\n}\n",
        )
        .args(["rules", "check", "house.rules"])
        .status(1)
        .stderr_regex(r"^error: house\.rules:4:5: unknown field `sheilds`")
        .stderr_has("error: 1 of 1 rulesets failed the check\n")
        .run();
    assert!(!ran.stderr.contains("problems"), "{}", ran.stderr);
}

#[test]
fn at_most_a_hundred_problems_are_reported() {
    let mut text = String::from("extends startrek\nships {\n  \"UFP heavy cruiser\" {\n");
    for i in 0..250 {
        text.push_str(&format!("    sheilds{i} = 1\n"));
    }
    text.push_str("  }\n}\n");
    Test::new()
        .file("house.rules", text)
        .args(["rules", "check", "house.rules"])
        .status(1)
        .stderr_has("error: house.rules: 100 problems\n")
        .stderr_has("house.rules:103:5: unknown field `sheilds99`")
        .run();
}
