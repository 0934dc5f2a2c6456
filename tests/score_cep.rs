//! CEP scenario scoring through the binary: the source's example digit for digit, every
//! ruling on hand-computed games, and the factor table.
use crate::common::*;
use serde_json::Value;

const EXAMPLE: &str = "rules: cep
turns: 12
ranked: true
sides:
  - name: Trialones
    result: win
    players:
      - name: Teniente
        rank: teniente
        ships:
          - { type: trialon, count: 3, destroyed: true }
      - name: Capitán
        rank: capitán
        ships:
          - { type: trialon, count: 2, entered: 3, structure_left: 2 }
  - name: Virel
    result: loss
    players:
      - name: Mayor
        rank: mayor
        ships:
          - { type: virel, destroyed: true }
          - { type: virel, entered: 3 }
";

fn points(v: &Value) -> Vec<(String, i64)> {
    v["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_string(),
                p["points"].as_i64().unwrap(),
            )
        })
        .collect()
}

fn pairs(list: &[(&str, i64)]) -> Vec<(String, i64)> {
    list.iter().map(|(n, p)| (n.to_string(), *p)).collect()
}

fn close(a: &Value, b: f64) {
    assert!((a.as_f64().unwrap() - b).abs() < 1e-9, "{a} != {b}");
}

#[test]
fn the_sources_example_scores_31_16_13() {
    let f = temp_file(EXAMPLE, ".yaml");
    let v = json(&["score", path(&f)]);
    assert_eq!(
        points(&v),
        pairs(&[("Teniente", 31), ("Capitán", 16), ("Mayor", 13)])
    );
    close(&v["game_value"], 241.5);
    close(&v["residue"], 75.0);
    close(&v["violence"], 75.0 / 241.5);
    let p = &v["players"];
    close(&p[0]["own_value"], 81.0);
    close(&p[1]["own_value"], 45.0);
    close(&p[0]["side_value"], 126.0);
    close(&p[2]["own_value"], 115.5);
    close(&p[0]["result"], 0.75 * 81.0 / 126.0);
    assert_eq!(
        [
            p[0]["grade_index"].as_i64(),
            p[1]["grade_index"].as_i64(),
            p[2]["grade_index"].as_i64()
        ],
        [Some(2), Some(1), Some(-1)]
    );
    close(&p[0]["grade"], 0.85);
    close(&p[1]["grade"], 0.80);
    close(&p[2]["grade"], 0.70);
    assert_eq!(v["sides"][0]["rank"], "capitán");
}

#[test]
fn two_decimal_intermediates_match_the_sources_arithmetic() {
    let rules = temp_file(
        "extends: cep\nscoring:\n  cep:\n    rounding: two_decimals\n",
        ".yaml",
    );
    let f = temp_file(EXAMPLE, ".yaml");
    let v = json(&["score", path(&f), "--rules", path(&rules)]);
    assert_eq!(
        points(&v),
        pairs(&[("Teniente", 31), ("Capitán", 16), ("Mayor", 13)])
    );
    // The source: 0.48 · 0.31 · 0.85 · 241.5 = 30.54; 0.27 · 0.31 · 0.80 · 241.5 = 16.17.
    close(&v["players"][0]["result"], 0.48);
    close(&v["players"][1]["result"], 0.27);
    close(&v["violence"], 0.31);
    assert!((v["players"][0]["exact"].as_f64().unwrap() - 30.54).abs() < 0.01);
    assert!((v["players"][1]["exact"].as_f64().unwrap() - 16.17).abs() < 0.01);
    assert!((v["players"][2]["exact"].as_f64().unwrap() - 13.10).abs() < 0.01);
}

#[test]
fn the_table_shows_every_factor() {
    let f = temp_file(EXAMPLE, ".yaml");
    let out = ok(&["score", path(&f)]);
    for header in ["Nj", "Nb", "In", "Res", "v", "Ig", "G", "Vp", "points"] {
        assert!(
            out.split_whitespace().any(|w| w == header),
            "no {header} column:\n{out}"
        );
    }
    assert!(out.contains("Vp = 241.5, Rp = 75"), "{out}");
    let teniente = out.lines().find(|l| l.starts_with("Teniente")).unwrap();
    assert!(
        teniente.contains("0.85") && teniente.contains("+2") && teniente.trim_end().ends_with("31"),
        "{teniente}"
    );
}

/// Side A (one player, a ship that left the map after turn 6 of 10) against side B.
fn left_game(result_a: &str, result_b: &str) -> String {
    format!(
        "turns: 10
sides:
  - name: A
    result: {result_a}
    players:
      - name: Ana
        ships: [{{ value: 100, structure: 5, left: 6 }}]
  - name: B
    result: {result_b}
    players:
      - name: Bo
        ships: [{{ value: 50, destroyed: true }}]
"
    )
}

#[test]
fn a_ship_that_left_counts_the_turns_it_was_present() {
    // Ana's ship: 100 · 6/10 = 60 VP, survives whole; Bo's 50 VP destroyed.
    // Vp 110, Rp 60, unranked G 0.75: Ana 0.75 · 60/110 · 0.75 · 110 = 33.75; Bo 0.25 · 60 · 0.75 = 11.25.
    let f = temp_file(&left_game("win", "loss"), ".yaml");
    let v = json(&["score", path(&f), "--rules", "cep"]);
    assert_eq!(points(&v), pairs(&[("Ana", 34), ("Bo", 11)]));
    close(&v["game_value"], 110.0);
    close(&v["residue"], 60.0);
    close(&v["players"][0]["grade"], 0.75);
    assert_eq!(v["ranked"], false);
}

