//! The combat section of a ruleset: every number of the starship combat rules.
//!
//! The engine (src/combat/) knows the *flow* of a turn and what each location does when it
//! is damaged; everything countable (thresholds, costs, penalties, tables, dice) lives here.
use super::dice::Dice;
use super::formula::NumberOrFormula;
use super::model::Ruleset;
use crate::error::Result;
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use {super::doc::Doc, crate::pointer::pointer_push};

/// The crew skills the engine rolls against, by their ruleset names.
pub(crate) const SKILLS: &[&str] = &[
    "gunnery",
    "piloting",
    "shields",
    "sensors",
    "navigation",
    "mechanics",
    "electricity",
    "engines",
    "transport",
    "life_support",
    "first_aid",
    "security",
];

/// Longest battle a ruleset or scenario may ask for (a guard against runaway simulations):
/// 25 times the standard game's 40 turns. A battle that lasts to its limit costs about 3-7 µs
/// a turn, so at 100,000 a thousand battles (the sim's default) ran for minutes; at this
/// limit they take a few seconds, and `sim::MAX_BATTLE_TURNS` bounds bigger runs.
pub(crate) const MAX_TURN_LIMIT: u32 = 1000;

/// The ship locations the engine knows the effects of, by their ruleset names.
pub(crate) const LOCATIONS: &[&str] = &[
    "bridge",
    "transporter",
    "sensors",
    "phasers",
    "torpedoes",
    "generator",
    "engines",
    "shield_control",
    "hangars",
    "hull",
];

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct CombatRules {
    /// Hexes between the ships at the start.
    pub start_distance: u32,
    /// Short-range sensors: the farthest a ship can see, fire or transport (hexes).
    pub sensor_range: u32,
    /// A safety cap: a battle still running after this many turns is `unfinished` (the
    /// source sets no limit; its battles end by destruction, capture or a warp jump).
    pub turn_limit: u32,
    /// Contact lost: after this many consecutive turns with the ships farther apart than
    /// `sensor_range` and the distance not shrinking, the battle ends `disengaged` (a ruling
    /// where the source is silent; 0 or absent: never).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub disengage_turns: u32,
    /// Generator output for ships that give none (formula of the ship's stats).
    pub generator: NumberOrFormula,
    /// Battery capacity for ships that give none (formula; may use `generator`).
    pub battery: NumberOrFormula,
    /// Torpedo kind of ships that name none (a key of `torpedoes`).
    pub default_torpedo: String,
    pub skill_rolls: SkillRolls,
    /// Default crew skills (percent), by skill name.
    pub crew: IndexMap<String, u32>,
    /// Damage tracks by size class.
    pub sizes: IndexMap<String, SizeTrack>,
    /// Hit locations: the D100 table, where excess goes, who repairs, and the effects.
    pub locations: IndexMap<String, LocationRule>,
    /// What each action costs in energy.
    pub energy: EnergyCosts,
    /// How shield points move between faces and come from the generator.
    pub shields: ShieldRules,
    /// Phaser fire.
    pub phasers: PhaserRules,
    /// Torpedo kinds by name: damage, launch energy, loss per hex.
    pub torpedoes: IndexMap<String, TorpedoKind>,
    /// Going over maximum speed.
    pub maneuvers: ManeuverRules,
    /// Emergency power while the generator is out.
    pub emergency_power: EmergencyPower,
    /// The warp jump near an enemy: the Navigation penalty and what failures do.
    pub warp: WarpRules,
    /// Sending security teams across by transporter.
    pub transport: TransportRules,
    /// Security teams fighting aboard a ship: endurance and attack.
    pub security_teams: SecurityTeams,
    /// Damage control: points repaired by success level.
    pub repair: RepairRules,
    pub first_aid: SuccessLevels,
    /// Whole turns the crew spends moving to the auxiliary bridge.
    pub bridge_switch_turns: u32,
    /// Torpedoes a ship may launch in one turn.
    #[serde(default = "one")]
    pub torpedoes_per_turn: u32,
    /// The rulings this ruleset plays by where its source is silent or loose, in words (shown
    /// by `rules show`; the engine does not read them).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rulings: Vec<String>,
    /// Each ship's rivals, by ship name (at most 4 each): the matchups the editor's
    /// live balance (`arbiter lsp`'s code lens) shows on the ship, its share of the decided
    /// battles against each. A ship not listed is compared with the next ship of its `size`
    /// (in the ruleset's order, wrapping) whose name starts with another word (another
    /// faction), else the next of its size. The engine does not read them.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub rivals: IndexMap<String, Vec<String>>,
}

