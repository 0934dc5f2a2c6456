//! The rules language: what a club organiser can write, read back as the model.
use crate::common::*;

fn show(src: &str) -> serde_json::Value {
    let f = temp_file(src, ".rules");
    serde_json::from_str(&ok(&["rules", "show", path(&f), "--format", "json"])).unwrap()
}

#[test]
fn sections_comments_lists_strings_and_formulas() {
    let v = show(
        r#"# A club's ships
name = "club"   # trailing comment
description = "Ships of the Tuesday club"
ships {
  "Heavy hauler" {
    aliases = ["Carguero", "hauler",]   # a trailing comma is fine
    shields = 6; max_speed = 2
    hull = 2D6/2D3
    phasers = 2D6
    generator = max(4, 2 * phaser_dice + max_speed)
  }
  trialón { value = 27, structure = 4 }
}
"#,
    );
    let hauler = &v["ships"]["Heavy hauler"];
    assert_eq!(hauler["aliases"], serde_json::json!(["Carguero", "hauler"]));
    assert_eq!(hauler["shields"], 6);
    assert_eq!(hauler["max_speed"], 2);
    assert_eq!(hauler["hull"], "2D6/2D3");
    assert_eq!(hauler["generator"], "max(4, 2 * phaser_dice + max_speed)");
    assert_eq!(v["ships"]["trialón"]["value"], 27);
}

#[test]
fn yaml_and_the_rules_language_mean_the_same() {
    let rules = show(
        "name = same\nships {\n  skiff { value = 10, structure = 2, aliases = [esquife] }\n}\n",
    );
    let y = temp_file(
        "name: same\nships:\n  skiff:\n    value: 10\n    structure: 2\n    aliases: [esquife]\n",
        ".yaml",
    );
    let yaml: serde_json::Value =
        serde_json::from_str(&ok(&["rules", "show", path(&y), "--format", "json"])).unwrap();
    assert_eq!(rules, yaml);
}

#[test]
fn formulas_are_printed_canonically_and_keep_their_meaning() {
    let v = show("name = f\nships {\n  s {\n    generator = (2*phaser_dice)+(max_speed)\n    phasers = 3D6\n    max_speed = 4\n  }\n}\n");
    assert_eq!(v["ships"]["s"]["generator"], "2 * phaser_dice + max_speed");
    let v = show("name = f\nships {\n  s {\n    generator = (phaser_dice + 1) * 2\n  }\n}\n");
    assert_eq!(
        v["ships"]["s"]["generator"], "(phaser_dice + 1) * 2",
        "needed parentheses are kept"
    );
}

#[test]
fn show_prints_every_format() {
    for format in ["rules", "yaml", "json"] {
        let out = ok(&["rules", "show", "startrek", "--format", format]);
        assert!(out.contains("UFP heavy cruiser"), "{format}: {out}");
    }
}

#[test]
fn rulesets_are_found_by_name_ignoring_case_and_accents() {
    let a = ok(&["rules", "show", "STARTREK", "--format", "json"]);
    let b = ok(&["rules", "show", "startrek", "--format", "json"]);
    assert_eq!(a, b);
}

#[test]
fn convert_writes_a_file_only_when_the_input_is_valid() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.yaml");
    let bad = temp_file("name = x\nships { s { shields = -3 } }\n", ".rules");
    fails(&[
        "rules",
        "convert",
        path(&bad),
        "--to",
        "yaml",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(!out.exists(), "a failed conversion must not leave a file");
    let good = temp_file("name = x\nships { s { shields = 3 } }\n", ".rules");
    ok(&[
        "rules",
        "convert",
        path(&good),
        "--to",
        "yaml",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert_eq!(
        std::fs::read_to_string(&out).unwrap(),
        "name: x\nships:\n  s: { shields: 3 }\n"
    );
}
