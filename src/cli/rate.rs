//! `arbiter rate HISTORY [--rules R] [--history] [--player NAME] [--json]`.
use arbiter::rules::load;
use arbiter::scoring::RateOptions;
use arbiter::{Error, Result};

#[derive(clap::Args)]
#[command(after_help = "Examples:\
        \n  arbiter rate games.yaml                      # its `rules:` picks the system (elo by default)\
        \n  arbiter rate games.csv --rules elo --history\
        \n  arbiter rate season.yaml --rules figf --player Ana\
        \n  arbiter rate games.yaml --json\
        \n\
        \nCSV: a header with `game`, `player` and `place` (or `score`), optionally `period`; one row per player per game.")]
pub struct Args {
    /// History file: YAML/JSON (`ratings:`, `games:`) or CSV
    #[arg(value_name = "HISTORY")]
    file: String,
    /// Ruleset (built-in name or path); default: the file's own `rules:`, else elo
    #[arg(long)]
    rules: Option<String>,
    /// Also print every game's rating changes
    #[arg(long)]
    history: bool,
    /// Only this player's games (implies --history)
    #[arg(long)]
    player: Option<String>,
    #[arg(long)]
    json: bool,
}

pub fn run(args: Args) -> Result<()> {
    let file = arbiter::files::history(&args.file)?;
    // A relative `rules:` path in the history means the file beside it when there is one.
    let named = file
        .rules
        .as_deref()
        .map(|r| load::beside_file(r, Some(&args.file)));
    let reference = args
        .rules
        .clone()
        .or(named)
        .unwrap_or_else(|| arbiter::rules::builtin::DEFAULT_RATING.to_string());
    let rules = load::load(&reference).map_err(|e| {
        if !e.is_located() && args.rules.is_none() && file.rules.is_some() {
            file.source
                .locate(Error::new("/rules", e.unplaced_message()))
        } else {
            e
        }
    })?;
    let detailed = args.history || args.player.is_some();
    let report = file.rate(
        &rules,
        RateOptions {
            record_games: detailed,
        },
    )?;
    if let Some(p) = &args.player {
        if !report
            .players
            .iter()
            .any(|r| arbiter::names::same(&r.name, p))
        {
            let known: Vec<&str> = report.players.iter().map(|r| r.name.as_str()).collect();
            return Err(Error::unknown("player", p, &known));
        }
    }
    if args.json {
        super::print(&arbiter::output::json_string(&report))?;
    } else {
        let mut text = report.table();
        if detailed {
            text.push('\n');
            text.push_str(&report.history_table(args.player.as_deref()));
        }
        super::print(&text)?;
    }
    Ok(())
}
