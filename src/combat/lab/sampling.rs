//! Battles in fixed batches: a batch is one `simulate_with` call whose seed is derived from the
//! run seed and the batch's index alone, so the same batch means the same battles at every
//! point of a sweep (common random numbers) and whatever the thread count. Batches run in
//! parallel; sums of their integer tallies are order-independent.
use crate::combat::roller::battle_seed;
use crate::combat::sim::{wilson, SideStats, TurnCounts, MAX_BATTLES};
use crate::combat::{simulate_with, SimOptions, SimReport, Tactic};
use crate::error::{Error, Result};
use crate::rules::Ruleset;
use rayon::prelude::*;

/// Battles in one batch (small enough to spread a round over the cores).
pub const BATCH: u64 = 256;
/// Battles between two looks at a sequential sample (two batches: both cores busy).
pub const ROUND: u64 = 2 * BATCH;

/// Batches of the second ship moving first draw from their own stream of seeds.
const SWAPPED_STREAM: u64 = 1 << 40;

/// The seed of batch `index` of a run.
pub fn batch_seed(run_seed: u64, index: u64) -> u64 {
    // Mixed once more than a battle's seed, so batch k's battles are not battle k's of the run.
    battle_seed(battle_seed(run_seed, u64::MAX), index)
}

/// One batch: `battles` battles of `opts.a` against `opts.b` (or, swapped, `b` moving first:
/// the report is turned back so `a` stays `a`).
#[derive(Clone)]
pub struct Job<'a> {
    pub rules: &'a Ruleset,
    pub opts: SimOptions,
    pub swapped: bool,
}

impl<'a> Job<'a> {
    /// The batches of `battles` battles of one matchup: indices from 0, `swapped` in a stream
    /// of its own.
    pub fn batches(
        rules: &'a Ruleset,
        base: &SimOptions,
        battles: u64,
        swapped: bool,
    ) -> Vec<Job<'a>> {
        let stream = if swapped { SWAPPED_STREAM } else { 0 };
        Job::range(rules, base, (0, battles), stream, swapped)
    }

    /// Batches covering battles `from..to` of a matchup (whole batches from index from/BATCH).
    pub fn range(
        rules: &'a Ruleset,
        base: &SimOptions,
        (from, to): (u64, u64),
        stream: u64,
        swapped: bool,
    ) -> Vec<Job<'a>> {
        let mut jobs = Vec::new();
        let mut start = from;
        while start < to {
            let k = start / BATCH;
            let end = ((k + 1) * BATCH).min(to);
            let mut opts = base.clone();
            if swapped {
                std::mem::swap(&mut opts.a, &mut opts.b);
            }
            opts.battles = end - start;
            opts.seed = batch_seed(base.seed, stream + k);
            // One thread each: the batches themselves are spread over the pool.
            opts.threads = None;
            jobs.push(Job {
                rules,
                opts,
                swapped,
            });
            start = end;
        }
        jobs
    }
}

