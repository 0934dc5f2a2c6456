//! `arbiter help TOPIC`: reference pages whose example command lines all run; `arbiter help
//! COMMAND` as clap gives it; examples whole at 80 columns; manual pages.
use crate::common::*;
use std::path::Path;

const TOPICS: &[(&str, &str)] = &[
    ("rules", "# The rules language"),
    ("formulas", "# Formulas"),
    ("dice", "# Dice notation"),
    ("league", "# Leagues"),
    ("ratings", "# Ratings"),
    ("scripting", "# Scripting: rhai scripts and the REPL"),
];

fn topic(name: &str) -> String {
    ok(&["help", name])
}

#[test]
fn each_topic_prints_its_page_within_80_columns() {
    for (name, title) in TOPICS {
        let page = topic(name);
        assert!(page.starts_with(title), "{name}:\n{page}");
        assert!(page.lines().count() > 60, "{name} is a real page");
        assert!(page.contains("$ arbiter "), "{name} has examples");
        for line in page.lines() {
            assert!(line.chars().count() <= 80, "{name}: too wide: {line}");
        }
    }
    // A topic's name in any case.
    assert!(ok(&["help", "DICE"]).starts_with("# Dice notation"));
    // Headings are bold when colour is asked for, and only then.
    let coloured = ok(&["--color", "always", "help", "dice"]);
    assert!(coloured.contains("\u{1b}[1m## Limits"), "{coloured}");
    assert!(!topic("dice").contains('\u{1b}'));
}

#[test]
fn the_formulas_page_names_every_function_and_variable() {
    use arbiter::rules::formula::{operators::FUNCTIONS, Variables};
    let page = topic("formulas");
    let documented = |name: &str| page.contains(&format!("{name}(")) || page.contains(name);
    for f in FUNCTIONS {
        assert!(page.contains(&format!("{}(", f.name)), "{}", f.name);
    }
    let variables = [
        arbiter::rules::scoring::CepVariables::NAMES,
        arbiter::rules::scoring::K_VARIABLES,
        arbiter::rules::scoring::DECAY_VARIABLES,
        arbiter::rules::scoring::INITIAL_VARIABLES,
        arbiter::rules::ship::SHIP_FORMULA_VARIABLES,
    ];
    for name in variables.concat() {
        assert!(documented(name), "variable {name} is not on the page");
    }
    for op in [
        "or", "and", "<=", ">=", "==", "!=", "^", "not", "if", "then", "else",
    ] {
        assert!(
            page.contains(&format!("`{op}")) || page.contains(op),
            "{op}"
        );
    }
    // The page's worked examples of precedence are what the engine computes.
    let value = |text: &str| {
        arbiter::rules::formula::Formula::parse(text)
            .unwrap()
            .eval_with(&|_| None)
    };
    let one_line = page.split_whitespace().collect::<Vec<_>>().join(" ");
    for (formula, shown, result) in [
        ("10 - 4 - 3", "`(10 - 4) - 3`, which is 3", 3.0),
        ("2 ^ 3 ^ 2", "`2 ^ (3 ^ 2)`, 512", 512.0),
        ("-2 ^ 2", "`-(2 ^ 2)`, -4", -4.0),
        ("round(2.345, 1)", "round(2.345, 1) is 2.3", 2.3),
    ] {
        assert!(one_line.contains(shown), "{shown}");
        assert_eq!(value(formula), result, "{formula}");
    }
}

#[test]
fn the_scripting_page_lists_every_function_and_repl_command() {
    let page = topic("scripting");
    for doc in arbiter::script::api::help() {
        assert!(page.contains(doc.usage), "{} is not on the page", doc.usage);
    }
    for (name, _) in arbiter::script::repl::COMMANDS {
        assert!(page.contains(&format!("    {name}")), "{name}");
    }
    for part in [
        ":rules!",
        "Ctrl-C",
        "history",
        "--allow-write",
        "--allow-read",
        "512 MB",
    ] {
        assert!(page.contains(part), "{part}");
    }
}

