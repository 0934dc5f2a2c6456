//! Battles in fixed batches: a batch is one simulation whose seed is derived from the run seed
//! and the batch's index alone, so the same batch means the same battles at every point of a
//! sweep (common random numbers) and whatever the thread count. Batches run in parallel; their
//! integer tallies are merged by the sim's own `Tally::merge` (order-independent sums) and one
//! report is built from the sum, as the sim builds its own.
use crate::combat::roller::battle_seed;
use crate::combat::sim::{check_turns, stats::wilson, MAX_BATTLES};
use crate::combat::{
    sim::{simulate_tally, SimOptions, Tally},
    tactics::Tactic,
};
use crate::error::{Error, Result};
use crate::rules::model::Ruleset;
use rayon::prelude::*;

/// Battles in one batch (small enough to spread a round over the cores; even, so a batch
/// that alternates the first move gives each side half of it).
pub(crate) const BATCH: u64 = 256;
/// Battles between two looks at a sequential sample (two batches: both cores busy).
pub(crate) const ROUND: u64 = 2 * BATCH;

/// The seed of batch `index` of a run.
pub(crate) fn batch_seed(run_seed: u64, index: u64) -> u64 {
    // Mixed once more than a battle's seed, so batch k's battles are not battle k's of the run.
    battle_seed(battle_seed(run_seed, u64::MAX), index)
}

/// One batch: `opts.battles` battles of `opts.a` against `opts.b` on `rules`.
#[derive(Clone)]
pub(crate) struct Job<'a> {
    pub rules: &'a Ruleset,
    pub opts: SimOptions,
}

impl<'a> Job<'a> {
    /// The batches of `battles` battles of one matchup (indices from 0).
    pub(crate) fn batches(rules: &'a Ruleset, base: &SimOptions, battles: u64) -> Vec<Job<'a>> {
        Job::range(rules, base, (0, battles))
    }

    /// Batches covering battles `from..to` of a matchup (whole batches from index from/BATCH).
    pub(crate) fn range(
        rules: &'a Ruleset,
        base: &SimOptions,
        (from, to): (u64, u64),
    ) -> Vec<Job<'a>> {
        let mut jobs = Vec::new();
        let mut start = from;
        while start < to {
            let k = start / BATCH;
            let end = ((k + 1) * BATCH).min(to);
            let mut opts = base.clone();
            opts.battles = end - start;
            opts.seed = batch_seed(base.seed, k);
            // One thread each: the batches themselves are spread over the pool.
            opts.threads = None;
            jobs.push(Job { rules, opts });
            start = end;
        }
        jobs
    }
}

/// Run batches in parallel; tallies in the jobs' order. The caller's bound (a script's limits)
/// goes with them to every worker.
pub(crate) fn run(
    jobs: &[Job],
    tactics: [&dyn Tactic; 2],
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<Tally>> {
    let bound = crate::stop::current();
    let total: u64 = jobs.iter().map(|j| j.opts.battles).sum();
    if total > MAX_BATTLES {
        return Err(Error::out_of_range(
            "battles",
            format!("{total} battles is more than one run takes ({MAX_BATTLES})"),
        ));
    }
    // Every batch's battles at its own turn limit (a sweep may vary the limit itself).
    let turns = jobs.iter().fold(0u64, |sum, j| {
        let limit = u64::from(j.opts.turn_limit(j.rules));
        sum.saturating_add(j.opts.battles.saturating_mul(limit))
    });
    let longest = jobs.iter().map(|j| j.opts.turn_limit(j.rules)).max();
    check_turns("", total, longest.unwrap_or(0), turns)?;
    jobs.par_iter()
        .map(|job| {
            crate::stop::enter(bound.clone(), || {
                // The default tactic plays the knobs of the ruleset it is given: a job's ruleset
                // (a sweep's point, a balance candidate) has its own, so it gets its own tactic.
                let own = crate::combat::default_tactic::DefaultTactic::of(job.rules)?;
                let sides = tactics.map(|t| -> &dyn Tactic {
                    if t.name() == own.name() {
                        &own
                    } else {
                        t
                    }
                });
                simulate_tally(job.rules, &job.opts, sides, progress)
            })
        })
        .collect()
}

/// The sum of the batch tallies of one matchup (None for no batches).
pub(crate) fn merge(parts: impl IntoIterator<Item = Tally>) -> Option<Tally> {
    parts.into_iter().reduce(Tally::merge)
}

/// Side a's share of the decided battles (wins of either side).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct Share {
    pub wins: u64,
    pub decided: u64,
}

