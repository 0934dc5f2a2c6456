//! Scoring and rating engines: CEP scenario points, FIGF percentile, Advanced Civilization pot,
//! Elo, multiplayer Elo, Weng-Lin and TrueSkill. Library code: no I/O, no printing; every
//! number comes from the ruleset.
//!
//! The entry points for callers (the CLI, scripts):
//! * [`score_game`] / [`score_table`] / [`score_input`] → [`ScoreReport`]
//! * [`rate`] / [`rate_with`] → [`RatingReport`]
//! * [`score_value`] / [`rate_value`]: the same from a script's map (a `serde_json::Value`)
//! * [`compare`] → [`Comparison`] (the same game under two rulesets)
//! * [`ScoreInput::from_doc`], [`parse_history`] + [`HistoryFile::rate`]: documents and texts
//!   to engine input, with located errors (`crate::files` reads the files)
pub mod backtest;
pub(crate) mod bootstrap;
pub(crate) mod cep;
pub(crate) mod compare;
pub(crate) mod dates;
pub(crate) mod elo;
pub(crate) mod fit;
pub mod fit_ranges;
pub mod game;
pub(crate) mod glicko2;
pub mod history;
pub(crate) mod history_csv;
pub(crate) mod history_yaml;
pub(crate) mod multiplayer;
pub(crate) mod normal;
pub(crate) mod percentile;
#[cfg(test)]
mod periods_properties;
pub(crate) mod pot;
pub(crate) mod prepared;
pub(crate) mod rating_report;
pub(crate) mod rating_steps;
pub mod ratings;
#[cfg(test)]
mod ratings_properties;
mod seen_games;
pub(crate) mod trueskill;
pub(crate) mod weng_lin;

use crate::error::{Error, Result};
use crate::rules::scoring::{ScoringRules, System};
use crate::rules::{doc::Doc, model::Ruleset};
use game::{GameRecord, Invalid, ResultTable, ScoreInput};
use history::History;
use rating_report::RatingReport;
use ratings::RateOptions;
use serde::Serialize;

/// The result of scoring one game, whichever system scored it.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(untagged)]
pub enum ScoreReport {
    Cep(cep::CepReport),
    Percentile(percentile::PercentileReport),
    Pot(pot::PotReport),
}

/// A player's headline numbers, whatever the system.
#[derive(Debug, Clone, PartialEq)]
pub struct Headline {
    pub name: String,
    pub points: i64,
    pub change: Option<i64>,
}

impl ScoreReport {
    /// The table for people, with every factor.
    pub(crate) fn table(&self, layout: crate::output::Layout) -> String {
        match self {
            ScoreReport::Cep(r) => r.table(layout),
            ScoreReport::Percentile(r) => r.table(layout),
            ScoreReport::Pot(r) => r.table(layout),
        }
    }

    /// Name, points (and ladder change) of each player, in input order.
    pub fn headlines(&self) -> Vec<Headline> {
        match self {
            ScoreReport::Cep(r) => r
                .players
                .iter()
                .map(|p| Headline {
                    name: p.name.clone(),
                    points: p.points,
                    change: None,
                })
                .collect(),
            ScoreReport::Percentile(r) => r
                .players
                .iter()
                .map(|p| Headline {
                    name: p.name.clone(),
                    points: p.points,
                    change: None,
                })
                .collect(),
            ScoreReport::Pot(r) => r
                .players
                .iter()
                .map(|p| Headline {
                    name: p.name.clone(),
                    points: p.points,
                    change: Some(p.change),
                })
                .collect(),
        }
    }
}

fn scoring_of(ruleset: &Ruleset) -> std::result::Result<&ScoringRules, Invalid> {
    ruleset.scoring.as_ref().ok_or_else(|| {
        Invalid::new(
            "",
            format!("ruleset `{}` has no `scoring` section", ruleset.name),
        )
    })
}

fn lacks(ruleset: &Ruleset, system: System) -> Invalid {
    Invalid::new(
        "",
        format!(
            "ruleset `{}` lacks the `{}` parameters",
            ruleset.name,
            system.name()
        ),
    )
}

