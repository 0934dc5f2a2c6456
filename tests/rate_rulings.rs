//! `rate` rulings of issue 33: pot remainders with equal scores, parameters outside their
//! sense, the Bayesian leaderboard by conservative rating, and a hint to quote numeric names.
use crate::common::*;
use serde_json::Value;

fn points(v: &Value) -> Vec<(String, f64)> {
    v["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_string(),
                p["rating"].as_f64().unwrap(),
            )
        })
        .collect()
}

#[test]
fn a_pot_remainder_equal_scores_cannot_share_is_noted_in_rate_too() {
    let h = temp_file(
        "rules: advciv\ngames:\n  - { scores: {A: 3, B: 3, C: 3, D: 1, E: 1, F: 0, G: 0} }\n",
        ".yaml",
    );
    let text = ok(&["rate", path(&h)]);
    // 699 paid by the floors; the one point left goes top first (the spec's ruling), and
    // the table says so.
    assert!(
        text.contains(
            "game 1: the remainder cannot go to whole groups of equal scores: one point each to A"
        ),
        "{text}"
    );
    let v = json(&["rate", path(&h)]);
    let p = points(&v);
    assert_eq!(p[0], ("A".to_string(), 1092.0));
    assert_eq!(p[1].1, 1091.0);
    assert_eq!(p[5].1, 900.0);
    assert!(v["notes"][0]
        .as_str()
        .unwrap()
        .contains("one point each to A"));
}

#[test]
fn a_player_at_the_lowest_score_takes_no_remainder() {
    // 3,3,3,0,0: the floors pay 166·3 = 498 of 500; the two left cannot go to the three
    // leaders as a group, and must not go to the two who scored nothing.
    let h = temp_file(
        "rules: advciv\ngames:\n  - { scores: {A: 3, B: 3, C: 3, F: 0, G: 0} }\n",
        ".yaml",
    );
    let v = json(&["rate", path(&h)]);
    let p = points(&v);
    assert_eq!(p[3].1, 900.0, "{p:?}");
    assert_eq!(p[4].1, 900.0, "{p:?}");
    let total: f64 = p.iter().map(|(_, r)| r - 1000.0).sum();
    assert_eq!(total, 0.0, "the pot is paid out exactly: {p:?}");
}

#[test]
fn parameters_outside_their_sense_are_refused() {
    for (section, key, value, want) in [
        (
            "elo",
            "k",
            "-5",
            "`scoring.elo.k` is -5; it must be a number above 0",
        ),
        ("trueskill", "draw_probability", "1", "draw_probability` "),
        ("trueskill", "beta", "-1", "beta` "),
        ("trueskill", "dynamics", "-0.1", "dynamics` "),
        ("glicko2", "tau", "0", "tau` "),
        ("weng_lin", "uncertainty", "-2", "uncertainty` "),
    ] {
        let system = section;
        let rules = temp_file(
            &format!("name: x\nextends: elo\nscoring:\n  system: {system}\n  {section}:\n    {key}: {value}\n"),
            ".yaml",
        );
        let h = temp_file("games:\n  - { order: [Ana, Bo] }\n", ".yaml");
        let e = fails(&["rate", path(&h), "--rules", path(&rules)]);
        // Refused when the ruleset is read, or at the latest before any game is rated.
        assert!(
            e.contains(want) && e.contains("must"),
            "{section}.{key}: {e}"
        );
    }
    // A K formula that turns negative is refused at the game.
    let rules = temp_file(
        "name: x\nextends: elo\nscoring:\n  elo:\n    k: \"32 - 40 * games\"\n",
        ".yaml",
    );
    let h = temp_file(
        "games:\n  - { order: [Ana, Bo] }\n  - { order: [Bo, Ana] }\n",
        ".yaml",
    );
    let e = fails(&["rate", path(&h), "--rules", path(&rules)]);
    assert!(e.contains("K formula gives -8"), "{e}");
}

