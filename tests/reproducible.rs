//! The same inputs and seed give byte-identical output, for every command that uses randomness;
//! a drawn seed is printed and replays the same result.
use crate::common::*;

fn twice(args: &[&str]) -> String {
    let a = ok(args);
    let b = ok(args);
    assert_eq!(a, b, "arbiter {args:?} is not reproducible");
    a
}

#[test]
fn league_schedules_with_a_seed() {
    for args in [
        &["league", "schedule", "10", "--shuffle", "--seed", "42"][..],
        &[
            "league",
            "schedule",
            "10",
            "--shuffle",
            "--seed",
            "42",
            "--json",
        ],
        &[
            "league", "schedule", "12", "--method", "balanced", "--seed", "9", "--json",
        ],
        &[
            "league", "schedule", "9", "--method", "balanced", "--seed", "3", "--legs", "2",
            "--csv",
        ],
    ] {
        twice(args);
    }
    let a = ok(&[
        "league",
        "schedule",
        "10",
        "--shuffle",
        "--seed",
        "1",
        "--json",
    ]);
    let b = ok(&[
        "league",
        "schedule",
        "10",
        "--shuffle",
        "--seed",
        "2",
        "--json",
    ]);
    assert_ne!(a, b, "different seeds should give different orders");
}

#[test]
fn a_drawn_seed_is_printed_and_replays() {
    let drawn = json(&["league", "schedule", "8", "--shuffle"]);
    let seed = drawn["seed"]
        .as_u64()
        .expect("the drawn seed is in the JSON");
    let replay = json(&[
        "league",
        "schedule",
        "8",
        "--shuffle",
        "--seed",
        &seed.to_string(),
    ]);
    assert_eq!(drawn["rounds"], replay["rounds"]);
    let table = ok(&["league", "schedule", "8", "--shuffle"]);
    assert!(
        table.contains("--seed "),
        "the table says how to replay: {table}"
    );
}

#[test]
fn seasons_made_with_a_seed_are_identical() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.yaml");
    let b = dir.path().join("b.yaml");
    for p in [&a, &b] {
        ok(&[
            "league",
            "new",
            p.to_str().unwrap(),
            "--teams",
            "8",
            "--shuffle",
            "--seed",
            "5",
            "--legs",
            "2",
        ]);
    }
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
}

#[test]
fn script_random_numbers_come_from_the_seed() {
    let f = temp_file(
        "let g = rng(5);\nprint(g.roll(\"3D6\"));\nprint(g.rolls(\"D100\", 5));\n",
        ".rhai",
    );
    let out = twice(&["run", path(&f)]);
    let g = temp_file(
        "let g = rng(6);\nprint(g.roll(\"3D6\"));\nprint(g.rolls(\"D100\", 5));\n",
        ".rhai",
    );
    assert_ne!(out, ok(&["run", path(&g)]));
}

#[test]
fn battles_replay_from_their_seed() {
    let hc = "UFP heavy cruiser";
    let kbc = "Klingon battle cruiser";
    twice(&["combat", "duel", hc, kbc, "--seed", "17"]);
    twice(&["combat", "duel", hc, kbc, "--seed", "17", "--json"]);
    let one = twice(&[
        "combat",
        "sim",
        hc,
        kbc,
        "-n",
        "300",
        "--seed",
        "8",
        "--threads",
        "1",
        "--json",
    ]);
    let two = ok(&[
        "combat",
        "sim",
        hc,
        kbc,
        "-n",
        "300",
        "--seed",
        "8",
        "--threads",
        "2",
        "--json",
    ]);
    assert_eq!(one, two, "the thread count changed the result");
    let scenario = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/ambush.yaml");
    twice(&["combat", "sim", "--scenario", scenario, "-n", "200"]);
    let other = ok(&["combat", "duel", hc, kbc, "--seed", "18"]);
    assert_ne!(other, ok(&["combat", "duel", hc, kbc, "--seed", "17"]));
}
