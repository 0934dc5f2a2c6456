//! `arbiter site OUT [--club club.yaml]`: a club's static site, a thin layer over
//! `crate::site` (which reads the club file's inputs and lays out the pages); the charts
//! are drawn here, as `rate --plot` and `combat matrix --plot` draw them.
use crate::combat::lab::matrix::MatrixReport;
use crate::error::{Error, Result};
use crate::scoring::rating_report::RatingReport;
use crate::site::{
    self,
    club::{Club, MINIMAL},
};

/// The club file looked for when `--club` is not given.
const DEFAULT_CLUB: &str = "club.yaml";

#[derive(clap::Args)]
#[command(after_help = "Examples:\
        \n  arbiter site public                              # reads club.yaml here\
        \n  arbiter site public --club examples/club.yaml\
        \n\
        \nThe club file (YAML) names the club and its files, each path relative to it:\
        \n  club: Tuesday Night Games\
        \n  seasons: [season.yaml]          # `arbiter league new`\
        \n  tournaments: [open.yaml]        # `arbiter swiss new`\
        \n  ratings: [history.yaml]         # `arbiter rate`\
        \n  rulesets: [bloodbowl, house.rules]\
        \n  balance: { rules: startrek, ships: [A, B, C], battles: 200, seed: 1 }   # optional\
        \n\
        \nOUT gets index.html, style.css and a page per season, team, tournament round, rating\
        \nhistory, player and ruleset: no script, nothing from the network, the same bytes\
        \nfrom the same files. Open OUT/index.html.")]
pub(super) struct Args {
    /// Folder to write the pages into (made if missing; other files in it are left alone)
    #[arg(value_name = "OUT")]
    out: String,
    /// The club file (default: club.yaml in the current folder)
    #[arg(long, value_name = "FILE")]
    club: Option<String>,
}

pub(super) fn run(args: Args) -> Result<()> {
    let path = match args.club {
        Some(p) => p,
        None if std::path::Path::new(DEFAULT_CLUB).is_file() => DEFAULT_CLUB.to_string(),
        None => {
            return Err(Error::msg(format!(
                "no club file: give --club FILE, or write a {DEFAULT_CLUB} in this folder \
                 (paths in it are relative to it); a minimal one:\n\n{MINIMAL}"
            )))
        }
    };
    let doc = crate::rules::load::read_doc(&path)?;
    let club = Club::from_doc(&path, doc)?;
    let loaded = site::load::load(&club)?;
    for w in &loaded.warnings {
        crate::style::warn(w);
    }
    let built = site::build(&loaded, &Drawn)?;
    site::write(&args.out, &built)?;
    let index = std::path::Path::new(&args.out).join(site::INDEX);
    crate::style::note(&format!(
        "wrote {} files to {}",
        built.files.len(),
        args.out
    ));
    super::print(&format!(
        "{}: {}\nopen {}\n",
        loaded.club,
        contents(&loaded),
        index.display()
    ))
}

/// What the site holds, in a line: "1 season (6 teams), 1 tournament (3 rounds), ...".
fn contents(l: &site::load::Loaded) -> String {
    let count =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let teams: usize = l.seasons.iter().map(|s| s.season.teams.len()).sum();
    let rounds: usize = l
        .tournaments
        .iter()
        .map(|t| t.tournament.paired.len())
        .sum();
    let players: usize = l.ratings.iter().map(|r| r.report.players.len()).sum();
    let mut parts = vec![
        format!(
            "{} ({})",
            count(l.seasons.len(), "season", "seasons"),
            count(teams, "team", "teams")
        ),
        format!(
            "{} ({})",
            count(l.tournaments.len(), "Swiss tournament", "Swiss tournaments"),
            count(rounds, "round", "rounds")
        ),
        format!(
            "{} ({})",
            count(l.ratings.len(), "rating history", "rating histories"),
            count(players, "player", "players")
        ),
        count(l.rulesets.len(), "ruleset", "rulesets"),
    ];
    if l.balance.is_some() {
        parts.push("a balance matrix".to_string());
    }
    parts.join(", ")
}

/// The charts, drawn as the plotting commands draw them.
struct Drawn;

impl site::Charts for Drawn {
    fn rating(&self, report: &RatingReport, player: &str) -> Result<String> {
        super::rate_plot::svg(report, &[player.to_string()], true)
    }

    fn matrix(&self, report: &MatrixReport) -> Result<String> {
        super::lab_plot::matrix_svg(report)
    }
}
