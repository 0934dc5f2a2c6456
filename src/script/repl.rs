//! The REPL: rustyline at a terminal (history, multi-line entries, completion), or line by
//! line from a pipe (`echo 'dice("2D6")' | arbiter repl`).
use super::api;
use super::complete::{candidates, incomplete, Known};
use super::display::render;
use super::handle::RulesHandle;
use super::run::Runner;
use crate::error::{Error, Result};
use rustyline::completion::{Completer, Pair};
use rustyline::error::ReadlineError;
use rustyline::highlight::Highlighter;
use rustyline::hint::Hinter;
use rustyline::history::DefaultHistory;
use rustyline::validate::{ValidationContext, ValidationResult, Validator};
use rustyline::{Context, Editor, Helper};
use std::io::{BufRead, IsTerminal};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// The REPL's own commands, with one-line docs.
pub const COMMANDS: &[(&str, &str)] = &[
    (":help", "this list: the commands and every API function"),
    (
        ":load",
        ":load FILE — run a script file here (its functions and variables stay)",
    ),
    (
        ":rules",
        ":rules NAME|PATH — choose the session's ruleset (also as `r`); :rules! discards edits",
    ),
    (":quit", "leave (Ctrl-D does too)"),
];

pub(crate) struct ReplOptions {
    pub rules: Option<String>,
    /// Limits the person chose (`--max-seconds`, `--max-memory`).
    pub limits: super::run::ChosenLimits,
    /// Let scripts write without asking (`--allow-write`).
    pub allow_write: bool,
    /// Folders scripts may read besides the current one (`--allow-read`).
    pub allow_read: Vec<String>,
    /// History file; default $ARBITER_HISTORY, else ~/.arbiter_history.
    pub history: Option<PathBuf>,
    /// How results are laid out (the terminal's width, colour).
    pub layout: crate::output::Layout,
}

/// Run the REPL. Interactive at a terminal; otherwise reads standard input and returns an
/// error (exit 1) if any entry failed, after evaluating them all. Returns the status an
/// `exit(N)` asked for (it ends the session at once), else 0.
pub(crate) fn repl(options: &ReplOptions) -> Result<i32> {
    let mut policy = crate::io::policy::Policy::current_folder();
    for dir in &options.allow_read {
        policy.allow_read(dir)?;
    }
    if let Some(r) = &options.rules {
        policy.allow_named(r);
    }
    let terminal = std::io::stdin().is_terminal();
    // At a terminal the first write is asked about; piped input writes only with --allow-write.
    let writes = super::writes::Writes::new(options.allow_write, terminal);
    let session =
        super::run::session_for(options.rules.as_deref(), policy, writes, options.limits)?;
    let mut session_state = Repl {
        runner: Runner::new(session),
        entries: 0,
        layout: options.layout,
    };
    if terminal {
        interactive(&mut session_state, options)?;
    } else {
        piped(&mut session_state)?;
    }
    Ok(session_state.runner.exit_code.unwrap_or(0))
}

struct Repl {
    runner: Runner,
    entries: usize,
    layout: crate::output::Layout,
}

/// What one entry did.
enum Outcome {
    Shown(String),
    Quit,
}

impl Repl {
    /// Evaluate one complete entry (a `:command` or rhai text).
    fn entry(&mut self, text: &str) -> Result<Outcome> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Ok(Outcome::Shown(String::new()));
        }
        if let Some(command) = trimmed.strip_prefix(':') {
            return self.command(command);
        }
        self.entries += 1;
        let name = format!("<repl {}>", self.entries);
        let value = self.runner.eval(&name, text)?;
        if self.runner.exit_code.is_some() {
            return Ok(Outcome::Quit);
        }
        Ok(Outcome::Shown(render(&value, self.layout)))
    }

    fn command(&mut self, command: &str) -> Result<Outcome> {
        let (name, arg) = command
            .split_once(char::is_whitespace)
            .map(|(n, a)| (n, a.trim()))
            .unwrap_or((command, ""));
        match name {
            "help" | "h" | "?" => Ok(Outcome::Shown(help_text())),
            "quit" | "q" | "exit" => Ok(Outcome::Quit),
            "load" => {
                if arg.is_empty() {
                    return Err(Error::msg(":load needs a file: :load FILE"));
                }
                // Piped input may be a file from anywhere: `:load` reads as scripts do.
                let policy = Some(self.runner.session.policy.clone());
                let text = crate::io::policy::enter(policy, || {
                    crate::io::policy::check_script_path(arg, crate::io::policy::Kind::Script)?;
                    crate::io::read_text(arg)
                })?;
                let value = self.runner.eval(arg, &text)?;
                if self.runner.exit_code.is_some() {
                    return Ok(Outcome::Quit);
                }
                Ok(Outcome::Shown(render(&value, self.layout)))
            }
            "rules" | "rules!" => {
                if arg.is_empty() {
                    return match self.runner.session.current() {
                        Ok(r) => Ok(Outcome::Shown(render(&rhai::Dynamic::from(r), self.layout))),
                        Err(e) => Err(e),
                    };
                }
                if name == "rules" {
                    self.keep_unsaved_edits(arg)?;
                }
                let r = RulesHandle::load(arg)?;
                self.runner.session.set_current(r.clone());
                self.runner.set_var("r", rhai::Dynamic::from(r.clone()));
                Ok(Outcome::Shown(format!(
                    "r = ruleset `{}` ({} ships)\n",
                    r.name(),
                    r.ship_names().len()
                )))
            }
            _ => Err(Error::msg(format!(
                "unknown command `:{name}`{}; the commands are {}",
                crate::names::suggestion(name, COMMANDS.iter().map(|(c, _)| &c[1..])),
                COMMANDS
                    .iter()
                    .map(|(c, _)| *c)
                    .collect::<Vec<_>>()
                    .join(", ")
            ))),
        }
    }
}

