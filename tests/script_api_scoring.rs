//! `score`, `score_vs` and `rate` from scripts, through `arbiter run`: the same keys and values
//! as the commands' JSON, a ruleset changed in the script scoring differently, and errors.
use crate::common::*;
use serde_json::Value;

const CEP_GAME: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/scripts/records/cep_example.yaml"
);

const HISTORY: &str = "rules: elo
ratings: { Ana: 1613, Bo: 1609 }
games:
  - { period: 1, order: [Bo, Ana] }
  - { period: 1, order: [[Ana, Cy]] }
";

fn run_script(script: &str, extra: &[&str]) -> String {
    let f = temp_file(script, ".rhai");
    let mut args = vec!["run", path(&f)];
    args.extend_from_slice(extra);
    ok(&args)
}

fn run_fails(script: &str, extra: &[&str]) -> String {
    let f = temp_file(script, ".rhai");
    let mut args = vec!["run", path(&f)];
    args.extend_from_slice(extra);
    fails(&args)
}

/// A script's `print(x.to_json())`, parsed.
fn script_json(script: &str, extra: &[&str]) -> Value {
    let out = run_script(script, extra);
    serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}):\n{out}"))
}

fn points(v: &Value) -> Vec<i64> {
    v["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["points"].as_i64().unwrap())
        .collect()
}

#[test]
fn score_of_a_file_is_the_score_commands_json() {
    let from_script = script_json(&format!("print(score(\"{CEP_GAME}\").to_json());"), &[]);
    let from_cli = json(&["score", CEP_GAME]);
    same_data(&from_script, &from_cli, "");
    assert_eq!(points(&from_script), [31, 16, 13]);
}

#[test]
fn score_of_a_map_scores_the_same_game() {
    let game = "#{ turns: 12, ranked: true, sides: [
        #{ name: \"Trialones\", result: \"win\", players: [
            #{ name: \"Teniente\", rank: \"teniente\", ships: [#{ type: \"trialon\", count: 3, destroyed: true }] },
            #{ name: \"Capitán\", rank: \"capitán\", ships: [#{ type: \"trialon\", count: 2, entered: 3, structure_left: 2 }] } ] },
        #{ name: \"Virel\", result: \"loss\", players: [
            #{ name: \"Mayor\", rank: \"mayor\", ships: [#{ type: \"virel\", destroyed: true }, #{ type: \"virel\", entered: 3 }] } ] } ] }";
    let out = run_script(&format!("let g = {game};\nlet s = rules(\"cep\").score(g);\nprint(s.players.map(|p| p.points));\nprint(s.game_value);\nprint(score(g).players[2].grade);"), &["--rules", "cep"]);
    assert_eq!(out, "[31, 16, 13]\n241.5\n0.7\n");
}

#[test]
fn a_loss_index_changed_in_the_script_changes_the_losers_points() {
    // Mayor: In · violence · G · game value = In · 75 · 0.70; 0.25 → 13.125, 0.5 → 26.25.
    let out = run_script(
        &format!("let v = rules(\"cep\");\nv.scoring.cep.index.loss = 0.5;\nprint(v.score(\"{CEP_GAME}\").players.map(|p| p.points));\nprint(rules(\"cep\").score(\"{CEP_GAME}\").players.map(|p| p.points));"),
        &[],
    );
    assert_eq!(out, "[31, 16, 26]\n[31, 16, 13]\n");
}

#[test]
fn a_points_formula_changed_in_the_script_is_used() {
    // result · game value: Teniente 0.75 · 81/126 · 241.5 = 116.4375; Capitán 0.75 · 45/126 · 241.5
    // = 64.6875; Mayor 0.25 · 241.5 = 60.375.
    let out = run_script(&format!("let v = rules(\"cep\");\nv.scoring.cep.points = \"result * game_value\";\nprint(v.score(\"{CEP_GAME}\").players.map(|p| p.points));"), &[]);
    assert_eq!(out, "[116, 65, 60]\n");
    let err = run_fails(
        "let v = rules(\"cep\");\nv.scoring.cep.points = \"result * speed\";\n",
        &[],
    );
    assert!(err.contains("speed"), "{err}");
}

#[test]
fn the_session_ruleset_scores_quick_tables_like_the_command() {
    let from_script = script_json(
        "print(score(#{ Ana: 7500, Bo: 7200, Cy: 6600 }).to_json());",
        &["--rules", "figf"],
    );
    let from_cli = json(&["score", "--rules", "figf", "Ana=7500", "Bo=7200", "Cy=6600"]);
    same_data(&from_script, &from_cli, "");
    assert_eq!(points(&from_script), [2040, 960, 880]);
    // The same as a table with `players`, and as a method on another ruleset.
    let out = run_script(
        "let t = #{ players: [#{ name: \"Illyria\", score: 5042 }, #{ name: \"Crete\", score: 3791 }, #{ name: \"Iberia\", score: 1807 }] };\nlet a = rules(\"advciv\").score(t);\nprint(a.players.map(|p| `${p.name} ${p.points} ${p.change}`));",
        &[],
    );
    let cli = json(&[
        "score",
        "--rules",
        "advciv",
        "Illyria=5042",
        "Crete=3791",
        "Iberia=1807",
    ]);
    let expected: Vec<String> = cli["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            format!(
                "\"{} {} {}\"",
                p["name"].as_str().unwrap(),
                p["points"],
                p["change"]
            )
        })
        .collect();
    assert_eq!(out, format!("[{}]\n", expected.join(", ")));
}

