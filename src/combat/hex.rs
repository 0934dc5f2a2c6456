//! Hex geometry in cube coordinates: distance, facing, the six faces, the phaser arc, the
//! torpedo line, and which face of a hex a shot crosses.
use super::side::Facing;
use serde::{Deserialize, Serialize};
use std::sync::atomic::{AtomicU64, Ordering};

/// A hex in axial coordinates (q, r); the cube coordinate s is −q−r.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct Hex {
    pub q: i32,
    pub r: i32,
}

/// The six directions (and the six faces of a hex), counter-clockwise from 0.
/// Direction d±1 is adjacent to d; d+3 is opposite.
pub(crate) const DIRECTIONS: [Hex; 6] = [
    Hex { q: 1, r: 0 },
    Hex { q: 1, r: -1 },
    Hex { q: 0, r: -1 },
    Hex { q: -1, r: 0 },
    Hex { q: -1, r: 1 },
    Hex { q: 0, r: 1 },
];

/// Names of the six faces relative to a ship's facing (face 0 is the bow).
pub(crate) const FACE_NAMES: [&str; 6] = [
    "front",
    "front-left",
    "rear-left",
    "rear",
    "rear-right",
    "front-right",
];

impl Hex {
    pub(crate) const fn new(q: i32, r: i32) -> Hex {
        Hex { q, r }
    }

    pub(crate) fn s(self) -> i32 {
        -self.q - self.r
    }

    pub(crate) fn plus(self, o: Hex) -> Hex {
        Hex::new(self.q + o.q, self.r + o.r)
    }

    pub(crate) fn minus(self, o: Hex) -> Hex {
        Hex::new(self.q - o.q, self.r - o.r)
    }

    #[cfg(test)]
    pub(crate) fn scale(self, k: i32) -> Hex {
        Hex::new(self.q * k, self.r * k)
    }

    /// Hexes between two centres.
    pub fn distance(self, o: Hex) -> u32 {
        let d = self.minus(o);
        d.q.unsigned_abs()
            .max(d.r.unsigned_abs())
            .max(d.s().unsigned_abs())
    }

    /// The neighbour in direction `dir` (0..6).
    pub fn neighbour(self, dir: u8) -> Hex {
        self.plus(DIRECTIONS[dir as usize % 6])
    }

    /// This offset seen from a ship facing `facing` (so the ship's bow points along direction 0):
    /// rotated clockwise `facing` times by (q, r, s) → (−r, −s, −q).
    pub(crate) fn in_frame(self, facing: u8) -> Hex {
        let (q, r, s) = (self.q, self.r, self.s());
        match facing % 6 {
            0 => Hex::new(q, r),
            1 => Hex::new(-r, -s),
            2 => Hex::new(s, q),
            3 => Hex::new(-q, -r),
            4 => Hex::new(r, s),
            _ => Hex::new(-s, -q),
        }
    }

    /// Cube-coordinate inner product (proportional to the Euclidean one on the hex plane).
    fn dot(self, o: Hex) -> i32 {
        self.q * o.q + self.r * o.r + self.s() * o.s()
    }
}

/// Turn a facing left (counter-clockwise) or right by one face.
pub(crate) fn turn_left(facing: u8) -> u8 {
    Facing::new(facing).left().index()
}

pub(crate) fn turn_right(facing: u8) -> u8 {
    Facing::new(facing).right().index()
}

/// Is `target` inside the phaser arc of a ship at `from` facing `facing`? The hex straight
/// ahead and the cone between the front-left and front-right directions: 1, 3, 5, … hexes at
/// distance 1, 2, 3, … (offsets a·ahead + b·ahead-left or a·ahead + b·ahead-right, a ≥ 1, b ≥ 0).
pub fn in_phaser_arc(from: Hex, facing: u8, target: Hex) -> bool {
    offset_in_phaser_arc(target.minus(from).in_frame(facing))
}

/// The arc test on an offset already in the ship's frame.
pub(crate) fn offset_in_phaser_arc(v: Hex) -> bool {
    // Ahead is (1,0); ahead-left is (1,-1); ahead-right is (0,1).
    (v.q >= 1 && v.r >= 0) || (v.s() <= -1 && v.r <= 0)
}

