//! Tactics: how a side decides. `Tactic` is the plug-in point (the scripting layer wraps
//! rhai functions in it); `DefaultTactic` plays either side sensibly.
//!
//! The engine asks one question at a time and checks every answer against the rules: an
//! illegal answer ends that step (and is reported as refused when narrating), so a buggy
//! tactic cannot break a battle or loop forever.
use super::context::Loc;
use super::events::Maneuver;
use super::hex::{self, Hex};
use super::reach::{Reach, MAX_MOVES};
use super::ship::Condition;
use super::skill::{Level, Skill};
use super::view::View;

/// What to do next in the move-fire-transport phase.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Action {
    Move(Maneuver),
    /// Fire this many phaser dice as one shot (the turn's dice may be split over shots).
    Fire { dice: u32 },
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
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Deactivation {
    /// Energy left this turn to store in the battery (the rest is lost).
    pub charge_battery: u32,
    pub decloak: bool,
    pub lower_shields: bool,
}

/// Scratch memory a tactic keeps for one side during one battle (fresh at its start), so a
/// tactic can stay `&self` (shared between threads) and still remember a plan.
#[derive(Debug, Clone, Copy, Default)]
pub struct Memory {
    /// The default tactic's movement plan.
    pub plan: PlanCache,
    /// Free for other tactics.
    pub words: [i64; 8],
}

/// A movement plan being followed: the moves, and the state expected before each.
#[derive(Debug, Clone, Copy, Default)]
pub struct PlanCache {
    turn: u32,
    flee: bool,
    /// The engines multiplier the costs were worked out with.
    mult: u32,
    len: u8,
    next: u8,
    moves: [Option<Maneuver>; MAX_PLAN],
    /// Position, facing and free turns used before each move (and after the last).
    before: [(Hex, u8, u32); MAX_PLAN + 1],
    /// Energy the moves still to make cost, from each move on.
    cost_from: [u32; MAX_PLAN + 1],
    end: (Hex, u8),
}

const MAX_PLAN: usize = MAX_MOVES;

/// A side's decision maker. Every method sees the battle through a `View`.
pub trait Tactic: Send + Sync {
    fn name(&self) -> &str;
    /// Phase 0: raise shields, switch the cloak on.
    fn activation(&self, view: &View) -> Activation;
    /// Phase 2, asked repeatedly until `Action::End`. `memory` is this side's scratch space
    /// for the battle (a plan made at the first question can be followed at the next ones).
    fn next_action(&self, view: &View, memory: &mut Memory) -> Action;
    /// After a special success: the location the shot hits.
    fn choose_location(&self, view: &View) -> Loc;
    /// Phase 3, asked repeatedly until `None`.
    fn next_shield_op(&self, view: &View) -> Option<ShieldOp>;
    /// Phase 4: the job of repair team `team` (0-based), or `None` to rest it.
    fn repair(&self, view: &View, team: u32) -> Option<RepairJob>;
    /// This side's boarders aboard the enemy.
    fn boarding(&self, view: &View) -> BoardingOrder;
    /// Whether this side's defenders absorb a location attack by enemy boarders.
    fn absorb(&self, view: &View, damage: u32) -> bool;
    /// Phase 5.
    fn deactivation(&self, view: &View) -> Deactivation;
}

/// The default tactic, with its knobs (these are play style, not rules).
///
/// * Raises shields first; keeps them up.
/// * Moves to keep the enemy in its phaser arc at `preferred_range`, ideally on its torpedo
///   line, showing its strongest face, spending as little energy as it can; it never goes
///   over maximum speed. It picks the best place its class can reach this turn (the class's
///   reach table: every place up to seven maneuvers away, with the cheapest way there),
///   plans once a turn, and plans again only when a failed maneuver leaves the rest of the
///   plan unaffordable. It fires before moving when the shot is better now than after.
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
pub struct DefaultTactic {
    pub preferred_range: u32,
    pub min_phaser_chance: f64,
    pub min_torpedo_chance: f64,
    pub decloak_shields: f64,
    pub warp_margin: u32,
}

impl Default for DefaultTactic {
    fn default() -> Self {
        DefaultTactic { preferred_range: 3, min_phaser_chance: 0.15, min_torpedo_chance: 0.35, decloak_shields: 0.8, warp_margin: 3 }
    }
}

