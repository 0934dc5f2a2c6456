//! A broken ruleset is reported at its file, line and column, with the line shown, exit 1.
use crate::common::*;

fn check_err(src: &str, suffix: &str) -> (String, String) {
    let f = temp_file(src, suffix);
    let err = fails(&["rules", "check", path(&f)]);
    (err, path(&f).to_string())
}

#[test]
fn a_syntax_error_names_line_and_column_with_a_caret() {
    let (err, p) = check_err(
        "name = x\nships {\n  s {\n    shields = 10 +\n  }\n}\n",
        ".rules",
    );
    assert!(
        err.strip_prefix("error: ")
            .unwrap_or_else(|| panic!("no `error: ` in {}", err))
            .starts_with(&format!("{p}:5:3: expected ")),
        "{err}"
    );
    assert!(
        err.contains("a number"),
        "human names for grammar rules: {err}"
    );
    assert!(!err.contains("Rule::"), "{err}");
    assert!(err.contains(" 5 |   }\n"), "the line is shown: {err}");
    assert!(err.contains("|   ^"), "a caret under the column: {err}");
}

#[test]
fn an_unclosed_block_is_reported() {
    let (err, p) = check_err("name = x\nships {\n  s { shields = 3 }\n", ".rules");
    assert!(
        err.strip_prefix("error: ")
            .unwrap_or_else(|| panic!("no `error: ` in {}", err))
            .starts_with(&format!("{p}:2:7: this `{{` is never closed")),
        "{err}"
    );
}

#[test]
fn a_misspelt_field_points_at_its_key_and_lists_the_fields() {
    let (err, p) = check_err(
        "name = x\nships {\n  s {\n      sheilds = 10\n  }\n}\n",
        ".rules",
    );
    assert!(
        err.strip_prefix("error: ")
            .unwrap_or_else(|| panic!("no `error: ` in {}", err))
            .starts_with(&format!("{p}:4:7: unknown field `sheilds`")),
        "{err}"
    );
    assert!(err.contains("`shields`"), "{err}");
}

#[test]
fn a_wrong_type_in_yaml_points_at_the_value() {
    let (err, p) = check_err("name: x\nships:\n  s:\n    shields: lots\n", ".yaml");
    assert!(
        err.strip_prefix("error: ")
            .unwrap_or_else(|| panic!("no `error: ` in {}", err))
            .starts_with(&format!("{p}:4:14:")),
        "{err}"
    );
    assert!(err.contains("wrong type"), "{err}");
}

#[test]
fn an_unknown_formula_variable_points_at_the_variable() {
    let (err, p) = check_err(
        "name = x\nships {\n  s { generator = 2 * phaser_dice + warp_factor }\n}\n",
        ".rules",
    );
    assert!(
        err.strip_prefix("error: ")
            .unwrap_or_else(|| panic!("no `error: ` in {}", err))
            .starts_with(&format!("{p}:3:37: unknown variable `warp_factor`")),
        "{err}"
    );
    let (err, p) = check_err(
        "name: x\nships:\n  s:\n    generator: \"2 * phasr_dice\"\n",
        ".yaml",
    );
    assert!(
        err.strip_prefix("error: ")
            .unwrap_or_else(|| panic!("no `error: ` in {}", err))
            .starts_with(&format!(
                "{p}:4:21: unknown variable `phasr_dice` (did you mean `phaser_dice`?)"
            )),
        "{err}"
    );
}

#[test]
fn an_unknown_function_is_named() {
    let (err, _) = check_err(
        "name = x\nships {\n  s { generator = sqrt(4) }\n}\n",
        ".rules",
    );
    assert!(err.contains("unknown function `sqrt`"), "{err}");
}

#[test]
fn bad_dice_are_reported_at_the_value() {
    let (err, p) = check_err("name: x\nships:\n  s:\n    hull: 3X6\n", ".yaml");
    assert!(
        err.strip_prefix("error: ")
            .unwrap_or_else(|| panic!("no `error: ` in {}", err))
            .starts_with(&format!("{p}:4:11:")),
        "{err}"
    );
    assert!(err.contains("not dice notation"), "{err}");
}

