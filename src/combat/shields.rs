//! The shields phase: moving points between adjacent faces and generator points into a face,
//! each with a Shields roll; never above the rating.
use super::context::Loc;
use super::events::{Event, Log};
use super::hex::relative_face;
use super::roller::Roller;
use super::skill::Skill;
use super::tactics::ShieldOp;
use super::turn::Battle;
use super::view::transfer_index;

impl<R: Roller, L: Log> Battle<'_, R, L> {
    pub(crate) fn shields_phase(&mut self, s: usize) {
        // Every operation the tactic asks for is either refused (which ends the phase) or
        // spends one of the ruleset's allowances: no more can come than those allow.
        for _ in 0..self.ctx.shields.most_ops_per_phase() {
            let Some(op) = self.tactics[s].next_shield_op(&self.view(s)) else {
                break;
            };
            let refused = {
                let v = self.view(s);
                match op {
                    ShieldOp::Transfer { from, to } => v.can_transfer(from, to).err(),
                    ShieldOp::Reinforce { face } => v.can_reinforce(face).err(),
                }
            };
            if let Some(reason) = refused {
                if L::ON {
                    self.log.push(Event::Refused {
                        side: s as u8,
                        action: format!("{op:?}"),
                        reason,
                    });
                }
                break;
            }
            let ctx = self.ctx;
            let class = self.classes[s];
            let ship = &mut self.ships[s];
            let target = ship.skill(class, ctx, Skill::Shields, 0);
            match op {
                ShieldOp::Transfer { from, to } => {
                    // Damaged shield control: a point moved costs the giving face double.
                    let taken = ship.cost(class, ctx, Loc::ShieldControl, 1);
                    ship.transfers[transfer_index(from, to)] += 1;
                    let roll = ctx.thresholds.roll(&mut self.rng, Skill::Shields, target);
                    if roll.level.succeeded() {
                        ship.shields[from as usize] -= taken;
                        ship.shields[to as usize] =
                            (ship.shields[to as usize] + 1).min(class.shields);
                    }
                    if L::ON {
                        let f = ship.facing;
                        self.log.push(Event::ShieldTransfer {
                            side: s as u8,
                            from: relative_face(from, f),
                            to: relative_face(to, f),
                            roll,
                            value: ship.shields[to as usize],
                        });
                    }
                }
                ShieldOp::Reinforce { face } => {
                    let cost = ship.cost(class, ctx, Loc::ShieldControl, ctx.energy.shield_point);
                    ship.spend(cost);
                    ship.generator_points_given += 1;
                    let roll = ctx.thresholds.roll(&mut self.rng, Skill::Shields, target);
                    if roll.level.succeeded() {
                        ship.shields[face as usize] =
                            (ship.shields[face as usize] + 1).min(class.shields);
                    }
                    if L::ON {
                        self.log.push(Event::ShieldReinforce {
                            side: s as u8,
                            face: relative_face(face, ship.facing),
                            energy: cost,
                            roll,
                            value: ship.shields[face as usize],
                        });
                    }
                }
            }
        }
    }
}
