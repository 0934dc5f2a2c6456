//! `arbiter run SCRIPT`: run a rhai script in the sandbox.
use arbiter::script::run::{run_file, RunOptions};
use arbiter::Result;

#[derive(clap::Args)]
#[command(after_help = "Examples:\n  arbiter run scripts/explore_ruleset.rhai --rules startrek\n  arbiter run scripts/dice_odds.rhai -- 3D6 12\n  arbiter run variant.rhai --rules startrek --allow-write\n\nThe script sees its arguments as ARGS (an array of strings) and the --rules ruleset as `r`\n(and `rules()`). Scripts run sandboxed: no file or module access except through the API,\nand limits on work, recursion and memory; a script writes a ruleset (r.save) only with\n--allow-write. Errors name the script file, line and column, and exit 1.")]
pub struct Args {
    /// The rhai script
    script: String,
    /// Ruleset for the script (built-in name or path): `r` and `rules()`
    #[arg(long)]
    rules: Option<String>,
    /// Let the script write ruleset files with r.save(path)
    #[arg(long)]
    allow_write: bool,
    /// Arguments for the script (after --), as ARGS
    #[arg(last = true)]
    args: Vec<String>,
}

pub fn run(args: Args) -> Result<()> {
    run_file(&RunOptions { script: args.script, rules: args.rules, allow_write: args.allow_write, args: args.args })
}
