//! `arbiter swiss ...`: a thin layer over crate::swiss. Tournament files are read and
//! changed through crate::files (every change under the file's lock, atomically, so a refused
//! command leaves the file as it was); the tables, CSV and page come from the engine.
use crate::calendar::{Date, Every};
use crate::engine_files;
use crate::error::{Error, Result};
use crate::io::{read_text, with_file_lock, write_file, Replace};
use crate::output::json_string;
use crate::rules::identity::Identity;
use crate::rules::{builtin, model::Ruleset, resolve};
use crate::swiss::dutch;
use crate::swiss::report::RoundPairing;
use crate::swiss::standings::standings;
use crate::swiss::tournament::{ByeKind, Tournament};
use crate::swiss::{calendar, trf, trf_out};
use clap::Subcommand;

#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  arbiter swiss pair round5.trf --json\n  arbiter swiss new open.yaml --players players.csv --rounds 7\n  arbiter swiss pair open.yaml\n  arbiter swiss record open.yaml 1 1 5 1-0\n  arbiter swiss table open.yaml --html table.html\n  arbiter swiss export open.yaml --trf -o open.trf"
)]
pub(super) struct Args {
    #[command(subcommand)]
    command: SwissCommand,
}

#[derive(Subcommand)]
enum SwissCommand {
    /// Pair the next round (FIDE Dutch system) of a TRF or a tournament file (which stores it)
    #[command(after_help = "Examples:\
            \n  arbiter swiss pair open.yaml\
            \n  arbiter swiss pair round5.trf --json\
            \n  arbiter swiss pair round5.trf --trf round6.trf")]
    Pair {
        /// A TRF (TRF-2026, TRF(x), TRF(bx)) or a tournament file from `swiss new`
        file: String,
        /// JSON: {"round", "pairs": [{"white", "black"}], "bye"}
        #[arg(long)]
        json: bool,
        /// Also write the TRF with the new round added
        #[arg(long, value_name = "OUT")]
        trf: Option<String>,
    },
    /// Start a tournament file from a player list (CSV name,rating or one name a line)
    #[command(after_help = "Examples:\
            \n  arbiter swiss new open.yaml --players players.csv --rounds 7\
            \n  arbiter swiss new cup.yaml --players names.txt --rounds 5 --name \"Spring Cup\"\
            \n  arbiter swiss new bb.yaml --players coaches.csv --rounds 6 \\\
            \n      --rules bloodbowl-swiss\
            \n  arbiter swiss new club.yaml --players coaches.csv --rounds 5 \\\
            \n      --rules club.rules --embed-rules\
            \n  arbiter swiss new open.yaml --players entries.csv --rounds 9 --accelerate 5")]
    New {
        /// The tournament file to create (YAML)
        tournament: String,
        /// The players: a CSV with name and rating columns, or one name a line; numbered by
        /// starting rank (rating order)
        #[arg(long, value_name = "FILE")]
        players: String,
        /// How many rounds the tournament has
        #[arg(long)]
        rounds: usize,
        /// Ruleset for points and tie-breaks (default: swiss)
        #[arg(long, value_name = "NAME|PATH")]
        rules: Option<String>,
        /// The tournament's name
        #[arg(long)]
        name: Option<String>,
        /// Pair the first N rounds with the Baku acceleration (FIDE C.04.5.1: the top half of
        /// the field, rounded up to an even number, gets the ruleset's virtual points in its
        /// pairing score, never in the standings; FIDE accelerates half the rounds, rounded up)
        #[arg(long, value_name = "N")]
        accelerate: Option<usize>,
        /// Replace an existing file
        #[arg(long)]
        force: bool,
        /// Keep the whole ruleset (a bundle) in the tournament file, so the tournament is
        /// always counted under the rules it began with
        #[arg(long)]
        embed_rules: bool,
    },
    /// Record a result: 1-0 0-1 1/2-1/2, forfeits +- -+ --
    #[command(after_help = "Examples:\
            \n  arbiter swiss record open.yaml 1 1 5 1-0\
            \n  arbiter swiss record open.yaml 1 Ana Bo 1/2-1/2\
            \n  arbiter swiss record open.yaml 2 3 8 +-\
            \n  arbiter swiss record open.yaml 2 3 8 0-1 --correct\
            \n\
            \nA board's result is replaced only with --correct, and never once the next round is \
            paired (that pairing rests on it).")]
    Record {
        /// The tournament file (YAML, from `swiss new`), changed in place under a lock
        tournament: String,
        /// The round the game was played in (1 is the first)
        round: usize,
        /// White: number or name
        white: String,
        /// Black: number or name
        black: String,
        /// 1-0, 0-1, 1/2-1/2, +- (white wins by forfeit), -+, -- (both forfeit: write `-- --`)
        #[arg(allow_hyphen_values = true)]
        result: String,
        /// Replace a result already recorded (only while the next round is not paired)
        #[arg(long)]
        correct: bool,
    },
    /// Ask for a bye ahead (half a point, or --zero)
    #[command(after_help = "Examples:\
            \n  arbiter swiss bye open.yaml 7 4\
            \n  arbiter swiss bye open.yaml Ana 5 --zero")]
    Bye {
        /// The tournament file (YAML, from `swiss new`), changed in place under a lock
        tournament: String,
        /// The player: starting number or name
        player: String,
        /// The round the player will miss (not paired yet)
        round: usize,
        /// A zero-point bye instead of the half point
        #[arg(long)]
        zero: bool,
    },
    /// Withdraw a player from a round on
    #[command(after_help = "Examples:\
            \n  arbiter swiss withdraw open.yaml 12 --from 5")]
    Withdraw {
        /// The tournament file (YAML, from `swiss new`), changed in place under a lock
        tournament: String,
        /// The player: starting number or name
        player: String,
        /// The first round the player no longer plays (results before it stay)
        #[arg(long, value_name = "ROUND")]
        from: usize,
    },
    /// Enter a player late (absent, zero points, before the next round)
    #[command(after_help = "Examples:\
            \n  arbiter swiss add open.yaml \"Ana Pérez\" --rating 1850")]
    Add {
        /// The tournament file (YAML, from `swiss new`), changed in place under a lock
        tournament: String,
        /// The new player's name
        name: String,
        /// The player's rating, 0 to 9999 (default 0: unrated)
        #[arg(long)]
        rating: Option<u32>,
    },
    /// Standings with the ruleset's tie-breaks (a TRF: the built-in swiss ruleset's)
    #[command(after_help = "Examples:\
            \n  arbiter swiss table open.yaml\
            \n  arbiter swiss table open.yaml --csv > standings.csv\
            \n  arbiter swiss table open.yaml --html standings.html\
            \n  arbiter swiss table final.trf", after_long_help = tiebreak_help())]
    Table {
        /// The tournament file (YAML), or a TRF (recognised by its content)
        tournament: String,
        /// JSON: {"standings": [{"rank", "player", "name", "points", "tiebreaks": {...}}]}
        #[arg(long, conflicts_with_all = ["csv", "html"])]
        json: bool,
        /// CSV: rank, player, name, points and one column per tie-break
        #[arg(long, conflicts_with = "html")]
        csv: bool,
        /// Write a static HTML page of the standings to FILE
        #[arg(long, value_name = "FILE")]
        html: Option<String>,
    },
    /// Turn a TRF into a tournament file (games, forfeits, byes and absences kept)
    Import(ImportArgs),
    /// Write the tournament as TRF-2026, or its rounds as an iCalendar file
    #[command(after_help = "Examples:\
            \n  arbiter swiss export open.yaml --trf -o open.trf\
            \n  arbiter swiss export open.yaml --ics open.ics --start 2026-10-03 --every 7d\
            \n  arbiter swiss export open.yaml --ics ann.ics --start 2026-10-03 --player Ann")]
    #[command(group(clap::ArgGroup::new("format").required(true).args(["trf", "ics"])))]
    Export {
        /// The tournament file (YAML)
        tournament: String,
        /// Write the tournament as TRF-2026 (the FIDE exchange format), to -o or standard output
        #[arg(long)]
        trf: bool,
        /// Output file (default: standard output)
        #[arg(short = 'o', long = "output", value_name = "OUT", requires = "trf")]
        output: Option<String>,
        /// Write the rounds as an iCalendar file to FILE: one all-day event per round, listing
        /// its boards once paired (export again after each pairing: the events update)
        #[arg(long, value_name = "FILE", requires = "start")]
        ics: Option<String>,
        /// The day of round 1 (YYYY-MM-DD)
        #[arg(long, value_name = "DATE", requires = "ics")]
        start: Option<String>,
        /// Time between rounds: days or weeks (7d, 2w)
        #[arg(long, value_name = "STEP", default_value = "7d", requires = "ics")]
        every: String,
        /// Only this player's games (number or name): their own feed
        #[arg(long, value_name = "PLAYER", requires = "ics")]
        player: Option<String>,
    },
}

