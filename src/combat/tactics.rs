//! Tactics: how a side decides. `Tactic` is the plug-in point (the scripting layer wraps
//! rhai functions in it); `ClassicTactic` plays either side sensibly.
//!
//! The engine asks one question at a time and checks every answer against the rules: an
//! illegal answer ends that step (and is reported as refused when narrating), so a buggy
//! tactic cannot break a battle or loop forever.
use super::classic_planner::{NextMove, PlaceWeights, PlanCache, Pose};
use super::context::Loc;
use super::events::Maneuver;
use super::hex::{self, Hex};
use super::ship::Condition;
use super::side::Facing;
use super::view::View;

/// What to do next in the move-fire-transport phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Move(Maneuver),
    /// Fire this many phaser dice as one shot (the turn's dice may be split over shots).
    Fire {
        dice: u32,
    },
    Torpedo,
    Transport,
    Warp,
    End,
}

/// One step of the shields phase (faces are absolute directions 0..6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ShieldOp {
    Transfer { from: u8, to: u8 },
    Reinforce { face: u8 },
}

/// What a repair team works on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RepairJob {
    Location(Loc),
    EmergencyPower,
}

/// What this side's boarders aboard the enemy do this turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BoardingOrder {
    Hide,
    AttackDefenders,
    AttackLocation(Loc),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Activation {
    pub raise_shields: bool,
    pub cloak: bool,
    /// Points of this turn's energy to store in the battery now (ruling R7: the only time
    /// energy goes into it; the battery itself is spent in any phase).
    pub charge_battery: u32,
}

/// Phase 5. This turn's energy left unspent is lost (R7: the battery is charged in
/// activation, so `charge_battery` moved to [`Activation`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Deactivation {
    pub decloak: bool,
    pub lower_shields: bool,
}

/// Scratch memory a tactic keeps for one side during one battle (fresh at its start), so a
/// tactic can stay `&self` (shared between threads) and still remember a plan.
#[derive(Debug, Clone, Copy, Default)]
pub struct Memory {
    /// The classic tactic's movement plan.
    pub(crate) classic_plan: PlanCache,
    /// The default tactic's plan and what it has seen.
    pub(crate) default_mind: super::default_tactic::Mind,
    /// Free for other tactics.
    pub words: [i64; 8],
}

/// A side's decision maker. Every method sees the battle through a `View`.
///
/// Only `name` and `next_action` must be written: the other answers default to a side that
/// raises its shields and otherwise holds still (no shield work, repairs or cloak; boarders
/// hide, defenders absorb; a special success aims at the hull).
pub trait Tactic: Send + Sync {
    fn name(&self) -> &str;
    /// Phase 0: raise shields, switch the cloak on.
    fn activation(&self, view: &View) -> Activation {
        Activation {
            raise_shields: !view.me.shields_raised,
            cloak: false,
            charge_battery: 0,
        }
    }
    /// Phase 2, asked repeatedly until `Action::End`. `memory` is this side's scratch space
    /// for the battle (a plan made at the first question can be followed at the next ones).
    fn next_action(&self, view: &View, memory: &mut Memory) -> Action;
    /// After a special success: the location the shot hits.
    fn choose_location(&self, _view: &View) -> Loc {
        Loc::Hull
    }
    /// Phase 3, asked repeatedly until `None`.
    fn next_shield_op(&self, _view: &View) -> Option<ShieldOp> {
        None
    }
    /// Phase 4: the job of repair team `team` (0-based), or `None` to rest it.
    fn repair(&self, _view: &View, _team: u32) -> Option<RepairJob> {
        None
    }
    /// This side's boarders aboard the enemy.
    fn boarding(&self, _view: &View) -> BoardingOrder {
        BoardingOrder::Hide
    }
    /// Whether this side's defenders absorb a location attack by enemy boarders.
    fn absorb(&self, _view: &View, _damage: u32) -> bool {
        true
    }
    /// Phase 5.
    fn deactivation(&self, _view: &View) -> Deactivation {
        Deactivation::default()
    }
    /// Whether the tactic has failed (a script that broke or spent its budget): the battles
    /// left would not measure it, so a simulation stops early and its caller reports why.
    fn failed(&self) -> bool {
        false
    }
}

