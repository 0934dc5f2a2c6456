//! Which rating system predicts a club best: every game is forecast from the ratings before
//! it, under each system, and scored by log-loss, Brier score and accuracy, with a block
//! bootstrap over the games for how sure the comparison is.
use super::bootstrap::{block_means, interval};
use super::game::Invalid;
use super::prepared::Prepared;
use super::rating_report::Prediction;
use super::ratings::{rate_prepared_as, scoring_rules, RateOptions};
use crate::output::{percent, trim_number, Align, Table};
use crate::rules::scoring::System;
use serde::Serialize;

/// How the bootstrap runs (the caller's choice, not the ruleset's).
#[derive(Debug, Clone, Copy)]
pub struct BacktestOptions {
    /// Resamples of the games.
    pub resamples: usize,
    pub seed: u64,
    /// Width of the interval (0.95: from the 2.5th to the 97.5th percentile).
    pub level: f64,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct BacktestReport {
    pub ruleset: String,
    pub games: usize,
    pub resamples: usize,
    pub level: f64,
    pub systems: Vec<SystemScore>,
    /// The system with the lowest log-loss (the first of them, when several tie).
    pub best: String,
    /// Systems whose log-loss equals the best's: a tie, not a win.
    pub tied: Vec<String>,
    /// Share of the resamples in which `best` also has the lowest log-loss (a resample it
    /// shares with k others counts 1/(k+1)).
    pub best_share: f64,
    /// Systems left out: the history's starting ratings are not on their scale.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) skipped: Vec<Skipped>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct Skipped {
    pub system: &'static str,
    pub reason: String,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SystemScore {
    pub system: &'static str,
    /// Mean over games of the mean over pairs of −(y ln p + (1 − y) ln(1 − p)).
    pub log_loss: f64,
    pub brier: f64,
    /// Share of decided pairs whose favourite finished above (an even forecast counts
    /// half); none when no pair was decided (every game a draw).
    pub accuracy: Option<f64>,
    pub games: usize,
    /// The bootstrap interval of the log-loss.
    pub log_loss_low: f64,
    pub log_loss_high: f64,
    /// Log-loss minus the best system's, and its paired bootstrap interval (the same
    /// resamples for every system): an interval above 0 means clearly worse than the best.
    pub difference: f64,
    pub difference_low: f64,
    pub difference_high: f64,
}

/// Forecast every game of `prepared` under each of `systems` (all the ruleset's rating
/// systems when empty).
pub(crate) fn backtest(
    ruleset: &crate::rules::model::Ruleset,
    prepared: &Prepared,
    systems: &[System],
    options: BacktestOptions,
) -> Result<BacktestReport, Invalid> {
    let rules = scoring_rules(ruleset)?;
    let chosen = !systems.is_empty();
    let systems: Vec<System> = if chosen {
        systems.to_vec()
    } else {
        rules.present()
    };
    for s in &systems {
        if !System::RATINGS.contains(s) {
            return Err(Invalid::new(
                "",
                format!(
                    "`{}` makes no forecast to test: the backtest compares elo, glicko2, weng_lin and trueskill",
                    s.name()
                ),
            ));
        }
        if !rules.present().contains(s) {
            return Err(Invalid::new(
                "",
                format!(
                    "ruleset `{}` has no `{}` section to backtest",
                    ruleset.name,
                    s.name()
                ),
            ));
        }
    }
    if systems.is_empty() {
        return Err(Invalid::new(
            "",
            format!(
                "ruleset `{}` has no rating system to backtest",
                ruleset.name
            ),
        ));
    }
    if prepared.games.is_empty() {
        return Err(Invalid::new("/games", "there are no games to forecast"));
    }
    let options_rate = RateOptions {
        record_games: false,
        predict: true,
    };
    let mut forecasts: Vec<(System, Vec<Prediction>)> = Vec::new();
    let mut skipped = Vec::new();
    for &s in &systems {
        match rate_prepared_as(ruleset, s, prepared, options_rate) {
            Ok(report) => forecasts.push((s, report.predictions)),
            // Starting ratings belong to one scale: a system they do not fit sits out,
            // unless it was asked for by name.
            Err(e) if !chosen && e.pointer().is_some_and(|p| p.starts_with("/ratings")) => skipped
                .push(Skipped {
                    system: s.name(),
                    reason: e.message(),
                }),
            Err(e) => return Err(e),
        }
    }
    if forecasts.is_empty() {
        return Err(Invalid::new(
            "/ratings",
            "the starting ratings fit none of the ruleset's rating systems",
        ));
    }
    let games = prepared.games.len();
    let resamples = options.resamples;
    // The same resamples for every system, so their log-losses compare pair by pair.
    let losses: Vec<Vec<f64>> = forecasts
        .iter()
        .map(|(_, f)| f.iter().map(|p| p.log_loss).collect())
        .collect();
    let series: Vec<&[f64]> = losses.iter().map(|l| l.as_slice()).collect();
    let per_resample = block_means(&series, resamples, options.seed);
    let means: Vec<Vec<f64>> = (0..forecasts.len())
        .map(|k| per_resample.iter().map(|m| m[k]).collect())
        .collect();
    let overall: Vec<f64> = forecasts
        .iter()
        .map(|(_, f)| f.iter().map(|p| p.log_loss).sum::<f64>() / games as f64)
        .collect();
    let best = (0..forecasts.len())
        .min_by(|a, b| overall[*a].total_cmp(&overall[*b]))
        .expect("one system at least");
    let ties = |a: f64, b: f64| (a - b).abs() <= 1e-12 * a.abs().max(b.abs());
    let mut scores: Vec<SystemScore> = forecasts
        .iter()
        .zip(&means)
        .enumerate()
        .map(|(k, ((s, f), m))| {
            let decided: u64 = f.iter().map(|p| p.decided as u64).sum();
            let correct: f64 = f.iter().map(|p| p.correct).sum();
            let mut sorted = m.clone();
            sorted.sort_by(f64::total_cmp);
            let log_loss = overall[k];
            let (low, high) = interval(&sorted, options.level).unwrap_or((log_loss, log_loss));
            // Paired: this system's resample mean less the best's on the same resample.
            let mut differences: Vec<f64> =
                m.iter().zip(&means[best]).map(|(a, b)| a - b).collect();
            differences.sort_by(f64::total_cmp);
            let difference = log_loss - overall[best];
            let (d_low, d_high) =
                interval(&differences, options.level).unwrap_or((difference, difference));
            SystemScore {
                system: s.name(),
                log_loss,
                brier: f.iter().map(|p| p.brier).sum::<f64>() / games as f64,
                accuracy: (decided > 0).then(|| correct / decided as f64),
                games,
                log_loss_low: low,
                log_loss_high: high,
                difference,
                difference_low: d_low,
                difference_high: d_high,
            }
        })
        .collect();
    let wins: f64 = (0..resamples)
        .map(|r| {
            let lowest = (0..scores.len())
                .map(|k| means[k][r])
                .fold(f64::INFINITY, f64::min);
            if means[best][r] > lowest {
                return 0.0;
            }
            let sharing = (0..scores.len()).filter(|&k| means[k][r] == lowest).count();
            1.0 / sharing as f64
        })
        .sum();
    let best_name = scores[best].system.to_string();
    let tied: Vec<String> = (0..scores.len())
        .filter(|&k| k != best && ties(overall[k], overall[best]))
        .map(|k| scores[k].system.to_string())
        .collect();
    scores.sort_by(|a, b| a.log_loss.total_cmp(&b.log_loss));
    Ok(BacktestReport {
        ruleset: ruleset.name.clone(),
        games,
        resamples,
        level: options.level,
        systems: scores,
        best: best_name,
        tied,
        skipped,
        best_share: if resamples == 0 {
            1.0
        } else {
            wins / resamples as f64
        },
    })
}

impl BacktestReport {
    pub(crate) fn table(&self, layout: crate::output::Layout) -> String {
        let mut t = Table::new(&[
            ("system", Align::Left),
            ("log-loss", Align::Right),
            ("interval", Align::Right),
            ("vs best", Align::Right),
            ("paired interval", Align::Right),
            ("Brier", Align::Right),
            ("accuracy", Align::Right),
        ]);
        t.key(&["log-loss"]);
        for s in &self.systems {
            let best = s.system == self.best;
            t.row([
                s.system.to_string(),
                format!("{:.4}", s.log_loss),
                format!("{:.4}–{:.4}", s.log_loss_low, s.log_loss_high),
                if best {
                    "best".to_string()
                } else {
                    format!("{:+.4}", s.difference)
                },
                if best {
                    String::new()
                } else {
                    format!("{:+.4} to {:+.4}", s.difference_low, s.difference_high)
                },
                format!("{:.4}", s.brier),
                s.accuracy.map_or("n/a".to_string(), percent),
            ]);
        }
        let mut verdict = String::new();
        if self.systems.len() >= 2 {
            let level = trim_number(self.level * 100.0, 1);
            if self.tied.is_empty() {
                verdict.push_str(&format!(
                    "\n{} predicts these {} games best (lowest log-loss); it is also lowest in {} of {} bootstrap resamples.\n",
                    self.best,
                    self.games,
                    percent(self.best_share),
                    self.resamples,
                ));
            } else {
                verdict.push_str(&format!(
                    "\n{} and {} tie: the same log-loss on these {} games.\n",
                    self.best,
                    self.tied.join(" and "),
                    self.games
                ));
            }
            let (worse, unclear): (Vec<&SystemScore>, Vec<&SystemScore>) = self
                .systems
                .iter()
                .filter(|s| s.system != self.best && !self.tied.iter().any(|t| t == s.system))
                .partition(|s| s.difference_low > 0.0);
            if !worse.is_empty() {
                let names: Vec<&str> = worse.iter().map(|s| s.system).collect();
                verdict.push_str(&format!(
                    "Clearly worse than {} (the paired {level}% interval of the difference lies above 0): {}.\n",
                    self.best,
                    names.join(", ")
                ));
            }
            if !unclear.is_empty() {
                let names: Vec<&str> = unclear.iter().map(|s| s.system).collect();
                verdict.push_str(&format!(
                    "Not told apart from {} by these games (the paired interval includes 0): {}.\n",
                    self.best,
                    names.join(", ")
                ));
            }
        }
        for s in &self.skipped {
            verdict.push_str(&format!(
                "{} left out: the history's starting ratings are not on its scale ({})\n",
                s.system, s.reason
            ));
        }
        format!(
            "Backtest ({}): each game forecast from the ratings before it; lower log-loss and Brier are better; intervals: {}% bootstrap, `vs best` paired (the same resamples for every system)\n\n{}{}",
            self.ruleset,
            trim_number(self.level * 100.0, 1),
            t.render(layout),
            verdict
        )
    }
}
