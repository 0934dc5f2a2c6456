//! Rulesets that travel: overlays that cannot miss, `rules diff`, `rules hash`, bundles, pinned
//! bases, and seasons that remember (or carry) the rules they began under.
use crate::common::*;

const TYPO: &str = "extends startrek\nships {\n  \"Klingon battel cruiser\" { shields = 10 }\n}\n";
const HOUSE: &str = "# heavy cruisers get an eleventh shield point\nextends startrek\nname = house\n\
                     ships {\n  \"UFP heavy cruiser\" { shields = 11 }\n  new Runabout { shields = 2 }\n}\n";

fn sha(ran: &crate::common::test::Ran) -> String {
    ran.stdout[..64].to_string()
}

#[test]
fn a_name_that_matches_no_ship_of_the_base_is_an_error_at_its_line_with_a_suggestion() {
    Test::new()
        .file("typo.rules", TYPO)
        .args(["rules", "check", "typo.rules"])
        .status(1)
        .stderr_has(
            "typo.rules:3:3: `Klingon battel cruiser` matches nothing in `ships` of the base \
             `startrek` (did you mean `Klingon battle cruiser`?); if it is a new entry, declare \
             it: `new \"Klingon battel cruiser\"`",
        )
        .run();
    // A rank in YAML, a keyed table deeper down: the same, with the YAML marker suggested.
    Test::new()
        .file("r.yaml", "extends: cep\nscoring:\n  cep:\n    ranks:\n      tenente: 3\n")
        .args(["rules", "check", "r.yaml"])
        .status(1)
        .stderr_has("r.yaml:5:7: `tenente` matches nothing in `scoring.cep.ranks` of the base `cep` (did you mean `teniente`?); if it is a new entry, declare it: `+tenente`")
        .run();
    // A misspelt field is the model's error, as before.
    Test::new()
        .file(
            "f.rules",
            "extends startrek\nships {\n  \"UFP frigate\" { sheilds = 1 }\n}\n",
        )
        .args(["rules", "check", "f.rules"])
        .status(1)
        .stderr_has("f.rules:3:19: unknown field `sheilds` (did you mean `shields`?)")
        .run();
}

#[test]
fn an_entry_declared_new_is_added_and_the_marker_round_trips_through_both_formats() {
    let t = Test::new()
        .file("house.rules", HOUSE)
        .args(["rules", "show", "house.rules", "--format", "json"])
        .run();
    let v = t.json();
    assert_eq!(v["ships"]["Runabout"]["shields"], 2);
    assert_eq!(v["ships"]["UFP heavy cruiser"]["shields"], 11);
    let yaml = ok(&[
        "rules",
        "convert",
        t.path("house.rules").to_str().unwrap(),
        "--to",
        "yaml",
    ]);
    assert!(yaml.contains("  +Runabout: { shields: 2 }\n"), "{yaml}");
    let back = Test::new()
        .file("house.yaml", &yaml)
        .args(["rules", "convert", "house.yaml", "--to", "rules"])
        .run();
    assert!(
        back.stdout.contains("  new Runabout { shields = 2 }\n"),
        "{}",
        back.stdout
    );
    // The three spellings are one ruleset.
    let hash = |name: &str, text: &str| {
        sha(&Test::new()
            .file(name, text)
            .args(["rules", "hash", name])
            .run())
    };
    let h = hash("house.rules", HOUSE);
    assert_eq!(hash("house.yaml", &yaml), h);
    assert_eq!(hash("back.rules", &back.stdout), h);
}

#[test]
fn diff_lists_every_changed_added_and_removed_value_by_path() {
    let t = Test::new()
        .file("house.rules", HOUSE)
        .args(["rules", "diff", "house.rules", "--json", "--explain"])
        .run();
    let v = t.json();
    let changes = v["changes"].as_array().unwrap();
    let at = |p: &str| {
        changes
            .iter()
            .find(|c| c["path"] == p)
            .unwrap_or_else(|| panic!("{p}"))
    };
    let shields = at("/ships/UFP heavy cruiser/shields");
    assert_eq!(
        (shields["old"].clone(), shields["new"].clone()),
        (10.into(), 11.into())
    );
    assert_eq!(shields["change"], "changed");
    assert_eq!(
        shields["meaning"],
        "Shield rating of each of the six faces."
    );
    assert_eq!(at("/ships/Runabout/shields")["change"], "added");
    // Removed, an entry is one change holding what it was (below, the reverse diff).
    assert_eq!(at("/name")["new"], "house");
    // startrek's version is its own: the house rule has none.
    assert_eq!(at("/version")["change"], "removed");
    assert_eq!(changes.len(), 4, "{changes:?}");
    // Text, both rulesets named; the reverse diff swaps old and new.
    let text = Test::new()
        .file("house.rules", HOUSE)
        .args(["rules", "diff", "house.rules", "startrek"])
        .run()
        .stdout;
    assert!(
        text.contains("~ /ships/UFP heavy cruiser/shields: 11 -> 10\n"),
        "{text}"
    );
    assert!(text.contains("- /ships/Runabout\n"), "{text}");
    assert!(!text.contains("- /ships/Runabout/"), "{text}");
    assert!(ok(&["rules", "diff", "startrek", "startrek"]).ends_with("no changes\n"));
    fails(&["rules", "diff", "startrek"]);
}

