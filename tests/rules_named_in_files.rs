//! A file that names its ruleset (`rules: house.rules` in a game, history, season or combat
//! scenario) means the file beside it, whatever folder the command runs from; a path that
//! is not there is taken as given (from the current folder, or a built-in name).
use crate::common::*;
use std::path::Path;
use std::process::Command;

/// Run arbiter from `dir`; assert success; return standard output.
fn ok_in(dir: &Path, args: &[&str]) -> String {
    let o = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .output()
        .expect("arbiter runs");
    assert!(
        o.status.success(),
        "arbiter {args:?} failed in {}:\n{}",
        dir.display(),
        stderr(&o)
    );
    stdout(&o)
}

fn json_in(dir: &Path, args: &[&str]) -> serde_json::Value {
    let out = ok_in(dir, args);
    serde_json::from_str(&out)
        .unwrap_or_else(|e| panic!("arbiter {args:?} printed no JSON ({e}):\n{out}"))
}

/// A folder holding `file` (named `file_name`) and a `house.rules` extending `base` named
/// `beside`; and a second folder, the one commands run from, with a `house.rules` of the
/// same base named `elsewhere`.
struct Folders {
    data: tempfile::TempDir,
    cwd: tempfile::TempDir,
}

impl Folders {
    fn new(file_name: &str, file: &str, base: &str, extra: [&str; 2]) -> Folders {
        let data = tempfile::tempdir().unwrap();
        let cwd = tempfile::tempdir().unwrap();
        std::fs::write(data.path().join(file_name), file).unwrap();
        std::fs::write(
            data.path().join("house.rules"),
            format!("extends {base}\nname = beside\n{}\n", extra[0]),
        )
        .unwrap();
        std::fs::write(
            cwd.path().join("house.rules"),
            format!("extends {base}\nname = elsewhere\n{}\n", extra[1]),
        )
        .unwrap();
        Folders { data, cwd }
    }

    fn file(&self, name: &str) -> String {
        self.data.path().join(name).to_str().unwrap().to_string()
    }
}

/// The ruleset a command reports using when `example` (an example file, whose `rules:` line
/// is `line`) names `house.rules` instead, with a house ruleset of `base` both beside it and
/// in the folder the command runs from. `command` comes before the file's path, `after` after.
fn ruleset_used(
    example: &str,
    line: &str,
    base: &str,
    command: &[&str],
    after: &[&str],
) -> serde_json::Value {
    let name = Path::new(example).file_name().unwrap().to_str().unwrap();
    let text = std::fs::read_to_string(example)
        .unwrap()
        .replace(line, "rules: house.rules");
    let f = Folders::new(name, &text, base, ["", ""]);
    let path = f.file(name);
    let args: Vec<&str> = command
        .iter()
        .copied()
        .chain([path.as_str()])
        .chain(after.iter().copied())
        .chain(["--json"])
        .collect();
    json_in(f.cwd.path(), &args)["ruleset"].clone()
}

#[test]
fn a_game_file_uses_the_ruleset_beside_it() {
    assert_eq!(
        ruleset_used(
            "examples/cep-game.yaml",
            "rules: cep",
            "cep",
            &["score"],
            &[]
        ),
        "beside"
    );
}

#[test]
fn a_rating_history_uses_the_ruleset_beside_it() {
    assert_eq!(
        ruleset_used("examples/history.yaml", "rules: elo", "elo", &["rate"], &[]),
        "beside"
    );
}

#[test]
fn a_combat_scenario_uses_the_ruleset_beside_it() {
    assert_eq!(
        ruleset_used(
            "examples/ambush.yaml",
            "rules: startrek",
            "startrek",
            &["combat", "sim", "--scenario"],
            &["-n", "20"]
        ),
        "beside"
    );
}

#[test]
fn a_season_uses_the_ruleset_beside_it() {
    let season = "rules: house.rules\nteams: [Orcs, Elves]\nschedule:\n  method: rotation\n  legs: 1\n  rounds:\n    - {round: 1, leg: 1, matches: [{home: Orcs, away: Elves}]}\nresults:\n  - {round: 1, home: Orcs, away: Elves, home_score: 2, away_score: 1}\n";
    let f = Folders::new(
        "season.yaml",
        season,
        "bloodbowl",
        [
            "league { points { win = 5 } }",
            "league { points { win = 7 } }",
        ],
    );
    let out = json_in(
        f.cwd.path(),
        &["league", "table", &f.file("season.yaml"), "--json"],
    );
    assert_eq!(out["standings"][0]["team"], "Orcs");
    assert_eq!(
        out["standings"][0]["points"], 5,
        "the win is worth what the ruleset beside the season says"
    );
}

#[test]
fn a_path_not_beside_the_file_is_taken_from_the_current_folder() {
    let game = std::fs::read_to_string("examples/cep-game.yaml")
        .unwrap()
        .replace("rules: cep", "rules: house.rules");
    let f = Folders::new("game.yaml", &game, "cep", ["", ""]);
    std::fs::remove_file(f.data.path().join("house.rules")).unwrap();
    let out = json_in(f.cwd.path(), &["score", &f.file("game.yaml"), "--json"]);
    assert_eq!(out["ruleset"], "elsewhere");
}

#[test]
fn a_missing_ruleset_named_in_a_scenario_is_reported_at_its_line() {
    let scenario = std::fs::read_to_string("examples/ambush.yaml")
        .unwrap()
        .replace("rules: startrek", "rules: nowhere.rules");
    let f = Folders::new("ambush.yaml", &scenario, "startrek", ["", ""]);
    let o = Command::new(BIN)
        .args([
            "combat",
            "sim",
            "--scenario",
            &f.file("ambush.yaml"),
            "-n",
            "5",
        ])
        .current_dir(f.cwd.path())
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("ambush.yaml:2:"),
        "the error names the scenario's line 2: {err}"
    );
    assert!(err.contains("nowhere.rules: no such file"), "{err}");
}
