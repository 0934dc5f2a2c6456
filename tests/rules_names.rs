//! Names are strings, typos in partial entries, and what `rules diff` shows (issue 30): a
//! bare hyphenated word is the word in both formats, never a formula; a misspelt entry is
//! asked about before any missing field; a reordered or shortened ruleset reads as such.
use crate::common::*;

#[test]
fn a_bare_hyphenated_name_is_a_string_in_both_formats() {
    for (file, text) in [
        ("c.rules", "name = my-club\nversion = \"1.0.0\"\n"),
        ("c.yaml", "name: my-club\nversion: 1.0.0\n"),
    ] {
        let ran = Test::new()
            .file(file, text)
            .args(["rules", "show", file, "--format", "json"])
            .run();
        assert_eq!(ran.json()["name"], "my-club", "{file}");
    }
    // `fmt` and `convert` write it back as written, bare.
    Test::new()
        .file("c.rules", "name = my-club  # ours\n")
        .args(["rules", "fmt", "c.rules"])
        .stdout("name = my-club  # ours\n")
        .run();
    Test::new()
        .file("c.rules", "name = my-club\n")
        .args(["rules", "convert", "c.rules", "--to", "yaml"])
        .stdout("name: my-club\n")
        .run();
}

#[test]
fn a_value_of_several_bare_words_is_refused_with_the_quotes_to_write() {
    Test::new()
        .file(
            "c.rules",
            "version = \"1.0.0\"\ndescription = Blood Bowl club\n",
        )
        .args(["rules", "check", "c.rules"])
        .status(1)
        .stderr_has(
            "c.rules:2:15: `Blood Bowl club` is more than one word: a value of several words is \
             a string, so write it in quotes (\"Blood Bowl club\")",
        )
        .run();
}

#[test]
fn extends_takes_a_bare_hyphenated_builtin_name() {
    let ran = Test::new()
        .file("t.rules", "extends bloodbowl-swiss\nname = our-open\n")
        .args(["rules", "show", "t.rules", "--format", "json"])
        .run();
    let shown = ran.json();
    assert_eq!(shown["name"], "our-open");
    assert_eq!(shown["swiss"]["points"]["win"], 3);
    Test::new()
        .file("t.rules", "extends   bloodbowl-swiss\nname = our-open\n")
        .args(["rules", "fmt", "t.rules"])
        .stdout("extends bloodbowl-swiss\n\nname = our-open\n")
        .run();
}

#[test]
fn the_shipped_bloodbowl_swiss_is_named_so() {
    let ran = Test::new().args(["rules", "hash", "bloodbowl-swiss"]).run();
    assert!(
        ran.stdout.ends_with("  bloodbowl-swiss 1.1.0\n"),
        "{}",
        ran.stdout
    );
}

fn refused(file: &str, text: &str) -> String {
    Test::new()
        .file(file, text)
        .args(["rules", "check", file])
        .status(1)
        .run()
        .stderr
}

#[test]
fn a_misspelt_entry_with_a_partial_body_is_asked_about_before_any_missing_field() {
    for (section, typo, body, meant) in [
        ("locations", "brige", "{ excess = explosion }", "bridge"),
        ("sizes", "lage", "{ excess = 20 }", "large"),
        ("torpedoes", "photn", "{ energy = 1 }", "photon"),
    ] {
        let text =
            format!("extends startrek\ncombat {{\n  {section} {{\n    {typo} {body}\n  }}\n}}\n");
        let e = refused("t.rules", &text);
        assert!(
            e.starts_with(&format!(
                "error: t.rules:4:5: `{typo}` matches nothing in `combat.{section}` of the base \
                 `startrek` (did you mean `{meant}`?)\n"
            )),
            "{e}"
        );
        assert!(
            !e.contains("missing field") && !e.contains("declare"),
            "{e}"
        );
    }
    let e = refused(
        "t.yaml",
        "extends: startrek\ncombat:\n  locations:\n    brige: {excess: explosion}\n",
    );
    assert!(
        e.starts_with("error: t.yaml:4:5: `brige` matches nothing in `combat.locations` of the base `startrek` (did you mean `bridge`?)\n"),
        "{e}"
    );
}