/// The `classic` tactic (the engine's first), with its knobs (play style, not rules). The
/// `default` tactic (`default_tactic`) plays better; this one stays to measure it against.
///
/// * Raises shields first; keeps them up.
/// * Moves to keep the enemy in its phaser arc at `preferred_range`, ideally on its torpedo
///   line, showing its strongest face, spending as little energy as it can (`weights` says
///   how much each counts); it never goes over maximum speed. It picks the best place its
///   class can reach this turn (the class's reach table: every place up to seven maneuvers
///   away, with the cheapest way there), plans once a turn, and plans again only when the
///   rest of the plan is no longer affordable, it decides to flee, or its engines get damaged
///   (`classic_planner`). It fires before moving when the shot is better now than after.
/// * Fires all phaser dice when the hit chance is at least `min_phaser_chance`; launches a
///   torpedo when the chance it is not dodged is at least `min_torpedo_chance`.
/// * After a special success aims at the hull or the engines, whichever is nearer to breaking.
/// * Shields phase: generator point and transfers into the face toward the enemy, then into
///   its neighbours, from stronger faces.
/// * Repairs what endangers the ship first (hull, engines), then what fights (generator,
///   phasers, sensors, bridge, shield control, torpedoes), then the rest.
/// * Cloaks when the faces toward the enemy are below half and it is not in a good firing
///   position; decloaks when they are back to `decloak_shields` of the rating.
/// * Boards only when its boarders can match the defenders; boarders hide until then.
/// * Tries warp when about to be destroyed (hull badly damaged, or within `warp_margin` points
///   of breaking), running away first if the enemy is too close to jump.
#[derive(Debug, Clone, PartialEq)]
pub struct ClassicTactic {
    pub preferred_range: u32,
    pub min_phaser_chance: f64,
    pub min_torpedo_chance: f64,
    pub decloak_shields: f64,
    pub warp_margin: u32,
    /// How it weighs the places it could move to.
    pub(crate) weights: PlaceWeights,
}

impl Default for ClassicTactic {
    fn default() -> Self {
        ClassicTactic {
            preferred_range: 3,
            min_phaser_chance: 0.15,
            min_torpedo_chance: 0.35,
            decloak_shields: 0.8,
            warp_margin: 3,
            weights: PlaceWeights::default(),
        }
    }
}

/// The weakest of my face toward the enemy and its two neighbours.
pub(crate) fn front_shields(v: &View) -> u32 {
    let toward = Facing::new(v.my_face_toward_enemy());
    [toward, toward.left(), toward.right()]
        .iter()
        .map(|f| v.me.shields[f.index() as usize])
        .min()
        .unwrap_or(0)
}

/// Points to store in the battery at activation after raising shields and cloaking as
/// ordered: all that fits, since the battery is spent in any phase (R7) and keeps past
/// deactivation, where this turn's energy is lost.
pub(crate) fn battery_charge(v: &View, raise: bool, cloak: bool) -> u32 {
    let per = v.ctx.energy.battery_point.max(1);
    let room = v.my_class.battery.saturating_sub(v.me.battery);
    let spend_first =
        if raise { v.raise_cost() } else { 0 } + if cloak { v.ctx.energy.cloak } else { 0 };
    room.min(v.me.energy.saturating_sub(spend_first) / per)
}

impl ClassicTactic {
    fn fleeing(&self, v: &View) -> bool {
        let hull = v.me.damage[Loc::Hull as usize];
        let t = v.my_class.track;
        v.my_condition(Loc::Hull) >= Condition::BadlyDamaged || hull + self.warp_margin > t.excess
    }

    fn shot_quality(&self, v: &View, pos: Hex, facing: u8) -> f64 {
        let d = pos.distance(v.enemy.pos);
        if d == 0 || d > v.ctx.sensor_range || !hex::in_phaser_arc(pos, facing, v.enemy.pos) {
            return 0.0;
        }
        v.phaser_chance_from(pos)
    }

    pub(crate) fn wants_to_board(&self, v: &View) -> bool {
        let aboard = v.me.boarders.total_endurance() + v.ctx.security.endurance;
        let home_after = v.me.home_teams.alive().saturating_sub(1);
        aboard >= v.enemy.home_teams.total_endurance() && home_after >= 1
    }
}

impl super::tactics::Tactic for ClassicTactic {
    fn name(&self) -> &str {
        "classic"
    }

    fn activation(&self, v: &View) -> Activation {
        let raise = !v.me.shields_raised;
        let mut cloak = false;
        if v.my_class.cloak
            && !v.me.cloaked
            && v.turn > 1
            && v.my_condition(Loc::Hull) == Condition::Light
        {
            let weakest = front_shields(v);
            let shaky = (weakest as f64) < v.my_class.shields as f64 / 2.0;
            let spare =
                v.me.available() >= v.ctx.energy.cloak + if raise { v.raise_cost() } else { 0 } + 2;
            cloak = shaky && spare && self.shot_quality(v, v.me.pos, v.me.facing) < 0.3;
        }
        Activation {
            raise_shields: raise,
            cloak,
            charge_battery: battery_charge(v, raise, cloak),
        }
    }

