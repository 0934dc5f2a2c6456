//! One battle from a seed, with its events when asked (narration.rs tells them in English).
use super::context::{Context, Loc};
#[cfg(test)]
use super::default_tactic::DefaultTactic;
use super::events::{Event, Recorder, Silent};
use super::roller::Pcg;
use super::ship::{Condition, ShipClass, ShipState};
use super::side::{Facing, Side};
use super::tactics::Tactic;
use super::turn::{Battle, Outcome, OutcomeKind, Setup};
#[cfg(test)]
use crate::error::Result;
#[cfg(test)]
use crate::rules::model::Ruleset;
use indexmap::IndexMap;
use serde::Serialize;

/// A ship at the end of a battle.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ShipSummary {
    pub name: String,
    pub position: [i32; 2],
    pub facing: u8,
    /// Shield faces from the bow round to port: front, front-left, rear-left, rear, rear-right,
    /// front-right.
    pub shields: [u32; 6],
    pub damage: IndexMap<&'static str, u32>,
    pub conditions: IndexMap<&'static str, Condition>,
    pub casualties: u32,
    pub casualties_total: u32,
    pub torpedoes_left: u32,
    pub teams_home: u32,
    pub teams_aboard_enemy: u32,
    pub teams_lost: u32,
    /// People lost with those teams (the ruleset's team size each).
    pub people_lost: u32,
}

impl ShipSummary {
    pub(crate) fn new(ctx: &Context, class: &ShipClass, s: &ShipState) -> ShipSummary {
        let mut shields = [0; 6];
        for (rel, v) in shields.iter_mut().enumerate() {
            let face = Facing::new(rel as u8).absolute_from(Facing::new(s.facing));
            *v = s.shields[face.index() as usize];
        }
        ShipSummary {
            name: class.name.clone(),
            position: [s.pos.q, s.pos.r],
            facing: s.facing,
            shields,
            damage: Loc::ALL
                .iter()
                .filter(|l| s.damage[**l as usize] > 0)
                .map(|l| (l.name(), s.damage[*l as usize]))
                .collect(),
            conditions: Loc::ALL
                .iter()
                .filter(|l| s.level(class, **l) > Condition::Light)
                .map(|l| (l.name(), s.level(class, *l)))
                .collect(),
            casualties: s.casualties,
            casualties_total: s.casualties_total,
            torpedoes_left: s.torpedoes,
            teams_home: s.home_teams.alive(),
            teams_aboard_enemy: s.boarders.alive(),
            teams_lost: s.teams_lost,
            people_lost: s.teams_lost * ctx.transport.team_size,
        }
    }
}

/// One battle's result.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct DuelReport {
    pub ruleset: String,
    pub seed: u64,
    pub a: String,
    pub b: String,
    pub outcome: OutcomeKind,
    /// The ship destroyed, captured or escaped, and its side (which tells the ships of a
    /// mirror match apart).
    pub ship: Option<String>,
    pub side: Option<Side>,
    pub winner: Option<String>,
    pub turns: u32,
    pub ships: [ShipSummary; 2],
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<Event>,
}

#[cfg(test)]
/// One battle between two ships of a ruleset, default tactics, the standard start.
pub(crate) fn duel(
    rules: &Ruleset,
    a: &str,
    b: &str,
    seed: u64,
    narrate: bool,
) -> Result<DuelReport> {
    let ctx = Context::new(rules)?;
    let classes = [ctx.class(rules, a)?, ctx.class(rules, b)?];
    let tactic = DefaultTactic::of(rules)?;
    Ok(duel_with(
        &ctx,
        [&classes[0], &classes[1]],
        [&tactic, &tactic],
        Setup::standard(&ctx),
        seed,
        narrate,
    ))
}

/// One battle with explicit classes, tactics and setup.
pub(crate) fn duel_with(
    ctx: &Context,
    classes: [&ShipClass; 2],
    tactics: [&dyn Tactic; 2],
    setup: Setup,
    seed: u64,
    narrate: bool,
) -> DuelReport {
    let (outcome, ships, events) = if narrate {
        let mut b = Battle::new(
            ctx,
            classes,
            tactics,
            setup,
            Pcg::new(seed),
            Recorder::default(),
        );
        let o = b.play();
        (o, b.ships, b.log.0)
    } else {
        let mut b = Battle::new(ctx, classes, tactics, setup, Pcg::new(seed), Silent);
        let o = b.play();
        (o, b.ships, Vec::new())
    };
    report(ctx, classes, seed, outcome, &ships, events)
}

fn report(
    ctx: &Context,
    classes: [&ShipClass; 2],
    seed: u64,
    o: Outcome,
    ships: &[ShipState; 2],
    events: Vec<Event>,
) -> DuelReport {
    let name = |s: Option<u8>| s.map(|s| classes[s as usize].name.clone());
    DuelReport {
        ruleset: ctx.ruleset.clone(),
        seed,
        a: classes[0].name.clone(),
        b: classes[1].name.clone(),
        outcome: o.kind,
        ship: name(o.side),
        side: o.side.map(|s| Side::from_index(s as usize)),
        winner: name(o.winner()),
        turns: o.turns,
        ships: [
            ShipSummary::new(ctx, classes[0], &ships[0]),
            ShipSummary::new(ctx, classes[1], &ships[1]),
        ],
        events,
    }
}
