//! `rate --backtest`: every game forecast from the ratings before it, scored per system, with
//! a seeded bootstrap; and `rate --plot`: ratings over time as SVG.
use crate::common::*;
use serde_json::Value;

fn system<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["systems"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["system"] == name)
        .unwrap_or_else(|| panic!("{name} in {v}"))
}

fn num(v: &Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or_else(|| panic!("{key} in {v}"))
}

/// A club where a lower number is a stronger player, and the stronger mostly wins.
fn club(games: usize) -> String {
    let mut text = String::from("game,player,place\n");
    for g in 0..games {
        let (a, b) = (g % 6, (g * 7 + 1) % 6);
        if a == b {
            continue;
        }
        // Every fifth game is an upset.
        let (first, second) = if (a < b) != (g % 5 == 0) {
            (a, b)
        } else {
            (b, a)
        };
        text.push_str(&format!("g{g},P{first},1\ng{g},P{second},2\n"));
    }
    text
}

#[test]
fn a_first_game_between_newcomers_is_a_coin_toss() {
    // p = ½: log-loss ln 2, Brier ¼, an even forecast counts half a hit.
    let h = temp_file("games:\n  - { order: [Ana, Bo] }\n", ".yaml");
    let v = json(&["rate", path(&h), "--backtest", "--systems", "elo,glicko2"]);
    for s in ["elo", "glicko2"] {
        let s = system(&v, s);
        assert!((num(s, "log_loss") - 2f64.ln()).abs() < 1e-12, "{s}");
        assert!((num(s, "brier") - 0.25).abs() < 1e-12, "{s}");
        assert_eq!(num(s, "accuracy"), 0.5);
        assert_eq!(s["games"], 1);
    }
}

