//! `arbiter rate` with each system on its own scale: Glicko-2 (Glickman's worked example,
//! idle periods), Weng-Lin/TrueSkill μ and σ with the conservative rating, wrong-scale
//! starts refused, provisional players, and K / decay as formulas of a player's record.
use crate::common::*;
use serde_json::Value;

fn player<'a>(v: &'a Value, name: &str) -> &'a Value {
    v["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("{name} in {v}"))
}

fn num(v: &Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or_else(|| panic!("{key} in {v}"))
}

/// The row of `name` in game `game` (1-based) of a report with `--history`.
fn row<'a>(v: &'a Value, game: usize, name: &str) -> &'a Value {
    v["games"][game - 1]["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("{name} in game {game}"))
}

fn ruleset(text: &str) -> tempfile::NamedTempFile {
    temp_file(text, ".yaml")
}

const GLICKO: &str = "name: g\nextends: elo\nscoring:\n  system: glicko2\n";

#[test]
fn glickmans_worked_example_comes_out_exactly() {
    let rules = ruleset(GLICKO);
    let h = temp_file(
        "ratings:
  Me: { rating: 1500, deviation: 200, volatility: 0.06 }
  A: { rating: 1400, deviation: 30 }
  B: { rating: 1550, deviation: 100 }
  C: { rating: 1700, deviation: 300 }
games:
  - { period: 1, order: [Me, A] }
  - { period: 1, order: [B, Me] }
  - { period: 1, order: [C, Me] }
",
        ".yaml",
    );
    let v = json(&["rate", path(&h), "--rules", path(&rules)]);
    let me = player(&v, "Me");
    assert_eq!(format!("{:.2}", num(me, "rating")), "1464.06");
    assert_eq!(format!("{:.2}", num(me, "deviation")), "151.52");
    assert!((num(me, "volatility") - 0.05999).abs() < 1e-5, "{me}");
    // Two deviations below, as the built-in ruleset's `conservative: 2` says.
    let c = num(me, "conservative");
    assert!((c - (num(me, "rating") - 2.0 * num(me, "deviation"))).abs() < 1e-9);
    let table = ok(&["rate", path(&h), "--rules", path(&rules), "--history"]);
    assert!(
        table.contains("1464.1") && table.contains("151.52"),
        "{table}"
    );
    assert!(table.contains("rating−2σ"), "{table}");
    assert!(
        table.contains("`before` is the rating at the period's start, `after` at its end"),
        "{table}"
    );
}

#[test]
fn an_idle_glicko_player_grows_uncertain_period_by_period() {
    let rules = ruleset(GLICKO);
    let h = temp_file(
        "games:
  - { period: 1, order: [X, A] }
  - { period: 2, order: [A, B] }
  - { period: 3, order: [B, A] }
  - { period: 4, order: [A, B] }
",
        ".yaml",
    );
    let v = json(&["rate", path(&h), "--rules", path(&rules), "--history"]);
    // X played in period 1 only: three idle periods since, each φ² + σ² on Glicko-2's scale.
    let after_first = num(row(&v, 1, "X"), "deviation");
    let x = player(&v, "X");
    let sigma = num(x, "volatility") * 173.7178;
    let want = (after_first * after_first + 3.0 * sigma * sigma).sqrt();
    assert!(
        (num(x, "deviation") - want).abs() < 1e-6,
        "{} vs {want}",
        num(x, "deviation")
    );
    assert!(num(x, "deviation") > after_first);
}

