//! `combat sim --precision P`: rounds of battles until both win rates' 95% intervals are within
//! ±P, with the requested number of battles as the ceiling; the report says why it stopped.
use super::sampling::{self, half_width, Job, ROUND};
use crate::combat::{
    sim::{SimOptions, SimReport, Tally},
    tactics::Tactic,
};
use crate::error::{Error, Result};
use crate::output::percent;
use crate::rules::model::Ruleset;
use serde::Serialize;

#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct AdaptiveReport {
    #[serde(flatten)]
    pub report: SimReport,
    pub precision: f64,
    /// Whether both intervals came within ±precision before the ceiling.
    pub precise: bool,
    /// When and why the sampling stopped, in words.
    pub stopped: String,
}

/// Sample `opts` (its `battles` the ceiling) in rounds until both win rates are known to ±P.
pub(crate) fn to_precision(
    rules: &Ruleset,
    opts: &SimOptions,
    precision: f64,
    tactics: [&dyn Tactic; 2],
    progress: &(dyn Fn(u64) + Sync),
) -> Result<AdaptiveReport> {
    if !(precision > 0.0 && precision <= 0.5) {
        return Err(Error::out_of_range(
            "precision",
            format!("the precision is above 0 and at most 0.5, not {precision}"),
        ));
    }
    opts.check()?;
    // The ceiling may be reached: refuse it now rather than after rounds of battles.
    crate::combat::sim::check_battle_turns("", opts.battles, opts.turn_limit(rules))?;
    let mut total: Option<Tally> = None;
    let mut done = 0;
    loop {
        let end = (done + ROUND).min(opts.battles);
        let jobs = Job::range(rules, opts, (done, end));
        let round = sampling::run(&jobs, tactics, progress)?;
        total = sampling::merge(total.into_iter().chain(round));
        done = end;
        let m = total.as_ref().expect("a round at least").report(opts.seed);
        let widths = [
            half_width(m.a.win_rate, m.a.ci95),
            half_width(m.b.win_rate, m.b.ci95),
        ];
        let precise = widths.iter().all(|w| *w <= precision);
        if precise || done >= opts.battles {
            let [a, b] = m.side_names();
            let stopped = if precise {
                format!(
                    "stopped after {done} battles: both win rates are within ±{} ({} ±{}, {} \
                     ±{})",
                    percent(precision),
                    a,
                    percent(widths[0]),
                    b,
                    percent(widths[1])
                )
            } else {
                format!(
                    "stopped at the ceiling of {done} battles (-n) before ±{}: {} ±{}, {} ±{}",
                    percent(precision),
                    a,
                    percent(widths[0]),
                    b,
                    percent(widths[1])
                )
            };
            return Ok(AdaptiveReport {
                report: m,
                precision,
                precise,
                stopped,
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combat::default_tactic::DefaultTactic;

    #[test]
    fn sampling_stops_at_the_precision_or_the_ceiling() {
        let r = crate::rules::load::load("startrek").unwrap();
        let t = DefaultTactic::of(&r).unwrap();
        let opts = SimOptions::new("UFP heavy cruiser", "Transport", 100_000, 1);
        let loose = to_precision(&r, &opts, 0.05, [&t, &t], &|_| {}).unwrap();
        assert!(loose.precise, "{}", loose.stopped);
        assert_eq!(loose.report.battles % ROUND, 0);
        let a = &loose.report.a;
        assert!(a.win_rate - a.ci95[0] <= 0.05 && a.ci95[1] - a.win_rate <= 0.05);
        // One round fewer would not have been enough (or it is the first round).
        let capped = to_precision(
            &r,
            &SimOptions {
                battles: 700,
                ..opts.clone()
            },
            0.001,
            [&t, &t],
            &|_| {},
        )
        .unwrap();
        assert!(!capped.precise);
        assert_eq!(capped.report.battles, 700);
        assert!(
            capped.stopped.contains("ceiling of 700 battles"),
            "{}",
            capped.stopped
        );
    }
}
