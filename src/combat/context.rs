//! The combat rules resolved once per run: the ruleset's combat section and ship table in
//! compact, index-addressed form, so a battle reads numbers without lookups or allocation.
use super::ship::ShipClass;
use super::skill::{Skill, Thresholds, SKILL_COUNT};
use crate::error::{Conflict, Error, Result};
use crate::rules::combat::{
    CombatRules, EmergencyPower, EnergyCosts, Excess, LevelEffect, ManeuverRules, RepairRules,
    SecurityTeams, ShieldRules, SuccessLevels, TorpedoKind, TransportRules, WarpRules, LOCATIONS,
};
use crate::rules::model::Ruleset;
use serde::{Deserialize, Serialize};

/// The ten hit locations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Loc {
    Bridge,
    Transporter,
    Sensors,
    Phasers,
    Torpedoes,
    Generator,
    Engines,
    ShieldControl,
    Hangars,
    Hull,
}

pub(crate) const LOC_COUNT: usize = 10;

impl Loc {
    pub(crate) const ALL: [Loc; LOC_COUNT] = [
        Loc::Bridge,
        Loc::Transporter,
        Loc::Sensors,
        Loc::Phasers,
        Loc::Torpedoes,
        Loc::Generator,
        Loc::Engines,
        Loc::ShieldControl,
        Loc::Hangars,
        Loc::Hull,
    ];

    pub(crate) fn name(self) -> &'static str {
        LOCATIONS[self as usize]
    }

    /// Whether a repair here changes play: everywhere but the hangars, whose shuttles are out
    /// of scope (ruling H1, doc/combat-rulings.md). Their damage only passes its excess on
    /// to the hull, and a point repaired on the hull itself is worth more than one there.
    pub(crate) fn repair_plays(self) -> bool {
        self != Loc::Hangars
    }

    /// Words for narration ("shield control").
    pub(crate) fn words(self) -> &'static str {
        match self {
            Loc::ShieldControl => "shield control",
            other => other.name(),
        }
    }

    /// Whether narration says "are" of it (the sensors are damaged).
    pub(crate) fn is_plural(self) -> bool {
        matches!(
            self,
            Loc::Sensors | Loc::Phasers | Loc::Torpedoes | Loc::Engines | Loc::Hangars
        )
    }
}

/// A damage level's effect, with skills as a bit mask.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Effect {
    pub casualties: u32,
    pub halves: u16,
    pub failure_chance: u32,
    pub roll: Option<Skill>,
    pub extra_casualties: u32,
}

impl Effect {
    fn new(e: &LevelEffect) -> Effect {
        let mut halves = 0u16;
        for s in &e.halves {
            if let Some(k) = Skill::from_name(s) {
                halves |= 1 << k as u16;
            }
        }
        Effect {
            casualties: e.casualties,
            halves,
            failure_chance: e.failure_chance,
            roll: e.roll.as_deref().and_then(Skill::from_name),
            extra_casualties: e.extra_casualties,
        }
    }
}

#[derive(Debug, Clone, Copy)]
pub(crate) struct LocInfo {
    pub excess: Excess,
    pub repair: Skill,
    pub damaged: Effect,
    pub badly: Effect,
}

/// Most security teams a ship may carry (teams live in fixed arrays in the battle loop).
pub(crate) const MAX_TEAMS: usize = 32;

/// A damage distribution: the lowest damage, then the chance of each value from there.
pub(crate) type Distribution = (i64, Vec<f64>);

/// Everything a battle reads, resolved from one ruleset.
#[derive(Debug, Clone)]
pub struct Context {
    pub ruleset: String,
    pub(crate) thresholds: Thresholds,
    pub start_distance: u32,
    pub sensor_range: u32,
    pub turn_limit: u32,
    /// Consecutive turns out of sensor range, neither closing, that end a battle as
    /// disengaged (0: never).
    pub disengage_turns: u32,
    /// `location_by_roll[r]` is the location a D100 roll of r hits (index 0 unused).
    pub location_by_roll: Vec<Loc>,
    pub(crate) locations: [LocInfo; LOC_COUNT],
    pub(crate) energy: EnergyCosts,
    pub(crate) shields: ShieldRules,
    pub phaser_range_penalty: u32,
    pub(crate) torpedo_kinds: Vec<(String, TorpedoKind)>,
    /// By torpedo kind: its damage's distribution, worked out the first time it is asked for
    /// (`torpedo_damage`), so only the kinds of the ships in battle cost anything.
    torpedo_damage: Vec<std::sync::OnceLock<Option<Distribution>>>,
    pub(crate) maneuvers: ManeuverRules,
    pub(crate) emergency: EmergencyPower,
    pub(crate) warp: WarpRules,
    pub(crate) transport: TransportRules,
    pub(crate) security: SecurityTeams,
    pub(crate) repair: RepairRules,
    pub(crate) first_aid: SuccessLevels,
    pub bridge_switch_turns: u32,
    /// "At half" divides by this (after penalties).
    pub halving_divisor: u32,
    /// Torpedoes a ship may launch in one turn.
    pub torpedoes_per_turn: u32,
    /// Every ship of the ruleset, resolved (in ruleset order).
    pub ships: Vec<ShipClass>,
    /// For each skill, the locations (bit = `Loc as usize`) whose damaged and whose badly
    /// damaged effect halve it: `locations` turned around, so a skill check visits only those.
    pub halved_by: [[u16; 2]; SKILL_COUNT],
}

