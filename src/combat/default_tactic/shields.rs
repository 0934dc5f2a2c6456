//! The shields phase: feeding the face in the line of fire from the whole ring.
use crate::combat::hex;
use crate::combat::side::Facing;
use crate::combat::tactics::ShieldOp;
use crate::combat::view::View;

/// The shields phase: the generator point into the face the enemy's shot will likely meet
/// (`face_toward_enemy_next`), then points passed along the ring toward it, the outer pairs
/// first (the rear feeds the flanks, the flanks the front), so the whole ring keeps feeding
/// the face in the line of fire (a point there stops two of damage). A flank gives the front
/// a point unless that leaves it two below; an outer face gives only while it has more than
/// the face it feeds.
pub(super) fn pump_shields(v: &View) -> Option<ShieldOp> {
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
    (v.me.available() >= v.repair_reserve() + v.shield_point_cost()).then_some(
        ShieldOp::Reinforce {
            face: weaker.index(),
        },
    )
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