/// Most rivals one ship names in `combat.rivals` (each is a simulation the editor runs live).
pub(crate) const MAX_RIVALS: usize = 4;

fn one() -> u32 {
    1
}

fn two() -> u32 {
    2
}

/// Percentile skill rolls (Basic Roleplaying convention).
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct SkillRolls {
    /// Faces of the skill die (100: percentile).
    pub die: u32,
    /// A special success is a roll at most skill / special_divisor.
    pub special_divisor: u32,
    /// A critical success is a roll at most skill / critical_divisor.
    pub critical_divisor: u32,
    /// How those fractions round.
    pub rounding: Rounding,
    /// Least special and critical threshold (for any positive skill).
    pub minimum: u32,
    /// Rolls at or above this fail whatever the skill (absent: no fumbles, as in the source).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fumble: Option<u32>,
    /// "At half": a damaged system divides the chance left after every penalty by this
    /// (rounding down), once per effect that halves it.
    #[serde(default = "two")]
    pub halving_divisor: u32,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, schemars::JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Rounding {
    /// Fractions of .5 and more round up (RuneQuest 3).
    HalfUp,
    Down,
    Up,
}

impl Rounding {
    /// `numerator / divisor` rounded this way.
    pub(crate) fn divide(self, numerator: i64, divisor: i64) -> i64 {
        match self {
            Rounding::Down => numerator.div_euclid(divisor),
            Rounding::Up => -((-numerator).div_euclid(divisor)),
            Rounding::HalfUp => (2 * numerator + divisor).div_euclid(2 * divisor),
        }
    }
}

/// A location's damage track: damaged beyond `damaged` points, badly damaged beyond
/// `badly_damaged`, excess beyond `excess`.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, schemars::JsonSchema, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub(crate) struct SizeTrack {
    /// Damage points beyond which the location is damaged.
    pub damaged: u32,
    /// Damage points beyond which the location is badly damaged.
    pub badly_damaged: u32,
    /// Damage points beyond which damage is excess (see the location's `excess`).
    pub excess: u32,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, schemars::JsonSchema, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Excess {
    /// Points beyond the track go on to the hull location.
    Hull,
    /// Damage beyond the track destroys the ship.
    Explosion,
}

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct LocationRule {
    /// The D100 range that hits this location, inclusive ([1, 5]).
    pub roll: [u32; 2],
    /// What damage beyond the location's track does.
    pub excess: Excess,
    /// The skill that repairs it.
    pub repair: String,
    #[serde(default)]
    pub damaged: LevelEffect,
    #[serde(default)]
    pub badly_damaged: LevelEffect,
}

/// What crossing a threshold does (the engine supplies what "disabled" means per location).
#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct LevelEffect {
    /// Casualties, counted once when the threshold is first crossed.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub casualties: u32,
    /// Skills at half while the location is at this level or worse.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub halves: Vec<String>,
    /// Chance that using the system fails (a torpedo that does not leave), rolled on the
    /// skill die (`skill_rolls.die`; on the D100, a percent). The engine plays it on the
    /// torpedoes only: the source's other one, the hangars', is out of scope (a ruling).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub failure_chance: u32,
    /// A skill rolled when the threshold is crossed; a failure adds `extra_casualties`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub roll: Option<String>,
    /// Casualties added when the `roll` fails.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub extra_casualties: u32,
}

