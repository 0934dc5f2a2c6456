//! The `tactic` section of a ruleset: the default combat tactic's play style.
//!
//! These are not rules of the game but how a good player plays them; a designer changes them
//! to ask "what if the Klingon plays cautiously?" (a scenario may change them per side). The
//! `classic` tactic keeps its own fixed style. A ruleset without the section plays with the
//! built-in `startrek` ruleset's (see `TacticRules::of`).
use crate::error::Result;
use serde::{Deserialize, Serialize};
use {super::doc::Doc, crate::pointer::pointer_push};

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct TacticRules {
    /// Hexes it closes to and fights at.
    pub preferred_range: u32,
    /// 0 (cautious) to 1 (bold): how much its own shot counts against the enemy's.
    pub aggression: f64,
    /// Least hit chance worth a phaser volley.
    pub min_phaser_chance: f64,
    /// Least chance a torpedo is not dodged for it to be launched.
    pub min_torpedo_chance: f64,
    /// Least harm a launch is expected to do against an enemy without a cloak: the chance
    /// it is not dodged times its mean damage beyond the shield of the face it meets.
    pub min_torpedo_damage: f64,
    /// Least chance a repair attempt succeeds for a team to try it.
    pub min_repair_chance: f64,
    /// When a ship with a cloak uses it.
    pub cloak: CloakStyle,
    /// When it breaks off the fight.
    pub flee: FleeStyle,
    /// When it goes beyond maximum speed.
    pub overspeed: OverspeedStyle,
    /// How it weighs a place it could end its move on.
    pub weights: TacticWeights,
}

/// When a ship with a cloak uses it.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct CloakStyle {
    /// Cloaks when a face toward the enemy is below this share of its rating...
    pub below_shields: f64,
    /// ...and decloaks once they are back to this share (in a firing position)...
    pub decloak_shields: f64,
    /// ...or after this many turns cloaked, whatever the shields...
    pub max_turns: u32,
    /// ...or this many against an enemy that can cloak too.
    pub max_turns_against_cloak: u32,
    /// While cloaked it keeps this many hexes beyond its preferred range: the enemy moves
    /// first once it decloaks, so it should not decloak where that first shot comes close in.
    pub stand_off: u32,
}

/// When it breaks off the fight.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct FleeStyle {
    /// Flees once the hull or the engines are within this share of their damage track of
    /// breaking (or the hull is badly damaged).
    pub margin_share: f64,
    /// Jumps to warp only when the Navigation roll succeeds at least this often.
    pub min_warp_chance: f64,
}

/// When it goes beyond maximum speed (an Engines roll at a penalty per point over).
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct OverspeedStyle {
    /// Most energy points beyond maximum speed it spends finishing a planned move whose
    /// maneuvers failed (never to plan a longer one), while its engines are whole enough.
    pub most_points: u32,
}

/// How it weighs a place it could end its move on, in points.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct TacticWeights {
    /// Lost per hex between the enemy and the preferred range.
    pub off_range: f64,
    /// Lost per hex, times the next turn's share, between the preferred range and the
    /// distance after both ships' inertia next turn (the enemy maneuvers in between); while
    /// cloaked `off_range` counts there as well.
    pub off_range_next: f64,
    /// Lost for ending in the enemy's hex (no shot either way).
    pub enemy_hex: f64,
    /// Lost, times the next turn's share, where inertia would carry it into the enemy's hex
    /// (or where the enemy's inertia takes it) next turn: the enemy moves in between.
    pub drift_into_enemy: f64,
    /// Lost for ending on the hex the enemy's inertia carries it into: it starts its turn in
    /// my hex, where neither can fire, and stays there when its maneuvers fail.
    pub in_enemy_path: f64,
    /// Won for the enemy in my phaser arc.
    pub in_arc: f64,
    /// Won, times the chance a shot hits, on top of `in_arc`.
    pub hit_chance: f64,
    /// Won for the enemy on my torpedo line (torpedoes left), times the chance it gets through.
    pub torpedo_line: f64,
    /// Won per point the enemy face in my line of fire is below its rating.
    pub weak_enemy_face: f64,
    /// Won per shield point of my face toward the enemy.
    pub my_face: f64,
    /// Lost for standing where the enemy can bring its arc on me, times its hit chance; each
    /// turn it would have to pay for divides it by one more.
    pub enemy_shot: f64,
    /// Share of a place's value that counts again from where inertia takes it next turn...
    pub next_turn: f64,
    /// ...and for a ship with free turns, which re-aims next turn for nothing.
    pub next_turn_nimble: f64,
    /// Lost per energy point spent moving.
    pub energy: f64,
    /// When fleeing: won per hex from the enemy.
    pub flee_distance: f64,
    /// When fleeing: lost per energy point spent.
    pub flee_energy: f64,
}