#[test]
fn score_vs_sets_a_variant_beside_the_original() {
    let v = script_json(
        &format!("let v = rules(\"cep\");\nv.scoring.cep.index.loss = 0.5;\nprint(v.score_vs(\"{CEP_GAME}\", \"cep\").to_json());"),
        &[],
    );
    assert_eq!(v["rules"], "cep (changed)");
    assert_eq!(v["vs"], "cep");
    let diffs: Vec<i64> = v["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["difference"].as_i64().unwrap())
        .collect();
    assert_eq!(diffs, [0, 0, -13]);
}

#[test]
fn score_errors_are_clear() {
    let err = run_fails("score(#{ Ana: 1, Bo: 2 });", &[]);
    assert!(err.contains("no ruleset chosen"), "{err}");
    let err = run_fails("rules(\"cep\").score(#{ turns: 12 });", &[]);
    assert!(err.contains("sides") || err.contains("players"), "{err}");
    let err = run_fails("rules(\"cep\").score(\"/etc/passwd\");", &[]);
    assert!(
        err.contains("outside what this script may read") && !err.contains("root:"),
        "{err}"
    );
    let err = run_fails(&format!("rules(\"figf\").score(\"{CEP_GAME}\");"), &[]);
    assert!(
        err.contains("cep_example.yaml:") && err.contains("not a CEP game record"),
        "{err}"
    );
    // A game whose ship the ruleset does not know names the ship.
    let err = run_fails("rules(\"cep\").score(#{ turns: 3, sides: [#{ name: \"A\", result: \"win\", players: [#{ name: \"P\", ships: [#{ type: \"warbird\" }] }] }, #{ name: \"B\", result: \"loss\", players: [#{ name: \"Q\", ships: [#{ value: 10 }] }] }] });", &[]);
    assert!(err.contains("warbird"), "{err}");
}

#[test]
fn rate_of_a_file_is_the_rate_commands_json() {
    let f = temp_file(HISTORY, ".yaml");
    let from_script = script_json(&format!("print(rate(\"{}\").to_json());", path(&f)), &[]);
    let from_cli = json(&["rate", path(&f)]);
    same_data(&from_script, &from_cli, "");
    // With every game's changes, as `--history`.
    let with_games = script_json(
        &format!(
            "print(rate(\"{}\", #{{ games: true }}).to_json());",
            path(&f)
        ),
        &[],
    );
    assert_eq!(with_games["games"].as_array().unwrap().len(), 2);
}

#[test]
fn rate_of_a_map_by_hand() {
    // Bo (1609) beats Ana (1613): 32 · (1 − 1/(1 + 10^(4/400))) = 16.184.
    let out = run_script("let h = #{ ratings: #{ Ana: 1613, Bo: 1609 }, games: [#{ order: [\"Bo\", \"Ana\"] }] };\nlet x = rate(h);\nprint(x.system);\nfor p in x.players { print(`${p.name} ${p.rating.to_float().round()} ${p.rank}`); }", &[]);
    assert_eq!(out, "elo\nAna 1597.0 2\nBo 1625.0 1\n");
}

#[test]
fn a_k_factor_changed_in_the_script_changes_the_ratings() {
    let f = temp_file(
        "ratings: { Ana: 1613, Bo: 1609 }\ngames:\n  - { order: [Bo, Ana] }\n",
        ".yaml",
    );
    // K 16 instead of 32 halves the change: 8.092.
    let out = run_script(&format!("let r = rules(\"elo\");\nr.scoring.elo.k = 16;\nlet x = r.rate(\"{}\");\nprint((x.players[1].change * 1000.0).round());", path(&f)), &[]);
    assert_eq!(out, "8092.0\n");
}

#[test]
fn rate_reads_csv_histories() {
    let f = temp_file("game,player,place\n1,Bo,1\n1,Ana,2\n", ".csv");
    let out = run_script(&format!("let x = rules(\"elo\").rate(\"{}\");\nprint(x.players.map(|p| p.name));\nprint(x.games_rated);", path(&f)), &[]);
    assert_eq!(out, "[\"Bo\", \"Ana\"]\n1\n");
}

#[test]
fn rate_errors_are_clear() {
    let err = run_fails(
        "rate(#{ games: [#{ order: [\"Ana\"] }] }, #{ gmaes: true });",
        &[],
    );
    assert!(
        err.contains("rate options") && err.contains("gmaes"),
        "{err}"
    );
    let err = run_fails("rate(#{ gaems: [] });", &[]);
    assert!(err.contains("a history") && err.contains("gaems"), "{err}");
    let f = temp_file("games:\n  - { order: [Ana, Ana] }\n", ".yaml");
    let err = run_fails(&format!("rate(\"{}\");", path(&f)), &[]);
    assert!(err.contains(&format!("{}:2:", path(&f))), "{err}");
}

#[test]
fn the_repl_help_lists_the_engine_functions() {
    let o = run_stdin(&["repl"], ":help\n");
    let out = stdout(&o);
    for usage in [
        "score(game)",
        "r.score(game)",
        "r.score_vs(game, other)",
        "rate(history",
        "schedule(n_or_names",
        "standings(season)",
        "r.standings(schedule, results)",
    ] {
        assert!(out.contains(usage), "{usage} missing from :help:\n{out}");
    }
}
