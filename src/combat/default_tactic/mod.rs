//! The `default` tactic: plays like a good player, with its style read from the ruleset's
//! `tactic` section (`TacticRules`), so a designer can change how a side plays without Rust.
//!
//! * Movement looks at this turn and the next: it scores each place its class can reach
//!   (the reach table) by the shot it gives now, the shot it gives next turn once inertia has
//!   moved both ships a hex forward, the enemy's shot at it (how many turns the enemy must
//!   pay to bring its arc on it after its own inertia), the shield it shows, the distance
//!   from its preferred range now and next turn (`weights.off_range`, `off_range_next`), and
//!   the energy spent. It avoids ending a turn in the enemy's hex (`weights.enemy_hex`) or
//!   on the hex the enemy's inertia carries it into (`weights.in_enemy_path`: it would start
//!   its turn in mine); where my inertia would carry me into the enemy's next hex counts
//!   only by `weights.drift_into_enemy` (the enemy moves first).
//! * It plans its move within maximum speed; when Piloting rolls fail, it finishes the plan
//!   up to `overspeed.most_points` beyond it (R3's Engines roll), while the mean damage of a
//!   failed roll would leave its engines short of damaged.
//! * It fires phasers (and launches a torpedo) at the best point of its path, also while it
//!   flees (a long torpedo at a strong face waits for a closer shot, `min_torpedo_damage`,
//!   unless the enemy could cloak first); it flees by turning away (inertia then carries it
//!   off) and jumps to warp only when the Navigation roll succeeds often enough. It breaks
//!   off within `flee.margin_share` of its damage track of breaking when the enemy is no
//!   nearer its end;
//!   one hit from breaking whatever face it shows, it fights on against an enemy with free
//!   turns (which would turn after it and fire anyway).
//! * With a cloak, while it has a torpedo left, it hides to mend shields and repair, moves
//!   while hidden (standing `cloak.stand_off` hexes beyond its preferred range, since the
//!   enemy moves first once it decloaks), and decloaks in a firing position (or after `cloak.max_turns`); it does not
//!   cloak again at once. Against an enemy that can cloak too, hiding is the fight: it hides
//!   with no torpedo left as well, cloaks again at once, stays hidden up to
//!   `cloak.max_turns_against_cloak`, and never turns away to break off (it still jumps).
//! * Its shields phase feeds the face toward the hex the enemy's inertia carries it into (it
//!   fires after moving), drawing on the whole ring.
//! * Repair teams mend the hull first, even lightly damaged, then follow the classic order,
//!   trying only what can succeed often enough; the rest of its answers (aiming, boarding)
//!   are the classic tactic's.
mod chances;
mod odds;
mod plan;
mod scene;
mod shields;
#[cfg(test)]
mod tests;
mod warp_odds;

use super::context::Loc;
use super::ship::Condition;
use super::side::Facing;
use super::tactics::{
    Action, Activation, BoardingOrder, ClassicTactic, Deactivation, Memory, RepairJob, ShieldOp,
    Tactic,
};
use super::view::View;
use super::{events::Maneuver, hex};
use crate::rules::tactic::TacticRules;
use plan::{Budget, Plan, Step};
use shields::pump_shields;

pub(crate) use plan::Mind;

/// The default tactic: its knobs, and the classic tactic for the answers it shares.
#[derive(Debug, Clone, PartialEq)]
pub struct DefaultTactic {
    pub(crate) knobs: TacticRules,
    classic: ClassicTactic,
}

impl DefaultTactic {
    pub(crate) fn new(knobs: TacticRules) -> DefaultTactic {
        DefaultTactic {
            knobs,
            classic: ClassicTactic::default(),
        }
    }

    /// The tactic with a ruleset's style (its `tactic` section, else the built-in one's).
    pub fn of(rules: &crate::rules::model::Ruleset) -> crate::error::Result<DefaultTactic> {
        Ok(DefaultTactic::new(TacticRules::of(rules)?))
    }

