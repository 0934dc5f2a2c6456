//! One volley, exactly: every outcome of the dice enumerated, none sampled.
use super::context::Context;
use super::damage::shield_absorb;
use super::skill::{Level, Skill};
use crate::error::{Error, Result};
use crate::rules::{dice::Dice, model::Ruleset};
use serde::Serialize;

/// What is fired.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shot {
    /// This many phaser dice in one shot.
    Phasers { dice: u32 },
    /// One of the attacker's torpedoes.
    Torpedo,
}

/// The exact outcome of one shot at a fresh target, crews at their skills, over every
/// outcome including a miss.
#[derive(Debug, Clone, Serialize)]
pub struct VolleyReport {
    pub attacker: String,
    pub target: String,
    pub range: u32,
    /// "4D6 phasers", "photon torpedo".
    pub shot: String,
    /// Chance the shot connects (Gunnery success, or the torpedo not dodged).
    pub hit_chance: f64,
    /// Chance the attacker picks the location (a special Gunnery success; 0 for torpedoes).
    pub special_chance: f64,
    /// The skill the attacker rolls against (phasers) or the target dodges with (torpedoes).
    pub roll_needed: i32,
    /// The target face's shield value before the shot.
    pub shield: u32,
    pub expected_damage: f64,
    /// Expected drop of that face's value.
    pub expected_shield_loss: f64,
    /// Chance any damage gets past the shield.
    pub through_shield_chance: f64,
    /// Chance any damage gets past the hull roll (and so reaches a location).
    pub internal_chance: f64,
    /// Expected points past the hull roll.
    pub expected_internal: f64,
    pub hull: String,
}

/// The exact outcome of one phaser volley of K dice or one torpedo at `range` hexes.
pub fn volley(
    rules: &Ruleset,
    attacker: &str,
    target: &str,
    range: u32,
    shot: Shot,
) -> Result<VolleyReport> {
    let ctx = Context::new(rules)?;
    let a = ctx.class(rules, attacker)?;
    let t = ctx.class(rules, target)?;
    volley_classes(&ctx, &a, &t, range, shot)
}

pub(crate) fn volley_classes(
    ctx: &Context,
    a: &super::ship::ShipClass,
    t: &super::ship::ShipClass,
    range: u32,
    shot: Shot,
) -> Result<VolleyReport> {
    if range == 0 || range > ctx.sensor_range {
        return Err(Error::msg(format!(
            "range must be 1 to {} hexes (the sensor range), not {range}",
            ctx.sensor_range
        )));
    }
    let th = &ctx.thresholds;
    let (hit_chance, special_chance, roll_needed, damage, label) = match shot {
        Shot::Phasers { dice } => {
            if dice == 0 || dice > a.phaser_dice {
                return Err(Error::msg(format!(
                    "{} fires 1 to {} phaser dice, not {dice}",
                    a.name, a.phaser_dice
                )));
            }
            let skill =
                a.crew[Skill::Gunnery as usize] as i32 - (range * ctx.phaser_range_penalty) as i32;
            let dmg = Dice::new(dice, a.phaser_sides);
            (
                th.chance(Level::Success, skill),
                th.chance(Level::Special, skill),
                skill,
                dmg,
                format!("{dice}D{} phasers", a.phaser_sides),
            )
        }
        Shot::Torpedo => {
            if a.torpedoes == 0 {
                return Err(Error::msg(format!("{} carries no torpedoes", a.name)));
            }
            let (kind, rule) = &ctx.torpedo_kinds[a.torpedo_kind];
            let piloting = t.crew[Skill::Piloting as usize] as i32;
            let not_dodged = (1.0 - th.chance(Level::Special, piloting)).powi(range as i32);
            let mut dmg = rule.damage.clone();
            let loss = rule.loss_per_hex * range;
            if loss > 0 {
                dmg.terms.push(crate::rules::dice::DiceTerm {
                    negative: true,
                    count: loss,
                    sides: 0,
                });
            }
            (not_dodged, 0.0, piloting, dmg, format!("{kind} torpedo"))
        }
    };
    let (low, probs) = damage.distribution().map_err(Error::msg)?;
    let (hull_low, hull_probs) = t.hull_intact.distribution().map_err(Error::msg)?;
    let s = t.shields;
    let (mut e_damage, mut e_loss, mut p_through, mut p_internal, mut e_internal) =
        (0.0, 0.0, 0.0, 0.0, 0.0);
    for (i, p) in probs.iter().enumerate() {
        let x = (low + i as i64).max(0) as u32;
        let (after, to_hull) = shield_absorb(s, x);
        e_damage += p * x as f64;
        e_loss += p * (s - after) as f64;
        if to_hull > 0 {
            p_through += p;
            for (j, q) in hull_probs.iter().enumerate() {
                let h = (hull_low + j as i64).max(0) as u32;
                let internal = to_hull.saturating_sub(h);
                if internal > 0 {
                    p_internal += p * q;
                    e_internal += p * q * internal as f64;
                }
            }
        }
    }
    Ok(VolleyReport {
        attacker: a.name.clone(),
        target: t.name.clone(),
        range,
        shot: label,
        hit_chance,
        special_chance,
        roll_needed,
        shield: s,
        expected_damage: hit_chance * e_damage,
        expected_shield_loss: hit_chance * e_loss,
        through_shield_chance: hit_chance * p_through,
        internal_chance: hit_chance * p_internal,
        expected_internal: hit_chance * e_internal,
        hull: t.hull_intact.to_string(),
    })
}

impl VolleyReport {
    /// A table for people.
    pub(crate) fn render(&self, layout: crate::output::Layout) -> String {
        use crate::output::{percent, trim_number, Align, Table};
        let mut t = Table::new(&[
            ("one volley", Align::Left),
            ("chance or mean", Align::Right),
        ]);
        t.row(["hit chance".to_string(), percent(self.hit_chance)]);
        if self.special_chance > 0.0 {
            t.row([
                "special (choose location)".to_string(),
                percent(self.special_chance),
            ]);
        }
        t.row([
            "expected damage".to_string(),
            trim_number(self.expected_damage, 3),
        ]);
        t.row([
            format!("expected shield loss (face at {})", self.shield),
            trim_number(self.expected_shield_loss, 3),
        ]);
        t.row([
            "past the shield".to_string(),
            percent(self.through_shield_chance),
        ]);
        t.row([
            format!("past the hull roll ({})", self.hull),
            percent(self.internal_chance),
        ]);
        t.row([
            "expected internal damage".to_string(),
            trim_number(self.expected_internal, 3),
        ]);
        format!(
            "{} → {}: {} at range {}\n\n{}",
            self.attacker,
            self.target,
            self.shot,
            self.range,
            t.render(layout)
        )
    }
}
