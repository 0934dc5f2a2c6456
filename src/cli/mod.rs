//! The command line: thin clap commands over the engines. No rule logic lives here.
mod combat;
mod combat_lab;
mod combat_ladder;
mod completions;
mod dice;
mod help_checks;
mod lab_plot;
mod league;
mod line_chart;
mod man;
mod rate;
mod rate_plot;
mod repl;
mod rules;
mod run;
mod score;
mod site;
mod swiss;
mod topics;

use crate::error::Error;
use crate::error::{Conflict, ErrorKind};
use crate::io::policy::Policy;
use crate::output::Layout;
use crate::rules::builtin::DEFAULT_COMBAT;
use clap::{Parser, Subcommand};
use std::io::Write;

#[derive(Parser)]
#[command(
    name = "arbiter",
    version,
    // `help` is ours (topics, then commands), so `arbiter help dice` can be the notation.
    disable_help_subcommand = true,
    about = "Settle how to score a game, schedule a league, or whether a ship is balanced — \
             from one ruleset file"
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Colour: auto (on a terminal, unless NO_COLOR is set), always or never
    #[arg(long, global = true, value_enum, value_name = "WHEN", default_value_t)]
    color: crate::style::ColorChoice,
    /// Print tables whole, however wide (by default they fit the terminal or COLUMNS)
    #[arg(long, global = true)]
    wide: bool,
    /// Say nothing on standard error but errors (no `wrote FILE`, no warnings)
    #[arg(short, long, global = true, conflicts_with = "verbose")]
    quiet: bool,
    /// Also say why: which ruleset each command used, and why that one
    #[arg(short, long, global = true)]
    verbose: bool,
    /// Let files (and scripts) read files below DIR too (repeatable). Without it, what a file
    /// names (`extends`, `rules:`, hooks) must sit beside it, in the current folder, or be
    /// typed on the command line
    #[arg(long, global = true, value_name = "DIR")]
    allow_read: Vec<String>,
}

#[derive(Subcommand)]
enum Command {
    /// List, check, show and convert rulesets
    Rules(rules::Args),
    /// Exact distribution of a dice expression
    Dice(dice::Args),
    /// Score one game (CEP record, or NAME=SCORE for figf/advciv)
    Score(score::Args),
    /// Ratings over a history of games
    Rate(rate::Args),
    /// League schedules and seasons
    League(league::Args),
    /// Swiss tournaments: FIDE Dutch pairings, results, tie-breaks, TRF
    Swiss(swiss::Args),
    /// Starship combat: ships, volley odds, duels, simulations
    Combat(combat::Args),
    /// A club's static site: standings, fixtures, teams, rounds, ratings and rulesets as
    /// HTML pages, from a club file
    Site(site::Args),
    /// Interactive rhai session over every engine
    Repl(repl::Args),
    /// Run a rhai script
    Run(run::Args),
    /// Print shell completions
    Completions(completions::Args),
    /// Topics (rules, formulas, dice, scripting) or a command's help
    Help(topics::Args),
    /// Manual pages: print one, or write them all with --out DIR
    Man(man::Args),
    /// Language server over stdio for `.rules` and ruleset YAML (diagnostics, hover,
    /// completion)
    #[command(after_help = "Examples:\
            \n  arbiter lsp      # started by the editor, which talks to it on stdin/stdout")]
    Lsp,
}

/// The command line's definition, with the words made from the built-in registry (the list
/// of built-in rulesets), for parsing, `--help`, `man` and completions alike.
pub(crate) fn command() -> clap::Command {
    use clap::CommandFactory;
    Cli::command().after_help(format!(
        "Built-in rulesets: {} (see `arbiter rules list`).\
         \nEvery command that reads a ruleset takes --rules NAME|PATH.\
         \nReference pages: `arbiter help {}`; manual pages: `arbiter man`.",
        crate::rules::builtin::names().join(", "),
        topics::TOPICS
            .iter()
            .map(|t| t.name)
            .collect::<Vec<_>>()
            .join("|")
    ))
}

