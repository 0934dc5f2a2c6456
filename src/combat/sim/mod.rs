//! Monte Carlo: many battles on rayon. Battle i's seed is derived from the run seed and i,
//! and tallies are integer sums, so the result does not depend on the thread count.
//!
//! Split: this file runs the battles and tallies them; [`stats`] holds the statistics,
//! [`compare`](mod@compare) runs two rulesets on the same seeds, [`render`] draws the report.
mod compare;
mod render;
pub mod stats;

use crate::combat::context::Context;
use crate::combat::events::Silent;
use crate::combat::roller::{battle_seed, Pcg};
use crate::combat::scenario::Resolved;
use crate::combat::ship::ShipClass;
use crate::combat::tactics::{DefaultTactic, Tactic};
use crate::combat::turn::{Battle, OutcomeKind, Setup};
use crate::error::{Error, Result};
use crate::rules::Ruleset;
pub use compare::{compare, Comparison};
use rayon::prelude::*;
use serde::Serialize;
pub use stats::{chi_square, wilson};

/// What to simulate (a script may pass it as a map).
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SimOptions {
    pub a: String,
    pub b: String,
    pub battles: u64,
    pub seed: u64,
    /// Worker threads (None: rayon's default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub threads: Option<usize>,
    /// A scenario instead of the standard start (its ships win over `a` and `b`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario: Option<super::Scenario>,
}

/// Most battles one simulation runs (a guard: at about 20,000 battles a second a core, this
/// is hours of work).
pub const MAX_BATTLES: u64 = 100_000_000;
/// Most worker threads a simulation starts.
pub const MAX_THREADS: usize = 256;

impl SimOptions {
    /// Refuse sizes no simulation should have; the threads to start (never more than battles).
    pub fn check(&self) -> Result<Option<usize>> {
        if self.battles == 0 {
            return Err(Error::out_of_range(
                "battles",
                "the number of battles must be at least 1",
            ));
        }
        if self.battles > MAX_BATTLES {
            return Err(Error::out_of_range(
                "battles",
                format!(
                    "{} battles is more than one simulation runs ({MAX_BATTLES})",
                    self.battles
                ),
            ));
        }
        match self.threads {
            Some(0) => Err(Error::out_of_range(
                "threads",
                "the number of threads must be at least 1",
            )),
            Some(n) if n > MAX_THREADS => Err(Error::out_of_range(
                "threads",
                format!("{n} threads is more than a simulation starts ({MAX_THREADS})"),
            )),
            // The result is the same whatever the number: idle threads would only cost memory.
            Some(n) => Ok(Some(n.min(usize::try_from(self.battles).unwrap_or(n)))),
            None => Ok(None),
        }
    }
}

/// One side's results.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SideStats {
    pub name: String,
    pub wins: u64,
    pub win_rate: f64,
    /// Wilson 95% interval for the win rate.
    pub ci95: [f64; 2],
    /// Times this ship was destroyed, captured, or escaped.
    pub destroyed: u64,
    pub captured: u64,
    pub escaped: u64,
}

/// Battles ending on each turn, by outcome.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct TurnCounts {
    pub turn: u32,
    pub a_wins: u64,
    pub b_wins: u64,
    pub escapes: u64,
    pub draws: u64,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SimReport {
    pub ruleset: String,
    pub battles: u64,
    pub seed: u64,
    pub a: SideStats,
    pub b: SideStats,
    /// Battles that reached the turn limit.
    pub draws: u64,
    pub escapes: u64,
    pub captures: u64,
    pub mean_turns: f64,
    pub turn_limit: u32,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub by_turn: Vec<TurnCounts>,
}

/// Integer tallies of a batch of battles (order-independent sums).
#[derive(Debug, Clone, Default)]
struct Tally {
    wins: [u64; 2],
    destroyed: [u64; 2],
    captured: [u64; 2],
    escaped: [u64; 2],
    draws: u64,
    turns: u64,
    /// [a wins, b wins, escapes, draws] by turn.
    by_turn: Vec<[u64; 4]>,
}

impl Tally {
    fn new(limit: u32) -> Tally {
        Tally {
            by_turn: vec![[0; 4]; limit as usize + 1],
            ..Tally::default()
        }
    }

    fn merge(mut self, o: Tally) -> Tally {
        for i in 0..2 {
            self.wins[i] += o.wins[i];
            self.destroyed[i] += o.destroyed[i];
            self.captured[i] += o.captured[i];
            self.escaped[i] += o.escaped[i];
        }
        self.draws += o.draws;
        self.turns += o.turns;
        for (a, b) in self.by_turn.iter_mut().zip(o.by_turn) {
            for k in 0..4 {
                a[k] += b[k];
            }
        }
        self
    }
}

/// Run the simulation with the default tactic on both sides.
pub fn simulate(rules: &Ruleset, opts: &SimOptions) -> Result<SimReport> {
    let t = DefaultTactic::default();
    simulate_with(rules, opts, [&t, &t], &|_| {})
}

