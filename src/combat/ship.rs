//! Ships in battle: the class (stats resolved from the ruleset's Ship) and the live state.
use super::context::{Context, Loc, LOC_COUNT, MAX_TEAMS};
use super::hex::Hex;
use super::reach::ReachTable;
use super::skill::{effective, Skill, SKILL_COUNT};
use crate::error::{Error, Result};
use crate::rules::combat::{CombatRules, SizeTrack};
use crate::rules::{dice::Dice, ship::Ship};
use serde::Serialize;
use std::sync::OnceLock;

/// A ship type's stats for combat, resolved once.
#[derive(Debug, Clone, Serialize)]
pub struct ShipClass {
    pub name: String,
    pub shields: u32,
    #[serde(serialize_with = "ser_display")]
    pub hull_intact: Dice,
    #[serde(serialize_with = "ser_display")]
    pub hull_damaged: Dice,
    pub max_speed: u32,
    pub maneuverability: u32,
    /// Phaser dice a turn (F) and their faces.
    pub phaser_dice: u32,
    pub phaser_sides: u32,
    pub torpedoes: u32,
    /// Index into the context's torpedo kinds.
    #[serde(skip)]
    pub torpedo_kind: usize,
    pub torpedo_kind_name: String,
    pub cloak: bool,
    pub repair_teams: u32,
    pub security_teams: u32,
    pub size: String,
    #[serde(skip)]
    pub(crate) track: SizeTrack,
    pub generator: u32,
    pub battery: u32,
    #[serde(skip)]
    pub crew: [u32; SKILL_COUNT],
    /// Where its maneuvers can take it (worked out on first use: see `reach`).
    #[serde(skip)]
    reach: OnceLock<ReachTable>,
}

fn ser_display<S: serde::Serializer>(d: &Dice, s: S) -> std::result::Result<S::Ok, S::Error> {
    s.serialize_str(&d.to_string())
}

impl ShipClass {
    pub(crate) fn new(
        name: &str,
        ship: &Ship,
        rules: &CombatRules,
        ctx: &Context,
    ) -> Result<ShipClass> {
        let missing = |what: &str| {
            Error::msg(format!(
                "ship `{name}` has no `{what}`: it cannot fight in ruleset `{}`",
                ctx.ruleset
            ))
        };
        let hull = ship.hull.as_ref().ok_or_else(|| missing("hull"))?;
        let phasers = ship.phasers.as_ref().ok_or_else(|| missing("phasers"))?;
        let phaser_sides = phasers
            .terms
            .iter()
            .find(|t| t.sides > 0 && !t.negative)
            .map(|t| t.sides)
            .unwrap_or(0);
        if phaser_sides == 0
            || phasers
                .terms
                .iter()
                .any(|t| t.negative || t.sides != phaser_sides)
        {
            return Err(Error::msg(format!(
                "ship `{name}`: phasers must be a number of like dice (4D6), not `{phasers}`"
            )));
        }
        let size_name = ship.size.clone().ok_or_else(|| missing("size"))?;
        let track = *rules
            .sizes
            .get(&size_name)
            .ok_or_else(|| Error::msg(format!("ship `{name}`: unknown size `{size_name}`")))?;
        let kind_name = ship
            .torpedo_kind
            .clone()
            .unwrap_or_else(|| rules.default_torpedo.clone());
        let torpedo_kind = ctx
            .torpedo_kinds
            .iter()
            .position(|(k, _)| *k == kind_name)
            .ok_or_else(|| {
                Error::msg(format!("ship `{name}`: unknown torpedo kind `{kind_name}`"))
            })?;
        // Formulas read the ship's stats; a ship without its own generator uses the rules' default.
        let mut with_defaults = ship.clone();
        if with_defaults.generator.is_none() {
            with_defaults.generator = Some(rules.generator.clone());
        }
        let generator = with_defaults.generator_output().unwrap_or(f64::NAN);
        let battery_formula = ship
            .battery
            .clone()
            .unwrap_or_else(|| rules.battery.clone());
        let battery = battery_formula.value(&|v| with_defaults.stat(v));
        let whole = |x: f64, what: &str| -> Result<u32> {
            if (0.0..1e6).contains(&x) {
                Ok(x.floor() as u32)
            } else {
                Err(Error::msg(format!(
                    "ship `{name}`: its {what} comes out as {x}; give it a number or a formula of \
                     its stats"
                )))
            }
        };
        let mut crew = [0u32; SKILL_COUNT];
        for (i, s) in Skill::ALL.iter().enumerate() {
            crew[i] = ship
                .crew
                .get(s.name())
                .or_else(|| rules.crew.get(s.name()))
                .copied()
                .unwrap_or(0);
        }
        let security_teams = ship.security_teams.unwrap_or(0);
        if security_teams as usize > MAX_TEAMS {
            return Err(Error::msg(format!(
                "ship `{name}`: at most {MAX_TEAMS} security teams"
            )));
        }
        Ok(ShipClass {
            name: name.to_string(),
            shields: ship.shields.ok_or_else(|| missing("shields"))?,
            hull_intact: hull.intact.clone(),
            hull_damaged: hull.damaged.clone(),
            max_speed: ship.max_speed.ok_or_else(|| missing("max_speed"))?,
            maneuverability: ship.maneuverability.unwrap_or(0),
            phaser_dice: phasers.dice_count(),
            phaser_sides,
            torpedoes: ship.torpedoes.unwrap_or(0),
            torpedo_kind,
            torpedo_kind_name: kind_name,
            cloak: ship.cloak.unwrap_or(false),
            repair_teams: ship.repair_teams.unwrap_or(0),
            security_teams,
            size: size_name,
            track,
            generator: whole(generator, "generator output")?,
            battery: whole(battery, "battery capacity")?,
            crew,
            reach: OnceLock::new(),
        })
    }

