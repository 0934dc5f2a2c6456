//! `arbiter repl`: an interactive rhai session over the rulesets and engines.
use crate::error::Result;
use crate::script::repl::{repl, ReplOptions};

#[derive(clap::Args)]
#[command(after_help = "Examples:\
        \n  arbiter repl --rules startrek\
        \n  echo 'dice(\"2D6\").mean' | arbiter repl\
        \n  arbiter repl < session.rhai\
        \n\
        \nAt a terminal: :help lists the API, Tab completes functions and ship names, an open bracket\
        \ncontinues the entry on the next line, the history is kept in ~/.arbiter_history\
        \n($ARBITER_HISTORY). With standard input not a terminal, each entry is evaluated as soon as it\
        \nis complete and its result printed; the exit status is 1 if any entry failed, N after exit(N).\
        \n\
        \nEntries read files as scripts do (see `arbiter run --help`): inside the current folder, the\
        \n--rules file and each --allow-read DIR. r.save(path) writes new files under the current folder:\
        \nat a terminal the REPL asks before the first write; piped, only with --allow-write.")]
pub(super) struct Args {
    /// Ruleset of the session (built-in name or path), available as `r` and `rules()`
    #[arg(long)]
    rules: Option<String>,
    /// History file (default: $ARBITER_HISTORY, else ~/.arbiter_history)
    #[arg(long, value_name = "FILE")]
    history: Option<std::path::PathBuf>,
    /// CPU seconds the script may use, engine calls included (default 2; at most 3600)
    #[arg(long, value_name = "SECONDS", value_parser = super::run::parse_seconds)]
    max_seconds: Option<f64>,
    /// Memory the script may hold, in MB (default 512; at most 65536)
    #[arg(long, value_name = "MB", value_parser = super::run::parse_megabytes)]
    max_memory: Option<u64>,
    /// Let entries write ruleset files (new files under the current folder) without asking
    #[arg(long)]
    allow_write: bool,
}

pub(super) fn run(args: Args, allow_read: &[String]) -> Result<()> {
    let code = repl(&ReplOptions {
        rules: args.rules,
        history: args.history,
        allow_write: args.allow_write,
        allow_read: allow_read.to_vec(),
        layout: super::layout(),
        limits: crate::script::run::ChosenLimits {
            max_seconds: args.max_seconds,
            max_memory_mb: args.max_memory,
        },
    })?;
    if code != 0 {
        std::process::exit(code);
    }
    Ok(())
}
