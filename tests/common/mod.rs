//! Helpers for driving the real `arbiter` binary from integration tests: the fluent `Test`
//! builder (test.rs), short forms of it for the common cases, and a pseudo-terminal (pty.rs).
#![allow(dead_code)]
pub mod pty;
pub mod test;
use std::io::Write;
use std::process::{Command, Output, Stdio};
pub use test::{Ran, Test};

pub const BIN: &str = env!("CARGO_BIN_EXE_arbiter");

/// How a battle can end, under the names the combat reports' JSON gives them.
pub const OUTCOME_KINDS: [&str; 5] = [
    "destroyed",
    "captured",
    "escaped",
    "disengaged",
    "unfinished",
];

/// Run arbiter with arguments; returns the whole output.
#[track_caller]
pub fn run(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .env_remove("COLUMNS")
        .output()
        .expect("arbiter runs")
}

/// Run arbiter with `input` on standard input.
#[track_caller]
pub fn run_stdin(args: &[&str], input: &str) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .env_remove("COLUMNS")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arbiter runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    child.wait_with_output().expect("arbiter finishes")
}

#[track_caller]
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[track_caller]
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Run in the project's root, assert success, and return standard output.
#[track_caller]
pub fn ok(args: &[&str]) -> String {
    Test::in_project().args(args.iter().copied()).run().stdout
}

/// Run with --json appended (if not given), assert success, parse the JSON.
#[track_caller]
pub fn json(args: &[&str]) -> serde_json::Value {
    let mut test = Test::in_project().args(args.iter().copied());
    if !args.contains(&"--json") {
        test = test.arg("--json");
    }
    test.run().json()
}

/// Run, assert exit status 1 (an input error, not a panic), return standard error.
#[track_caller]
pub fn fails(args: &[&str]) -> String {
    Test::in_project()
        .args(args.iter().copied())
        .status(1)
        .run()
        .stderr
}

/// A temporary file with the given contents and suffix (kept alive by the returned handle).
#[track_caller]
pub fn temp_file(contents: &str, suffix: &str) -> tempfile::NamedTempFile {
    let mut f = tempfile::Builder::new()
        .suffix(suffix)
        .tempfile()
        .expect("temp file");
    f.write_all(contents.as_bytes()).expect("write temp file");
    f
}

/// A fresh season of `teams` (one name a line) in a temporary directory, made by `league new`
/// with `extra` arguments: the directory (kept alive by the caller) and the season's path.
/// Home and away are the source's tables (the matches the tests record are written from
/// them) unless `extra` says otherwise.
#[track_caller]
pub fn new_season(teams: &str, extra: &[&str]) -> (tempfile::TempDir, String) {
    let dir = tempfile::tempdir().unwrap();
    let list = dir.path().join("teams.txt");
    std::fs::write(&list, teams).unwrap();
    let season = dir.path().join("season.yaml").to_str().unwrap().to_string();
    let mut args = vec!["league", "new", &season, "--teams", list.to_str().unwrap()];
    if !extra.contains(&"--home-away") {
        args.extend_from_slice(&["--home-away", "source"]);
    }
    args.extend_from_slice(extra);
    ok(&args);
    (dir, season)
}

/// A path as &str.
#[track_caller]
pub fn path(f: &tempfile::NamedTempFile) -> &str {
    f.path().to_str().expect("utf-8 temp path")
}

/// Equal as data: the same keys (in any order), the same values, numbers of the same kind
/// equal to within 1e-9. Panics naming the first place that differs.
#[track_caller]
pub fn same_data(a: &serde_json::Value, b: &serde_json::Value, at: &str) {
    use serde_json::Value;
    match (a, b) {
        (Value::Object(x), Value::Object(y)) => {
            let mut kx: Vec<&String> = x.keys().collect();
            let mut ky: Vec<&String> = y.keys().collect();
            kx.sort();
            ky.sort();
            assert_eq!(kx, ky, "keys at {at}");
            for (k, v) in x {
                same_data(v, &y[k], &format!("{at}.{k}"));
            }
        }
        (Value::Array(x), Value::Array(y)) => {
            assert_eq!(x.len(), y.len(), "length at {at}");
            for (i, (v, w)) in x.iter().zip(y).enumerate() {
                same_data(v, w, &format!("{at}[{i}]"));
            }
        }
        (Value::Number(x), Value::Number(y)) => {
            assert_eq!(x.is_f64(), y.is_f64(), "number kind at {at}: {x} vs {y}");
            assert!(
                (x.as_f64().unwrap() - y.as_f64().unwrap()).abs() < 1e-9,
                "{at}: {x} != {y}"
            );
        }
        _ => assert_eq!(a, b, "at {at}"),
    }
}

/// Run arbiter in folder `dir` (its current folder), with `input` on standard input if given.
#[track_caller]
pub fn run_in(dir: &std::path::Path, args: &[&str], input: Option<&str>) -> Output {
    let mut child = Command::new(BIN)
        .args(args)
        .env_remove("COLUMNS")
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("arbiter runs");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.unwrap_or("").as_bytes()).unwrap();
    drop(stdin);
    child.wait_with_output().expect("arbiter finishes")
}

/// A command's JSON report without the ruleset's version and hash, which only the command line
/// adds (a script's ruleset may have been changed in the session).
#[track_caller]
pub fn without_provenance(mut v: serde_json::Value) -> serde_json::Value {
    if let Some(map) = v.as_object_mut() {
        map.shift_remove("ruleset_version");
        map.shift_remove("ruleset_sha256");
    }
    v
}