/// Is `target` on the torpedo line: the straight line of hexes ahead?
pub fn in_torpedo_line(from: Hex, facing: u8, target: Hex) -> bool {
    let v = target.minus(from).in_frame(facing);
    v.r == 0 && v.q >= 1
}

/// The face (absolute direction 0..6) of the `target` hex crossed by the line from the
/// target's centre to the attacker's. On a vertex, both faces: `(a, Some(b))`.
pub fn faces_toward(target: Hex, attacker: Hex) -> (u8, Option<u8>) {
    // The relation table holds the crossing for near offsets (the engine asks this a great deal).
    relation(attacker.minus(target)).faces()
}

// Ships drift apart well beyond sensor range (a fleeing ship, a battle at its turn limit),
// and the planner still weighs the distance and the faces there.
const TABLE_RADIUS: i32 = 64;
const TABLE_SIDE: i32 = 2 * TABLE_RADIUS + 1;

/// The face (direction) an offset `w` from a hex's centre leaves it by; both on a vertex.
fn crossing(w: Hex) -> (u8, Option<u8>) {
    let mut best = 0u8;
    let mut best_dot = i32::MIN;
    let mut tie = None;
    for (i, d) in DIRECTIONS.iter().enumerate() {
        let dot = w.dot(*d);
        if dot > best_dot {
            best_dot = dot;
            best = i as u8;
            tie = None;
        } else if dot == best_dot {
            tie = Some(i as u8);
        }
    }
    // Directions 0 and 5 are adjacent too; keep the pair in a stable order.
    match tie {
        Some(t) if best == 0 && t == 5 => (5, Some(0)),
        other => (best, other),
    }
}

/// The face hit by a shot: the crossed face, or on a vertex the stronger of the two
/// (ruling), by the current shield values (absolute directions).
pub fn face_hit(target: Hex, attacker: Hex, shields: &[u32; 6]) -> u8 {
    match faces_toward(target, attacker) {
        (a, Some(b)) if shields[b as usize] > shields[a as usize] => b,
        (a, _) => a,
    }
}

/// A face as the ship itself names it (relative to its facing): 0 is the bow.
pub(crate) fn relative_face(absolute: u8, facing: u8) -> u8 {
    Facing::new(absolute)
        .relative_to(Facing::new(facing))
        .index()
}

/// What the movement planner asks about one offset `u` (the enemy's hex minus mine): the
/// distance, my face toward it, and for each facing (bit f) whether it lies in my phaser arc,
/// on my row ahead or behind (`r == 0` in my frame), and whether I lie in its phaser arc.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Relation {
    pub distance: u32,
    /// face | (tie or 7) << 3 | arc << 6 | row << 12 | seen << 18.
    bits: u32,
}

impl Relation {
    fn compute(u: Hex) -> Relation {
        let (face, tie) = crossing(u);
        let mut bits = face as u32 | (tie.unwrap_or(7) as u32) << 3;
        let back = Hex::new(-u.q, -u.r);
        for f in 0..6u8 {
            let v = u.in_frame(f);
            bits |= (offset_in_phaser_arc(v) as u32) << (6 + f);
            bits |= ((v.r == 0) as u32) << (12 + f);
            bits |= (offset_in_phaser_arc(back.in_frame(f)) as u32) << (18 + f);
        }
        Relation {
            distance: Hex::default().distance(u),
            bits,
        }
    }

    /// The same as `faces_toward(me, enemy)`.
    #[inline]
    pub(crate) fn faces(self) -> (u8, Option<u8>) {
        let tie = (self.bits >> 3 & 7) as u8;
        (
            (self.bits & 7) as u8,
            if tie == 7 { None } else { Some(tie) },
        )
    }

    /// My face toward the enemy and, on a vertex, the other one (the same face otherwise),
    /// for taking the stronger of the two without a branch.
    #[inline]
    pub(crate) fn face_pair(self) -> (u8, u8) {
        let face = (self.bits & 7) as u8;
        let tie = (self.bits >> 3 & 7) as u8;
        (face, if tie == 7 { face } else { tie })
    }

    /// The enemy is in my phaser arc when I face `facing` (0..6).
    #[inline]
    pub(crate) fn in_arc(self, facing: u8) -> bool {
        debug_assert!(facing < 6);
        self.bits >> (6 + facing) & 1 != 0
    }

