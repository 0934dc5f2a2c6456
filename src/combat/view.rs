//! What a side sees when it decides, and the legality of every action. The engine checks
//! actions with the same functions tactics use to plan them.
use super::context::{Context, Loc};
use super::events::Maneuver;
use super::hex::{self, Hex};
use super::ship::{Condition, ShipClass, ShipState};
use super::side::Facing;
use super::skill::{Level, Skill};

/// One side's view of the battle at a decision.
///
/// `enemy` is what this side *knows* of the enemy (ruling R5): its position and facing as
/// last seen (always, unless it is cloaked and undetected), and its shields, damage, energy,
/// torpedoes and crew as the last successful Sensors roll found them (at the start of the
/// battle, as it began). The legality checks (`can_fire`, `can_transport`, ...) are the
/// engine's and see the real enemy, so a tactic acting on an old picture may be refused.
#[derive(Clone, Copy)]
pub struct View<'a> {
    pub ctx: &'a Context,
    pub turn: u32,
    pub(crate) me: &'a ShipState,
    pub my_class: &'a ShipClass,
    /// The enemy as this side's sensors know it.
    pub(crate) enemy: &'a ShipState,
    pub enemy_class: &'a ShipClass,
    /// The enemy as it is (for the engine's checks only).
    actual: &'a ShipState,
}

/// Why an action cannot be taken.
pub(crate) type Refusal = &'static str;

impl<'a> View<'a> {
    /// A side's view: `known` is its picture of the enemy, `actual` the enemy as it is.
    pub(crate) fn new(
        ctx: &'a Context,
        turn: u32,
        (me, my_class): (&'a ShipState, &'a ShipClass),
        (known, actual, enemy_class): (&'a ShipState, &'a ShipState, &'a ShipClass),
    ) -> View<'a> {
        View {
            ctx,
            turn,
            me,
            my_class,
            enemy: known,
            enemy_class,
            actual,
        }
    }