    fn next_action(&self, v: &View, memory: &mut Memory) -> Action {
        let flee = self.fleeing(v);
        if flee && v.can_warp().is_ok() {
            return Action::Warp;
        }
        let phaser_cost = v.phaser_dice_left() * v.ctx.energy.phaser_die;
        let wants_fire = !flee && v.can_fire(v.phaser_dice_left()).is_ok();
        let reserve = if flee {
            v.warp_cost()
        } else {
            phaser_cost + v.shield_point_cost()
        };
        let max_speed_left = v.my_class.max_speed.saturating_sub(v.me.maneuver_energy);
        let budget = max_speed_left.min(v.me.available().saturating_sub(reserve));
        let can_move =
            v.can_maneuver(Maneuver::TurnLeft).is_ok() || v.can_maneuver(Maneuver::Forward).is_ok();
        let NextMove { step, end } = if can_move {
            memory
                .classic_plan
                .next_move(v, budget, flee, self.preferred_range, &self.weights)
        } else {
            NextMove {
                step: None,
                end: Pose {
                    pos: v.me.pos,
                    facing: v.me.facing,
                },
            }
        };
        // Fire now if this spot is at least as good for the shot as where the plan ends.
        if wants_fire {
            let now = self.shot_quality(v, v.me.pos, v.me.facing);
            if now >= self.min_phaser_chance
                && (step.is_none() || now >= self.shot_quality(v, end.pos, end.facing))
            {
                return Action::Fire {
                    dice: v.phaser_dice_left(),
                };
            }
        }
        if let Some(m) = step {
            if v.can_maneuver(m).is_ok() {
                memory.classic_plan.advance();
                return Action::Move(m);
            }
        }
        if !flee
            && v.can_launch().is_ok()
            && v.torpedo_chance_from(v.me.pos) >= self.min_torpedo_chance
        {
            return Action::Torpedo;
        }
        if !flee && self.wants_to_board(v) && v.can_transport().is_ok() {
            return Action::Transport;
        }
        Action::End
    }

    fn choose_location(&self, v: &View) -> Loc {
        let t = v.enemy_class.track.excess;
        let left = |l: Loc| t.saturating_sub(v.enemy.damage[l as usize]);
        if left(Loc::Engines) < left(Loc::Hull) {
            Loc::Engines
        } else {
            Loc::Hull
        }
    }

    fn next_shield_op(&self, v: &View) -> Option<ShieldOp> {
        let toward = Facing::new(v.my_face_toward_enemy());
        let t = toward.index();
        let left = toward.left().index();
        let right = toward.right().index();
        let s = |f: u8| v.me.shields[f as usize];
        // Generator point into the face toward the enemy.
        if v.can_reinforce(t).is_ok() {
            return Some(ShieldOp::Reinforce { face: t });
        }
        // Points from stronger neighbours into it, then into the neighbours from further round.
        for (from, to) in [
            (left, t),
            (right, t),
            (toward.turned(2).index(), left),
            (toward.turned(-2).index(), right),
        ] {
            if s(from) > s(to) + 1 && v.can_transfer(from, to).is_ok() {
                return Some(ShieldOp::Transfer { from, to });
            }
        }
        // Spare energy (beyond what repairs need) into the weaker neighbour.
        let weaker = if s(left) <= s(right) { left } else { right };
        if v.can_reinforce(weaker).is_err() {
            return None;
        }
        (v.me.available() >= v.repair_reserve() + v.shield_point_cost())
            .then_some(ShieldOp::Reinforce { face: weaker })
    }

    fn repair(&self, v: &View, _team: u32) -> Option<RepairJob> {
        // Nothing damaged, nothing to do (the usual case in the first turns).
        if v.me.damage.iter().all(|d| *d == 0) {
            return None;
        }
        if v.my_condition(Loc::Generator) >= Condition::BadlyDamaged
            && v.me.emergency_burnt
            && v.me.available() >= v.ctx.repair.emergency_energy
        {
            return Some(RepairJob::EmergencyPower);
        }
        const URGENT: [Loc; 2] = [Loc::Hull, Loc::Engines];
        // Not the hangars: a repair there changes nothing (`Loc::repair_plays`).
        const FIGHTING: [Loc; 7] = [
            Loc::Generator,
            Loc::Phasers,
            Loc::Sensors,
            Loc::Bridge,
            Loc::ShieldControl,
            Loc::Torpedoes,
            Loc::Transporter,
        ];
        let ok = |l: Loc| v.can_repair(l).is_ok();
        // Hull or engines once damaged; then disabled or damaged fighting systems; then light
        // damage
        // on hull and engines (every point there is a point nearer to breaking); then anything.
        for l in URGENT {
            if v.my_condition(l) >= Condition::Damaged && ok(l) {
                return Some(RepairJob::Location(l));
            }
        }
        for l in FIGHTING {
            if v.my_condition(l) >= Condition::Damaged && ok(l) {
                return Some(RepairJob::Location(l));
            }
        }
        URGENT
            .into_iter()
            .chain(FIGHTING)
            .find(|l| ok(*l))
            .map(RepairJob::Location)
    }

    fn boarding(&self, v: &View) -> BoardingOrder {
        if v.me.boarders.total_endurance() >= v.enemy.home_teams.total_endurance() {
            BoardingOrder::AttackDefenders
        } else {
            BoardingOrder::Hide
        }
    }

    fn deactivation(&self, v: &View) -> Deactivation {
        let mut decloak = false;
        if v.me.cloaked {
            let weakest = front_shields(v);
            decloak = weakest as f64 >= self.decloak_shields * v.my_class.shields as f64;
        }
        Deactivation {
            decloak,
            lower_shields: false,
        }
    }
}