impl Share {
    pub(crate) fn of(t: &Tally) -> Share {
        let [a, b] = t.wins();
        Share {
            wins: a,
            decided: a + b,
        }
    }

    /// The share (0.5 when nothing was decided: no evidence either way).
    pub(crate) fn value(&self) -> f64 {
        if self.decided == 0 {
            0.5
        } else {
            self.wins as f64 / self.decided as f64
        }
    }

    /// Wilson 95% interval.
    pub(crate) fn ci95(&self) -> [f64; 2] {
        wilson(self.wins, self.decided)
    }

    pub(crate) fn plus(self, o: Share) -> Share {
        Share {
            wins: self.wins + o.wins,
            decided: self.decided + o.decided,
        }
    }
}

/// Half the width of an interval around an estimate, the larger side (what ±P bounds).
pub(crate) fn half_width(estimate: f64, ci: [f64; 2]) -> f64 {
    (estimate - ci[0]).max(ci[1] - estimate)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combat::side::First;
    use crate::combat::{default_tactic::DefaultTactic, sim::simulate_with};

    fn opts(n: u64) -> SimOptions {
        SimOptions {
            first: Some(First::Alternate),
            ..SimOptions::new("UFP frigate", "Pirate frigate", n, 9)
        }
    }

    #[test]
    fn batches_cover_the_battles_and_seeds_depend_on_the_index_only() {
        let r = crate::rules::load::load("startrek").unwrap();
        let jobs = Job::batches(&r, &opts(0), 600);
        let sizes: Vec<u64> = jobs.iter().map(|j| j.opts.battles).collect();
        assert_eq!(sizes, [256, 256, 88]);
        let later = Job::range(&r, &opts(0), (512, 1024));
        assert_eq!(later[0].opts.seed, jobs[2].opts.seed);
        assert_ne!(jobs[0].opts.seed, jobs[1].opts.seed);
    }

    #[test]
    fn merged_batches_report_as_the_sum_of_their_batches() {
        let r = crate::rules::load::load("startrek").unwrap();
        let t = DefaultTactic::of(&r).unwrap();
        let jobs = Job::batches(&r, &opts(0), 300);
        let parts = run(&jobs, [&t, &t], &|_| {}).unwrap();
        let reports: Vec<_> = parts
            .iter()
            .zip(&jobs)
            .map(|(p, j)| p.report(j.opts.seed))
            .collect();
        let m = merge(parts).unwrap().report(9);
        assert_eq!((m.battles, m.seed), (300, 9));
        assert_eq!(m.a.wins, reports[0].a.wins + reports[1].a.wins);
        assert_eq!(m.a.wins + m.b.wins + m.draws + m.escapes, 300);
        // Every field the sim reports adds up, the new ones too.
        let sum = |f: fn(&crate::combat::sim::SimReport) -> u64| reports.iter().map(f).sum::<u64>();
        assert_eq!(m.limit_states.battles, sum(|r| r.limit_states.battles));
        assert_eq!(
            m.limit_states.both_fighting,
            sum(|r| r.limit_states.both_fighting)
        );
        let ai = &m.by_initiative;
        assert_eq!(ai.a_first.battles, sum(|r| r.by_initiative.a_first.battles));
        // Batches alternate the first move: 128 + 22 battles each.
        assert_eq!((ai.a_first.battles, ai.b_first.battles), (150, 150));
        let shots = reports
            .iter()
            .map(|r| r.a.shots_per_battle * r.battles as f64);
        assert!((m.a.shots_per_battle * 300.0 - shots.sum::<f64>()).abs() < 1e-9);
        // One simulation of each batch's options gives that batch's report.
        let alone = simulate_with(&r, &jobs[1].opts, [&t, &t], &|_| {}).unwrap();
        assert_eq!(alone, reports[1]);
    }
}