/// Parse the command line, run, and return the process exit code.
pub fn main() -> i32 {
    crate::io::install_interrupt_cleanup();
    crate::script::hook::install();
    // Chosen before parsing, so that clap's own messages follow --color too.
    crate::style::choose(color_asked().unwrap_or_default());
    let parsed = command()
        .try_get_matches()
        .and_then(|m| <Cli as clap::FromArgMatches>::from_arg_matches(&m));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(e) => {
            let code = e.exit_code();
            if wants_json() && e.use_stderr() {
                let shown = e.render().to_string();
                let message = shown.lines().next().unwrap_or_default();
                let message = message.strip_prefix("error: ").unwrap_or(message);
                eprintln!("{}", serde_json::json!({"error": {"message": message}}));
            } else {
                let _ = e.print();
                if let Some(tip) = quoting_tip(&e) {
                    eprintln!("{tip}");
                }
            }
            return code;
        }
    };
    crate::style::choose(cli.color);
    crate::style::set_verbosity(match (cli.quiet, cli.verbose) {
        (true, _) => crate::style::Verbosity::Quiet,
        (_, true) => crate::style::Verbosity::Verbose,
        _ => crate::style::Verbosity::Normal,
    });
    LAYOUT.get_or_init(|| terminal_layout(cli.wide));
    let scripted = matches!(cli.command, Command::Repl(_) | Command::Run(_));
    let result = read_policy(&cli.allow_read).and_then(|policy| {
        crate::io::policy::enter(Some(policy), || dispatch(cli.command, &cli.allow_read))
    });
    match result {
        Ok(()) => 0,
        Err(e) => {
            let e = if scripted { e } else { with_flag_hint(e) };
            if wants_json() {
                // Scripts that asked for JSON read errors as JSON too (interface.md).
                eprintln!("{}", e.to_json());
            } else {
                crate::style::report_error(&e);
            }
            1
        }
    }
}

/// The ruleset a command chose, said with `-v`.
pub(crate) fn chosen(c: crate::rules::resolve::Chosen) -> crate::rules::resolve::Chosen {
    if crate::style::is_verbose() {
        crate::style::explain(&c.why());
    }
    c
}

/// Said with `-v`: how long a step took (`paired round 3 in 12 ms`).
pub(crate) fn explain_time(what: &str, started: std::time::Instant) {
    if crate::style::is_verbose() {
        let s = started.elapsed().as_secs_f64();
        let took = if s < 1.0 {
            format!("{:.1} ms", s * 1000.0)
        } else {
            format!("{s:.2} s")
        };
        crate::style::explain(&format!("{what} in {took}"));
    }
}

/// How this run lays out text for people, decided once from the terminal and the flags.
static LAYOUT: std::sync::OnceLock<Layout> = std::sync::OnceLock::new();

/// The layout reports render with (plain until the command line is parsed).
pub(crate) fn layout() -> Layout {
    LAYOUT.get().copied().unwrap_or(Layout::PLAIN)
}

/// The narrowest width tables are fitted to, however narrow `COLUMNS` says the screen is.
const NARROWEST_SCREEN: usize = 20;

/// Ask the terminal once: tables fit `COLUMNS`, else standard output's terminal width (a
/// pipe gets whole tables), unless `--wide`; colour as `--color` and the stream decide.
fn terminal_layout(wide: bool) -> Layout {
    let columns = || {
        std::env::var("COLUMNS")
            .ok()
            .and_then(|c| c.trim().parse::<usize>().ok())
            .map(|c| c.max(NARROWEST_SCREEN))
    };
    let terminal = || {
        terminal_size::terminal_size_of(std::io::stdout())
            .map(|(terminal_size::Width(w), _)| usize::from(w))
            .filter(|&w| w > 0)
    };
    Layout {
        width: if wide {
            None
        } else {
            columns().or_else(terminal)
        },
        color: crate::style::colored(crate::style::Stream::Out),
    }
}

/// What this command's files may name: the current folder, the files typed on the command
/// line and each --allow-read DIR (scripts narrow or widen it in their own sessions).
fn read_policy(allow_read: &[String]) -> Result<std::sync::Arc<Policy>, Error> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    Policy::for_command(&args, allow_read).map(std::sync::Arc::new)
}

