//! `arbiter repl`: through a pipe (entries evaluated as they complete), and under a
//! pseudo-terminal (rustyline: completion, multi-line entries, history).
use crate::common::*;

#[test]
fn piped_input_is_evaluated_and_printed() {
    // The public acceptance check.
    let o = run_stdin(&["repl"], "print(`x=${dice(\"2D6\").max}`);\n");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "x=12\n");
}

#[test]
fn results_are_shown_readably() {
    let o = run_stdin(
        &["repl"],
        "40 + 2\n\"text\"\n1.5 * 3\n[1, 2, 3]\nlet quiet = 1;\n",
    );
    assert_eq!(stdout(&o), "42\ntext\n4.5\n[1, 2, 3]\n");
}

#[test]
fn maps_are_shown_as_tables() {
    let out = stdout(&run_stdin(&["repl"], "dice(\"2D6\")\n"));
    let lines: Vec<&str> = out.lines().map(|l| l.trim_end()).collect();
    assert!(
        lines.contains(&"max   12") && lines.contains(&"mean  7.0")
            || lines
                .iter()
                .any(|l| l.starts_with("mean") && l.ends_with('7')),
        "{out}"
    );
    assert!(lines.contains(&"distribution:"), "{out}");
    let two = lines
        .iter()
        .position(|l| l.trim_start().starts_with("2 "))
        .expect("a row for 2");
    let twelve = lines
        .iter()
        .position(|l| l.trim_start().starts_with("12 "))
        .expect("a row for 12");
    assert!(two < twelve, "rolls in numeric order: {out}");
    assert!(lines[two].ends_with("0.027778"), "{out}");
    let rows = stdout(&run_stdin(
        &["repl"],
        "[#{name: \"Ana\", points: 31}, #{name: \"Bo\", points: 16}]\n",
    ));
    assert_eq!(
        rows,
        "name  points\n----  ------\nAna       31\nBo        16\n"
    );
}

#[test]
fn open_brackets_continue_the_entry() {
    let input = "fn double(x) {\n  x * 2\n}\nlet list = [\n  1,\n  2\n];\ndouble(list[1])\nlet s = `two\nlines`;\ns.len()\n";
    let o = run_stdin(&["repl"], input);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "4\n9\n");
}

#[test]
fn a_failing_entry_is_reported_and_the_session_goes_on() {
    let o = run_stdin(&["repl"], "let a = 1;\nlet b = a / 0;\nprint(a + 1);\n");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "2\n");
    let err = stderr(&o);
    assert!(
        err.strip_prefix("error: ")
            .unwrap_or_else(|| panic!("no `error: ` in {}", err))
            .starts_with("<repl 2>:1:11: ")
            && err.contains("Division by zero"),
        "{err}"
    );
    assert!(err.contains("1 entry failed"), "{err}");
    assert!(!err.contains("panicked"));
}

#[test]
fn a_runaway_entry_stops_and_the_next_one_runs() {
    let o = run_stdin(&["repl"], "loop { }\nprint(\"after\");\n");
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(stdout(&o), "after\n");
    assert!(stderr(&o).contains("operation limit"));
}

#[test]
fn rules_option_and_command_set_r() {
    let out = stdout(&run_stdin(&["repl", "--rules", "startrek"], "r.name\nr.ship(\"UFP heavy cruiser\").shields = 9;\nr.ship(\"UFP heavy cruiser\").shields\n:rules! cep\nr.ship(\"trialon\").value\nrules().name\n"));
    assert_eq!(out, "startrek\n9\nr = ruleset `cep` (2 ships)\n27\ncep\n");
}

#[test]
fn help_lists_the_api() {
    let out = stdout(&run_stdin(&["repl"], ":help\n"));
    for usage in [
        "rules(name_or_path)",
        "r.ship(name)",
        "r.set(path, value)",
        "r.extend(path_or_map)",
        "r.save(path)",
        "dice(expr)",
        ":load",
        ":rules",
    ] {
        assert!(out.contains(usage), "{usage} missing from:\n{out}");
    }
}

#[test]
fn load_runs_a_file_in_the_session() {
    let f = temp_file("fn triple(x) { x * 3 }\nlet loaded = true;\n", ".rhai");
    let folder = f.path().parent().unwrap().to_str().unwrap();
    let o = run_stdin(
        &["repl", "--allow-read", folder],
        &format!(":load {}\ntriple(5)\nloaded\n", path(&f)),
    );
    assert_eq!(stdout(&o), "15\ntrue\n", "{}", stderr(&o));
    // Piped entries may come from anywhere: `:load` reads only what a script may.
    let o = run_stdin(
        &["repl"],
        &format!(":load {}\n:load nowhere.rhai\n:nonsense\n", path(&f)),
    );
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains(&format!("{}: outside what this script may read", path(&f)))
            && err.contains("nowhere.rhai: no such file")
            && err.contains("unknown command `:nonsense`"),
        "{err}"
    );
}

#[test]
fn the_repl_may_save_a_variant() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("v.yaml");
    let entries = "r.ship(\"UFP heavy cruiser\").shields = 8;\nr.save(\"v.yaml\");\n";
    let o = run_in(
        dir.path(),
        &["repl", "--rules", "startrek", "--allow-write"],
        Some(entries),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(std::fs::read_to_string(&out)
        .unwrap()
        .contains("shields: 8"));
    // Piped, without --allow-write, nothing is written (there is no terminal to ask on).
    let o = run_in(
        dir.path(),
        &["repl", "--rules", "startrek"],
        Some("r.save(\"w.yaml\");\n"),
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("--allow-write") && !dir.path().join("w.yaml").exists(),
        "{}",
        stderr(&o)
    );
}

