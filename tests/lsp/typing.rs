//! A designer types a short house rule into the editor, one keystroke at a time: after every
//! keystroke the server publishes that version's diagnostics and answers completion and
//! formatting; along the way definition, and at the end the quick fix, rename and formatting
//! give the edits an editor applies.
use super::*;

/// The house rule as typed, typo included (`sheilds`, fixed at the end by the quick fix).
const HOUSE: &str = "extends startrek\nships {\n  \"UFP heavy cruiser\" {\n    sheilds = 12\n    size = large\n  }\n}\n";

/// Where the cursor is after typing `typed` (ASCII: UTF-16 columns are bytes).
fn cursor(typed: &str) -> (u32, u32) {
    let line = typed.matches('\n').count() as u32;
    let column = typed.len() - typed.rfind('\n').map_or(0, |i| i + 1);
    (line, column as u32)
}

fn change(c: &mut Client, uri: &str, version: usize, text: &str) -> Value {
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": version},
               "contentChanges": [{"text": text}]}),
    );
    c.notification("textDocument/publishDiagnostics")
}

fn messages(d: &Value) -> Vec<String> {
    d["diagnostics"]
        .as_array()
        .unwrap_or_else(|| panic!("{d}"))
        .iter()
        .map(|d| d["message"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn every_keystroke_of_a_house_rule_gets_diagnostics_completion_and_edits() {
    let dir = tempfile::tempdir().unwrap();
    let cache = tempfile::tempdir().unwrap();
    let uri = format!("file://{}", dir.path().join("house.rules").display());
    let (child, mut c) = start_in(dir.path(), cache.path());
    open(&mut c, &uri, "");
    // An empty ruleset lacks its name: one problem, at the top.
    let d = c.notification("textDocument/publishDiagnostics");
    assert_eq!(messages(&d), ["missing field `name`"]);
    let options = json!({"tabSize": 2, "insertSpaces": true});
    let mut milestones = 0;
    for end in 1..=HOUSE.len() {
        let typed = &HOUSE[..end];
        let d = change(&mut c, &uri, end + 1, typed);
        let problems = messages(&d);
        let (line, column) = cursor(typed);
        let items = labels(&mut c, &uri, line, column);
        let has = |label: &str| items.iter().any(|i| i == label);
        // Formatting: edits, or (a buffer that does not parse) an error, never a crash.
        let f = c.request(
            "textDocument/formatting",
            json!({"textDocument": {"uri": uri}, "options": options}),
        );
        assert!(
            f["result"].is_array() || f["error"]["message"].is_string(),
            "{typed:?}: {f}"
        );
        // What the designer sees at the places worth a look.
        if typed == "extends st" {
            assert!(has("startrek") && has("swiss"), "{typed:?}: {items:?}");
            milestones += 1;
        }
        if typed == "extends startrek\n" {
            assert_eq!(problems, Vec::<String>::new(), "{typed:?}");
            assert!(has("ships") && has("combat"), "{typed:?}: {items:?}");
            milestones += 1;
        }
        if typed.ends_with("ships {\n  \"UFP") {
            assert!(!problems.is_empty(), "{typed:?}");
            assert!(has("UFP heavy cruiser") && !has("combat"), "{items:?}");
            milestones += 1;
        }
        if typed == HOUSE {
            // Once the blocks close, the ship leads to the built-in's entry.
            let r = c.request("textDocument/definition", at(&uri, 2, 6));
            let target = r["result"]["uri"].as_str().unwrap_or_else(|| panic!("{r}"));
            assert!(target.contains("startrek"), "{r}");
            milestones += 1;
        }
        if typed.ends_with("    sh") {
            assert!(
                has("shields") && has("size") && !has("extends"),
                "{items:?}"
            );
            milestones += 1;
        }
        if typed.ends_with("    sheilds = 12\n") {
            // Blocks still open: that is the problem said (the typo shows once they close).
            assert!(
                problems.iter().any(|m| m.contains("never closed")),
                "{typed:?}: {problems:?}"
            );
            milestones += 1;
        }
        if typed.ends_with("size = ") {
            assert_eq!(items, ["large", "medium", "small"], "{typed:?}");
            milestones += 1;
        }
    }
    assert_eq!(milestones, 7);

    // Typed: one problem, the typo, with its quick fix.
    let d = change(&mut c, &uri, HOUSE.len() + 2, HOUSE);
    assert_eq!(d["diagnostics"].as_array().unwrap().len(), 1, "{d}");
    let r = c.request(
        "textDocument/codeAction",
        json!({"textDocument": {"uri": uri},
               "range": {"start": {"line": 3, "character": 0}, "end": {"line": 3, "character": 10}},
               "context": {"diagnostics": d["diagnostics"]}}),
    );
    let actions = r["result"].as_array().unwrap_or_else(|| panic!("{r}"));
    assert_eq!(actions.len(), 1, "{r}");
    let fixed = apply(HOUSE, &actions[0]["edit"]["changes"][uri.as_str()]);
    assert_eq!(fixed, HOUSE.replace("sheilds", "shields"));
    let d = change(&mut c, &uri, HOUSE.len() + 3, &fixed);
    assert_eq!(d["diagnostics"], json!([]), "{d}");

    // Formatting gives `rules fmt`'s layout.
    std::fs::write(dir.path().join("house.rules"), &fixed).unwrap();
    let fmt = run_in(dir.path(), &["rules", "fmt", "house.rules"], None);
    assert!(fmt.status.success());
    let r = c.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": uri}, "options": options}),
    );
    assert_eq!(
        apply(&fixed, &r["result"]),
        String::from_utf8(fmt.stdout).unwrap(),
        "{r}"
    );

    // Rename the ship from its key.
    let mut params = at(&uri, 2, 6);
    params["newName"] = json!("UFP Constitution");
    let r = c.request("textDocument/rename", params);
    let renamed = apply(&fixed, &r["result"]["changes"][uri.as_str()]);
    assert_eq!(
        renamed,
        fixed.replace("UFP heavy cruiser", "UFP Constitution"),
        "{r}"
    );
    stop(child, c);
}
