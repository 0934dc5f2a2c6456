//! Every built-in ruleset survives json -> yaml -> rules -> json unchanged.
use crate::common::*;

const BUILTINS: &[&str] = &[
    "cep",
    "figf",
    "advciv",
    "elo",
    "bloodbowl",
    "startrek",
    "swiss",
    "bloodbowl-swiss",
];

#[test]
fn every_builtin_survives_json_yaml_rules_json() {
    let dir = tempfile::tempdir().unwrap();
    for name in BUILTINS {
        let json = ok(&["rules", "show", name, "--format", "json"]);
        let j = dir.path().join(format!("{name}.json"));
        let y = dir.path().join(format!("{name}.yaml"));
        let r = dir.path().join(format!("{name}.rules"));
        std::fs::write(&j, &json).unwrap();
        ok(&[
            "rules",
            "convert",
            j.to_str().unwrap(),
            "--to",
            "yaml",
            "-o",
            y.to_str().unwrap(),
        ]);
        ok(&[
            "rules",
            "convert",
            y.to_str().unwrap(),
            "--to",
            "rules",
            "-o",
            r.to_str().unwrap(),
        ]);
        let back = ok(&["rules", "show", r.to_str().unwrap(), "--format", "json"]);
        assert_eq!(
            json, back,
            "{name} changed on the way json -> yaml -> rules -> json"
        );
    }
}

#[test]
fn every_builtin_file_passes_the_check() {
    let files: Vec<String> = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets"))
        .unwrap()
        .map(|e| e.unwrap().path().to_str().unwrap().to_string())
        .collect();
    assert_eq!(files.len(), BUILTINS.len());
    let args: Vec<&str> = ["rules", "check"]
        .into_iter()
        .chain(files.iter().map(|s| s.as_str()))
        .collect();
    let out = ok(&args);
    assert_eq!(
        out.lines().filter(|l| l.contains(": ok")).count(),
        BUILTINS.len(),
        "{out}"
    );
}

#[test]
fn the_embedded_ruleset_is_the_file() {
    for name in BUILTINS {
        let from_name = ok(&["rules", "show", name, "--format", "json"]);
        let file = std::fs::read_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/rulesets"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.file_stem().unwrap() == *name)
            .unwrap();
        let from_file = ok(&["rules", "show", file.to_str().unwrap(), "--format", "json"]);
        assert_eq!(from_name, from_file, "{name}");
    }
}

#[test]
fn both_formats_are_among_the_builtins() {
    let list = ok(&["rules", "list"]);
    assert!(list.contains(".rules"), "{list}");
    assert!(list.contains(".yaml"), "{list}");
    for name in BUILTINS {
        assert!(list.contains(name), "{name} missing from:\n{list}");
    }
}

#[test]
fn conversion_keeps_extends_formulas_and_strings_exactly() {
    let src = r#"extends startrek

name = "house: big shields"
description = "quotes \" and unicode: trialón × ÷"

ships {
  "UFP heavy cruiser" { shields = 12, generator = 3 * phaser_dice + max_speed }
}
"#;
    let f = temp_file(src, ".rules");
    let yaml = ok(&["rules", "convert", path(&f), "--to", "yaml"]);
    assert!(yaml.contains("extends: startrek"), "{yaml}");
    let y = temp_file(&yaml, ".yaml");
    let rules = ok(&["rules", "convert", path(&y), "--to", "rules"]);
    assert_eq!(
        rules.trim(),
        src.trim(),
        "rules -> yaml -> rules is not the identity"
    );
}
