//! `rate --fit`: a system's parameters tuned to a club's history, each game forecast only
//! from the games before it, printed as an overlay the club's ruleset accepts; and Glicko-2's
//! deviation widened by dated idle time.
use crate::common::*;
use rand::{Rng, SeedableRng};
use serde_json::Value;

/// A club of 24 players whose strengths (Elo scale, spread ±260) drift from game to game,
/// as players improve and slip (each a step of up to ±26 a game), playing `games`
/// two-player games with results drawn from the true strengths (seeded PCG). K 32 follows
/// the drift too slowly.
fn club(games: usize, seed: u64) -> String {
    let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
    let mut skill: Vec<f64> = (0..24).map(|_| rng.gen_range(-260.0..260.0)).collect();
    let mut text = String::from("game,player,place\n");
    for g in 0..games {
        for s in skill.iter_mut() {
            *s += rng.gen_range(-26.0..26.0);
        }
        let a = rng.gen_range(0..24);
        let mut b = rng.gen_range(0..23);
        if b >= a {
            b += 1;
        }
        let p_a = 1.0 / (1.0 + 10f64.powf((skill[b] - skill[a]) / 400.0));
        let (first, second) = if rng.gen::<f64>() < p_a {
            (a, b)
        } else {
            (b, a)
        };
        text.push_str(&format!("g{g},P{first},1\ng{g},P{second},2\n"));
    }
    text
}

fn num(v: &Value, key: &str) -> f64 {
    v[key].as_f64().unwrap_or_else(|| panic!("{key} in {v}"))
}

#[test]
fn fitted_elo_beats_the_default_on_games_it_never_saw() {
    let h = temp_file(&club(1600, 33), ".csv");
    let v = json(&["rate", path(&h), "--rules", "elo", "--fit"]);
    assert_eq!(v["system"], "elo");
    assert_eq!(v["games"], 1600);
    assert_eq!(v["held_out"], 400, "the default holds out the last quarter");
    assert_eq!(v["fitted_games"], 1200);
    let k = &v["parameters"][0];
    assert_eq!(k["key"], "elo.k");
    assert_eq!(num(k, "before"), 32.0);
    // Drifting strengths: a K well above 32 keeps up with them.
    assert!(num(k, "after") > 40.0, "{v}");
    assert!((num(k, "low") - 4.0).abs() < 1e-12 && (num(k, "high") - 256.0).abs() < 1e-12);
    // Out of sample: the last 400 games, forecast from the games before each.
    let before = num(&v["before"], "log_loss");
    let after = num(&v["after"], "log_loss");
    assert!(after < before, "{v}");
    assert!((num(&v, "difference") - (after - before)).abs() < 1e-12);
    assert!(num(&v, "difference_high") < 0.0, "clearly better: {v}");
    assert!(num(&v, "fit_after") < num(&v, "fit_before"));
    // The interval brackets the value it is about.
    for side in ["before", "after"] {
        let s = &v[side];
        assert!(num(s, "low") <= num(s, "log_loss") && num(s, "log_loss") <= num(s, "high"));
    }
}

#[test]
fn the_fit_is_deterministic_and_its_numbers_recompute() {
    let h = temp_file(&club(600, 7), ".csv");
    let a = json(&[
        "rate",
        path(&h),
        "--rules",
        "elo",
        "--fit",
        "--holdout",
        "0",
    ]);
    let b = json(&[
        "rate",
        path(&h),
        "--rules",
        "elo",
        "--fit",
        "--holdout",
        "0",
    ]);
    assert_eq!(a, b);
    assert_eq!(a["held_out"], 0);
    // Pasting the fitted K gives the reported log-loss: the backtest of a ruleset with it.
    let k = num(&a["parameters"][0], "after");
    let rules = temp_file(
        &format!("extends: elo\nname: club\nscoring:\n  elo:\n    k: {k}\n"),
        ".yaml",
    );
    let backtest = json(&[
        "rate",
        path(&h),
        "--rules",
        path(&rules),
        "--backtest",
        "--systems",
        "elo",
    ]);
    let fitted = num(&backtest["systems"][0], "log_loss");
    assert!(
        (fitted - num(&a["after"], "log_loss")).abs() < 1e-12,
        "{a} {backtest}"
    );
    let default = json(&[
        "rate",
        path(&h),
        "--rules",
        "elo",
        "--backtest",
        "--systems",
        "elo",
    ]);
    assert!(
        (num(&default["systems"][0], "log_loss") - num(&a["before"], "log_loss")).abs() < 1e-12
    );
}

