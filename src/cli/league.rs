//! `arbiter league schedule | new | record | table`: a thin layer over crate::league.
use crate::calendar::{Date, Every};
use crate::error::{Error, Result};
use crate::league::calendar::CalendarOptions;
use crate::league::season::{RecordRequest, Season};
use crate::league::teams::Teams;
use crate::league::{
    home_away::HomeAway,
    html,
    schedule::{schedule, Method, ScheduleOptions},
    search::SearchBudget,
    standings::standings,
};
use crate::rules::identity::Identity;
use crate::rules::{edit, load, model::Ruleset};
use clap::Subcommand;

#[derive(clap::Args)]
#[command(after_help = "Examples:\
        \n  arbiter league schedule 10\
        \n  arbiter league schedule teams.txt --legs 2 --shuffle\
        \n  arbiter league schedule 12 --method balanced --seed 7 --carryover\
        \n  arbiter league schedule 8 --method berger --legs 2 --json\
        \n  arbiter league new season.yaml --teams teams.txt --legs 2\
        \n  arbiter league record season.yaml Orcs Elves 2 1\
        \n  arbiter league table season.yaml --html table.html")]
pub(super) struct Args {
    #[command(subcommand)]
    command: LeagueCommand,
}

#[derive(clap::Args)]
struct PlanArgs {
    /// rotation (the source's tables), berger (FIDE tables) or balanced (low carry-over);
    /// default: the ruleset's
    #[arg(long)]
    method: Option<String>,
    /// Legs: each further leg swaps home and away (default: the ruleset's)
    #[arg(long)]
    legs: Option<u32>,
    /// Play the rounds in a seeded random order
    #[arg(long)]
    shuffle: bool,
    /// source (home and away as the method gives them: the source's tables for rotation) or
    /// balanced (every team's home and away games within one, breaks as few as the pairings
    /// allow); default: source for `schedule`, balanced for `new`
    #[arg(long, value_name = "source|balanced")]
    home_away: Option<String>,
    /// Seed for --shuffle and the balanced search (drawn and printed when absent)
    #[arg(long)]
    seed: Option<u64>,
    /// Moves the balanced search tries (default grows with the league)
    #[arg(long, value_name = "MOVES")]
    effort: Option<u64>,
    /// Stop the balanced search after this many seconds (the result then depends on the machine)
    #[arg(long, value_name = "SECONDS")]
    time_limit: Option<f64>,
    /// Ruleset for the defaults (and, for a season, points and tie-breakers)
    #[arg(long, value_name = "NAME|PATH")]
    rules: Option<String>,
}

/// An iCalendar feed of the schedule instead of the printed schedule.
#[derive(clap::Args)]
struct CalendarArgs {
    /// Write the schedule as an iCalendar file (one all-day event per match) to FILE
    #[arg(long, value_name = "FILE", requires = "start", conflicts_with_all = ["json", "csv"])]
    ics: Option<String>,
    /// The day of round 1 (YYYY-MM-DD)
    #[arg(long, value_name = "DATE", requires = "ics")]
    start: Option<String>,
    /// Time between rounds: days or weeks (7d, 2w)
    #[arg(long, value_name = "STEP", default_value = "7d", requires = "ics")]
    every: String,
    /// Only this team's matches (its own feed; the events are the full calendar's)
    #[arg(long, value_name = "TEAM", requires = "ics")]
    team: Option<String>,
    /// The league's name: the calendar's title, and part of every event's UID (default: the
    /// teams file's name)
    #[arg(long, requires = "ics")]
    name: Option<String>,
}

