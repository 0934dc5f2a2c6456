//! Movement: inertia, impulse maneuvers with their Piloting rolls, and going over maximum speed.
use super::context::Loc;
use super::damage::Target;
use super::events::{Event, Log, Maneuver};
use super::roller::Roller;
use super::skill::Skill;
use super::tactics::apply_maneuver;
use super::turn::Battle;

impl<R: Roller, L: Log> Battle<'_, R, L> {
    /// Inertia moves the ship one hex forward at the start of its movement.
    pub(crate) fn inertia(&mut self, s: usize) {
        let ship = &mut self.ships[s];
        ship.pos = ship.pos.neighbour(ship.facing);
        ship.moved = true;
        if L::ON {
            self.log.push(Event::Inertia { side: s as u8, to: ship.pos, facing: ship.facing });
        }
    }

    /// One maneuver (already checked legal): pay, roll Piloting (free turns need no roll),
    /// and roll Engines if it takes the ship over its maximum speed.
    pub(crate) fn maneuver(&mut self, s: usize, m: Maneuver) {
        let (cost, overspeed) = {
            let v = self.view(s);
            (v.maneuver_cost(m), v.overspeed_penalty(m))
        };
        let class = self.classes[s];
        let ctx = self.ctx;
        let ship = &mut self.ships[s];
        ship.spend(cost);
        ship.maneuver_energy += cost;
        let free = cost == 0;
        if free {
            ship.free_turns_used += 1;
        }
        let roll = if free {
            None
        } else {
            let target = ship.skill(class, ctx, Skill::Piloting, 0);
            Some(ctx.thresholds.roll(&mut self.rng, Skill::Piloting, target))
        };
        let done = roll.is_none_or(|r| r.level.succeeded());
        if done {
            (ship.pos, ship.facing) = apply_maneuver(ship.pos, ship.facing, m);
        }
        if L::ON {
            self.log.push(Event::Maneuver { side: s as u8, maneuver: m, energy: cost, roll, done, to: ship.pos, facing: ship.facing });
        }
        if overspeed > 0 {
            let target = ship.skill(class, ctx, Skill::Engines, overspeed as i32);
            let roll = ctx.thresholds.roll(&mut self.rng, Skill::Engines, target);
            let damage = if roll.level.succeeded() { None } else { Some(self.rng.roll(&ctx.maneuvers.overspeed_damage).max(0) as u32) };
            if L::ON {
                self.log.push(Event::Overspeed { side: s as u8, roll, engine_damage: damage });
            }
            if let Some(points) = damage {
                let mut t = Target { ctx, class, state: &mut self.ships[s], side: s as u8 };
                t.damage_location(&mut self.rng, &mut self.log, Loc::Engines, points, None);
            }
        }
    }
}