/// The printed overlay, pasted under a ruleset that extends the base, is a ruleset
/// `rules check` accepts, and the table prints the same overlay. `base` is a built-in or a
/// file of the project (copied beside the history).
fn overlay_loads(base: &str, fit_args: &[&str], history: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("games.csv"), history).unwrap();
    let extends = match std::path::Path::new(base).file_name() {
        Some(name) if base.contains('/') => {
            let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
            std::fs::copy(root.join(base), dir.path().join(name)).unwrap();
            name.to_string_lossy().into_owned()
        }
        _ => base.to_string(),
    };
    let mut args = vec!["rate", "games.csv", "--rules", extends.as_str(), "--fit"];
    args.extend_from_slice(fit_args);
    let ran = run_in(dir.path(), &[args.as_slice(), &["--json"]].concat(), None);
    assert!(ran.status.success(), "{}", stderr(&ran));
    let v: Value = serde_json::from_str(&stdout(&ran)).unwrap();
    let overlay = v["overlay"].as_str().unwrap().to_string();
    assert!(overlay.starts_with("scoring:\n"), "{overlay}");
    let text = format!("extends: {extends}\nname: club-fitted\n{overlay}");
    std::fs::write(dir.path().join("club.yaml"), &text).unwrap();
    let checked = run_in(dir.path(), &["rules", "check", "club.yaml"], None);
    assert!(checked.status.success(), "{text}\n{}", stderr(&checked));
    let table = run_in(dir.path(), &args, None);
    assert!(table.status.success(), "{}", stderr(&table));
    assert!(stdout(&table).contains(&overlay), "{}", stdout(&table));
    overlay
}

#[test]
fn every_systems_overlay_is_a_ruleset_the_club_can_use() {
    let history = club(300, 5);
    let elo = overlay_loads("elo", &[], &history);
    assert!(elo.starts_with("scoring:\n  elo:\n    k: "), "{elo}");
    let glicko = overlay_loads("elo", &["glicko2"], &history);
    assert!(
        glicko.contains("  system: glicko2\n  glicko2:\n    tau: "),
        "{glicko}"
    );
    assert!(glicko.contains("\n    deviation: "), "{glicko}");
    let trueskill = overlay_loads("elo", &["trueskill"], &history);
    for key in ["beta", "dynamics", "draw_probability"] {
        assert!(trueskill.contains(&format!("\n    {key}: ")), "{trueskill}");
    }
    let weng_lin = overlay_loads("elo", &["weng_lin"], &history);
    for key in ["beta", "dynamics"] {
        assert!(weng_lin.contains(&format!("\n    {key}: ")), "{weng_lin}");
    }
}

#[test]
fn a_k_formula_has_its_k_values_fitted_and_its_thresholds_kept() {
    let overlay = overlay_loads(
        "examples/rulesets/bga.yaml",
        &["--holdout", "0.2"],
        &club(500, 11),
    );
    let re = regex::Regex::new(
        r#"^scoring:\n  elo:\n    k: "if games < 10 then [0-9.]+ else if games < 20 then [0-9.]+ else [0-9.]+"\n$"#,
    )
    .unwrap();
    assert!(re.is_match(&overlay), "{overlay}");
}

#[test]
fn a_fit_refuses_what_it_cannot_fit() {
    let h = temp_file(&club(40, 1), ".csv");
    let e = fails(&[
        "rate",
        path(&h),
        "--rules",
        "elo",
        "--fit",
        "--holdout",
        "1",
    ]);
    assert!(e.contains("held-out share is 1"), "{e}");
    let e = fails(&["rate", path(&h), "--rules", "figf", "--fit"]);
    assert!(e.contains("no parameters to fit"), "{e}");
    let e = fails(&["rate", path(&h), "--rules", "elo", "--fit", "glicko"]);
    assert!(e.contains("system"), "{e}");
}