    #[cfg(test)]
    /// A view that knows the enemy exactly (tests, and tools that analyse a position).
    pub(crate) fn knowing(
        ctx: &'a Context,
        turn: u32,
        (me, my_class): (&'a ShipState, &'a ShipClass),
        (enemy, enemy_class): (&'a ShipState, &'a ShipClass),
    ) -> View<'a> {
        View::new(ctx, turn, (me, my_class), (enemy, enemy, enemy_class))
    }

    /// Distance to where the enemy was last seen.
    pub(crate) fn distance(&self) -> u32 {
        self.me.pos.distance(self.enemy.pos)
    }

    /// Can this side see the enemy well enough to shoot or transport?
    pub(crate) fn enemy_visible(&self) -> bool {
        !self.actual.cloaked || self.actual.detected
    }

    #[cfg(test)]
    /// Whether this turn's Sensors roll learned the enemy's state (else `enemy` is older news).
    pub(crate) fn enemy_status_fresh(&self) -> bool {
        self.me.status_known
    }

    pub(crate) fn my_skill(&self, skill: Skill, penalty: i32) -> i32 {
        self.me.skill(self.my_class, self.ctx, skill, penalty)
    }

    pub(crate) fn enemy_skill(&self, skill: Skill, penalty: i32) -> i32 {
        self.enemy.skill(self.enemy_class, self.ctx, skill, penalty)
    }

    pub(crate) fn my_condition(&self, loc: Loc) -> Condition {
        self.me.level(self.my_class, loc)
    }

    pub(crate) fn enemy_condition(&self, loc: Loc) -> Condition {
        self.enemy.level(self.enemy_class, loc)
    }

    fn able(&self) -> Result<(), Refusal> {
        if self.me.bridge_out(self.my_class) {
            return Err("the crew is moving to the auxiliary bridge");
        }
        Ok(())
    }

    fn can_target(&self, from: Hex, facing: u8, line: bool) -> Result<(), Refusal> {
        if !self.enemy_visible() {
            return Err("the enemy is cloaked and undetected");
        }
        let d = from.distance(self.actual.pos);
        if d > self.ctx.sensor_range {
            return Err("the enemy is beyond sensor range");
        }
        let inside = if line {
            hex::in_torpedo_line(from, facing, self.actual.pos)
        } else {
            hex::in_phaser_arc(from, facing, self.actual.pos)
        };
        if !inside {
            return Err(if line {
                "the enemy is not on the torpedo line"
            } else {
                "the enemy is outside the phaser arc"
            });
        }
        Ok(())
    }

    /// Free turns my class has left this turn.
    pub(crate) fn free_turns_left(&self) -> u32 {
        self.my_class
            .maneuverability
            .saturating_sub(self.me.free_turns_used)
    }

    /// Energy one maneuver costs now (0 for a free turn).
    pub(crate) fn maneuver_cost(&self, m: Maneuver) -> u32 {
        let (base, _) = super::reach::price(&self.ctx.energy, m, self.free_turns_left());
        self.me.cost(self.my_class, self.ctx, Loc::Engines, base)
    }

    pub(crate) fn can_maneuver(&self, m: Maneuver) -> Result<(), Refusal> {
        self.able()?;
        // R6: a cloaked enemy found this turn can be answered by maneuvering.
        if self.actual.cloaked && !self.actual.detected {
            return Err("the enemy is cloaked: only inertia moves the ship");
        }
        if self.my_condition(Loc::Engines) >= Condition::BadlyDamaged {
            return Err("impulse engines are badly damaged");
        }
        // R4: piloting depends on the sensors.
        if self.my_condition(Loc::Sensors) >= Condition::BadlyDamaged {
            return Err("sensors are badly damaged: only inertia moves the ship");
        }
        if self.maneuver_cost(m) > self.me.available() {
            return Err("not enough energy");
        }
        Ok(())
    }

    pub fn phaser_dice_left(&self) -> u32 {
        self.my_class
            .phaser_dice
            .saturating_sub(self.me.phaser_dice_used)
    }

    pub fn can_fire(&self, dice: u32) -> Result<(), Refusal> {
        self.able()?;
        if self.me.cloaked {
            return Err("a cloaked ship cannot fire");
        }
        if self.my_condition(Loc::Phasers) >= Condition::BadlyDamaged {
            return Err("phasers are badly damaged");
        }
        if self.my_condition(Loc::Sensors) >= Condition::BadlyDamaged {
            return Err("sensors are badly damaged");
        }
        if dice == 0 || dice > self.phaser_dice_left() {
            return Err("no phaser dice left this turn");
        }
        if dice * self.ctx.energy.phaser_die > self.me.available() {
            return Err("not enough energy");
        }
        self.can_target(self.me.pos, self.me.facing, false)
    }

    /// Effective Gunnery for a shot from `from` (penalty per hex included).
    pub(crate) fn gunnery_from(&self, from: Hex) -> i32 {
        let d = from.distance(self.enemy.pos);
        self.my_skill(Skill::Gunnery, (d * self.ctx.phaser_range_penalty) as i32)
    }

    /// Chance that a phaser shot from `from` hits.
    pub(crate) fn phaser_chance_from(&self, from: Hex) -> f64 {
        self.ctx
            .thresholds
            .chance(Level::Success, self.gunnery_from(from))
    }

    pub(crate) fn torpedo_energy(&self) -> u32 {
        self.ctx.torpedo_kinds[self.my_class.torpedo_kind].1.energy
    }

    pub fn can_launch(&self) -> Result<(), Refusal> {
        self.able()?;
        if self.me.cloaked {
            return Err("a cloaked ship cannot launch torpedoes");
        }
        if self.me.torpedoes == 0 {
            return Err("no torpedoes left");
        }
        if self.me.torpedoes_launched >= self.ctx.torpedoes_per_turn {
            return Err("no more torpedo launches this turn");
        }
        if self.my_condition(Loc::Torpedoes) >= Condition::BadlyDamaged {
            return Err("torpedo launchers are badly damaged");
        }
        if self.my_condition(Loc::Sensors) >= Condition::BadlyDamaged {
            return Err("sensors are badly damaged");
        }
        if self.torpedo_energy() > self.me.available() {
            return Err("not enough energy");
        }
        self.can_target(self.me.pos, self.me.facing, true)
    }

    /// Chance a torpedo launched from `from` is not dodged (the enemy needs a special
    /// Piloting success on one of its rolls, one per hex; no dodging without sensors or bridge).
    pub(crate) fn torpedo_chance_from(&self, from: Hex) -> f64 {
        let d = from.distance(self.enemy.pos);
        if !self.enemy_can_dodge() {
            return 1.0;
        }
        let p = self
            .ctx
            .thresholds
            .chance(Level::Special, self.enemy_skill(Skill::Piloting, 0));
        (1.0 - p).powi(d as i32)
    }

    pub(crate) fn enemy_can_dodge(&self) -> bool {
        !(self.enemy_condition(Loc::Sensors) >= Condition::BadlyDamaged
            || self.enemy.bridge_out(self.enemy_class))
    }

    /// The enemy face a shot from `from` would cross (absolute), with the vertex rule.
    pub(crate) fn enemy_face_from(&self, from: Hex) -> u8 {
        hex::face_hit(self.enemy.pos, from, &self.enemy.shields)
    }

    /// My face the enemy would hit from where it is now (absolute).
    pub(crate) fn my_face_toward_enemy(&self) -> u8 {
        hex::face_hit(self.me.pos, self.enemy.pos, &self.me.shields)
    }

    /// Whether a team can be beamed, as this side knows the enemy (R5: the shields its sensors
    /// last found, and where it last saw the enemy): what a tactic asks.
    pub(crate) fn can_transport(&self) -> Result<(), Refusal> {
        self.transport_against(self.enemy)
    }

    /// Whether a team can be beamed against the enemy as it is: the engine's check.
    pub(crate) fn check_transport(&self) -> Result<(), Refusal> {
        self.transport_against(self.actual)
    }

    fn transport_against(&self, enemy: &ShipState) -> Result<(), Refusal> {
        self.able()?;
        if self.me.home_teams.alive() == 0 {
            return Err("no security teams left aboard");
        }
        if self.me.teams_sent >= self.ctx.transport.teams_per_turn {
            return Err("no more teams this turn");
        }
        if self.my_condition(Loc::Transporter) >= Condition::BadlyDamaged {
            return Err("the transporter is badly damaged");
        }
        if self.my_condition(Loc::Sensors) >= Condition::BadlyDamaged {
            return Err("sensors are badly damaged");
        }
        self.can_target(self.me.pos, self.me.facing, false)?;
        if enemy.shields_raised {
            let (a, b) = hex::faces_toward(enemy.pos, self.me.pos);
            let down =
                enemy.shields[a as usize] == 0 || b.is_some_and(|b| enemy.shields[b as usize] == 0);
            if !down {
                return Err("the enemy's shield toward us is up");
            }
        }
        Ok(())
    }

    /// Navigation penalty for a warp jump from here, by the enemy's real distance (the
    /// engine's roll).
    pub(crate) fn warp_penalty(&self) -> u32 {
        self.warp_penalty_at(self.me.pos.distance(self.actual.pos))
    }

    /// The penalty as this side reckons it: from where it last saw the enemy (R5).
    pub(crate) fn warp_penalty_seen(&self) -> u32 {
        self.warp_penalty_at(self.distance())
    }

    fn warp_penalty_at(&self, d: u32) -> u32 {
        let w = &self.ctx.warp;
        if d >= w.safe_distance {
            0
        } else {
            w.base_penalty.saturating_sub(w.penalty_per_hex * d)
        }
    }

    pub(crate) fn warp_cost(&self) -> u32 {
        self.me
            .cost(self.my_class, self.ctx, Loc::Engines, self.ctx.energy.warp)
    }

    /// Whether a jump can be computed, as this side reckons the distance (R5): what a tactic
    /// asks.
    pub(crate) fn can_warp(&self) -> Result<(), Refusal> {
        self.warp_with(self.warp_penalty_seen())
    }

    /// Whether a jump can be computed at the enemy's real distance: the engine's check.
    pub(crate) fn check_warp(&self) -> Result<(), Refusal> {
        self.warp_with(self.warp_penalty())
    }

    fn warp_with(&self, penalty: u32) -> Result<(), Refusal> {
        self.able()?;
        if self.my_condition(Loc::Engines) >= Condition::BadlyDamaged {
            return Err("warp engines are badly damaged");
        }
        // R4: navigation depends on the sensors.
        if self.my_condition(Loc::Sensors) >= Condition::BadlyDamaged {
            return Err("sensors are badly damaged: no jump can be computed");
        }
        if self.warp_cost() > self.me.available() {
            return Err("not enough energy");
        }
        if penalty as i32 > self.my_skill(Skill::Navigation, 0) {
            return Err("too close to the enemy to compute a jump");
        }
        Ok(())
    }

    /// Energy to raise the shields.
    pub(crate) fn raise_cost(&self) -> u32 {
        self.ctx.energy.raise_shields
    }

    pub(crate) fn shield_point_cost(&self) -> u32 {
        self.me.cost(
            self.my_class,
            self.ctx,
            Loc::ShieldControl,
            self.ctx.energy.shield_point,
        )
    }

    /// Can a point move from face `from` to the adjacent face `to`?
    pub(crate) fn can_transfer(&self, from: u8, to: u8) -> Result<(), Refusal> {
        self.able()?;
        if from > 5 || to > 5 || !Facing::new(from).adjacent(Facing::new(to)) {
            return Err("points move only between adjacent faces");
        }
        if !self.me.shields_raised {
            return Err("shields are down");
        }
        if self.my_condition(Loc::ShieldControl) >= Condition::BadlyDamaged {
            return Err("shield control is badly damaged");
        }
        if self.me.transfers[transfer_index(from, to)] as u32
            >= self.ctx.shields.transfer_per_neighbour
        {
            return Err("that transfer was made this turn");
        }
        let taken = self.me.cost(self.my_class, self.ctx, Loc::ShieldControl, 1);
        if self.me.shields[from as usize] < taken {
            return Err("the giving face has too few points");
        }
        if self.me.shields[to as usize] >= self.my_class.shields {
            return Err("the face is at its rating");
        }
        Ok(())
    }

    pub(crate) fn can_reinforce(&self, face: u8) -> Result<(), Refusal> {
        self.able()?;
        if face > 5 {
            return Err("no such face");
        }
        if !self.me.shields_raised {
            return Err("shields are down");
        }
        if self.my_condition(Loc::ShieldControl) >= Condition::BadlyDamaged {
            return Err("shield control is badly damaged");
        }
        // R1: one generator point to the shields a turn in all.
        if self.me.generator_points_given >= self.ctx.shields.generator_points_per_turn {
            return Err("the shields had their generator point this turn");
        }
        if self.me.shields[face as usize] >= self.my_class.shields {
            return Err("the face is at its rating");
        }
        if self.shield_point_cost() > self.me.available() {
            return Err("not enough energy");
        }
        Ok(())
    }

    /// Energy a repair attempt on `loc` costs now (None: nothing to repair).
    pub(crate) fn repair_cost(&self, loc: Loc) -> Option<u32> {
        if self.me.damage[loc as usize] == 0 {
            return None;
        }
        let e = &self.ctx.energy;
        Some(match self.my_condition(loc) {
            Condition::Light => e.repair_light,
            Condition::Damaged => e.repair_damaged,
            Condition::BadlyDamaged => e.repair_badly_damaged,
        })
    }

    /// Energy to keep back for this turn's repairs: what the repair teams would spend on the
    /// first damaged locations worth repairing (`Loc::repair_plays`), one team each.
    pub(crate) fn repair_reserve(&self) -> u32 {
        Loc::ALL
            .iter()
            .filter(|l| l.repair_plays())
            .filter_map(|l| self.repair_cost(*l))
            .take(self.my_class.repair_teams as usize)
            .sum()
    }

    pub(crate) fn can_repair(&self, loc: Loc) -> Result<(), Refusal> {
        self.able()?;
        match self.repair_cost(loc) {
            None => Err("nothing to repair there"),
            Some(c) if c > self.me.available() => Err("not enough energy"),
            Some(_) => Ok(()),
        }
    }
}