/// `swiss import`: a TRF as a tournament file.
#[derive(clap::Args, Debug)]
#[command(after_help = "Examples:\
        \n  arbiter swiss import open.trf -o open.yaml\
        \n  arbiter swiss import league.trf -o league.yaml --rules bloodbowl-swiss\
        \n  arbiter swiss export open.yaml --trf -o again.trf")]
pub(super) struct ImportArgs {
    /// The TRF (TRF-16, TRF(x), TRF(bx), TRF-2026), whatever its name
    trf: String,
    /// The tournament file to write (YAML, as `swiss new` writes)
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    output: String,
    /// The ruleset for its tie-breaks (default: swiss); its points must be the file's
    #[arg(long)]
    rules: Option<String>,
    /// Replace OUT if it exists
    #[arg(long)]
    force: bool,
}

fn import(a: ImportArgs) -> Result<()> {
    let text = read_text(&a.trf)?;
    let mut field = trf::parse(&a.trf, &text, false)?;
    if trf::round_to_be_played(&text) {
        // Written between pairing a round and its results: that round has nothing to record
        // yet, and `swiss pair` pairs it again from the rounds before.
        crate::style::warn(&format!(
            "{}: its last round is paired but not played yet; imported without it",
            a.trf
        ));
    } else if field.played_rounds < field.total_rounds {
        // In progress: the byes already asked for the next round come along.
        field = trf::parse(&a.trf, &text, true)?;
    }
    let choice = resolve::Choice {
        typed: a.rules.as_deref(),
        named: None,
        default: builtin::DEFAULT_SWISS,
    };
    let (swiss, ruleset) = engine_files::swiss_rules(choice, "swiss import")?;
    // Recorded so that it is found from the tournament file wherever the command runs.
    let rules = resolve::recorded_reference(&choice.reference().0, &a.output);
    let theirs = crate::swiss::tournament::points_of(&swiss);
    if theirs != field.points {
        return Err(Error::msg(format!(
            "{}: its points ({}) are not ruleset `{}`'s ({}); give --rules with a ruleset \
             that scores as the file does",
            a.trf,
            show_points(&field.points),
            choice.reference().0,
            show_points(&theirs)
        )));
    }
    let name = trf::tournament_name(&text);
    let mut t =
        crate::swiss::import::tournament(&name, &rules, &field).map_err(|e| e.context(&a.trf))?;
    t.ruleset = Some(Identity::of(&ruleset));
    engine_files::create_tournament(&a.output, &t, a.force)?;
    super::print(&format!(
        "{} players, {} of {} rounds paired\n",
        t.players.len(),
        t.paired.len(),
        t.rounds
    ))
}