#[derive(Subcommand)]
enum LeagueCommand {
    /// Print a schedule, its carry-over and each team's breaks
    #[command(after_help = "Examples:\
            \n  arbiter league schedule 10\
            \n  arbiter league schedule teams.txt --legs 2 --shuffle --seed 7\
            \n  arbiter league schedule 12 --method balanced --seed 1 --carryover\
            \n  arbiter league schedule 8 --method berger --legs 2 --json\
            \n  arbiter league schedule teams.txt --ics league.ics --start 2026-09-07\
            \n  arbiter league schedule teams.txt --ics orcs.ics --start 2026-09-07 \\\
            \n      --every 2w --team Orcs")]
    Schedule {
        /// A number n (teams 1..n) or a file with one team name a line
        teams: String,
        #[command(flatten)]
        plan: PlanArgs,
        /// Also print the carry-over matrix
        #[arg(long)]
        carryover: bool,
        /// JSON: rounds, carry-over, breaks per team, seed
        #[arg(long, conflicts_with = "csv")]
        json: bool,
        /// CSV: round, leg, home, away, bye
        #[arg(long)]
        csv: bool,
        #[command(flatten)]
        calendar: CalendarArgs,
    },
    /// Start a season file (YAML) from a schedule
    #[command(after_help = "Examples:\
            \n  arbiter league new season.yaml --teams teams.txt\
            \n  arbiter league new season.yaml --teams 8 --legs 2 --shuffle --seed 3\
            \n  arbiter league new cup.yaml --teams 8 --rules bloodbowl --name \"Spring Cup\"")]
    New {
        /// The season file to create (YAML): its schedule, ruleset and results to come
        season: String,
        /// A number n (teams 1..n) or a file with one team name a line
        #[arg(long)]
        teams: String,
        #[command(flatten)]
        plan: PlanArgs,
        /// Replace an existing season file
        #[arg(long)]
        force: bool,
        /// The season's name, for its HTML page and calendars (default: the file's name)
        #[arg(long)]
        name: Option<String>,
        /// Keep the whole ruleset (a bundle) in the season file, so the season is always
        /// scored under the rules it began with
        #[arg(long)]
        embed_rules: bool,
    },
    /// Record one result in a season file (atomically, under a lock)
    #[command(after_help = "Examples:\
            \n  arbiter league record season.yaml \"Gouged Eye\" \"Chaos All-Stars\" 2 1\
            \n  arbiter league record season.yaml 3 5 1 1 --round 4\
            \n  arbiter league record season.yaml 3 5 2 1 --correct")]
    Record {
        /// The season file (YAML), changed in place
        season: String,
        /// The home team: its name, or its number as the schedule gives it
        home: String,
        /// The away team: its name or number
        away: String,
        /// The home team's score (a whole number: goals, touchdowns, points)
        #[arg(allow_hyphen_values = true)]
        home_score: String,
        /// The away team's score
        #[arg(allow_hyphen_values = true)]
        away_score: String,
        /// The round, when the same home and away teams meet more than once
        #[arg(long)]
        round: Option<u32>,
        /// Replace a result already recorded
        #[arg(long)]
        correct: bool,
    },
    /// A season's fixtures by round, home team first, with the results so far
    #[command(after_help = "Examples:\
            \n  arbiter league fixtures season.yaml\
            \n  arbiter league fixtures season.yaml --team Orcs\
            \n  arbiter league fixtures season.yaml --round 3 --json")]
    Fixtures {
        /// The season file (YAML)
        season: String,
        /// Only this team's matches (and its rests)
        #[arg(long)]
        team: Option<String>,
        /// Only this round
        #[arg(long)]
        round: Option<u32>,
        /// JSON: {"team"?, "rounds": [{"round", "leg", "matches": [{"home", "away",
        /// "home_score", "away_score"}], "bye"?}]}
        #[arg(long)]
        json: bool,
    },
    /// The standings of a season
    #[command(after_help = "Examples:\
            \n  arbiter league table season.yaml\
            \n  arbiter league table season.yaml --json\
            \n  arbiter league table season.yaml --html standings.html\
            \n  arbiter league table season.yaml --rules house.rules   # other points")]
    Table {
        /// The season file (YAML)
        season: String,
        /// JSON: {"standings": [{"team", "played", "won", "drawn", "lost", "for", "against",
        /// "points", ...}]}
        #[arg(long, conflicts_with = "csv")]
        json: bool,
        /// CSV with the same columns
        #[arg(long)]
        csv: bool,
        /// Points and tie-breakers from this ruleset instead of the season's (to try a house rule)
        #[arg(long, value_name = "NAME|PATH")]
        rules: Option<String>,
        /// Write a static HTML page of the season (table, results, fixtures) to FILE
        #[arg(long, value_name = "FILE")]
        html: Option<String>,
        /// With --rules: make the table under a ruleset other than the one the season recorded
        #[arg(long, requires = "rules")]
        rescore: bool,
    },
}

