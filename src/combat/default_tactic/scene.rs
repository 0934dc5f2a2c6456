//! What a place is worth to the planner: the scene in the ship's frame, and the value of
//! a hex and of a facing on it.
use super::chances::Chances;
use super::odds::OddsByRolls;
use crate::combat::hex::{self, Hex, Relation};
use crate::combat::reach::MAX_MOVES;
use crate::combat::side::Facing;
use crate::combat::view::View;
use crate::rules::tactic::TacticRules;

/// What the planner needs to know about the battle, in the ship's frame at the start of
/// the plan (bow along direction 0), as the reach table is.
pub(super) struct Scene<'v, 'a> {
    pub(super) v: &'v View<'a>,
    pub(super) k: &'v TacticRules,
    chances: &'v Chances,
    pub(super) enemy: Hex,
    enemy_facing: u8,
    /// Where the enemy's inertia takes it before it moves.
    pub(super) enemy_next: Hex,
    /// By face in my frame: how far the enemy face a shot across it meets is below the
    /// enemy's rating, and my shield there (before I turn). (Arrays are a power of two long,
    /// so masked indices need no checks; faces and turns are below 6.)
    enemy_weakness: [u32; 8],
    /// By turn from the start facing and frame face: what showing that face's shield is worth.
    shown_by_turn: [[f64; 8]; 8],
    /// The share of a place's value that counts again next turn (less for a nimble ship).
    pub(super) next_turn: f64,
    /// Scales of my shot and of the enemy's.
    pub(super) mine: f64,
    theirs: f64,
    torpedoes: bool,
    pub(super) visible: bool,
    /// Whether a shot is still to come this turn (else a place's value with the shot fired
    /// from it is its value without).
    pub(super) shot_to_come: bool,
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
    pub(super) my_odds: [f64; MAX_MOVES + 1],
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

/// A place's value both ways: counting the shot fired from it this turn, and without.
#[derive(Debug, Clone, Copy)]
pub(super) struct Value {
    pub(super) without_shot: f64,
    pub(super) with_shot: f64,
}

impl Value {
    fn both(x: f64) -> Value {
        Value {
            without_shot: x,
            with_shot: x,
        }
    }

    pub(super) fn get(self, shot_now: bool) -> f64 {
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
pub(super) struct HexValue {
    pub(super) value: f64,
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

impl<'v, 'a> Scene<'v, 'a> {
    /// The scene for `moves` paid maneuvers at most, with the odds tables kept in `mind`.
    pub(super) fn new(
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
        // A cloaked ship done hiding (shields whole again, or its time up) closes to strike.
        let ready = super::ready_to_strike(k, v);
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
            // Hidden it stands off; once done hiding it closes to strike.
            wanted: k.preferred_range
                + if v.me.cloaked && !ready {
                    k.cloak.stand_off
                } else {
                    0
                },
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
    pub(super) fn shot(&self, rel: Relation, facing: u8) -> f64 {
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
    pub(super) fn hex(&self, at: Hex, flee: bool) -> HexValue {
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
    pub(super) fn facing(&self, at: Hex, h: &HexValue, turn: u8, flee: bool) -> Value {
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