fn show_points(p: &crate::swiss::model::Points) -> String {
    let t = trf::show_tenths;
    format!(
        "win {}, draw {}, loss {}, forfeit win {}, forfeit loss {}, pairing bye {}, half bye {}, \
         zero bye {}",
        t(p.win),
        t(p.draw),
        t(p.loss),
        t(p.forfeit_win),
        t(p.forfeit_loss),
        t(p.pairing_bye),
        t(p.half_bye),
        t(p.zero_bye)
    )
}

pub(super) fn run(args: Args) -> Result<()> {
    match args.command {
        SwissCommand::Pair { file, json, trf } => pair(&file, json, trf.as_deref()),
        SwissCommand::Import(a) => import(a),
        SwissCommand::New {
            tournament,
            players,
            rounds,
            rules,
            name,
            accelerate,
            force,
            embed_rules,
        } => new(
            &tournament,
            &players,
            rounds,
            NewOptions {
                rules,
                name,
                accelerate,
                force,
                embed_rules,
            },
        ),
        SwissCommand::Record {
            tournament,
            round,
            white,
            black,
            result,
            correct,
        } => change(&tournament, |t| {
            // As `table` does: a result recorded under other rules than the ones it began with.
            if let Ok((_, now)) = engine_files::tournament_rules(t, &tournament) {
                warn_drift(t, &tournament, &now);
            }
            let (w, b) = (t.player(&white)?, t.player(&black)?);
            let replaced = t.record(round, w, b, &result, correct)?;
            let was = replaced.map(|r| format!(" (was {r})")).unwrap_or_default();
            Ok(format!(
                "round {round}: {} - {} {result}{was}",
                t.players[w - 1].name,
                t.players[b - 1].name
            ))
        }),
        SwissCommand::Bye {
            tournament,
            player,
            round,
            zero,
        } => change(&tournament, |t| {
            let p = t.player(&player)?;
            let kind = if zero { ByeKind::Zero } else { ByeKind::Half };
            t.request_bye(p, round, kind)?;
            Ok(format!(
                "{}: {} bye in round {round}",
                t.players[p - 1].name,
                if zero { "zero-point" } else { "half-point" }
            ))
        }),
        SwissCommand::Withdraw {
            tournament,
            player,
            from,
        } => change(&tournament, |t| {
            let p = t.player(&player)?;
            t.withdraw(p, from)?;
            Ok(format!(
                "{} withdrawn from round {from}",
                t.players[p - 1].name
            ))
        }),
        SwissCommand::Add {
            tournament,
            name,
            rating,
        } => change(&tournament, |t| {
            let n = t.add(&name, rating.unwrap_or(0))?;
            let mut note = format!("{name} entered as player {n}");
            if n < t.players.len() {
                note.push_str(&format!(
                    " (by rating: the players below now have numbers {} to {})",
                    n + 1,
                    t.players.len()
                ));
            }
            Ok(note)
        }),
        SwissCommand::Table {
            tournament,
            json,
            csv,
            html,
        } => table(&tournament, json, csv, html.as_deref()),
        SwissCommand::Export {
            tournament,
            ics: Some(path),
            start,
            every,
            player,
            ..
        } => {
            let t = engine_files::tournament(&tournament)?;
            let name = if t.name.trim().is_empty() {
                std::path::Path::new(&tournament)
                    .file_stem()
                    .map_or(tournament.clone(), |f| f.to_string_lossy().into_owned())
            } else {
                t.name.clone()
            };
            let o = calendar::CalendarOptions {
                name: &name,
                start: Date::parse(start.as_deref().unwrap_or_default())
                    .map_err(|e| e.context("--start"))?,
                every: Every::parse(&every).map_err(|e| e.context("--every"))?,
                player: player.as_deref().map(|p| t.player(p)).transpose()?,
            };
            write_file(
                &path,
                &calendar::calendar(&t, &o)?.render(),
                Replace::Output,
            )
        }
        SwissCommand::Export {
            tournament, output, ..
        } => {
            let t = engine_files::tournament(&tournament)?;
            let (rules, _) = engine_files::tournament_rules(&t, &tournament)?;
            let text = trf_out::write(&t.field(&rules, false)?, &t.name, None)?;
            match output {
                Some(o) => write_file(&o, &text, Replace::Output),
                None => super::print(&text),
            }
        }
    }
}

