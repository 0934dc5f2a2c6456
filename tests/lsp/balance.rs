//! Live balance as an editor sees it: code lenses on the ships of a ruleset with combat,
//! "computing" at first, then the share of decided battles `combat sim` gives for the same
//! battles and seed, recomputed (and the old figures dropped) when the text changes.
use super::*;

/// A house rule: the heavy cruiser with the shields `shields`, against a named rival.
fn house(shields: u32) -> String {
    format!(
        "extends startrek\nname = house\nships {{\n  \"UFP heavy cruiser\" {{\n    shields = \
         {shields}\n  }}\n}}\ncombat {{\n  rivals {{ \"UFP heavy cruiser\" = [\"Klingon battle \
         cruiser\"] }}\n}}\n"
    )
}

/// The server, initialised by a client that takes `workspace/codeLens/refresh`.
fn start_refreshing(dir: &std::path::Path) -> (std::process::Child, Client) {
    let (child, mut c) = spawn_server(dir, None);
    let caps = json!({"workspace": {"codeLens": {"refreshSupport": true}}});
    let init = c.request(
        "initialize",
        json!({"capabilities": caps, "processId": null}),
    );
    let lens = &init["result"]["capabilities"]["codeLensProvider"];
    assert_eq!(lens["resolveProvider"], json!(false), "{init}");
    c.notify("initialized", json!({}));
    (child, c)
}

/// Answer a refresh request from the server, as an editor does.
fn acknowledge(c: &mut Client, m: &Value) {
    assert_eq!(m["method"], "workspace/codeLens/refresh", "{m}");
    assert!(m["id"].is_string(), "{m}");
    c.send(json!({"jsonrpc": "2.0", "id": m["id"], "result": null}));
}

/// The lenses' ranges' lines and titles.
fn lenses(c: &mut Client, uri: &str) -> Vec<(u64, String)> {
    let (r, before) = c.request_seeing(
        "textDocument/codeLens",
        json!({"textDocument": {"uri": uri}}),
    );
    for m in before
        .iter()
        .filter(|m| m["method"] == "workspace/codeLens/refresh")
    {
        acknowledge(c, m);
    }
    r["result"]
        .as_array()
        .unwrap_or_else(|| panic!("{r}"))
        .iter()
        .map(|l| {
            let line = l["range"]["start"]["line"].as_u64().unwrap();
            (line, l["command"]["title"].as_str().unwrap().to_string())
        })
        .collect()
}

/// Ask for the lenses after each refresh until their title contains `wanted`.
fn lenses_with(c: &mut Client, uri: &str, wanted: &str) -> Vec<(u64, String)> {
    loop {
        let now = lenses(c, uri);
        if now.iter().all(|(_, t)| t.contains(wanted)) {
            return now;
        }
        let refresh = loop {
            let m = c.receive();
            if m["method"] == "workspace/codeLens/refresh" {
                break m;
            }
        };
        acknowledge(c, &refresh);
    }
}

/// The lens `combat sim` gives for the same battles: share of the decided ones, undecided.
fn from_sim(dir: &std::path::Path, a: &str, b: &str, n: u64) -> (String, String) {
    let out = Command::new(BIN)
        .args(["combat", "sim", "--rules", "house.rules", a, b])
        .args(["-n", &n.to_string(), "--seed", "1", "--json"])
        .current_dir(dir)
        .output()
        .unwrap();
    let sim: Value = serde_json::from_slice(&out.stdout).unwrap();
    let (wins, losses) = (
        sim["a"]["wins"].as_u64().unwrap(),
        sim["b"]["wins"].as_u64().unwrap(),
    );
    let tenths = |x: f64| format!("{:.1}%", (x * 1000.0).round() / 10.0);
    let share = tenths(wins as f64 / (wins + losses) as f64);
    let undecided = tenths((n - wins - losses) as f64 / n as f64);
    (share, undecided)
}

/// The share a lens shows, as a number.
fn share(title: &str) -> f64 {
    let (_, rest) = title.split_once(": ").unwrap();
    rest.split('%').next().unwrap().parse().unwrap()
}