fn is_zero(x: &u32) -> bool {
    *x == 0
}

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct EnergyCosts {
    /// Moving one hex forward.
    pub forward: u32,
    /// Moving one hex back.
    pub back: u32,
    /// Turning 60° (beyond the ship's free turns).
    pub turn: u32,
    /// Each phaser die fired.
    pub phaser_die: u32,
    /// Raising the shields the first time.
    pub raise_shields: u32,
    /// Each point added to a shield face.
    pub shield_point: u32,
    /// A repair attempt on a lightly damaged location.
    pub repair_light: u32,
    /// A repair attempt on a damaged location.
    pub repair_damaged: u32,
    /// A repair attempt on a badly damaged location.
    pub repair_badly_damaged: u32,
    /// A warp jump.
    pub warp: u32,
    /// Energy per point stored in the battery.
    pub battery_point: u32,
    /// Each turn the cloak is on.
    pub cloak: u32,
    /// Cost multiplier for maneuvers and warp with damaged engines, and for shield work
    /// with damaged shield control.
    pub damaged_multiplier: u32,
    /// A damaged generator produces its output divided by this (rounding down).
    #[serde(default = "two")]
    pub damaged_generator_divisor: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct ShieldRules {
    /// Points a face may receive from each adjacent face in one shields phase.
    pub transfer_per_neighbour: u32,
    /// Generator points the shields may receive in one shields phase, in all (one face each).
    pub generator_points_per_turn: u32,
}

/// Most of each shields allowance a ruleset may give (a guard, not a rule: every point is a
/// roll, and a phase of thousands of rolls is a runaway ruleset).
pub(crate) const MAX_SHIELD_ALLOWANCE: u32 = 100;

/// Ordered pairs of adjacent faces of a hex: six faces, each with two neighbours (geometry).
const ADJACENT_FACE_PAIRS: u32 = 12;

impl ShieldRules {
    /// The most operations one shields phase can hold: a transfer into each face from each
    /// neighbour as often as allowed, and the generator's points.
    pub(crate) fn most_ops_per_phase(&self) -> u32 {
        ADJACENT_FACE_PAIRS
            .saturating_mul(self.transfer_per_neighbour)
            .saturating_add(self.generator_points_per_turn)
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct PhaserRules {
    /// Gunnery penalty per hex of distance.
    pub range_penalty: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct TorpedoKind {
    pub damage: Dice,
    /// Energy to launch one.
    pub energy: u32,
    /// Damage lost per hex travelled.
    pub loss_per_hex: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct ManeuverRules {
    /// Engines-roll penalty per energy point over maximum speed.
    pub overspeed_penalty: u32,
    /// Direct engine damage when that roll fails.
    pub overspeed_damage: Dice,
    /// Hexes inertia moves a ship forward at the start of its movement.
    #[serde(default = "one")]
    pub inertia: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct EmergencyPower {
    /// Energy a turn while the generator is out.
    pub energy: u32,
    /// Mechanics penalty per turn it has run (the n-th turn rolls at −n·penalty).
    pub penalty_per_turn: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct WarpRules {
    /// Navigation penalty: base − per_hex · distance, within `safe_distance` hexes.
    pub base_penalty: u32,
    /// What each hex of distance takes off the Navigation penalty.
    pub penalty_per_hex: u32,
    /// Hexes beyond which a jump carries no penalty.
    pub safe_distance: u32,
    /// Failure bands by margin, in rising order.
    pub failures: Vec<WarpFailure>,
}

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct WarpFailure {
    /// Highest margin of this band (absent: every larger margin).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub up_to: Option<u32>,
    /// What happens, for narration ("off course").
    pub effect: String,
    /// Direct damage to hull and to engines.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub damage: Option<Dice>,
    /// If set, the damage is rolled once per `every` points (or part) over the previous band.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub every: Option<u32>,
}

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct TransportRules {
    /// People in a security team.
    pub team_size: u32,
    /// Failing the Transport roll by more than this kills the team.
    pub kill_margin: u32,
    /// Teams sent a turn.
    pub teams_per_turn: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct SecurityTeams {
    /// Endurance of a fresh team.
    pub endurance: u32,
    /// Sides of the attack die of a fresh team.
    pub attack_die: u32,
    /// Sides lost per endurance point lost.
    pub step_per_point: u32,
    /// Damage a team deals to a location it attacks.
    pub location_damage: Dice,
    /// Teams at home in each search group (each group rolls Security; the last may be smaller).
    #[serde(default = "one")]
    pub teams_per_search_group: u32,
}

/// Points repaired (or casualties treated) by success level.
#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct SuccessLevels {
    /// For a plain success.
    pub success: u32,
    /// For a special success.
    pub special: u32,
    /// For a critical success.
    pub critical: u32,
}

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct RepairRules {
    pub points: SuccessLevels,
    /// Least success level that repairs a badly damaged location.
    pub badly_damaged_needs: SuccessLevel,
    /// Energy to repair burnt-out emergency power.
    pub emergency_energy: u32,
}

#[derive(
    Debug, Clone, Copy, Serialize, Deserialize, schemars::JsonSchema, PartialEq, Eq, PartialOrd, Ord,
)]
#[serde(rename_all = "snake_case")]
pub(crate) enum SuccessLevel {
    Success,
    Special,
    Critical,
}

impl CombatRules {
    /// Rivals name ships of the ruleset, other than the ship itself, at most `MAX_RIVALS`.
    fn check_rivals(&self, ruleset: &Ruleset, doc: &Doc, pointer: &str) -> Result<()> {
        for (ship, rivals) in &self.rivals {
            let at = pointer_push(pointer, ship);
            let Some(key) = ruleset.ship_key(ship) else {
                let e = ruleset.ship(ship).err().map(|e| e.message());
                return Err(doc.error_at_key(&at, e.unwrap_or_default()));
            };
            if rivals.len() > MAX_RIVALS {
                return Err(doc.error_at(
                    &at,
                    format!("at most {MAX_RIVALS} rivals a ship (each is simulated live)"),
                ));
            }
            for rival in rivals {
                match ruleset.ship_key(rival) {
                    None => {
                        let e = ruleset.ship(rival).err().map(|e| e.message());
                        return Err(doc.error_at(&at, e.unwrap_or_default()));
                    }
                    Some(r) if r == key => {
                        return Err(doc.error_at(&at, format!("`{ship}` cannot be its own rival")))
                    }
                    Some(_) => {}
                }
            }
        }
        Ok(())
    }

    pub(crate) fn validate(&self, ruleset: &Ruleset, doc: &Doc, pointer: &str) -> Result<()> {
        let at = |key: &str| pointer_push(pointer, key);
        let skill_known = |name: &str, p: &str| -> Result<()> {
            if SKILLS.contains(&name) {
                Ok(())
            } else {
                Err(doc.error_at(
                    p,
                    format!(
                        "unknown skill `{name}`{}; skills are: {}",
                        crate::names::suggestion(name, SKILLS.iter().copied()),
                        SKILLS.join(", ")
                    ),
                ))
            }
        };
        // Products of these numbers (a penalty per hex times a distance) must fit 32 bits.
        super::ranges::at_most(
            doc,
            pointer,
            super::ranges::MAX_COMBAT_NUMBER,
            &["turn_limit"],
        )?;
        if self.start_distance == 0 {
            return Err(doc.error_at(
                &at("start_distance"),
                "`start_distance` must be at least 1 (the ships cannot start in one hex)",
            ));
        }
        if self.turn_limit > MAX_TURN_LIMIT {
            return Err(doc.error_at(
                &at("turn_limit"),
                format!("turn_limit is at most {MAX_TURN_LIMIT}"),
            ));
        }
        let sr = &self.skill_rolls;
        if sr.die < 2 || sr.special_divisor == 0 || sr.critical_divisor == 0 {
            return Err(doc.error_at(
                &at("skill_rolls"),
                "the skill die needs 2 or more faces and the divisors must be positive",
            ));
        }
        for skill in SKILLS {
            if !self.crew.contains_key(*skill) {
                return Err(doc.error_at_key(
                    &at("crew"),
                    format!("the default crew has no `{skill}` skill"),
                ));
            }
        }
        for name in self.crew.keys() {
            skill_known(name, &pointer_push(&at("crew"), name))?;
        }
        self.check_rivals(ruleset, doc, &at("rivals"))?;
        for (name, size) in &self.sizes {
            if !(size.damaged <= size.badly_damaged && size.badly_damaged <= size.excess) {
                return Err(doc.error_at(
                    &pointer_push(&at("sizes"), name),
                    "thresholds must rise: damaged <= badly_damaged <= excess",
                ));
            }
        }
        // Every location known and present, and the rolls cover the die once each.
        let lp = at("locations");
        for name in self.locations.keys() {
            if !LOCATIONS.contains(&name.as_str()) {
                return Err(doc.error_at_key(
                    &pointer_push(&lp, name),
                    format!(
                        "unknown location `{name}`; locations are: {}",
                        LOCATIONS.join(", ")
                    ),
                ));
            }
        }
        let mut covered = vec![0u32; sr.die as usize + 1];
        for loc in LOCATIONS {
            let rule = self.locations.get(*loc).ok_or_else(|| {
                doc.error_at_key(&lp, format!("the hit-location table has no `{loc}`"))
            })?;
            let p = pointer_push(&lp, loc);
            let [lo, hi] = rule.roll;
            if lo < 1 || hi > sr.die || lo > hi {
                return Err(doc.error_at(
                    &pointer_push(&p, "roll"),
                    format!("roll range must lie within 1..{}", sr.die),
                ));
            }
            for c in &mut covered[lo as usize..=hi as usize] {
                *c += 1;
            }
            skill_known(&rule.repair, &pointer_push(&p, "repair"))?;
            for (level, effect) in [
                ("damaged", &rule.damaged),
                ("badly_damaged", &rule.badly_damaged),
            ] {
                let lp = pointer_push(&p, level);
                for s in &effect.halves {
                    skill_known(s, &pointer_push(&lp, "halves"))?;
                }
                if let Some(s) = &effect.roll {
                    skill_known(s, &pointer_push(&lp, "roll"))?;
                }
                if effect.failure_chance > sr.die {
                    return Err(doc.error_at(
                        &pointer_push(&lp, "failure_chance"),
                        format!(
                            "a chance rolled on the skill die is at most its {} faces",
                            sr.die
                        ),
                    ));
                }
                // A chance no code reads would be a rule that silently does nothing.
                if effect.failure_chance > 0 && *loc != "torpedoes" {
                    return Err(doc.error_at(
                        &pointer_push(&lp, "failure_chance"),
                        format!(
                            "`failure_chance` is played only on the torpedoes (a launch that \
                             fails), not on `{loc}`: shuttles and other failing systems are \
                             out of the engine's scope"
                        ),
                    ));
                }
            }
        }
        if let Some(i) = covered.iter().skip(1).position(|c| *c != 1) {
            let n = covered[i + 1];
            return Err(doc.error_at(
                &lp,
                format!(
                    "hit-location rolls must cover 1..{} exactly once; {} is covered {n} times",
                    sr.die,
                    i + 1
                ),
            ));
        }
        if !self.torpedoes.contains_key(&self.default_torpedo) {
            return Err(doc.error_at(
                &at("default_torpedo"),
                format!("`{}` is not one of the torpedo kinds", self.default_torpedo),
            ));
        }
        for (key, n) in [
            (
                "transfer_per_neighbour",
                self.shields.transfer_per_neighbour,
            ),
            (
                "generator_points_per_turn",
                self.shields.generator_points_per_turn,
            ),
        ] {
            if n > MAX_SHIELD_ALLOWANCE {
                return Err(doc.error_at(
                    &pointer_push(&at("shields"), key),
                    format!("must be at most {MAX_SHIELD_ALLOWANCE}"),
                ));
            }
        }
        if sr.halving_divisor == 0 {
            return Err(doc.error_at(
                &pointer_push(&at("skill_rolls"), "halving_divisor"),
                "must be at least 1",
            ));
        }
        if self.energy.damaged_generator_divisor == 0 {
            return Err(doc.error_at(
                &pointer_push(&at("energy"), "damaged_generator_divisor"),
                "must be at least 1",
            ));
        }
        if self.security_teams.teams_per_search_group == 0 {
            return Err(doc.error_at(
                &pointer_push(&at("security_teams"), "teams_per_search_group"),
                "a search group needs at least one team",
            ));
        }
        if self.energy.damaged_multiplier == 0 {
            return Err(doc.error_at(
                &pointer_push(&at("energy"), "damaged_multiplier"),
                "must be at least 1",
            ));
        }
        if self.warp.failures.is_empty()
            || self.warp.failures[..self.warp.failures.len() - 1]
                .iter()
                .any(|f| f.up_to.is_none())
        {
            return Err(doc.error_at(
                &pointer_push(&at("warp"), "failures"),
                "warp failures need bands with `up_to`, the last one may be open",
            ));
        }
        if let NumberOrFormula::Formula(f) = &self.generator {
            f.check(&super::ship::ship_formula_variables("generator"))
                .map_err(|e| doc.formula_error(&at("generator"), &e))?;
        }
        if let NumberOrFormula::Formula(f) = &self.battery {
            f.check(&super::ship::ship_formula_variables("battery"))
                .map_err(|e| doc.formula_error(&at("battery"), &e))?;
        }
        // Ships' references into this section.
        for (name, ship) in &ruleset.ships {
            let sp = pointer_push("/ships", name);
            if let Some(size) = &ship.size {
                if !self.sizes.contains_key(size) {
                    return Err(doc.error_at(
                        &pointer_push(&sp, "size"),
                        format!(
                            "unknown size `{size}`; sizes are: {}",
                            self.sizes.keys().cloned().collect::<Vec<_>>().join(", ")
                        ),
                    ));
                }
            }
            if let Some(kind) = &ship.torpedo_kind {
                if !self.torpedoes.contains_key(kind) {
                    return Err(doc.error_at(
                        &pointer_push(&sp, "torpedo_kind"),
                        format!(
                            "unknown torpedo kind `{kind}`, expected {}{}",
                            super::grammar::join_or(self.torpedoes.keys().cloned().collect()),
                            crate::names::suggestion(
                                kind,
                                self.torpedoes.keys().map(String::as_str)
                            )
                        ),
                    ));
                }
            }
            for skill in ship.crew.keys() {
                skill_known(skill, &pointer_push(&pointer_push(&sp, "crew"), skill))?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::Rounding;

    #[test]
    fn rounding_of_fractions() {
        // 62/5 = 12.4 → 12; 63/5 = 12.6 → 13; 62.5 is not reachable with integers, 25/10 = 2.5 → 3.
        assert_eq!(Rounding::HalfUp.divide(62, 5), 12);
        assert_eq!(Rounding::HalfUp.divide(63, 5), 13);
        assert_eq!(Rounding::HalfUp.divide(25, 10), 3);
        assert_eq!(Rounding::Down.divide(63, 5), 12);
        assert_eq!(Rounding::Up.divide(61, 5), 13);
        assert_eq!(Rounding::HalfUp.divide(50, 20), 3);
    }
}