/// The command lines of a page: `$ arbiter ...` or `$ echo '...' | arbiter ...`, with lines
/// ending in `\` joined to the next.
fn command_lines(page: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut open = false;
    for line in page.lines() {
        let t = line.trim();
        if open {
            let last = out.last_mut().expect("a line to continue");
            last.pop();
            last.push_str(t);
        } else if let Some(command) = t.strip_prefix("$ ") {
            out.push(command.to_string());
        } else {
            continue;
        }
        open = t.ends_with('\\');
    }
    out
}

/// Words of a command line as a POSIX shell splits them (quotes, no expansions).
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => word.get_or_insert_with(String::new).push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (None, ' ') => words.extend(word.take()),
            (None, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    assert!(quote.is_none(), "unclosed quote in {line}");
    words.extend(word);
    words
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), target).unwrap();
        }
    }
}

#[test]
fn every_example_command_in_the_topics_runs() {
    // In a copy of the project's example files, so examples that write leave the tree alone.
    let dir = tempfile::tempdir().unwrap();
    let project = Path::new(env!("CARGO_MANIFEST_DIR"));
    // tests/data/football: the worked example of `help ratings` (real games).
    for folder in ["examples", "scripts", "rulesets", "tests/data/football"] {
        copy_dir(&project.join(folder), &dir.path().join(folder));
    }
    let mut ran = 0;
    for (name, _) in TOPICS {
        for line in command_lines(&topic(name)) {
            let (input, command) = match line.split_once(" | ") {
                Some((echo, command)) => {
                    let words = shell_words(echo);
                    assert_eq!(words[0], "echo", "{line}");
                    (
                        Some(format!("{}\n", words[1..].join(" "))),
                        command.to_string(),
                    )
                }
                None => (None, line.clone()),
            };
            let words = shell_words(&command);
            assert_eq!(words[0], "arbiter", "{name}: {line}");
            let args: Vec<&str> = words[1..].iter().map(String::as_str).collect();
            let o = run_in(dir.path(), &args, input.as_deref());
            assert_eq!(
                o.status.code(),
                Some(0),
                "`arbiter help {name}` example failed: {line}\n{}",
                stderr(&o)
            );
            assert!(!stderr(&o).contains("error"), "{line}: {}", stderr(&o));
            ran += 1;
        }
    }
    assert!(ran >= 30, "{ran} examples ran");
}