#[test]
fn a_ships_lens_computes_then_shows_the_sims_share_and_an_edit_recomputes_it() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("house.rules");
    std::fs::write(&path, house(10)).unwrap();
    let uri = format!("file://{}", path.display());
    let (child, mut c) = start_refreshing(dir.path());
    open(&mut c, &uri, &house(10));
    let d = c.notification("textDocument/publishDiagnostics");
    assert_eq!(d["diagnostics"], json!([]), "{d}");
    // The first question starts the work: the lens says so, on the ship's name (line 3).
    let first = lenses(&mut c, &uri);
    assert_eq!(first.len(), 1, "{first:?}");
    assert_eq!(first[0].0, 3);
    assert_eq!(
        first[0].1,
        "vs Klingon battle cruiser: computing the live balance… (seed 1)"
    );
    let done = lenses_with(&mut c, &uri, "(n=400, seed 1)");
    let title = &done[0].1;
    let (sim_share, sim_undecided) = from_sim(
        dir.path(),
        "UFP heavy cruiser",
        "Klingon battle cruiser",
        400,
    );
    assert!(
        title.starts_with(&format!(
            "vs Klingon battle cruiser: {sim_share} of decided battles ["
        )),
        "{title} (sim: {sim_share})"
    );
    assert!(
        title.ends_with(&format!("], {sim_undecided} undecided (n=400, seed 1)")),
        "{title} (sim: {sim_undecided} undecided)"
    );
    // Asked again, the same text keeps its figures.
    assert_eq!(lenses(&mut c, &uri), done);

    // Twice the shields: the old figures are dropped at once, the new share is higher.
    c.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": uri, "version": 2},
               "contentChanges": [{"text": house(20)}]}),
    );
    let d = c.notification("textDocument/publishDiagnostics");
    assert_eq!(d["diagnostics"], json!([]), "{d}");
    let again = lenses(&mut c, &uri);
    assert!(again[0].1.contains("computing"), "{again:?}");
    let stronger = lenses_with(&mut c, &uri, "(n=400, seed 1)");
    let (before, after) = (share(&done[0].1), share(&stronger[0].1));
    assert!(after > before + 10.0, "{before}% then {after}%");
    std::fs::write(&path, house(20)).unwrap();
    let (sim_share, _) = from_sim(
        dir.path(),
        "UFP heavy cruiser",
        "Klingon battle cruiser",
        400,
    );
    assert!(
        stronger[0].1.contains(&format!(": {sim_share} of")),
        "{stronger:?}"
    );
    stop(child, c);
}

#[test]
fn every_ship_of_a_ruleset_meets_its_default_rival_and_no_combat_means_no_lens() {
    let dir = tempfile::tempdir().unwrap();
    let (child, mut c) = start_refreshing(dir.path());
    // No rival named: the next ship of the same size from another faction, in startrek's
    // order (small: UFP frigate, Pirate frigate, Klingon bird of prey, ...).
    let text = "extends startrek\nname = pair\nships {\n  \"UFP frigate\" { shields = 7 }\n  \
                \"Pirate frigate\" { shields = 5 }\n}\n";
    let uri = format!("file://{}", dir.path().join("pair.rules").display());
    open(&mut c, &uri, text);
    c.notification("textDocument/publishDiagnostics");
    let done = lenses_with(&mut c, &uri, "(n=400, seed 1)");
    let lines: Vec<(u64, &str)> = done
        .iter()
        .map(|(l, t)| (*l, t.split(':').next().unwrap()))
        .collect();
    assert_eq!(
        lines,
        [(3, "vs Pirate frigate"), (4, "vs Klingon bird of prey")]
    );
    // Scoring only (no combat section): no lens.
    let cep = format!("file://{}", dir.path().join("club.yaml").display());
    c.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": cep, "languageId": "yaml", "version": 1,
               "text": "extends: cep\nname: club\n"}}),
    );
    let d = c.notification("textDocument/publishDiagnostics");
    assert_eq!(d["diagnostics"], json!([]), "{d}");
    assert!(lenses(&mut c, &cep).is_empty());
    stop(child, c);
}