    fn fleeing(&self, v: &View) -> bool {
        let margin = self.knobs.flee.margin_share * v.my_class.track.excess as f64;
        let mine = v
            .my_points_left(Loc::Hull)
            .min(v.my_points_left(Loc::Engines));
        let theirs = v
            .enemy_points_left(Loc::Hull)
            .min(v.enemy_points_left(Loc::Engines));
        // Breaking off only pays when the enemy is not nearer its end. One hit from breaking
        // whatever face it shows, it fights on against an enemy with free turns: that one
        // turns after it for nothing and fires anyway, so turning away only costs its shots.
        // An enemy that pays for every turn mostly loses its arc on a ship running off.
        (v.my_condition(Loc::Hull) >= Condition::BadlyDamaged || mine as f64 <= margin)
            && theirs >= mine
            && (v.enemy_class.maneuverability == 0 || survives_a_hit_turned_away(v, mine))
    }

    /// How many energy points beyond maximum speed it may spend finishing a planned move
    /// whose maneuvers failed (`overspeed.most_points`): none once the mean damage of a
    /// failed Engines roll would leave its engines damaged (their maneuvers then cost
    /// double, R3's roll is one a turn at a penalty per point over).
    fn overspeed_points(&self, v: &View) -> u32 {
        let damage = v.me.damage[Loc::Engines as usize] as f64;
        let risked = v.ctx.maneuvers.overspeed_damage.mean();
        if damage + risked <= v.my_class.track.damaged as f64 {
            self.knobs.overspeed.most_points
        } else {
            0
        }
    }

    /// Whether a jump now beats staying: the chance it leaves alive (the failure table
    /// weighed in) is at least `flee.min_warp_chance` and at least the chance of outlasting
    /// the enemy, reckoned as my points left over both ships' (hull or engines, the nearer
    /// its end; the enemy's as my sensors last found it).
    fn jump_beats_staying(&self, v: &View) -> bool {
        let left = |mine: bool| {
            let (h, e) = if mine {
                (v.my_points_left(Loc::Hull), v.my_points_left(Loc::Engines))
            } else {
                (
                    v.enemy_points_left(Loc::Hull),
                    v.enemy_points_left(Loc::Engines),
                )
            };
            h.min(e) as f64
        };
        let (mine, theirs) = (left(true), left(false));
        let staying = if mine + theirs > 0.0 {
            mine / (mine + theirs)
        } else {
            0.5
        };
        let jump = warp_odds::jump_survival(v);
        jump >= self.knobs.flee.min_warp_chance && jump > staying
    }

    /// Whether the ship should close before anything else: the enemy out of sensor range
    /// (where it was last seen), or out of its phaser arc farther than its range (stand-off
    /// while hiding) plus its maximum speed.
    fn far_off(&self, v: &View) -> bool {
        let d = v.distance();
        if d > v.ctx.sensor_range && (!v.me.cloaked || ready_to_strike(&self.knobs, v)) {
            return true;
        }
        let k = &self.knobs;
        let hiding = v.me.cloaked && !ready_to_strike(&self.knobs, v);
        let wanted = k.preferred_range + if hiding { k.cloak.stand_off } else { 0 };
        d > wanted + v.my_class.max_speed
            && !hex::in_phaser_arc(v.me.pos, v.me.facing, v.enemy_pos())
    }

    /// Whether the enemy (as my sensors last found it) has fewer points left before it
    /// breaks (hull or engines, the nearer) than I have: hiding to mend then gives it the
    /// same respite (its repair teams work while it cannot fire at me either) and only
    /// draws the battle out.
    fn enemy_nearer_its_end(&self, v: &View) -> bool {
        let mine = v
            .my_points_left(Loc::Hull)
            .min(v.my_points_left(Loc::Engines));
        let theirs = v
            .enemy_points_left(Loc::Hull)
            .min(v.enemy_points_left(Loc::Engines));
        theirs < mine
    }

