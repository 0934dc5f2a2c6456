//! A battle's events in plain English, turn by turn.
use super::context::Loc;
use super::duel::DuelReport;
use super::events::{Event, Maneuver, TransportResult};
use super::hex::{faces_toward, relative_face, Hex, FACE_NAMES};
use super::ship::Condition;
use super::side::{labels, Side};
use super::skill::{Level, Roll};
use super::turn::OutcomeKind;

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

/// The repair teams' attempts on one location in one turn, as one line: the rolls against
/// what they need (a special for a badly damaged location), and what came of them.
fn repair_line(ship: &str, attempts: &[Event]) -> String {
    let mut rolls = Vec::new();
    let (mut energy, mut repaired, mut left, mut what) = (0, 0, 0, String::new());
    for e in attempts {
        if let Event::Repair {
            location,
            energy: cost,
            roll,
            needs_special,
            needs,
            repaired: points,
            damage,
            ..
        } = e
        {
            if what.is_empty() {
                let skill = roll.skill.name().replace('_', " ");
                let need = match (needs_special, needs) {
                    (_, 0) => "nothing can succeed".to_string(),
                    (true, n) => format!("badly damaged: needs a special, {n} or less"),
                    (false, n) => format!("{n} or less"),
                };
                what = format!("the {} ({skill}; {need})", location.words());
            }
            energy += cost;
            repaired += points;
            left = *damage;
            rolls.push(roll.roll.to_string());
        }
    }
    let teams = match attempts.len() {
        1 => "a team repairs".to_string(),
        k => format!("{k} teams repair"),
    };
    format!(
        "{ship}: {teams} {what}, {energy} energy, {} {} — {repaired} repaired, {left} left.",
        if rolls.len() == 1 { "roll" } else { "rolls" },
        rolls.join(", ")
    )
}

/// Where `to` lies seen from a ship at `from` facing `facing`, in its own words.
pub(crate) fn bearing(from: Hex, facing: u8, to: Hex) -> &'static str {
    const FACES: [&str; 6] = [
        "ahead",
        "ahead-left",
        "behind-left",
        "behind",
        "behind-right",
        "ahead-right",
    ];
    // On a vertex, between two faces (the second one turn to the left of the first).
    const VERTICES: [&str; 6] = [
        "ahead, a little left",
        "to the left",
        "behind, a little left",
        "behind, a little right",
        "to the right",
        "ahead, a little right",
    ];
    if from == to {
        return "in the same hex";
    }
    let rel = |f: u8| relative_face(f, facing);
    match faces_toward(from, to) {
        (a, None) => FACES[rel(a) as usize],
        (a, Some(b)) => {
            let (a, b) = (rel(a), rel(b));
            // The vertex between faces k and k+1 (mod 6) is VERTICES[k].
            let k = if (a + 1) % 6 == b { a } else { b };
            VERTICES[k as usize]
        }
    }
}

/// "the enemy is 4 hexes ahead-left" from ship `me`'s bridge.
fn where_enemy(pos: &[Hex; 2], face: &[u8; 2], me: usize) -> String {
    let d = pos[0].distance(pos[1]);
    match d {
        0 => "the enemy is in the same hex".to_string(),
        1 => format!(
            "the enemy is 1 hex {}",
            bearing(pos[me], face[me], pos[1 - me])
        ),
        d => format!(
            "the enemy is {d} hexes {}",
            bearing(pos[me], face[me], pos[1 - me])
        ),
    }
}

/// The distance between the ships and where each lies seen from the other.
fn positions_line(names: &[String; 2], distance: u32, at: &[Hex; 2], facings: &[u8; 2]) -> String {
    let hexes = if distance == 1 { "hex" } else { "hexes" };
    if distance == 0 {
        return "The ships share one hex.".to_string();
    }
    let at = |i: usize| at[i];
    format!(
        "{distance} {hexes} apart: {} is {} of {}; {} is {} of {}.",
        names[1],
        bearing(at(0), facings[0], at(1)),
        names[0],
        names[0],
        bearing(at(1), facings[1], at(0)),
        names[1],
    )
}

