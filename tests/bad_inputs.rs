//! A corpus of bad inputs (tests/bad_inputs/): each fails with exit 1 (2 for usage errors),
//! says what is wrong and where, and never panics or hangs.
use crate::common::*;
use std::time::{Duration, Instant};

/// (command before the file, file, expected "LINE:COL" or "" when no place applies, words the message must hold)
const FILE_CASES: &[(&[&str], &str, &str, &str)] = &[
    (
        &["rules", "check"],
        "ruleset_wrong_type.yaml",
        "4:14",
        "wrong type: found string \"ten\"",
    ),
    (
        &["rules", "check"],
        "ruleset_negative.yaml",
        "4:14",
        "a whole number, 0 or more",
    ),
    (
        &["rules", "check"],
        "ruleset_huge.yaml",
        "4:14",
        "a whole number",
    ),
    (
        &["rules", "check"],
        "ruleset_formula_typo.yaml",
        "5:41",
        "unknown variable `game_valeu` (did you mean `game_value`?)",
    ),
    (
        &["rules", "check"],
        "ruleset_overlay_typo.yaml",
        "5:5",
        "unknown field `sheilds` (did you mean `shields`?)",
    ),
    (
        &["rules", "check"],
        "ruleset_unclosed.rules",
        "3:9",
        "this `{` is never closed",
    ),
    (
        &["rules", "check"],
        "ruleset_list_not_map.yaml",
        "3:3",
        "expected a mapping",
    ),
    (
        &["rules", "check"],
        "ruleset_bad_dice.yaml",
        "4:11",
        "not dice notation",
    ),
    (
        &["rules", "check"],
        "ruleset_binary.yaml",
        "1:1",
        "not UTF-8",
    ),
    (
        &["rules", "check"],
        "ruleset_empty.yaml",
        "1:1",
        "the file is empty",
    ),
    (
        &["score"],
        "game_zero_turns.yaml",
        "2:8",
        "`turns` must be at least 1",
    ),
    (
        &["score"],
        "game_two_winners.yaml",
        "11:13",
        "only one side can win",
    ),
    (
        &["score"],
        "game_unknown_ship.yaml",
        "9:21",
        "unknown ship `trialin` (did you mean `trialón`?)",
    ),
    (
        &["score"],
        "game_structure_too_high.yaml",
        "9:46",
        "structure_left",
    ),
    (
        &["score"],
        "game_unknown_rank.yaml",
        "9:15",
        "unknown rank `almirante`",
    ),
    (
        &["score"],
        "game_duplicate_player.yaml",
        "13:15",
        "listed twice",
    ),
    (
        &["rate"],
        "history_wrong_type.yaml",
        "4:14",
        "expected a list",
    ),
    (&["rate"], "history_bad_cell.csv", "3:5", "not a number"),
    (
        &["rate"],
        "history_player_twice.yaml",
        "3:18",
        "listed twice",
    ),
    (
        &["league", "table"],
        "season_missing_schedule.yaml",
        "",
        "missing field `schedule`",
    ),
    (
        &["combat", "sim", "-n", "10", "--scenario"],
        "scenario_unknown_ship.yaml",
        "4:9",
        "unknown ship `UFP heavy cruser` (did you mean `UFP heavy cruiser`?)",
    ),
    (
        &["combat", "sim", "-n", "10", "--scenario"],
        "scenario_bad_facing.yaml",
        "4:11",
        "facing is 0 to 5",
    ),
    (
        &["combat", "sim", "-n", "10", "--scenario"],
        "scenario_crew_typo.yaml",
        "5:9",
        "unknown skill `gunery` (did you mean `gunnery`?)",
    ),
    (
        &["combat", "duel", "--scenario"],
        "scenario_same_hex.yaml",
        "7:13",
        "same hex",
    ),
    (&["run"], "script_string_doubling.rhai", "2:", "string"),
    (
        &["run"],
        "script_endless_recursion.rhai",
        "",
        "endless recursion",
    ),
    (&["run"], "script_import.rhai", "1:1", "sandbox"),
    (&["run"], "script_syntax.rhai", "1:9", "Unexpected"),
];

#[test]
fn every_bad_file_fails_clearly_at_its_place() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/bad_inputs");
    let listed: Vec<&str> = FILE_CASES.iter().map(|c| c.1).collect();
    for entry in std::fs::read_dir(dir).unwrap() {
        let name = entry.unwrap().file_name().into_string().unwrap();
        assert!(
            listed.contains(&name.as_str()),
            "{name} is in the corpus but not in FILE_CASES"
        );
    }
    for (command, file, place, words) in FILE_CASES {
        let path = format!("{dir}/{file}");
        let mut args = command.to_vec();
        args.push(&path);
        let started = Instant::now();
        let err = fails(&args);
        assert!(
            started.elapsed() < Duration::from_secs(5),
            "{file} took {:?}",
            started.elapsed()
        );
        let first = err.lines().next().unwrap_or("");
        if !place.is_empty() {
            assert!(
                first.starts_with(&format!("error: {path}:{place}")),
                "{file}: expected the place {place}:\n{err}"
            );
        }
        assert!(err.contains(words), "{file}: expected `{words}` in:\n{err}");
    }
}

#[test]
fn bad_command_line_values_fail_with_a_reason() {
    let cases: &[(&[&str], i32, &str)] = &[
        (&["league", "schedule", "0"], 1, "at least 2 teams"),
        (&["league", "schedule", "1"], 1, "at least 2 teams"),
        (
            &["league", "schedule", "4", "--legs", "x"],
            2,
            "invalid value",
        ),
        (
            &["league", "schedule", "no-such-teams.txt"],
            1,
            "no-such-teams.txt",
        ),
        (
            &["score", "--rules", "figf", "A=abc", "B=3"],
            1,
            "must be a number",
        ),
        (&["score", "--rules", "figf", "A=1"], 1, ""),
        (
            &["score", "--rules", "nosuch", "A=1", "B=2"],
            1,
            "unknown ruleset `nosuch`",
        ),
        (&["rate", "missing.yaml"], 1, "no such file"),
        (&["dice", "3D6+"], 1, "not dice notation"),
        (&["dice", "0D6"], 1, "at least one die"),
        (&["dice", "D0"], 1, "at least one side"),
        (&["dice", "1000D1000"], 1, "too large"),
        (&["rules", "show", "nosuch"], 1, "unknown ruleset"),
        (&["rules", "convert", "x.yaml"], 2, "--to"),
        (&["run", "missing.rhai"], 1, "no such file"),
        (
            &[
                "combat",
                "sim",
                "UFP heavy cruiser",
                "Klingon battle cruiser",
                "-n",
                "-5",
            ],
            2,
            "-5",
        ),
        (
            &[
                "combat",
                "sim",
                "UFP heavy cruiser",
                "Klingon battle cruiser",
                "-n",
                "lots",
            ],
            2,
            "invalid value",
        ),
        (
            &[
                "combat",
                "volley",
                "UFP heavy cruiser",
                "Transport",
                "--range",
                "50",
                "--dice",
                "4",
            ],
            1,
            "",
        ),
        (
            &["combat", "duel", "UFP heavy cruiser", "Enterprise"],
            1,
            "unknown ship `Enterprise`",
        ),
    ];
    for (args, code, words) in cases {
        let o = run(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(*code), "{args:?}:\n{err}");
        assert!(!err.contains("panicked"), "{args:?} panicked:\n{err}");
        assert!(
            err.contains(words),
            "{args:?}: expected `{words}` in:\n{err}"
        );
        assert!(!err.trim().is_empty(), "{args:?} failed silently");
    }
}