#[test]
fn a_pinned_base_that_changed_is_refused_at_the_extends_line() {
    let t = Test::new()
        .file("house.rules", HOUSE)
        .args(["rules", "hash", "house.rules"])
        .run();
    let h = sha(&t);
    assert!(h.bytes().all(|b| b.is_ascii_hexdigit()) && t.stdout.contains("  house "));
    let club = format!("extends \"house.rules\" sha256 \"{h}\"\nname = club\n");
    Test::new()
        .file("house.rules", HOUSE)
        .file("club.rules", &club)
        .args(["rules", "check", "club.rules"])
        .stdout_has("club.rules: ok (ruleset `club`, 13 ships)")
        .run();
    let changed = HOUSE.replace("shields = 11", "shields = 12");
    Test::new()
        .file("house.rules", &changed)
        .file("club.rules", &club)
        .args(["rules", "check", "club.rules"])
        .status(1)
        .stderr_has(
            "club.rules:1:30: `house.rules` has changed since this ruleset was written against it: \
             its sha256 is now",
        )
        .stderr_has(format!("not {h}"))
        .run();
    // A comment or a layout change is no change.
    let relaid = HOUSE
        .replace("# heavy", "#   heavy")
        .replace("  new Runabout", "new   Runabout");
    Test::new()
        .file("house.rules", &relaid)
        .file(
            "club.yaml",
            format!("extends: {{name: house.rules, sha256: {h}}}\nname: club\n"),
        )
        .args(["rules", "check", "club.yaml"])
        .stdout_has("ok")
        .run();
    // A version requirement on a built-in.
    Test::new()
        .file("v.rules", "extends startrek version \">=2.0, <3\"\n")
        .args(["rules", "check", "v.rules"])
        .stdout_has("ok")
        .run();
    Test::new()
        .file("v.yaml", "extends: {name: startrek, version: \">=3.0\"}\n")
        .args(["rules", "check", "v.yaml"])
        .status(1)
        .stderr_has("v.yaml:1:36: `startrek` is version 2.0.0, and this ruleset asks for >=3.0")
        .run();
}

#[test]
fn a_bundle_is_self_contained_names_its_sources_and_has_the_same_hash() {
    let t = Test::new()
        .file("house.rules", HOUSE)
        .args(["rules", "bundle", "house.rules", "-o", "shared.yaml"])
        .stderr_has("wrote shared.yaml")
        .run();
    let bundle = t.read("shared.yaml");
    let house = sha(&Test::new()
        .file("house.rules", HOUSE)
        .args(["rules", "hash", "house.rules"])
        .run());
    let startrek = sha(&Test::new().args(["rules", "hash", "startrek"]).run());
    assert!(
        bundle.contains(&format!(
            "#   house.rules (`house`, no version, sha256 {house})\n#   built-in startrek \
             (`startrek`, 2.0.0, sha256 {startrek})\n"
        )),
        "{bundle}"
    );
    assert!(!bundle.lines().any(|l| l.starts_with("extends")));
    let h = sha(&Test::new()
        .file("house.rules", HOUSE)
        .args(["rules", "hash", "house.rules"])
        .run());
    assert!(bundle.contains(&format!("# sha256 {h}")));
    // Anywhere, without its sources.
    let elsewhere = Test::new()
        .file("shared.yaml", &bundle)
        .args(["rules", "hash", "shared.yaml"])
        .run();
    assert_eq!(sha(&elsewhere), h);
    Test::new()
        .file("house.rules", HOUSE)
        .args(["rules", "bundle", "house.rules", "-o", "house.rules"])
        .status(1)
        .run();
    assert!(ok(&["rules", "hash", "startrek"]).contains("  startrek 2.0.0\n"));
}

