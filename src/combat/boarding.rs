//! Transport and boarding: security teams beamed across a downed shield, their fights with
//! the defenders (simultaneous exchanges of attack dice), hiding, searching and capture.
use super::damage::Target;
use super::events::{Event, Log, TransportResult};
use super::roller::Roller;
use super::ship::Teams;
use super::skill::Skill;
use super::tactics::BoardingOrder;
use super::turn::Battle;

impl<R: Roller, L: Log> Battle<'_, R, L> {
    /// Beam one team to the enemy (already checked possible). Failing the Transport roll by
    /// more than the kill margin kills the team; a smaller failure leaves it at home.
    pub(crate) fn transport(&mut self, s: usize) {
        let ctx = self.ctx;
        let class = self.classes[s];
        let ship = &mut self.ships[s];
        let Some(endurance) = ship.home_teams.take() else {
            return;
        };
        ship.teams_sent += 1;
        let target = ship.skill(class, ctx, Skill::Transport, 0);
        let roll = ctx.thresholds.roll(&mut self.rng, Skill::Transport, target);
        let result = if roll.level.succeeded() {
            ship.boarders.push(endurance);
            ship.boarders_hidden = true;
            TransportResult::Arrived
        } else if roll.margin() > ctx.transport.kill_margin as i32 {
            ship.teams_lost += 1;
            TransportResult::TeamKilled
        } else {
            ship.home_teams.push(endurance);
            TransportResult::Failed
        };
        if L::ON {
            self.log.push(Event::Transport {
                side: s as u8,
                roll,
                result,
                people: ctx.transport.team_size,
            });
        }
    }

    /// Sum of a group's attack dice.
    fn attack(&mut self, teams: Teams) -> u32 {
        let sec = &self.ctx.security;
        let mut total = 0;
        for sides in teams.dice(sec.endurance, sec.attack_die, sec.step_per_point) {
            if sides > 0 {
                total += self.rng.die(sides);
            }
        }
        total
    }

    /// Side `s`'s boarders act on the enemy ship, as its tactic orders.
    pub(crate) fn boarders_act(&mut self, s: usize) {
        if self.ships[s].boarders.alive() == 0 {
            return;
        }
        let order = self.tactics[s].boarding(&self.view(s));
        let t = 1 - s;
        match order {
            BoardingOrder::Hide => self.ships[s].boarders_hidden = true,
            BoardingOrder::AttackDefenders => {
                self.ships[s].boarders_hidden = false;
                let dealt = self.attack(self.ships[s].boarders);
                let taken = self.attack(self.ships[t].home_teams);
                self.ships[t].home_teams.absorb(dealt);
                self.ships[s].boarders.absorb(taken);
                if L::ON {
                    self.log.push(Event::Boarders {
                        side: s as u8,
                        attack: "defenders".into(),
                        dealt,
                        taken,
                        absorbed: dealt,
                        location: None,
                    });
                }
            }
            BoardingOrder::AttackLocation(loc) => {
                self.ships[s].boarders_hidden = false;
                let mut dealt = 0;
                for _ in 0..self.ships[s].boarders.alive() {
                    dealt += self.rng.roll(&self.ctx.security.location_damage).max(0) as u32;
                }
                let absorb = self.ships[t].home_teams.alive() > 0
                    && self.tactics[t].absorb(&self.view(t), dealt);
                let taken = self.attack(self.ships[t].home_teams);
                let through = if absorb {
                    self.ships[t].home_teams.absorb(dealt)
                } else {
                    dealt
                };
                self.ships[s].boarders.absorb(taken);
                if L::ON {
                    self.log.push(Event::Boarders {
                        side: s as u8,
                        attack: loc.name().into(),
                        dealt,
                        taken,
                        absorbed: dealt - through,
                        location: Some(loc),
                    });
                }
                let mut target = Target {
                    ctx: self.ctx,
                    class: self.classes[t],
                    state: &mut self.ships[t],
                    side: t as u8,
                };
                target.damage_location(&mut self.rng, &mut self.log, loc, through, None);
            }
        }
        self.check_capture(t);
    }

    /// Side `s` searches its own ship for hidden boarders (R8): its teams at home form search
    /// groups of the ruleset's size, each rolls Security, and each group that finds them
    /// fights them. Boarders who showed themselves are fought by every defender without a roll.
    pub(crate) fn search(&mut self, s: usize) {
        let e = 1 - s;
        if self.ships[e].boarders.alive() == 0 || self.ships[s].home_teams.alive() == 0 {
            return;
        }
        if !self.ships[e].boarders_hidden {
            let all = 0..self.ships[s].home_teams.count as usize;
            self.defenders_fight(s, all);
            return;
        }
        let size = self.ctx.security.teams_per_search_group.max(1) as usize;
        let teams = self.ships[s].home_teams.count as usize;
        for start in (0..teams).step_by(size) {
            let group = start..(start + size).min(teams);
            if self.ships[s].home_teams.group(group.clone()).alive() == 0 {
                continue;
            }
            let target = self.ships[s].skill(self.classes[s], self.ctx, Skill::Security, 0);
            let roll = self
                .ctx
                .thresholds
                .roll(&mut self.rng, Skill::Security, target);
            let found = roll.level.succeeded();
            if L::ON {
                self.log.push(Event::Search {
                    side: s as u8,
                    roll,
                    found,
                });
            }
            if found {
                self.defenders_fight(s, group);
                if self.over() || self.ships[e].boarders.alive() == 0 {
                    return;
                }
            }
        }
    }

    /// The defenders of side `s` in `group` (indices into its teams at home) and the enemy's
    /// boarders exchange attack dice.
    fn defenders_fight(&mut self, s: usize, group: std::ops::Range<usize>) {
        let e = 1 - s;
        let dealt = self.attack(self.ships[s].home_teams.group(group.clone()));
        let taken = self.attack(self.ships[e].boarders);
        self.ships[e].boarders.absorb(dealt);
        self.ships[s].home_teams.absorb_in(group, taken);
        if L::ON {
            self.log.push(Event::Boarders {
                side: e as u8,
                attack: "defenders".into(),
                dealt: taken,
                taken: dealt,
                absorbed: taken,
                location: None,
            });
        }
        self.check_capture(s);
    }

    /// A ship whose defenders are all spent, with enemy boarders alive aboard, is captured.
    fn check_capture(&mut self, t: usize) {
        let s = 1 - t;
        if self.ships[s].boarders.alive() > 0 && self.ships[t].home_teams.alive() == 0 {
            self.ships[t].captured = true;
            if L::ON {
                self.log.push(Event::Captured { side: t as u8 });
            }
        }
    }
}
