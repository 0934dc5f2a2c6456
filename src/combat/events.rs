//! What happens in a battle, as data. Narration is rendered from these events (duel.rs);
//! when nobody listens (`Silent`), no event is even built.
use super::context::Loc;
use super::hex::Hex;
use super::ship::Condition;
use super::skill::Roll;
use serde::Serialize;

/// Where events go. `ON` is a constant, so a silent battle compiles the logging away.
pub trait Log {
    const ON: bool;
    fn push(&mut self, event: Event);
}

/// No events (simulations).
pub struct Silent;

impl Log for Silent {
    const ON: bool = false;
    #[inline(always)]
    fn push(&mut self, _event: Event) {}
}

/// Keep every event (duels, tests).
#[derive(Default)]
pub(crate) struct Recorder(pub Vec<Event>);

impl Log for Recorder {
    const ON: bool = true;
    fn push(&mut self, event: Event) {
        self.0.push(event);
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Maneuver {
    Forward,
    Back,
    TurnLeft,
    TurnRight,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TransportResult {
    Arrived,
    Failed,
    TeamKilled,
}

/// One thing that happened; `side` is 0 for the first ship named, 1 for the second.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A turn begins: the distance between the ships, and where each is (axial coordinates)
    /// and faces (0-5), side a first.
    Turn {
        turn: u32,
        distance: u32,
        positions: [[i32; 2]; 2],
        facings: [u8; 2],
    },
    /// Contact lost: the ships out of sensor range, neither closing, for `turns` turns.
    Disengaged {
        turns: u32,
        distance: u32,
    },
    Activation {
        side: u8,
        energy: u32,
        battery: u32,
    },
    BridgeSwitching {
        side: u8,
    },
    EmergencyPower {
        side: u8,
        roll: Roll,
        burnt: bool,
        energy: u32,
    },
    ShieldsRaised {
        side: u8,
        energy: u32,
    },
    Cloak {
        side: u8,
        on: bool,
    },
    Sensors {
        side: u8,
        roll: Roll,
        enemy_cloaked: bool,
        detected: bool,
        /// Against a cloaked enemy: the highest roll that is a special success, which finding
        /// it takes (a plain success is not enough).
        #[serde(skip_serializing_if = "Option::is_none")]
        special_needs: Option<u32>,
    },
    /// No Sensors roll: the enemy is beyond the short-range sensors' reach.
    SensorsOutOfRange {
        side: u8,
        distance: u32,
    },
    Inertia {
        side: u8,
        to: Hex,
        facing: u8,
    },
    Maneuver {
        side: u8,
        maneuver: Maneuver,
        energy: u32,
        roll: Option<Roll>,
        done: bool,
        to: Hex,
        facing: u8,
    },
    Overspeed {
        side: u8,
        /// Energy points the turn's maneuvers went over maximum speed.
        points_over: u32,
        roll: Roll,
        engine_damage: Option<u32>,
    },
    Phasers {
        side: u8,
        dice: u32,
        range: u32,
        roll: Roll,
        damage: Option<u32>,
    },
    /// A torpedo leaves the launcher (its dodge rolls and its `Torpedo` result follow).
    TorpedoAway {
        side: u8,
        kind: String,
        range: u32,
    },
    Torpedo {
        side: u8,
        kind: String,
        range: u32,
        launched: bool,
        damage: Option<u32>,
    },
    Dodge {
        side: u8,
        roll: Roll,
        /// The highest roll that dodges (the special threshold).
        needs: u32,
        dodged: bool,
    },
    Hit {
        side: u8,
        face: u8,
        /// Whether the shields were up when the hit came.
        shields_up: bool,
        damage: u32,
        shield_before: u32,
        shield_after: u32,
        to_hull: u32,
        hull_roll: Option<u32>,
        internal: u32,
    },
    Location {
        side: u8,
        location: Loc,
        roll: Option<u32>,
        points: u32,
        damage: u32,
    },
    Condition {
        side: u8,
        location: Loc,
        condition: Condition,
        casualties: u32,
    },
    Decompression {
        side: u8,
        roll: Roll,
        extra_casualties: u32,
    },
    Excess {
        side: u8,
        from: Loc,
        points: u32,
    },
    Destroyed {
        side: u8,
        location: Loc,
    },
    Transport {
        side: u8,
        roll: Roll,
        result: TransportResult,
        /// People in the team (the ruleset's team size).
        people: u32,
    },
    Boarders {
        side: u8,
        attack: String,
        dealt: u32,
        taken: u32,
        absorbed: u32,
        location: Option<Loc>,
    },
    Search {
        side: u8,
        roll: Roll,
        found: bool,
    },
    Captured {
        side: u8,
    },
    ShieldTransfer {
        side: u8,
        from: u8,
        to: u8,
        roll: Roll,
        value: u32,
    },
    ShieldReinforce {
        side: u8,
        face: u8,
        energy: u32,
        roll: Roll,
        value: u32,
    },
    Repair {
        side: u8,
        location: Loc,
        energy: u32,
        roll: Roll,
        needs_special: bool,
        /// The highest roll that repairs anything (the special threshold when one is needed).
        needs: u32,
        repaired: u32,
        damage: u32,
    },
    EmergencyRepair {
        side: u8,
        roll: Roll,
        repaired: bool,
    },
    FirstAid {
        side: u8,
        roll: Roll,
        treated: u32,
        casualties: u32,
    },
    Warp {
        side: u8,
        penalty: u32,
        roll: Roll,
        effect: Option<String>,
        hull_damage: u32,
        engine_damage: u32,
    },
    BatteryCharged {
        side: u8,
        points: u32,
        battery: u32,
    },
    Deactivation {
        side: u8,
        /// This turn's energy left unspent, lost (R7).
        lost: u32,
        decloaked: bool,
        lowered_shields: bool,
    },
    Refused {
        side: u8,
        action: String,
        reason: &'static str,
    },
}
