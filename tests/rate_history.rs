//! `arbiter rate`: Elo, multiplayer Elo, periods, the Bayesian systems, the score ladders,
//! YAML and CSV histories, per-game changes, and located errors.
use crate::common::*;
use serde_json::Value;

const HISTORY: &str = "rules: elo
ratings: { Ana: 1613, Bo: 1609 }
games:
  - { period: 1, order: [Bo, Ana] }
  - { period: 1, order: [[Ana, Cy]] }
";

fn rating(v: &Value, name: &str) -> f64 {
    v["players"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("{name} in {v}"))["rating"]
        .as_f64()
        .unwrap()
}

fn near(a: f64, b: f64, tol: f64) {
    assert!((a - b).abs() < tol, "{a} != {b}");
}

#[test]
fn two_player_elo_by_hand() {
    // Bo (1609) beats Ana (1613): E = 1 / (1 + 10^(4/400)) = 0.49424; 32 · 0.50576 = 16.184.
    let f = temp_file(
        "ratings: { Ana: 1613, Bo: 1609 }\ngames:\n  - { order: [Bo, Ana] }\n",
        ".yaml",
    );
    let v = json(&["rate", path(&f)]);
    near(rating(&v, "Bo"), 1625.1842, 1e-4);
    near(rating(&v, "Ana"), 1596.8158, 1e-4);
    assert_eq!(v["players"][0]["name"], "Ana", "input order");
    assert_eq!(v["players"][1]["rank"], 1);
}

#[test]
fn a_period_rates_every_game_against_its_start() {
    let f = temp_file(HISTORY, ".yaml");
    let v = json(&["rate", path(&f)]);
    // Ana: −16.184 (vs Bo) + 32 · (0.5 − E(1613 vs 1000)) from 1613 → 1581.7280.
    near(rating(&v, "Ana"), 1581.7280, 1e-3);
    near(rating(&v, "Cy"), 1015.0878, 1e-3);
    near(rating(&v, "Bo"), 1625.1842, 1e-3);
    // Without periods the draw is computed from Ana's 1596.8 → 1581.8143.
    let rules = temp_file("extends: elo\nscoring:\n  periods: false\n", ".yaml");
    let v = json(&["rate", path(&f), "--rules", path(&rules)]);
    near(rating(&v, "Ana"), 1581.8143, 1e-3);
}

#[test]
fn multiplayer_elo_by_hand() {
    // Four at 1000, K 32: E = 0.25 each, S = 3/6, 2/6, 1/6, 0 → 32 · 3 · (S − E) = +24, +8, −8, −24.
    let f = temp_file("games:\n  - { order: [A, B, C, D] }\n", ".yaml");
    let v = json(&["rate", path(&f), "--rules", "elo"]);
    for (n, want) in [("A", 1024.0), ("B", 1008.0), ("C", 992.0), ("D", 976.0)] {
        near(rating(&v, n), want, 1e-9);
    }
    // Scores order a table too (higher is better), and a tie shares the places.
    let f = temp_file("games:\n  - { scores: { A: 10, B: 30, C: 30 } }\n", ".yaml");
    let v = json(&["rate", path(&f)]);
    // N 3, pairs 3, E = 1/3; B and C place 1.5 → S = 0.5: 32 · 2 · (1/6) = +10.667; A S = 0: −21.333.
    near(rating(&v, "B"), 1000.0 + 64.0 / 6.0, 1e-9);
    near(rating(&v, "A"), 1000.0 - 64.0 / 3.0, 1e-9);
}

#[test]
fn k_can_be_a_formula_of_rating_and_games() {
    let rules = temp_file(
        "extends: elo\nscoring:\n  elo:\n    k: if games < 1 then 40 else 20\n",
        ".yaml",
    );
    let f = temp_file(
        "games:\n  - { order: [A, B] }\n  - { order: [A, B] }\n",
        ".yaml",
    );
    let v = json(&["rate", path(&f), "--rules", path(&rules), "--history"]);
    assert_eq!(v["games"][0]["players"][0]["change"], 20.0);
    // Second game: K 20, A 1020 vs B 980 → 20 · (1 − 1/(1 + 10^(−40/400))).
    let e = 1.0 / (1.0 + 10f64.powf(-0.1));
    near(
        v["games"][1]["players"][0]["change"].as_f64().unwrap(),
        20.0 * (1.0 - e),
        1e-9,
    );
}

#[test]
fn csv_histories_rate_like_yaml() {
    let csv = temp_file(
        "period,game,player,place\n1,g1,Bo,1\n1,g1,Ana,2\n1,g2,Ana,1\n1,g2,Cy,1\n",
        ".csv",
    );
    let yaml = temp_file(
        HISTORY
            .replace("ratings: { Ana: 1613, Bo: 1609 }\n", "")
            .as_str(),
        ".yaml",
    );
    let a = json(&["rate", path(&csv), "--rules", "elo"]);
    let b = json(&["rate", path(&yaml)]);
    for n in ["Ana", "Bo", "Cy"] {
        near(rating(&a, n), rating(&b, n), 1e-9);
    }
}

