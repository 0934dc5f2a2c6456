//! The same game under two rulesets, side by side: what a house rule changes.
use super::{
    game::{Invalid, ScoreInput},
    score_checked, ScoreReport,
};
use crate::output::{Align, Table};
use crate::rules::model::Ruleset;
use serde::Serialize;

#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct Comparison {
    pub rules: String,
    pub vs: String,
    /// Every player in input order: points under `rules`, under `vs`, and the difference.
    pub players: Vec<ComparedPlayer>,
    pub a: ScoreReport,
    pub b: ScoreReport,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct ComparedPlayer {
    pub name: String,
    pub points: i64,
    pub vs_points: i64,
    /// vs_points − points.
    pub difference: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub change: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub vs_change: Option<i64>,
}

/// Score `input` under both rulesets.
pub(crate) fn compare(
    rules: &Ruleset,
    vs: &Ruleset,
    input: &ScoreInput,
) -> Result<Comparison, Invalid> {
    let a = score_checked(rules, input)?;
    let b = score_checked(vs, input)?;
    // Points of two systems are on different scales: their difference would mean nothing.
    let system = |r: &ScoreReport| match r {
        ScoreReport::Cep(_) => "CEP scenario points",
        ScoreReport::Percentile(_) => "FIGF percentile points (1000 = the winner's total)",
        ScoreReport::Pot(_) => "pot ladder points (a share of the stakes)",
    };
    if std::mem::discriminant(&a) != std::mem::discriminant(&b) {
        return Err(crate::error::Error::options(
            &["vs"],
            format!(
                "`{}` gives {} and `{}` gives {}: the two scales do not compare point for point; `vs` compares two rulesets of the same system (a house rule and its original)",
                rules.name,
                system(&a),
                vs.name,
                system(&b)
            ),
        ));
    }
    let players = a
        .headlines()
        .into_iter()
        .zip(b.headlines())
        .map(|(x, y)| ComparedPlayer {
            name: x.name,
            points: x.points,
            vs_points: y.points,
            difference: y.points - x.points,
            change: x.change,
            vs_change: y.change,
        })
        .collect();
    Ok(Comparison {
        rules: rules.name.clone(),
        vs: vs.name.clone(),
        players,
        a,
        b,
    })
}

impl Comparison {
    pub(crate) fn table(&self, layout: crate::output::Layout) -> String {
        let (ra, rb) = (self.rules.clone(), self.vs.clone());
        let (ra, rb) = if ra == rb {
            (format!("{ra} (1)"), format!("{rb} (2)"))
        } else {
            (ra, rb)
        };
        let mut t = Table::new(&[
            ("player", Align::Left),
            (&ra, Align::Right),
            (&rb, Align::Right),
            ("difference", Align::Right),
        ]);
        t.key(&[&ra, &rb]);
        for p in &self.players {
            t.row([
                p.name.clone(),
                p.points.to_string(),
                p.vs_points.to_string(),
                if p.difference == 0 {
                    "0".to_string()
                } else {
                    format!("{:+}", p.difference)
                },
            ]);
        }
        format!(
            "{}\n{}\n{}",
            self.a.table(layout),
            self.b.table(layout),
            t.render(layout)
        )
    }
}
