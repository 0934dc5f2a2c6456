//! Damage: shield face → hull roll → location → damage track, with the effects of each
//! threshold, excess to the hull, and explosions.
use super::context::{Context, Loc};
use super::events::{Event, Log};
use super::roller::Roller;
use super::ship::{Condition, ShipClass, ShipState};
use crate::rules::combat::Excess;

/// A face meets `damage`: (new face value, points that go on to the hull).
/// The face absorbs its value; the rest lowers it point for point; past 0 the rest goes on.
pub fn shield_absorb(face: u32, damage: u32) -> (u32, u32) {
    let over = damage.saturating_sub(face);
    (face.saturating_sub(over), damage.saturating_sub(2 * face))
}

/// What one hit did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct HitResult {
    pub to_hull: u32,
    pub internal: u32,
    pub location: Option<Loc>,
}

/// The ship taking damage, with what it needs to resolve it.
pub(crate) struct Target<'a> {
    pub ctx: &'a Context,
    pub class: &'a ShipClass,
    pub state: &'a mut ShipState,
    pub side: u8,
}

impl Target<'_> {
    /// A hit of `damage` points on absolute face `face`. `chosen`: the location the attacker
    /// picked after a special success (else rolled).
    pub(crate) fn hit<R: Roller, L: Log>(
        &mut self,
        rng: &mut R,
        log: &mut L,
        face: u8,
        damage: u32,
        chosen: Option<Loc>,
    ) -> HitResult {
        let before = self.state.shield_value(face);
        let (after, to_hull) = shield_absorb(before, damage);
        if self.state.shields_raised {
            self.state.shields[face as usize] = after;
        }
        let mut result = HitResult {
            to_hull,
            ..HitResult::default()
        };
        let hull_roll = if to_hull > 0 {
            match self.state.level(self.class, Loc::Hull) {
                Condition::Light => Some(rng.roll(&self.class.hull_intact).max(0) as u32),
                Condition::Damaged => Some(rng.roll(&self.class.hull_damaged).max(0) as u32),
                // Badly damaged: the hull stops nothing.
                Condition::BadlyDamaged => None,
            }
        } else {
            None
        };
        result.internal = to_hull.saturating_sub(hull_roll.unwrap_or(0));
        if L::ON {
            log.push(Event::Hit {
                side: self.side,
                face: super::hex::relative_face(face, self.state.facing),
                shields_up: self.state.shields_raised,
                damage,
                shield_before: before,
                shield_after: if self.state.shields_raised {
                    after
                } else {
                    before
                },
                to_hull,
                hull_roll,
                internal: result.internal,
            });
        }
        if result.internal > 0 {
            let (loc, roll) = match chosen {
                Some(l) => (l, None),
                None => {
                    let r = rng.die(self.ctx.thresholds.die);
                    (self.ctx.location_by_roll[r as usize], Some(r))
                }
            };
            result.location = Some(loc);
            self.damage_location(rng, log, loc, result.internal, roll);
        }
        result
    }

    /// Points straight onto a location's track (internal damage, boarders, direct damage).
    pub(crate) fn damage_location<R: Roller, L: Log>(
        &mut self,
        rng: &mut R,
        log: &mut L,
        loc: Loc,
        points: u32,
        roll: Option<u32>,
    ) {
        if points == 0 || self.state.destroyed {
            return;
        }
        let track = self.class.track;
        let i = loc as usize;
        let old = self.state.damage[i];
        let new = old + points;
        let info = *self.ctx.info(loc);
        let kept = new.min(track.excess);
        self.state.damage[i] = if info.excess == Excess::Explosion {
            new
        } else {
            kept
        };
        if L::ON {
            log.push(Event::Location {
                side: self.side,
                location: loc,
                roll,
                points,
                damage: self.state.damage[i],
            });
        }
        if old <= track.damaged && new > track.damaged && self.state.crossed[i] & 1 == 0 {
            self.state.crossed[i] |= 1;
            self.casualties(log, loc, Condition::Damaged, info.damaged.casualties);
            self.on_damaged(loc);
        }
        if old <= track.badly_damaged && new > track.badly_damaged {
            if self.state.crossed[i] & 2 == 0 {
                self.state.crossed[i] |= 2;
                self.casualties(log, loc, Condition::BadlyDamaged, info.badly.casualties);
                if let Some(skill) = info.badly.roll {
                    let target = self.state.skill(self.class, self.ctx, skill, 0);
                    let r = self.ctx.thresholds.roll(rng, skill, target);
                    let extra = if r.level.succeeded() {
                        0
                    } else {
                        info.badly.extra_casualties
                    };
                    self.state.casualties += extra;
                    self.state.casualties_total += extra;
                    if L::ON {
                        log.push(Event::Decompression {
                            side: self.side,
                            roll: r,
                            extra_casualties: extra,
                        });
                    }
                }
            }
            self.on_badly_damaged(loc);
        }
        if new > track.excess {
            let over = new - track.excess;
            match info.excess {
                Excess::Explosion => {
                    self.state.destroyed = true;
                    if L::ON {
                        log.push(Event::Destroyed {
                            side: self.side,
                            location: loc,
                        });
                    }
                }
                Excess::Hull if loc == Loc::Hull => {
                    // A table that sends the hull's excess to the hull: the hull breaks.
                    self.state.destroyed = true;
                    if L::ON {
                        log.push(Event::Destroyed {
                            side: self.side,
                            location: loc,
                        });
                    }
                }
                Excess::Hull => {
                    if L::ON {
                        log.push(Event::Excess {
                            side: self.side,
                            from: loc,
                            points: over,
                        });
                    }
                    self.damage_location(rng, log, Loc::Hull, over, None);
                }
            }
        }
    }

    fn casualties<L: Log>(&mut self, log: &mut L, loc: Loc, condition: Condition, n: u32) {
        self.state.casualties += n;
        self.state.casualties_total += n;
        if L::ON {
            log.push(Event::Condition {
                side: self.side,
                location: loc,
                condition,
                casualties: n,
            });
        }
    }

    /// Effects that happen at once when a location becomes damaged.
    fn on_damaged(&mut self, loc: Loc) {
        if loc == Loc::Hull {
            // Damaged hull: the cloaking devices outside are out of use until repaired.
            self.state.cloaked = false;
        }
    }

    /// Effects that happen at once when a location becomes badly damaged.
    fn on_badly_damaged(&mut self, loc: Loc) {
        match loc {
            Loc::Hull => self.state.cloaked = false,
            Loc::Bridge if !self.state.aux_bridge => {
                self.state.aux_bridge = true;
                self.state.bridge_switch_left = self.ctx.bridge_switch_turns;
            }
            Loc::Generator => {
                // Emergency power comes on, its count of turns starting afresh.
                self.state.emergency_turns = 0;
                self.state.emergency_burnt = false;
            }
            _ => {}
        }
    }
}