#[test]
fn every_system_is_scored_and_the_best_named() {
    let h = temp_file(&club(600), ".csv");
    let v = json(&["rate", path(&h), "--backtest"]);
    let names: Vec<&str> = v["systems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["system"].as_str().unwrap())
        .collect();
    for s in ["elo", "glicko2", "weng_lin", "trueskill"] {
        assert!(names.contains(&s), "{names:?}");
    }
    let best = v["best"].as_str().unwrap();
    assert_eq!(best, names[0], "sorted best first");
    let mut previous = 0.0;
    for s in v["systems"].as_array().unwrap() {
        let (l, low, high) = (
            num(s, "log_loss"),
            num(s, "log_loss_low"),
            num(s, "log_loss_high"),
        );
        assert!(l >= previous);
        previous = l;
        assert!(low <= l && l <= high, "{s}");
        // The ratings learn who is stronger: better than a coin toss.
        assert!(l < 2f64.ln(), "{s}");
        assert!(num(s, "accuracy") > 0.6, "{s}");
        assert!(num(s, "brier") < 0.25, "{s}");
    }
    assert!((0.0..=1.0).contains(&num(&v, "best_share")));
    let text = ok(&["rate", path(&h), "--backtest"]);
    assert!(text.contains(&format!("{best} predicts these")), "{text}");
}

#[test]
fn games_between_newcomers_are_half_right_under_every_system() {
    // Every game is two newcomers: every forecast is even, so accuracy is 50%, never 100%.
    let mut text = String::from("game,player,place\n");
    for g in 0..40 {
        text.push_str(&format!("g{g},A{g},1\ng{g},B{g},2\n"));
    }
    let h = temp_file(&text, ".csv");
    let v = json(&["rate", path(&h), "--backtest"]);
    for s in v["systems"].as_array().unwrap() {
        assert_eq!(num(s, "accuracy"), 0.5, "{s}");
        assert!((num(s, "log_loss") - 2f64.ln()).abs() < 1e-12, "{s}");
    }
    // Identical forecasts: a four-way tie, each lowest in a quarter of the resamples.
    let tied = v["tied"].as_array().unwrap();
    assert_eq!(tied.len(), 3, "{v}");
    assert!((num(&v, "best_share") - 0.25).abs() < 1e-12, "{v}");
    for s in v["systems"].as_array().unwrap() {
        assert_eq!(num(s, "difference"), 0.0);
        assert_eq!(num(s, "difference_high"), 0.0);
    }
    let text = ok(&["rate", path(&h), "--backtest"]);
    assert!(text.contains(" tie: the same log-loss"), "{text}");
    assert!(!text.contains("predicts these"), "{text}");
}

#[test]
fn accuracy_is_not_applicable_when_every_game_is_a_draw() {
    let h = temp_file(
        "games:\n  - { order: [[Ana, Bo]] }\n  - { order: [[Bo, Cy]] }\n",
        ".yaml",
    );
    let v = json(&["rate", path(&h), "--backtest", "--systems", "elo,glicko2"]);
    for s in v["systems"].as_array().unwrap() {
        assert!(s["accuracy"].is_null(), "{s}");
    }
    let text = ok(&["rate", path(&h), "--backtest", "--systems", "elo,glicko2"]);
    assert!(text.contains("n/a"), "{text}");
}

#[test]
fn each_system_is_compared_with_the_best_on_the_same_resamples() {
    let h = temp_file(&club(900), ".csv");
    let v = json(&["rate", path(&h), "--backtest", "--seed", "3"]);
    let best = v["best"].as_str().unwrap();
    let first = &v["systems"][0];
    assert_eq!(first["system"], best);
    assert_eq!(num(first, "difference"), 0.0);
    for s in v["systems"].as_array().unwrap() {
        let d = num(s, "difference");
        assert!(
            (d - (num(s, "log_loss") - num(first, "log_loss"))).abs() < 1e-15,
            "{s}"
        );
        assert!(
            num(s, "difference_low") <= d && d <= num(s, "difference_high"),
            "{s}"
        );
        // A paired interval is narrower than the two systems' own intervals together.
        if s["system"] != best {
            let width = num(s, "difference_high") - num(s, "difference_low");
            let apart = (num(s, "log_loss_high") - num(s, "log_loss_low"))
                + (num(first, "log_loss_high") - num(first, "log_loss_low"));
            assert!(width < apart, "{s}");
        }
    }
    let text = ok(&["rate", path(&h), "--backtest", "--seed", "3"]);
    assert!(
        text.contains("vs best") && text.contains("paired"),
        "{text}"
    );
}

#[test]
fn the_bootstrap_is_seeded() {
    let h = temp_file(&club(300), ".csv");
    let a = ok(&["rate", path(&h), "--backtest", "--json", "--seed", "7"]);
    let b = ok(&["rate", path(&h), "--backtest", "--json", "--seed", "7"]);
    assert_eq!(a, b);
    let c = ok(&["rate", path(&h), "--backtest", "--json", "--seed", "8"]);
    assert_ne!(a, c, "another seed, other resamples");
}

#[test]
fn systems_whose_scale_the_starts_miss_sit_out_unless_named() {
    let v = json(&["rate", "examples/history.yaml", "--backtest"]);
    let skipped: Vec<&str> = v["skipped"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["system"].as_str().unwrap())
        .collect();
    assert_eq!(skipped, ["weng_lin", "trueskill"]);
    let e = fails(&[
        "rate",
        "examples/history.yaml",
        "--backtest",
        "--systems",
        "trueskill",
    ]);
    assert!(e.contains("1613 is not a `trueskill` rating"), "{e}");
    let e = fails(&[
        "rate",
        "examples/history.yaml",
        "--backtest",
        "--systems",
        "glico",
    ]);
    assert!(e.contains("glico") && e.contains("glicko2"), "{e}");
}

#[test]
fn the_plot_draws_each_players_rating_with_a_band_where_there_is_one() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.svg");
    let out = out.to_str().unwrap();
    let rules = temp_file(
        "name: g\nextends: elo\nscoring:\n  system: glicko2\n",
        ".yaml",
    );
    let o = run(&[
        "rate",
        "examples/history.yaml",
        "--rules",
        path(&rules),
        "--plot",
        out,
        "--players",
        "ana,Bo",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains(&format!("wrote {out}")),
        "{}",
        stderr(&o)
    );
    let svg = std::fs::read_to_string(out).unwrap();
    assert!(svg.starts_with("<svg"), "{}", &svg[..100.min(svg.len())]);
    // The legend names each line with its final rating (glicko2 of the example: Ana 1627).
    assert!(
        svg.contains("\nAna (1627)\n") && svg.contains("\nBo (1518)\n"),
        "legend"
    );
    assert!(!svg.contains("\nCy ("), "only the players asked for");
    assert_eq!(svg.matches("<polygon").count(), 2, "a deviation band each");
    assert!(svg.contains("bands: ± 2 deviations"));
    // Elo keeps no deviation: lines only.
    let elo = dir.path().join("e.svg");
    ok(&[
        "rate",
        "examples/history.yaml",
        "--plot",
        elo.to_str().unwrap(),
    ]);
    let svg = std::fs::read_to_string(&elo).unwrap();
    assert_eq!(svg.matches("<polygon").count(), 0);
    assert!(svg.contains("\nDi ("), "every player of a small club");
    let e = fails(&[
        "rate",
        "examples/history.yaml",
        "--plot",
        out,
        "--players",
        "Zed",
    ]);
    assert!(e.contains("Zed"), "{e}");
}

/// The points of the first line's stroke (the palette's first colour, solid).
fn first_line(svg: &str) -> Vec<(i64, i64)> {
    let line = svg
        .lines()
        .find(|l| l.contains("<polyline") && l.contains("stroke=\"#0072B2\" stroke-width=\"2\""))
        .expect("the first player's line");
    let points = line
        .split("points=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap();
    points
        .split_whitespace()
        .map(|xy| {
            let (x, y) = xy.split_once(',').unwrap();
            (x.parse().unwrap(), y.parse().unwrap())
        })
        .collect()
}

#[test]
fn the_plot_draws_only_ratings_that_existed_and_one_line_for_equal_players() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("p.svg");
    // Ana's two games of period 1 are rated from its start: one step at its end. Kai and Lu
    // only ever draw with each other: the same line, drawn once and named for both.
    let history = temp_file(
        "ratings: { Ana: 1613, Bo: 1609 }\ngames:\n  - { period: 1, order: [Bo, Ana] }\n  - { period: 1, order: [Ana, Cy] }\n  - { order: [[Kai, Lu]] }\n  - { order: [Ana, Bo] }\n",
        ".yaml",
    );
    ok(&[
        "rate",
        path(&history),
        "--plot",
        out.to_str().unwrap(),
        "--all",
    ]);
    let svg = std::fs::read_to_string(&out).unwrap();
    let ana = first_line(&svg);
    // Steps only: every segment flat or upright.
    assert!(
        ana.windows(2).all(|w| w[0].0 == w[1].0 || w[0].1 == w[1].1),
        "{ana:?}"
    );
    // Levels: the start, the period's end, the free game: three, not four.
    let mut levels: Vec<i64> = ana.iter().map(|p| p.1).collect();
    levels.dedup();
    assert_eq!(levels.len(), 3, "{ana:?}");
    // The rise to the period's end is at game 2, not inside the period.
    let xs: Vec<i64> = ana
        .windows(2)
        .filter(|w| w[0].0 == w[1].0)
        .map(|w| w[0].0)
        .collect();
    assert_eq!(xs.len(), 2, "{ana:?}");
    assert!(
        svg.contains("\nKai = Lu (1000)\n") || svg.contains("\nLu = Kai (1000)\n"),
        "{svg}"
    );
    assert_eq!(svg.matches("<polygon").count(), 0);
    // Top ten of a glicko2 club: no bands unless asked for.
    let rules = temp_file(
        "name: g\nextends: elo\nscoring:\n  system: glicko2\n",
        ".yaml",
    );
    let args = |bands: bool| {
        let mut a = vec![
            "rate",
            "examples/history.yaml",
            "--rules",
            path(&rules),
            "--plot",
            out.to_str().unwrap(),
        ];
        if bands {
            a.push("--bands");
        }
        ok(&a);
        std::fs::read_to_string(&out)
            .unwrap()
            .matches("<polygon")
            .count()
    };
    assert_eq!(args(false), 0);
    assert_eq!(args(true), 4, "Ana, Bo, Cy and Di");
}

#[test]
fn a_csv_history_is_capped_by_rows_said_in_help_and_streams_its_json() {
    let csv = temp_file(
        "period,game,player,place\n1,g1,Ana,1\n1,g1,Bo,2\n1,g2,Bo,1\n1,g2,Cy,2\n2,g3,Cy,1\n2,g3,Ana,2\n",
        ".csv",
    );
    let help = ok(&["rate", "--help"]);
    assert!(help.contains("--max-rows"), "{help}");
    let e = fails(&["rate", path(&csv), "--max-rows", "3"]);
    assert!(e.contains(":5:") && e.contains("--max-rows"), "{e}");
    ok(&["rate", path(&csv), "--max-rows", "6"]);
    // --history --json, written game by game, is the same document as the report's.
    let streamed: Value =
        serde_json::from_str(&ok(&["rate", path(&csv), "--history", "--json"])).unwrap();
    let games = streamed["games"].as_array().unwrap();
    assert_eq!(games.len(), 3);
    assert_eq!(games[2]["players"][0]["name"], "Cy");
    // Elo rates period 1 from its start: game 2's Bo starts from his period-start rating.
    assert_eq!(games[1]["players"][0]["before"], 1000.0);
    assert_eq!(streamed["players"].as_array().unwrap().len(), 3);
    assert!(streamed["ruleset_sha256"].is_string());
    let e = fails(&["rate", path(&csv), "--history", "--json", "--player", "Zed"]);
    assert!(e.contains("Zed"), "{e}");
}