/// The built-in ruleset whose section plays when a ruleset has none.
pub(crate) const FALLBACK_RULESET: &str = "startrek";

impl TacticRules {
    /// The ruleset's tactic section, or the built-in combat ruleset's.
    pub(crate) fn of(ruleset: &super::model::Ruleset) -> Result<TacticRules> {
        if let Some(t) = &ruleset.tactic {
            return Ok(t.clone());
        }
        let base = super::load::load(FALLBACK_RULESET)?;
        base.tactic.ok_or_else(|| {
            crate::error::Error::msg(format!(
                "the built-in `{FALLBACK_RULESET}` ruleset has no tactic section"
            ))
        })
    }

    /// Shares are 0 to 1, weights finite and not huge, each error at its number.
    pub(crate) fn validate(&self, doc: &Doc, pointer: &str) -> Result<()> {
        super::ranges::at_most(doc, pointer, super::ranges::MAX_COMBAT_NUMBER, &[])?;
        let at = |path: &[&str]| {
            path.iter()
                .fold(pointer.to_string(), |p, k| pointer_push(&p, k))
        };
        let share = |path: &[&str], x: f64| -> Result<()> {
            if (0.0..=1.0).contains(&x) {
                return Ok(());
            }
            let key = path.last().copied().unwrap_or_default();
            Err(doc.error_at(
                &at(path),
                format!("`{key}` is a share from 0 to 1, not {x}"),
            ))
        };
        // `what`: how the message names the value.
        let points = |path: &[&str], what: &str, x: f64| -> Result<()> {
            if x.is_finite() && x >= 0.0 {
                return Ok(());
            }
            let message = format!("{what} is a number of points, 0 or more, not {x}");
            Err(doc.error_at(&at(path), message))
        };
        share(&["aggression"], self.aggression)?;
        share(&["min_phaser_chance"], self.min_phaser_chance)?;
        share(&["min_torpedo_chance"], self.min_torpedo_chance)?;
        share(&["min_repair_chance"], self.min_repair_chance)?;
        points(
            &["min_torpedo_damage"],
            "`min_torpedo_damage`",
            self.min_torpedo_damage,
        )?;
        share(&["cloak", "below_shields"], self.cloak.below_shields)?;
        share(&["cloak", "decloak_shields"], self.cloak.decloak_shields)?;
        share(&["flee", "min_warp_chance"], self.flee.min_warp_chance)?;
        share(&["flee", "margin_share"], self.flee.margin_share)?;
        share(&["weights", "next_turn"], self.weights.next_turn)?;
        share(
            &["weights", "next_turn_nimble"],
            self.weights.next_turn_nimble,
        )?;
        let w = &self.weights;
        for (key, x) in [
            ("off_range", w.off_range),
            ("off_range_next", w.off_range_next),
            ("enemy_hex", w.enemy_hex),
            ("drift_into_enemy", w.drift_into_enemy),
            ("in_enemy_path", w.in_enemy_path),
            ("in_arc", w.in_arc),
            ("hit_chance", w.hit_chance),
            ("torpedo_line", w.torpedo_line),
            ("weak_enemy_face", w.weak_enemy_face),
            ("my_face", w.my_face),
            ("enemy_shot", w.enemy_shot),
            ("energy", w.energy),
            ("flee_distance", w.flee_distance),
            ("flee_energy", w.flee_energy),
        ] {
            points(&["weights", key], &format!("the weight `{key}`"), x)?;
        }
        Ok(())
    }
}