#[test]
fn duplicate_keys_and_duplicate_ship_names_are_errors() {
    let (err, p) = check_err("name = x\nname = y\n", ".rules");
    assert!(
        err.strip_prefix("error: ")
            .unwrap_or_else(|| panic!("no `error: ` in {}", err))
            .starts_with(&format!("{p}:2:1: `name` is given twice")),
        "{err}"
    );
    let (err, p) = check_err("name: x\nships:\n  s: {}\n  s: {}\n", ".yaml");
    assert!(
        err.strip_prefix("error: ")
            .unwrap_or_else(|| panic!("no `error: ` in {}", err))
            .starts_with(&format!("{p}:4:3:")),
        "{err}"
    );
    // Two keys a capital or an accent apart are refused by the parser, in either format...
    let (err, p) = check_err("name: x\nships:\n  Trialón: {}\n  trialon: {}\n", ".yaml");
    assert!(
        err.strip_prefix("error: ")
            .unwrap_or_else(|| panic!("no `error: ` in {}", err))
            .starts_with(&format!(
            "{p}:4:3: `trialon` is the same name as `Trialón` above (case and accents are ignored)"
        )),
        "{err}"
    );
    let (err, p) = check_err(
        "name = x\nships {\n  \"Trialón\" {}\n  trialon {}\n}\n",
        ".rules",
    );
    assert!(
        err.strip_prefix("error: ")
            .unwrap_or_else(|| panic!("no `error: ` in {}", err))
            .starts_with(&format!(
            "{p}:4:3: `trialon` is the same name as `Trialón` above (case and accents are ignored)"
        )),
        "{err}"
    );
    // ...and an alias that is another ship's name by the ruleset check.
    let (err, p) = check_err(
        "name: x\nships:\n  Trialón: {}\n  virel:\n    aliases: [trialon]\n",
        ".yaml",
    );
    assert!(
        err.strip_prefix("error: ")
            .unwrap_or_else(|| panic!("no `error: ` in {}", err))
            .starts_with(&format!(
                "{p}:5:5: the name `trialon` is already used by ship `Trialón`"
            )),
        "{err}"
    );
}

#[test]
fn a_missing_name_is_reported() {
    let (err, _) = check_err("ships {}\n", ".rules");
    assert!(err.contains("missing field `name`"), "{err}");
}

#[test]
fn empty_binary_deep_and_missing_files_fail_cleanly() {
    let (err, p) = check_err("", ".yaml");
    assert!(
        err.strip_prefix("error: ")
            .unwrap_or_else(|| panic!("no `error: ` in {}", err))
            .starts_with(&format!("{p}:1:1: the file is empty")),
        "{err}"
    );
    let (err, p) = check_err("", ".rules");
    assert!(
        err.strip_prefix("error: ")
            .unwrap_or_else(|| panic!("no `error: ` in {}", err))
            .starts_with(&format!("{p}:1:1: the file is empty")),
        "{err}"
    );
    let (err, _) = check_err("# only a comment\n", ".yaml");
    assert!(err.contains("mapping"), "{err}");
    let (err, _) = check_err("# only a comment\n", ".rules");
    assert!(err.contains("missing field `name`"), "{err}");
    let (err, _) = check_err(
        &format!(
            "name = x\nships = {}{}\n",
            "[".repeat(5000),
            "]".repeat(5000)
        ),
        ".rules",
    );
    assert!(err.contains("deep"), "{err}");
    let (err, _) = check_err(
        &format!("name: x\nships: {}{}\n", "[".repeat(5000), "]".repeat(5000)),
        ".yaml",
    );
    assert!(err.contains("deep"), "{err}");
    let (err, _) = check_err(
        &format!(
            "name = x\nships {{ s {{ generator = {}1{} }} }}\n",
            "(".repeat(500),
            ")".repeat(500)
        ),
        ".rules",
    );
    assert!(err.contains("deep"), "{err}");
    let mut garbage = temp_file("", ".yaml");
    std::io::Write::write_all(&mut garbage, &[0xff, 0xfe, 0x00, 0x9f, 0x92, 0x96]).unwrap();
    let err = fails(&["rules", "check", path(&garbage)]);
    assert!(err.contains("not UTF-8"), "{err}");
    let err = fails(&["rules", "check", "/no/such/file.rules"]);
    assert!(err.contains("no such file"), "{err}");
}

#[test]
fn an_unknown_builtin_name_suggests_the_nearest() {
    let err = fails(&["rules", "show", "bloodbwl"]);
    assert!(err.contains("did you mean `bloodbowl`"), "{err}");
}

#[test]
fn yaml_syntax_errors_are_located() {
    let (err, p) = check_err("name: x\nships:\n  s: [1, 2\n", ".yaml");
    assert!(
        err.strip_prefix("error: ")
            .unwrap_or_else(|| panic!("no `error: ` in {}", err))
            .starts_with(&format!("{p}:")),
        "{err}"
    );
    assert!(err.contains("YAML"), "{err}");
}