/// `swiss table --help`: the tie-breaks a ruleset may list, each with its C.07 article.
fn tiebreak_help() -> String {
    let mut h = String::from(
        "Examples:\n  arbiter swiss table open.yaml\n  arbiter swiss table open.yaml --csv > \
         standings.csv\n  arbiter swiss table open.yaml --html standings.html\n  arbiter swiss \
         table final.trf\n\nTie-breaks a ruleset's swiss.tiebreakers may list (FIDE C.07, 2023):\n",
    );
    // Each name on its line, its meaning below, wrapped to stay within 80 columns.
    for (name, meaning) in crate::rules::swiss::TIEBREAKS {
        h += &format!("  {name}\n");
        let mut line = String::from("     ");
        for word in meaning.split_whitespace() {
            if line.len() + 1 + word.len() > 78 {
                h += &format!("{line}\n");
                line = String::from("     ");
            }
            line += " ";
            line += word;
        }
        h += &format!("{line}\n");
    }
    h
}

/// Warn when the tournament's ruleset is no longer the one it began under (never with rules
/// embedded in it: those are checked to be the ones it began under).
fn warn_drift(t: &Tournament, path: &str, now: &Ruleset) {
    if let Some(warning) = t
        .ruleset
        .as_ref()
        .and_then(|r| crate::rules::identity::drift(path, r, now))
    {
        crate::style::warn(&format!(
            "{warning} (`swiss new --embed-rules` keeps a tournament's rules with it)"
        ));
    }
}

