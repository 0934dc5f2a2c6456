//! Swiss tournaments from scripts, through `arbiter run`, against the `swiss` commands run on
//! the same players: the same pairings, standings, TRF and tournament file; files read and
//! written only as the sandbox allows.
use crate::common::*;
use serde_json::Value;

const PLAYERS: &str = "name,rating\nAnn,2100\nBo,1950\nCy,1800\nDi,1720\nEd,1600\nFay,1500\nGus,\n";

/// The results of the rounds, by board: the first board's white wins, the second is drawn,
/// the third black wins (a fixed pattern, so both sides record the same).
const RESULTS: [&str; 3] = ["1-0", "1/2-1/2", "0-1"];

/// Runs `args` in `dir`, asserting success; standard output.
fn cli(dir: &std::path::Path, args: &[&str]) -> String {
    let o = run_in(dir, args, None);
    assert!(
        o.status.success(),
        "arbiter {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).into_owned()
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}):\n{text}"))
}

/// The script that runs the same tournament: two rounds paired and recorded, the third
/// paired; each pairing, the standings and the TRF printed, the file saved.
const SCRIPT: &str = r#"
let t = swiss_new("players.csv", 4, #{ name: "Club Open" });
let results = ["1-0", "1/2-1/2", "0-1"];
for round in 1..=2 {
    let p = t.pair();
    print(p.to_json());
    for (b, i) in p.pairs {
        t.record(round, b.white, b.black, results[i % 3]);
    }
}
print(t.pair().to_json());
print(t.standings().to_json());
t.save("script.yaml");
t.save_trf("script.trf");
"#;

#[test]
fn a_tournament_run_by_script_is_the_one_the_commands_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("players.csv"), PLAYERS).unwrap();
    std::fs::write(d.join("t.rhai"), SCRIPT).unwrap();
    let script = cli(d, &["run", "t.rhai", "--allow-write"]);
    let lines: Vec<&str> = script.lines().collect();
    assert_eq!(lines.len(), 4, "{script}");

    cli(
        d,
        &[
            "swiss",
            "new",
            "cli.yaml",
            "--players",
            "players.csv",
            "--rounds",
            "4",
            "--name",
            "Club Open",
        ],
    );
    for round in 1..=2 {
        let p = parse(&cli(d, &["swiss", "pair", "cli.yaml", "--json"]));
        assert_eq!(p, parse(lines[round - 1]), "round {round}'s pairing");
        for (i, b) in p["pairs"].as_array().unwrap().iter().enumerate() {
            let (w, bl) = (b["white"].to_string(), b["black"].to_string());
            let r = round.to_string();
            cli(
                d,
                &["swiss", "record", "cli.yaml", &r, &w, &bl, RESULTS[i % 3]],
            );
        }
    }
    // Seven players: a bye each round, and round 3 is paired on the results.
    let p3 = parse(&cli(d, &["swiss", "pair", "cli.yaml", "--json"]));
    assert_eq!(p3, parse(lines[2]));
    assert_eq!(p3["round"], 3);
    assert!(p3["bye"].is_u64(), "{p3}");
    // Standings count the finished rounds (two), as `swiss table` does.
    let table = parse(&cli(d, &["swiss", "table", "cli.yaml", "--json"]));
    assert_eq!(table, parse(lines[3]));
    let first = &table["standings"][0];
    assert_eq!(first["rank"], 1);
    assert!(first["points"].as_f64().unwrap() >= 1.5, "{table}");
    // The same file and the same TRF.
    let read = |name: &str| std::fs::read_to_string(d.join(name)).unwrap();
    assert_eq!(read("script.yaml"), read("cli.yaml"));
    let trf = cli(d, &["swiss", "export", "cli.yaml", "--trf"]);
    assert_eq!(read("script.trf"), trf);
    assert!(trf.starts_with("012 Club Open\n"), "{trf}");
}

#[test]
fn a_tournament_file_the_commands_made_reads_in_a_script() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("players.csv"), PLAYERS).unwrap();
    cli(
        d,
        &[
            "swiss",
            "new",
            "open.yaml",
            "--players",
            "players.csv",
            "--rounds",
            "3",
        ],
    );
    let p = parse(&cli(d, &["swiss", "pair", "open.yaml", "--json"]));
    let pairs = p["pairs"].as_array().unwrap();
    for b in pairs {
        let (w, bl) = (b["white"].to_string(), b["black"].to_string());
        cli(d, &["swiss", "record", "open.yaml", "1", &w, &bl, "1-0"]);
    }
    // Players by name as well as by number; a late entry; a bye and a withdrawal ahead.
    std::fs::write(
        d.join("s.rhai"),
        r#"
let t = swiss("open.yaml");
print(t);
print(t.standings().to_json());
print(t.trf());
print(t.add("Hal", 1990));
t.bye("Cy", 2, "zero");
t.withdraw(7, 3);
print(t.to_map().players.len());
"#,
    )
    .unwrap();
    let out = cli(d, &["run", "s.rhai"]);
    let mut lines = out.lines();
    assert_eq!(
        lines.next().unwrap(),
        "a Swiss tournament: 7 players, 1 of 3 rounds paired"
    );
    let table = parse(&cli(d, &["swiss", "table", "open.yaml", "--json"]));
    assert_eq!(parse(lines.next().unwrap()), table);
    let trf = cli(d, &["swiss", "export", "open.yaml", "--trf"]);
    let rest: Vec<&str> = lines.collect();
    let trf_lines = trf.lines().count();
    assert_eq!(rest[..trf_lines].join("\n"), trf.trim_end_matches('\n'));
    // The TRF ends its last line; `print` adds one more.
    assert_eq!(rest[trf_lines], "");
    // Hal (1990) enters between Ann (2100) and Bo (1950): number 2.
    assert_eq!(rest[trf_lines + 1], "2");
    assert_eq!(rest[trf_lines + 2], "8");
    // The script changed its own copy: the file is as the commands left it.
    assert_eq!(
        parse(&cli(d, &["swiss", "table", "open.yaml", "--json"])),
        table
    );
}