#[test]
fn the_command_lines_of_a_page_are_found() {
    let page = "text\n    $ arbiter dice 3D6\n    $ arbiter score a.yaml \\\n        --rules b\n\
                    $ echo 'dice(\"2D6\")' | arbiter repl\n  arbiter not-an-example";
    assert_eq!(
        command_lines(page),
        [
            "arbiter dice 3D6",
            "arbiter score a.yaml --rules b",
            "echo 'dice(\"2D6\")' | arbiter repl"
        ]
    );
    assert_eq!(
        shell_words(r#"arbiter combat sim "UFP heavy cruiser" 'a b' -n 5"#),
        [
            "arbiter",
            "combat",
            "sim",
            "UFP heavy cruiser",
            "a b",
            "-n",
            "5"
        ]
    );
}

#[test]
fn help_with_a_command_is_that_commands_help() {
    let out = ok(&["help", "combat", "sim"]);
    assert!(out.contains("Usage: arbiter combat sim"), "{out}");
    assert!(out.contains("--precision"));
    let out = ok(&["help", "rules", "check"]);
    assert!(out.contains("Usage: arbiter rules check"), "{out}");
    // Alone, `help` is arbiter's own help, and it lists the topics' command.
    let out = ok(&["help"]);
    assert!(
        out.contains("Usage: arbiter") && out.contains("help  "),
        "{out}"
    );
    // `rules` alone is the topic; the command's help stays one flag away.
    assert!(topic("rules").contains("arbiter rules --help"));
    assert!(ok(&["rules", "--help"]).contains("Usage: arbiter rules"));
}

#[test]
fn an_unknown_topic_is_a_usage_error_that_lists_topics_and_commands() {
    let o = run(&["help", "formulae"]);
    assert_eq!(o.status.code(), Some(2));
    let e = stderr(&o);
    assert!(e.contains("no help topic or command `formulae`"), "{e}");
    assert!(e.contains("did you mean `formulas`?"), "{e}");
    assert!(
        e.contains("topics: rules, formulas, dice, league, ratings, scripting"),
        "{e}"
    );
    let o = run(&["help", "combat", "simm"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("did you mean `sim`?"), "{}", stderr(&o));
}

/// Every command path, found the way a reader finds them: the `Commands:` of each help.
fn command_paths() -> Vec<Vec<String>> {
    let mut paths = vec![Vec::new()];
    let mut i = 0;
    while i < paths.len() {
        let mut args: Vec<String> = paths[i].clone();
        args.push("--help".into());
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let help = ok(&args);
        let mut in_commands = false;
        for line in help.lines() {
            if line == "Commands:" {
                in_commands = true;
            } else if in_commands && line.starts_with("  ") && !line.starts_with("   ") {
                let name = line.split_whitespace().next().unwrap().to_string();
                let mut path = paths[i].clone();
                path.push(name);
                paths.push(path);
            } else if in_commands && !line.starts_with("   ") {
                in_commands = false;
            }
        }
        i += 1;
    }
    paths
}

#[test]
fn examples_are_never_broken_inside_a_command_line_at_80_columns() {
    let paths = command_paths();
    assert!(paths.len() > 40, "{} commands found", paths.len());
    let mut checked = 0;
    for path in paths {
        let mut args: Vec<&str> = path.iter().map(String::as_str).collect();
        args.push("--help");
        let help = Test::new()
            .args(args.clone())
            .env("COLUMNS", "80")
            .run()
            .stdout;
        let mut in_examples = false;
        let mut continued = false;
        for line in help.lines() {
            if line == "Examples:" {
                in_examples = true;
                continue;
            }
            if line.trim().is_empty() {
                in_examples = false;
                continue;
            }
            if !in_examples {
                continue;
            }
            assert!(line.chars().count() <= 80, "{args:?}: {line}");
            let command = line.starts_with("  arbiter ")
                || line.contains("| arbiter ")
                || line.starts_with("  echo ");
            assert!(
                command || continued,
                "`arbiter {}` at 80 columns breaks an example:\n{help}",
                path.join(" ")
            );
            continued = line.ends_with('\\');
            checked += 1;
        }
    }
    assert!(checked > 100, "{checked} example lines");
}

#[test]
fn man_prints_a_page_and_writes_them_all() {
    let page = ok(&["man"]);
    assert!(
        page.contains(".TH arbiter 1"),
        "{}",
        &page[..page.len().min(400)]
    );
    assert!(page.contains("combat") && page.contains("\\-\\-color"));
    let sim = ok(&["man", "combat", "sim"]);
    assert!(sim.contains(".TH arbiter-combat-sim 1"), "{}", &sim[..400]);
    assert!(sim.contains("arbiter\\-combat\\-sim \\- Monte Carlo"));
    assert!(sim.contains("\\-\\-precision"));
    let t = Test::new().args(["man", "--out", "."]).run();
    for page in ["arbiter.1", "arbiter-combat-sim.1", "arbiter-rules-check.1"] {
        assert!(t.read(page).contains(".SH SYNOPSIS"), "{page}");
        assert!(
            t.stderr.contains(&format!("wrote ./{page}")),
            "{}",
            t.stderr
        );
    }
    for (name, _) in TOPICS {
        let page = t.read(&format!("arbiter-help-{name}.7"));
        assert!(page.contains(&format!(".TH ARBITER-HELP-{}", name.to_uppercase())));
        assert!(page.contains(".SH NAME") && page.contains(".nf"));
    }
    let formulas = t.read("arbiter-help-formulas.7");
    assert!(
        formulas.contains(".SH \"OPERATORS, LOOSEST FIRST\""),
        "{formulas}"
    );
    assert!(formulas.contains("clamp(x, lo, hi)"));
    let o = run(&["man", "combat", "simulate"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no command `combat simulate`"));
}