/// Distances the scorer tabulates: every place in reach is within `MAX_MOVES` hexes of
/// the enemy's distance at the start.
const WINDOW: usize = 2 * MAX_MOVES + 1;

/// Scores places for the movement plan, in thousandths of a point (whole numbers, so the
/// scan is cheap and ties are exact). The enemy stays put during our move. Everything is in
/// the ship's frame at the start of the plan (bow along direction 0), as the reach table is.
struct Scorer {
    enemy: Hex,
    /// Bit of `Relation::seen_by` for the enemy's facing, or 0 when it cannot be seen.
    enemy_facing: u8,
    seen_penalty: i64,
    /// By my face toward the enemy: how far the enemy face a shot along that line meets is
    /// below its rating.
    weakness: [i64; 6],
    /// By face f + 6 − turn: the value of showing my shield of face f after turning `turn`.
    shown: [i64; 12],
    /// The nearest distance tabulated; entry k below is for distance `nearest + k`.
    nearest: u32,
    /// Bit k: a shot can be fired at that distance.
    in_range: u32,
    /// By distance: the value of standing there at all, of having the enemy in the phaser arc
    /// there, and on the torpedo row.
    at: [i64; WINDOW],
    in_arc: [i64; WINDOW],
    in_row: [i64; WINDOW],
}

/// Points (never negative here) to the nearest thousandth.
#[inline(always)]
fn milli(points: f64) -> i64 {
    (points * 1000.0 + 0.5) as i64
}

impl Scorer {
    /// Value of standing at `offset`, turned `turn` faces from the start, having spent `spent`
    /// energy on maneuvers.
    #[inline(always)]
    fn score(&self, offset: Hex, turn: u8, spent: u32) -> i64 {
        // Distance, faces and arcs of the offset at once (a table lookup for near offsets).
        let rel = hex::relation(self.enemy.minus(offset));
        let k = (rel.distance.saturating_sub(self.nearest) as usize).min(WINDOW - 1);
        // The line between the centres crosses my face f and the enemy's face f + 3 (two
        // faces on a vertex, where the stronger counts).
        let (mine, other) = rel.face_pair();
        let mut s = self.at[k];
        if (self.in_range >> k) & 1 != 0 && rel.in_arc(turn) {
            // Better still if the shot lands on a weakened face.
            s += self.in_arc[k] + self.weakness[mine as usize].min(self.weakness[other as usize]);
            if rel.in_row(turn) {
                s += self.in_row[k];
            }
        }
        if rel.seen_by(self.enemy_facing) {
            s -= self.seen_penalty;
        }
        // Show the enemy a strong face: after turning, face f carries the shield of face f − turn.
        s += self.shown[(mine + 6 - turn) as usize].max(self.shown[(other + 6 - turn) as usize]);
        s - 1500 * spent as i64
    }
}

/// The best-scoring place of `places` (cheapest first) affordable within `budget`, if any
/// beats staying put.
#[inline(always)]
fn best_place(places: &[Reach], mult: u32, budget: u32, stay: i64, score: impl Fn(&Reach, u32) -> i64) -> Option<&Reach> {
    let mut best = None;
    let mut best_score = stay;
    for r in places {
        let spent = r.cost.saturating_mul(mult);
        if spent > budget {
            break;
        }
        let s = score(r, spent);
        if s > best_score {
            best = Some(r);
            best_score = s;
        }
    }
    best
}

/// Where a maneuver takes a ship.
pub fn apply_maneuver(pos: Hex, facing: u8, m: Maneuver) -> (Hex, u8) {
    match m {
        Maneuver::Forward => (pos.neighbour(facing), facing),
        Maneuver::Back => (pos.neighbour((facing + 3) % 6), facing),
        Maneuver::TurnLeft => (pos, hex::turn_left(facing)),
        Maneuver::TurnRight => (pos, hex::turn_right(facing)),
    }
}

impl DefaultTactic {
    fn fleeing(&self, v: &View) -> bool {
        let hull = v.me.damage[Loc::Hull as usize];
        let t = v.my_class.track;
        v.my_condition(Loc::Hull) >= Condition::BadlyDamaged || hull + self.warp_margin > t.excess
    }