    /// Whether hiding can change the outcome: a face toward the enemy is down and the ship
    /// still has a torpedo for the strike it positions for while hidden ("una táctica
    /// habitual es posicionar la nave antes de desactivar el camuflaje"). Without one, both
    /// ships mend and repair alike while it hides (the enemy cannot fire either), so hiding
    /// only draws the battle out: cloaking with no torpedo left kept ~26% of the headline
    /// battles unfinished at 500 turns.
    ///
    /// Against an enemy that can cloak it hides with no torpedo left as well: that enemy
    /// hides to mend whatever I do, and while I am hidden it may not maneuver to settle
    /// behind me (R6). In the cloaked mirrors against classic this alone won 4 points more
    /// of the decided battles (50.1% -> 54.0% on the Klingon, 4 x 2000 battles).
    fn hiding_pays(&self, v: &View) -> bool {
        front_shield_share(v) < self.knobs.cloak.below_shields
            && (v.me.torpedoes > 0 || v.enemy_class.cloak)
    }

    /// Whether, decloaking here, the next turn opens with a shot: the enemy in my arc now
    /// within reach of my preferred range, or where its inertia takes it from where mine
    /// takes me.
    fn firing_position(&self, v: &View) -> bool {
        let reach = self.knobs.preferred_range + 2;
        let now = hex::in_phaser_arc(v.me.pos, v.me.facing, v.enemy_pos())
            && (1..=reach).contains(&v.distance());
        let (me_next, enemy_next) = (
            v.me.pos.neighbour(v.me.facing),
            v.enemy_pos().neighbour(v.enemy_facing()),
        );
        let d = me_next.distance(enemy_next);
        let next = d > 0 && d <= reach && hex::in_phaser_arc(me_next, v.me.facing, enemy_next);
        now || next
    }
}

impl Tactic for DefaultTactic {
    fn name(&self) -> &str {
        "default"
    }

    fn activation(&self, v: &View) -> Activation {
        let raise = !v.me.shields_raised;
        let c = &self.knobs.cloak;
        // It rests between episodes, except against an enemy that can cloak too: that one
        // hides again at once itself (the cloaked mirrors won 3-4 points more).
        let rested = v.enemy_class.cloak
            || v.my_turns_since_decloak()
                .is_none_or(|t| t >= c.max_turns.max(1));
        let cloak = v.my_class.cloak
            && !v.me.cloaked
            && v.turn > 1
            && rested
            && cloak_turns(&self.knobs, v) > 0
            && v.my_condition(Loc::Hull) == Condition::Light
            && self.hiding_pays(v)
            && !self.enemy_nearer_its_end(v)
            && v.me.available()
                >= v.ctx.energy.cloak
                    + if raise { v.raise_cost() } else { 0 }
                    + v.shield_point_cost()
            && !(hex::in_phaser_arc(v.me.pos, v.me.facing, v.enemy_pos())
                && v.phaser_chance_from(v.me.pos) >= self.knobs.min_phaser_chance.max(0.3));
        Activation {
            raise_shields: raise,
            cloak,
            charge_battery: super::tactics::battery_charge(v, raise, cloak),
        }
    }

