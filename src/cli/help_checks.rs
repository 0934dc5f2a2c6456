//! Checks over the whole command tree: every argument explains itself, and examples stay whole
//! at 80 columns.
#![cfg(test)]

/// Every command of the tree with its path ("arbiter combat sim"), parents first.
fn every_command() -> Vec<(String, clap::Command)> {
    fn walk(path: &str, cmd: &clap::Command, out: &mut Vec<(String, clap::Command)>) {
        let path = format!("{path} {}", cmd.get_name()).trim().to_string();
        out.push((path.clone(), cmd.clone()));
        for sub in cmd.get_subcommands() {
            walk(&path, sub, out);
        }
    }
    let mut root = super::command();
    root.build();
    let mut out = Vec::new();
    walk("", &root, &mut out);
    out
}

#[test]
fn every_argument_and_option_has_help() {
    let mut missing = Vec::new();
    let commands = every_command();
    for (path, cmd) in &commands {
        for arg in cmd.get_arguments().filter(|a| !a.is_hide_set()) {
            let help = arg
                .get_help()
                .or(arg.get_long_help())
                .map(|h| h.to_string());
            if help.is_none_or(|h| h.trim().is_empty()) {
                let shown = match (arg.get_long(), arg.get_short()) {
                    (Some(long), _) => format!("--{long}"),
                    (None, Some(short)) => format!("-{short}"),
                    (None, None) => format!("[{}]", arg.get_id()),
                };
                missing.push(format!("{path}: {shown}"));
            }
        }
    }
    assert!(commands.len() > 40, "the walk reaches every subcommand");
    assert!(
        missing.is_empty(),
        "arguments without help:\n  {}",
        missing.join("\n  ")
    );
}

/// Lines of a help text that are command lines: `arbiter ...`, `$ arbiter ...`, a pipe into
/// arbiter, and the continuations of a line that ends in `\`.
fn example_lines(text: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut continued = false;
    for line in text.lines() {
        let t = line.trim();
        let command = t.starts_with("arbiter ")
            || t.starts_with("$ arbiter")
            || t.contains("| arbiter ")
            || (t.starts_with("echo ") && t.contains("arbiter"));
        if command || continued {
            lines.push(line.trim_end().to_string());
        }
        continued = (command || continued) && t.ends_with('\\');
    }
    lines
}

#[test]
fn examples_are_whole_lines_at_80_columns() {
    let mut broken = Vec::new();
    let mut examples = 0;
    for (path, cmd) in every_command() {
        let written: Vec<String> = [cmd.get_after_help(), cmd.get_after_long_help()]
            .into_iter()
            .flatten()
            .flat_map(|t| example_lines(&t.to_string()))
            .collect();
        let mut cmd = cmd.term_width(80);
        for (form, shown) in [
            ("-h", cmd.render_help().to_string()),
            ("--help", cmd.render_long_help().to_string()),
        ] {
            let shown: Vec<&str> = shown.lines().map(str::trim_end).collect();
            for line in &written {
                examples += 1;
                if line.chars().count() > 80 || !shown.contains(&line.as_str()) {
                    broken.push(format!("{path} {form}: {line}"));
                }
            }
        }
    }
    assert!(examples > 100, "examples were found ({examples})");
    assert!(
        broken.is_empty(),
        "examples wrapped at 80 columns (lay them out shorter, or continue with \\):\n  {}",
        broken.join("\n  ")
    );
}

#[test]
fn example_lines_are_found_with_their_continuations() {
    let text = "Examples:\n  arbiter dice 3D6\n  arbiter combat sim A B \\\n    -n 10 --seed 1\n\
                \nProse about arbiter rules.\n  echo 'x' | arbiter repl";
    assert_eq!(
        example_lines(text),
        [
            "  arbiter dice 3D6",
            "  arbiter combat sim A B \\",
            "    -n 10 --seed 1",
            "  echo 'x' | arbiter repl"
        ]
    );
}