/// Change a tournament file under its lock (`engine_files::change_tournament`) and print what
/// `work` says it did; its refusals are said of the file.
fn change(path: &str, work: impl FnOnce(&mut Tournament) -> Result<String>) -> Result<()> {
    let said = engine_files::change_tournament(path, |t| work(t).map_err(|e| e.context(path)))?;
    super::print(&format!("{said}\n"))
}

fn pair(file: &str, json: bool, trf_path: Option<&str>) -> Result<()> {
    let text = read_text(file)?;
    if trf::is_trf(file, &text) {
        let field = trf::parse(file, &text, true)?;
        let started = std::time::Instant::now();
        let pairing = dutch::pair(&field).map_err(|e| Error::msg(format!("{file}: {e}")))?;
        super::explain_time("paired the TRF's next round (FIDE Dutch)", started);
        if let Some(out) = trf_path {
            write_file(
                out,
                &trf_out::write(&field, "", Some(&pairing))?,
                Replace::Output,
            )?;
        }
        // A TRF is paired by the FIDE Dutch system alone: no ruleset takes part.
        return show_pairing(&RoundPairing::new(&field, &pairing), json, None);
    }
    let (round, id) = with_file_lock(file, || {
        let mut t = engine_files::tournament(file)?;
        let (rules, now) = engine_files::tournament_rules(&t, file)?;
        let started = std::time::Instant::now();
        let (field, pairing) = t.pair_next(&rules).map_err(|e| e.context(file))?;
        super::explain_time(
            &format!(
                "paired round {} of {} players (FIDE Dutch)",
                t.paired.len(),
                t.players.len()
            ),
            started,
        );
        if let Some(out) = trf_path {
            write_file(
                out,
                &trf_out::write(&field, &t.name, Some(&pairing))?,
                Replace::Output,
            )?;
        }
        write_file(file, &t.to_yaml(), Replace::ItsOwnInput)?;
        Ok((RoundPairing::new(&field, &pairing), Identity::of(&now)))
    })?;
    show_pairing(&round, json, Some(&id))
}