pub(super) fn run(args: Args) -> Result<()> {
    match args.command {
        LeagueCommand::Schedule {
            teams,
            plan,
            carryover,
            json,
            csv,
            calendar,
        } => {
            let source = teams;
            let teams = crate::engine_files::teams(&source)?;
            let (ruleset, mut options) = plan.options(HomeAway::Source)?;
            options.matrix = carryover;
            let s = schedule(&options, &teams)?;
            if let Some(path) = &calendar.ics {
                let name = calendar.name.clone().unwrap_or_else(|| match &teams {
                    Teams::Count(n) => format!("League of {n}"),
                    Teams::Names(_) => std::path::Path::new(&source)
                        .file_stem()
                        .map_or(source.clone(), |f| f.to_string_lossy().into_owned()),
                });
                let o = CalendarOptions {
                    name: &name,
                    start: Date::parse(calendar.start.as_deref().unwrap_or_default())
                        .map_err(|e| e.context("--start"))?,
                    every: Every::parse(&calendar.every).map_err(|e| e.context("--every"))?,
                    team: calendar.team.as_deref(),
                };
                let cal = crate::league::calendar::calendar(&s, &teams, &o)?;
                return crate::io::write_atomically(path, &cal.render());
            }
            super::print(&if json {
                s.to_json(Some(&Identity::of(&load::load(&ruleset)?)))
            } else if csv {
                s.to_csv()
            } else {
                let mut text = s.render(|seed| format!("--seed {seed}"), super::layout());
                text.push_str(&balance_hint(&s, &options, &teams));
                text
            })?;
            Ok(())
        }
        LeagueCommand::New {
            season,
            teams,
            plan,
            force,
            name,
            embed_rules,
        } => {
            let teams = crate::engine_files::teams(&teams)?;
            let (rules_name, options) = plan.options(HomeAway::Balanced)?;
            let s = schedule(&options, &teams)?;
            // Recorded so that it is found from the season file wherever the command runs.
            let recorded = crate::rules::resolve::recorded_reference(&rules_name, &season);
            let mut new = Season::from_schedule(&recorded, &s);
            new.name = name;
            let ruleset = load::load(&rules_name)?;
            new.ruleset = Some(Identity::of(&ruleset));
            if embed_rules {
                new.embedded_rules = Some(edit::show(&ruleset, edit::Syntax::Rules));
            }
            crate::engine_files::create_season(&season, &new, force)?;
            let games: usize = s.rounds.iter().map(|r| r.matches.len()).sum();
            let mut note = format!(
                "{season}: {} teams, {} rounds, {games} matches\nmethod {}",
                teams.len(),
                s.rounds.len(),
                s.method.name()
            );
            if let Some(seed) = s.seed {
                note.push_str(&format!(", seed {seed}"));
            }
            note.push_str(&format!(
                "; home/away {}; ruleset {rules_name}\n",
                s.home_away.name()
            ));
            note.push_str(&s.venue_summary(super::layout()));
            super::print(&note)?;
            Ok(())
        }
        LeagueCommand::Record {
            season,
            home,
            away,
            home_score,
            away_score,
            round,
            correct,
        } => {
            let request = RecordRequest {
                home,
                away,
                home_score: score(&home_score)?,
                away_score: score(&away_score)?,
                round,
                correct,
            };
            // As `table` does: warn when the season's ruleset is not the one it began under.
            if let Ok(s) = crate::engine_files::season(&season) {
                let _ = season_rules(&season, &s);
            }
            let done = crate::engine_files::record_result(&season, &request)?;
            let r = &done.result;
            let mut line = format!(
                "round {}: {} {}–{} {}",
                r.round, r.home, r.home_score, r.away_score, r.away
            );
            if let Some(old) = done.replaced {
                line.push_str(&format!(" (was {}–{})", old.home_score, old.away_score));
            }
            line.push('\n');
            super::print(&line)?;
            Ok(())
        }
        LeagueCommand::Fixtures {
            season,
            team,
            round,
            json,
        } => {
            let s = crate::engine_files::season(&season)?;
            let f = s.fixtures(team.as_deref(), round)?;
            super::print(&if json {
                // Under the ruleset the season recorded (older seasons recorded none).
                match &s.ruleset {
                    Some(id) => super::json_with_ruleset(&f, id),
                    None => crate::output::json_string(&f),
                }
            } else {
                f.render()
            })
        }
        LeagueCommand::Table {
            season,
            json,
            csv,
            rules,
            html: page,
            rescore,
        } => {
            let s = crate::engine_files::season(&season)?;
            let rules = match rules {
                Some(r) => other_rules(&season, &s, &r, rescore)?,
                None => season_rules(&season, &s)?,
            };
            let table = standings(&rules, &s)?;
            let id = Identity::of(&rules);
            if let Some(path) = page {
                let title = page_title(&season, &s, &rules);
                crate::io::write_atomically(&path, &html::page(&title, &s, &table, &id))?;
                return Ok(());
            }
            super::print(&if json {
                super::json_with_ruleset(&table, &id)
            } else if csv {
                table.to_csv()
            } else {
                table.render(super::layout())
            })?;
            Ok(())
        }
    }
}

