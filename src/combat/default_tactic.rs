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
//! * It fires phasers (and launches a torpedo) at the best point of its path, also while it
//!   flees (a long torpedo at a strong face waits for a closer shot, `min_torpedo_damage`,
//!   unless the enemy could cloak first); it flees by turning away (inertia then carries it
//!   off) and jumps to warp only when the Navigation roll succeeds often enough. It breaks
//!   off only when it would live through the enemy's usual hit on its best face: one hit
//!   from breaking, it fights on.
//! * With a cloak it hides to mend shields and repair, moves while hidden (standing
//!   `cloak.stand_off` hexes beyond its preferred range, since the enemy moves first once it
//!   decloaks), and decloaks in a firing position (or after `cloak.max_turns`); it does not
//!   cloak again at once.
//! * Its shields phase feeds the face toward the hex the enemy's inertia carries it into (it
//!   fires after moving), drawing on the whole ring.
//! * Repair teams mend the hull first, even lightly damaged, then follow the classic order,
//!   trying only what can succeed often enough; the rest of its answers (aiming, boarding)
//!   are the classic tactic's.
//! * It reads the enemy through the `View`'s methods only.
use super::context::Loc;
use super::events::Maneuver;
use super::hex::{self, Hex, Relation};
use super::planner::{Route, Waypoint};
use super::reach::{Reach, Reachable, MAX_MOVES};
use super::ship::Condition;
use super::side::Facing;
use super::tactics::{
    Action, Activation, BoardingOrder, ClassicTactic, Deactivation, Memory, RepairJob, ShieldOp,
    Tactic,
};
use super::view::View;
use crate::rules::tactic::TacticRules;

/// The default tactic: its knobs, and the classic tactic for the answers it shares.
#[derive(Debug, Clone, PartialEq)]
pub struct DefaultTactic {
    pub knobs: TacticRules,
    classic: ClassicTactic,
}

/// The movement plan being followed this turn (kept in the side's `Memory`).
#[derive(Debug, Clone, Copy, Default)]
pub struct Plan {
    route: Route,
    /// Whether the plan was made with a shot still to come.
    shot_left: bool,
    /// The best phaser and torpedo chances at the waypoints from each one on (0 past the
    /// end), worked out once a plan: within a move phase they change only with the plan.
    phaser_ahead: [f64; MAX_MOVES + 2],
    torpedo_ahead: [f64; MAX_MOVES + 2],
}

impl Plan {
    /// The plan of the moves to `place` (None: stay), for a shot still to come or not.
    fn follow(
        &mut self,
        v: &View,
        chances: &Chances,
        place: Option<&Reach>,
        (flee, shot_left): (bool, bool),
        mult: u32,
    ) {
        let moves = place.map_or(&[][..], |r| r.moves());
        *self = Plan {
            route: Route::new(v, moves, flee, mult),
            shot_left,
            ..Plan::default()
        };
        for i in (0..=moves.len()).rev() {
            let Waypoint { pos, facing, .. } = self.route.before[i];
            let to_enemy = hex::relation(v.enemy_pos().minus(pos));
            let phaser = DefaultTactic::shot_chance_across(v, chances, to_enemy, facing);
            let torpedo = DefaultTactic::torpedo_chance_across(v, chances, to_enemy, facing);
            self.phaser_ahead[i] = phaser.max(self.phaser_ahead[i + 1]);
            self.torpedo_ahead[i] = torpedo.max(self.torpedo_ahead[i + 1]);
        }
    }

    /// The best phaser and torpedo chances at the places the rest of the plan passes
    /// through (after the next move).
    fn ahead(&self) -> (f64, f64) {
        let i = (self.route.next as usize + 1).min(MAX_MOVES + 1);
        (self.phaser_ahead[i], self.torpedo_ahead[i])
    }
}

/// The default tactic's memory for a battle: its plan, its table of chances and the
/// Piloting odds its scans weigh places by.
#[derive(Debug, Clone, Copy, Default)]
pub struct Mind {
    plan: Plan,
    chances: Chances,
    my_odds: OddsByRolls<{ MAX_MOVES + 1 }>,
    enemy_odds: OddsByRolls<4>,
}

/// What the plan says to do next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Step {
    Move(Maneuver),
    Fire,
    Stay,
}

/// Chances by distance, worked out once a plan.
const TABLE: usize = 24;

/// What the chances by distance depend on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ChanceKey {
    gunnery: i32,
    enemy_gunnery: i32,
    enemy_piloting: i32,
    enemy_dodges: bool,
}

/// Hit chances by distance, kept while what they depend on (the key) holds.
#[derive(Debug, Clone, Copy)]
pub struct Chances {
    key: Option<ChanceKey>,
    /// The turn the key was last checked: within a side's move phase neither my skills nor
    /// what I know of the enemy's change (damage comes in the enemy's phases, knowledge
    /// from the Sensors phase), so it is checked once a turn.
    checked: u32,
    mine: [f64; TABLE],
    theirs: [f64; TABLE],
    through: [f64; TABLE],
}

impl Default for Chances {
    fn default() -> Chances {
        Chances {
            key: None,
            checked: 0,
            mine: [0.0; TABLE],
            theirs: [0.0; TABLE],
            through: [0.0; TABLE],
        }
    }
}

impl Chances {
    fn refresh(&mut self, v: &View) {
        use super::skill::Skill;
        if self.key.is_some() && self.checked == v.turn {
            return;
        }
        self.checked = v.turn;
        let key = ChanceKey {
            gunnery: v.my_skill(Skill::Gunnery, 0),
            enemy_gunnery: v.enemy_skill(Skill::Gunnery, 0),
            enemy_piloting: v.enemy_skill(Skill::Piloting, 0),
            enemy_dodges: v.enemy_can_dodge(),
        };
        if self.key == Some(key) {
            return;
        }
        self.key = Some(key);
        for d in 0..TABLE as u32 {
            self.mine[d as usize] = v.phaser_chance_at(d);
            self.theirs[d as usize] = v.enemy_phaser_chance_at(d);
            self.through[d as usize] = torpedo_through(v, d);
        }
    }

    fn mine(&self, v: &View, d: u32) -> f64 {
        self.mine
            .get(d as usize)
            .copied()
            .unwrap_or_else(|| v.phaser_chance_at(d))
    }

    fn theirs(&self, v: &View, d: u32) -> f64 {
        self.theirs
            .get(d as usize)
            .copied()
            .unwrap_or_else(|| v.enemy_phaser_chance_at(d))
    }

    fn through(&self, v: &View, d: u32) -> f64 {
        self.through
            .get(d as usize)
            .copied()
            .unwrap_or_else(|| torpedo_through(v, d))
    }
}

