//! Monte Carlo: many battles on rayon. Battle i's seed is derived from the run seed and i,
//! and tallies are integer sums, so the result does not depend on the thread count.
//!
//! Split: this file runs the battles and tallies them; [`stats`] holds the statistics,
//! [`compare`](mod@compare) runs two rulesets on the same seeds, [`render`] draws the report.
mod compare;
mod render;
pub(crate) mod stats;

use crate::combat::context::Context;
use crate::combat::context::Loc;
use crate::combat::default_tactic::DefaultTactic;
use crate::combat::events::Silent;
use crate::combat::roller::{battle_seed, Pcg};
use crate::combat::scenario::Resolved;
use crate::combat::ship::{Condition, ShipClass, ShipState};
use crate::combat::side::{First, Side};
use crate::combat::tactics::Tactic;
use crate::combat::turn::{Battle, OutcomeKind, Setup};
use crate::error::{Error, Result};
use crate::rules::model::Ruleset;
pub(crate) use compare::compare;
use rayon::prelude::*;
use serde::Serialize;
use stats::wilson;

/// What to simulate (a script may pass it as a map).
#[derive(Debug, Clone, Default, Serialize, serde::Deserialize)]
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
    pub scenario: Option<super::scenario::Scenario>,
    /// Who moves first (None: a scenario's `first` if it names one, else alternate: R9).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first: Option<First>,
}

/// Most battles one simulation runs (a guard: at about 20,000 battles a second a core, this
/// is hours of work).
pub(crate) const MAX_BATTLES: u64 = 100_000_000;
/// Most worker threads a simulation starts.
pub(crate) const MAX_THREADS: usize = 256;
/// Most turns one run may play: its battles times their turn limit, over all its matchups
/// (ships, tactics, points of a sweep). Each count is within its own cap, but together they
/// multiply, and a battle that lasts to its limit costs about 3-7 µs a turn on one core: 10
/// battles of ships out of reach at a 100,000-turn limit took 7 s. The bound lets a ladder of
/// 12 classes × 2 pairings × 10,000 battles run at the standard 500-turn safety cap (120
/// million; most battles end long before it, by a ship's end or lost contact), and refuses a
/// scenario's 1000-turn limit over more than 150,000 battles.
pub(crate) const MAX_BATTLE_TURNS: u64 = 150_000_000;

/// Refuse `battles` battles of up to `turn_limit` turns each when they are more than one run
/// plays; `what` says what the battles are (`"24 matches of 500 battles: "`, or nothing).
pub(crate) fn check_battle_turns(what: &str, battles: u64, turn_limit: u32) -> Result<()> {
    check_turns(
        what,
        battles,
        turn_limit,
        battles.saturating_mul(u64::from(turn_limit)),
    )
}

/// Refuse `turns` turns (`battles` battles, the longest limit `turn_limit`) over the bound.
pub(crate) fn check_turns(what: &str, battles: u64, turn_limit: u32, turns: u64) -> Result<()> {
    if turns > MAX_BATTLE_TURNS {
        return Err(Error::out_of_range(
            "battles",
            format!(
                "{what}{battles} battles of up to {turn_limit} turns is {turns} turns, more than \
                 one run plays ({MAX_BATTLE_TURNS}, battles × turn limit): fewer battles or a \
                 lower turn_limit"
            ),
        ));
    }
    Ok(())
}

impl SimOptions {
    /// `battles` battles of `a` against `b` from `seed`; every other field at its default
    /// (rayon's threads, the standard start, alternate first move). Callers that set more use
    /// struct update: `SimOptions { threads: Some(2), ..SimOptions::new(a, b, n, seed) }`,
    /// so a new field is added in one place.
    pub fn new(a: impl Into<String>, b: impl Into<String>, battles: u64, seed: u64) -> SimOptions {
        SimOptions {
            a: a.into(),
            b: b.into(),
            battles,
            seed,
            ..SimOptions::default()
        }
    }