impl Repl {
    /// Before `:rules` replaces `r`: if it holds edits not saved, ask at a terminal, and
    /// refuse otherwise, saying how to keep or drop them.
    fn keep_unsaved_edits(&self, next: &str) -> Result<()> {
        let Some(r) = self
            .runner
            .var("r")
            .and_then(|v| v.try_cast::<RulesHandle>())
            .or_else(|| self.runner.session.current().ok())
        else {
            return Ok(());
        };
        let n = r.unsaved_changes();
        if n == 0 {
            return Ok(());
        }
        let what = format!(
            "r (`{}`) has {n} unsaved change{}",
            r.name(),
            if n == 1 { "" } else { "s" }
        );
        if std::io::stdin().is_terminal()
            && super::writes::ask_yes(&format!(
                "{what} (r.changes() shows them); replace it with `{next}` anyway? [y/N] "
            ))
        {
            return Ok(());
        }
        Err(Error::msg(format!(
            "{what}, kept: see them with r.changes(), save them with \
             r.save_changes(\"FILE.rules\"), or drop them with :rules! {next}"
        )))
    }
}

/// `:help`: the commands, then the API with one-line docs.
pub(crate) fn help_text() -> String {
    let mut out = String::from("Commands:\n");
    for (c, doc) in COMMANDS {
        out.push_str(&format!("  {c:<8} {doc}\n"));
    }
    out.push_str(
        "\nFunctions (r is a ruleset from rules(...); results are maps with the JSON keys):\n",
    );
    let docs = api::help();
    let width = docs.iter().map(|d| d.usage.len()).max().unwrap_or(0);
    for d in docs {
        out.push_str(&format!("  {:<width$}  {}\n", d.usage, d.summary));
    }
    out.push_str(
        "\nAny ship or section reads and writes as a property: r.ship(\"NAME\").shields = 9; \
         r.combat.start_distance\n",
    );
    out
}

fn show(text: &str) {
    if !text.is_empty() {
        super::engine::print_line(text.trim_end_matches('\n'));
    }
}

/// Standard input that is not a terminal: evaluate each entry as soon as it is complete.
fn piped(repl: &mut Repl) -> Result<()> {
    let stdin = std::io::stdin();
    let mut buffer = String::new();
    let mut failed = 0usize;
    let mut run = |repl: &mut Repl, text: &str| -> bool {
        match repl.entry(text) {
            Ok(Outcome::Shown(t)) => {
                show(&t);
                true
            }
            Ok(Outcome::Quit) => false,
            Err(e) => {
                crate::style::report_error(&e);
                failed += 1;
                true
            }
        }
    };
    for line in stdin.lock().lines() {
        let line = line.map_err(|e| Error::msg(format!("standard input: {e}")))?;
        buffer.push_str(&line);
        buffer.push('\n');
        if buffer.trim_start().starts_with(':') || !incomplete(&buffer) {
            let text = std::mem::take(&mut buffer);
            if !run(repl, &text) {
                break;
            }
        }
    }
    if !buffer.trim().is_empty() {
        let text = std::mem::take(&mut buffer);
        run(repl, &text);
    }
    if failed > 0 && repl.runner.exit_code.is_none() {
        return Err(Error::msg(format!(
            "{failed} entr{} failed",
            if failed == 1 { "y" } else { "ies" }
        )));
    }
    Ok(())
}

/// Tab completion and multi-line entry for rustyline.
struct ReplHelper {
    names: Arc<Mutex<SessionNames>>,
    api: Vec<&'static str>,
    built_in: Vec<&'static str>,
}

/// What the session has defined, refreshed after each entry (completion runs between them).
#[derive(Default)]
struct SessionNames {
    defined: Vec<String>,
    /// Ships of every ruleset a variable holds (`let k = rules("house.rules")`), and the
    /// session's own.
    ships: Vec<String>,
}