/// Run the simulation with given tactics; `progress` hears how many battles finished (in batches).
pub fn simulate_with(
    rules: &Ruleset,
    opts: &SimOptions,
    tactics: [&dyn Tactic; 2],
    progress: &(dyn Fn(u64) + Sync),
) -> Result<SimReport> {
    let ctx = Context::new(rules)?;
    let Resolved { classes, setup } = match &opts.scenario {
        Some(s) => s.resolve(rules, &ctx, None)?,
        None => Resolved {
            classes: [ctx.class(rules, &opts.a)?, ctx.class(rules, &opts.b)?],
            setup: Setup::standard(&ctx),
        },
    };
    let threads = opts.check()?;
    // The caller's bound (a script's limits) goes with the work to every worker thread; it is
    // read here, on the caller's thread, before any pool takes the work.
    let bound = crate::stop::current();
    let run = || {
        run_battles(
            &ctx,
            [&classes[0], &classes[1]],
            tactics,
            setup,
            (opts.battles, opts.seed),
            bound.clone(),
            progress,
        )
    };
    let tally = match threads {
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map_err(|e| Error::msg(format!("cannot start {n} threads: {e}")))?
            .install(run),
        None => run(),
    };
    // A bound the caller set (a script's time or memory limit) ended the battles early.
    crate::stop::check()?;
    Ok(report(&ctx, [&classes[0], &classes[1]], setup, opts, tally))
}

const BATCH: u64 = 512;

fn run_battles(
    ctx: &Context,
    classes: [&ShipClass; 2],
    tactics: [&dyn Tactic; 2],
    setup: Setup,
    (n, seed): (u64, u64),
    bound: Option<std::sync::Arc<crate::stop::Bound>>,
    progress: &(dyn Fn(u64) + Sync),
) -> Tally {
    let batches = n.div_ceil(BATCH);
    (0..batches)
        .into_par_iter()
        .map(|b| {
            crate::stop::enter(bound.clone(), || {
                let mut t = Tally::new(setup.turn_limit);
                let end = ((b + 1) * BATCH).min(n);
                for i in b * BATCH..end {
                    if crate::stop::reason().is_some() || tactics.iter().any(|t| t.failed()) {
                        break; // the caller reports it (`simulate_with` checks again)
                    }
                    let mut battle = Battle::new(
                        ctx,
                        classes,
                        tactics,
                        setup,
                        Pcg::new(battle_seed(seed, i)),
                        Silent,
                    );
                    let o = battle.play();
                    t.turns += o.turns as u64;
                    let turn = (o.turns as usize).min(t.by_turn.len() - 1);
                    match (o.kind, o.side) {
                        (OutcomeKind::TurnLimit, _) | (_, None) => {
                            t.draws += 1;
                            t.by_turn[turn][3] += 1;
                        }
                        (OutcomeKind::Escaped, Some(s)) => {
                            t.escaped[s as usize] += 1;
                            t.by_turn[turn][2] += 1;
                        }
                        (kind, Some(s)) => {
                            let s = s as usize;
                            if kind == OutcomeKind::Destroyed {
                                t.destroyed[s] += 1;
                            } else {
                                t.captured[s] += 1;
                            }
                            t.wins[1 - s] += 1;
                            t.by_turn[turn][1 - s] += 1;
                        }
                    }
                }
                progress(end - b * BATCH);
                t
            })
        })
        .reduce(|| Tally::new(setup.turn_limit), Tally::merge)
}

fn report(
    ctx: &Context,
    classes: [&ShipClass; 2],
    setup: Setup,
    opts: &SimOptions,
    t: Tally,
) -> SimReport {
    let n = opts.battles;
    let side = |i: usize| SideStats {
        name: classes[i].name.clone(),
        wins: t.wins[i],
        win_rate: if n == 0 {
            0.0
        } else {
            t.wins[i] as f64 / n as f64
        },
        ci95: wilson(t.wins[i], n),
        destroyed: t.destroyed[i],
        captured: t.captured[i],
        escaped: t.escaped[i],
    };
    SimReport {
        ruleset: ctx.ruleset.clone(),
        battles: n,
        seed: opts.seed,
        a: side(0),
        b: side(1),
        draws: t.draws,
        escapes: t.escaped[0] + t.escaped[1],
        captures: t.captured[0] + t.captured[1],
        mean_turns: if n == 0 {
            0.0
        } else {
            t.turns as f64 / n as f64
        },
        turn_limit: setup.turn_limit,
        by_turn: t
            .by_turn
            .iter()
            .enumerate()
            .skip(1)
            .map(|(turn, c)| TurnCounts {
                turn: turn as u32,
                a_wins: c[0],
                b_wins: c[1],
                escapes: c[2],
                draws: c[3],
            })
            .collect(),
    }
}