#[test]
fn glicko2_widens_an_idle_players_deviation_by_dated_time() {
    // Ana and Bo play on 2010-01-01, Ana and Cy ten years later (3652 days); 30 days a
    // rating period: 121 idle periods, each φ* = √(φ² + σ²) (Glickman, step 6).
    let rules = temp_file(
        "extends: elo\nname: monthly\nscoring:\n  system: glicko2\n  glicko2:\n    days_per_period: 30\n",
        ".yaml",
    );
    let first = "game,player,place,date\n1,Ana,1,2010-01-01\n1,Bo,2,2010-01-01\n";
    let both = format!("{first}2,Cy,1,2020-01-01\n2,Ana,2,2020-01-01\n");
    let player = |v: &Value, name: &str| -> Value {
        v["players"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["name"] == name)
            .unwrap_or_else(|| panic!("{name} in {v}"))
            .clone()
    };
    let one = temp_file(first, ".csv");
    let after_one = json(&["rate", path(&one), "--rules", path(&rules)]);
    let two = temp_file(&both, ".csv");
    let after_two = json(&["rate", path(&two), "--rules", path(&rules)]);
    let periods = (3652.0f64 / 30.0).floor();
    assert_eq!(periods, 121.0);
    // Bo, idle from his one game to the history's last day, by hand:
    let bo = player(&after_one, "Bo");
    let phi = num(&bo, "deviation") / 173.7178;
    let sigma = num(&bo, "volatility");
    let by_hand = (phi * phi + periods * sigma * sigma).sqrt() * 173.7178;
    let bo_now = player(&after_two, "Bo");
    assert!(
        (num(&bo_now, "deviation") - by_hand).abs() < 1e-9,
        "{bo_now} vs {by_hand}"
    );
    assert!(
        num(&bo_now, "deviation") > num(&bo, "deviation") + 15.0,
        "{bo_now}"
    );
    assert_eq!(
        num(&bo_now, "rating"),
        num(&bo, "rating"),
        "idle time moves no rating"
    );
    // Ana comes back with the widened deviation: the same as starting her there.
    let ana = player(&after_one, "Ana");
    let phi = num(&ana, "deviation") / 173.7178;
    let widened = (phi * phi + periods * num(&ana, "volatility").powi(2)).sqrt() * 173.7178;
    let restart = temp_file(
        &format!(
            "ratings:\n  Ana: {{ rating: {}, deviation: {widened}, volatility: {} }}\ngames:\n  - {{ order: [Cy, Ana] }}\n",
            num(&ana, "rating"),
            num(&ana, "volatility")
        ),
        ".yaml",
    );
    let again = json(&["rate", path(&restart), "--rules", path(&rules)]);
    for key in ["rating", "deviation", "volatility"] {
        let (a, b) = (
            num(&player(&after_two, "Ana"), key),
            num(&player(&again, "Ana"), key),
        );
        assert!((a - b).abs() < 1e-9, "{key}: {a} vs {b}");
    }
    // Without days_per_period, dates widen nothing (the built-in elo ruleset's glicko2).
    let undated = temp_file(
        "extends: elo\nname: plain\nscoring:\n  system: glicko2\n",
        ".yaml",
    );
    let kept = json(&["rate", path(&two), "--rules", path(&undated)]);
    let kept_one = json(&["rate", path(&one), "--rules", path(&undated)]);
    assert_eq!(
        num(&player(&kept, "Bo"), "deviation"),
        num(&player(&kept_one, "Bo"), "deviation")
    );
}

#[test]
fn the_help_page_states_every_range_the_fit_searches() {
    let page = ok(&["help", "ratings"]);
    for knob in arbiter::scoring::fit_ranges::KNOBS {
        let key = format!("{}.{}", knob.system.name(), knob.key);
        assert!(page.contains(&key), "{key} is not on `help ratings`");
    }
    for part in [
        "--fit",
        "--holdout",
        "golden-section",
        "days_per_period",
        "plackett_luce",
    ] {
        assert!(page.contains(part), "{part}");
    }
}