#[test]
fn quit_ends_the_session() {
    assert_eq!(stdout(&run_stdin(&["repl"], "1\n:quit\n2\n")), "1\n");
}

#[test]
fn the_terminal_session_completes_continues_and_keeps_history() {
    let dir = tempfile::tempdir().unwrap();
    let history = dir.path().join("history");
    let mut t = pty::Pty::spawn(
        &["repl", "--rules", "startrek"],
        &[("ARBITER_HISTORY", history.to_str().unwrap())],
    );
    t.line("40 + 2").wait_for("42");
    t.line("fn twice(x) {").send("x * 2 }\r");
    t.line("twice(21)").wait_for("42");
    t.at_prompt().send("dic\t").wait_for("dice");
    t.send("(\"2D6\").max\r").wait_for("12");
    t.at_prompt()
        .send("r.ship(\"ufp h\t")
        .wait_for("UFP heavy cruiser");
    t.send("\").shields\r").wait_for("10");
    t.line(":help").wait_for("dice(expr)");
    t.at_prompt().send("\x04");
    assert!(t.finish().success());
    let kept = std::fs::read_to_string(&history).unwrap();
    assert!(
        kept.contains("twice(21)") && kept.contains("dice(\"2D6\").max"),
        "history: {kept}"
    );
}

#[test]
fn ctrl_c_stops_a_long_call_and_keeps_the_session() {
    let mut t = pty::Pty::spawn(&["repl", "--rules", "startrek"], &[]);
    t.line("let kept = 41;");
    t.line("r.ship(\"UFP heavy cruiser\").shields = 9;");
    t.line("let s = simulate(\"UFP heavy cruiser\", \"Klingon battle cruiser\", 200000, 1);");
    // The progress bar says the engine is running; Ctrl-C then stops it, not the REPL.
    t.wait_for(" left");
    t.send("\x03");
    t.wait_for("interrupted (Ctrl-C)");
    t.line("kept + 1").wait_for("42");
    t.line("r.ship(\"UFP heavy cruiser\").shields")
        .wait_for("9");
    t.line(":quit");
    assert!(t.finish().success());
}

#[test]
fn ships_of_a_ruleset_held_in_a_variable_complete() {
    let mut t = pty::Pty::spawn(&["repl", "--rules", "cep"], &[]);
    t.at_prompt()
        .send("let k = rules(\"start\t")
        .wait_for("startrek");
    t.send("\");\r");
    t.at_prompt()
        .send("k.ship(\"klingon bat\t")
        .wait_for("Klingon battle cruiser");
    t.send("\").shields\r").wait_for("\n9\r");
    t.at_prompt().send("\x04");
    assert!(t.finish().success());
}

#[test]
fn at_a_terminal_rules_asks_before_dropping_edits() {
    let mut t = pty::Pty::spawn(&["repl", "--rules", "startrek"], &[]);
    t.line("r.combat.start_distance = 6;");
    t.line(":rules cep").wait_for("[y/N]");
    t.send("n\r").wait_for("kept");
    t.line("r.combat.start_distance").wait_for("6");
    t.line(":rules cep").wait_for("[y/N]");
    t.send("y\r").wait_for("r = ruleset `cep`");
    t.at_prompt().send("\x04");
    assert!(t.finish().success());
}

#[test]
fn rules_refuses_to_drop_unsaved_edits_unless_told() {
    let o = run_stdin(
        &["repl", "--rules", "startrek"],
        "r.ship(\"UFP heavy cruiser\").shields = 9;\n:rules cep\nr.name\n:rules! cep\nr.name\n",
    );
    assert_eq!(stdout(&o), "startrek\nr = ruleset `cep` (2 ships)\ncep\n");
    assert!(
        stderr(&o).contains(
            "r (`startrek`) has 1 unsaved change, kept: see them with r.changes(), save them \
             with r.save_changes(\"FILE.rules\"), or drop them with :rules! cep"
        ),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_saved_ruleset_may_be_replaced() {
    let dir = tempfile::tempdir().unwrap();
    let o = run_in(
        dir.path(),
        &["repl", "--rules", "startrek", "--allow-write"],
        Some("r.ship(\"UFP heavy cruiser\").shields = 9;\nr.save_changes(\"house.rules\");\n:rules cep\n"),
    );
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert!(stdout(&o).contains("r = ruleset `cep`"), "{}", stdout(&o));
}

#[test]
fn a_cut_off_statement_continues_on_the_next_line() {
    let o = run_stdin(&["repl"], "let x =\n  40 +\n  2;\nx\n");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    assert_eq!(stdout(&o), "42\n");
}

#[test]
fn unknown_functions_get_did_you_mean() {
    let o = run_stdin(
        &["repl", "--rules", "startrek"],
        "r.simulte(\"a\", \"b\", 1, 2)\n",
    );
    assert!(
        stderr(&o).contains(
            "<repl 1>:1:3: unknown function `simulte` for (ruleset, string, string, int, int) \
             (did you mean `simulate`?)"
        ),
        "{}",
        stderr(&o)
    );
}