    /// The turn limit these battles play under: the scenario's, else the ruleset's (0 when
    /// the ruleset has no combat section, which the simulation then refuses).
    pub(crate) fn turn_limit(&self, rules: &Ruleset) -> u32 {
        self.scenario
            .as_ref()
            .and_then(|s| s.turn_limit)
            .or_else(|| rules.combat.as_ref().map(|c| c.turn_limit))
            .unwrap_or(0)
    }

    /// Refuse sizes no simulation should have; the threads to start (never more than battles).
    pub(crate) fn check(&self) -> Result<Option<usize>> {
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
    /// Share of its turns it spent cloaked.
    pub cloaked_share: f64,
    /// Phaser shots and torpedo launches a battle.
    pub shots_per_battle: f64,
}

/// The state battles at the turn limit ended in (each counted once, in this order).
#[derive(Debug, Clone, Serialize, PartialEq, Default)]
pub(crate) struct LimitStates {
    pub battles: u64,
    /// A ship that can no longer hurt the enemy (phasers and torpedoes out of use).
    pub one_crippled: u64,
    /// Farther apart than sensor range.
    pub out_of_range: u64,
    /// Neither ship has a torpedo left.
    pub out_of_torpedoes: u64,
    /// Both ships still able to fight, within range.
    pub both_fighting: u64,
    /// Mean distance between the ships over those battles' turns.
    pub mean_distance: f64,
}

/// Results of the battles one side moved first in.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct InitiativeStats {
    pub battles: u64,
    pub a_wins: u64,
    pub b_wins: u64,
    pub escapes: u64,
    /// Disengaged and unfinished battles together (neither won, neither left).
    pub draws: u64,
    pub disengaged: u64,
    pub unfinished: u64,
}

/// How many battles ended each way, over both sides (`destroyed + captured` are the decided
/// battles; the five add up to the battles).
#[derive(Debug, Clone, Copy, Serialize, PartialEq, Default)]
pub(crate) struct Outcomes {
    pub destroyed: u64,
    pub captured: u64,
    /// Escaped by warp.
    pub escaped: u64,
    /// Contact lost (out of sensor range, neither closing, for the ruleset's turns).
    pub disengaged: u64,
    /// Still running at the turn limit (a safety cap).
    pub unfinished: u64,
}

impl Outcomes {
    /// The count of one kind.
    pub(crate) fn of(&self, kind: OutcomeKind) -> u64 {
        match kind {
            OutcomeKind::Destroyed => self.destroyed,
            OutcomeKind::Captured => self.captured,
            OutcomeKind::Escaped => self.escaped,
            OutcomeKind::Disengaged => self.disengaged,
            OutcomeKind::Unfinished => self.unfinished,
        }
    }

    pub(crate) fn total(&self) -> u64 {
        OutcomeKind::ALL.iter().map(|k| self.of(*k)).sum()
    }

    /// Battles a side won (a ship destroyed or captured).
    pub(crate) fn decided(&self) -> u64 {
        self.destroyed + self.captured
    }

    /// One kind's share of all the battles (0 of none).
    pub(crate) fn share(&self, kind: OutcomeKind) -> f64 {
        self.of(kind) as f64 / self.total().max(1) as f64
    }
}

/// Two runs' outcomes together (a report's sum over cells, matches or return matches).
impl std::ops::Add for Outcomes {
    type Output = Outcomes;

    fn add(self, o: Outcomes) -> Outcomes {
        Outcomes {
            destroyed: self.destroyed + o.destroyed,
            captured: self.captured + o.captured,
            escaped: self.escaped + o.escaped,
            disengaged: self.disengaged + o.disengaged,
            unfinished: self.unfinished + o.unfinished,
        }
    }
}

/// Results by the side that moved first (R9).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct ByInitiative {
    pub a_first: InitiativeStats,
    pub b_first: InitiativeStats,
}