    /// What scoring a place needs, computed once per plan, in the ship's frame.
    #[inline(always)]
    fn scorer(&self, v: &View) -> Scorer {
        let facing = v.me.facing % 6;
        let enemy = v.enemy.pos.minus(v.me.pos).in_frame(facing);
        let nearest = Hex::default().distance(enemy).saturating_sub(MAX_MOVES as u32);
        let mut at = [0; WINDOW];
        let mut in_arc = [0; WINDOW];
        let mut in_row = [0; WINDOW];
        let mut in_range = 0u32;
        // Skills once; the chances then depend on distance alone.
        let gunnery = v.my_skill(Skill::Gunnery, 0);
        let not_dodged = if v.enemy_can_dodge() { 1.0 - v.ctx.thresholds.chance(Level::Special, v.enemy_skill(Skill::Piloting, 0)) } else { 1.0 };
        let torpedoes = if v.me.torpedoes > 0 { 8.0 } else { 0.0 };
        // The chance a torpedo is not dodged over each hex it travels.
        let mut through = 1.0;
        for _ in 1..nearest.min(v.ctx.sensor_range + 1) {
            through *= not_dodged;
        }
        for k in 0..WINDOW {
            let d = nearest + k as u32;
            // Near the preferred range; never in the enemy's hex.
            at[k] = -2000 * d.abs_diff(self.preferred_range) as i64 - if d == 0 { 20_000 } else { 0 };
            if d == 0 || d > v.ctx.sensor_range {
                continue;
            }
            in_range |= 1 << k;
            in_arc[k] = milli(10.0 + 20.0 * v.ctx.thresholds.chance(Level::Success, gunnery - (d * v.ctx.phaser_range_penalty) as i32));
            through *= not_dodged;
            in_row[k] = milli(torpedoes * through);
        }
        let mut weakness = [0; 6];
        let mut shown = [0; 12];
        for f in 0..6 {
            weakness[f] = 1000 * v.enemy_class.shields.saturating_sub(v.enemy.shield_value((f as u8 + facing + 3) % 6)) as i64;
            shown[f] = 600 * v.me.shields[(f + facing as usize) % 6] as i64;
            shown[f + 6] = shown[f];
        }
        Scorer {
            enemy,
            enemy_facing: (v.enemy.facing % 6 + 6 - facing) % 6,
            seen_penalty: if v.enemy_visible() { 2000 } else { 0 },
            weakness,
            shown,
            nearest,
            in_range,
            at,
            in_arc,
            in_row,
        }
    }

    /// The best place within reach (staying put included) and the cheapest moves there,
    /// stored in `cache`. The class's reach table lists the places, cheapest first.
    fn plan(&self, v: &View, budget: u32, flee: bool, cache: &mut PlanCache) {
        let free = v.my_class.maneuverability.saturating_sub(v.me.free_turns_used);
        let mult = if v.my_condition(Loc::Engines) >= Condition::Damaged { v.ctx.energy.damaged_multiplier } else { 1 };
        let (start_pos, start_facing) = (v.me.pos, v.me.facing);
        let places = v.my_class.reach.places(free);
        let best = if flee {
            // Away from the enemy, as cheaply as possible.
            let enemy = v.enemy.pos.minus(start_pos).in_frame(start_facing % 6);
            let away = |offset: Hex, spent: u32| 10_000 * offset.distance(enemy) as i64 - 1000 * spent as i64;
            best_place(places, mult, budget, away(Hex::default(), 0), |r, spent| away(r.offset, spent))
        } else {
            let sc = self.scorer(v);
            best_place(places, mult, budget, sc.score(Hex::default(), 0, 0), |r, spent| sc.score(r.offset, r.turn, spent))
        };
        let moves = best.map_or(&[][..], |r| r.moves());
        // Remember the moves, the state expected before each and what the rest costs.
        *cache = PlanCache { turn: v.turn, flee, mult, len: moves.len() as u8, next: 0, ..PlanCache::default() };
        let e = &v.ctx.energy;
        let (mut pos, mut facing, mut free_used) = (start_pos, start_facing, v.me.free_turns_used);
        let mut costs = [0u32; MAX_PLAN];
        cache.before[0] = (pos, facing, free_used);
        for (i, &m) in moves.iter().enumerate() {
            let is_turn = matches!(m, Maneuver::TurnLeft | Maneuver::TurnRight);
            if is_turn && free_used < v.my_class.maneuverability {
                free_used += 1;
            } else {
                costs[i] = mult * match m {
                    Maneuver::Forward => e.forward,
                    Maneuver::Back => e.back,
                    _ => e.turn,
                };
            }
            (pos, facing) = apply_maneuver(pos, facing, m);
            cache.moves[i] = Some(m);
            cache.before[i + 1] = (pos, facing, free_used);
        }
        for i in (0..moves.len()).rev() {
            cache.cost_from[i] = cache.cost_from[i + 1] + costs[i];
        }
        cache.end = (pos, facing);
    }