/// Chance a torpedo over `d` hexes is not dodged.
fn torpedo_through(v: &View, d: u32) -> f64 {
    let from = v.enemy_pos().plus(Hex::new(d as i32, 0));
    v.torpedo_chance_from(from)
}

/// What the planner needs to know about the battle, in the ship's frame at the start of
/// the plan (bow along direction 0), as the reach table is.
struct Scene<'v, 'a> {
    v: &'v View<'a>,
    k: &'v TacticRules,
    chances: &'v Chances,
    enemy: Hex,
    enemy_facing: u8,
    /// Where the enemy's inertia takes it before it moves.
    enemy_next: Hex,
    /// By face in my frame: how far the enemy face a shot across it meets is below the
    /// enemy's rating, and my shield there (before I turn). (Arrays are a power of two long,
    /// so masked indices need no checks; faces and turns are below 6.)
    enemy_weakness: [u32; 8],
    /// By turn from the start facing and frame face: what showing that face's shield is worth.
    shown_by_turn: [[f64; 8]; 8],
    /// The share of a place's value that counts again next turn (less for a nimble ship).
    next_turn: f64,
    /// Scales of my shot and of the enemy's.
    mine: f64,
    theirs: f64,
    torpedoes: bool,
    visible: bool,
    /// Whether a shot is still to come this turn (else a place's value with the shot fired
    /// from it is its value without).
    shot_to_come: bool,
    range: u32,
    /// The distance it wants from the enemy: its preferred range, further off while cloaked.
    wanted: u32,
    /// What a hex between next turn's distance and `wanted` costs: hidden, the enemy does
    /// not answer its moves, so next turn's distance counts as much as this turn's.
    off_range_next: f64,
    /// Turns the enemy makes for free, and how many it can pay for (None: it cannot move).
    enemy_free: u32,
    enemy_paid: Option<u32>,
    /// The chance the enemy's Piloting rolls bring off at least k paid turns, by k.
    enemy_odds: [f64; 4],
    /// The chance mine bring off at least k maneuvers this turn, by k.
    my_odds: [f64; MAX_MOVES + 1],
}

/// By the set of facings (bit k: the facing k turns to the left) from which a ship sees a
/// hex: the fewest turns it needs to see it (None: from none).
const TURNS_TO_SEE: [Option<u8>; 64] = {
    let mut table = [None; 64];
    let mut mask = 1;
    while mask < 64 {
        let mut k = 0;
        while k <= 3 {
            if mask >> k & 1 != 0 || mask >> ((6 - k) % 6) & 1 != 0 {
                table[mask] = Some(k as u8);
                break;
            }
            k += 1;
        }
        mask += 1;
    }
    table
};

/// By number of rolls (0 to `MAX_MOVES`): the chance of at least k successes in that many
/// rolls of chance `p`, for each k up to `N - 1`.
fn at_least<const N: usize>(p: f64) -> [[f64; N]; MAX_MOVES + 1] {
    // The distribution of successes, built roll by roll (more than N − 1 count as N − 1).
    let mut exactly = [0.0; N];
    exactly[0] = 1.0;
    let mut by_rolls = [[0.0; N]; MAX_MOVES + 1];
    for (rolls, odds) in by_rolls.iter_mut().enumerate() {
        if rolls > 0 {
            for k in (0..N).rev() {
                let stay = if k == N - 1 {
                    exactly[k]
                } else {
                    exactly[k] * (1.0 - p)
                };
                let up = if k > 0 { exactly[k - 1] * p } else { 0.0 };
                exactly[k] = stay + up;
            }
        }
        let mut tail = 0.0;
        for k in (0..N).rev() {
            tail += exactly[k];
            odds[k] = tail;
        }
    }
    by_rolls
}

/// `at_least` for one chance, kept while the chance holds: a side's Piloting chances change
/// only with damage, while every scan asks for the odds of its own number of rolls.
#[derive(Debug, Clone, Copy)]
struct OddsByRolls<const N: usize> {
    chance: Option<f64>,
    by_rolls: [[f64; N]; MAX_MOVES + 1],
}

impl<const N: usize> Default for OddsByRolls<N> {
    fn default() -> Self {
        OddsByRolls {
            chance: None,
            by_rolls: [[0.0; N]; MAX_MOVES + 1],
        }
    }
}

impl<const N: usize> OddsByRolls<N> {
    /// The odds for `rolls` rolls (at most `MAX_MOVES` count) of chance `p`.
    fn get(&mut self, rolls: u32, p: f64) -> [f64; N] {
        if self.chance != Some(p) {
            (self.chance, self.by_rolls) = (Some(p), at_least(p));
        }
        self.by_rolls[(rolls as usize).min(MAX_MOVES)]
    }
}

/// A place's value both ways: counting the shot fired from it this turn, and without.
#[derive(Debug, Clone, Copy)]
struct Value {
    without_shot: f64,
    with_shot: f64,
}

impl Value {
    fn both(x: f64) -> Value {
        Value {
            without_shot: x,
            with_shot: x,
        }
    }

    fn get(self, shot_now: bool) -> f64 {
        if shot_now {
            self.with_shot
        } else {
            self.without_shot
        }
    }
}

/// What a hex is worth whatever the facing, and its relations to the enemy (now, and after
/// its inertia) that the facings on it are scored with.
#[derive(Debug, Clone, Copy)]
struct HexValue {
    value: f64,
    to_enemy: Relation,
    to_enemy_next: Relation,
    /// The shot from it now, but for the facing (None: out of reach, or fleeing).
    shot_now: Option<ShotAcross>,
}

/// The value of a shot at the enemy across a relation as far as it does not depend on my
/// facing: what having the enemy in arc is worth, and what the torpedo line adds.
#[derive(Debug, Clone, Copy)]
struct ShotAcross {
    in_arc: f64,
    on_row: f64,
}

/// The best place a scan found and its score (no place: staying put).
#[derive(Debug, Clone, Copy)]
struct Candidate<'r> {
    place: Option<&'r Reach>,
    score: f64,
}