#[test]
fn a_season_records_its_ruleset_warns_when_it_changes_and_embedded_rules_keep_it() {
    let club = "extends bloodbowl\nname = club\nleague { points { win = 2 } }\n";
    let later = club.replace("win = 2", "win = 5");
    let t = Test::new()
        .file("club.rules", club)
        .args([
            "league",
            "new",
            "s.yaml",
            "--teams",
            "4",
            "--rules",
            "club.rules",
            // The source's tables: round 1 has 1 at home to 4.
            "--home-away",
            "source",
        ])
        .run();
    let season = t.read("s.yaml");
    let h = sha(&Test::new()
        .file("club.rules", club)
        .args(["rules", "hash", "club.rules"])
        .run());
    assert!(season.contains(&format!("\"sha256\": \"{h}\"")), "{season}");
    let played = season.replace(
        "results: []\n",
        "results:\n  - {round: 1, home: 1, away: 4, home_score: 2, away_score: 0}\n",
    );
    let v = Test::new()
        .file("club.rules", &later)
        .file("s.yaml", &played)
        .args(["league", "table", "s.yaml", "--json"])
        .stderr_has("warning: s.yaml: the ruleset has changed since it began")
        .run()
        .json();
    assert_eq!(v["standings"][0]["points"], 5);
    assert_eq!(v["ruleset"], "club");
    assert_ne!(v["ruleset_sha256"], h.as_str());
    // Embedded: scored under the rules it began with, whatever the file says now.
    let t = Test::new()
        .file("club.rules", club)
        .args([
            "league",
            "new",
            "e.yaml",
            "--teams",
            "4",
            "--rules",
            "club.rules",
            "--embed-rules",
            "--home-away",
            "source",
        ])
        .run();
    let embedded = t.read("e.yaml").replace(
        "results: []\n",
        "results:\n  - {round: 1, home: 1, away: 4, home_score: 2, away_score: 0}\n",
    );
    let v = Test::new()
        .file("club.rules", &later)
        .file("e.yaml", &embedded)
        .args(["league", "table", "e.yaml", "--json"])
        .stderr_empty()
        .run()
        .json();
    assert_eq!(v["standings"][0]["points"], 2);
    assert_eq!(v["ruleset_sha256"], h.as_str());
    // Altered embedded rules are refused.
    let altered = embedded.replacen("win = 2", "win = 9", 1);
    assert_ne!(altered, embedded);
    Test::new()
        .file("e.yaml", &altered)
        .args(["league", "table", "e.yaml"])
        .status(1)
        .stderr_has("its embedded rules are not the ruleset it records")
        .run();
}

#[test]
fn combat_and_swiss_json_reports_name_the_ruleset_they_ran_under() {
    let startrek = ok(&["rules", "hash", "startrek"])[..64].to_string();
    let cruisers = ["UFP heavy cruiser", "Klingon battle cruiser"];
    for args in [
        vec![
            "combat",
            "sim",
            cruisers[0],
            cruisers[1],
            "-n",
            "50",
            "--json",
        ],
        vec![
            "combat",
            "volley",
            cruisers[0],
            cruisers[1],
            "--range",
            "2",
            "--json",
        ],
        vec!["combat", "duel", cruisers[0], cruisers[1], "--json"],
        vec![
            "combat",
            "sweep",
            cruisers[0],
            cruisers[1],
            "--set",
            "ships.UFP heavy cruiser.shields=9,10",
            "-n",
            "20",
            "--json",
        ],
    ] {
        let d = json(&args);
        assert_eq!(d["ruleset"], "startrek", "{args:?}");
        assert_eq!(d["ruleset_version"], "2.0.0", "{args:?}");
        assert_eq!(d["ruleset_sha256"], startrek.as_str(), "{args:?}");
    }
}

#[test]
fn league_schedules_and_fixtures_name_their_ruleset_too() {
    let bloodbowl = ok(&["rules", "hash", "bloodbowl"]);
    let bloodbowl = bloodbowl.split_whitespace().next().unwrap();
    let schedule = json(&["league", "schedule", "4", "--json"]);
    assert_eq!(schedule["ruleset"], "bloodbowl");
    assert_eq!(schedule["ruleset_sha256"], bloodbowl);
    assert_eq!(schedule["rounds"].as_array().unwrap().len(), 3);
    let (_dir, season) = new_season("A\nB\nC\nD\n", &[]);
    let season = season.as_str();
    let fixtures = json(&["league", "fixtures", season, "--json"]);
    assert_eq!(fixtures["ruleset"], "bloodbowl");
    assert_eq!(fixtures["ruleset_version"], "1.0.0");
    assert_eq!(fixtures["ruleset_sha256"], bloodbowl);
}
