//! Damage control: each repair team makes one attempt on one location (energy by the
//! location's condition; a badly damaged one needs at least a special), then first aid.
use super::context::Loc;
use super::events::{Event, Log};
use super::roller::Roller;
use super::ship::Condition;
use super::skill::{Level, Skill};
use super::tactics::RepairJob;
use super::turn::Battle;

impl<R: Roller, L: Log> Battle<'_, R, L> {
    pub(crate) fn damage_control(&mut self, s: usize) {
        for team in 0..self.classes[s].repair_teams {
            let Some(job) = self.tactics[s].repair(&self.view(s), team) else {
                continue;
            };
            match job {
                RepairJob::Location(loc) => self.repair_location(s, loc),
                RepairJob::EmergencyPower => self.repair_emergency(s),
            }
        }
        self.first_aid(s);
    }

    fn repair_location(&mut self, s: usize, loc: Loc) {
        if let Err(reason) = self.view(s).can_repair(loc) {
            if L::ON {
                self.log.push(Event::Refused {
                    side: s as u8,
                    action: format!("repair {}", loc.words()),
                    reason,
                });
            }
            return;
        }
        let ctx = self.ctx;
        let class = self.classes[s];
        let cost = self.view(s).repair_cost(loc).unwrap_or(0);
        let ship = &mut self.ships[s];
        ship.spend(cost);
        let condition = ship.level(class, loc);
        let skill = ctx.info(loc).repair;
        let target = ship.skill(class, ctx, skill, 0);
        let roll = ctx.thresholds.roll(&mut self.rng, skill, target);
        let needs = if condition >= Condition::BadlyDamaged {
            Level::from(ctx.repair.badly_damaged_needs)
        } else {
            Level::Success
        };
        let points = if roll.level >= needs {
            let p = &ctx.repair.points;
            match roll.level {
                Level::Critical => p.critical,
                Level::Special => p.special,
                Level::Success => p.success,
                Level::Failure => 0,
            }
        } else {
            0
        };
        let i = loc as usize;
        ship.damage[i] = ship.damage[i].saturating_sub(points);
        if loc == Loc::Bridge && ship.level(class, Loc::Bridge) < Condition::BadlyDamaged {
            ship.bridge_switch_left = 0;
        }
        if L::ON {
            self.log.push(Event::Repair {
                side: s as u8,
                location: loc,
                energy: cost,
                roll,
                needs_special: needs > Level::Success,
                needs: ctx.thresholds.highest(needs, target),
                repaired: points,
                damage: ship.damage[i],
            });
        }
    }

    /// Burnt-out emergency power counts as badly damaged, repaired without (or with the
    /// ruleset's) energy.
    fn repair_emergency(&mut self, s: usize) {
        let ctx = self.ctx;
        let class = self.classes[s];
        let ship = &mut self.ships[s];
        if !(ship.emergency_burnt
            && ship.level(class, Loc::Generator) >= Condition::BadlyDamaged
            && ship.spend(ctx.repair.emergency_energy))
        {
            return;
        }
        let target = ship.skill(class, ctx, Skill::Mechanics, 0);
        let roll = ctx.thresholds.roll(&mut self.rng, Skill::Mechanics, target);
        let repaired = roll.level >= Level::from(ctx.repair.badly_damaged_needs);
        if repaired {
            ship.emergency_burnt = false;
            ship.emergency_turns = 0;
        }
        if L::ON {
            self.log.push(Event::EmergencyRepair {
                side: s as u8,
                roll,
                repaired,
            });
        }
    }

    /// The doctor's First aid roll takes casualties off the count (ruling).
    fn first_aid(&mut self, s: usize) {
        let ctx = self.ctx;
        let class = self.classes[s];
        let ship = &mut self.ships[s];
        if ship.casualties == 0 {
            return;
        }
        let target = ship.skill(class, ctx, Skill::FirstAid, 0);
        let roll = ctx.thresholds.roll(&mut self.rng, Skill::FirstAid, target);
        let f = &ctx.first_aid;
        let treated = match roll.level {
            Level::Critical => f.critical,
            Level::Special => f.special,
            Level::Success => f.success,
            Level::Failure => 0,
        }
        .min(ship.casualties);
        ship.casualties -= treated;
        if L::ON {
            self.log.push(Event::FirstAid {
                side: s as u8,
                roll,
                treated,
                casualties: ship.casualties,
            });
        }
    }
}