    /// Every place its maneuvers can take it this turn, and the cheapest way there (for
    /// tactics that plan movement), by the maneuver costs of `ctx`, its own context.
    pub(crate) fn reach(&self, ctx: &Context) -> &ReachTable {
        self.reach
            .get_or_init(|| ReachTable::new(&ctx.energy, self.maneuverability, self.max_speed))
    }

    /// Set crew skills by name (a scenario's crew).
    pub(crate) fn set_crew(&mut self, skills: &indexmap::IndexMap<String, u32>) -> Result<()> {
        for (name, value) in skills {
            let skill = Skill::from_name(name).ok_or_else(|| {
                Error::msg(format!(
                    "unknown skill `{name}`{}",
                    crate::names::suggestion(name, crate::rules::combat::SKILLS.iter().copied())
                ))
            })?;
            self.crew[skill as usize] = *value;
        }
        Ok(())
    }
}

/// A location's condition: its damage level.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Condition {
    Light,
    Damaged,
    BadlyDamaged,
}

/// A group of security teams: each entry is a team's endurance (0: out of the fight).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Teams {
    pub endurance: [u8; MAX_TEAMS],
    pub count: u8,
}

impl Default for Teams {
    fn default() -> Teams {
        Teams {
            endurance: [0; MAX_TEAMS],
            count: 0,
        }
    }
}

impl Teams {
    pub(crate) fn new(count: u32, endurance: u32) -> Teams {
        let mut t = Teams::default();
        for _ in 0..count {
            t.push(endurance);
        }
        t
    }

    pub(crate) fn push(&mut self, endurance: u32) {
        if (self.count as usize) < MAX_TEAMS {
            self.endurance[self.count as usize] = endurance.min(255) as u8;
            self.count += 1;
        }
    }

    /// Take one fresh team out (the first with full endurance, else the strongest).
    pub(crate) fn take(&mut self) -> Option<u32> {
        let n = self.count as usize;
        let best = (0..n)
            .filter(|i| self.endurance[*i] > 0)
            .max_by_key(|i| self.endurance[*i])?;
        let e = self.endurance[best] as u32;
        self.endurance.copy_within(best + 1..n, best);
        self.count -= 1;
        Some(e)
    }

    pub(crate) fn alive(&self) -> u32 {
        self.endurance[..self.count as usize]
            .iter()
            .filter(|e| **e > 0)
            .count() as u32
    }

    pub(crate) fn total_endurance(&self) -> u32 {
        self.endurance[..self.count as usize]
            .iter()
            .map(|e| *e as u32)
            .sum()
    }

    /// The teams at `range` (indices), as a group of their own.
    pub(crate) fn group(&self, range: std::ops::Range<usize>) -> Teams {
        let mut g = Teams::default();
        for e in &self.endurance
            [range.start.min(self.count as usize)..range.end.min(self.count as usize)]
        {
            g.push(*e as u32);
        }
        g
    }