/// Run batches in parallel; reports in the jobs' order. The caller's bound (a script's limits)
/// goes with them to every worker.
pub fn run(
    jobs: &[Job],
    tactics: [&dyn Tactic; 2],
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Vec<SimReport>> {
    let bound = crate::stop::current();
    let total: u64 = jobs.iter().map(|j| j.opts.battles).sum();
    if total > MAX_BATTLES {
        return Err(Error::out_of_range(
            "battles",
            format!("{total} battles is more than one run takes ({MAX_BATTLES})"),
        ));
    }
    jobs.par_iter()
        .map(|job| {
            crate::stop::enter(bound.clone(), || {
                let sides = if job.swapped {
                    [tactics[1], tactics[0]]
                } else {
                    tactics
                };
                let report = simulate_with(job.rules, &job.opts, sides, progress)?;
                Ok(if job.swapped { swap(report) } else { report })
            })
        })
        .collect()
}

/// A report with its sides exchanged.
pub fn swap(mut r: SimReport) -> SimReport {
    std::mem::swap(&mut r.a, &mut r.b);
    for t in &mut r.by_turn {
        std::mem::swap(&mut t.a_wins, &mut t.b_wins);
    }
    r
}

/// The sum of batch reports of one matchup, with rates and intervals recomputed.
pub fn merge(parts: &[SimReport], seed: u64) -> Option<SimReport> {
    let first = parts.first()?;
    let battles: u64 = parts.iter().map(|p| p.battles).sum();
    let side = |pick: fn(&SimReport) -> &SideStats| {
        let sum = |f: fn(&SideStats) -> u64| parts.iter().map(|p| f(pick(p))).sum::<u64>();
        let wins = sum(|s| s.wins);
        SideStats {
            name: pick(first).name.clone(),
            wins,
            win_rate: wins as f64 / battles.max(1) as f64,
            ci95: wilson(wins, battles),
            destroyed: sum(|s| s.destroyed),
            captured: sum(|s| s.captured),
            escaped: sum(|s| s.escaped),
        }
    };
    let turns: f64 = parts.iter().map(|p| p.mean_turns * p.battles as f64).sum();
    let mut by_turn: Vec<TurnCounts> = first.by_turn.clone();
    for p in &parts[1..] {
        for (t, o) in by_turn.iter_mut().zip(&p.by_turn) {
            t.a_wins += o.a_wins;
            t.b_wins += o.b_wins;
            t.escapes += o.escapes;
            t.draws += o.draws;
        }
    }
    Some(SimReport {
        ruleset: first.ruleset.clone(),
        battles,
        seed,
        a: side(|r| &r.a),
        b: side(|r| &r.b),
        draws: parts.iter().map(|p| p.draws).sum(),
        escapes: parts.iter().map(|p| p.escapes).sum(),
        captures: parts.iter().map(|p| p.captures).sum(),
        mean_turns: (turns / battles.max(1) as f64 * 1e9).round() / 1e9,
        turn_limit: first.turn_limit,
        by_turn,
    })
}

/// Side a's share of the decided battles (wins of either side).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Share {
    pub wins: u64,
    pub decided: u64,
}

impl Share {
    pub fn of(r: &SimReport) -> Share {
        Share {
            wins: r.a.wins,
            decided: r.a.wins + r.b.wins,
        }
    }

    /// The share (0.5 when nothing was decided: no evidence either way).
    pub fn value(&self) -> f64 {
        if self.decided == 0 {
            0.5
        } else {
            self.wins as f64 / self.decided as f64
        }
    }

    /// Wilson 95% interval.
    pub fn ci95(&self) -> [f64; 2] {
        wilson(self.wins, self.decided)
    }

    pub fn plus(self, o: Share) -> Share {
        Share {
            wins: self.wins + o.wins,
            decided: self.decided + o.decided,
        }
    }
}

/// Half the width of an interval around an estimate, the larger side (what ±P bounds).
pub fn half_width(estimate: f64, ci: [f64; 2]) -> f64 {
    (estimate - ci[0]).max(ci[1] - estimate)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combat::DefaultTactic;

    fn opts(n: u64) -> SimOptions {
        SimOptions {
            a: "UFP frigate".into(),
            b: "Pirate frigate".into(),
            battles: n,
            seed: 9,
            threads: None,
            scenario: None,
        }
    }

    #[test]
    fn batches_cover_the_battles_and_seeds_depend_on_the_index_only() {
        let r = crate::rules::load::load("startrek").unwrap();
        let jobs = Job::batches(&r, &opts(0), 600, false);
        let sizes: Vec<u64> = jobs.iter().map(|j| j.opts.battles).collect();
        assert_eq!(sizes, [256, 256, 88]);
        let later = Job::range(&r, &opts(0), (512, 1024), 0, false);
        assert_eq!(later[0].opts.seed, jobs[2].opts.seed);
        let swapped = Job::batches(&r, &opts(0), 10, true);
        assert_eq!(swapped[0].opts.a, "Pirate frigate");
        assert_ne!(swapped[0].opts.seed, jobs[0].opts.seed);
    }

    #[test]
    fn merged_batches_add_up_and_a_swap_keeps_the_sides() {
        let r = crate::rules::load::load("startrek").unwrap();
        let t = DefaultTactic::default();
        let jobs = Job::batches(&r, &opts(0), 300, false);
        let parts = run(&jobs, [&t, &t], &|_| {}).unwrap();
        let m = merge(&parts, 9).unwrap();
        assert_eq!(m.battles, 300);
        assert_eq!(m.a.wins, parts[0].a.wins + parts[1].a.wins);
        assert_eq!(m.a.wins + m.b.wins + m.draws + m.escapes, 300);
        let swapped = run(&Job::batches(&r, &opts(0), 50, true), [&t, &t], &|_| {}).unwrap();
        assert_eq!(swapped[0].a.name, "UFP frigate");
        assert_eq!(swapped[0].b.name, "Pirate frigate");
    }
}