/// Score any input; problems carry the place in the input they concern.
pub(crate) fn score_checked(
    ruleset: &Ruleset,
    input: &ScoreInput,
) -> std::result::Result<ScoreReport, Invalid> {
    let rules = scoring_of(ruleset)?;
    match (rules.system, input) {
        (System::Cep, ScoreInput::Game(g)) => Ok(ScoreReport::Cep(cep::score(
            ruleset,
            rules
                .cep
                .as_ref()
                .ok_or_else(|| lacks(ruleset, System::Cep))?,
            g,
        )?)),
        (System::Percentile, ScoreInput::Table(t)) => {
            Ok(ScoreReport::Percentile(percentile::score(
                &ruleset.name,
                rules
                    .percentile
                    .as_ref()
                    .ok_or_else(|| lacks(ruleset, System::Percentile))?,
                &t.players,
            )?))
        }
        (System::Pot, ScoreInput::Table(t)) => Ok(ScoreReport::Pot(pot::score(
            &ruleset.name,
            rules
                .pot
                .as_ref()
                .ok_or_else(|| lacks(ruleset, System::Pot))?,
            &t.players,
        )?)),
        (System::Cep, ScoreInput::Table(_)) => Err(Invalid::new(
            "",
            format!(
                "ruleset `{}` scores CEP game records (turns, sides, ships), not a table of scores",
                ruleset.name
            ),
        )),
        (System::Percentile | System::Pot, ScoreInput::Game(_)) => Err(Invalid::new(
            "",
            format!(
                "ruleset `{}` scores tables of final scores (NAME=SCORE), not a CEP game record",
                ruleset.name
            ),
        )),
        (system, _) => Err(Invalid::new(
            "",
            format!(
                "ruleset `{}` is a rating system ({}): use `arbiter rate` on a history of games",
                ruleset.name,
                system.name()
            ),
        )),
    }
}

/// Score a CEP game record.
pub fn score_game(ruleset: &Ruleset, game: &GameRecord) -> Result<ScoreReport> {
    score_checked(ruleset, &ScoreInput::Game(game.clone())).map_err(|e| e.locate(None))
}

/// Score a table of (name, final score) rows with a score-based system (percentile, pot).
pub fn score_table(ruleset: &Ruleset, rows: &[(String, f64)]) -> Result<ScoreReport> {
    score_checked(ruleset, &ScoreInput::Table(ResultTable::from_pairs(rows)))
        .map_err(|e| e.locate(None))
}

/// Score any input; with `doc` (the file it came from) errors name file, line and column.
pub fn score_input(
    ruleset: &Ruleset,
    input: &ScoreInput,
    doc: Option<&Doc>,
) -> Result<ScoreReport> {
    score_checked(ruleset, input).map_err(|e| e.locate(doc))
}

/// Where a history was read from, to give problems found while rating their place.
#[derive(Debug, Clone)]
pub(crate) enum HistorySource {
    /// A loaded document (the rules language, or YAML that failed the fast reader).
    Doc(Doc),
    /// A YAML/JSON file read without positions (its name and text); parsed again with them
    /// only if there is a problem.
    Yaml(String, String),
    Csv(history_csv::CsvIndex),
}

impl HistorySource {
    pub(crate) fn locate(&self, e: Invalid) -> Error {
        match self {
            HistorySource::Doc(doc) => e.locate(Some(doc)),
            HistorySource::Yaml(name, text) => {
                match crate::rules::load::parse_text(name, text, crate::io::Format::Yaml) {
                    Ok(doc) => e.locate(Some(&doc)),
                    // The fast reader took what the reader with positions refuses (keys only
                    // an accent apart): that refusal is located, and is the file's problem.
                    Err(refused) => refused,
                }
            }
            HistorySource::Csv(index) => index.locate(e),
        }
    }
}

/// A history file loaded and checked, ready to rate with any ruleset.
pub struct HistoryFile {
    /// The ruleset the file names for itself (`rules:`).
    pub rules: Option<String>,
    pub(crate) source: HistorySource,
    prepared: prepared::Prepared,
}