/// Battles ending on each turn, by outcome.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct TurnCounts {
    pub turn: u32,
    pub a_wins: u64,
    pub b_wins: u64,
    pub escapes: u64,
    /// Disengaged and unfinished battles together.
    pub draws: u64,
    pub disengaged: u64,
    pub unfinished: u64,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SimReport {
    pub ruleset: String,
    pub battles: u64,
    pub seed: u64,
    pub a: SideStats,
    pub b: SideStats,
    /// Battles neither side won nor left: `disengaged + unfinished`.
    pub draws: u64,
    pub escapes: u64,
    pub captures: u64,
    /// Battles that ended with contact lost.
    pub disengaged: u64,
    /// Battles still running at the turn limit (a safety cap).
    pub unfinished: u64,
    /// Every battle by how it ended.
    pub(crate) outcomes: Outcomes,
    pub mean_turns: f64,
    pub turn_limit: u32,
    /// Who moved first: `a`, `b` or `alternate`.
    pub(crate) first: First,
    /// Mean distance between the ships over every turn of every battle.
    pub mean_distance: f64,
    /// What the battles still running at the turn limit (unfinished) ended in.
    pub(crate) limit_states: LimitStates,
    pub(crate) by_initiative: ByInitiative,
    /// Battles ending on each turn some battle ended on (turns with none are left out).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub(crate) by_turn: Vec<TurnCounts>,
}

/// The integer sums of a run of battles of one matchup, and what they were of: the one thing
/// simulations add up. The sim reduces its batches into one; the lab runs batches as separate
/// simulations and merges their tallies the same way, then builds one report from the sum, so
/// rates and intervals come from whole counts whatever the batching.
#[derive(Debug, Clone)]
pub(crate) struct Tally {
    matchup: Matchup,
    counts: Counts,
}

/// What a tally's battles were (the same for every batch of one matchup).
#[derive(Debug, Clone, PartialEq)]
struct Matchup {
    ruleset: String,
    names: [String; 2],
    turn_limit: u32,
    first: First,
}

/// The sums themselves (order-independent, so threads cannot change them).
#[derive(Debug, Clone, Default)]
struct Counts {
    battles: u64,
    wins: [u64; 2],
    destroyed: [u64; 2],
    captured: [u64; 2],
    escaped: [u64; 2],
    disengaged: u64,
    unfinished: u64,
    turns: u64,
    /// [a wins, b wins, escapes, disengaged, unfinished] by turn.
    by_turn: Vec<[u64; COLUMNS]>,
    /// [a wins, b wins, escapes, disengaged, unfinished] by the side that moved first.
    by_first: [[u64; COLUMNS]; 2],
    cloaked_turns: [u64; 2],
    side_turns: [u64; 2],
    shots: [u64; 2],
    /// Distance summed over side-turns, and the side-turns counted: all battles, then the
    /// unfinished ones.
    distance: [u64; 2],
    distance_samples: [u64; 2],
    /// Unfinished battles by end state: [one crippled, out of range, out of torpedoes, both fighting].
    limit_states: [u64; 4],
}

/// Outcome columns of `by_turn` and `by_first`.
const COLUMNS: usize = 5;

fn add<const N: usize>(a: &mut [u64; N], b: &[u64; N]) {
    for (x, y) in a.iter_mut().zip(b) {
        *x += y;
    }
}

impl Counts {
    fn new(limit: u32) -> Counts {
        Counts {
            by_turn: vec![[0; COLUMNS]; limit as usize + 1],
            ..Counts::default()
        }
    }

    fn merge(mut self, o: Counts) -> Counts {
        self.battles += o.battles;
        add(&mut self.wins, &o.wins);
        add(&mut self.destroyed, &o.destroyed);
        add(&mut self.captured, &o.captured);
        add(&mut self.escaped, &o.escaped);
        self.disengaged += o.disengaged;
        self.unfinished += o.unfinished;
        self.turns += o.turns;
        for i in 0..2 {
            add(&mut self.by_first[i], &o.by_first[i]);
        }
        add(&mut self.cloaked_turns, &o.cloaked_turns);
        add(&mut self.side_turns, &o.side_turns);
        add(&mut self.shots, &o.shots);
        add(&mut self.distance, &o.distance);
        add(&mut self.distance_samples, &o.distance_samples);
        add(&mut self.limit_states, &o.limit_states);
        if self.by_turn.len() < o.by_turn.len() {
            self.by_turn.resize(o.by_turn.len(), [0; COLUMNS]);
        }
        for (a, b) in self.by_turn.iter_mut().zip(&o.by_turn) {
            add(a, b);
        }
        self
    }
}