    fn next_action(&self, v: &View, memory: &mut Memory) -> Action {
        let k = &self.knobs;
        let flee = self.fleeing(v);
        if flee && v.can_warp().is_ok() && self.jump_beats_staying(v) {
            return Action::Warp;
        }
        // An enemy that can cloak finds a ship running off and strikes it hidden from behind:
        // against it, it fights on unless it jumps (the cloaked mirrors won about 1 point more).
        let flee = flee && !v.enemy_class.cloak;
        let dice = v.phaser_dice_left();
        let can_fire = v.can_fire(dice).is_ok();
        let shot_left = dice > 0 && !v.me.cloaked && v.enemy_visible();
        let torpedo_energy =
            if v.me.torpedoes > 0 && v.me.torpedoes_launched < v.ctx.torpedoes_per_turn {
                v.torpedo_energy()
            } else {
                0
            };
        let reserve = if flee {
            v.warp_cost() + dice * v.ctx.energy.phaser_die
        } else {
            dice * v.ctx.energy.phaser_die + torpedo_energy + v.shield_point_cost()
        };
        let spendable = v.me.available().saturating_sub(reserve);
        let max_speed_left = v.my_class.max_speed.saturating_sub(v.me.maneuver_energy);
        let budget = Budget {
            plan: max_speed_left.min(spendable),
            finish: (v.my_class.max_speed + self.overspeed_points(v))
                .saturating_sub(v.me.maneuver_energy)
                .min(spendable),
        };
        let can_move =
            v.can_maneuver(Maneuver::TurnLeft).is_ok() || v.can_maneuver(Maneuver::Forward).is_ok();
        let mind = &mut memory.default_mind;
        // Out of contact, or farther than this turn's maneuvers can bring it to the range it
        // wants with the enemy out of its arc, a ship that wants the fight turns toward the
        // enemy and closes, spending its maneuvers on it. (The planner looks one turn ahead,
        // and one turn does not repay the energy of turning round.)
        let closing = !flee && can_move && self.far_off(v);
        if closing {
            mind.plan = Plan::default();
            if let Some(m) = closing_move(v, budget.plan) {
                return Action::Move(m);
            }
        }
        mind.chances.refresh(v);
        let now = mind.chances.phaser_from(v, v.me.pos, v.me.facing);
        let fire_now = (can_fire && now >= k.min_phaser_chance).then_some(now);
        let step = if can_move && !closing {
            self.next_step(v, mind, budget, flee, shot_left, fire_now)
        } else {
            mind.plan = Plan::default();
            Step::Stay
        };
        let (plan, chances) = (&mind.plan, &mind.chances);
        let moving = matches!(step, Step::Move(_));
        if step == Step::Fire {
            return Action::Fire { dice };
        }
        // Fire where the path gives the best shot: here, unless a later place is better.
        if let Some(now) = fire_now {
            let ahead = if moving { plan.ahead().0 } else { 0.0 };
            if now >= ahead {
                return Action::Fire { dice };
            }
        }
        // The torpedo where the path lines it up best.
        if v.can_launch().is_ok() {
            let now = chances.torpedo_from(v, v.me.pos, v.me.facing);
            let ahead = if moving { plan.ahead().1 } else { 0.0 };
            // A long shot at a strong face waits for a closer one, unless the enemy can
            // cloak (it may hide before that comes).
            let worth = v.enemy_class.cloak || torpedo_harm(v, now) >= k.min_torpedo_damage;
            if now >= k.min_torpedo_chance && now >= ahead && worth {
                return Action::Torpedo;
            }
        }
        if let Step::Move(m) = step {
            if v.can_maneuver(m).is_ok() {
                mind.plan.route.next += 1;
                return Action::Move(m);
            }
        }
        if !flee && self.classic.wants_to_board(v) && v.can_transport().is_ok() {
            return Action::Transport;
        }
        Action::End
    }

    fn choose_location(&self, v: &View) -> Loc {
        self.classic.choose_location(v)
    }

    fn next_shield_op(&self, v: &View) -> Option<ShieldOp> {
        pump_shields(v)
    }

    fn repair(&self, v: &View, team: u32) -> Option<RepairJob> {
        let worth = |l: Loc| {
            l.repair_plays()
                && v.can_repair(l).is_ok()
                && v.repair_chance(l) >= self.knobs.min_repair_chance
        };
        // The hull first, even lightly damaged: past its first threshold it stops less of
        // every hit, and the excess of every other location ends there.
        if worth(Loc::Hull) {
            return Some(RepairJob::Location(Loc::Hull));
        }
        // Then the classic order of urgency, skipping what would hardly ever succeed.
        let job = self.classic.repair(v, team)?;
        let RepairJob::Location(first) = job else {
            return Some(job);
        };
        if worth(first) {
            return Some(job);
        }
        Loc::ALL
            .iter()
            .copied()
            .filter(|l| worth(*l))
            .max_by_key(|l| v.me.damage[*l as usize])
            .map(RepairJob::Location)
    }

    fn boarding(&self, v: &View) -> BoardingOrder {
        self.classic.boarding(v)
    }

    fn absorb(&self, v: &View, damage: u32) -> bool {
        self.classic.absorb(v, damage)
    }