impl<'v, 'a> Scene<'v, 'a> {
    /// The scene for `moves` paid maneuvers at most, with the odds tables kept in `mind`.
    fn new(
        v: &'v View<'a>,
        k: &'v TacticRules,
        (chances, my_odds, enemy_odds): (
            &'v Chances,
            &mut OddsByRolls<{ MAX_MOVES + 1 }>,
            &mut OddsByRolls<4>,
        ),
        (moves, shot_to_come): (u32, bool),
    ) -> Scene<'v, 'a> {
        let facing = Facing::new(v.me.facing);
        let enemy = v.enemy_pos().minus(v.me.pos).in_frame(facing.index());
        let enemy_facing = Facing::new(v.enemy_facing()).relative_to(facing);
        let aggression = k.aggression;
        // Hidden, the enemy can answer only when its Sensors find me.
        let exposure = if v.me.cloaked {
            v.enemy_detect_chance()
        } else {
            1.0
        };
        let enemy_paid = v.enemy_can_maneuver().then(|| {
            let turn = v.enemy_turn_cost().max(1);
            v.enemy_class.max_speed / turn
        });
        let enemy_odds = enemy_odds.get(enemy_paid.unwrap_or(0), v.enemy_piloting_chance());
        let my_odds = my_odds.get(moves, v.my_piloting_chance());
        // By face in my frame: how far the enemy face a shot across it meets is below its
        // rating, and my own shield there before I turn.
        let rating = v.enemy_class.shields;
        let mut enemy_weakness = [0; 8];
        let mut my_shields = [0; 6];
        for f in 0..Facing::COUNT {
            let frame = Facing::new(f);
            let enemy_face = frame.opposite().absolute_from(facing);
            enemy_weakness[f as usize] = rating.saturating_sub(v.enemy_shield(enemy_face.index()));
            my_shields[f as usize] = v.me.shields[frame.absolute_from(facing).index() as usize];
        }
        // After turning `turn`, frame face f carries the shield of start face f − turn.
        let mut shown_by_turn = [[0.0; 8]; 8];
        for (turn, by_face) in shown_by_turn.iter_mut().enumerate().take(6) {
            for (f, shown) in by_face.iter_mut().enumerate().take(6) {
                let start = Facing::new(f as u8).turned(-(turn as i32));
                *shown = k.weights.my_face * my_shields[start.index() as usize] as f64;
            }
        }
        Scene {
            v,
            k,
            chances,
            enemy,
            enemy_facing: enemy_facing.index(),
            enemy_next: enemy.neighbour(enemy_facing.index()),
            enemy_weakness,
            shown_by_turn,
            next_turn: if v.my_class.maneuverability > 0 {
                k.weights.next_turn_nimble
            } else {
                k.weights.next_turn
            },
            mine: 2.0 * aggression,
            theirs: if v.enemy_can_fire() {
                2.0 * (1.0 - aggression) * exposure
            } else {
                0.0
            },
            torpedoes: v.me.torpedoes > 0,
            visible: v.enemy_visible(),
            shot_to_come,
            range: v.ctx.sensor_range,
            wanted: k.preferred_range + if v.me.cloaked { k.cloak.stand_off } else { 0 },
            off_range_next: if v.me.cloaked {
                k.weights.off_range
            } else {
                k.weights.off_range_next
            },
            enemy_free: v.enemy_class.maneuverability,
            enemy_paid,
            enemy_odds,
            my_odds,
        }
    }

    /// The value of a shot facing `facing` at an enemy in relation `rel` (frame).
    #[inline(always)]
    fn shot(&self, rel: Relation, facing: u8) -> f64 {
        // Out of arc the shot is worth nothing, whatever lies across the relation.
        if !rel.in_arc(facing) {
            return 0.0;
        }
        self.shot_facing(self.across(rel), rel, facing)
    }

    /// The part of the value of a shot across `rel` that does not depend on the facing
    /// (None: out of reach).
    #[inline(always)]
    fn across(&self, rel: Relation) -> Option<ShotAcross> {
        let d = rel.distance;
        if d == 0 || d > self.range {
            return None;
        }
        let w = &self.k.weights;
        // The enemy faces crossed; the weaker counts for it (on a vertex it takes the stronger).
        let (mine, other) = rel.face_pair();
        let weak = |f: u8| self.enemy_weakness[f as usize & 7];
        Some(ShotAcross {
            in_arc: w.in_arc
                + w.hit_chance * self.chances.mine(self.v, d)
                + w.weak_enemy_face * weak(mine).min(weak(other)) as f64,
            on_row: if self.torpedoes {
                w.torpedo_line * self.chances.through(self.v, d)
            } else {
                0.0
            },
        })
    }

    /// `shot` with the facing's part added to `across`.
    #[inline(always)]
    fn shot_facing(&self, across: Option<ShotAcross>, rel: Relation, facing: u8) -> f64 {
        match across {
            Some(a) if rel.in_arc(facing) => {
                let mut s = a.in_arc;
                if self.torpedoes && rel.in_row(facing) {
                    s += a.on_row;
                }
                s
            }
            _ => 0.0,
        }
    }

    /// The enemy's shot at me standing on `at`, after its inertia: its hit chance, divided
    /// by one more for each turn it must pay for to bring its arc on me.
    #[inline(always)]
    fn threat(&self, rel: Relation) -> f64 {
        let d = rel.distance;
        if d == 0 || d > self.range {
            return 0.0;
        }
        // The enemy facings that see me, turned so its own facing is bit 0.
        let (mask, f) = (rel.seen_mask() as u32, self.enemy_facing as u32 % 6);
        let turned = ((mask >> f) | (mask << (6 - f))) & 0x3f;
        let Some(turns) = TURNS_TO_SEE[turned as usize] else {
            return 0.0;
        };
        // A ship that cannot maneuver fires only where it already looks.
        let paid = (turns as u32).saturating_sub(self.enemy_free);
        match self.enemy_paid {
            None if turns > 0 => return 0.0,
            Some(most) if paid > most => return 0.0,
            _ => {}
        }
        let odds = self.enemy_odds.get(paid as usize).copied().unwrap_or(0.0);
        self.k.weights.enemy_shot * self.chances.theirs(self.v, d) * odds
    }

    /// My shield the enemy meets across `rel` when I face `turn` from the start.
    #[inline(always)]
    fn shown(&self, rel: Relation, turn: u8) -> f64 {
        let (a, b) = rel.face_pair();
        let by_face = &self.shown_by_turn[turn as usize & 7];
        by_face[a as usize & 7].max(by_face[b as usize & 7])
    }

    /// The hex at `at`: its relations to the enemy and, `flee` or not, what ending the move
    /// there is worth whatever the facing (energy aside).
    #[inline(always)]
    fn hex(&self, at: Hex, flee: bool) -> HexValue {
        let to_enemy_next = hex::relation(self.enemy_next.minus(at));
        let threat = self.theirs * self.threat(to_enemy_next);
        let (to_enemy, value) = if flee {
            (to_enemy_next, -threat)
        } else {
            let w = &self.k.weights;
            let to_enemy = hex::relation(self.enemy.minus(at));
            let d = to_enemy.distance;
            let mut s = -w.off_range * d.abs_diff(self.wanted) as f64;
            if d == 0 {
                s -= w.enemy_hex;
            }
            if to_enemy_next.distance == 0 {
                s -= w.in_enemy_path;
            }
            (to_enemy, s - threat)
        };
        let shot_now = if flee || !self.visible || !self.shot_to_come {
            None
        } else {
            self.across(to_enemy)
        };
        HexValue {
            value,
            to_enemy,
            to_enemy_next,
            shot_now,
        }
    }

