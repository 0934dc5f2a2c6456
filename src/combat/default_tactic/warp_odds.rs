//! The odds of a warp jump weighed with the failure table: the chance the ship leaves the
//! battle in one piece, not only the chance its Navigation roll succeeds.
use crate::combat::context::Loc;
use crate::combat::skill::{Level, Skill};
use crate::combat::view::View;
use crate::combat::warp::failure_band;

/// The chance a jump from here leaves the ship alive: every roll of the skill die, a success
/// or a failure whose band's distortion damage (rolled for the hull and for the engines, as
/// the engine does) stays within the points each has left before breaking. The distance is
/// the one this side reckons (R5).
pub(super) fn jump_survival(v: &View) -> f64 {
    let t = &v.ctx.thresholds;
    let penalty = v.warp_penalty_seen().min(i32::MAX as u32) as i32;
    let target = v.my_skill(Skill::Navigation, penalty);
    let (hull, engines) = (v.my_points_left(Loc::Hull), v.my_points_left(Loc::Engines));
    let die = t.die.max(1);
    let succeed = t.highest(Level::Success, target).min(die);
    let mut alive = succeed as f64;
    // The failing rolls, by band and times its dice are rolled (few distinct ones).
    let mut memo: Vec<((usize, u32), f64)> = Vec::new();
    for roll in succeed + 1..=die {
        let margin = (roll as i64 - target.max(0) as i64).max(0) as u32;
        let Some(key) = failure_band(&v.ctx.warp, margin) else {
            alive += 1.0;
            continue;
        };
        let p = match memo.iter().find(|(k, _)| *k == key) {
            Some((_, p)) => *p,
            None => {
                let p = band_survival(v, key, hull, engines);
                memo.push((key, p));
                p
            }
        };
        alive += p;
    }
    alive / die as f64
}

/// The chance `times` rolls of a band's dice stay within `hull` and, separately, `engines`.
fn band_survival(v: &View, (band, times): (usize, u32), hull: u32, engines: u32) -> f64 {
    let Some(dice) = &v.ctx.warp.failures[band].damage else {
        return 1.0;
    };
    if times == 0 {
        return 1.0;
    }
    let Ok((min, one)) = dice.distribution() else {
        return 0.0;
    };
    // The sum of `times` rolls, each at least 0 (the engine clamps a roll below 0).
    let one = clamp_at_zero(min, &one);
    let mut sum = vec![1.0];
    for _ in 0..times.min(64) {
        let mut next = vec![0.0; sum.len() + one.len() - 1];
        for (i, a) in sum.iter().enumerate() {
            for (j, b) in one.iter().enumerate() {
                next[i + j] += a * b;
            }
        }
        sum = next;
    }
    let within = |left: u32| sum.iter().take(left as usize + 1).sum::<f64>();
    within(hull) * within(engines)
}

/// A distribution from `min` as one from 0, what falls below 0 counted at 0.
fn clamp_at_zero(min: i64, odds: &[f64]) -> Vec<f64> {
    let mut out = vec![0.0; (min + odds.len() as i64).max(1) as usize];
    for (i, p) in odds.iter().enumerate() {
        out[(min + i as i64).max(0) as usize] += p;
    }
    out
}
