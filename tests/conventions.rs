//! The conventions every command keeps (interface.md, "Conventions for every command").
use crate::common::*;

fn json_error(ran: &Ran) -> serde_json::Value {
    let line = ran.stderr.lines().last().unwrap_or_default();
    serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {}", ran.stderr))
}

#[test]
fn with_json_a_located_error_is_json_on_standard_error() {
    let ran = Test::new()
        .file(
            "house.rules",
            "extends \"startrek\"\nships {\n  \"UFP heavy cruiser\" { shields = -2 }\n}\n",
        )
        .args(["combat", "ships", "--rules", "house.rules", "--json"])
        .status(1)
        .stdout_empty()
        .run();
    let e = json_error(&ran);
    assert_eq!(e["error"]["file"], "house.rules", "{e}");
    assert_eq!(e["error"]["line"], 3, "{e}");
    assert!(e["error"]["column"].as_u64().unwrap() > 1, "{e}");
    assert!(
        e["error"]["message"].as_str().unwrap().contains("-2"),
        "{e}"
    );
}

#[test]
fn with_json_an_unlocated_error_and_a_usage_error_are_json_too() {
    let ran = Test::new()
        .args(["combat", "sim", "UFP heavy cruiser", "Enterprise", "--json"])
        .status(1)
        .run();
    let e = json_error(&ran);
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("Enterprise"),
        "{e}"
    );
    assert!(e["error"].get("line").is_none(), "{e}");
    let ran = Test::new()
        .args(["combat", "sim", "--json", "--no-such-flag"])
        .status(2)
        .run();
    let e = json_error(&ran);
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap()
            .contains("--no-such-flag"),
        "{e}"
    );
}

#[test]
fn without_json_errors_stay_text() {
    Test::new()
        .args(["combat", "sim", "UFP heavy cruiser", "Enterprise"])
        .status(1)
        .stderr_regex(r"^error: .*Enterprise")
        .run();
}