impl Tally {
    /// Battles counted.
    pub(crate) fn battles(&self) -> u64 {
        self.counts.battles
    }

    /// Wins of side a and side b.
    pub(crate) fn wins(&self) -> [u64; 2] {
        self.counts.wins
    }

    /// The sum of two tallies of the same matchup (batches of one run; `self`'s description
    /// stays).
    pub(crate) fn merge(self, o: Tally) -> Tally {
        debug_assert_eq!(self.matchup, o.matchup, "tallies of different matchups");
        Tally {
            matchup: self.matchup,
            counts: self.counts.merge(o.counts),
        }
    }

    /// The report of these battles, as a run of seed `seed`.
    pub(crate) fn report(&self, seed: u64) -> SimReport {
        let (m, t) = (&self.matchup, &self.counts);
        let n = t.battles;
        let ratio = |x: u64, of: u64| if of == 0 { 0.0 } else { x as f64 / of as f64 };
        let initiative = |f: usize| {
            let c = t.by_first[f];
            InitiativeStats {
                battles: c.iter().sum(),
                a_wins: c[0],
                b_wins: c[1],
                escapes: c[2],
                draws: c[3] + c[4],
                disengaged: c[3],
                unfinished: c[4],
            }
        };
        let side = |i: usize| SideStats {
            name: m.names[i].clone(),
            wins: t.wins[i],
            win_rate: ratio(t.wins[i], n),
            ci95: wilson(t.wins[i], n),
            destroyed: t.destroyed[i],
            captured: t.captured[i],
            escaped: t.escaped[i],
            cloaked_share: ratio(t.cloaked_turns[i], t.side_turns[i]),
            shots_per_battle: ratio(t.shots[i], n),
        };
        SimReport {
            ruleset: m.ruleset.clone(),
            battles: n,
            seed,
            a: side(0),
            b: side(1),
            draws: t.disengaged + t.unfinished,
            escapes: t.escaped[0] + t.escaped[1],
            captures: t.captured[0] + t.captured[1],
            disengaged: t.disengaged,
            unfinished: t.unfinished,
            outcomes: Outcomes {
                destroyed: t.destroyed[0] + t.destroyed[1],
                captured: t.captured[0] + t.captured[1],
                escaped: t.escaped[0] + t.escaped[1],
                disengaged: t.disengaged,
                unfinished: t.unfinished,
            },
            mean_turns: ratio(t.turns, n),
            turn_limit: m.turn_limit,
            first: m.first,
            mean_distance: ratio(t.distance[0], t.distance_samples[0]),
            limit_states: LimitStates {
                battles: t.unfinished,
                one_crippled: t.limit_states[0],
                out_of_range: t.limit_states[1],
                out_of_torpedoes: t.limit_states[2],
                both_fighting: t.limit_states[3],
                mean_distance: ratio(t.distance[1], t.distance_samples[1]),
            },
            by_initiative: ByInitiative {
                a_first: initiative(0),
                b_first: initiative(1),
            },
            by_turn: t
                .by_turn
                .iter()
                .enumerate()
                .skip(1)
                // Only the turns some battle ended on: with a 500-turn cap most rows are empty,
                // and a script's map of the report must stay within its sandbox's size.
                .filter(|(_, c)| c.iter().any(|x| *x > 0))
                .map(|(turn, c)| TurnCounts {
                    turn: turn as u32,
                    a_wins: c[0],
                    b_wins: c[1],
                    escapes: c[2],
                    draws: c[3] + c[4],
                    disengaged: c[3],
                    unfinished: c[4],
                })
                .collect(),
        }
    }
}

/// Run the simulation with the default tactic on both sides.
pub fn simulate(rules: &Ruleset, opts: &SimOptions) -> Result<SimReport> {
    let t = DefaultTactic::of(rules)?;
    simulate_with(rules, opts, [&t, &t], &|_| {})
}

