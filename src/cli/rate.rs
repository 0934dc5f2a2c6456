//! `arbiter rate HISTORY [--rules R] [--history] [--player NAME] [--all] [--json]
//! [--backtest [--systems S,...]] [--fit [SYSTEM] [--holdout SHARE]]
//! [--plot FILE.svg [--players A,B] [--bands]]`.

use crate::error::{Error, Result};
use crate::rules::scoring::System;
use crate::scoring::backtest::BacktestOptions;
use crate::scoring::fit::FitOptions;
use crate::scoring::{self, ratings::RateOptions};

#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  arbiter rate games.yaml            # its `rules:` picks the system\n  arbiter rate games.csv --rules elo --history\n  arbiter rate season.yaml --rules figf --player Ana\n  arbiter rate games.yaml --all --json   # provisional players too\n  arbiter rate games.csv --backtest  # which system predicts this club best\n  arbiter rate games.csv --backtest --systems elo,glicko2\n  arbiter rate games.csv --fit       # tune the system's parameters to this club\n  arbiter rate games.csv --fit glicko2 --holdout 0.3\n  arbiter rate games.yaml --plot ratings.svg --players Ana,Bo\n\nCSV: a header with `game`, `player` and `place` (or `score`), optionally `period` and `date`\n(YYYY-MM-DD); one row per player per game."
)]
pub(super) struct Args {
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
    /// List provisional players on the leaderboard too
    #[arg(long)]
    all: bool,
    /// Forecast every game from the ratings before it and score each system
    #[arg(long)]
    backtest: bool,
    /// The systems to backtest (default: every rating system of the ruleset)
    #[arg(
        long,
        value_delimiter = ',',
        value_name = "S,...",
        requires = "backtest"
    )]
    systems: Vec<String>,
    /// Bootstrap resamples of the backtest or fit, for their 95% intervals
    #[arg(long, default_value_t = 1000)]
    resamples: usize,
    /// Seed of the bootstrap resamples: the same seed gives the same interval
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Tune the parameters of the ruleset's rating system (or of SYSTEM) to forecast this
    /// history best, and print them as an overlay for the club's ruleset
    #[arg(
        long,
        value_name = "SYSTEM",
        num_args = 0..=1,
        default_missing_value = "",
        conflicts_with = "backtest"
    )]
    fit: Option<String>,
    /// Share of the games, the last ones, the fit never sees and is compared on
    #[arg(long, value_name = "SHARE", default_value_t = 0.25, requires = "fit")]
    holdout: f64,
    /// Write each player's rating over the games as an SVG chart
    #[arg(long, value_name = "FILE.svg", conflicts_with = "backtest")]
    plot: Option<String>,
    /// The players to plot (default: the leaderboard's top ten); each gets its deviation band
    #[arg(long, value_delimiter = ',', value_name = "A,B,...", requires = "plot")]
    players: Vec<String>,
    /// Draw the deviation band of every plotted player (by default only for --players)
    #[arg(long, requires = "plot")]
    bands: bool,
    /// Rate the games in the order they were played (by date, then period) instead of
    /// refusing a date or period earlier than one above it
    #[arg(long)]
    sort: bool,
    /// Most rows a CSV history may have (one per player per game), a bound on the memory a
    /// history takes; a CSV history is read as it goes, never held whole (YAML and JSON
    /// histories are read whole, at most 16 MiB)
    #[arg(long, value_name = "N", default_value_t = crate::engine_files::MAX_HISTORY_ROWS)]
    max_rows: usize,
    /// Print JSON instead of a table: {"players": [{"name", "rating", "provisional", ...}]}
    /// (with --backtest: {"systems": [...]})
    #[arg(long)]
    json: bool,
}

/// The bootstrap interval's width.
const LEVEL: f64 = 0.95;
/// Most players drawn when none are named.
const PLOTTED: usize = 10;
/// Most resamples (each is a pass over every game).
const MAX_RESAMPLES: usize = 100_000;