#[test]
fn history_prints_every_games_changes() {
    let f = temp_file(HISTORY, ".yaml");
    let out = ok(&["rate", path(&f), "--history"]);
    assert!(
        out.contains("before") && out.contains("+16.2") && out.contains("-16.2"),
        "{out}"
    );
    let out = ok(&["rate", path(&f), "--player", "cy"]);
    let lines: Vec<&str> = out.lines().filter(|l| l.contains("Cy")).collect();
    assert_eq!(lines.len(), 2, "standings line + one game:\n{out}");
    let v = json(&["rate", path(&f), "--history"]);
    assert_eq!(v["games"][1]["players"][1]["place"], 1.5);
    assert_eq!(v["games"][1]["period"], "1");
}

#[test]
fn figf_ranking_is_the_mean_of_game_points() {
    let f = temp_file(
        "rules: figf\ngames:\n  - { scores: { A: 7500, B: 7200, C: 6600 } }\n  - { scores: { A: 100, B: 200 } }\n",
        ".yaml",
    );
    let v = json(&["rate", path(&f)]);
    // A: 2040 then 500 → 1270; B: 960 then 2500 → 1730; C: 880.
    assert_eq!(rating(&v, "A"), 1270.0);
    assert_eq!(rating(&v, "B"), 1730.0);
    assert_eq!(rating(&v, "C"), 880.0);
    let sum = temp_file(
        "extends: figf\nscoring:\n  percentile:\n    aggregate: sum\n",
        ".yaml",
    );
    let v = json(&["rate", path(&f), "--rules", path(&sum)]);
    assert_eq!(rating(&v, "A"), 1000.0 + 2540.0);
}

#[test]
fn the_advciv_ladder_adds_changes_to_1000() {
    let f = temp_file(
        "rules: advciv\ngames:\n  - { scores: { Illyria: 5042, Crete: 3791, Egypt: 3789, Africa: 3211, Babylon: 3183, Assyria: 2878, Iberia: 1807 } }\n  - { scores: { Iberia: 10, Crete: 5 } }\n",
        ".yaml",
    );
    let v = json(&["rate", path(&f)]);
    assert_eq!(rating(&v, "Illyria"), 1106.0);
    assert_eq!(rating(&v, "Iberia"), 1000.0 - 100.0 + 100.0);
    assert_eq!(rating(&v, "Crete"), 1027.0 - 100.0);
}

#[test]
fn weng_lin_and_trueskill_are_chosen_in_the_ruleset() {
    let f = temp_file("games:\n  - { order: [A, B] }\n", ".yaml");
    let wl = temp_file("extends: elo\nscoring:\n  system: weng_lin\n", ".yaml");
    let v = json(&["rate", path(&f), "--rules", path(&wl)]);
    // The skillratings crate's own two-player figures for default players.
    near(rating(&v, "A"), 27.635_231_383_473_65, 1e-9);
    near(rating(&v, "B"), 22.364_768_616_526_35, 1e-9);
    near(
        v["players"][0]["deviation"].as_f64().unwrap(),
        8.065_506_316_323_548,
        1e-9,
    );
    let ts = temp_file("extends: elo\nscoring:\n  system: trueskill\n", ".yaml");
    let v = json(&["rate", path(&f), "--rules", path(&ts)]);
    let (a, b) = (rating(&v, "A"), rating(&v, "B"));
    assert!(
        a > 25.0 && b < 25.0 && (a - 25.0 - (25.0 - b)).abs() < 1e-9,
        "{a} {b}"
    );
    assert!(v["players"][0]["deviation"].as_f64().unwrap() < 8.3334);
}

