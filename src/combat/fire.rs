//! Fire: phaser shots (Gunnery at a penalty per hex) and torpedoes (dodged on a special
//! Piloting success, one roll per hex travelled).
use super::context::Loc;
use super::damage::Target;
use super::events::{Event, Log};
use super::hex;
use super::roller::Roller;
use super::ship::Condition;
use super::skill::{Level, Skill};
use super::turn::Battle;

impl<R: Roller, L: Log> Battle<'_, R, L> {
    /// Fire `dice` phaser dice (already checked legal) at the enemy.
    pub(crate) fn fire_phasers(&mut self, s: usize, dice: u32) {
        let ctx = self.ctx;
        let class = self.classes[s];
        let t = 1 - s;
        let range = self.ships[s].pos.distance(self.ships[t].pos);
        let ship = &mut self.ships[s];
        ship.spend(dice * ctx.energy.phaser_die);
        ship.phaser_dice_used += dice;
        let target = ship.skill(
            class,
            ctx,
            Skill::Gunnery,
            (range * ctx.phaser_range_penalty) as i32,
        );
        let roll = ctx.thresholds.roll(&mut self.rng, Skill::Gunnery, target);
        let damage = if roll.level.succeeded() {
            Some(
                (0..dice)
                    .map(|_| self.rng.die(class.phaser_sides))
                    .sum::<u32>(),
            )
        } else {
            None
        };
        if L::ON {
            self.log.push(Event::Phasers {
                side: s as u8,
                dice,
                range,
                roll,
                damage,
            });
        }
        if let Some(points) = damage {
            let chosen = if roll.level >= Level::Special {
                Some(self.tactics[s].choose_location(&self.view(s)))
            } else {
                None
            };
            self.hit_enemy(s, points, chosen);
        }
    }

    /// Launch one torpedo (already checked legal).
    pub(crate) fn launch_torpedo(&mut self, s: usize) {
        let ctx = self.ctx;
        let class = self.classes[s];
        let t = 1 - s;
        let (kind_name, kind) = &ctx.torpedo_kinds[class.torpedo_kind];
        let range = self.ships[s].pos.distance(self.ships[t].pos);
        let ship = &mut self.ships[s];
        ship.spend(kind.energy);
        ship.torpedoes_launched += 1;
        // A damaged launcher may not fire it (the torpedo stays aboard).
        let chance = if ship.level(class, Loc::Torpedoes) >= Condition::Damaged {
            ctx.info(Loc::Torpedoes).damaged.failure_chance
        } else {
            0
        };
        // The chance is out of the skill die's faces (the source's "50%" on the D100).
        if chance > 0 && self.rng.die(ctx.thresholds.die) <= chance {
            if L::ON {
                self.log.push(Event::Torpedo {
                    side: s as u8,
                    kind: kind_name.clone(),
                    range,
                    launched: false,
                    damage: None,
                });
            }
            return;
        }
        ship.torpedoes -= 1;
        if L::ON {
            self.log.push(Event::TorpedoAway {
                side: s as u8,
                kind: kind_name.clone(),
                range,
            });
        }
        let dodged = self.dodge(t, range);
        let damage = if dodged {
            None
        } else {
            let rolled = self.rng.roll(&kind.damage).max(0) as u32;
            Some(rolled.saturating_sub(kind.loss_per_hex * range))
        };
        if L::ON {
            self.log.push(Event::Torpedo {
                side: s as u8,
                kind: kind_name.clone(),
                range,
                launched: true,
                damage,
            });
        }
        if let Some(points) = damage {
            self.hit_enemy(s, points, None);
        }
    }

    /// The target's Piloting rolls against a torpedo travelling `hexes`; true if dodged.
    fn dodge(&mut self, t: usize, hexes: u32) -> bool {
        // Dodging needs the sensors and the bridge (the target's real state).
        let (ship, class) = (&self.ships[t], self.classes[t]);
        if ship.level(class, Loc::Sensors) >= Condition::BadlyDamaged || ship.bridge_out(class) {
            return false;
        }
        let target = ship.skill(class, self.ctx, Skill::Piloting, 0);
        let needs = self.ctx.thresholds.highest(Level::Special, target);
        for _ in 0..hexes {
            let roll = self
                .ctx
                .thresholds
                .roll(&mut self.rng, Skill::Piloting, target);
            let dodged = roll.level >= Level::Special;
            if L::ON {
                self.log.push(Event::Dodge {
                    side: t as u8,
                    roll,
                    needs,
                    dodged,
                });
            }
            if dodged {
                return true;
            }
        }
        false
    }

    /// `points` of damage from side `s` on the enemy face toward it.
    pub(crate) fn hit_enemy(&mut self, s: usize, points: u32, chosen: Option<super::context::Loc>) {
        let t = 1 - s;
        let face = hex::face_hit(self.ships[t].pos, self.ships[s].pos, &self.ships[t].shields);
        let mut target = Target {
            ctx: self.ctx,
            class: self.classes[t],
            state: &mut self.ships[t],
            side: t as u8,
        };
        target.hit(&mut self.rng, &mut self.log, face, points, chosen);
    }
}