impl PlanArgs {
    /// The ruleset's name and the schedule options: the ruleset's defaults, then the flags.
    fn options(&self, home_away: HomeAway) -> Result<(String, ScheduleOptions)> {
        let name = self
            .rules
            .clone()
            .unwrap_or_else(|| crate::rules::builtin::DEFAULT_LEAGUE.to_string());
        let rules = load::load(&name)?;
        crate::style::explain(&format!(
            "ruleset `{}`: {}",
            rules.name,
            match self.rules {
                Some(_) => "chosen on the command line",
                None => "the command's default",
            }
        ));
        let mut o = ScheduleOptions::from_rules(rules.league.as_ref())?;
        if let Some(m) = &self.method {
            o.method = Method::parse(m)?;
        }
        if let Some(l) = self.legs {
            o.legs = l;
        }
        o.shuffle |= self.shuffle;
        o.home_away = match &self.home_away {
            Some(h) => HomeAway::parse(h).map_err(|e| e.context("--home-away"))?,
            None => home_away,
        };
        o.seed = self.seed;
        if self.seed.is_some() && !o.shuffle && o.method != Method::Balanced {
            return Err(Error::msg(format!(
                "--seed changes nothing here: the {} method with the rounds in order has \
                 nothing random (add --shuffle, or use --method balanced)",
                o.method.name()
            )));
        }
        o.search = SearchBudget {
            moves: self.effort,
            seconds: self.time_limit,
        };
        if let Some(t) = self.time_limit {
            if !(t.is_finite() && t > 0.0) {
                return Err(Error::msg(
                    "--time-limit takes a positive number of seconds",
                ));
            }
        }
        Ok((name, o))
    }
}

