//! `arbiter swiss ...`: a thin layer over arbiter::swiss. Files are read and written here,
//! through arbiter::io; every change to a tournament file happens under its lock and
//! atomically, so a refused command leaves the file as it was.
use arbiter::calendar::{Date, Every};
use arbiter::io::{read_text, with_file_lock, write_file, Replace};
use arbiter::output::{json_string, Align, Table};
use arbiter::rules::pin::Identity;
use arbiter::rules::swiss::SwissRules;
use arbiter::rules::{builtin, resolve, Ruleset};
use arbiter::swiss::dutch::{self, Pairing};
use arbiter::swiss::model::Field;
use arbiter::swiss::standings::standings;
use arbiter::swiss::tournament::{ByeKind, Tournament, MAX_RATING};
use arbiter::swiss::{calendar, trf, trf_out};
use arbiter::{Error, Result};
use clap::Subcommand;

#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  arbiter swiss pair round5.trf --json\n  arbiter swiss new open.yaml --players players.csv --rounds 7\n  arbiter swiss pair open.yaml\n  arbiter swiss record open.yaml 1 1 5 1-0\n  arbiter swiss table open.yaml --html table.html\n  arbiter swiss export open.yaml --trf -o open.trf"
)]
pub struct Args {
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
            \n      --rules bloodbowl-swiss")]
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
        /// Replace an existing file
        #[arg(long)]
        force: bool,
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
pub struct ImportArgs {
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
    if field.played_rounds < field.total_rounds {
        // In progress: the byes already asked for the next round come along.
        field = trf::parse(&a.trf, &text, true)?;
    }
    let choice = resolve::Choice {
        typed: a.rules.as_deref(),
        named: None,
        default: builtin::DEFAULT_SWISS,
    };
    let (swiss, ruleset) = swiss_rules(choice, "swiss import")?;
    // Recorded so that it is found from the tournament file wherever the command runs.
    let rules = resolve::recorded_reference(&choice.reference().0, &a.output);
    let theirs = arbiter::swiss::tournament::points_of(&swiss);
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
        arbiter::swiss::import::tournament(&name, &rules, &field).map_err(|e| e.context(&a.trf))?;
    t.ruleset = Some(Identity::of(&ruleset));
    let replace = if a.force {
        Replace::Output
    } else {
        Replace::Nothing
    };
    write_file(&a.output, &t.to_yaml(), replace)?;
    super::print(&format!(
        "{} players, {} of {} rounds paired\n",
        t.players.len(),
        t.paired.len(),
        t.rounds
    ))
}

fn show_points(p: &arbiter::swiss::model::Points) -> String {
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

pub fn run(args: Args) -> Result<()> {
    match args.command {
        SwissCommand::Pair { file, json, trf } => pair(&file, json, trf.as_deref()),
        SwissCommand::Import(a) => import(a),
        SwissCommand::New {
            tournament,
            players,
            rounds,
            rules,
            name,
            force,
        } => new(&tournament, &players, rounds, rules, name, force),
        SwissCommand::Record {
            tournament,
            round,
            white,
            black,
            result,
            correct,
        } => change(&tournament, |t| {
            // As `table` does: a result recorded under other rules than the ones it began with.
            if let Ok((_, now)) = tournament_rules(t, &tournament) {
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
            let t = load_tournament(&tournament)?;
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
            let t = load_tournament(&tournament)?;
            let (rules, _) = tournament_rules(&t, &tournament)?;
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
    for (name, meaning) in arbiter::rules::swiss::TIEBREAKS {
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

/// A ruleset's Swiss section, chosen as every input's ruleset is (`rules::resolve`).
fn swiss_rules(choice: resolve::Choice, record: &str) -> Result<(SwissRules, Ruleset)> {
    let chosen = super::chosen(choice.load(resolve::needs_swiss, |e| e.context(record))?);
    let swiss = chosen.ruleset.swiss.clone();
    Ok((swiss.expect("checked by needs_swiss"), chosen.ruleset))
}

/// The tournament's own ruleset: a relative `rules:` is found beside the tournament file.
fn tournament_rules(t: &Tournament, path: &str) -> Result<(SwissRules, Ruleset)> {
    let choice = resolve::Choice {
        typed: None,
        named: Some((&t.rules, Some(path))),
        default: builtin::DEFAULT_SWISS,
    };
    swiss_rules(choice, &format!("{path}: its ruleset `{}`", t.rules))
}

/// Warn when the tournament's ruleset is no longer the one it began under.
fn warn_drift(t: &Tournament, path: &str, now: &Ruleset) {
    if let Some(warning) = t
        .ruleset
        .as_ref()
        .and_then(|r| arbiter::rules::pin::drift(path, r, now))
    {
        arbiter::style::warn(&warning);
    }
}

fn parse_tournament(path: &str, text: &str) -> Result<Tournament> {
    let doc = arbiter::rules::yaml::parse(path, text)?;
    let t: Tournament = doc.deserialize()?;
    t.check().map_err(|e| e.context(path))?;
    Ok(t)
}

fn load_tournament(path: &str) -> Result<Tournament> {
    parse_tournament(path, &read_text(path)?)
}

fn is_trf(path: &str, text: &str) -> bool {
    path.to_ascii_lowercase().ends_with(".trf") || trf::looks_like_trf(text)
}

/// Read, change and write a tournament file under its lock; nothing is written when the
/// change is refused.
fn change(path: &str, work: impl FnOnce(&mut Tournament) -> Result<String>) -> Result<()> {
    let said = with_file_lock(path, || {
        let mut t = load_tournament(path)?;
        let said = work(&mut t).map_err(|e| e.context(path))?;
        write_file(path, &t.to_yaml(), Replace::ItsOwnInput)?;
        Ok(said)
    })?;
    super::print(&format!("{said}\n"))
}

fn pair(file: &str, json: bool, trf_path: Option<&str>) -> Result<()> {
    let text = read_text(file)?;
    if is_trf(file, &text) {
        let field = trf::parse(file, &text, true)?;
        let pairing = dutch::pair(&field).map_err(|e| Error::msg(format!("{file}: {e}")))?;
        if let Some(out) = trf_path {
            write_file(
                out,
                &trf_out::write(&field, "", Some(&pairing))?,
                Replace::Output,
            )?;
        }
        // A TRF is paired by the FIDE Dutch system alone: no ruleset takes part.
        return show_pairing(&field, &pairing, json, None);
    }
    let (field, pairing, id) = with_file_lock(file, || {
        let mut t = load_tournament(file)?;
        let (rules, now) = tournament_rules(&t, file)?;
        let id = Identity::of(&now);
        let field = t.field(&rules, true).map_err(|e| e.context(file))?;
        let pairing = dutch::pair(&field).map_err(|e| Error::msg(format!("{file}: {e}")))?;
        t.paired.push(arbiter::swiss::tournament::PairedRound {
            boards: pairing
                .pairs
                .iter()
                .map(|&(w, b)| arbiter::swiss::tournament::Board {
                    white: w + 1,
                    black: b + 1,
                    result: None,
                })
                .collect(),
            bye: pairing.bye.map(|b| b + 1),
        });
        if let Some(out) = trf_path {
            write_file(
                out,
                &trf_out::write(&field, &t.name, Some(&pairing))?,
                Replace::Output,
            )?;
        }
        write_file(file, &t.to_yaml(), Replace::ItsOwnInput)?;
        Ok((field, pairing, id))
    })?;
    show_pairing(&field, &pairing, json, Some(&id))
}

#[derive(serde::Serialize)]
struct PairJson {
    round: usize,
    pairs: Vec<PairEntry>,
    bye: Option<usize>,
}

#[derive(serde::Serialize)]
struct PairEntry {
    white: usize,
    black: usize,
}

fn show_pairing(
    field: &Field,
    pairing: &Pairing,
    json: bool,
    ruleset: Option<&Identity>,
) -> Result<()> {
    let round = field.played_rounds + 1;
    if json {
        let doc = PairJson {
            round,
            pairs: pairing
                .pairs
                .iter()
                .map(|&(w, b)| PairEntry {
                    white: w + 1,
                    black: b + 1,
                })
                .collect(),
            bye: pairing.bye.map(|b| b + 1),
        };
        return super::print(&match ruleset {
            Some(id) => super::json_with_ruleset(&doc, id),
            None => json_string(&doc),
        });
    }
    let score = |p: usize| trf::show_tenths(field.score_after(p, field.played_rounds));
    let mut t = Table::new(&[
        ("board", Align::Right),
        ("white", Align::Left),
        ("pts", Align::Right),
        ("black", Align::Left),
        ("pts", Align::Right),
    ]);
    t.key(&["white", "black"]);
    for (board, &(w, b)) in pairing.pairs.iter().enumerate() {
        t.row([
            (board + 1).to_string(),
            format!("{} {}", w + 1, field.entrants[w].name),
            score(w),
            format!("{} {}", b + 1, field.entrants[b].name),
            score(b),
        ]);
    }
    let mut out = format!("Round {round}\n{}", t.render(super::layout()));
    if let Some(b) = pairing.bye {
        out += &format!("bye: {} {}\n", b + 1, field.entrants[b].name);
    }
    super::print(&out)
}

fn new(
    path: &str,
    players: &str,
    rounds: usize,
    rules: Option<String>,
    name: Option<String>,
    force: bool,
) -> Result<()> {
    let choice = resolve::Choice {
        typed: rules.as_deref(),
        named: None,
        default: builtin::DEFAULT_SWISS,
    };
    let (swiss, ruleset) = swiss_rules(choice, "swiss new")?;
    // Recorded so that it is found from the tournament file wherever the command runs.
    let rules = resolve::recorded_reference(&choice.reference().0, path);
    let list = read_players(players)?;
    let name = name.unwrap_or_default();
    arbiter::names::check_printable("tournament", &name).map_err(|e| e.context("--name"))?;
    let mut t = Tournament::new(&name, &rules, rounds, list).map_err(|e| {
        // Too many rounds is the option's fault; a bad list, the file's.
        match e.kind() {
            arbiter::error::ErrorKind::OutOfRange { what, .. } if what == "rounds" => {
                e.reworded(|m| format!("--rounds {rounds}: {m}"))
            }
            _ => e.context(players),
        }
    })?;
    t.check_scores_fit(&arbiter::swiss::tournament::points_of(&swiss))
        .map_err(|e| e.context("--rounds"))?;
    t.ruleset = Some(Identity::of(&ruleset));
    let replace = if force {
        Replace::Output
    } else {
        Replace::Nothing
    };
    write_file(path, &t.to_yaml(), replace)?;
    super::print(&format!("{} players, {rounds} rounds\n", t.players.len()))
}

/// A CSV with a `name` column (and optionally `rating`), or one name a line. A name given
/// twice (case and accents ignored) is refused at its line and column, naming the first.
fn read_players(path: &str) -> Result<Vec<(String, u32)>> {
    let text = read_text(path)?;
    let first = text.lines().next().unwrap_or("");
    let header: Vec<String> = first.split(',').map(|h| h.trim().to_lowercase()).collect();
    // Each player with the line and column its name is at.
    let mut out: Vec<(String, u32, usize, usize)> = Vec::new();
    if let Some(name_col) = header.iter().position(|h| h == "name") {
        let rating_col = header.iter().position(|h| h == "rating");
        let mut reader = csv::ReaderBuilder::new().from_reader(text.as_bytes());
        for (i, rec) in reader.records().enumerate() {
            let line = i + 2;
            let rec = rec.map_err(|e| Error::msg(format!("{path}:{line}: {e}")))?;
            let name = rec.get(name_col).unwrap_or("").trim().to_string();
            if name.is_empty() {
                return Err(Error::msg(format!("{path}:{line}: a player has no name")));
            }
            let rating = match rating_col.and_then(|c| rec.get(c)).map(str::trim) {
                None | Some("") => 0,
                Some(r) => r
                    .parse()
                    .ok()
                    .filter(|&r: &u32| r <= MAX_RATING)
                    .ok_or_else(|| {
                        Error::msg(format!(
                            "{path}:{line}: rating `{r}` is not a number from 0 to {MAX_RATING}"
                        ))
                    })?,
            };
            let line = rec.position().map_or(line, |p| p.line() as usize);
            let col = column_of_cell(text.lines().nth(line - 1).unwrap_or(""), name_col);
            out.push((name, rating, line, col));
        }
    } else {
        // A list of names, one a line. A line `Ann,2000` (a CSV without its `name,rating`
        // header) is read as a name and a rating, and said so: taken whole it would be a
        // player called "Ann,2000" rated 0.
        let mut headerless = None;
        for (i, l) in text.lines().enumerate() {
            let mut name = l.trim();
            if name.is_empty() || name.starts_with('#') {
                continue;
            }
            let col = l.chars().take_while(|c| c.is_whitespace()).count() + 1;
            let mut rating = 0;
            if let Some((n, r)) = name.rsplit_once(',') {
                if let Ok(r) = r.trim().parse::<u32>() {
                    if r > MAX_RATING {
                        return Err(Error::msg(format!(
                            "{path}:{}: rating `{r}` is not a number from 0 to {MAX_RATING}",
                            i + 1
                        )));
                    }
                    (name, rating) = (n.trim(), r);
                    headerless.get_or_insert(i + 1);
                    if name.is_empty() {
                        return Err(Error::msg(format!(
                            "{path}:{}: a player has no name",
                            i + 1
                        )));
                    }
                }
            }
            out.push((name.to_string(), rating, i + 1, col));
        }
        if let Some(line) = headerless {
            arbiter::style::warn(&format!(
                "{path}:{line}: no header line `name,rating`: lines like `Ann,2000` read as a \
                 name and a rating"
            ));
        }
    }
    let mut seen: std::collections::HashMap<String, (usize, usize)> = Default::default();
    for (i, (name, _, line, col)) in out.iter().enumerate() {
        if let Some(&(first, line_first)) = seen.get(&arbiter::names::normalize(name)) {
            let first = &out[first].0;
            let same = if first == name {
                String::new()
            } else {
                format!(", as `{first}`: case and accents are ignored")
            };
            let source = std::sync::Arc::new(arbiter::error::Source {
                name: path.to_string(),
                text: text.clone(),
            });
            return Err(arbiter::error::Span::new(&source, *line, *col).at(format!(
                "player `{name}` is listed twice (first on line {line_first}{same})"
            )));
        }
        seen.insert(arbiter::names::normalize(name), (i, *line));
    }
    Ok(out.into_iter().map(|(n, r, _, _)| (n, r)).collect())
}

/// The column (from 1) where cell `k` of a CSV line starts, past its spaces (quotes aside:
/// only for pointing at it).
fn column_of_cell(line: &str, k: usize) -> usize {
    let mut cells = line.split(',');
    let before: usize = cells.by_ref().take(k).map(|c| c.chars().count() + 1).sum();
    let spaces = cells
        .next()
        .map_or(0, |c| c.chars().take_while(|c| c.is_whitespace()).count());
    before + spaces + 1
}

fn table(path: &str, json: bool, csv: bool, html: Option<&str>) -> Result<()> {
    let text = read_text(path)?;
    let (title, field, rules, now) = if is_trf(path, &text) {
        // A TRF carries its points (162, BBW/BBD, XXS) but no tie-breaks: the built-in Swiss
        // ruleset's list, as an arbiter would start from.
        let field = trf::parse(path, &text, false)?;
        let choice = resolve::Choice {
            typed: None,
            named: None,
            default: builtin::DEFAULT_SWISS,
        };
        let (rules, now) = swiss_rules(choice, path)?;
        (trf::tournament_name(&text), field, rules, now)
    } else {
        let t = parse_tournament(path, &text)?;
        let (rules, now) = tournament_rules(&t, path)?;
        let field = t.field(&rules, false)?;
        warn_drift(&t, path, &now);
        (t.name.clone(), field, rules, now)
    };
    let s = standings(&field, &rules.tiebreakers);
    let id = Identity::of(&now);
    if json {
        return super::print(&super::json_with_ruleset(&s, &id));
    }
    if let Some(out) = html {
        return write_file(
            out,
            &arbiter::swiss::html::page(&title, &s, &rules.tiebreakers),
            Replace::Output,
        );
    }
    let mut header: Vec<String> = vec![
        "rank".into(),
        "player".into(),
        "name".into(),
        "points".into(),
    ];
    header.extend(rules.tiebreakers.iter().cloned());
    let rows: Vec<Vec<String>> = s
        .standings
        .iter()
        .map(|r| {
            let mut row = vec![
                r.rank.to_string(),
                r.player.to_string(),
                r.name.clone(),
                num(r.points),
            ];
            row.extend(r.tiebreaks.values().map(|v| num(*v)));
            row
        })
        .collect();
    if csv {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(&header)
            .map_err(|e| Error::msg(e.to_string()))?;
        for r in &rows {
            w.write_record(r).map_err(|e| Error::msg(e.to_string()))?;
        }
        let bytes = w.into_inner().map_err(|e| Error::msg(e.to_string()))?;
        return super::print(&String::from_utf8_lossy(&bytes));
    }
    let cols: Vec<(&str, Align)> = header
        .iter()
        .enumerate()
        .map(|(i, h)| (h.as_str(), if i == 2 { Align::Left } else { Align::Right }))
        .collect();
    let mut table = Table::new(&cols);
    table.key(&["name", "points"]);
    for r in rows {
        table.row(r);
    }
    super::print(&table.render(super::layout()))
}

fn num(v: f64) -> String {
    arbiter::output::trim_number(v, 2)
}
