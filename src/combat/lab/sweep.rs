//! Win rates against one ruleset value (or a grid of two), every point on the same seeds.
use super::parameter::Parameter;
use super::sampling::{self, Job};
use crate::combat::sim::{Outcomes, SideStats, MAX_BATTLES};
use crate::combat::turn::OutcomeKind;
use crate::combat::{sim::SimOptions, tactics::Tactic};
use crate::error::{Error, Result};
use crate::rules::model::Ruleset;
use serde::Serialize;
use serde_json::Value;

/// Most points one sweep runs (a grid of two axes included).
pub(crate) const MAX_POINTS: usize = 10_000;

/// One varied value and the values it takes.
#[derive(Debug, Clone)]
pub(crate) struct Axis {
    pub parameter: Parameter,
    pub values: Vec<Value>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct SweepPoint {
    pub value: Value,
    /// The second parameter's value, in a grid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value_2: Option<Value>,
    pub battles: u64,
    pub a: SideStats,
    pub b: SideStats,
    /// Disengaged and unfinished together (kept for scripts; `outcomes` splits them).
    pub draws: u64,
    /// How the battles ended: destroyed, captured, escaped, disengaged, unfinished (the same
    /// names as `sim`, `balance` and `matrix`; they add up to `battles`).
    pub outcomes: Outcomes,
    /// Side a's share of the decided battles (destroyed or captured), as `balance` reports.
    pub a_share: f64,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct SweepReport {
    pub parameter: String,
    /// The second parameter, in a grid.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub parameter_2: Option<String>,
    pub ruleset: String,
    pub seed: u64,
    pub points: Vec<SweepPoint>,
}

/// Sweep `axes` (one or two) for `opts.a` against `opts.b`, `opts.battles` battles a point.
/// Every point's ruleset is built and checked before any battle is fought.
pub(crate) fn sweep(
    rules: &Ruleset,
    opts: &SimOptions,
    axes: &[Axis],
    tactics: [&dyn Tactic; 2],
    progress: &(dyn Fn(u64) + Sync),
) -> Result<SweepReport> {
    if axes.is_empty() || axes.len() > 2 {
        return Err(Error::msg("a sweep varies one value, or two for a grid"));
    }
    let grid: Vec<Vec<&Value>> = match axes {
        [x] => x.values.iter().map(|v| vec![v]).collect(),
        [x, y] => x
            .values
            .iter()
            .flat_map(|v| y.values.iter().map(move |w| vec![v, w]))
            .collect(),
        _ => unreachable!(),
    };
    if grid.is_empty() {
        return Err(Error::msg("a sweep needs at least one value"));
    }
    if grid.len() > MAX_POINTS {
        return Err(Error::out_of_range(
            "values",
            format!(
                "a grid of {} points is more than a sweep runs ({MAX_POINTS})",
                grid.len()
            ),
        ));
    }
    opts.check()?;
    let total = (grid.len() as u64).saturating_mul(opts.battles);
    if total > MAX_BATTLES {
        return Err(Error::out_of_range(
            "battles",
            format!(
                "{} points of {} battles is {total} battles, more than one run takes \
                 ({MAX_BATTLES})",
                grid.len(),
                opts.battles
            ),
        ));
    }
    let rulesets = grid
        .iter()
        .map(|point| {
            let mut r = rules.clone();
            for (axis, value) in axes.iter().zip(point) {
                r = axis.parameter.apply(&r, value)?;
            }
            Ok(r)
        })
        .collect::<Result<Vec<Ruleset>>>()?;
    // Every point draws the same batches: battle i at one point is battle i at every other.
    let per_point: Vec<Vec<Job>> = rulesets
        .iter()
        .map(|r| Job::batches(r, opts, opts.battles))
        .collect();
    let jobs: Vec<Job> = per_point.iter().flatten().cloned().collect();
    let reports = sampling::run(&jobs, tactics, progress)?;
    let mut reports = reports.into_iter();
    let points = grid
        .iter()
        .zip(&per_point)
        .map(|(point, batches)| {
            let m = sampling::merge(reports.by_ref().take(batches.len()))
                .expect("at least one batch")
                .report(opts.seed);
            let a_share = m.a.wins as f64 / m.outcomes.decided().max(1) as f64;
            SweepPoint {
                value: point[0].clone(),
                value_2: point.get(1).map(|v| (*v).clone()),
                battles: m.battles,
                a: m.a,
                b: m.b,
                draws: m.draws,
                a_share,
                outcomes: m.outcomes,
            }
        })
        .collect();
    Ok(SweepReport {
        parameter: axes[0].parameter.shown.clone(),
        parameter_2: axes.get(1).map(|a| a.parameter.shown.clone()),
        ruleset: rules.name.clone(),
        seed: opts.seed,
        points,
    })
}

/// A value as a table shows it (text without quotes).
pub(crate) fn shown(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

impl SweepReport {
    /// The two sides' names (marked a and b in a mirror match).
    fn names(&self) -> (String, String) {
        self.points
            .first()
            .map(|p| {
                let [a, b] = crate::combat::side::labels(&p.a.name, &p.b.name);
                (a, b)
            })
            .unwrap_or_default()
    }

    /// Two tables that fit 80 columns: the win rates (over all battles, and side a's share
    /// of the decided ones), then how the battles ended, with the outcome names every
    /// lab command uses.
    pub(crate) fn render(&self, layout: crate::output::Layout) -> String {
        use crate::output::{percent, Align, Table};
        let grid = self.parameter_2.is_some();
        let keys = |p: &SweepPoint| {
            let mut row = vec![shown(&p.value)];
            if let Some(v) = &p.value_2 {
                row.push(shown(v));
            }
            row
        };
        let heads = |rest: &[&'static str]| {
            let mut h: Vec<(&str, Align)> = vec![("value", Align::Left)];
            if grid {
                h.push(("value 2", Align::Left));
            }
            h.extend(rest.iter().map(|c| (*c, Align::Right)));
            h
        };
        let mut rates = Table::new(&heads(&[
            "battles",
            "a wins",
            "95% CI",
            "b wins",
            "95% CI",
            "a of decided",
        ]));
        rates.key(&["a wins", "b wins", "a of decided"]);
        let kinds = OutcomeKind::ALL.map(|k| k.name());
        let mut ends = Table::new(&heads(&kinds));
        for p in &self.points {
            let mut row = keys(p);
            row.extend([
                p.battles.to_string(),
                percent(p.a.win_rate),
                format!("{}–{}", percent(p.a.ci95[0]), percent(p.a.ci95[1])),
                percent(p.b.win_rate),
                format!("{}–{}", percent(p.b.ci95[0]), percent(p.b.ci95[1])),
                percent(p.a_share),
            ]);
            rates.row(row);
            let mut row = keys(p);
            row.extend(OutcomeKind::ALL.map(|k| percent(p.outcomes.share(k))));
            ends.row(row);
        }
        let (a, b) = self.names();
        let value = match &self.parameter_2 {
            Some(p2) => format!("value = {}, value 2 = {p2}", self.parameter),
            None => format!("value = {}", self.parameter),
        };
        let headline = format!(
            "sweep of {}\n{value}\na = {a}, b = {b}; ruleset {}, seed {}, the same battles \
             at every point",
            match &self.parameter_2 {
                Some(p2) => format!("{} × {p2}", self.parameter),
                None => self.parameter.clone(),
            },
            self.ruleset,
            self.seed,
        );
        format!(
            "{}\n\nwin rates (of all battles; a's share of the decided ones):\n\n{}\nhow the \
             battles ended (share of the battles):\n\n{}",
            crate::output::fit_prose(&headline, layout),
            rates.render(layout),
            ends.render(layout)
        )
    }

    /// CSV: one row a point, win rates and interval ends as fractions.
    pub(crate) fn csv(&self) -> Result<String> {
        let mut w = csv::Writer::from_writer(Vec::new());
        let mut header = vec!["value".to_string()];
        if self.parameter_2.is_some() {
            header.push("value_2".to_string());
        }
        header.extend(
            [
                "battles",
                "a",
                "a_wins",
                "a_win_rate",
                "a_ci95_low",
                "a_ci95_high",
                "b",
                "b_wins",
                "b_win_rate",
                "b_ci95_low",
                "b_ci95_high",
                "draws",
                "destroyed",
                "captured",
                "escaped",
                "disengaged",
                "unfinished",
            ]
            .map(String::from),
        );
        let fail = |e: csv::Error| Error::msg(format!("cannot write the CSV: {e}"));
        w.write_record(&header).map_err(fail)?;
        for p in &self.points {
            let mut row = vec![shown(&p.value)];
            if let Some(v) = &p.value_2 {
                row.push(shown(v));
            }
            for s in [&p.a, &p.b] {
                if std::ptr::eq(s, &p.a) {
                    row.push(p.battles.to_string());
                }
                row.extend([
                    s.name.clone(),
                    s.wins.to_string(),
                    s.win_rate.to_string(),
                    s.ci95[0].to_string(),
                    s.ci95[1].to_string(),
                ]);
            }
            row.push(p.draws.to_string());
            row.extend(OutcomeKind::ALL.map(|k| p.outcomes.of(k).to_string()));
            w.write_record(&row).map_err(fail)?;
        }
        let bytes = w
            .into_inner()
            .map_err(|e| Error::msg(format!("cannot write the CSV: {e}")))?;
        Ok(String::from_utf8(bytes).expect("CSV of UTF-8 text"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combat::default_tactic::DefaultTactic;
    use serde_json::json;

    #[test]
    fn a_ship_that_cannot_fire_or_board_never_wins_and_points_share_seeds() {
        let r = crate::rules::load::load("startrek").unwrap();
        // The frigate's torpedoes and both ships' security teams taken away: with gunnery 0
        // neither side can hurt the other (the transport carries no torpedoes).
        let mut r = r;
        for (path, v) in [
            ("ships.UFP frigate.torpedoes", 0),
            ("ships.UFP frigate.security_teams", 0),
            ("ships.Transport.security_teams", 0),
        ] {
            r = Parameter::new(&r, path)
                .unwrap()
                .apply(&r, &json!(v))
                .unwrap();
        }
        let opts = SimOptions::new("UFP frigate", "Transport", 300, 3);
        let axis = |values| Axis {
            parameter: Parameter::new(&r, "/combat/crew/gunnery").unwrap(),
            values,
        };
        let t = DefaultTactic::of(&r).unwrap();
        let report = sweep(
            &r,
            &opts,
            &[axis(vec![json!(0), json!(90)])],
            [&t, &t],
            &|_| {},
        )
        .unwrap();
        assert_eq!(report.points.len(), 2);
        let (blind, sharp) = (&report.points[0], &report.points[1]);
        assert_eq!((blind.value.clone(), blind.battles), (json!(0), 300));
        assert_eq!(
            (blind.a.wins, blind.b.wins),
            (0, 0),
            "ships that cannot fire or board never win"
        );
        assert!(sharp.a.wins > 0, "{sharp:?}");
        // Common random numbers: a point alone is the same as inside the sweep.
        let again = sweep(&r, &opts, &[axis(vec![json!(90)])], [&t, &t], &|_| {}).unwrap();
        assert_eq!(&again.points[0], sharp);
        // A grid: every pair of values, the second axis fastest.
        let grid = sweep(
            &r,
            &SimOptions {
                battles: 20,
                ..opts.clone()
            },
            &[
                axis(vec![json!(0), json!(90)]),
                Axis {
                    parameter: Parameter::new(&r, "ships.UFP frigate.shields").unwrap(),
                    values: vec![json!(1), json!(2), json!(3)],
                },
            ],
            [&t, &t],
            &|_| {},
        )
        .unwrap();
        let pairs: Vec<(Value, Option<Value>)> = grid
            .points
            .iter()
            .map(|p| (p.value.clone(), p.value_2.clone()))
            .collect();
        assert_eq!(pairs.len(), 6);
        assert_eq!(pairs[1], (json!(0), Some(json!(2))));
        assert_eq!(
            grid.parameter_2.as_deref(),
            Some("ships.UFP frigate.shields")
        );
    }
}
