//! One battle from a seed, with its events when asked, and its narration in plain English.
use super::context::{Context, Loc};
use super::default_tactic::DefaultTactic;
use super::events::{Event, Maneuver, Recorder, Silent, TransportResult};
use super::hex::FACE_NAMES;
use super::roller::Pcg;
use super::ship::{Condition, ShipClass, ShipState};
use super::skill::{Level, Roll};
use super::tactics::Tactic;
use super::turn::{Battle, Outcome, OutcomeKind, Setup};
use crate::error::Result;
use crate::rules::Ruleset;
use indexmap::IndexMap;
use serde::Serialize;

/// A ship at the end of a battle.
#[derive(Debug, Clone, Serialize)]
pub struct ShipSummary {
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
}

impl ShipSummary {
    pub fn new(class: &ShipClass, s: &ShipState) -> ShipSummary {
        let mut shields = [0; 6];
        for (rel, v) in shields.iter_mut().enumerate() {
            *v = s.shields[(rel + s.facing as usize) % 6];
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
        }
    }
}

/// One battle's result.
#[derive(Debug, Clone, Serialize)]
pub struct DuelReport {
    pub ruleset: String,
    pub seed: u64,
    pub a: String,
    pub b: String,
    pub outcome: OutcomeKind,
    /// The ship destroyed, captured or escaped.
    pub ship: Option<String>,
    pub winner: Option<String>,
    pub turns: u32,
    pub ships: [ShipSummary; 2],
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub events: Vec<Event>,
}

/// One battle between two ships of a ruleset, default tactics, the standard start.
pub fn duel(rules: &Ruleset, a: &str, b: &str, seed: u64, narrate: bool) -> Result<DuelReport> {
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
pub fn duel_with(
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
        winner: name(o.winner()),
        turns: o.turns,
        ships: [
            ShipSummary::new(classes[0], &ships[0]),
            ShipSummary::new(classes[1], &ships[1]),
        ],
        events,
    }
}

fn roll_text(r: &Roll) -> String {
    let level = match r.level {
        Level::Failure => "failure",
        Level::Success => "success",
        Level::Special => "special success",
        Level::Critical => "critical success",
    };
    format!(
        "{} roll {} vs {} ({level})",
        r.skill.name().replace('_', " "),
        r.roll,
        r.target.max(0)
    )
}