#[test]
fn weng_lin_and_trueskill_take_mu_and_sigma_and_show_mu_minus_three_sigma() {
    for system in ["weng_lin", "trueskill"] {
        let rules = ruleset(&format!(
            "name: b\nextends: elo\nscoring:\n  system: {system}\n"
        ));
        let h = temp_file(
            "ratings: { Ana: { mu: 30, sigma: 2 } }\ngames:\n  - { order: [Bo, Ana] }\n",
            ".yaml",
        );
        let v = json(&["rate", path(&h), "--rules", path(&rules)]);
        let ana = player(&v, "Ana");
        assert!(num(ana, "rating") < 30.0, "{system}: an upset costs Ana");
        assert!(num(ana, "deviation") < 2.0 + 0.09, "{system}: {ana}");
        let c = num(ana, "conservative");
        assert!((c - (num(ana, "rating") - 3.0 * num(ana, "deviation"))).abs() < 1e-9);
        assert_eq!(num(&v, "conservative"), 3.0);
    }
}

#[test]
fn a_start_on_another_systems_scale_is_an_error_at_its_line() {
    let ts = ruleset("name: ts\nextends: elo\nscoring:\n  system: trueskill\n");
    let e = fails(&["rate", "examples/history.yaml", "--rules", path(&ts)]);
    assert!(
        e.strip_prefix("error: ")
            .unwrap_or_else(|| panic!("no `error: ` in {}", e))
            .starts_with("examples/history.yaml:3:17: 1613 is not a `trueskill` rating"),
        "{e}"
    );
    // A Weng-Lin σ larger than a newcomer's is another scale's deviation too.
    let wl = ruleset("name: wl\nextends: elo\nscoring:\n  system: weng_lin\n");
    let h = temp_file(
        "ratings:\n  Ana: { rating: 25, deviation: 350 }\ngames:\n  - { order: [Bo, Ana] }\n",
        ".yaml",
    );
    let e = fails(&["rate", path(&h), "--rules", path(&wl)]);
    assert!(
        e.contains(":2:8: a deviation of 350 is more than a new `weng_lin` player's"),
        "{e}"
    );
}

#[test]
fn provisional_players_are_flagged_and_off_the_leaderboard_unless_all() {
    let rules = ruleset("name: p\nextends: elo\nscoring:\n  system: elo\n  provisional_games: 2\n");
    let h = temp_file(
        "games:\n  - { order: [Ana, Bo] }\n  - { order: [Bo, Ana] }\n  - { order: [Cy, Ana] }\n",
        ".yaml",
    );
    let v = json(&["rate", path(&h), "--rules", path(&rules)]);
    assert_eq!(player(&v, "Ana")["provisional"], false);
    assert_eq!(player(&v, "Bo")["provisional"], false);
    assert_eq!(player(&v, "Cy")["provisional"], true);
    // Cy won his only game, yet ranks after the established players.
    assert_eq!(player(&v, "Cy")["rank"], 3);
    let board = ok(&["rate", path(&h), "--rules", path(&rules)]);
    assert!(!board.contains("Cy"), "{board}");
    assert!(
        board.contains("1 provisional player (fewer than 2 games) not shown: --all lists them"),
        "{board}"
    );
    let all = ok(&["rate", path(&h), "--rules", path(&rules), "--all"]);
    assert!(all.contains("Cy (provisional)"), "{all}");
}

/// E of `own` against `other` on the 400 scale.
fn expected(own: f64, other: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf((other - own) / 400.0))
}

#[test]
fn bga_k_is_a_formula_of_games_played() {
    // Ana beats Bo 25 times: K 60 for each player's first 10 games, 40 for the next 10, then 20.
    let mut text = String::from("games:\n");
    for _ in 0..25 {
        text.push_str("  - { order: [Ana, Bo] }\n");
    }
    let h = temp_file(&text, ".yaml");
    let v = json(&[
        "rate",
        path(&h),
        "--rules",
        "examples/rulesets/bga.yaml",
        "--history",
        "--all",
    ]);
    assert_eq!(num(row(&v, 1, "Ana"), "change"), 30.0, "60 · ½");
    for (game, k) in [
        (2, 60.0),
        (10, 60.0),
        (11, 40.0),
        (20, 40.0),
        (21, 20.0),
        (25, 20.0),
    ] {
        let (a, b) = (row(&v, game, "Ana"), row(&v, game, "Bo"));
        let want = k * (1.0 - expected(num(a, "before"), num(b, "before")));
        assert!(
            (num(a, "change") - want).abs() < 1e-9,
            "game {game}: {} vs {want}",
            num(a, "change")
        );
    }
    assert_eq!(player(&v, "Ana")["provisional"], false);
}