    /// What facing `turn` adds on the hex `at`: when fighting the shots now and next turn,
    /// the drift, the shield; when fleeing the distance inertia opens, and the shield.
    #[inline(always)]
    fn facing(&self, at: Hex, h: &HexValue, turn: u8, flee: bool) -> Value {
        let w = &self.k.weights;
        let next = at.plus(hex::DIRECTIONS[turn as usize]);
        let shown = self.shown(h.to_enemy_next, turn);
        if flee {
            return Value::both(w.flee_distance * next.distance(self.enemy_next) as f64 + shown);
        }
        let next_to_enemy = hex::relation(self.enemy_next.minus(next));
        let d_next = next_to_enemy.distance;
        let mut s = -self.next_turn * self.off_range_next * d_next.abs_diff(self.wanted) as f64;
        if d_next == 0 || next == self.enemy {
            s -= self.next_turn * w.drift_into_enemy;
        }
        if !self.visible {
            return Value::both(s + shown);
        }
        let now = if self.shot_to_come {
            s + self.mine * self.shot_facing(h.shot_now, h.to_enemy, turn)
        } else {
            s
        };
        let later = self.next_turn * self.mine * self.shot(next_to_enemy, turn);
        Value {
            without_shot: s + later + shown,
            with_shot: now + later + shown,
        }
    }
}

impl DefaultTactic {
    pub fn new(knobs: TacticRules) -> DefaultTactic {
        DefaultTactic {
            knobs,
            classic: ClassicTactic::default(),
        }
    }

    /// The tactic with a ruleset's style (its `tactic` section, else the built-in one's).
    pub fn of(rules: &crate::rules::Ruleset) -> crate::error::Result<DefaultTactic> {
        Ok(DefaultTactic::new(TacticRules::of(rules)?))
    }

    fn fleeing(&self, v: &View) -> bool {
        let margin = self.knobs.flee.hull_margin;
        let mine = v
            .my_points_left(Loc::Hull)
            .min(v.my_points_left(Loc::Engines));
        let theirs = v
            .enemy_points_left(Loc::Hull)
            .min(v.enemy_points_left(Loc::Engines));
        // Breaking off only pays when the enemy is not nearer its end, and when the ship lives
        // through the enemy's usual hit on the best face it can show: one hit from breaking
        // whatever it shows, turning away only costs it its shots.
        (v.my_condition(Loc::Hull) >= Condition::BadlyDamaged || mine <= margin)
            && theirs >= mine
            && survives_a_hit_turned_away(v, mine)
    }

    /// The hit chance of a phaser shot from `pos` facing `facing` (0 when out of arc).
    fn shot_chance(v: &View, chances: &Chances, pos: Hex, facing: u8) -> f64 {
        let to_enemy = hex::relation(v.enemy_pos().minus(pos));
        Self::shot_chance_across(v, chances, to_enemy, facing)
    }

    /// `shot_chance` with the enemy in relation `to_enemy` (absolute directions).
    fn shot_chance_across(v: &View, chances: &Chances, to_enemy: Relation, facing: u8) -> f64 {
        let d = to_enemy.distance;
        if d == 0 || d > v.ctx.sensor_range || !to_enemy.in_arc(facing) {
            return 0.0;
        }
        chances.mine(v, d)
    }

    /// The chance a torpedo from `pos` facing `facing` is not dodged (0 off the line).
    fn torpedo_chance(v: &View, chances: &Chances, pos: Hex, facing: u8) -> f64 {
        let to_enemy = hex::relation(v.enemy_pos().minus(pos));
        Self::torpedo_chance_across(v, chances, to_enemy, facing)
    }

    /// `torpedo_chance` with the enemy in relation `to_enemy` (absolute directions).
    fn torpedo_chance_across(v: &View, chances: &Chances, to_enemy: Relation, facing: u8) -> f64 {
        let d = to_enemy.distance;
        if d == 0 || d > v.ctx.sensor_range || !to_enemy.on_torpedo_line(facing) {
            return 0.0;
        }
        chances.through(v, d)
    }

    /// The weakest of my three faces toward the enemy, as a share of the rating.
    fn front_shields(&self, v: &View) -> f64 {
        super::tactics::front_shields(v) as f64 / v.my_class.shields.max(1) as f64
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

    /// The plan's next step, making the plan when there is none to follow. `fire_now`: the
    /// chance of a shot from here, if one can be fired: the plan may be to fire it first
    /// and then move where the enemy's answer is weakest.
    fn next_step(
        &self,
        v: &View,
        mind: &mut Mind,
        budget: u32,
        flee: bool,
        shot_left: bool,
        fire_now: Option<f64>,
    ) -> Step {
        let mult = v.me.cost(v.my_class, v.ctx, Loc::Engines, 1);
        let Mind {
            plan,
            chances,
            my_odds,
            enemy_odds,
        } = mind;
        let on_track = plan.route.still_fits(v, budget, flee, mult) && plan.shot_left == shot_left;
        let fire_first = fire_now.filter(|_| !flee && shot_left);
        if !on_track && fire_first.is_none() && !self.can_afford_a_place(v, budget, mult) {
            // Staying is the only plan: no need to weigh the scene.
            plan.follow(v, chances, None, (flee, shot_left), mult);
        } else if !on_track {
            let odds = (&*chances, my_odds, enemy_odds);
            let scene = Scene::new(v, &self.knobs, odds, (budget / mult.max(1), shot_left));
            let [without_shot, with_shot] = Self::scan(v, &scene, budget, flee, mult);
            match fire_first {
                Some(chance) => {
                    // Fire from here and then move for the next turn, or move and then fire?
                    let here = hex::relation(scene.enemy);
                    let shot = scene.mine * scene.shot(here, 0);
                    if chance > 0.0 && without_shot.score + shot >= with_shot.score {
                        plan.follow(v, chances, without_shot.place, (flee, false), mult);
                        return Step::Fire;
                    }
                    plan.follow(v, chances, with_shot.place, (flee, shot_left), mult);
                }
                None => {
                    let best = if shot_left { with_shot } else { without_shot };
                    plan.follow(v, chances, best.place, (flee, shot_left), mult);
                }
            }
        }
        match plan.route.step() {
            Some(m) => Step::Move(m),
            None => Step::Stay,
        }
    }

    /// Whether any place the ship can reach costs at most `budget`.
    fn can_afford_a_place(&self, v: &View, budget: u32, mult: u32) -> bool {
        let free = v.free_turns_left();
        let reachable = v.my_class.reach(v.ctx).places(free);
        // Hexes come cheapest first.
        reachable
            .by_hex()
            .next()
            .is_some_and(|(h, _)| h.cheapest.saturating_mul(mult) <= budget)
    }

    /// The best places within `budget` (staying put included), scored without and with a
    /// shot fired from the place this turn, in one pass over the reach table.
    fn scan<'r>(
        v: &'r View,
        scene: &Scene,
        budget: u32,
        flee: bool,
        mult: u32,
    ) -> [Candidate<'r>; 2] {
        let reachable = v.my_class.reach(v.ctx).places(v.free_turns_left());
        let start = scene.hex(Hex::default(), flee);
        let staying = scene.facing(Hex::default(), &start, 0, flee);
        let here = [
            start.value + staying.without_shot,
            start.value + staying.with_shot,
        ];
        // Without a shot to come (or fleeing, or blind) both ways score every place alike.
        if flee || !scene.visible || !scene.shot_to_come {
            let [best] = Self::best_places(scene, reachable, [here[0]], (budget, mult), flee);
            return [best; 2];
        }
        Self::best_places(scene, reachable, here, (budget, mult), flee)
    }