    /// Lose `points` of endurance, team by team; returns the points not absorbed.
    pub(crate) fn absorb(&mut self, points: u32) -> u32 {
        self.absorb_in(0..self.count as usize, points)
    }

    /// Lose `points` of endurance among the teams at `range` only; returns the rest.
    pub(crate) fn absorb_in(&mut self, range: std::ops::Range<usize>, mut points: u32) -> u32 {
        let n = self.count as usize;
        for e in self.endurance[range.start.min(n)..range.end.min(n)].iter_mut() {
            let take = points.min(*e as u32);
            *e -= take as u8;
            points -= take;
            if points == 0 {
                break;
            }
        }
        points
    }

    /// Attack-die faces of each living team: fresh faces minus a step per point lost.
    pub(crate) fn dice(
        &self,
        fresh_endurance: u32,
        fresh_die: u32,
        step: u32,
    ) -> impl Iterator<Item = u32> + '_ {
        self.endurance[..self.count as usize]
            .iter()
            .filter(|e| **e > 0)
            .map(move |e| {
                let lost = fresh_endurance.saturating_sub(*e as u32);
                fresh_die.saturating_sub(step * lost)
            })
    }
}

/// A ship's state in battle. Plain data (no heap), copied freely.
#[derive(Debug, Clone, Copy)]
pub(crate) struct ShipState {
    pub pos: Hex,
    pub facing: u8,
    pub shields: [u32; 6],
    pub shields_raised: bool,
    pub damage: [u32; LOC_COUNT],
    /// Thresholds already crossed (casualties are counted once): bit 0 damaged, bit 1 badly.
    pub crossed: [u8; LOC_COUNT],
    pub casualties: u32,
    pub casualties_total: u32,
    pub torpedoes: u32,
    /// Energy left this turn (generator or emergency), and in the battery.
    pub energy: u32,
    pub battery: u32,
    pub emergency_turns: u32,
    pub emergency_burnt: bool,
    pub cloaked: bool,
    /// The turn the cloak last went on or off (0: never).
    pub cloak_switched: u32,
    /// Found by the enemy's sensors this turn while cloaked.
    pub detected: bool,
    /// Enemy status learned by this turn's Sensors roll.
    pub status_known: bool,
    /// Whole turns still to spend moving to the auxiliary bridge.
    pub bridge_switch_left: u32,
    pub aux_bridge: bool,
    /// Security teams at home, and this ship's teams aboard the enemy.
    pub home_teams: Teams,
    pub boarders: Teams,
    pub boarders_hidden: bool,
    pub teams_lost: u32,
    // --- this turn's tallies ---
    pub maneuver_energy: u32,
    pub free_turns_used: u32,
    pub moved: bool,
    pub phaser_dice_used: u32,
    pub torpedoes_launched: u32,
    pub teams_sent: u32,
    /// Generator points given to the shields this turn (all faces together: ruling R1).
    pub generator_points_given: u32,
    /// Points received this turn by transfer, at index 2·face + side (side 0 from face+1).
    pub transfers: [u8; 12],
    pub destroyed: bool,
    pub escaped: bool,
    pub captured: bool,
}

impl ShipState {
    pub(crate) fn new(class: &ShipClass, ctx: &Context, pos: Hex, facing: u8) -> ShipState {
        ShipState {
            pos,
            facing: facing % 6,
            shields: [class.shields; 6],
            shields_raised: false,
            damage: [0; LOC_COUNT],
            crossed: [0; LOC_COUNT],
            casualties: 0,
            casualties_total: 0,
            torpedoes: class.torpedoes,
            energy: 0,
            battery: class.battery,
            emergency_turns: 0,
            emergency_burnt: false,
            cloaked: false,
            cloak_switched: 0,
            detected: false,
            status_known: false,
            bridge_switch_left: 0,
            aux_bridge: false,
            home_teams: Teams::new(class.security_teams, ctx.security.endurance),
            boarders: Teams::default(),
            boarders_hidden: true,
            teams_lost: 0,
            maneuver_energy: 0,
            free_turns_used: 0,
            moved: false,
            phaser_dice_used: 0,
            torpedoes_launched: 0,
            teams_sent: 0,
            generator_points_given: 0,
            transfers: [0; 12],
            destroyed: false,
            escaped: false,
            captured: false,
        }
    }