#[test]
fn naf_k_grows_with_the_tournament_field() {
    // Four coaches at the cup: K = 2·√4 = 4; equal ratings → ±2 on the NAF's 150 scale.
    let h = temp_file(
        "games:\n  - { period: cup, order: [Ana, Bo] }\n  - { period: cup, order: [Cy, Di] }\n",
        ".yaml",
    );
    let v = json(&["rate", path(&h), "--rules", "examples/rulesets/naf.yaml"]);
    assert_eq!(num(player(&v, "Ana"), "rating"), 152.0);
    assert_eq!(num(player(&v, "Di"), "rating"), 148.0);
    // 40 coaches at a non-major count as 32: K = 2·√32.
    let mut text = String::from("games:\n");
    for i in 0..20 {
        text.push_str(&format!("  - {{ period: big, order: [W{i}, L{i}] }}\n"));
    }
    let h = temp_file(&text, ".yaml");
    let v = json(&["rate", path(&h), "--rules", "examples/rulesets/naf.yaml"]);
    let k = 2.0 * 32f64.sqrt();
    assert!((num(player(&v, "W0"), "rating") - (150.0 + k / 2.0)).abs() < 1e-9);
}

#[test]
fn elo_decay_pulls_an_idle_rating_toward_the_start() {
    let rules = ruleset(
        "name: d\nextends: elo\nscoring:\n  system: elo\n  elo:\n    decay: \"initial + (rating - initial) * 0.5 ^ idle_periods\"\n",
    );
    let h = temp_file(
        "games:
  - { period: 1, order: [Ana, Bo] }
  - { period: 2, order: [Cy, Di] }
  - { period: 3, order: [Ana, Cy] }
",
        ".yaml",
    );
    let v = json(&["rate", path(&h), "--rules", path(&rules), "--history"]);
    // Ana won period 1 (1016), sat out period 2: she comes back at 1000 + 16 · ½.
    assert_eq!(num(row(&v, 3, "Ana"), "before"), 1008.0);
    // Bo lost period 1 (984) and sat out 2 and 3: the standings are as of now.
    assert_eq!(num(player(&v, "Bo"), "rating"), 996.0);
}

#[test]
fn dates_give_idle_days_to_the_k_formula() {
    let rules = ruleset(
        "name: d\nextends: elo\nscoring:\n  system: elo\n  elo:\n    k: \"if idle_days > 30 then 64 else 32\"\n",
    );
    let h = temp_file(
        "game,player,place,date\ng1,Ana,1,2024-01-01\ng1,Bo,2,2024-01-01\ng2,Ana,1,2024-03-01\ng2,Cy,2,2024-03-01\n",
        ".csv",
    );
    let v = json(&["rate", path(&h), "--rules", path(&rules), "--history"]);
    let (a, c) = (row(&v, 2, "Ana"), row(&v, 2, "Cy"));
    let e = expected(1016.0, 1000.0);
    assert!((num(a, "change") - 64.0 * (1.0 - e)).abs() < 1e-9, "{a}");
    assert!((num(c, "change") + 32.0 * (1.0 - e)).abs() < 1e-9, "{c}");
}

#[test]
fn a_period_row_says_it_is_computed_from_the_periods_start() {
    let table = ok(&["rate", "examples/history.yaml", "--history"]);
    // Ana's second game of period 1 starts from 1613 again, not from her first game's result.
    assert!(table.contains("Ana         1    1613  1613.9"), "{table}");
    assert!(
        table.contains(
            "* a rating period: the change is computed from the rating at the period's start"
        ),
        "{table}"
    );
}