impl SessionNames {
    fn of(runner: &Runner) -> SessionNames {
        let mut ships = runner.session.ship_names();
        for r in runner.rulesets() {
            for ship in r.ship_names() {
                if !ships.contains(&ship) {
                    ships.push(ship);
                }
            }
        }
        SessionNames {
            defined: runner.defined_names(),
            ships,
        }
    }
}

impl Completer for ReplHelper {
    type Candidate = Pair;
    fn complete(
        &self,
        line: &str,
        pos: usize,
        _ctx: &Context<'_>,
    ) -> rustyline::Result<(usize, Vec<Pair>)> {
        let names = self.names.lock().unwrap_or_else(|p| p.into_inner());
        let known = Known {
            api: &self.api,
            defined: &names.defined,
            ships: &names.ships,
            rulesets: &self.built_in,
        };
        let (start, found) = candidates(line, pos, &known);
        Ok((
            start,
            found
                .into_iter()
                .map(|c| Pair {
                    display: c.clone(),
                    replacement: c,
                })
                .collect(),
        ))
    }
}

impl Validator for ReplHelper {
    fn validate(&self, ctx: &mut ValidationContext) -> rustyline::Result<ValidationResult> {
        let input = ctx.input();
        Ok(
            if !input.trim_start().starts_with(':') && incomplete(input) {
                ValidationResult::Incomplete
            } else {
                ValidationResult::Valid(None)
            },
        )
    }
}

impl Hinter for ReplHelper {
    type Hint = String;
}
impl Highlighter for ReplHelper {}
impl Helper for ReplHelper {}

fn history_path(options: &ReplOptions) -> Option<PathBuf> {
    options
        .history
        .clone()
        .or_else(|| std::env::var_os("ARBITER_HISTORY").map(PathBuf::from))
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".arbiter_history")))
}

fn interactive(repl: &mut Repl, options: &ReplOptions) -> Result<()> {
    let config = rustyline::Config::builder()
        .auto_add_history(false)
        .completion_type(rustyline::CompletionType::List)
        .max_history_size(1000)
        .map_err(|e| Error::msg(e.to_string()))?
        .build();
    let mut editor: Editor<ReplHelper, DefaultHistory> =
        Editor::with_config(config).map_err(|e| Error::msg(format!("terminal: {e}")))?;
    let names = Arc::new(Mutex::new(SessionNames::of(&repl.runner)));
    let mut api_names: Vec<&'static str> = api::help().iter().map(|d| d.name).collect();
    api_names.dedup();
    editor.set_helper(Some(ReplHelper {
        names: names.clone(),
        api: api_names,
        built_in: crate::rules::builtin::names(),
    }));
    let history = history_path(options);
    if let Some(h) = &history {
        let _ = editor.load_history(h);
    }
    let ruleset = repl
        .runner
        .session
        .current()
        .map(|r| format!(" — ruleset `{}` is r", r.name()))
        .unwrap_or_default();
    println!(
        "arbiter {} — rhai REPL{ruleset}. :help lists the API, Tab completes, Ctrl-C stops a \
         long call, Ctrl-D leaves.",
        env!("CARGO_PKG_VERSION")
    );
    loop {
        match editor.readline("arbiter> ") {
            Ok(line) => {
                if !line.trim().is_empty() {
                    let _ = editor.add_history_entry(line.as_str());
                    // Saved at once: an entry interrupted with Ctrl-C still leaves its history.
                    if let Some(h) = &history {
                        let _ = editor.save_history(h);
                    }
                }
                // Ctrl-C while the entry runs stops it (engines and scripts check between
                // units of work), and the session goes on with every variable as it was.
                let (outcome, interrupted) = crate::stop::CTRL_C.interruptible(|| {
                    let outcome = repl.entry(&line);
                    (outcome, crate::stop::CTRL_C.interrupted())
                });
                match outcome {
                    Ok(Outcome::Shown(t)) => show(&t),
                    Ok(Outcome::Quit) => break,
                    Err(_) if interrupted => {
                        eprintln!("interrupted (Ctrl-C): back at the prompt, every variable kept")
                    }
                    Err(e) => crate::style::report_error(&e),
                }
                if let Ok(mut n) = names.lock() {
                    *n = SessionNames::of(&repl.runner);
                }
            }
            Err(ReadlineError::Interrupted) => continue,
            Err(ReadlineError::Eof) => break,
            Err(e) => return Err(Error::msg(format!("terminal: {e}"))),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn help_lists_every_api_function_and_command() {
        let h = help_text();
        for d in api::help() {
            assert!(h.contains(d.usage) && h.contains(d.summary), "{}", d.usage);
        }
        for (c, _) in COMMANDS {
            assert!(h.contains(c));
        }
    }
}