#[test]
fn advice_to_declare_an_entry_is_given_only_where_declaring_works() {
    // A crew skill the game does not have: declaring it would fail as an unknown skill.
    let e = refused(
        "t.rules",
        "extends startrek\ncombat {\n  crew { gunery = 70 }\n}\n",
    );
    assert!(
        e.starts_with("error: t.rules:3:10: `gunery` matches nothing in `combat.crew` of the base `startrek` (did you mean `gunnery`?)\n"),
        "{e}"
    );
    assert!(!e.contains("declare"), "{e}");
    let e = refused(
        "t.rules",
        "extends startrek\ncombat {\n  crew { tailoring = 70 }\n}\n",
    );
    assert!(
        !e.contains("declare") && e.contains("`tailoring` matches nothing"),
        "{e}"
    );
    // A new size with part of its fields and no near name: the body's own error.
    let e = refused(
        "t.rules",
        "extends startrek\ncombat {\n  sizes {\n    huge { excess = 20 }\n  }\n}\n",
    );
    assert!(e.contains("missing field `damaged`"), "{e}");
    // A whole new ship: "declare it", and declared it passes.
    let ship = "{ value = 10, structure = 4 }";
    let e = refused(
        "t.rules",
        &format!("extends cep\nships {{\n  Zorg {ship}\n}}\n"),
    );
    assert!(e.contains("declare it: `new Zorg`"), "{e}");
    Test::new()
        .file(
            "t.rules",
            format!("extends cep\nships {{\n  new Zorg {ship}\n}}\n"),
        )
        .args(["rules", "check", "t.rules"])
        .run();
}

#[test]
fn diff_shows_a_reordered_ruleset_and_a_removed_entry_in_one_line_each() {
    // startrek with its first two ships the other way round: the hash differs, and so does
    // the diff (order is part of a ruleset).
    let shown = Test::new()
        .args(["rules", "show", "startrek", "--format", "json"])
        .run()
        .json();
    let mut ships: Vec<(String, serde_json::Value)> = shown["ships"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    ships.swap(0, 1);
    let mut swapped = shown.clone();
    swapped["ships"] = serde_json::Value::Object(ships.iter().cloned().collect());
    let names: Vec<&str> = ships.iter().map(|(k, _)| k.as_str()).collect();
    let text = serde_json::to_string(&swapped).unwrap();
    let ran = Test::new()
        .file("swapped.json", &text)
        .args(["rules", "diff", "startrek", "swapped.json"])
        .run();
    let original: Vec<&str> = [names[1], names[0]]
        .into_iter()
        .chain(names[2..].iter().copied())
        .collect();
    assert_eq!(
        ran.stdout,
        format!(
            "--- startrek\n+++ swapped.json\n~ /ships: order {} -> {}\n",
            serde_json::to_string(&original).unwrap(),
            serde_json::to_string(&names).unwrap()
        )
    );
    let hashes: Vec<String> = ["startrek", "swapped.json"]
        .iter()
        .map(|r| {
            Test::new()
                .file("swapped.json", &text)
                .args(["rules", "hash", r])
                .run()
                .stdout[..64]
                .to_string()
        })
        .collect();
    assert_ne!(hashes[0], hashes[1]);
    // A removed ship is one line.
    Test::new()
        .file(
            "h.rules",
            "extends startrek\nships { \"UFP frigate\" = null }\n",
        )
        .args(["rules", "diff", "h.rules"])
        .stdout("--- startrek\n+++ h.rules\n- /version: \"2.0.0\"\n- /ships/UFP frigate\n")
        .run();
}
