//! Every command explains itself with examples; completions are generated for each shell.
use crate::common::*;

const COMMANDS: &[&[&str]] = &[
    &["rules"],
    &["rules", "list"],
    &["rules", "check"],
    &["rules", "show"],
    &["rules", "convert"],
    &["dice"],
    &["score"],
    &["rate"],
    &["league"],
    &["league", "schedule"],
    &["league", "new"],
    &["league", "record"],
    &["league", "table"],
    &["combat"],
    &["combat", "ships"],
    &["combat", "volley"],
    &["combat", "duel"],
    &["combat", "sim"],
    &["repl"],
    &["run"],
    &["swiss", "pair"],
    &["swiss", "new"],
    &["swiss", "record"],
    &["swiss", "bye"],
    &["swiss", "withdraw"],
    &["swiss", "add"],
    &["swiss", "table"],
    &["swiss", "export"],
    &["completions"],
    &["help"],
    &["man"],
];

#[test]
fn every_subcommand_has_help_with_examples() {
    for c in COMMANDS {
        let mut args = c.to_vec();
        args.push("--help");
        let out = ok(&args);
        assert!(
            out.contains("Examples:\n  arbiter "),
            "`arbiter {}` --help has no examples:\n{out}",
            c.join(" ")
        );
    }
}

#[test]
fn completions_for_every_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = ok(&["completions", shell]);
        assert!(out.contains("arbiter"), "{shell}");
        assert!(
            out.contains("schedule"),
            "{shell} completions know the subcommands"
        );
    }
    let o = run(&["completions", "tcsh"]);
    assert_eq!(
        o.status.code(),
        Some(2),
        "an unknown shell is a usage error"
    );
}

#[test]
fn usage_errors_exit_2_and_never_panic() {
    for args in [
        &["frobnicate"][..],
        &["rules"],
        &["dice"],
        &["league", "schedule"],
        &["score", "--json", "--vs"],
    ] {
        let o = run(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"));
    }
}