    /// The enemy is on the row through me along `facing` (0..6), ahead or behind.
    #[inline]
    pub(crate) fn in_row(self, facing: u8) -> bool {
        debug_assert!(facing < 6);
        self.bits >> (12 + facing) & 1 != 0
    }

    /// The enemy is on my torpedo line (the row straight ahead) when I face `facing`.
    #[inline]
    pub(crate) fn on_torpedo_line(self, facing: u8) -> bool {
        // On the row and in the arc: ahead, not behind.
        self.in_row(facing) && self.in_arc(facing)
    }

    /// The enemy facings (bit f for facing f) whose phaser arc I am in.
    #[inline]
    pub(crate) fn seen_mask(self) -> u8 {
        (self.bits >> 18 & 0x3f) as u8
    }

    /// I am in the phaser arc of the enemy facing `enemy_facing` (0..6).
    #[inline]
    pub(crate) fn seen_by(self, enemy_facing: u8) -> bool {
        debug_assert!(enemy_facing < 6);
        self.bits >> (18 + enemy_facing) & 1 != 0
    }
}

/// The relation for offset `u` (enemy minus me), from a table for near offsets.
#[inline]
pub(crate) fn relation(u: Hex) -> Relation {
    let (q, r) = (u.q + TABLE_RADIUS, u.r + TABLE_RADIUS);
    if (0..TABLE_SIDE).contains(&q) && (0..TABLE_SIDE).contains(&r) {
        return tabulated(u, (q * TABLE_SIDE + r) as usize);
    }
    Relation::compute(u)
}

/// The table of near relations, each entry worked out the first time it is asked for (0: not
/// yet; a relation packs to a nonzero word, its face bits never all zero). Entries are pure
/// functions of their offset, so threads racing to fill one store the same word.
static RELATIONS: [AtomicU64; (TABLE_SIDE * TABLE_SIDE) as usize] =
    [const { AtomicU64::new(0) }; (TABLE_SIDE * TABLE_SIDE) as usize];