    fn shot_quality(&self, v: &View, pos: Hex, facing: u8) -> f64 {
        let d = pos.distance(v.enemy.pos);
        if d == 0 || d > v.ctx.sensor_range || !hex::in_phaser_arc(pos, facing, v.enemy.pos) {
            return 0.0;
        }
        v.phaser_chance_from(pos)
    }

    fn wants_to_board(&self, v: &View) -> bool {
        let aboard = v.me.boarders.total_endurance() + v.ctx.security.endurance;
        let home_after = v.me.home_teams.alive().saturating_sub(1);
        aboard >= v.enemy.home_teams.total_endurance() && home_after >= 1
    }
}

impl super::tactics::Tactic for DefaultTactic {
    fn name(&self) -> &str {
        "default"
    }

    fn activation(&self, v: &View) -> Activation {
        let raise = !v.me.shields_raised;
        let mut cloak = false;
        if v.my_class.cloak && !v.me.cloaked && v.turn > 1 && v.my_condition(Loc::Hull) == Condition::Light {
            let toward = v.my_face_toward_enemy();
            let weakest = [toward, (toward + 1) % 6, (toward + 5) % 6].iter().map(|f| v.me.shields[*f as usize]).min().unwrap_or(0);
            let shaky = (weakest as f64) < v.my_class.shields as f64 / 2.0;
            let spare = v.me.available() >= v.ctx.energy.cloak + if raise { v.raise_cost() } else { 0 } + 2;
            cloak = shaky && spare && self.shot_quality(v, v.me.pos, v.me.facing) < 0.3;
        }
        Activation { raise_shields: raise, cloak }
    }