#[test]
fn a_draw_gives_each_side_the_draw_index() {
    // 0.5 · 60 · 0.75 = 22.5 each, rounded half away from zero.
    let f = temp_file(&left_game("draw", "draw"), ".yaml");
    let v = json(&["score", path(&f), "--rules", "cep"]);
    assert_eq!(points(&v), pairs(&[("Ana", 23), ("Bo", 23)]));
    close(&v["players"][0]["index"], 0.5);
}

const CLAMP_RULES: &str =
    "extends: cep\nscoring:\n  cep:\n    ranks:\n      +coronel: 5\n      +general: 10\n";

#[test]
fn the_grade_index_is_clamped_at_five() {
    let game = left_game("win", "loss")
        .replace("- name: Ana\n", "- name: Ana\n        rank: teniente\n")
        .replace("- name: Bo\n", "- name: Bo\n        rank: general\n");
    let f = temp_file(&game, ".yaml");
    let rules = temp_file(CLAMP_RULES, ".yaml");
    let v = json(&["score", path(&f), "--rules", path(&rules)]);
    // teniente (2) vs general (10): +8 → +5, G 1.0: 0.75 · 60 · 1 = 45; general −5, G 0.5: 0.25 · 60 · 0.5 = 7.5.
    assert_eq!(v["players"][0]["grade_index"], 5);
    assert_eq!(v["players"][1]["grade_index"], -5);
    assert_eq!(points(&v), pairs(&[("Ana", 45), ("Bo", 8)]));
}

#[test]
fn three_sides_grade_against_the_highest_enemy_rank() {
    let game = "turns: 10
ranked: true
sides:
  - { name: A, result: win, players: [{ name: a, rank: Teniente, ships: [{ value: 100 }] }] }
  - { name: B, result: loss, players: [{ name: b, rank: MAYOR, ships: [{ value: 50 }] }] }
  - { name: C, result: loss, players: [{ name: c, rank: capitan, ships: [{ value: 50 }] }] }
";
    let f = temp_file(game, ".yaml");
    let v = json(&["score", path(&f), "--rules", "cep"]);
    // v = 1, Vp = 200. a: +2 (vs mayor) → 0.75·0.85·200 = 127.5; b: −1 (vs capitán) → 0.25·0.7·200 = 35; c: +1 → 0.25·0.8·200 = 40.
    assert_eq!(points(&v), pairs(&[("a", 128), ("b", 35), ("c", 40)]));
    assert_eq!(v["players"][2]["rank"], "capitán");
}

#[test]
fn unranked_games_use_the_unranked_grade() {
    let f = temp_file(&EXAMPLE.replace("ranked: true", "ranked: false"), ".yaml");
    let v = json(&["score", path(&f)]);
    for p in v["players"].as_array().unwrap() {
        close(&p["grade"], 0.75);
        assert_eq!(p["grade_index"], 0);
    }
    // Teniente: 0.75 · 81/126 · 75 · 0.75 = 27.12; Capitán 0.75 · 45/126 · 75 · 0.75 = 15.07; Mayor 0.25 · 75 · 0.75 = 14.06.
    assert_eq!(
        points(&v),
        pairs(&[("Teniente", 27), ("Capitán", 15), ("Mayor", 14)])
    );
}

#[test]
fn a_house_rule_formula_changes_the_points() {
    let rules = temp_file(
        "extends: cep\nscoring:\n  cep:\n    points: result * grade * game_value\n",
        ".yaml",
    );
    let f = temp_file(EXAMPLE, ".yaml");
    let v = json(&["score", path(&f), "--rules", path(&rules)]);
    // Without violence: Mayor 0.25 · 0.7 · 241.5 = 42.26.
    assert_eq!(v["players"][2]["points"], 42);
}

#[test]
fn a_formula_with_an_unknown_variable_is_refused_at_its_place() {
    let rules = temp_file(
        "extends: cep\nscoring:\n  cep:\n    points: result * violenec\n",
        ".yaml",
    );
    let f = temp_file(EXAMPLE, ".yaml");
    let err = fails(&["score", path(&f), "--rules", path(&rules)]);
    assert!(
        err.contains(":4:22:")
            && err.contains("violenec")
            && err.contains("did you mean `violence`"),
        "{err}"
    );
}

#[test]
fn vs_prints_both_rulesets_and_the_difference() {
    let rules = temp_file(
        "extends: cep\nscoring:\n  cep:\n    grade: { unranked: 1 }\n",
        ".yaml",
    );
    let game = EXAMPLE.replace("ranked: true", "ranked: false");
    let f = temp_file(&game, ".yaml");
    let v = json(&["score", path(&f), "--vs", path(&rules)]);
    let p = &v["players"];
    assert_eq!(p[2]["name"], "Mayor");
    assert_eq!(
        (
            p[2]["points"].as_i64(),
            p[2]["vs_points"].as_i64(),
            p[2]["difference"].as_i64()
        ),
        (Some(14), Some(19), Some(5))
    );
    let out = ok(&["score", path(&f), "--vs", path(&rules)]);
    assert!(out.contains("difference") && out.contains("+5"), "{out}");
}