/// Run the simulation with given tactics; `progress` hears how many battles finished (in batches).
pub fn simulate_with(
    rules: &Ruleset,
    opts: &SimOptions,
    tactics: [&dyn Tactic; 2],
    progress: &(dyn Fn(u64) + Sync),
) -> Result<SimReport> {
    Ok(simulate_tally(rules, opts, tactics, progress)?.report(opts.seed))
}

/// The simulation's tally, to merge with others of the same matchup before reporting.
pub(crate) fn simulate_tally(
    rules: &Ruleset,
    opts: &SimOptions,
    tactics: [&dyn Tactic; 2],
    progress: &(dyn Fn(u64) + Sync),
) -> Result<Tally> {
    let ctx = Context::new(rules)?;
    let Resolved { classes, setup } = match &opts.scenario {
        Some(s) => s.resolve(rules, &ctx, None)?,
        None => Resolved {
            classes: [ctx.class(rules, &opts.a)?, ctx.class(rules, &opts.b)?],
            setup: Setup::standard(&ctx),
        },
    };
    let first = first_mover(opts);
    let threads = opts.check()?;
    check_battle_turns("", opts.battles, setup.turn_limit)?;
    // The caller's bound (a script's limits) goes with the work to every worker thread; it is
    // read here, on the caller's thread, before any pool takes the work.
    let bound = crate::stop::current();
    let run = || {
        run_battles(
            &ctx,
            [&classes[0], &classes[1]],
            tactics,
            (setup, first),
            (opts.battles, opts.seed),
            bound.clone(),
            progress,
        )
    };
    let counts = match threads {
        Some(n) => rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build()
            .map_err(|e| Error::msg(format!("cannot start {n} threads: {e}")))?
            .install(run),
        None => run(),
    };
    // A bound the caller set (a script's time or memory limit) ended the battles early.
    crate::stop::check()?;
    Ok(Tally {
        matchup: Matchup {
            ruleset: ctx.ruleset.clone(),
            names: [classes[0].name.clone(), classes[1].name.clone()],
            turn_limit: setup.turn_limit,
            first,
        },
        counts,
    })
}

/// Who moves first in `opts`' battles: as asked; else a scenario's `first`; else alternate.
pub(crate) fn first_mover(opts: &SimOptions) -> First {
    match (opts.first, &opts.scenario) {
        (Some(f), _) => f,
        (None, Some(s)) => match s.first.as_deref().and_then(Side::from_letter) {
            Some(Side::A) => First::A,
            Some(Side::B) => First::B,
            None => First::Alternate,
        },
        (None, None) => First::Alternate,
    }
}

/// Whether a ship can still hurt its enemy: phasers (with energy for a die) or a torpedo.
fn can_fight(ctx: &Context, class: &ShipClass, ship: &ShipState) -> bool {
    let sensors = ship.level(class, Loc::Sensors) < Condition::BadlyDamaged;
    let energy = ship.battery > 0
        || ship.level(class, Loc::Generator) < Condition::BadlyDamaged
        || !ship.emergency_burnt;
    let phasers = class.phaser_dice > 0
        && ship.level(class, Loc::Phasers) < Condition::BadlyDamaged
        && energy
        && ctx.energy.phaser_die <= class.generator.max(ctx.emergency.energy);
    let torpedoes =
        ship.torpedoes > 0 && ship.level(class, Loc::Torpedoes) < Condition::BadlyDamaged;
    sensors && (phasers || torpedoes)
}

/// The state a battle still running at the turn limit ended in: an index into `Counts::limit_states`.
fn limit_state(ctx: &Context, classes: [&ShipClass; 2], ships: &[ShipState; 2]) -> usize {
    if (0..2).any(|i| !can_fight(ctx, classes[i], &ships[i])) {
        0
    } else if ships[0].pos.distance(ships[1].pos) > ctx.sensor_range {
        1
    } else if ships.iter().all(|s| s.torpedoes == 0) {
        2
    } else {
        3
    }
}

const BATCH: u64 = 512;