    /// The best places for each way of scoring them (without a shot from the place this
    /// turn, then with), against the score of staying put, `here`.
    fn best_places<'r, const N: usize>(
        scene: &Scene,
        reachable: &'r Reachable,
        here: [f64; N],
        (budget, mult): (u32, u32),
        flee: bool,
    ) -> [Candidate<'r>; N] {
        let free = scene.v.free_turns_left();
        let per_energy = if flee {
            scene.k.weights.flee_energy
        } else {
            scene.k.weights.energy
        };
        let mut best = here.map(|score| Candidate { place: None, score });
        let rolls_free = free.min(u8::MAX as u32) as u8;
        for (h, places) in reachable.by_hex() {
            if h.cheapest.saturating_mul(mult) > budget {
                break;
            }
            let on_hex = scene.hex(h.offset, flee);
            for r in places {
                let spent = r.cost.saturating_mul(mult);
                if spent > budget {
                    break;
                }
                // Maneuvers that need a Piloting roll may fail: the place is reached only
                // when enough of them succeed; otherwise the ship stays about where it is.
                let rolls = r.len.saturating_sub(rolls_free) as usize;
                let odds = scene.my_odds.get(rolls).copied().unwrap_or(0.0);
                let value = scene.facing(h.offset, &on_hex, r.turn, flee);
                let energy = per_energy * spent as f64;
                for i in 0..N {
                    let value = on_hex.value + value.get(i == 1);
                    let s = here[i] + odds * (value - here[i]) - energy;
                    if s > best[i].score {
                        best[i] = Candidate {
                            place: Some(r),
                            score: s,
                        };
                    }
                }
            }
        }
        best
    }
}

impl Tactic for DefaultTactic {
    fn name(&self) -> &str {
        "default"
    }