    pub(crate) fn level(&self, class: &ShipClass, loc: Loc) -> Condition {
        let d = self.damage[loc as usize];
        if d > class.track.badly_damaged {
            Condition::BadlyDamaged
        } else if d > class.track.damaged {
            Condition::Damaged
        } else {
            Condition::Light
        }
    }

    pub(crate) fn is(&self, class: &ShipClass, loc: Loc, level: Condition) -> bool {
        self.level(class, loc) >= level
    }

    /// How many times a skill is halved by the damage the ship carries.
    pub(crate) fn halvings(&self, class: &ShipClass, ctx: &Context, skill: Skill) -> u32 {
        // Only the locations whose effects halve this skill.
        let [damaged, badly] = ctx.halved_by[skill as usize];
        let mut n = 0;
        let mut locs = damaged | badly;
        while locs != 0 {
            let l = locs.trailing_zeros() as usize;
            locs &= locs - 1;
            let mut level = self.level(class, Loc::ALL[l]);
            // "Una vez activado el puente auxiliar, se va a mitad de porcentaje en las
            // habilidades mencionadas anteriormente": from the auxiliary bridge the bridge's
            // skills stay at half for the rest of the battle, the main bridge repaired or not.
            if Loc::ALL[l] == Loc::Bridge && self.aux_bridge_active() {
                level = level.max(Condition::Damaged);
            }
            if level >= Condition::Damaged && damaged & (1 << l) != 0 {
                n += 1;
            }
            if level >= Condition::BadlyDamaged && badly & (1 << l) != 0 {
                n += 1;
            }
        }
        n
    }

    /// The effective skill after damage and a penalty.
    pub(crate) fn skill(
        &self,
        class: &ShipClass,
        ctx: &Context,
        skill: Skill,
        penalty: i32,
    ) -> i32 {
        effective(
            class.crew[skill as usize],
            self.halvings(class, ctx, skill),
            penalty,
            ctx.halving_divisor,
        )
    }

    /// The crew has moved to the auxiliary bridge (it stays there to the end of the battle).
    pub(crate) fn aux_bridge_active(&self) -> bool {
        self.aux_bridge && self.bridge_switch_left == 0
    }

    /// The bridge is out and the crew is still moving to the auxiliary bridge: no actions.
    pub(crate) fn bridge_out(&self, class: &ShipClass) -> bool {
        self.is(class, Loc::Bridge, Condition::BadlyDamaged) && self.bridge_switch_left > 0
    }

    /// Energy this ship can still spend (this turn's and the battery).
    pub(crate) fn available(&self) -> u32 {
        self.energy + self.battery
    }

    /// Spend energy, this turn's first; false (and nothing spent) if there is not enough.
    pub(crate) fn spend(&mut self, amount: u32) -> bool {
        if amount > self.available() {
            return false;
        }
        let from_turn = amount.min(self.energy);
        self.energy -= from_turn;
        self.battery -= amount - from_turn;
        true
    }

    /// Shield value a hit meets on a face (nothing while shields are down).
    pub(crate) fn shield_value(&self, face: u8) -> u32 {
        if self.shields_raised {
            self.shields[face as usize]
        } else {
            0
        }
    }

    pub(crate) fn out_of_battle(&self) -> bool {
        self.destroyed || self.escaped || self.captured
    }

    /// Generator output this turn before emergency power.
    pub(crate) fn generator_output(&self, class: &ShipClass, ctx: &Context) -> u32 {
        match self.level(class, Loc::Generator) {
            Condition::Light => class.generator,
            Condition::Damaged => class.generator / ctx.energy.damaged_generator_divisor.max(1),
            Condition::BadlyDamaged => 0,
        }
    }

    /// Cost multiplier for a system at `loc` (damaged engines or shield control cost more).
    pub(crate) fn cost(&self, class: &ShipClass, ctx: &Context, loc: Loc, base: u32) -> u32 {
        if self.is(class, loc, Condition::Damaged) {
            base * ctx.energy.damaged_multiplier
        } else {
            base
        }
    }

    pub(crate) fn reset_turn_tallies(&mut self) {
        self.maneuver_energy = 0;
        self.free_turns_used = 0;
        self.moved = false;
        self.phaser_dice_used = 0;
        self.torpedoes_launched = 0;
        self.teams_sent = 0;
        self.generator_points_given = 0;
        self.transfers = [0; 12];
        self.status_known = false;
    }
}