pub(super) fn run(args: Args) -> Result<()> {
    if let Some(plot) = &args.plot {
        if crate::io::FileKind::of(plot) != Some(crate::io::FileKind::Svg) {
            return Err(Error::msg(format!(
                "--plot writes an SVG chart: name it FILE.svg (not `{plot}`)"
            )));
        }
    }
    // The backtest's own sizes, before a big history is read.
    if args.backtest || args.fit.is_some() {
        if args.resamples == 0 {
            return Err(Error::msg(format!(
                "--resamples 0 gives no interval and nothing to compare the systems on: give 1 to \
                 {MAX_RESAMPLES} (1000 by default)"
            )));
        }
        if args.resamples > MAX_RESAMPLES {
            return Err(Error::msg(format!(
                "--resamples is at most {MAX_RESAMPLES} (each is a pass over every game)"
            )));
        }
    }
    let choice = |named| crate::rules::resolve::Choice {
        typed: args.rules.as_deref(),
        named,
        default: crate::rules::builtin::DEFAULT_RATING,
    };
    // A typed `--rules` wins over the history's `rules:` line: it is checked before a big
    // history is read, so a misspelt name answers at once.
    let typed = match args.rules {
        Some(_) => Some(
            super::chosen(choice(None).load(crate::rules::resolve::needs_scoring, |e| e)?).ruleset,
        ),
        None => None,
    };
    let mut file = crate::engine_files::history_capped(&args.file, args.max_rows)?;
    if args.sort {
        file.sort_by_date();
    }
    let rules = match typed {
        Some(rules) => rules,
        None => {
            super::chosen(
                choice(file.rules.as_deref().map(|n| (n, Some(args.file.as_str())))).load(
                    crate::rules::resolve::needs_scoring,
                    |e| {
                        file.source
                            .locate(Error::new("/rules", e.unplaced_message()))
                    },
                )?,
            )
            .ruleset
        }
    };
    if args.backtest {
        return run_backtest(&args, &file, &rules);
    }
    if let Some(system) = &args.fit {
        return run_fit(&args, system, &file, &rules);
    }
    if args.json && (args.history || args.player.is_some()) && args.plot.is_none() {
        return stream_json(&args, &file, &rules);
    }
    let detailed = args.history || args.player.is_some() || args.plot.is_some();
    let report = file.rate(
        &rules,
        RateOptions {
            record_games: detailed,
            ..RateOptions::default()
        },
    )?;
    let known: Vec<&str> = report.players.iter().map(|r| r.name.as_str()).collect();
    let check = |p: &str| -> Result<()> {
        if known.iter().any(|r| crate::names::same(r, p)) {
            Ok(())
        } else {
            Err(Error::unknown("player", p, &known))
        }
    };
    if let Some(p) = &args.player {
        check(p)?;
    }
    for p in &args.players {
        check(p)?;
    }
    if let Some(path) = &args.plot {
        let chosen: Vec<String> = if args.players.is_empty() {
            let mut board: Vec<_> = report
                .players
                .iter()
                .filter(|p| args.all || !p.provisional)
                .collect();
            board.sort_by_key(|p| p.rank);
            board.iter().take(PLOTTED).map(|p| p.name.clone()).collect()
        } else {
            args.players.clone()
        };
        let bands = args.bands || !args.players.is_empty();
        let svg = super::rate_plot::svg(&report, &chosen, bands)?;
        crate::io::write_atomically(path, &svg)?;
    }
    if args.json {
        let id = crate::rules::identity::Identity::of(&rules);
        super::print(&super::json_with_ruleset(&report, &id))?;
    } else {
        let mut text = report.table(args.all, "--all", super::layout());
        if args.history || args.player.is_some() {
            text.push('\n');
            text.push_str(&report.history_table(args.player.as_deref(), super::layout()));
        }
        super::print(&text)?;
    }
    Ok(())
}

/// `--history --json`, written as the games are rated: a first pass finds any error before
/// a byte is printed and gives the standings; the second writes each game as it is final.
/// The document is the one `json_with_ruleset` would print, with `games` last.
fn stream_json(
    args: &Args,
    file: &scoring::HistoryFile,
    rules: &crate::rules::model::Ruleset,
) -> Result<()> {
    use std::io::Write;
    let report = file.rate(rules, RateOptions::default())?;
    if let Some(p) = &args.player {
        let known: Vec<&str> = report.players.iter().map(|r| r.name.as_str()).collect();
        if !known.iter().any(|r| crate::names::same(r, p)) {
            return Err(Error::unknown("player", p, &known));
        }
    }
    let id = crate::rules::identity::Identity::of(rules);
    let head = super::json_with_ruleset(&report, &id);
    let head = head
        .trim_end()
        .strip_suffix('}')
        .unwrap_or(&head)
        .trim_end();
    let mut out = std::io::BufWriter::with_capacity(1 << 16, std::io::stdout().lock());
    let mut failed: Option<std::io::Error> = None;
    let mut first = true;
    let mut write = |out: &mut std::io::BufWriter<_>, text: &str| {
        if failed.is_none() {
            if let Err(e) = out.write_all(text.as_bytes()) {
                failed = Some(e);
            }
        }
    };
    write(&mut out, head);
    write(&mut out, ",\n  \"games\": [");
    file.rate_into(rules, RateOptions::default(), &mut |game| {
        let text = serde_json::to_string_pretty(&game).expect("games serialise");
        let sep = if first { "\n    " } else { ",\n    " };
        first = false;
        write(&mut out, sep);
        write(&mut out, &text.replace('\n', "\n    "));
    })?;
    write(&mut out, "\n  ]\n}\n");
    let flushed = out.flush();
    match failed.map_or(flushed, Err) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => std::process::exit(0),
        Err(e) => Err(Error::msg(format!("cannot write to standard output: {e}"))),
    }
}

fn system_named(name: &str) -> Result<System> {
    System::named(name).ok_or_else(|| {
        let known: Vec<&str> = System::RATINGS.iter().map(|s| s.name()).collect();
        Error::msg(crate::names::unknown("system", name, &known))
    })
}

fn run_fit(
    args: &Args,
    system: &str,
    file: &scoring::HistoryFile,
    rules: &crate::rules::model::Ruleset,
) -> Result<()> {
    let system = match system.trim() {
        "" => None,
        name => Some(system_named(name)?),
    };
    let report = file.fit(
        rules,
        system,
        FitOptions {
            holdout: args.holdout,
            resamples: args.resamples,
            seed: args.seed,
            level: LEVEL,
        },
    )?;
    super::print(&if args.json {
        crate::output::json_string(&report)
    } else {
        report.table(super::layout())
    })
}

fn run_backtest(
    args: &Args,
    file: &scoring::HistoryFile,
    rules: &crate::rules::model::Ruleset,
) -> Result<()> {
    let mut systems = Vec::new();
    for name in &args.systems {
        let system = system_named(name)?;
        if !systems.contains(&system) {
            systems.push(system);
        }
    }
    let report = file.backtest(
        rules,
        &systems,
        BacktestOptions {
            resamples: args.resamples,
            seed: args.seed,
            level: LEVEL,
        },
    )?;
    super::print(&if args.json {
        crate::output::json_string(&report)
    } else {
        report.table(super::layout())
    })
}
