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
        err.starts_with("<repl 2>:1:11: ") && err.contains("Division by zero"),
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
    let out = stdout(&run_stdin(&["repl", "--rules", "startrek"], "r.name\nr.ship(\"UFP heavy cruiser\").shields = 9;\nr.ship(\"UFP heavy cruiser\").shields\n:rules cep\nr.ship(\"trialon\").value\nrules().name\n"));
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
    let o = run_stdin(
        &["repl"],
        &format!(":load {}\ntriple(5)\nloaded\n", path(&f)),
    );
    assert_eq!(stdout(&o), "15\ntrue\n", "{}", stderr(&o));
    let o = run_stdin(&["repl"], ":load /no/such/file.rhai\n:nonsense\n");
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("/no/such/file.rhai: no such file")
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

/// The terminal session, driven by python's pty module (skipped where python3 is missing).
const PTY_DRIVER: &str = r#"
import os, pty, sys, time, select
binary, history = sys.argv[1], sys.argv[2]
os.environ["ARBITER_HISTORY"] = history
os.environ["TERM"] = "xterm"
pid, fd = pty.fork()
if pid == 0:
    os.execv(binary, [binary, "repl", "--rules", "startrek"])
seen = b""
def pump(timeout):
    global seen
    r, _, _ = select.select([fd], [], [], timeout)
    if not r:
        return False
    try:
        chunk = os.read(fd, 4096)
    except OSError:
        return False
    if b"\x1b[6n" in chunk:
        os.write(fd, b"\x1b[1;1R")
    seen += chunk
    return True
def settle():
    # Read until the terminal has been quiet for a moment (answering cursor queries).
    while pump(0.4):
        pass
def send(keys):
    global seen
    settle()
    seen = b""
    os.write(fd, keys.encode())
def wait_for(text, timeout=20):
    end = time.time() + timeout
    while time.time() < end:
        if text.encode() in seen:
            return
        pump(0.1)
    print("TIMEOUT waiting for", repr(text), "in", repr(seen[-400:]))
    sys.exit(1)
wait_for("arbiter> ")
send("40 + 2\r"); wait_for("42")
send("fn twice(x) {\r"); send("x * 2 }\r"); send("twice(21)\r"); wait_for("42")
send("dic\t"); send('("2D6").max\r'); wait_for("12")
send('r.ship("ufp h\t'); wait_for("UFP heavy cruiser"); send('").shields\r'); wait_for("10")
send(":help\r"); wait_for("dice(expr)")
send("\x04")
os.waitpid(pid, 0)
print("ok")
"#;

#[test]
fn the_terminal_session_completes_continues_and_keeps_history() {
    if std::process::Command::new("python3")
        .arg("-c")
        .arg("import pty")
        .output()
        .map(|o| !o.status.success())
        .unwrap_or(true)
    {
        eprintln!("python3 with pty not available: terminal test skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let history = dir.path().join("history");
    let o = std::process::Command::new("python3")
        .args(["-c", PTY_DRIVER, BIN, history.to_str().unwrap()])
        .output()
        .unwrap();
    let out = stdout(&o);
    assert!(
        o.status.success() && out.contains("ok"),
        "{out}\n{}",
        stderr(&o)
    );
    let kept = std::fs::read_to_string(&history).unwrap();
    assert!(
        kept.contains("twice(21)") && kept.contains("dice(\"2D6\").max"),
        "history: {kept}"
    );
}