#[test]
fn bad_histories_are_located() {
    let f = temp_file("games:\n  - { period: 1, order: [A, B] }\n  - { period: 2, order: [A, B] }\n  - { period: 1, order: [A, B] }\n", ".yaml");
    let e = fails(&["rate", path(&f)]);
    assert!(
        e.contains(":4:15:") && e.contains("period 1 comes after period 2"),
        "{e}"
    );
    // Named periods have no order of their own: a period met again after another began.
    let f = temp_file("games:\n  - { period: a, order: [A, B] }\n  - { period: b, order: [A, B] }\n  - { period: a, order: [A, B] }\n", ".yaml");
    let e = fails(&["rate", path(&f)]);
    assert!(
        e.contains(":4:15:") && e.contains("keep a period's games together"),
        "{e}"
    );
    let f = temp_file("games:\n  - { order: [A, [B, a]] }\n", ".yaml");
    let e = fails(&["rate", path(&f)]);
    assert!(e.contains(":2:22:") && e.contains("listed twice"), "{e}");
    let f = temp_file("games:\n  - { order: [A] }\n", ".yaml");
    let e = fails(&["rate", path(&f)]);
    assert!(
        e.contains(":2:5:") && e.contains("at least two players"),
        "{e}"
    );
    let f = temp_file("rules: figf\ngames:\n  - { order: [A, B] }\n", ".yaml");
    let e = fails(&["rate", path(&f)]);
    assert!(e.contains(":3:14:") && e.contains("`scores`"), "{e}");
    let f = temp_file("rules: cep\ngames: []\n", ".yaml");
    let e = fails(&["rate", path(&f)]);
    assert!(e.contains("arbiter score"), "{e}");
    let f = temp_file("game,player,place\ng1,A,1\ng1,B,x\n", ".csv");
    let e = fails(&["rate", path(&f)]);
    assert!(
        e.contains(":3:6:") && e.contains("`x` is not a number"),
        "{e}"
    );
    let f = temp_file(
        "game,player,place\ng1,A,1\ng1,B,2\ng2,B,1\ng2,A,2\ng1,C,2\n",
        ".csv",
    );
    let e = fails(&["rate", path(&f)]);
    assert!(
        e.contains(":6:1:") && e.contains("keep a game's rows together"),
        "{e}"
    );
    let f = temp_file("game,player,place\ng1,A,1\ng1,B,2\ng1,a,3\n", ".csv");
    let e = fails(&["rate", path(&f)]);
    assert!(
        e.contains(":4:4:") && e.contains("`a` is listed twice"),
        "{e}"
    );
    let f = temp_file("game,player,score\ng1,A,1\ng2,B,2\ng2,C,3\n", ".csv");
    let e = fails(&["rate", path(&f), "--rules", "figf"]);
    assert!(
        e.contains(":2:1:") && e.contains("at least two players"),
        "{e}"
    );
    let f = temp_file("game,player,place\ng1,A,1\ng1,B,2\n", ".csv");
    let e = fails(&["rate", path(&f), "--rules", "advciv"]);
    assert!(e.contains(":2:") && e.contains("`scores`"), "{e}");
    let f = temp_file("game,player\ng1,A\n", ".csv");
    let e = fails(&["rate", path(&f)]);
    assert!(e.contains(":1:1:") && e.contains("`place`"), "{e}");
}

/// A typed `--rules` is checked before the history is read: a misspelt name answers at once,
/// even when the history (which may be millions of rows) has a mistake of its own further down.
#[test]
fn a_misspelt_rules_name_is_reported_before_the_history_is_read() {
    let f = temp_file(
        "date,game,player,score\n2024-01-01,g1,Ann,1\n2024-01-01,g1,Bob,x\n",
        ".csv",
    );
    let e = fails(&["rate", path(&f), "--rules", "elo-fide"]);
    assert!(e.contains("--rules elo-fide"), "{e}");
    assert!(!e.contains("is not a number"), "{e}");
    // With a known ruleset, the history's own mistake is found, where it is.
    let e = fails(&["rate", path(&f), "--rules", "elo"]);
    assert!(
        e.contains(":3:19:") && e.contains("`x` is not a number"),
        "{e}"
    );
}

#[test]
fn csv_scores_rate_the_score_ladders() {
    let f = temp_file(
        "period,game,player,score\n1,a,A,7500\n1,a,B,7200\n1,a,C,6600\n2,b,A,100\n2,b,B,200\n",
        ".csv",
    );
    let v = json(&["rate", path(&f), "--rules", "figf"]);
    assert_eq!(rating(&v, "A"), 1270.0);
    assert_eq!(rating(&v, "B"), 1730.0);
    let v = json(&["rate", path(&f), "--rules", "advciv", "--history"]);
    // Game a: spreads 900, 600, 0 of a 300 pot → 180, 120, 0; game b: B takes the 200 pot.
    assert_eq!(rating(&v, "A"), 1000.0 + 80.0 - 100.0);
    assert_eq!(rating(&v, "B"), 1000.0 + 20.0 + 100.0);
    assert_eq!(v["games"][1]["players"][0]["score"], 200.0);
}

#[test]
fn starting_uncertainty_can_be_given_for_bayesian_systems() {
    let f = temp_file(
        "ratings: { A: { rating: 30, uncertainty: 1 } }\ngames:\n  - { order: [B, A] }\n",
        ".yaml",
    );
    let wl = temp_file("extends: elo\nscoring:\n  system: weng_lin\n", ".yaml");
    let v = json(&["rate", path(&f), "--rules", path(&wl)]);
    // A sure player loses little; the newcomer gains much.
    let (a, b) = (rating(&v, "A"), rating(&v, "B"));
    assert!(a < 30.0 && a > 29.5, "{a}");
    assert!(b > 27.0, "{b}");
    assert!(v["players"][0]["deviation"].as_f64().unwrap() <= 1.0);
}

#[test]
fn csv_cells_may_be_padded_quoted_and_commented() {
    let f = temp_file(
        "# club ladder, spring\n game , player , place\n g1 ,\"Smith, Ana\", 1\n g1 , Bo , 2\n",
        ".csv",
    );
    let v = json(&["rate", path(&f), "--rules", "elo"]);
    assert_eq!(rating(&v, "Smith, Ana"), 1016.0);
    assert_eq!(rating(&v, "Bo"), 984.0);
}