fn run_battles(
    ctx: &Context,
    classes: [&ShipClass; 2],
    tactics: [&dyn Tactic; 2],
    (setup, first): (Setup, First),
    (n, seed): (u64, u64),
    bound: Option<std::sync::Arc<crate::stop::Bound>>,
    progress: &(dyn Fn(u64) + Sync),
) -> Counts {
    let batches = n.div_ceil(BATCH);
    (0..batches)
        .into_par_iter()
        .map(|b| {
            crate::stop::enter(bound.clone(), || {
                let mut t = Counts::new(setup.turn_limit);
                let end = ((b + 1) * BATCH).min(n);
                for i in b * BATCH..end {
                    if crate::stop::reason().is_some() || tactics.iter().any(|t| t.failed()) {
                        break; // the caller reports it (`simulate_with` checks again)
                    }
                    let mover = first.in_battle(i);
                    let mut battle = Battle::new(
                        ctx,
                        classes,
                        tactics,
                        setup.with_first(mover),
                        Pcg::new(battle_seed(seed, i)),
                        Silent,
                    );
                    let o = battle.play();
                    t.battles += 1;
                    t.turns += o.turns as u64;
                    let turn = (o.turns as usize).min(t.by_turn.len() - 1);
                    let column = match (o.kind, o.side) {
                        (OutcomeKind::Disengaged, _) => {
                            t.disengaged += 1;
                            3
                        }
                        (OutcomeKind::Unfinished, _) | (_, None) => {
                            t.unfinished += 1;
                            let state = limit_state(ctx, classes, &battle.ships);
                            t.limit_states[state] += 1;
                            t.distance[1] += battle.tallies.distance_sum;
                            t.distance_samples[1] += battle.tallies.distance_samples as u64;
                            4
                        }
                        (OutcomeKind::Escaped, Some(s)) => {
                            t.escaped[s as usize] += 1;
                            2
                        }
                        (kind, Some(s)) => {
                            let s = s as usize;
                            if kind == OutcomeKind::Destroyed {
                                t.destroyed[s] += 1;
                            } else {
                                t.captured[s] += 1;
                            }
                            t.wins[1 - s] += 1;
                            1 - s
                        }
                    };
                    t.by_turn[turn][column] += 1;
                    t.by_first[mover.index()][column] += 1;
                    let bt = &battle.tallies;
                    for k in 0..2 {
                        t.cloaked_turns[k] += bt.cloaked_turns[k] as u64;
                        t.side_turns[k] += bt.side_turns[k] as u64;
                        t.shots[k] += bt.shots[k] as u64;
                    }
                    t.distance[0] += bt.distance_sum;
                    t.distance_samples[0] += bt.distance_samples as u64;
                }
                progress(end - b * BATCH);
                t
            })
        })
        .reduce(|| Counts::new(setup.turn_limit), Counts::merge)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn battles_times_turns_is_bounded_as_a_product() {
        // Each count alone is within its cap; their product is what is bounded.
        assert!(check_battle_turns("", 240_000, 500).is_ok());
        assert!(check_battle_turns("", 150_000, 1000).is_ok());
        let e = check_battle_turns("", 150_001, 1000)
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "150001 battles of up to 1000 turns is 150001000 turns, more than one run plays \
             (150000000, battles × turn limit): fewer battles or a lower turn_limit"
        );
        // No overflow on absurd counts.
        assert!(check_battle_turns("", u64::MAX, u32::MAX).is_err());
    }

    #[test]
    fn the_turn_limit_is_the_scenarios_else_the_rulesets() {
        let rules = crate::rules::load::load("startrek").unwrap();
        let mut opts = SimOptions::new("UFP frigate", "Transport", 2_000_000, 1);
        assert_eq!(opts.turn_limit(&rules), 500);
        let e = simulate(&rules, &opts).unwrap_err().to_string();
        assert!(
            e.contains("is 1000000000 turns, more than one run plays"),
            "{e}"
        );
        let doc = crate::rules::load::parse_text(
            "s.yaml",
            "a: {ship: UFP frigate}\nb: {ship: Transport}\nturn_limit: 7\n",
            crate::io::Format::Yaml,
        )
        .unwrap();
        opts.scenario = Some(crate::combat::scenario::Scenario::from_doc(&doc).unwrap());
        assert_eq!(opts.turn_limit(&rules), 7);
    }
}