#[inline]
fn tabulated(u: Hex, index: usize) -> Relation {
    let entry = &RELATIONS[index];
    let word = entry.load(Ordering::Relaxed);
    if word != 0 {
        return Relation {
            distance: (word >> 32) as u32,
            bits: word as u32,
        };
    }
    let rel = Relation::compute(u);
    entry.store(
        (rel.distance as u64) << 32 | rel.bits as u64,
        Ordering::Relaxed,
    );
    rel
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distance_is_the_cube_metric() {
        let o = Hex::new(0, 0);
        assert_eq!(o.distance(Hex::new(10, 0)), 10);
        assert_eq!(o.distance(Hex::new(3, -3)), 3);
        assert_eq!(o.distance(Hex::new(2, 1)), 3);
        assert_eq!(o.distance(Hex::new(-2, 4)), 4);
        for d in 0..6 {
            assert_eq!(o.distance(o.neighbour(d)), 1);
            assert_eq!(o.neighbour(d).neighbour((d + 3) % 6), o);
        }
    }

    #[test]
    fn phaser_arc_holds_1_3_5_hexes_per_row() {
        for facing in 0..6u8 {
            let o = Hex::new(2, -1);
            for k in 1..=6i32 {
                let mut count = 0;
                for q in -k..=k {
                    for r in -k..=k {
                        let h = o.plus(Hex::new(q, r));
                        if o.distance(h) == k as u32 && in_phaser_arc(o, facing, h) {
                            count += 1;
                        }
                    }
                }
                assert_eq!(count, 2 * k - 1, "facing {facing}, row {k}");
            }
            // Straight ahead is in, the sides and behind are out.
            assert!(in_phaser_arc(o, facing, o.neighbour(facing)));
            assert!(!in_phaser_arc(o, facing, o.neighbour(turn_left(facing))));
            assert!(!in_phaser_arc(o, facing, o.neighbour(turn_right(facing))));
            assert!(!in_phaser_arc(o, facing, o));
            // Two ahead then one ahead-left is in; two ahead-left is not.
            let h = o
                .neighbour(facing)
                .neighbour(facing)
                .neighbour(turn_left(facing));
            assert!(in_phaser_arc(o, facing, h));
            let h2 = o.neighbour(turn_left(facing)).neighbour(turn_left(facing));
            assert!(!in_phaser_arc(o, facing, h2));
        }
    }

    #[test]
    fn torpedo_line_is_straight_ahead_only() {
        let o = Hex::new(0, 0);
        for k in 1..8 {
            assert!(in_torpedo_line(o, 2, o.plus(DIRECTIONS[2].scale(k))));
            assert!(!in_torpedo_line(o, 2, o.plus(DIRECTIONS[5].scale(k))));
        }
        assert!(!in_torpedo_line(o, 0, Hex::new(2, 1)));
        assert!(in_phaser_arc(o, 0, Hex::new(2, 1)));
    }

    #[test]
    fn face_crossed_by_the_line_between_centres() {
        let t = Hex::new(0, 0);
        // Straight along a direction: that face, no tie.
        for d in 0..6u8 {
            assert_eq!(
                faces_toward(t, t.plus(DIRECTIONS[d as usize].scale(4))),
                (d, None)
            );
        }
        // Off-line: (3,-1) leans toward direction 0 more than direction 1.
        assert_eq!(faces_toward(t, Hex::new(3, -1)), (0, None));
        assert_eq!(faces_toward(t, Hex::new(1, -3)), (2, None));
        // (1,1) = dir0 + dir5: the line runs through the vertex between faces 5 and 0.
        assert_eq!(faces_toward(t, Hex::new(1, 1)), (5, Some(0)));
        // (2,-4) = 2·dir1 + 2·dir2? no: (2,-4) = 2·(1,-1) + 2·(0,-1): vertex of faces 1 and 2.
        assert_eq!(faces_toward(t, Hex::new(2, -4)), (1, Some(2)));
    }

    #[test]
    fn the_table_agrees_with_the_geometry() {
        for q in -30..=30 {
            for r in -30..=30 {
                let a = Hex::new(q, r);
                assert_eq!(faces_toward(Hex::new(0, 0), a), crossing(a), "{a:?}");
            }
        }
    }

    #[test]
    fn vertex_goes_to_the_stronger_face() {
        let t = Hex::new(0, 0);
        let a = Hex::new(1, 1);
        let mut shields = [5u32; 6];
        shields[0] = 3;
        assert_eq!(face_hit(t, a, &shields), 5);
        shields[0] = 9;
        assert_eq!(face_hit(t, a, &shields), 0);
    }

    #[test]
    fn frames_and_relative_faces() {
        assert_eq!(relative_face(2, 2), 0);
        assert_eq!(relative_face(1, 2), 5);
        assert_eq!(turn_left(5), 0);
        assert_eq!(turn_right(0), 5);
        // The neighbour ahead of a ship facing f is direction 0 in its frame.
        for f in 0..6u8 {
            assert_eq!(DIRECTIONS[f as usize].in_frame(f), DIRECTIONS[0]);
        }
    }

    #[test]
    fn relations_agree_with_the_geometry() {
        let me = Hex::new(3, -2);
        // Inside the table and past its edge (asked twice: computed, then looked up).
        let span = (-TABLE_RADIUS - 3..=-TABLE_RADIUS + 3).chain(-30..=30);
        for q in span.clone().chain(TABLE_RADIUS - 3..=TABLE_RADIUS + 3) {
            for r in span.clone().chain(TABLE_RADIUS - 3..=TABLE_RADIUS + 3) {
                let enemy = me.plus(Hex::new(q, r));
                let rel = relation(enemy.minus(me));
                assert_ne!(rel.bits, 0, "0 marks an entry not yet worked out");
                assert_eq!(relation(enemy.minus(me)), rel);
                assert_eq!(rel.distance, me.distance(enemy));
                assert_eq!(rel.faces(), crossing(enemy.minus(me)));
                for f in 0..6u8 {
                    assert_eq!(rel.in_arc(f), in_phaser_arc(me, f, enemy));
                    assert_eq!(rel.in_row(f), enemy.minus(me).in_frame(f).r == 0);
                    if rel.distance > 0 {
                        assert_eq!(rel.on_torpedo_line(f), in_torpedo_line(me, f, enemy));
                    }
                    assert_eq!(rel.seen_by(f), in_phaser_arc(enemy, f, me));
                }
            }
        }
    }
}