fn show_pairing(round: &RoundPairing, json: bool, ruleset: Option<&Identity>) -> Result<()> {
    super::print(&match (json, ruleset) {
        (true, Some(id)) => super::json_with_ruleset(round, id),
        (true, None) => json_string(round),
        (false, _) => round.render(super::layout()),
    })
}

/// `swiss new`'s options.
struct NewOptions {
    rules: Option<String>,
    name: Option<String>,
    accelerate: Option<usize>,
    force: bool,
    embed_rules: bool,
}

fn new(path: &str, players: &str, rounds: usize, options: NewOptions) -> Result<()> {
    let NewOptions {
        rules,
        name,
        accelerate,
        force,
        embed_rules,
    } = options;
    let choice = resolve::Choice {
        typed: rules.as_deref(),
        named: None,
        default: builtin::DEFAULT_SWISS,
    };
    let (swiss, ruleset) = engine_files::swiss_rules(choice, "swiss new")?;
    // Recorded so that it is found from the tournament file wherever the command runs.
    let rules = resolve::recorded_reference(&choice.reference().0, path);
    let list = engine_files::swiss_players(players)?;
    if let Some(warning) = &list.warning {
        crate::style::warn(warning);
    }
    let name = name.unwrap_or_default();
    crate::names::check_printable("tournament", &name).map_err(|e| e.context("--name"))?;
    let mut t = Tournament::new(&name, &rules, rounds, list.players).map_err(|e| {
        // Too many rounds is the option's fault; a bad list, the file's.
        match e.kind() {
            crate::error::ErrorKind::OutOfRange { what, .. } if what == "rounds" => {
                e.reworded(|m| format!("--rounds {rounds}: {m}"))
            }
            _ => e.context(players),
        }
    })?;
    t.check_scores_fit(&crate::swiss::tournament::points_of(&swiss))
        .map_err(|e| e.context("--rounds"))?;
    if let Some(a) = accelerate {
        t.accelerated_rounds = Some(a);
        t.check().map_err(|e| e.context("--accelerate"))?;
        // The ruleset must say what the virtual points are before the file is written.
        t.field(&swiss, true)
            .map_err(|e| e.context("--accelerate"))?;
    }
    t.ruleset = Some(Identity::of(&ruleset));
    if embed_rules {
        t.embedded_rules = Some(crate::rules::edit::show(
            &ruleset,
            crate::rules::edit::Syntax::Rules,
        ));
    }
    engine_files::create_tournament(path, &t, force)?;
    super::print(&format!("{} players, {rounds} rounds\n", t.players.len()))
}

fn table(path: &str, json: bool, csv: bool, html: Option<&str>) -> Result<()> {
    let text = read_text(path)?;
    let (title, field, rules, now) = if trf::is_trf(path, &text) {
        // A TRF carries its points (162, BBW/BBD, XXS) but no tie-breaks: the built-in Swiss
        // ruleset's list, as an arbiter would start from.
        let field = trf::parse(path, &text, false)?;
        let choice = resolve::Choice {
            typed: None,
            named: None,
            default: builtin::DEFAULT_SWISS,
        };
        let (rules, now) = engine_files::swiss_rules(choice, path)?;
        (trf::tournament_name(&text), field, rules, now)
    } else {
        let t = Tournament::parse(path, &text)?;
        let (rules, now) = engine_files::tournament_rules(&t, path)?;
        let field = t.field(&rules, false)?;
        warn_drift(&t, path, &now);
        (t.name.clone(), field, rules, now)
    };
    let started = std::time::Instant::now();
    let s = standings(&field, &rules);
    super::explain_time(
        &format!("standings with {} tie-breaks", rules.tiebreakers.len()),
        started,
    );
    if let Some(out) = html {
        return write_file(
            out,
            &crate::swiss::html::page(&title, &s, &Identity::of(&now)),
            Replace::Output,
        );
    }
    super::print(&if json {
        super::json_with_ruleset(&s, &Identity::of(&now))
    } else if csv {
        s.to_csv()
    } else {
        s.render(super::layout())
    })
}