/// Where a transfer into `to` from its neighbour `from` is counted.
pub(crate) fn transfer_index(from: u8, to: u8) -> usize {
    let side = if Facing::new(to).left() == Facing::new(from) {
        0
    } else {
        1
    };
    2 * to as usize + side
}

/// What a tactic reads about the enemy and its own prospects, as methods (so what a side
/// knows can be narrowed to what its sensors revealed without touching the tactics).
impl View<'_> {
    pub(crate) fn enemy_pos(&self) -> Hex {
        self.enemy.pos
    }

    pub(crate) fn enemy_facing(&self) -> u8 {
        self.enemy.facing
    }

    /// The shield an enemy face meets a hit with (0 while its shields are down).
    pub(crate) fn enemy_shield(&self, face: u8) -> u32 {
        self.enemy.shield_value(face)
    }

    /// Points the enemy's `loc` can still take before it breaks.
    pub(crate) fn enemy_points_left(&self, loc: Loc) -> u32 {
        self.enemy_class
            .track
            .excess
            .saturating_sub(self.enemy.damage[loc as usize])
    }

    /// Points my `loc` can still take before it breaks.
    pub(crate) fn my_points_left(&self, loc: Loc) -> u32 {
        self.my_class
            .track
            .excess
            .saturating_sub(self.me.damage[loc as usize])
    }

    /// Whether the enemy can maneuver in its next turn (engines and sensors working, R4;
    /// bridge manned).
    pub(crate) fn enemy_can_maneuver(&self) -> bool {
        self.enemy_condition(Loc::Engines) < Condition::BadlyDamaged
            && self.enemy_condition(Loc::Sensors) < Condition::BadlyDamaged
            && !self.enemy.bridge_out(self.enemy_class)
    }

    /// Whether the enemy can fire phasers in its next turn.
    pub(crate) fn enemy_can_fire(&self) -> bool {
        self.enemy_condition(Loc::Phasers) < Condition::BadlyDamaged
            && self.enemy_condition(Loc::Sensors) < Condition::BadlyDamaged
            && !self.enemy.bridge_out(self.enemy_class)
    }

    /// Chance a maneuver's Piloting roll succeeds, mine and the enemy's.
    pub(crate) fn my_piloting_chance(&self) -> f64 {
        self.ctx
            .thresholds
            .chance(Level::Success, self.my_skill(Skill::Piloting, 0))
    }

    pub(crate) fn enemy_piloting_chance(&self) -> f64 {
        self.ctx
            .thresholds
            .chance(Level::Success, self.enemy_skill(Skill::Piloting, 0))
    }

    /// Energy a paid turn costs the enemy (damaged engines cost more).
    pub(crate) fn enemy_turn_cost(&self) -> u32 {
        self.enemy.cost(
            self.enemy_class,
            self.ctx,
            Loc::Engines,
            self.ctx.energy.turn,
        )
    }

    /// Chance an enemy phaser shot at `d` hexes hits.
    pub(crate) fn enemy_phaser_chance_at(&self, d: u32) -> f64 {
        let penalty = d
            .saturating_mul(self.ctx.phaser_range_penalty)
            .min(i32::MAX as u32);
        self.ctx.thresholds.chance(
            Level::Success,
            self.enemy_skill(Skill::Gunnery, penalty as i32),
        )
    }

    /// Chance my phaser shot at `d` hexes hits.
    pub(crate) fn phaser_chance_at(&self, d: u32) -> f64 {
        let penalty = d
            .saturating_mul(self.ctx.phaser_range_penalty)
            .min(i32::MAX as u32);
        self.ctx.thresholds.chance(
            Level::Success,
            self.my_skill(Skill::Gunnery, penalty as i32),
        )
    }

    /// Chance the enemy's Sensors roll finds me while I am cloaked.
    pub(crate) fn enemy_detect_chance(&self) -> f64 {
        if self.enemy_condition(Loc::Sensors) >= Condition::BadlyDamaged {
            return 0.0;
        }
        self.ctx
            .thresholds
            .chance(Level::Special, self.enemy_skill(Skill::Sensors, 0))
    }

    /// Turns I have been cloaked, this one included (0 when not cloaked).
    pub(crate) fn my_turns_cloaked(&self) -> u32 {
        if self.me.cloaked {
            self.turn.saturating_sub(self.me.cloak_switched) + 1
        } else {
            0
        }
    }

    /// Whole turns since I last decloaked (None: never cloaked, or cloaked now).
    pub(crate) fn my_turns_since_decloak(&self) -> Option<u32> {
        (!self.me.cloaked && self.me.cloak_switched > 0)
            .then(|| self.turn.saturating_sub(self.me.cloak_switched))
    }

    #[cfg(test)]
    /// Chance a warp jump's Navigation roll succeeds from here, at the distance this side
    /// reckons (R5).
    pub(crate) fn warp_chance(&self) -> f64 {
        let penalty = self.warp_penalty_seen().min(i32::MAX as u32) as i32;
        self.ctx
            .thresholds
            .chance(Level::Success, self.my_skill(Skill::Navigation, penalty))
    }

    /// Chance a repair attempt on `loc` mends anything (a badly damaged one needs the
    /// ruleset's level); 0 when there is nothing to repair.
    pub(crate) fn repair_chance(&self, loc: Loc) -> f64 {
        if self.me.damage[loc as usize] == 0 {
            return 0.0;
        }
        let needs = if self.my_condition(loc) >= Condition::BadlyDamaged {
            Level::from(self.ctx.repair.badly_damaged_needs)
        } else {
            Level::Success
        };
        let skill = self.my_skill(self.ctx.info(loc).repair, 0);
        self.ctx.thresholds.chance(needs, skill)
    }
}
