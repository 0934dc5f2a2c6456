//! Engines say what is wrong in neutral words: no text outside src/cli/ names a command-line
//! flag (`--min`); an option is named by its key in backticks (`Error::options`), which the CLI
//! writes as `--min` and scripts keep as `min`. The few exceptions below describe the command
//! line itself, each with its reason.
use regex::Regex;
use std::path::Path;

/// (path prefix, flag, why it may be named there).
const ALLOWED: &[(&str, &str, &str)] = &[
    (
        "src/script/",
        "allow-write",
        "how the person starting the session lets scripts write (no script key sets it)",
    ),
    (
        "src/script/",
        "rules",
        "how the person starts a session with a ruleset (`arbiter run --rules`)",
    ),
    (
        "src/script/run.rs",
        "max-seconds",
        "the session's limit, set by the person starting it",
    ),
    (
        "src/script/run.rs",
        "max-memory",
        "the session's limit, set by the person starting it",
    ),
    (
        "src/io/policy.rs",
        "allow-read",
        "the read policy of every command and session: only the person starting it widens it",
    ),
    (
        "src/rules/resolve.rs",
        "rules",
        "`Choice::typed` is the command line's `--rules` (only src/cli/ sets it); left for now",
    ),
    (
        "src/output.rs",
        "wide",
        "the text table's note on hidden columns; rendering for the CLI (issue 29 item 4)",
    ),
];

/// Each flag named in `text` (a Rust source) outside comments, the test module and command
/// lines quoted in backticks (`arbiter score --json`, which describe the CLI): (line, flag).
fn flags_named(text: &str) -> Vec<(usize, String)> {
    let flag = Regex::new(r"(^|[^-\w])--([a-z][a-z0-9-]*)").unwrap();
    let quoted_command = Regex::new(r"`(arbiter )?[a-z]+( [a-z]+)? [^`]*`").unwrap();
    let body = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => text,
    };
    let mut found = Vec::new();
    for (i, line) in body.lines().enumerate() {
        if line.trim_start().starts_with("//") {
            continue;
        }
        let code = quoted_command.replace_all(line, "``");
        for c in flag.captures_iter(&code) {
            found.push((i + 1, c[2].to_string()));
        }
    }
    found
}

fn sources(dir: &Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn the_scanner_finds_a_flag_in_a_message_and_nothing_in_comments_or_commands() {
    let text = "fn f() {\n    // --comment\n    let m = \"give --min and --max\";\n    \
                let h = \"as `arbiter score --json`\";\n    let x = a - -b;\n}\n\
                #[cfg(test)]\nmod tests {\n    const T: &str = \"--sort\";\n}\n";
    assert_eq!(
        flags_named(text),
        vec![(3, "min".to_string()), (3, "max".to_string())]
    );
}

#[test]
fn no_engine_text_names_a_command_line_flag() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    sources(&root.join("src"), &mut files);
    files.sort();
    let mut problems = Vec::new();
    let mut used = vec![false; ALLOWED.len()];
    for file in &files {
        let shown = file
            .strip_prefix(root)
            .unwrap()
            .to_string_lossy()
            .replace('\\', "/");
        if shown.starts_with("src/cli/") || shown == "src/main.rs" {
            continue;
        }
        let text = std::fs::read_to_string(file).unwrap();
        for (line, flag) in flags_named(&text) {
            let allowed = ALLOWED
                .iter()
                .position(|(prefix, f, _)| shown.starts_with(prefix) && *f == flag);
            match allowed {
                Some(k) => used[k] = true,
                None => problems.push(format!("{shown}:{line}: --{flag}")),
            }
        }
    }
    assert!(
        problems.is_empty(),
        "engine text names command-line flags (name the option in backticks with \
         `Error::options`, or let the caller say it):\n{}",
        problems.join("\n")
    );
    // An exception no longer needed goes, so the list stays the truth.
    for (k, (prefix, flag, _)) in ALLOWED.iter().enumerate() {
        assert!(
            used[k],
            "{prefix} no longer names --{flag}: drop it from ALLOWED"
        );
    }
}

#[test]
fn the_cli_names_the_flag_and_a_script_the_key() {
    use crate::common::Test;
    Test::new()
        .args([
            "combat",
            "balance",
            "UFP frigate",
            "Transport",
            "--vary",
            "ships.Transport.shields",
            "--min",
            "5",
            "--max",
            "5",
        ])
        .status(1)
        .stderr_has("the range is --min below --max, not 5 to 5")
        .run();
    let out = Test::new()
        .file(
            "b.rhai",
            "try { rules(\"startrek\").balance(\"UFP frigate\", \"Transport\", \
             \"ships.Transport.shields\", #{ min: 5, max: 5 }) } catch (e) { \
             print(e.kind); print(e.option); print(e.message) }",
        )
        .args(["run", "b.rhai"])
        .run()
        .stdout;
    assert_eq!(
        out,
        "conflict\nmin\nthe range is `min` below `max`, not 5 to 5\n"
    );
}
