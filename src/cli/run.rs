//! `arbiter run SCRIPT`: run a rhai script in the sandbox.
use crate::error::Result;
use crate::script::run::{run_file, RunOptions};

#[derive(clap::Args)]
#[command(after_help = "Examples:\
        \n  arbiter run scripts/explore_ruleset.rhai --rules startrek\
        \n  arbiter run scripts/dice_odds.rhai -- 3D6 12\
        \n  arbiter run variant.rhai --rules startrek --allow-write\
        \n  arbiter run report.rhai --allow-read ../records -- ../records/season.yaml\
        \n\
        \nThe script sees its arguments as ARGS (an array of strings) and the --rules ruleset as `r`\
        \n(and `rules()`). Scripts run sandboxed: no modules, and files only through the API.\
        \n\
        \nReading: a script (and any ruleset it loads: hooks, extends) reads only files inside the\
        \nscript's folder or the current folder (symlinks and `..` leading out are refused), plus the\
        \nfiles named on this command line (--rules, arguments after --), plus each --allow-read DIR;\
        \nand only the formats the call reads (.rules .yaml .yml .json .csv, .txt team lists, .rhai\
        \ntactics). A path written in a script or ruleset never widens this.\
        \n\
        \nWriting: r.save(path) and r.save_changes(path) only with --allow-write, only under the\
        \ncurrent folder, and only new files (or files the script itself wrote).\
        \n\
        \nLimits: work, recursion, data sizes, 2 s of CPU time and 512 MB of memory, engine calls\
        \n(simulate, schedule...) included; a ruleset's script.limits may tighten them, and\
        \n--max-seconds and --max-memory set them for this run. exit(N) ends the script with status N.\
        \nErrors name the script file, line and column, and exit 1.")]
pub(super) struct Args {
    /// The rhai script
    script: String,
    /// Ruleset for the script (built-in name or path): `r` and `rules()`
    #[arg(long)]
    rules: Option<String>,
    /// Let the script write ruleset files (new files under the current folder) with r.save(path)
    #[arg(long)]
    allow_write: bool,
    /// CPU seconds the script may use, engine calls included (default 2; at most 3600)
    #[arg(long, value_name = "SECONDS", value_parser = parse_seconds)]
    max_seconds: Option<f64>,
    /// Memory the script may hold, in MB (default 512; at most 65536)
    #[arg(long, value_name = "MB", value_parser = parse_megabytes)]
    max_memory: Option<u64>,
    /// Arguments for the script (after --), as ARGS
    #[arg(last = true)]
    args: Vec<String>,
}

pub(super) fn run(args: Args, allow_read: &[String]) -> Result<()> {
    let code = run_file(&RunOptions {
        script: args.script,
        rules: args.rules,
        allow_write: args.allow_write,
        allow_read: allow_read.to_vec(),
        limits: crate::script::run::ChosenLimits {
            max_seconds: args.max_seconds,
            max_memory_mb: args.max_memory,
        },
        args: args.args,
    })?;
    if code != 0 {
        // Standard output is flushed after every line the script printed.
        std::process::exit(code);
    }
    Ok(())
}

/// `--max-seconds`: a positive number of seconds, at most an hour.
pub(super) fn parse_seconds(text: &str) -> std::result::Result<f64, String> {
    let most = crate::script::run::MOST_SECONDS;
    match text.trim().parse::<f64>() {
        Ok(s) if s.is_finite() && s > 0.0 && s <= most => Ok(s),
        _ => Err(format!("a number of seconds above 0 and at most {most}")),
    }
}

/// `--max-memory`: a whole number of megabytes, from 1 to 64 GiB.
pub(super) fn parse_megabytes(text: &str) -> std::result::Result<u64, String> {
    let most = crate::script::run::MOST_MEMORY_MB;
    match text.trim().parse::<u64>() {
        Ok(mb) if (1..=most).contains(&mb) => Ok(mb),
        _ => Err(format!(
            "a whole number of megabytes from 1 to at most {most}"
        )),
    }
}