/// The battle in plain English, turn by turn.
pub fn narrate(report: &DuelReport) -> String {
    let names = [report.a.as_str(), report.b.as_str()];
    let n = |s: &u8| names[*s as usize];
    let mut out = String::new();
    let mut line = |text: String| {
        out.push_str(&text);
        out.push('\n');
    };
    line(format!(
        "{} vs {} (ruleset {}, seed {})",
        report.a, report.b, report.ruleset, report.seed
    ));
    for e in &report.events {
        match e {
            Event::Turn { turn } => line(format!("\n== Turn {turn} ==")),
            Event::Activation {
                side,
                energy,
                battery,
            } => line(format!(
                "{}: {energy} energy this turn, {battery} in the battery.",
                n(side)
            )),
            Event::BridgeSwitching { side } => line(format!(
                "{}: the bridge is out; the crew spends the turn moving to the auxiliary bridge.",
                n(side)
            )),
            Event::EmergencyPower {
                side,
                roll,
                burnt,
                energy,
            } => line(format!(
                "{}: emergency power, {} — {}",
                n(side),
                roll_text(roll),
                if *burnt {
                    "it burns out".to_string()
                } else {
                    format!("{energy} energy")
                }
            )),
            Event::ShieldsRaised { side, energy } => {
                line(format!("{}: shields up ({energy} energy).", n(side)))
            }
            Event::Cloak { side, on } => line(format!(
                "{}: cloak {}.",
                n(side),
                if *on { "on" } else { "off" }
            )),
            Event::Sensors {
                side,
                roll,
                enemy_cloaked,
                detected,
            } => line(format!(
                "{}: sensors, {}{}.",
                n(side),
                roll_text(roll),
                match (enemy_cloaked, detected) {
                    (true, true) => " — the cloaked enemy is found",
                    (true, false) => " — the cloaked enemy stays hidden",
                    _ => "",
                }
            )),
            Event::Inertia { side, to, facing } => line(format!(
                "{}: inertia carries it to ({}, {}) facing {}.",
                n(side),
                to.q,
                to.r,
                facing
            )),
            Event::Maneuver {
                side,
                maneuver,
                energy,
                roll,
                done,
                to,
                facing,
            } => {
                let what = match maneuver {
                    Maneuver::Forward => "ahead one hex",
                    Maneuver::Back => "back one hex",
                    Maneuver::TurnLeft => "turns left",
                    Maneuver::TurnRight => "turns right",
                };
                let how = match roll {
                    Some(r) => format!("{energy} energy, {}", roll_text(r)),
                    None => "free turn".to_string(),
                };
                line(format!(
                    "{}: {what} ({how}){}; now at ({}, {}) facing {facing}.",
                    n(side),
                    if *done { "" } else { " — the maneuver fails" },
                    to.q,
                    to.r
                ))
            }
            Event::Overspeed {
                side,
                roll,
                engine_damage,
            } => line(format!(
                "{}: over maximum speed, {}{}",
                n(side),
                roll_text(roll),
                engine_damage
                    .map(|d| format!(" — the engines take {d}"))
                    .unwrap_or_default()
            )),
            Event::Phasers {
                side,
                dice,
                range,
                roll,
                damage,
            } => line(format!(
                "{}: fires {dice} phaser dice at range {range}, {} — {}",
                n(side),
                roll_text(roll),
                match damage {
                    Some(d) => format!("hit for {d}"),
                    None => "miss".to_string(),
                }
            )),
            Event::Torpedo {
                side,
                kind,
                range,
                launched,
                damage,
            } => line(format!(
                "{}: {kind} torpedo at range {range} — {}",
                n(side),
                match (launched, damage) {
                    (false, _) => "the damaged launcher fails to fire it".to_string(),
                    (true, Some(d)) => format!("it strikes for {d}"),
                    (true, None) => "dodged".to_string(),
                }
            )),
            Event::Dodge { side, roll, dodged } => line(format!(
                "{}: evasive, {}{}",
                n(side),
                roll_text(roll),
                if *dodged { " — dodged!" } else { "" }
            )),
            Event::Hit {
                side,
                face,
                damage,
                shield_before,
                shield_after,
                to_hull,
                hull_roll,
                internal,
            } => line(format!(
                "{}: {damage} on the {} shield ({shield_before} → {shield_after}); {to_hull} \
                 reach the hull{}.",
                n(side),
                FACE_NAMES[*face as usize],
                match hull_roll {
                    Some(h) => format!(", hull roll {h}, {internal} inside"),
                    None if *to_hull > 0 =>
                        format!(", the broken hull stops nothing: {internal} inside"),
                    None => String::new(),
                }
            )),
            Event::Location {
                side,
                location,
                roll,
                points,
                damage,
            } => line(format!(
                "{}: {points} to the {}{} (now {damage}).",
                n(side),
                location.words(),
                roll.map(|r| format!(" (location roll {r})"))
                    .unwrap_or_default()
            )),
            Event::Condition {
                side,
                location,
                condition,
                casualties,
            } => line(format!(
                "{}: the {} {} {}{}.",
                n(side),
                location.words(),
                if location.is_plural() { "are" } else { "is" },
                match condition {
                    Condition::Damaged => "damaged",
                    Condition::BadlyDamaged => "badly damaged",
                    Condition::Light => "lightly damaged",
                },
                match casualties {
                    0 => String::new(),
                    1 => ", 1 casualty".to_string(),
                    c => format!(", {c} casualties"),
                }
            )),
            Event::Decompression {
                side,
                roll,
                extra_casualties,
            } => line(format!(
                "{}: decompression, {}{}",
                n(side),
                roll_text(roll),
                match extra_casualties {
                    0 => String::new(),
                    1 => " — 1 more casualty".to_string(),
                    c => format!(" — {c} more casualties"),
                }
            )),
            Event::Excess { side, from, points } => line(format!(
                "{}: {points} excess from the {} go to the hull.",
                n(side),
                from.words()
            )),
            Event::Destroyed { side, location } => line(format!(
                "{}: the {} {} — the ship is destroyed!",
                n(side),
                location.words(),
                match location {
                    Loc::Engines => "explode",
                    l if l.is_plural() => "break",
                    _ => "breaks",
                }
            )),
            Event::Transport { side, roll, result } => line(format!(
                "{}: transports a security team, {} — {}",
                n(side),
                roll_text(roll),
                match result {
                    TransportResult::Arrived => "it arrives",
                    TransportResult::Failed => "it stays aboard",
                    TransportResult::TeamKilled => "the team is lost",
                }
            )),
            Event::Boarders {
                side,
                attack,
                dealt,
                taken,
                absorbed,
                ..
            } => line(format!(
                "{}: boarders attack the {attack}: they deal {dealt} ({absorbed} taken by the \
                 defenders) and take {taken}.",
                n(side),
            )),
            Event::Search { side, roll, found } => line(format!(
                "{}: searches for intruders, {}{}",
                n(side),
                roll_text(roll),
                if *found { " — found" } else { "" }
            )),
            Event::Captured { side } => line(format!(
                "{}: the defenders are spent — the ship is captured!",
                n(side)
            )),
            Event::ShieldTransfer {
                side,
                from,
                to,
                roll,
                value,
            } => line(format!(
                "{}: shield point from the {} face to the {} face, {} (now {value}).",
                n(side),
                FACE_NAMES[*from as usize],
                FACE_NAMES[*to as usize],
                roll_text(roll)
            )),
            Event::ShieldReinforce {
                side,
                face,
                energy,
                roll,
                value,
            } => line(format!(
                "{}: {energy} energy into the {} face, {} (now {value}).",
                n(side),
                FACE_NAMES[*face as usize],
                roll_text(roll)
            )),
            Event::Repair {
                side,
                location,
                energy,
                roll,
                needs_special,
                repaired,
                damage,
            } => line(format!(
                "{}: repairs the {} ({energy} energy{}), {} — {repaired} repaired, {damage} left.",
                n(side),
                location.words(),
                if *needs_special {
                    "; badly damaged, needs a special"
                } else {
                    ""
                },
                roll_text(roll)
            )),
            Event::EmergencyRepair {
                side,
                roll,
                repaired,
            } => line(format!(
                "{}: repairs emergency power, {}{}",
                n(side),
                roll_text(roll),
                if *repaired { " — working again" } else { "" }
            )),
            Event::FirstAid {
                side,
                roll,
                treated,
                casualties,
            } => line(format!(
                "{}: first aid, {} — {treated} treated, {casualties} still on the casualty list.",
                n(side),
                roll_text(roll)
            )),
            Event::Warp {
                side,
                penalty,
                roll,
                effect,
                hull_damage,
                engine_damage,
            } => line(format!(
                "{}: warp jump at -{penalty}, {} — {}{}",
                n(side),
                roll_text(roll),
                effect.clone().unwrap_or_else(|| "a clean jump".to_string()),
                if hull_damage + engine_damage > 0 {
                    format!(" (hull {hull_damage}, engines {engine_damage})")
                } else {
                    String::new()
                }
            )),
            Event::Deactivation {
                side,
                charged,
                decloaked,
                lowered_shields,
            } => {
                let mut parts = Vec::new();
                if *charged > 0 {
                    parts.push(format!("{charged} into the battery"));
                }
                if *decloaked {
                    parts.push("decloaks".to_string());
                }
                if *lowered_shields {
                    parts.push("lowers shields".to_string());
                }
                if !parts.is_empty() {
                    line(format!("{}: {}.", n(side), parts.join(", ")));
                }
            }
            Event::Refused {
                side,
                action,
                reason,
            } => line(format!("{}: cannot {action}: {reason}.", n(side))),
        }
    }
    line(String::new());
    line(match (&report.outcome, &report.ship) {
        (OutcomeKind::Destroyed, Some(s)) => format!(
            "{s} is destroyed on turn {}. {} wins.",
            report.turns,
            report.winner.clone().unwrap_or_default()
        ),
        (OutcomeKind::Captured, Some(s)) => format!(
            "{s} is captured on turn {}. {} wins.",
            report.turns,
            report.winner.clone().unwrap_or_default()
        ),
        (OutcomeKind::Escaped, Some(s)) => format!("{s} escapes to warp on turn {}.", report.turns),
        _ => format!("The turn limit ({}) is reached: a draw.", report.turns),
    });
    out
}