impl HistoryFile {
    /// Rate with `ruleset`; problems name their place in the file.
    pub fn rate(&self, ruleset: &Ruleset, options: RateOptions) -> Result<RatingReport> {
        ratings::rate_prepared(ruleset, &self.prepared, options).map_err(|e| self.source.locate(e))
    }

    /// Rate, handing each game's changes to `sink` as soon as they are final (in the order
    /// rated) instead of keeping them in the report.
    pub(crate) fn rate_into(
        &self,
        ruleset: &Ruleset,
        options: RateOptions,
        sink: ratings::GameSink,
    ) -> Result<RatingReport> {
        ratings::rate_prepared_into(ruleset, &self.prepared, options, sink)
            .map_err(|e| self.source.locate(e))
    }

    /// Forecast every game under each of `systems` (all the ruleset's when empty).
    pub fn backtest(
        &self,
        ruleset: &Ruleset,
        systems: &[System],
        options: backtest::BacktestOptions,
    ) -> Result<backtest::BacktestReport> {
        backtest::backtest(ruleset, &self.prepared, systems, options)
            .map_err(|e| self.source.locate(e))
    }

    /// Fit `system`'s parameters (the ruleset's own system when None) to the history.
    pub(crate) fn fit(
        &self,
        ruleset: &Ruleset,
        system: Option<System>,
        options: fit::FitOptions,
    ) -> Result<fit::FitReport> {
        fit::fit(ruleset, &self.prepared, system, options).map_err(|e| self.source.locate(e))
    }

    /// Rate the games in the order they were played (by date, then period), whatever the
    /// file's order.
    pub(crate) fn sort_by_date(&mut self) {
        self.prepared.sort_by_date();
    }
}

/// A CSV history read row by row from `input` (a file too big to hold), at most `max_rows`
/// player rows.
pub(crate) fn parse_csv_history(
    name: &str,
    input: impl std::io::Read,
    max_rows: usize,
) -> Result<HistoryFile> {
    let (index, prepared) = history_csv::parse_stream(name, input, max_rows)?;
    Ok(HistoryFile {
        rules: None,
        source: HistorySource::Csv(index),
        prepared,
    })
}

/// A history from its text; `name` (a file name) says which format it is in.
pub fn parse_history(name: &str, text: String) -> Result<HistoryFile> {
    let (source, history) = match crate::io::FileKind::of(name) {
        Some(crate::io::FileKind::Csv) => {
            let (index, prepared) = history_csv::parse(name, text)?;
            return Ok(HistoryFile {
                rules: None,
                source: HistorySource::Csv(index),
                prepared,
            });
        }
        Some(crate::io::FileKind::Rules) => doc_history(crate::rules::load::parse_text(
            name,
            &text,
            crate::io::Format::Rules,
        )?)?,
        // Fast path for big files: straight to the typed history, positions only on trouble.
        _ => match history_yaml::fast(&text)
            .map(Ok)
            .unwrap_or_else(|| serde_yaml::from_str::<History>(&text))
        {
            Ok(history) => (HistorySource::Yaml(name.to_string(), text), history),
            Err(_) => doc_history(crate::rules::load::parse_text(
                name,
                &text,
                crate::io::Format::Yaml,
            )?)?,
        },
    };
    let prepared = history::prepare(&history).map_err(|e| source.locate(e))?;
    Ok(HistoryFile {
        rules: history.rules,
        source,
        prepared,
    })
}

fn doc_history(doc: Doc) -> Result<(HistorySource, History)> {
    if !doc.value.is_object() {
        return Err(doc.error_at(
            "",
            "expected a history: `games:` (and optionally `rules:`, `ratings:`)",
        ));
    }
    let history: History = doc.deserialize()?;
    Ok((HistorySource::Doc(doc), history))
}

/// Decimals kept before rounding points, so binary noise (127.49999999999999 for an exact
/// 127.5) does not decide which way a half goes.
const NOISE_DIGITS: i32 = 9;

/// Round points to a whole number, halves away from zero, as exact arithmetic would.
pub(crate) fn round_points(x: f64) -> f64 {
    crate::rules::formula::round_to(crate::rules::formula::round_to(x, NOISE_DIGITS), 0)
}