#[test]
fn bayesian_leaderboards_rank_by_the_conservative_rating() {
    // Ana wins her one game; Bo has played fourteen and won half: Ana's μ is higher, but
    // Bo's rating is the surer.
    let mut games = String::from("games:\n  - { order: [Ana, Zed] }\n");
    for g in 0..14 {
        if g % 2 == 1 {
            games.push_str(&format!("  - {{ order: [X{g}, Bo] }}\n"));
        } else {
            games.push_str(&format!("  - {{ order: [Bo, X{g}] }}\n"));
        }
    }
    let h = temp_file(&games, ".yaml");
    for system in ["trueskill", "weng_lin"] {
        let rules = temp_file(
            &format!("name: b\nextends: elo\nscoring:\n  system: {system}\n"),
            ".yaml",
        );
        let v = json(&["rate", path(&h), "--rules", path(&rules)]);
        assert_eq!(v["ranked_by"], "conservative", "{system}");
        let players = v["players"].as_array().unwrap();
        let get = |n: &str| players.iter().find(|p| p["name"] == n).unwrap();
        let (ana, bo) = (get("Ana"), get("Bo"));
        assert!(
            ana["rating"].as_f64() > bo["rating"].as_f64(),
            "{system}: Ana's μ is the higher ({ana} {bo})"
        );
        assert_eq!(bo["rank"], 1, "{system}: {bo}");
        // Places follow μ − 3σ throughout.
        let mut by_rank: Vec<&Value> = players.iter().collect();
        by_rank.sort_by_key(|p| p["rank"].as_u64().unwrap());
        for w in by_rank.windows(2) {
            assert!(w[0]["conservative"].as_f64() >= w[1]["conservative"].as_f64());
        }
        let text = ok(&["rate", path(&h), "--rules", path(&rules)]);
        assert!(text.contains("places follow rating−3σ"), "{text}");
    }
    // Elo ranks by rating.
    let v = json(&["rate", path(&h)]);
    assert_eq!(v["ranked_by"], "rating");
}

#[test]
fn a_name_that_looks_like_a_number_gets_a_hint_to_quote_it() {
    let h = temp_file("games:\n  - { order: [Ana, 42] }\n", ".yaml");
    let e = fails(&["rate", path(&h)]);
    assert!(e.contains("needs quotes: \"42\""), "{e}");
    assert!(e.contains(":2:"), "at its line: {e}");
}

#[test]
fn a_date_or_period_out_of_order_is_an_error_at_its_line_unless_sorted() {
    let h = temp_file(
        "games:
  - { date: 2024-03-05, order: [Ana, Bo] }
  - { date: 2024-03-09, order: [Bo, Cy] }
  - { date: 2024-03-01, order: [Cy, Ana] }
",
        ".yaml",
    );
    let e = fails(&["rate", path(&h)]);
    assert!(
        e.contains(":4:") && e.contains("2024-03-01 is before 2024-03-09 (game 2 above it)"),
        "{e}"
    );
    assert!(e.contains("--sort"), "{e}");
    // Sorted, the March 1st game is rated first: the same as writing it first.
    let sorted = json(&["rate", path(&h), "--sort", "--history"]);
    let first = temp_file(
        "games:
  - { date: 2024-03-01, order: [Cy, Ana] }
  - { date: 2024-03-05, order: [Ana, Bo] }
  - { date: 2024-03-09, order: [Bo, Cy] }
",
        ".yaml",
    );
    let by_hand = json(&["rate", path(&first)]);
    for name in ["Ana", "Bo", "Cy"] {
        let get = |v: &Value| {
            v["players"]
                .as_array()
                .unwrap()
                .iter()
                .find(|p| p["name"] == name)
                .unwrap()["rating"]
                .as_f64()
                .unwrap()
        };
        assert_eq!(get(&sorted), get(&by_hand), "{name}");
    }
    // The history keeps each game's number in the file.
    assert_eq!(sorted["games"][0]["game"], 3);
    let h = temp_file(
        "games:\n  - { period: 3, order: [Ana, Bo] }\n  - { period: 2, order: [Bo, Ana] }\n",
        ".yaml",
    );
    let e = fails(&["rate", path(&h)]);
    assert!(
        e.contains(":3:") && e.contains("period 2 comes after period 3"),
        "{e}"
    );
    ok(&["rate", path(&h), "--sort"]);
}
