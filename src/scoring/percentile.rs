//! FIGF percentile: each total over the winner's total times the scale; the winner also gets
//! the bonus plus the gap between the scale and the runner-up's percentile.
use super::game::{unique_names, Invalid, ResultRow};
use super::round_points;
use crate::output::{trim_number, Align, Table};
use crate::rules::scoring::{PercentileRules, TieRule};
use serde::Serialize;

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PercentileReport {
    pub ruleset: String,
    pub system: &'static str,
    pub(crate) players: Vec<PercentilePlayer>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct PercentilePlayer {
    pub name: String,
    pub score: f64,
    /// round(score / winner's score · scale).
    pub percentile: i64,
    /// The winner's bonus plus the gap to the runner-up (0 for everyone else).
    pub bonus: f64,
    pub points: i64,
}

/// Check a result table shared by the score-based systems.
pub(crate) fn check_rows(rows: &[ResultRow]) -> Result<(), Invalid> {
    if rows.len() < 2 {
        return Err(Invalid::new(
            "/players",
            format!("a table needs at least two players (found {})", rows.len()),
        ));
    }
    unique_names(rows.iter().map(|r| r.name.as_str()), "player", |i| {
        format!("/players/{i}/name")
    })?;
    for (i, r) in rows.iter().enumerate() {
        if !r.score.is_finite() {
            return Err(Invalid::new(
                format!("/players/{i}/score"),
                format!("the score of `{}` is not a number", r.name),
            ));
        }
    }
    Ok(())
}

pub(crate) fn score(
    ruleset: &str,
    rules: &PercentileRules,
    rows: &[ResultRow],
) -> Result<PercentileReport, Invalid> {
    check_rows(rows)?;
    if let Some((i, r)) = rows.iter().enumerate().find(|(_, r)| r.score < 0.0) {
        return Err(Invalid::new(
            format!("/players/{i}/score"),
            format!(
                "`{}` has a negative total ({}): a total is stock value plus cash, never below 0",
                r.name, r.score
            ),
        ));
    }
    let (top_at, top) = rows
        .iter()
        .enumerate()
        .map(|(i, r)| (i, r.score))
        .fold((0, f64::NEG_INFINITY), |a, b| if b.1 > a.1 { b } else { a });
    if top <= 0.0 {
        return Err(Invalid::new(
            format!("/players/{top_at}/score"),
            "the winner's total must be positive to take percentiles of it",
        ));
    }
    let percentiles: Vec<i64> = rows
        .iter()
        .map(|r| round_points(r.score / top * rules.scale) as i64)
        .collect();
    let winners = rows.iter().filter(|r| r.score == top).count();
    // The runner-up is the second-best percentile, a tied winner included: ties leave no gap.
    let runner_up = if winners > 1 {
        rules.scale
    } else {
        rows.iter()
            .zip(&percentiles)
            .filter(|(r, _)| r.score != top)
            .map(|(_, p)| *p as f64)
            .fold(f64::NEG_INFINITY, f64::max)
    };
    let gap = rules.scale - runner_up;
    let bonus_each = match rules.ties {
        TieRule::Full => rules.bonus,
        TieRule::Split => rules.bonus / winners as f64,
    };
    let players = rows
        .iter()
        .zip(&percentiles)
        .map(|(r, p)| {
            let bonus = if r.score == top {
                bonus_each + gap
            } else {
                0.0
            };
            PercentilePlayer {
                name: r.name.clone(),
                score: r.score,
                percentile: *p,
                bonus,
                points: round_points(*p as f64 + bonus) as i64,
            }
        })
        .collect();
    Ok(PercentileReport {
        ruleset: ruleset.to_string(),
        system: "percentile",
        players,
    })
}

impl PercentileReport {
    pub(crate) fn table(&self, layout: crate::output::Layout) -> String {
        let mut t = Table::new(&[
            ("player", Align::Left),
            ("score", Align::Right),
            ("percentile", Align::Right),
            ("bonus", Align::Right),
            ("points", Align::Right),
        ]);
        t.key(&["points"]);
        for p in &self.players {
            t.row([
                p.name.clone(),
                trim_number(p.score, 4),
                p.percentile.to_string(),
                trim_number(p.bonus, 2),
                p.points.to_string(),
            ]);
        }
        format!(
            "FIGF percentile ({}): score / winner · scale; winner + bonus + gap to the \
             runner-up\n\n{}",
            self.ruleset,
            t.render(layout)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(ties: TieRule) -> PercentileRules {
        PercentileRules {
            scale: 1000.0,
            bonus: 1000.0,
            ties,
            initial: 1000.0,
            aggregate: crate::rules::scoring::Aggregate::Mean,
        }
    }

    fn rows(scores: &[(&str, f64)]) -> Vec<ResultRow> {
        scores
            .iter()
            .map(|(n, s)| ResultRow {
                name: n.to_string(),
                score: *s,
            })
            .collect()
    }

    #[test]
    fn tied_winners_split_the_bonus_when_asked() {
        let r = score(
            "t",
            &rules(TieRule::Split),
            &rows(&[("A", 500.0), ("B", 500.0), ("C", 250.0)]),
        )
        .unwrap();
        let pts: Vec<i64> = r.players.iter().map(|p| p.points).collect();
        assert_eq!(pts, vec![1500, 1500, 500]);
    }
}