#[test]
fn a_ruleset_with_other_points_counts_as_the_commands_do() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("players.csv"), PLAYERS).unwrap();
    cli(
        d,
        &[
            "swiss",
            "new",
            "bb.yaml",
            "--players",
            "players.csv",
            "--rounds",
            "3",
            "--rules",
            "bloodbowl-swiss",
        ],
    );
    let p = parse(&cli(d, &["swiss", "pair", "bb.yaml", "--json"]));
    for b in p["pairs"].as_array().unwrap() {
        let (w, bl) = (b["white"].to_string(), b["black"].to_string());
        cli(d, &["swiss", "record", "bb.yaml", "1", &w, &bl, "1-0"]);
    }
    std::fs::write(
        d.join("bb.rhai"),
        r#"
let t = rules("bloodbowl-swiss").swiss_new("players.csv", 3);
let p = t.pair();
for b in p.pairs { t.record(1, b.white, b.black, "1-0"); }
print(t.standings().to_json());
"#,
    )
    .unwrap();
    let script = parse(&cli(d, &["run", "bb.rhai"]));
    let table = parse(&cli(d, &["swiss", "table", "bb.yaml", "--json"]));
    assert_eq!(script, table);
    assert_eq!(table["ruleset"], "bloodbowl-swiss");
    // A win is worth more than one point under these rules.
    assert!(
        table["standings"][0]["points"].as_f64().unwrap() > 1.0,
        "{table}"
    );
}

#[test]
fn files_are_written_only_with_leave_and_never_over_another_file() {
    let t = Test::new()
        .file("open.yaml", "keep me\n")
        .file(
            "w.rhai",
            "let t = swiss_new([\"A\", \"B\", \"C\", \"D\"], 3);\nt.save(\"new.yaml\");",
        )
        .args(["run", "w.rhai"])
        .status(1)
        .stderr_has("scripts write files only with --allow-write")
        .run();
    assert!(!t.path("new.yaml").exists());
    let t = Test::new()
        .file("open.yaml", "keep me\n")
        .file(
            "w.rhai",
            "let t = swiss_new([\"A\", \"B\", \"C\", \"D\"], 3);\nt.save(\"open.yaml\");",
        )
        .args(["run", "w.rhai", "--allow-write"])
        .status(1)
        .stderr_has("open.yaml: already exists; scripts write only new files")
        .run();
    assert_eq!(t.read("open.yaml"), "keep me\n");
    // Saved twice in one session: its own file may be written again.
    let t = Test::new()
        .file(
            "w.rhai",
            "let t = swiss_new([\"A\", \"B\", \"C\", \"D\"], 3);\nt.save(\"mine.yaml\");\nt.pair();\nt.save(\"mine.yaml\");",
        )
        .args(["run", "w.rhai", "--allow-write"])
        .run();
    assert!(
        t.read("mine.yaml").contains("paired:\n- boards:"),
        "{}",
        t.read("mine.yaml")
    );
}

#[test]
fn files_are_read_only_inside_the_sandbox() {
    let outside = tempfile::tempdir().unwrap();
    let players = outside.path().join("players.csv");
    std::fs::write(&players, PLAYERS).unwrap();
    let script = format!(
        "swiss_new(\"{}\", 3)",
        players.to_string_lossy().replace('\\', "\\\\")
    );
    Test::new()
        .file("r.rhai", script)
        .args(["run", "r.rhai"])
        .status(1)
        .stderr_has("outside what this script may read")
        .run();
}

#[test]
fn refusals_are_error_maps_and_leave_the_tournament_as_it_was() {
    let out = Test::new()
        .file(
            "e.rhai",
            r#"
let t = swiss_new(["A", "B", "C", "D"], 3);
let p = t.pair();
let b = p.pairs[0];
t.record(1, b.white, b.black, "1-0");
try { t.record(1, b.white, b.black, "0-1") } catch (e) { print(`${e.kind}: ${e.message}`) }
print(t.correct(1, b.white, b.black, "0-1"));
try { t.record(1, "Zed", b.black, "1-0") } catch (e) { print(e.message) }
try { t.pair() } catch (e) { print(e.message) }
try { swiss_new(["A", "B"], 2) } catch (e) { print(`${e.kind} ${e.message}`) }
print(t.to_map().paired.len());
"#,
        )
        .args(["run", "e.rhai"])
        .run()
        .stdout;
    let lines: Vec<&str> = out.lines().collect();
    assert!(
        lines[0].starts_with("conflict: round 1: ")
            && lines[0].ends_with("already has a result (1-0)"),
        "{out}"
    );
    assert_eq!(lines[1], "1-0");
    assert_eq!(lines[2], "no player named `Zed`");
    assert!(lines[3].starts_with("round 1 is not finished: "), "{out}");
    assert!(
        lines[4].starts_with("out_of_range 2 players can play at most 1 round "),
        "{out}"
    );
    assert_eq!(lines[5], "1");
}
