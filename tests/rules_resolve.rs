//! One resolver for the ruleset an input names (issue 30): `--rules`, else the input's own
//! `rules:` beside it, else the default; problems said of the ruleset; seasons and tournaments
//! never rescored silently; a pinned base that changed leads to a `rules diff` that works.
use crate::common::*;

#[test]
fn a_ruleset_without_the_section_a_command_needs_is_named_not_the_inputs_line() {
    let ran = Test::new()
        .file("h.yaml", "rules: elo\ngames:\n  - { order: [Ana, Bo] }\n")
        .args(["rate", "h.yaml", "--rules", "startrek"])
        .status(1)
        .run();
    assert_eq!(
        ran.stderr,
        "error: --rules startrek: ruleset `startrek` has no `scoring` section\n"
    );
    // Named by the file's own `rules:` line: that line is the place.
    Test::new()
        .file(
            "h.yaml",
            "rules: startrek\ngames:\n  - { order: [Ana, Bo] }\n",
        )
        .args(["rate", "h.yaml"])
        .status(1)
        .stderr_has("h.yaml:1:8: ruleset `startrek` has no `scoring` section")
        .run();
}

#[test]
fn a_tournaments_typed_ruleset_is_found_from_the_tournament_file() {
    let t = Test::new()
        .file("club.rules", "extends swiss\nname = club\n")
        .file("players.csv", "name\nAna\nBo\nCy\nDi\n")
        .file("sw/.keep", "");
    let dir = t.dir().to_path_buf();
    let ran = t
        .args([
            "swiss",
            "new",
            "sw/t.yaml",
            "--players",
            "players.csv",
            "--rounds",
            "3",
            "--rules",
            "club.rules",
        ])
        .run();
    assert_eq!(ran.stderr, "wrote sw/t.yaml\n");
    let record = std::fs::read_to_string(dir.join("sw/t.yaml")).unwrap();
    assert!(record.contains("rules: ../club.rules\n"), "{record}");
    let out = run_in(&dir, &["swiss", "pair", "sw/t.yaml", "--json"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json_of(&out)["round"], 1);
    // The ruleset changes: `record` warns, as `table` does.
    std::fs::write(
        dir.join("club.rules"),
        "extends swiss\nname = club\nswiss { points { win = 2 } }\n",
    )
    .unwrap();
    let pairs = json_of(&run_in(
        &dir,
        &["swiss", "table", "sw/t.yaml", "--json"],
        None,
    ));
    assert!(pairs["standings"].is_array());
    let out = run_in(
        &dir,
        &["swiss", "record", "sw/t.yaml", "1", "1", "3", "1-0"],
        None,
    );
    let warned = stderr(&out);
    assert!(
        warned.contains("warning: sw/t.yaml: the ruleset has changed since it began"),
        "{warned}"
    );
    // The warning names a command that exists.
    assert!(
        warned.contains("(`swiss new --embed-rules` keeps a tournament's rules with it)"),
        "{warned}"
    );
    assert!(ok(&["swiss", "new", "--help"]).contains("--embed-rules"));
}

#[test]
fn a_tournament_with_embedded_rules_is_counted_under_them_whatever_its_rules_file_says() {
    let club = "extends swiss\nname = club\nswiss { points { win = 3 } }\n";
    let t = Test::new()
        .file("club.rules", club)
        .file("players.csv", "name\nAna\nBo\nCy\nDi\n");
    // The run keeps the folder for the rest of the test.
    let made = t
        .args([
            "swiss",
            "new",
            "t.yaml",
            "--players",
            "players.csv",
            "--rounds",
            "3",
            "--rules",
            "club.rules",
            "--embed-rules",
        ])
        .run();
    let dir = made.dir.path().to_path_buf();
    let began = stdout(&run_in(&dir, &["rules", "hash", "club.rules"], None))[..64].to_string();
    let record = std::fs::read_to_string(dir.join("t.yaml")).unwrap();
    assert!(record.contains("embedded_rules:"), "{record}");
    for args in [
        &["swiss", "pair", "t.yaml"][..],
        &["swiss", "record", "t.yaml", "1", "1", "3", "1-0"],
        &["swiss", "record", "t.yaml", "1", "4", "2", "1/2-1/2"],
    ] {
        let out = run_in(&dir, args, None);
        assert!(out.status.success(), "{}", stderr(&out));
    }
    // The club's file changes (and then goes): the tournament keeps its rules, no warning.
    std::fs::write(
        dir.join("club.rules"),
        "extends swiss\nname = club\nswiss { points { win = 2 } }\n",
    )
    .unwrap();
    for _ in 0..2 {
        let out = run_in(&dir, &["swiss", "table", "t.yaml", "--json"], None);
        assert_eq!(stderr(&out), "");
        let v = json_of(&out);
        // A win is worth 3 as the tournament began (2 in the file now); a draw keeps swiss's 0.5.
        assert_eq!(v["standings"][0]["name"], "Ana");
        assert_eq!(v["standings"][0]["points"], 3.0);
        assert_eq!(v["standings"][1]["points"], 0.5);
        assert_eq!(v["ruleset_sha256"], began.as_str());
        std::fs::remove_file(dir.join("club.rules")).ok();
    }
    // With its rules file gone, the next round pairs under the embedded rules, no warning.
    let out = run_in(&dir, &["swiss", "pair", "t.yaml"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(stderr(&out), "wrote t.yaml\n");
    // Altered embedded rules are refused, and the file is left as it was.
    let played = std::fs::read_to_string(dir.join("t.yaml")).unwrap();
    let altered = played.replacen("win = 3", "win = 9", 1);
    assert_ne!(altered, played);
    std::fs::write(dir.join("t.yaml"), &altered).unwrap();
    let out = run_in(&dir, &["swiss", "pair", "t.yaml"], None);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr(&out).contains("its embedded rules are not the ruleset it records"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("t.yaml")).unwrap(),
        altered
    );
}

fn json_of(o: &std::process::Output) -> serde_json::Value {
    serde_json::from_str(&stdout(o)).unwrap_or_else(|e| panic!("{e}: {}", stdout(o)))
}

#[test]
fn a_season_is_not_rescored_under_other_rules_without_rescore() {
    let t = Test::new().file(
        "house.rules",
        "extends bloodbowl\nname = house\nleague { points { win = 2 } }\n",
    );
    let dir = t.dir().to_path_buf();
    let out = run_in(&dir, &["league", "new", "s.yaml", "--teams", "4"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    let before = std::fs::read(dir.join("s.yaml")).unwrap();
    let out = run_in(
        &dir,
        &["league", "table", "s.yaml", "--rules", "house.rules"],
        None,
    );
    assert_eq!(out.status.code(), Some(1));
    let e = stderr(&out);
    assert!(
        e.contains("s.yaml: the season was recorded under bloodbowl 1.0.0")
            && e.contains("--rules house.rules is house")
            && e.contains("~ /league/points/win: 3 -> 2")
            && e.contains("add --rescore")
            && !e.contains("/name"),
        "{e}"
    );
    let out = run_in(
        &dir,
        &[
            "league",
            "table",
            "s.yaml",
            "--rules",
            "house.rules",
            "--rescore",
            "--json",
        ],
        None,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(json_of(&out)["ruleset"], "house");
    // The same rules as recorded need nothing.
    let out = run_in(
        &dir,
        &["league", "table", "s.yaml", "--rules", "bloodbowl"],
        None,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(std::fs::read(dir.join("s.yaml")).unwrap(), before);
}

#[test]
fn a_refused_pin_names_a_diff_that_shows_what_changed() {
    let t = Test::new()
        .file("base.rules", "extends startrek\nname = club\n")
        .file(
            "house.rules",
            "# ours\n\nextends \"base.rules\"\nname = house\n",
        );
    let dir = t.dir().to_path_buf();
    let out = run_in(&dir, &["rules", "pin", "house.rules"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out)
            .starts_with("wrote house.pinned-base.rules\nwrote house.rules: pinned to club"),
        "{}",
        stdout(&out)
    );
    let out = run_in(&dir, &["rules", "check", "house.rules"], None);
    assert!(out.status.success(), "{}", stderr(&out));
    // The base changes: the refusal names the command, and the command shows the change.
    std::fs::write(
        dir.join("base.rules"),
        "extends startrek\nname = club\nships { \"UFP frigate\" { shields = 9 } }\n",
    )
    .unwrap();
    let out = run_in(&dir, &["rules", "check", "house.rules"], None);
    let e = stderr(&out);
    let command = "arbiter rules diff house.pinned-base.rules base.rules";
    assert!(
        e.contains("`base.rules` has changed since this ruleset was written against it")
            && e.contains(&format!("see what changed with `{command}`")),
        "{e}"
    );
    let args: Vec<&str> = command.split(' ').skip(1).collect();
    let out = run_in(&dir, &args, None);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stdout(&out).contains("~ /ships/UFP frigate/shields: "),
        "{}",
        stdout(&out)
    );
}

#[test]
fn a_bundle_header_states_each_sources_sha256() {
    let t = Test::new().file("house.rules", "extends startrek\nname = house\n");
    let dir = t.dir().to_path_buf();
    let out = run_in(
        &dir,
        &["rules", "bundle", "house.rules", "-o", "b.rules"],
        None,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let text = std::fs::read_to_string(dir.join("b.rules")).unwrap();
    let startrek = ok(&["rules", "hash", "startrek"])[..64].to_string();
    assert!(
        text.contains(&format!(
            "#   built-in startrek (`startrek`, 2.0.0, sha256 {startrek})\n"
        )),
        "{text}"
    );
}

#[test]
fn a_bundle_keeps_every_comment_of_every_file_in_the_chain_under_its_source() {
    let house = "# Our club's rule.\n\nextends startrek\nname = house\n# more shields\n\
                 ships { \"UFP heavy cruiser\" { shields = 12 } }\n";
    let t = Test::new().file("house.rules", house);
    let dir = t.dir().to_path_buf();
    let out = run_in(
        &dir,
        &["rules", "bundle", "house.rules", "-o", "b.rules"],
        None,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let bundle = std::fs::read_to_string(dir.join("b.rules")).unwrap();
    let comments = |text: &str| -> Vec<String> {
        text.lines()
            .filter_map(|l| l.trim_start().strip_prefix('#'))
            .map(str::to_string)
            .collect()
    };
    let shipped = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("rulesets/startrek.rules"),
    )
    .unwrap();
    let kept = comments(&bundle);
    for c in comments(&shipped).iter().chain(comments(house).iter()) {
        assert!(kept.contains(c), "lost #{c}\n{bundle}");
    }
    assert!(bundle.contains("# (from built-in startrek)\n"), "{bundle}");
    assert!(
        bundle.contains("# (from house.rules)\n# more shields\nships {"),
        "{bundle}"
    );
    // The header keeps its blank line; the bundle hashes as the house rule does.
    assert!(bundle.contains("# Our club's rule.\n\n"), "{bundle}");
    let hash = |f: &str| stdout(&run_in(&dir, &["rules", "hash", f], None))[..64].to_string();
    assert_eq!(hash("b.rules"), hash("house.rules"));
}