    fn next_action(&self, v: &View, memory: &mut Memory) -> Action {
        let flee = self.fleeing(v);
        if flee && v.can_warp().is_ok() {
            return Action::Warp;
        }
        let phaser_cost = v.phaser_dice_left() * v.ctx.energy.phaser_die;
        let wants_fire = !flee && v.can_fire(v.phaser_dice_left()).is_ok();
        let reserve = if flee { v.warp_cost() } else { phaser_cost + v.shield_point_cost() };
        let max_speed_left = v.my_class.max_speed.saturating_sub(v.me.maneuver_energy);
        let budget = max_speed_left.min(v.me.available().saturating_sub(reserve));
        let can_move = v.can_maneuver(Maneuver::TurnLeft).is_ok() || v.can_maneuver(Maneuver::Forward).is_ok();
        let (step, (end_pos, end_facing)) = if can_move {
            // Follow the plan while it can be followed. A failed maneuver leaves the ship where
            // it was: retrying it keeps to the best place still affordable (a cheapest path's
            // rest is a cheapest path), so only a plan that no longer fits the budget, or a
            // change of mind about fleeing or of engine costs, is made afresh.
            let mult = if v.my_condition(Loc::Engines) >= Condition::Damaged { v.ctx.energy.damaged_multiplier } else { 1 };
            let here = (v.me.pos, v.me.facing, v.me.free_turns_used);
            let c = &mut memory.plan;
            if c.next > 0 && c.next <= c.len && c.before[c.next as usize] != here && c.before[c.next as usize - 1] == here {
                c.next -= 1; // the last move failed: it is the next one again
            }
            let on_track = c.turn == v.turn
                && c.flee == flee
                && c.mult == mult
                && c.next <= c.len
                && c.before[c.next as usize] == here
                && c.cost_from[c.next as usize] <= budget;
            if !on_track {
                self.plan(v, budget, flee, c);
            }
            let step = if c.next < c.len { c.moves[c.next as usize] } else { None };
            (step, c.end)
        } else {
            (None, (v.me.pos, v.me.facing))
        };
        // Fire now if this spot is at least as good for the shot as where the plan ends.
        if wants_fire {
            let now = self.shot_quality(v, v.me.pos, v.me.facing);
            if now >= self.min_phaser_chance && (step.is_none() || now >= self.shot_quality(v, end_pos, end_facing)) {
                return Action::Fire { dice: v.phaser_dice_left() };
            }
        }
        if let Some(m) = step {
            if v.can_maneuver(m).is_ok() {
                memory.plan.next += 1;
                return Action::Move(m);
            }
        }
        if !flee && v.can_launch().is_ok() && v.torpedo_chance_from(v.me.pos) >= self.min_torpedo_chance {
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
        let t = v.my_face_toward_enemy();
        let left = (t + 1) % 6;
        let right = (t + 5) % 6;
        let s = |f: u8| v.me.shields[f as usize];
        // Generator point into the face toward the enemy.
        if v.can_reinforce(t).is_ok() {
            return Some(ShieldOp::Reinforce { face: t });
        }
        // Points from stronger neighbours into it, then into the neighbours from further round.
        for (from, to) in [(left, t), (right, t), ((t + 2) % 6, left), ((t + 4) % 6, right)] {
            if s(from) > s(to) + 1 && v.can_transfer(from, to).is_ok() {
                return Some(ShieldOp::Transfer { from, to });
            }
        }
        // Spare energy (beyond what repairs need) into the weaker neighbour.
        let repairs: u32 = Loc::ALL.iter().filter_map(|l| v.repair_cost(*l)).take(v.my_class.repair_teams as usize).sum();
        let weaker = if s(left) <= s(right) { left } else { right };
        if v.me.available() >= repairs + v.shield_point_cost() && v.can_reinforce(weaker).is_ok() {
            return Some(ShieldOp::Reinforce { face: weaker });
        }
        None
    }

    fn repair(&self, v: &View, _team: u32) -> Option<RepairJob> {
        if v.my_condition(Loc::Generator) >= Condition::BadlyDamaged && v.me.emergency_burnt && v.me.available() >= v.ctx.repair.emergency_energy {
            return Some(RepairJob::EmergencyPower);
        }
        const URGENT: [Loc; 2] = [Loc::Hull, Loc::Engines];
        const FIGHTING: [Loc; 8] =
            [Loc::Generator, Loc::Phasers, Loc::Sensors, Loc::Bridge, Loc::ShieldControl, Loc::Torpedoes, Loc::Transporter, Loc::Hangars];
        let ok = |l: Loc| v.can_repair(l).is_ok();
        // Hull or engines once damaged; then disabled or damaged fighting systems; then light damage
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
        URGENT.into_iter().chain(FIGHTING).find(|l| ok(*l)).map(RepairJob::Location)
    }

    fn boarding(&self, v: &View) -> BoardingOrder {
        if v.me.boarders.total_endurance() >= v.enemy.home_teams.total_endurance() {
            BoardingOrder::AttackDefenders
        } else {
            BoardingOrder::Hide
        }
    }

    fn absorb(&self, _v: &View, _damage: u32) -> bool {
        true
    }

    fn deactivation(&self, v: &View) -> Deactivation {
        let mut decloak = false;
        if v.me.cloaked {
            let toward = v.my_face_toward_enemy();
            let weakest = [toward, (toward + 1) % 6, (toward + 5) % 6].iter().map(|f| v.me.shields[*f as usize]).min().unwrap_or(0);
            decloak = weakest as f64 >= self.decloak_shields * v.my_class.shields as f64;
        }
        let room = v.my_class.battery.saturating_sub(v.me.battery);
        let per = v.ctx.energy.battery_point.max(1);
        Deactivation { charge_battery: room.min(v.me.energy / per), decloak, lower_shields: false }
    }
}

/// Chance of at least a special success with this effective skill (for tactics).
pub fn special_chance(v: &View, skill: Skill, penalty: i32) -> f64 {
    v.ctx.thresholds.chance(Level::Special, v.my_skill(skill, penalty))
}