    fn activation(&self, v: &View) -> Activation {
        let raise = !v.me.shields_raised;
        let c = &self.knobs.cloak;
        let rested = v
            .my_turns_since_decloak()
            .is_none_or(|t| t >= c.max_turns.max(1));
        let cloak = v.my_class.cloak
            && !v.me.cloaked
            && v.turn > 1
            && rested
            && c.max_turns > 0
            && v.my_condition(Loc::Hull) == Condition::Light
            && self.front_shields(v) < c.below_shields
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
        if flee && v.can_warp().is_ok() && v.warp_chance() >= k.flee.min_warp_chance {
            return Action::Warp;
        }
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
        let max_speed_left = v.my_class.max_speed.saturating_sub(v.me.maneuver_energy);
        let budget = max_speed_left.min(v.me.available().saturating_sub(reserve));
        let can_move =
            v.can_maneuver(Maneuver::TurnLeft).is_ok() || v.can_maneuver(Maneuver::Forward).is_ok();
        let mind = &mut memory.good;
        mind.chances.refresh(v);
        let now = Self::shot_chance(v, &mind.chances, v.me.pos, v.me.facing);
        let fire_now = (can_fire && now >= k.min_phaser_chance).then_some(now);
        let step = if can_move {
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
            let now = Self::torpedo_chance(v, chances, v.me.pos, v.me.facing);
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
        let worth =
            |l: Loc| v.can_repair(l).is_ok() && v.repair_chance(l) >= self.knobs.min_repair_chance;
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
        orders.decloak = v.me.cloaked && {
            let c = &self.knobs.cloak;
            v.my_turns_cloaked() >= c.max_turns
                || (self.front_shields(v) >= c.decloak_shields && self.firing_position(v))
        };
        orders
    }
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

/// The shields phase: the generator point into the face the enemy's shot will likely meet
/// (`face_toward_enemy_next`), then points passed along the ring toward it, the outer pairs
/// first (the rear feeds the flanks, the flanks the front), so the whole ring keeps feeding
/// the face in the line of fire (a point there stops two of damage). A flank gives the front
/// a point unless that leaves it two below; an outer face gives only while it has more than
/// the face it feeds.
fn pump_shields(v: &View) -> Option<ShieldOp> {
    let toward = Facing::new(face_toward_enemy_next(v));
    pump(v, toward).or_else(|| spare_point(v, toward))
}

/// My face toward the hex the enemy's inertia carries it into at the start of its move
/// (toward where it is now, if that hex is mine): it fires after moving, so the face its
/// shot crosses is seldom the one toward where it stands at my shields phase.
fn face_toward_enemy_next(v: &View) -> u8 {
    let next = v.enemy_pos().neighbour(v.enemy_facing());
    if next == v.me.pos {
        return v.my_face_toward_enemy();
    }
    hex::face_hit(v.me.pos, next, &v.me.shields)
}

/// With the face toward the enemy whole: the generator point into the weaker of its
/// neighbours, when the repairs still leave the energy for it (as the classic tactic does).
fn spare_point(v: &View, toward: Facing) -> Option<ShieldOp> {
    let (left, right) = (toward.left(), toward.right());
    let shield = |f: Facing| v.me.shields[f.index() as usize];
    let weaker = if shield(left) <= shield(right) {
        left
    } else {
        right
    };
    v.can_reinforce(weaker.index()).ok()?;
    let repairs: u32 = Loc::ALL
        .iter()
        .filter_map(|l| v.repair_cost(*l))
        .take(v.my_class.repair_teams as usize)
        .sum();
    (v.me.available() >= repairs + v.shield_point_cost()).then_some(ShieldOp::Reinforce {
        face: weaker.index(),
    })
}

/// `pump_shields` toward the face `toward`.
fn pump(v: &View, toward: Facing) -> Option<ShieldOp> {
    let shield = |f: Facing| v.me.shields[f.index() as usize];
    if v.can_reinforce(toward.index()).is_ok() {
        return Some(ShieldOp::Reinforce {
            face: toward.index(),
        });
    }
    for steps in [3, 2, 1] {
        for side in [1, -1] {
            let from = toward.turned(side * steps);
            let to = toward.turned(side * (steps - 1));
            let worth = if steps == 1 {
                shield(from) + 2 > shield(to)
            } else {
                shield(from) > shield(to)
            };
            if worth && v.can_transfer(from.index(), to.index()).is_ok() {
                return Some(ShieldOp::Transfer {
                    from: from.index(),
                    to: to.index(),
                });
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_least_counts_successes_of_independent_rolls() {
        // Three rolls at 60%: at least 0, 1, 2, 3 successes.
        let odds: [f64; 4] = at_least(0.6)[3];
        let want = [1.0, 1.0 - 0.4f64.powi(3), 0.648, 0.216];
        for (got, want) in odds.iter().zip(want) {
            assert!((got - want).abs() < 1e-12, "{odds:?}");
        }
        // More rolls than the table counts: the last entry holds "that many or more".
        let capped: [f64; 2] = at_least(0.6)[3];
        assert!((capped[1] - (1.0 - 0.4f64.powi(3))).abs() < 1e-12);
    }

    /// Two heavy cruisers three hexes apart facing each other, shields up, mine as given.
    fn facing_off(shields: [u32; 6], generator_point_given: bool, check: impl FnOnce(&View)) {
        use crate::combat::context::Context;
        use crate::combat::ship::ShipState;
        let rules = crate::rules::load("startrek").unwrap();
        let ctx = Context::new(&rules).unwrap();
        let class = ctx.class(&rules, "UFP heavy cruiser").unwrap();
        let mut me = ShipState::new(&class, &ctx, Hex::new(0, 0), 0);
        let mut enemy = ShipState::new(&class, &ctx, Hex::new(3, 0), 3);
        (me.shields_raised, enemy.shields_raised) = (true, true);
        me.shields = shields;
        me.generator_points_given = generator_point_given as u32;
        check(&View::knowing(&ctx, 1, (&me, &class), (&enemy, &class)));
    }

    #[test]
    fn the_shields_phase_feeds_the_face_in_the_line_of_fire_from_the_whole_ring() {
        // The generator point goes to the front (face 0, toward the enemy) first.
        facing_off([2, 4, 9, 10, 9, 4], false, |v| {
            assert_eq!(pump_shields(v), Some(ShieldOp::Reinforce { face: 0 }));
        });
        // Then the rear (face 3) feeds a face behind the front pair before the flanks feed
        // the front (the classic tactic never draws on the rear).
        facing_off([2, 4, 9, 10, 9, 4], true, |v| {
            assert_eq!(pump_shields(v), Some(ShieldOp::Transfer { from: 3, to: 2 }));
        });
        // Faces level behind the front pair: a flank gives the front a point...
        facing_off([5, 6, 6, 6, 6, 6], true, |v| {
            assert_eq!(pump_shields(v), Some(ShieldOp::Transfer { from: 1, to: 0 }));
        });
        // ...but not when that leaves it two below the front.
        facing_off([6, 4, 4, 4, 4, 4], true, |v| {
            assert_eq!(pump_shields(v), None);
        });
    }

    #[test]
    fn the_shields_phase_feeds_the_face_toward_where_the_enemy_drifts_to() {
        use crate::combat::context::Context;
        use crate::combat::ship::ShipState;
        let rules = crate::rules::load("startrek").unwrap();
        let ctx = Context::new(&rules).unwrap();
        let class = ctx.class(&rules, "UFP heavy cruiser").unwrap();
        // The enemy a hex ahead, moving across my bow: its inertia carries it off my front
        // face, to my front-left one, before it fires.
        let mut me = ShipState::new(&class, &ctx, Hex::new(0, 0), 0);
        let enemy = ShipState::new(&class, &ctx, Hex::new(1, 0), 2);
        me.shields_raised = true;
        me.shields = [5; 6];
        let v = View::knowing(&ctx, 2, (&me, &class), (&enemy, &class));
        let next = hex::face_hit(me.pos, Hex::new(1, -1), &me.shields);
        assert_eq!(v.my_face_toward_enemy(), 0);
        assert_eq!(next, 1);
        assert_eq!(pump_shields(&v), Some(ShieldOp::Reinforce { face: next }));
        // Heading into my hex, it is met with the face toward where it is.
        let enemy = ShipState::new(&class, &ctx, Hex::new(1, 0), 3);
        let v = View::knowing(&ctx, 2, (&me, &class), (&enemy, &class));
        assert_eq!(pump_shields(&v), Some(ShieldOp::Reinforce { face: 0 }));
    }

    #[test]
    fn repair_teams_mend_the_hull_first_even_when_it_is_only_lightly_damaged() {
        use crate::combat::context::Context;
        use crate::combat::ship::ShipState;
        let rules = crate::rules::load("startrek").unwrap();
        let ctx = Context::new(&rules).unwrap();
        let class = ctx.class(&rules, "UFP heavy cruiser").unwrap();
        let mut me = ShipState::new(&class, &ctx, Hex::new(0, 0), 0);
        let enemy = ShipState::new(&class, &ctx, Hex::new(3, 0), 3);
        me.energy = class.generator;
        // Phasers damaged (7 of a large track's 5), the hull lightly (2).
        me.damage[Loc::Phasers as usize] = 7;
        me.damage[Loc::Hull as usize] = 2;
        let v = View::knowing(&ctx, 2, (&me, &class), (&enemy, &class));
        let tactic = DefaultTactic::of(&rules).unwrap();
        assert_eq!(tactic.repair(&v, 0), Some(RepairJob::Location(Loc::Hull)));
        // The classic order puts a damaged fighting system before a lightly damaged hull.
        let classic = ClassicTactic::default();
        assert_eq!(
            classic.repair(&v, 0),
            Some(RepairJob::Location(Loc::Phasers))
        );
        // With the hull whole, the classic order decides.
        me.damage[Loc::Hull as usize] = 0;
        let v = View::knowing(&ctx, 2, (&me, &class), (&enemy, &class));
        assert_eq!(
            tactic.repair(&v, 0),
            Some(RepairJob::Location(Loc::Phasers))
        );
    }

    #[test]
    fn a_ship_with_free_turns_weighs_the_next_turn_with_its_own_share() {
        use crate::combat::context::Context;
        use crate::combat::ship::ShipState;
        let rules = crate::rules::load("startrek").unwrap();
        let ctx = Context::new(&rules).unwrap();
        let knobs = TacticRules::of(&rules).unwrap();
        let w = &knobs.weights;
        assert!(w.next_turn_nimble < w.next_turn);
        let share = |name: &str| {
            let class = ctx.class(&rules, name).unwrap();
            let me = ShipState::new(&class, &ctx, Hex::new(0, 0), 0);
            let enemy = ShipState::new(&class, &ctx, Hex::new(4, 0), 3);
            let v = View::knowing(&ctx, 2, (&me, &class), (&enemy, &class));
            let chances = Chances::default();
            let (mut mine, mut theirs) = (OddsByRolls::default(), OddsByRolls::default());
            let odds = (&chances, &mut mine, &mut theirs);
            (
                class.maneuverability,
                Scene::new(&v, &knobs, odds, (3, true)).next_turn,
            )
        };
        // The heavy cruiser pays for every turn; the frigate has two free ones a move.
        assert_eq!(share("UFP heavy cruiser"), (0, w.next_turn));
        assert_eq!(share("UFP frigate"), (2, w.next_turn_nimble));
    }

    /// What `look` reads off the scene of two heavy cruisers on turn 2, the enemy three hexes
    /// ahead heading at me (its inertia takes it to (2, 0), where mine takes me from (1, 0)),
    /// with the built-in style changed by `edit`.
    fn head_on<T>(edit: impl FnOnce(&mut TacticRules), look: impl FnOnce(&Scene) -> T) -> T {
        use crate::combat::context::Context;
        use crate::combat::ship::ShipState;
        let rules = crate::rules::load("startrek").unwrap();
        let ctx = Context::new(&rules).unwrap();
        let class = ctx.class(&rules, "UFP heavy cruiser").unwrap();
        let me = ShipState::new(&class, &ctx, Hex::new(0, 0), 0);
        let enemy = ShipState::new(&class, &ctx, Hex::new(3, 0), 3);
        let v = View::knowing(&ctx, 2, (&me, &class), (&enemy, &class));
        let mut knobs = TacticRules::of(&rules).unwrap();
        edit(&mut knobs);
        let chances = Chances::default();
        let (mut mine, mut theirs) = (OddsByRolls::default(), OddsByRolls::default());
        let scene = Scene::new(&v, &knobs, (&chances, &mut mine, &mut theirs), (3, true));
        assert_eq!(scene.enemy_next, Hex::new(2, 0));
        look(&scene)
    }

    #[test]
    fn next_turns_drift_into_the_enemy_and_distance_cost_only_their_own_weights() {
        let value = |drift: f64, enemy_hex: f64, off_range_next: f64| {
            let edit = |k: &mut TacticRules| {
                k.preferred_range = 2;
                let w = &mut k.weights;
                (w.drift_into_enemy, w.enemy_hex, w.off_range_next) =
                    (drift, enemy_hex, off_range_next);
            };
            head_on(edit, |scene| {
                let at = Hex::new(1, 0);
                let h = scene.hex(at, false);
                (scene.next_turn, scene.facing(at, &h, 0, false).with_shot)
            })
        };
        let (share, base) = value(0.0, 20.0, 0.0);
        // The drift costs its weight times the next turn's share, and the weight for ending
        // in the enemy's hex (it does not end there) costs nothing.
        let (_, drifting) = value(20.0, 20.0, 0.0);
        assert!(
            (base - drifting - share * 20.0).abs() < 1e-9,
            "{base} {drifting}"
        );
        assert_eq!(value(0.0, 0.0, 0.0).1, base);
        // Next turn it would be 0 hexes off, 2 short of a preferred range of 2: off_range_next
        // costs 2 hexes' worth, times the share.
        let (_, short) = value(0.0, 20.0, 3.0);
        assert!(
            (base - short - share * 3.0 * 2.0).abs() < 1e-9,
            "{base} {short}"
        );
        // The built-in style holds neither the drift nor next turn's distance against it.
        let knobs = head_on(|_| {}, |scene| scene.k.clone());
        assert_eq!(knobs.weights.drift_into_enemy, 0.0);
        assert_eq!(knobs.weights.off_range_next, 0.0);
        assert!(knobs.weights.enemy_hex > 0.0);
    }

    #[test]
    fn ending_where_the_enemy_s_inertia_takes_it_costs_in_enemy_path() {
        let value = |in_enemy_path: f64, at: Hex| {
            let edit = |k: &mut TacticRules| k.weights.in_enemy_path = in_enemy_path;
            head_on(edit, |scene| scene.hex(at, false).value)
        };
        // On the enemy's path it costs the weight; a hex short of it, nothing.
        let path = Hex::new(2, 0);
        assert!((value(0.0, path) - value(20.0, path) - 20.0).abs() < 1e-9);
        assert_eq!(value(0.0, Hex::new(1, 0)), value(20.0, Hex::new(1, 0)));
        // The built-in style counts it as much as ending in the enemy's hex.
        let w = head_on(|_| {}, |scene| scene.k.weights.clone());
        assert_eq!(w.in_enemy_path, w.enemy_hex);
    }

    /// How far from the enemy the plan made on turn 3 ends: two battle cruisers four hexes
    /// apart facing each other, shields up, the enemy seen and not cloaked.
    fn planned_end(knobs: impl FnOnce(&mut TacticRules), me_cloaked: bool) -> u32 {
        use crate::combat::context::Context;
        use crate::combat::ship::ShipState;
        let rules = crate::rules::load("startrek").unwrap();
        let ctx = Context::new(&rules).unwrap();
        let class = ctx.class(&rules, "Klingon battle cruiser").unwrap();
        let mut me = ShipState::new(&class, &ctx, Hex::new(0, 0), 0);
        let mut enemy = ShipState::new(&class, &ctx, Hex::new(4, 0), 3);
        (me.shields_raised, enemy.shields_raised) = (true, true);
        me.energy = class.generator;
        // Cloaked on turn 2: two turns hidden by turn 3, far from the bound.
        (me.cloaked, me.cloak_switched) = (me_cloaked, if me_cloaked { 2 } else { 0 });
        let mut tactic = DefaultTactic::of(&rules).unwrap();
        knobs(&mut tactic.knobs);
        let v = View::knowing(&ctx, 3, (&me, &class), (&enemy, &class));
        let mut memory = super::super::tactics::Memory::default();
        let action = tactic.next_action(&v, &mut memory);
        assert!(matches!(action, Action::Move(_)), "{action:?}");
        let plan = &memory.good.plan;
        plan.route.end().pos.distance(enemy.pos)
    }

    #[test]
    fn hidden_it_stands_off_so_the_enemy_moving_first_after_it_decloaks_is_not_close_in() {
        let (pref, off) = {
            let t = TacticRules::of(&crate::rules::load("startrek").unwrap()).unwrap();
            (t.preferred_range, t.cloak.stand_off)
        };
        assert!(off > 0);
        // Seen, it closes on the enemy four hexes ahead (inertia takes it the last hex).
        let seen = planned_end(|_| {}, false);
        assert!((pref..4).contains(&seen), "{seen}");
        // Cloaked, it backs off instead: the enemy cannot answer a maneuver while it is
        // hidden, but moves first once it decloaks.
        let hidden = planned_end(|_| {}, true);
        assert!((5..=pref + off).contains(&hidden), "{hidden}");
        // Without the stand-off it closes while cloaked as well.
        let near = planned_end(|k| k.cloak.stand_off = 0, true);
        assert!(near < 4, "{near}");
    }

    #[test]
    fn a_long_torpedo_at_a_strong_face_waits_unless_the_enemy_can_cloak() {
        use crate::combat::context::Context;
        use crate::combat::ship::ShipState;
        let rules = crate::rules::load("startrek").unwrap();
        let ctx = Context::new(&rules).unwrap();
        let tactic = DefaultTactic::of(&rules).unwrap();
        let gorn = ctx.class(&rules, "Gorn attack cruiser").unwrap();
        // No energy nor battery (no phasers, no maneuvers; a photon costs none), the enemy `d`
        // hexes straight ahead facing me with its shields up, the face toward me at `face`.
        let launches = |enemy_name: &str, d: i32, face: Option<u32>| {
            let class = ctx.class(&rules, enemy_name).unwrap();
            let mut me = ShipState::new(&gorn, &ctx, Hex::new(0, 0), 0);
            let mut enemy = ShipState::new(&class, &ctx, Hex::new(d, 0), 3);
            (me.shields_raised, enemy.shields_raised) = (true, true);
            (me.energy, me.battery) = (0, 0);
            let toward = hex::face_hit(enemy.pos, me.pos, &enemy.shields) as usize;
            if let Some(f) = face {
                enemy.shields[toward] = f;
            }
            let v = View::knowing(&ctx, 3, (&me, &gorn), (&enemy, &class));
            assert!(v.can_launch().is_ok());
            let through = v.torpedo_chance_from(me.pos);
            let harm = torpedo_harm(&v, through);
            let action = tactic.next_action(&v, &mut Memory::default());
            (matches!(action, Action::Torpedo), through, harm)
        };
        // 5D6 beyond a full face of 8: 9.5 + (3·1 + 2·5 + 1·15) / 7776 (rolls of 5 to 7).
        let beyond = 9.5 + 28.0 / 7776.0;
        let (close, through, harm) = launches("Gorn attack cruiser", 2, None);
        assert!((harm - through * beyond).abs() < 1e-9, "{harm}");
        assert!(
            close && harm >= tactic.knobs.min_torpedo_damage,
            "{close} {harm}"
        );
        // Eight hexes off it is dodged often enough to fall below the least harm...
        let (far, through, harm) = launches("Gorn attack cruiser", 8, None);
        assert!(through >= tactic.knobs.min_torpedo_chance, "{through}");
        assert!(harm < tactic.knobs.min_torpedo_damage, "{harm}");
        assert!(!far);
        // ...but not at a face already down,
        let (at_a_hole, _, harm) = launches("Gorn attack cruiser", 8, Some(0));
        assert!((harm - through * 17.5).abs() < 1e-9, "{harm}");
        assert!(at_a_hole);
        // nor at an enemy that could cloak before a closer shot comes.
        assert!(launches("Klingon battle cruiser", 8, None).0);
    }

    #[test]
    fn it_flees_only_when_it_lives_through_the_enemy_s_usual_hit() {
        use crate::combat::context::Context;
        use crate::combat::ship::ShipState;
        let rules = crate::rules::load("startrek").unwrap();
        let ctx = Context::new(&rules).unwrap();
        let tactic = DefaultTactic::of(&rules).unwrap();
        // Hull badly damaged, `left` points from breaking, every shield at `shield`.
        let flees = |name: &str, left: u32, shield: u32| {
            let class = ctx.class(&rules, name).unwrap();
            let mut me = ShipState::new(&class, &ctx, Hex::new(0, 0), 0);
            let enemy = ShipState::new(&class, &ctx, Hex::new(3, 0), 3);
            me.shields_raised = true;
            me.shields = [shield; 6];
            me.damage[Loc::Hull as usize] = class.track.excess - left;
            let v = View::knowing(&ctx, 5, (&me, &class), (&enemy, &class));
            assert_eq!(v.my_condition(Loc::Hull), Condition::BadlyDamaged);
            tactic.fleeing(&v)
        };
        // The enemy's photon torpedo (5D6, 17.5, counted as 18): a heavy cruiser's full face
        // (10) stops 20 of it, so with 3 points left it breaks off; a face of 8 lets 2 through,
        // which 2 points left still take (a track breaks only beyond its last point)...
        assert!(flees("UFP heavy cruiser", 3, 10));
        assert!(flees("UFP heavy cruiser", 2, 8));
        // ...but not 1.
        assert!(!flees("UFP heavy cruiser", 1, 8));
        // A pirate frigate's full face (5) lets 8 through: with 2 points left, turning away
        // would not save it, so it fights on.
        assert!(!flees("Pirate frigate", 2, 5));
    }

    #[test]
    fn the_same_seed_gives_the_same_battles_on_any_thread_count() {
        let rules = crate::rules::load("startrek").unwrap();
        let t = DefaultTactic::of(&rules).unwrap();
        let run = |threads| {
            let opts = crate::combat::SimOptions {
                a: "Klingon battle cruiser".into(),
                b: "UFP frigate".into(),
                battles: 600,
                seed: 5,
                threads: Some(threads),
                scenario: None,
                first: None,
            };
            crate::combat::simulate_with(&rules, &opts, [&t, &t], &|_| {}).unwrap()
        };
        let one = run(1);
        assert_eq!(one, run(2));
        assert_eq!(one, run(3));
        assert!(one.a.wins + one.b.wins > 0);
    }
}
