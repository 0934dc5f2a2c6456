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

#[test]
fn color_always_colours_headers_and_errors_and_never_or_no_color_does_not() {
    let ran = Test::new()
        .args(["combat", "ships", "--color", "always"])
        .run();
    assert!(
        ran.stdout.starts_with("\u{1b}[1mship"),
        "{:?}",
        &ran.stdout[..40]
    );
    let ran = Test::new()
        .args([
            "combat",
            "sim",
            "UFP heavy cruiser",
            "Enterprise",
            "--color=always",
        ])
        .status(1)
        .run();
    assert!(
        ran.stderr.starts_with("\u{1b}[1m\u{1b}[31merror:"),
        "{:?}",
        ran.stderr
    );
    for (args, env) in [
        (vec!["combat", "ships", "--color", "never"], None),
        (vec!["combat", "ships"], Some(("NO_COLOR", "1"))),
        (vec!["combat", "ships"], None),
    ] {
        let mut t = Test::new().args(args.clone());
        if let Some((k, v)) = env {
            t = t.env(k, v);
        }
        let ran = t.run();
        assert!(
            !ran.stdout.contains('\u{1b}'),
            "{args:?}: {:?}",
            &ran.stdout[..40]
        );
    }
}

#[test]
fn a_bad_color_is_a_usage_error() {
    Test::new()
        .args(["combat", "ships", "--color", "sometimes"])
        .status(2)
        .stderr_has("sometimes")
        .run();
}

#[test]
fn tables_fit_columns_and_wide_shows_them_whole() {
    let fitted = Test::new()
        .args(["combat", "ships"])
        .env("COLUMNS", "80")
        .run();
    assert!(
        fitted.stdout.lines().all(|l| l.chars().count() <= 80),
        "{}",
        fitted.stdout
    );
    assert!(fitted.stdout.contains("--wide shows"), "{}", fitted.stdout);
    let whole = Test::new()
        .args(["combat", "ships", "--wide"])
        .env("COLUMNS", "80")
        .run();
    assert!(whole.stdout.lines().any(|l| l.chars().count() > 80));
    assert_eq!(
        whole.stdout,
        Test::new().args(["combat", "ships"]).run().stdout
    );
}

#[test]
fn the_ships_table_explains_its_abbreviations() {
    let out = ok(&["combat", "ships"]);
    for abbreviation in ["hull:", "Vm/M:", "EqR, EqS:", "energy:"] {
        assert!(
            out.contains(&format!("\n{abbreviation} ")),
            "{abbreviation}: {out}"
        );
    }
}

#[test]
fn every_error_has_one_style_error_file_line_column() {
    // Located (a ruleset), located in a script, and unlocated: all start `error: `.
    Test::new()
        .file(
            "house.rules",
            "extends startrek\nships {\n  \"UFP heavy cruiser\" { shields = -2 }\n}\n",
        )
        .args(["rules", "check", "house.rules"])
        .status(1)
        .stderr_regex(r"^error: house\.rules:3:\d+: ")
        .run();
    Test::new()
        .file("t.rhai", "let x = 1;\nx / 0\n")
        .args(["run", "t.rhai"])
        .status(1)
        .stderr_regex(r"^error: t\.rhai:2:\d+: ")
        .run();
    Test::new()
        .args(["combat", "sim", "UFP heavy cruiser", "Enterprise"])
        .status(1)
        .stderr_regex(r"^error: [^:]*Enterprise")
        .run();
}

#[test]
fn an_unclosed_brace_is_shown_where_it_opens() {
    // The `}` on line 5 lines up with `ships {`: the ship's block is the one left open.
    Test::new()
        .file(
            "house.rules",
            "extends startrek\nships {\n  \"UFP heavy cruiser\" {\n    shields = 12\n}\n",
        )
        .args(["rules", "check", "house.rules"])
        .status(1)
        .stderr_has(
            "error: house.rules:3:23: this `{` is never closed: the file ends before its `}`",
        )
        .stderr_has(" 3 |   \"UFP heavy cruiser\" {\n   |                       ^")
        .run();
    Test::new()
        .file(
            "l.rules",
            "extends startrek\nships {\n  Transport { aliases = [a, b }\n}\n",
        )
        .args(["rules", "check", "l.rules"])
        .status(1)
        .stderr_has("l.rules:3:25: this `[` is never closed: the `}` at 3:31 comes before its `]`")
        .run();
}

