//! The warp jump near an enemy: Navigation at a penalty that falls with distance, and the
//! failure table by margin.
use super::context::Loc;
use super::damage::Target;
use super::events::{Event, Log};
use super::roller::Roller;
use super::skill::Skill;
use super::turn::Battle;
use crate::rules::combat::WarpRules;

/// The failure band for a margin, and how many times its damage is rolled.
pub(crate) fn failure_band(rules: &WarpRules, margin: u32) -> Option<(usize, u32)> {
    let mut previous = 0;
    for (i, band) in rules.failures.iter().enumerate() {
        if band.up_to.is_none_or(|top| margin <= top) {
            let times = match (band.damage.as_ref(), band.every) {
                (None, _) => 0,
                (Some(_), None) => 1,
                (Some(_), Some(every)) => (margin - previous).div_ceil(every.max(1)),
            };
            return Some((i, times));
        }
        previous = band.up_to.unwrap_or(previous);
    }
    None
}

impl<R: Roller, L: Log> Battle<'_, R, L> {
    /// Jump (already checked possible). The ship leaves the battle whatever the roll (ruling);
    /// a failed roll's distortion damages hull and engines first, which can still destroy it.
    pub(crate) fn warp(&mut self, s: usize) {
        let (penalty, cost) = {
            let v = self.view(s);
            (v.warp_penalty(), v.warp_cost())
        };
        let ctx = self.ctx;
        let class = self.classes[s];
        self.ships[s].spend(cost);
        let target = self.ships[s].skill(class, ctx, Skill::Navigation, penalty as i32);
        let roll = ctx
            .thresholds
            .roll(&mut self.rng, Skill::Navigation, target);
        let (mut hull, mut engines, mut effect) = (0u32, 0u32, None);
        if !roll.level.succeeded() {
            if let Some((band, times)) = failure_band(&ctx.warp, roll.margin().max(0) as u32) {
                let b = &ctx.warp.failures[band];
                effect = Some(b.effect.as_str());
                if let Some(dice) = &b.damage {
                    for _ in 0..times {
                        hull += self.rng.roll(dice).max(0) as u32;
                        engines += self.rng.roll(dice).max(0) as u32;
                    }
                }
            }
        }
        if L::ON {
            self.log.push(Event::Warp {
                side: s as u8,
                penalty,
                roll,
                effect: effect.map(str::to_string),
                hull_damage: hull,
                engine_damage: engines,
            });
        }
        let mut t = Target {
            ctx,
            class,
            state: &mut self.ships[s],
            side: s as u8,
        };
        t.damage_location(&mut self.rng, &mut self.log, Loc::Hull, hull, None);
        t.damage_location(&mut self.rng, &mut self.log, Loc::Engines, engines, None);
        if !self.ships[s].destroyed {
            self.ships[s].escaped = true;
        }
    }
}