/// The battle in plain English, turn by turn.
pub(crate) fn narrate(report: &DuelReport) -> String {
    let names = labels(&report.a, &report.b);
    let of = |s: Side| names[s.index()].as_str();
    let n = |s: &u8| of(Side::from_index(*s as usize));
    let mut out = String::new();
    let mut line = |text: String| {
        out.push_str(&text);
        out.push('\n');
    };
    line(format!(
        "{} vs {} (ruleset {}, seed {})",
        names[0], names[1], report.ruleset, report.seed
    ));
    let events = &report.events;
    // Where the ships are and face, followed through the turn's moves.
    let (mut pos, mut face) = ([Hex::new(0, 0); 2], [0u8; 2]);
    let mut next = 0;
    while next < events.len() {
        let e = &events[next];
        next += 1;
        if let Event::Repair {
            side,
            location,
            needs,
            ..
        } = e
        {
            // The teams working on one location in a turn, against the same need, make one
            // line, not one each.
            let mut end = next;
            while matches!(&events.get(end), Some(Event::Repair { side: s, location: l, needs: k, .. })
                if s == side && l == location && k == needs)
            {
                end += 1;
            }
            line(repair_line(n(side), &events[next - 1..end]));
            next = end;
            continue;
        }
        match e {
            Event::Turn {
                turn,
                distance,
                positions,
                facings,
            } => {
                for i in 0..2 {
                    pos[i] = Hex::new(positions[i][0], positions[i][1]);
                }
                face = *facings;
                line(format!("\n== Turn {turn} =="));
                line(positions_line(&names, *distance, &pos, facings));
            }
            Event::Disengaged { turns, distance } => line(format!(
                "The ships have been out of each other's sensor range for {turns} turns, neither \
                 closing ({distance} hexes apart): contact is lost."
            )),
            Event::SensorsOutOfRange { side, distance } => line(format!(
                "{}: no sensors roll — the enemy is {distance} hexes away, beyond the \
                 short-range sensors.",
                n(side)
            )),
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
                special_needs,
            } => line(format!(
                "{}: sensors, {}{}.",
                n(side),
                roll_text(roll),
                match (enemy_cloaked, detected, special_needs) {
                    (true, true, _) => " — a special: the cloaked enemy is found".to_string(),
                    (true, false, Some(needs)) => format!(
                        " — finding a cloaked ship needs a special, {needs} or less: it stays \
                         hidden"
                    ),
                    (true, false, None) => " — the cloaked enemy stays hidden".to_string(),
                    _ => String::new(),
                }
            )),
            Event::Inertia { side, to, facing } => {
                let me = *side as usize;
                (pos[me], face[me]) = (*to, *facing);
                line(format!(
                    "{}: inertia carries it one hex forward; {}.",
                    n(side),
                    where_enemy(&pos, &face, me)
                ))
            }
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
                let me = *side as usize;
                (pos[me], face[me]) = (*to, *facing);
                line(format!(
                    "{}: {what} ({how}){}; {}.",
                    n(side),
                    if *done { "" } else { " — the maneuver fails" },
                    where_enemy(&pos, &face, me)
                ))
            }
            Event::Overspeed {
                side,
                points_over,
                roll,
                engine_damage,
            } => line(format!(
                "{}: {} over maximum speed, {}{}",
                n(side),
                match points_over {
                    1 => "1 point".to_string(),
                    n => format!("{n} points"),
                },
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
            Event::TorpedoAway { side, kind, range } => line(format!(
                "{}: launches a {kind} torpedo at range {range}.",
                n(side)
            )),
            Event::Torpedo {
                side,
                kind,
                range,
                launched,
                damage,
            } => line(match (launched, damage) {
                (false, _) => format!(
                    "{}: {kind} torpedo at range {range} — the damaged launcher fails to fire it.",
                    n(side)
                ),
                (true, Some(d)) => format!("{}: the {kind} torpedo strikes for {d}.", n(side)),
                (true, None) => format!("{}: the {kind} torpedo is dodged.", n(side)),
            }),
            Event::Dodge {
                side,
                roll,
                needs,
                dodged,
            } => line(format!(
                "{}: evasive, {} roll {} (dodges on {}) — {}",
                n(side),
                roll.skill.name(),
                roll.roll,
                if *needs == 0 {
                    "nothing".to_string()
                } else {
                    format!("{needs} or less")
                },
                if *dodged { "dodged!" } else { "not enough" }
            )),
            Event::Hit {
                side,
                face,
                shields_up,
                damage,
                shield_before,
                shield_after,
                to_hull,
                hull_roll,
                internal,
            } => line(format!(
                "{}: {damage} on the {} {}; {to_hull} reach the hull{}.",
                n(side),
                FACE_NAMES[*face as usize],
                match (shields_up, shield_before) {
                    (false, _) => "face, shields down".to_string(),
                    (true, 0) => "face, its shield down".to_string(),
                    (true, _) => format!("shield ({shield_before} → {shield_after})"),
                },
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
            Event::Transport {
                side,
                roll,
                result,
                people,
            } => line(format!(
                "{}: transports a security team ({people} people), {} — {}",
                n(side),
                roll_text(roll),
                match result {
                    TransportResult::Arrived => "it arrives".to_string(),
                    TransportResult::Failed => "it stays aboard".to_string(),
                    TransportResult::TeamKilled => format!("the team is lost, {people} dead"),
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
            Event::Repair { .. } => {} // told above, a location at a time
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
            Event::BatteryCharged {
                side,
                points,
                battery,
            } => line(format!(
                "{}: {points} into the battery (now {battery}).",
                n(side)
            )),
            Event::Deactivation {
                side,
                lost,
                decloaked,
                lowered_shields,
            } => {
                let mut parts = Vec::new();
                if *lost > 0 {
                    parts.push(format!("{lost} energy unspent, lost"));
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
    // The side the outcome names, and the other one.
    let ended = report.side.map(|s| (of(s), of(s.other())));
    line(match (&report.outcome, ended) {
        (OutcomeKind::Destroyed, Some((lost, won))) => {
            format!("{lost} is destroyed on turn {}. {won} wins.", report.turns)
        }
        (OutcomeKind::Captured, Some((lost, won))) => {
            format!("{lost} is captured on turn {}. {won} wins.", report.turns)
        }
        (OutcomeKind::Escaped, Some((gone, _))) => {
            format!("{gone} escapes to warp on turn {}.", report.turns)
        }
        (OutcomeKind::Disengaged, _) => format!(
            "The battle ends disengaged on turn {}: contact lost, no winner.",
            report.turns
        ),
        _ => format!(
            "The battle is unfinished at the turn limit ({}): no winner.",
            report.turns
        ),
    });
    out
}
