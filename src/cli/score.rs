//! `arbiter score GAME | NAME=SCORE... [--rules R] [--vs R2] [--json]`.
use crate::error::{Error, Result};
use crate::rules::{doc::Doc, load};
use crate::scoring::{
    self,
    game::{ResultTable, ScoreInput},
};

#[derive(clap::Args)]
#[command(after_help = "Examples:\
        \n  arbiter score game.yaml                  # a CEP game record\
        \n  arbiter score game.yaml --vs house.yaml  # both rulesets side by side\
        \n  arbiter score --rules figf A=7500 B=7200 C=6600\
        \n  arbiter score --rules advciv Illyria=5042 Crete=3791 Iberia=1807 --json")]
pub(super) struct Args {
    /// A game record or result-table file, or NAME=SCORE pairs
    #[arg(required = true, value_name = "GAME | NAME=SCORE")]
    inputs: Vec<String>,
    /// Ruleset (built-in name or path); default: the file's own `rules:`
    #[arg(long)]
    rules: Option<String>,
    /// A second ruleset to score the same game with, side by side
    #[arg(long, value_name = "R2")]
    vs: Option<String>,
    /// Print JSON instead of a table: {"players": [{"name", "points"}, ...]} in the input's order
    #[arg(long)]
    json: bool,
}

pub(super) fn run(args: Args) -> Result<()> {
    let (input, doc, file) = read_input(&args.inputs)?;
    if args.rules.is_none() && input.rules().is_none() {
        return Err(Error::msg(match &file {
            Some(_) => "which ruleset? give --rules NAME|PATH or a `rules:` line in the file",
            None => "which ruleset? give --rules figf, --rules advciv or a ruleset file",
        }));
    }
    let chosen = super::chosen(
        crate::rules::resolve::Choice {
            typed: args.rules.as_deref(),
            named: input.rules().map(|r| (r, file.as_deref())),
            default: "",
        }
        .load(crate::rules::resolve::needs_scoring, |e| match &doc {
            // A bad `rules:` in the game file is reported at that line.
            Some(d) if d.value.get("rules").is_some() => e.placed_at(d, "/rules"),
            _ => e,
        })?,
    );
    let (rules, reference) = (chosen.ruleset, chosen.reference);
    match &args.vs {
        None => {
            let report = scoring::score_input(&rules, &input, doc.as_ref())?;
            super::print(&if args.json {
                super::json_with_ruleset(&report, &crate::rules::identity::Identity::of(&rules))
            } else {
                report.table(super::layout())
            })?;
        }
        Some(vs) => {
            let vs_rules = load::load(vs)?;
            let mut comparison = scoring::compare::compare(&rules, &vs_rules, &input)
                .map_err(|e| e.locate(doc.as_ref()))?;
            // A house rule usually keeps the name of what it extends: tell them apart by file.
            if comparison.rules == comparison.vs {
                comparison.rules = reference.clone();
                comparison.vs = vs.clone();
            }
            super::print(&if args.json {
                crate::output::json_string(&comparison)
            } else {
                comparison.table(super::layout())
            })?;
        }
    }
    Ok(())
}

/// One file, or NAME=SCORE pairs.
fn read_input(inputs: &[String]) -> Result<(ScoreInput, Option<Doc>, Option<String>)> {
    let is_pair = |s: &String| s.contains('=') && !std::path::Path::new(s).exists();
    if inputs.iter().all(is_pair) {
        let mut rows = Vec::new();
        for pair in inputs {
            let (name, score) = pair.rsplit_once('=').expect("has =");
            let name = name.trim();
            if name.is_empty() {
                return Err(Error::msg(format!(
                    "`{pair}`: the player's name is missing (NAME=SCORE)"
                )));
            }
            let score: f64 = score
                .trim()
                .parse()
                .ok()
                .filter(|s: &f64| s.is_finite())
                .ok_or_else(|| {
                    Error::msg(format!("`{pair}`: the score must be a number (NAME=SCORE)"))
                })?;
            rows.push((name.to_string(), score));
        }
        return Ok((
            ScoreInput::Table(ResultTable::from_pairs(&rows)),
            None,
            None,
        ));
    }
    match inputs {
        [file] => {
            let (doc, input) = crate::engine_files::score_input(file)?;
            Ok((input, Some(doc), Some(file.clone())))
        }
        _ => Err(Error::msg(
            "give one game file, or NAME=SCORE pairs (not both)",
        )),
    }
}