#[test]
fn a_wrong_choice_is_named_in_the_files_words() {
    let game = std::fs::read_to_string(format!(
        "{}/examples/cep-game.yaml",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
    .replace("result: loss", "result: lose");
    Test::new()
        .file("game.yaml", &game)
        .args(["score", "game.yaml"])
        .status(1)
        .stderr_has("game.yaml:19:13: unknown result `lose`, expected win, loss or draw (did you mean `loss`?)")
        .run();
    // A choice in a ruleset names its key too.
    Test::new()
        .file(
            "h.rules",
            "extends startrek\nships {\n  Transport { torpedo_kind = heavy }\n}\n",
        )
        .args(["rules", "check", "h.rules"])
        .status(1)
        .stderr_regex(r"h\.rules:3:\d+: unknown torpedo kind `heavy`, expected ")
        .run();
}

#[test]
fn tables_title_their_columns_and_explain_their_abbreviations() {
    let volley = ok(&[
        "combat",
        "volley",
        "UFP heavy cruiser",
        "Klingon battle cruiser",
        "--range",
        "3",
    ]);
    let header = volley
        .lines()
        .find(|l| !l.trim().is_empty() && !l.contains('→'))
        .unwrap();
    assert!(
        header.starts_with("one volley") && header.ends_with("chance or mean"),
        "{volley}"
    );
    let (_dir, season) = new_season("A\nB\nC\nD\n", &[]);
    let season = season.as_str();
    let table = ok(&["league", "table", season]);
    assert!(
        table.contains("P played, W won, D drawn, L lost"),
        "{table}"
    );
}

#[test]
fn report_prose_wraps_to_the_width_too() {
    let args = [
        "combat",
        "sim",
        "UFP heavy cruiser",
        "Klingon battle cruiser",
        "-n",
        "200",
        "--seed",
        "1",
    ];
    let fitted = Test::new().args(args).env("COLUMNS", "80").run().stdout;
    assert!(fitted.lines().all(|l| l.chars().count() <= 80), "{fitted}");
    // Wrapped, not cut: the same words as the unfitted report.
    let whole = Test::new().args(args).run().stdout;
    assert!(whole.lines().any(|l| l.chars().count() > 80));
    let words = |t: &str| {
        t.split_whitespace()
            .filter(|w| !w.starts_with('-'))
            .collect::<Vec<_>>()
            .len()
    };
    assert_eq!(
        words(&fitted.replace("\n  ", " ")),
        words(&whole),
        "{fitted}"
    );
}

#[test]
fn a_fitted_table_keeps_its_key_columns() {
    let teams = "Gouged Eye\nChaos All-Stars\nReikland Reavers\nDarkside Cowboys\n";
    let (_dir, season) = new_season(teams, &[]);
    ok(&[
        "league",
        "record",
        &season,
        "Gouged Eye",
        "Chaos All-Stars",
        "2",
        "1",
    ]);
    let at_40 = Test::new()
        .args(["league", "table", &season])
        .env("COLUMNS", "40")
        .run()
        .stdout;
    assert!(at_40.lines().all(|l| l.chars().count() <= 40), "{at_40}");
    let header = at_40.lines().next().unwrap();
    assert!(
        header.contains("team") && header.ends_with("points"),
        "{at_40}"
    );
    assert!(at_40.contains("--wide shows them"), "{at_40}");
    // The winner's 3 points are on its line.
    let winner = at_40.lines().find(|l| l.contains("Gouged Eye")).unwrap();
    assert!(winner.ends_with(" 3"), "{at_40}");

    let sweep = [
        "combat",
        "sweep",
        "UFP heavy cruiser",
        "Klingon battle cruiser",
        "--set",
        "ships.UFP heavy cruiser.shields=8..12:2",
        "-n",
        "40",
    ];
    let at_80 = Test::new().args(sweep).env("COLUMNS", "80").run().stdout;
    assert!(at_80.lines().all(|l| l.chars().count() <= 80), "{at_80}");
    let whole = Test::new().args(sweep).run().stdout;
    // Every win rate of the whole table is still shown at 80 columns.
    let rates = |t: &str| {
        t.split_whitespace()
            .filter(|w| w.ends_with('%') && !w.contains('–') && *w != "95%")
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    assert_eq!(rates(&at_80), rates(&whole), "{at_80}");
    // Three points: three win rates and five outcome shares each.
    assert_eq!(rates(&whole).len(), 24, "{whole}");
}