impl Context {
    /// Resolve a ruleset's combat section and ships. Ships missing combat stats are kept out
    /// of `ships`; asking for one by name explains what it lacks.
    pub fn new(ruleset: &Ruleset) -> Result<Context> {
        let c = combat_rules(ruleset)?;
        let mut location_by_roll = vec![Loc::Hull; c.skill_rolls.die as usize + 1];
        let mut locations = [LocInfo {
            excess: Excess::Hull,
            repair: Skill::Mechanics,
            damaged: Effect::default(),
            badly: Effect::default(),
        }; LOC_COUNT];
        for (i, loc) in Loc::ALL.iter().enumerate() {
            let rule = c.locations.get(loc.name()).ok_or_else(|| {
                Error::msg(format!(
                    "the combat rules have no `{}` location",
                    loc.name()
                ))
            })?;
            for r in rule.roll[0]..=rule.roll[1] {
                if let Some(slot) = location_by_roll.get_mut(r as usize) {
                    *slot = *loc;
                }
            }
            locations[i] = LocInfo {
                excess: rule.excess,
                repair: Skill::from_name(&rule.repair).unwrap_or(Skill::Mechanics),
                damaged: Effect::new(&rule.damaged),
                badly: Effect::new(&rule.badly_damaged),
            };
        }
        let mut ctx = Context {
            ruleset: ruleset.name.clone(),
            thresholds: Thresholds::new(&c.skill_rolls),
            start_distance: c.start_distance,
            sensor_range: c.sensor_range,
            turn_limit: c.turn_limit,
            disengage_turns: c.disengage_turns,
            location_by_roll,
            locations,
            energy: c.energy.clone(),
            shields: c.shields.clone(),
            phaser_range_penalty: c.phasers.range_penalty,
            torpedo_kinds: c
                .torpedoes
                .iter()
                .map(|(k, v)| (k.clone(), v.clone()))
                .collect(),
            torpedo_damage: c.torpedoes.values().map(|_| Default::default()).collect(),
            maneuvers: c.maneuvers.clone(),
            emergency: c.emergency_power.clone(),
            warp: c.warp.clone(),
            transport: c.transport.clone(),
            security: c.security_teams.clone(),
            repair: c.repair.clone(),
            first_aid: c.first_aid.clone(),
            bridge_switch_turns: c.bridge_switch_turns,
            halving_divisor: c.skill_rolls.halving_divisor,
            torpedoes_per_turn: c.torpedoes_per_turn,
            ships: Vec::new(),
            halved_by: halved_by(&locations),
        };
        for (name, ship) in &ruleset.ships {
            if let Ok(class) = ShipClass::new(name, ship, c, &ctx) {
                ctx.ships.push(class);
            }
        }
        Ok(ctx)
    }

    /// Torpedo kind `kind`'s damage distribution (the lowest damage, then the chance of each
    /// value from there), worked out once; None when the dice are too many to enumerate.
    pub(crate) fn torpedo_damage(&self, kind: usize) -> Option<&Distribution> {
        self.torpedo_damage[kind]
            .get_or_init(|| self.torpedo_kinds[kind].1.damage.distribution().ok())
            .as_ref()
    }

    /// A ship class by name or alias (case and accents ignored).
    pub fn class(&self, ruleset: &Ruleset, name: &str) -> Result<ShipClass> {
        let (key, ship) = ruleset.ship(name)?;
        match self.ships.iter().find(|s| s.name == key) {
            Some(s) => Ok(s.clone()),
            None => ShipClass::new(key, ship, combat_rules(ruleset)?, self),
        }
    }

    pub(crate) fn info(&self, loc: Loc) -> &LocInfo {
        &self.locations[loc as usize]
    }
}

fn halved_by(locations: &[LocInfo; LOC_COUNT]) -> [[u16; 2]; SKILL_COUNT] {
    let mut by = [[0u16; 2]; SKILL_COUNT];
    for (skill, masks) in by.iter_mut().enumerate() {
        for (l, info) in locations.iter().enumerate() {
            for (level, effect) in [&info.damaged, &info.badly].into_iter().enumerate() {
                if effect.halves & (1 << skill) != 0 {
                    masks[level] |= 1 << l;
                }
            }
        }
    }
    by
}

/// The ruleset's combat section, or a clear error.
pub(crate) fn combat_rules(ruleset: &Ruleset) -> Result<&CombatRules> {
    ruleset.combat.as_ref().ok_or_else(|| {
        Error::conflict(
            Conflict::MissingSection("combat".into()),
            format!("ruleset `{}` has no combat section", ruleset.name),
        )
    })
}
