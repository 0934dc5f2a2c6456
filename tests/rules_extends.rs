//! `extends`: an overlay changes only what it names, may add, and `null` removes.
use crate::common::*;

fn show_json(file: &tempfile::NamedTempFile) -> serde_json::Value {
    serde_json::from_str(&ok(&["rules", "show", path(file), "--format", "json"])).unwrap()
}

#[test]
fn a_yaml_overlay_changes_one_ship_field_and_adds_a_ship() {
    let base: serde_json::Value =
        serde_json::from_str(&ok(&["rules", "show", "startrek", "--format", "json"])).unwrap();
    let f = temp_file(
        "extends: startrek\nname: house\nships:\n  ufp heavy cruiser:\n    shields: 9\n  +Runabout:\n    shields: 2\n    hull: 1D6/1D3\n",
        ".yaml",
    );
    // Keys match as names do (case and accents ignored); the base's spelling is kept.
    let got = show_json(&f);
    assert_eq!(got["name"], "house");
    assert_eq!(got["ships"]["UFP heavy cruiser"]["shields"], 9);
    assert_eq!(got["ships"]["Runabout"]["shields"], 2);
    // Everything else of the heavy cruiser is the base's.
    let mut expected = base["ships"]["UFP heavy cruiser"].clone();
    expected["shields"] = 9.into();
    assert_eq!(got["ships"]["UFP heavy cruiser"], expected);
    assert_eq!(got["description"], base["description"]);
}

#[test]
fn a_rules_language_overlay_of_a_yaml_file_by_relative_path() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("club.yaml"),
        "name: club\nships:\n  skiff:\n    value: 10\n    structure: 2\n  barge:\n    value: 40\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("house.rules"),
        "extends \"club.yaml\"\nname = house\nships {\n  skiff { value = 12 }\n  barge = null\n}\n",
    )
    .unwrap();
    let out = ok(&[
        "rules",
        "show",
        dir.path().join("house.rules").to_str().unwrap(),
        "--format",
        "json",
    ]);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["ships"]["skiff"]["value"], 12);
    assert_eq!(v["ships"]["skiff"]["structure"], 2);
    assert!(v["ships"].get("barge").is_none(), "null removes: {out}");
}

#[test]
fn chains_of_extends_apply_in_order() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("a.yaml"),
        "name: a\nships:\n  s: {value: 1, structure: 1}\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("b.yaml"),
        "extends: a.yaml\nname: b\nships:\n  s: {value: 2}\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("c.rules"),
        "extends \"b.yaml\"\nships { s { structure = 3 } }\n",
    )
    .unwrap();
    let v: serde_json::Value = serde_json::from_str(&ok(&[
        "rules",
        "show",
        dir.path().join("c.rules").to_str().unwrap(),
        "--format",
        "json",
    ]))
    .unwrap();
    assert_eq!(v["name"], "b");
    assert_eq!(v["ships"]["s"]["value"], 2);
    assert_eq!(v["ships"]["s"]["structure"], 3);
}

#[test]
fn an_extends_cycle_is_an_error_not_a_hang() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("x.yaml"), "extends: y.yaml\nname: x\n").unwrap();
    std::fs::write(dir.path().join("y.yaml"), "extends: x.yaml\nname: y\n").unwrap();
    let err = fails(&[
        "rules",
        "check",
        dir.path().join("x.yaml").to_str().unwrap(),
    ]);
    assert!(err.contains("circle"), "{err}");
    assert!(err.contains("x.yaml:1:10"), "{err}");
}

#[test]
fn extending_an_unknown_ruleset_suggests_the_nearest() {
    let f = temp_file("extends: startrk\nname: x\n", ".yaml");
    let err = fails(&["rules", "check", path(&f)]);
    assert!(err.contains(":1:10:"), "{err}");
    assert!(err.contains("did you mean `startrek`"), "{err}");
}

#[test]
fn an_overlay_error_points_into_the_overlay() {
    let f = temp_file(
        "extends: startrek\nname: house\nships:\n  ufp heavy cruiser:\n    shields: many\n",
        ".yaml",
    );
    let err = fails(&["rules", "check", path(&f)]);
    assert!(
        err.strip_prefix("error: ")
            .unwrap_or_else(|| panic!("no `error: ` in {}", err))
            .starts_with(&format!("{}:5:14:", path(&f))),
        "{err}"
    );
}