    fn deactivation(&self, v: &View) -> Deactivation {
        let mut orders = self.classic.deactivation(v);
        // A cloak episode ends where the ship can strike: in a firing position once its
        // shields are whole or its time is up (it then closes to strike, `ready_to_strike`);
        // only a ship that finds no such place in as long again drops it anyway.
        orders.decloak = v.me.cloaked
            && ((ready_to_strike(&self.knobs, v) && self.firing_position(v))
                || v.my_turns_cloaked() >= 2 * cloak_turns(&self.knobs, v));
        orders
    }
}

/// The most turns a cloak episode lasts before the ship is done hiding: longer against an
/// enemy that can cloak too (it hides until its shields are whole; decloaking sooner gives
/// it the first strike).
fn cloak_turns(k: &TacticRules, v: &View) -> u32 {
    if v.enemy_class.cloak {
        k.cloak.max_turns_against_cloak
    } else {
        k.cloak.max_turns
    }
}

/// Whether a cloaked ship is done hiding and should close to strike: its shields are whole
/// again, or it has been cloaked as long as `cloak_turns` allows.
fn ready_to_strike(k: &TacticRules, v: &View) -> bool {
    v.my_turns_cloaked() >= cloak_turns(k, v) || front_shield_share(v) >= k.cloak.decloak_shields
}

/// The weakest of my three faces toward the enemy, as a share of the rating.
fn front_shield_share(v: &View) -> f64 {
    super::tactics::front_shields(v) as f64 / v.my_class.shields.max(1) as f64
}

/// The maneuver that brings the enemy (where it was last seen) ahead and then closes on it,
/// within `budget` energy: turn toward it until it is in the phaser arc, then forward.
fn closing_move(v: &View, budget: u32) -> Option<Maneuver> {
    let enemy = v.enemy_pos();
    let m = if hex::in_phaser_arc(v.me.pos, v.me.facing, enemy) {
        Maneuver::Forward
    } else {
        // The face of my hex toward it, counted from the bow: 1-3 lie to the left.
        let (face, _) = hex::faces_toward(v.me.pos, enemy);
        match hex::relative_face(face, v.me.facing) {
            1..=3 => Maneuver::TurnLeft,
            _ => Maneuver::TurnRight,
        }
    };
    (v.maneuver_cost(m) <= budget && v.can_maneuver(m).is_ok()).then_some(m)
}

/// The harm a torpedo launched from here is expected to do: `through` (the chance it is not
/// dodged) times its mean damage beyond the shield of the enemy face it meets (what lowers
/// that face, and then goes on to the hull), after what it loses on the way.
fn torpedo_harm(v: &View, through: f64) -> f64 {
    let (_, kind) = &v.ctx.torpedo_kinds[v.my_class.torpedo_kind];
    let Some((min, odds)) = v.ctx.torpedo_damage(v.my_class.torpedo_kind) else {
        return 0.0;
    };
    let lost = kind.loss_per_hex as i64 * v.distance() as i64;
    let stopped = v.enemy_shield(v.enemy_face_from(v.me.pos)) as i64;
    let beyond: f64 = (*min..)
        .zip(odds)
        .map(|(damage, p)| p * (damage - lost - stopped).max(0) as f64)
        .sum();
    through * beyond
}

/// Whether, with `points_left` before it breaks, the ship survives the enemy's usual hit (its
/// torpedo's mean damage while its class carries them, else its phasers' mean volley) on the
/// strongest face it can turn to the enemy while it flees.
fn survives_a_hit_turned_away(v: &View, points_left: u32) -> bool {
    let class = v.enemy_class;
    let volley = class.phaser_dice as f64 * (class.phaser_sides as f64 + 1.0) / 2.0;
    let torpedo = if class.torpedoes > 0 {
        let (_, kind) = &v.ctx.torpedo_kinds[class.torpedo_kind];
        kind.damage.mean()
    } else {
        0.0
    };
    let best = (0..Facing::COUNT)
        .map(|f| v.me.shield_value(f))
        .max()
        .unwrap_or(0);
    let hit = volley.max(torpedo).round() as u32;
    let (_, through) = super::damage::shield_absorb(best, hit);
    through <= points_left
}