/// Home and away as the method gives them (the source's tables, say) can be lopsided; when
/// re-choosing them for these same pairings does better, say so.
fn balance_hint(
    s: &crate::league::schedule::Schedule,
    options: &ScheduleOptions,
    teams: &Teams,
) -> String {
    if s.home_away == HomeAway::Balanced {
        return String::new();
    }
    let mut fair = options.clone();
    fair.home_away = HomeAway::Balanced;
    fair.matrix = false;
    let Ok(b) = schedule(&fair, teams) else {
        return String::new();
    };
    let (sb, bb) = (s.total_breaks(), b.total_breaks());
    let (ss, bs) = (s.venue_spread(), b.venue_spread());
    if bb >= sb && bs >= ss {
        return String::new();
    }
    format!(
        "\nhint: --home-away balanced keeps these pairings and evens out home and away:\n  \
         every team's home and away games differ by at most {bs} instead of up to {ss},\n  \
         and {bb} breaks in all instead of {sb} (see `arbiter help league`)\n"
    )
}

/// The season page's title: the season's name (or its file's), its ruleset and its points.
fn page_title(path: &str, season: &Season, rules: &Ruleset) -> String {
    let name = season.name.clone().unwrap_or_else(|| {
        std::path::Path::new(path)
            .file_stem()
            .map_or(path.to_string(), |f| f.to_string_lossy().into_owned())
    });
    let points = rules
        .league
        .as_ref()
        .and_then(|l| l.points.as_ref())
        .map(|p| format!(", {}/{}/{} points", p.win, p.draw, p.loss))
        .unwrap_or_default();
    format!("{name} — {}{points}", rules.name)
}

fn score(text: &str) -> Result<u32> {
    text.trim().parse::<u32>().map_err(|_| {
        Error::msg(format!(
            "a score is a whole number of 0 or more, not `{text}`"
        ))
    })
}

/// `--rules OTHER` on a season: refused, saying what differs, when the season recorded another
/// ruleset, unless `--rescore` asks for the table under it anyway (nothing is written).
fn other_rules(season_path: &str, season: &Season, typed: &str, rescore: bool) -> Result<Ruleset> {
    let other = crate::rules::resolve::Choice {
        typed: Some(typed),
        named: None,
        default: typed,
    }
    .load(crate::rules::resolve::needs_nothing, |e| e)?
    .ruleset;
    let Some(recorded) = &season.ruleset else {
        return Ok(other); // an older season recorded none: nothing to compare with
    };
    let now = Identity::of(&other);
    if rescore || now.sha256 == recorded.sha256 {
        return Ok(other);
    }
    // What differs, when the season's own rules can still be had as they were.
    let own = match &season.embedded_rules {
        Some(text) => crate::rules::identity::embedded(season_path, text, Some(recorded)).ok(),
        None => load::load_beside(&season.rules, Some(season_path))
            .ok()
            .filter(|r| Identity::of(r).sha256 == recorded.sha256),
    };
    let differs = match own {
        Some(own) => {
            // What can change a result: the names and notes of the rulesets are left out.
            let found: Vec<_> = crate::rules::changes::between(&own, &other)
                .into_iter()
                .filter(|c| {
                    !matches!(
                        c.path.as_str(),
                        "/name" | "/version" | "/description" | "/source"
                    )
                })
                .collect();
            crate::rules::changes::summary(&found, 5)
        }
        None => format!(
            "`arbiter rules diff {} {typed}` shows what differs",
            season.rules
        ),
    };
    Err(Error::msg(format!(
        "{season_path}: the season was recorded under {}, and --rules {typed} is {}: {differs}; \
         add --rescore to make the table under {typed} anyway (the season file is not changed)",
        recorded.shown(),
        now.shown()
    )))
}

/// The season's ruleset; a relative path means the file beside the season file when there is
/// one (as for every file that names its ruleset).
/// Rules embedded in the season are the season's rules; otherwise a warning says when the
/// rules it names are no longer the ones it began under.
fn season_rules(season_path: &str, season: &Season) -> Result<Ruleset> {
    let (rules, warning) = crate::engine_files::season_rules(season_path, season)?;
    if let Some(w) = warning {
        crate::style::warn(&w);
    }
    Ok(rules)
}