fn dispatch(command: Command, allow_read: &[String]) -> Result<(), Error> {
    match command {
        Command::Rules(a) => rules::run(a),
        Command::Dice(a) => dice::run(a),
        Command::Score(a) => score::run(a),
        Command::Rate(a) => rate::run(a),
        Command::League(a) => league::run(a),
        Command::Swiss(a) => swiss::run(a),
        Command::Combat(a) => combat::run(a),
        Command::Site(a) => site::run(a),
        Command::Repl(a) => repl::run(a, allow_read),
        Command::Run(a) => run::run(a, allow_read),
        Command::Completions(a) => completions::run(a),
        Command::Help(a) => topics::run(a),
        Command::Man(a) => man::run(a),
        Command::Lsp => crate::lsp::serve(),
    }
}

/// A word the command did not expect, where a name with spaces was probably typed unquoted
/// (`league record s.yaml Gouged Eye Chaos All-Stars 2 1`): say to quote it.
fn quoting_tip(e: &clap::Error) -> Option<String> {
    use clap::error::{ContextKind, ContextValue, ErrorKind as Kind};
    if e.kind() != Kind::UnknownArgument {
        return None;
    }
    let Some(ContextValue::String(word)) = e.get(ContextKind::InvalidArg) else {
        return None;
    };
    if word.starts_with('-') {
        return None;
    }
    Some(
        "tip: a name with spaces is one argument: put it in quotes, as in \
         \"Gouged Eye\" or 'Chaos All-Stars'"
            .to_string(),
    )
}

/// The `--color` the command line gives, read before clap parses it.
fn color_asked() -> Option<crate::style::ColorChoice> {
    use clap::ValueEnum;
    let args: Vec<String> = std::env::args().skip(1).take_while(|a| a != "--").collect();
    let value = args
        .iter()
        .enumerate()
        .find_map(|(i, a)| match a.strip_prefix("--color") {
            Some(v) if v.starts_with('=') => Some(v[1..].to_string()),
            Some("") => args.get(i + 1).cloned(),
            _ => None,
        })?;
    crate::style::ColorChoice::from_str(&value, true).ok()
}

/// Whether the command line asked for `--json` (before any `--`).
fn wants_json() -> bool {
    std::env::args()
        .skip(1)
        .take_while(|a| a != "--")
        .any(|a| a == "--json")
}

/// Engines say what clashes; the command line adds the flag that resolves it.
fn with_flag_hint(e: Error) -> Error {
    let ErrorKind::Conflict { with, .. } = e.kind() else {
        return e;
    };
    match with.clone() {
        Conflict::ResultRecorded => e.hint("; use --correct to replace it"),
        Conflict::RoundNotGiven => e.hint(" with --round"),
        Conflict::FileExists => e.hint("; use --force to replace it"),
        Conflict::MissingSection(section) if section == "combat" => {
            e.hint(&format!(" (try --rules {})", DEFAULT_COMBAT))
        }
        Conflict::MissingSection(_) => e,
        Conflict::Options(names) => e.reworded(|m| {
            names.iter().fold(m.to_string(), |m, name| {
                // A script's key (`max_rows`) is the command line's flag (`--max-rows`).
                m.replace(
                    &format!("`{name}`"),
                    &format!("--{}", name.replace('_', "-")),
                )
            })
        }),
    }
}

/// Write to standard output; a closed pipe (`arbiter ... | head`) ends the program quietly, any
/// other failure (a full disk) is an error. Control characters that names or files brought in
/// are shown as text (`\u{1b}`), never sent to the terminal to act on.
pub(crate) fn print(text: &str) -> Result<(), Error> {
    let text = crate::style::printable(text, crate::style::Stream::Out);
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => Err(Error::msg(format!("cannot write to standard output: {e}"))),
    }
}

/// A JSON report with the ruleset it was made under: `ruleset` (its name, if the report does not
/// already say it), `ruleset_version` and `ruleset_sha256` (what `rules hash` prints).
pub(crate) fn json_with_ruleset(
    report: &impl serde::Serialize,
    ruleset: &crate::rules::identity::Identity,
) -> String {
    let mut value = serde_json::to_value(report).expect("reports serialise");
    ruleset.stamp(&mut value);
    crate::output::json_string(&value)
}
