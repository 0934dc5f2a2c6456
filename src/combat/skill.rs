//! Percentile skill rolls: success, special and critical thresholds from the ruleset's
//! fractions and rounding; penalties in points; halvings that stack.
use super::roller::Roller;
use crate::rules::combat::{SkillRolls, SKILLS};
use serde::Serialize;

/// The crew skills, in the order of `rules::combat::SKILLS`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Skill {
    Gunnery,
    Piloting,
    Shields,
    Sensors,
    Navigation,
    Mechanics,
    Electricity,
    Engines,
    Transport,
    LifeSupport,
    FirstAid,
    Security,
}

pub(crate) const SKILL_COUNT: usize = 12;

impl Skill {
    pub(crate) const ALL: [Skill; SKILL_COUNT] = [
        Skill::Gunnery,
        Skill::Piloting,
        Skill::Shields,
        Skill::Sensors,
        Skill::Navigation,
        Skill::Mechanics,
        Skill::Electricity,
        Skill::Engines,
        Skill::Transport,
        Skill::LifeSupport,
        Skill::FirstAid,
        Skill::Security,
    ];

    /// The skill of a ruleset name (validated names always resolve).
    pub(crate) fn from_name(name: &str) -> Option<Skill> {
        SKILLS
            .iter()
            .position(|s| *s == name)
            .map(|i| Skill::ALL[i])
    }

    pub(crate) fn name(self) -> &'static str {
        SKILLS[self as usize]
    }
}

/// How well a roll went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Level {
    Failure,
    Success,
    Special,
    Critical,
}

impl Level {
    pub(crate) fn succeeded(self) -> bool {
        self >= Level::Success
    }
}

impl From<crate::rules::combat::SuccessLevel> for Level {
    fn from(l: crate::rules::combat::SuccessLevel) -> Level {
        use crate::rules::combat::SuccessLevel as S;
        match l {
            S::Success => Level::Success,
            S::Special => Level::Special,
            S::Critical => Level::Critical,
        }
    }
}

/// One roll: what was rolled, what it needed, and how it went.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Roll {
    pub(crate) skill: Skill,
    pub roll: u32,
    /// The effective skill: base, halved, minus penalties (may be 0 or less).
    pub target: i32,
    pub(crate) level: Level,
}

impl Roll {
    /// By how much the roll failed (0 on a success).
    pub(crate) fn margin(&self) -> i32 {
        if self.level.succeeded() {
            0
        } else {
            self.roll as i32 - self.target
        }
    }
}

/// The effective skill: `base` minus `penalty`, then divided by `divisor` once per halving
/// (rounding down each time; ruling R2: "at half" halves the chance left after penalties). A
/// chance at 0 or below stays as it is (it never succeeds).
pub(crate) fn effective(base: u32, halvings: u32, penalty: i32, divisor: u32) -> i32 {
    let left = base as i64 - penalty as i64;
    if left <= 0 || halvings == 0 {
        return left.clamp(i32::MIN as i64, i32::MAX as i64) as i32;
    }
    let mut x = left;
    for _ in 0..halvings {
        x /= divisor.max(1) as i64;
        if x == 0 {
            break;
        }
    }
    x as i32
}

/// Effective skills whose special and critical thresholds are worked out in advance (every
/// roll needs them; higher skills are worked out when rolled).
const TABULATED: usize = 128;

/// The thresholds of the ruleset's skill rolls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Thresholds {
    pub die: u32,
    special: i64,
    critical: i64,
    rounding: crate::rules::combat::Rounding,
    minimum: i64,
    fumble: Option<u32>,
    /// By effective skill below `TABULATED`: the highest special and critical rolls.
    table: [[i64; 2]; TABULATED],
}

impl Thresholds {
    pub(crate) fn new(r: &SkillRolls) -> Thresholds {
        let mut t = Thresholds {
            die: r.die,
            special: r.special_divisor as i64,
            critical: r.critical_divisor as i64,
            rounding: r.rounding,
            minimum: r.minimum as i64,
            fumble: r.fumble,
            table: [[0; 2]; TABULATED],
        };
        for skill in 0..TABULATED {
            t.table[skill] = t.compute(skill as i64);
        }
        t
    }

    /// The highest special and the highest critical roll against `target` (before the
    /// success and fumble limits).
    fn compute(&self, target: i64) -> [i64; 2] {
        [
            self.rounding.divide(target, self.special).max(self.minimum),
            self.rounding
                .divide(target, self.critical)
                .max(self.minimum),
        ]
    }

    #[inline]
    fn special_critical(&self, target: i32) -> [i64; 2] {
        match self.table.get(target as usize) {
            Some(t) => *t,
            None => self.compute(target as i64),
        }
    }

    /// The level a roll reaches against an effective skill. A skill of 0 or less never succeeds.
    pub(crate) fn level(&self, roll: u32, target: i32) -> Level {
        if target <= 0 || roll as i32 > target || self.fumble.is_some_and(|f| roll >= f) {
            return Level::Failure;
        }
        let [special, critical] = self.special_critical(target);
        let r = roll as i64;
        if r <= critical {
            Level::Critical
        } else if r <= special {
            Level::Special
        } else {
            Level::Success
        }
    }

    /// Highest roll reaching `level` against `target` (0: none can).
    pub(crate) fn highest(&self, level: Level, target: i32) -> u32 {
        if level == Level::Failure {
            return self.die;
        }
        if target <= 0 {
            return 0;
        }
        let mut success = (target as u32).min(self.die);
        if let Some(f) = self.fumble {
            success = success.min(f.saturating_sub(1));
        }
        let [special, critical] = self.special_critical(target);
        let highest = match level {
            Level::Success => return success,
            Level::Special => special,
            _ => critical,
        };
        (highest.clamp(0, u32::MAX as i64) as u32).min(success)
    }

    /// Chance of reaching at least `level`.
    pub(crate) fn chance(&self, level: Level, target: i32) -> f64 {
        self.highest(level, target) as f64 / self.die as f64
    }

    pub(crate) fn roll<R: Roller>(&self, rng: &mut R, skill: Skill, target: i32) -> Roll {
        let roll = rng.die(self.die);
        Roll {
            skill,
            roll,
            target,
            level: self.level(roll, target),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::combat::Rounding;

    fn brp() -> Thresholds {
        Thresholds::new(&SkillRolls {
            die: 100,
            special_divisor: 5,
            critical_divisor: 20,
            rounding: Rounding::HalfUp,
            minimum: 1,
            fumble: None,
            halving_divisor: 2,
        })
    }

    #[test]
    fn sixty_percent_special_12_critical_3() {
        let t = brp();
        assert_eq!(t.highest(Level::Success, 60), 60);
        assert_eq!(t.highest(Level::Special, 60), 12);
        assert_eq!(t.highest(Level::Critical, 60), 3);
        assert_eq!(t.level(61, 60), Level::Failure);
        assert_eq!(t.level(13, 60), Level::Success);
        assert_eq!(t.level(12, 60), Level::Special);
        assert_eq!(t.level(3, 60), Level::Critical);
    }

    #[test]
    fn half_rounds_up_and_minimum_is_one() {
        let t = brp();
        // 63/5 = 12.6 → 13; 62/5 = 12.4 → 12; 50/20 = 2.5 → 3; 10/20 = 0.5 → 1; 5/20 → 0 → minimum
        // 1.
        assert_eq!(t.highest(Level::Special, 63), 13);
        assert_eq!(t.highest(Level::Special, 62), 12);
        assert_eq!(t.highest(Level::Critical, 50), 3);
        assert_eq!(t.highest(Level::Critical, 10), 1);
        assert_eq!(t.highest(Level::Critical, 5), 1);
        assert_eq!(t.highest(Level::Special, 2), 1);
    }

    #[test]
    fn zero_or_negative_skill_never_succeeds() {
        let t = brp();
        assert_eq!(t.level(1, 0), Level::Failure);
        assert_eq!(t.level(1, -20), Level::Failure);
        assert_eq!(t.chance(Level::Success, -5), 0.0);
    }

    #[test]
    fn penalties_subtract_then_halvings_round_down_and_stack() {
        assert_eq!(effective(60, 0, 25, 2), 35);
        assert_eq!(effective(60, 1, 0, 2), 30);
        assert_eq!(effective(61, 1, 0, 2), 30);
        // R2: (60 - 5) / 2 / 2 = 13 (was 60 / 4 - 5 = 10 when halvings came first).
        assert_eq!(effective(60, 2, 5, 2), 13);
        assert_eq!(effective(75, 2, 0, 2), 18);
        // The source's case: Gunnery 60 at range 6, damaged: (60 - 30) / 2 = 15, not 0.
        assert_eq!(effective(60, 1, 30, 2), 15);
        // Nothing left stays nothing; the divisor is the ruleset's.
        assert_eq!(effective(20, 1, 30, 2), -10);
        assert_eq!(effective(90, 1, 0, 3), 30);
    }

    #[test]
    fn margin_of_failure() {
        let t = brp();
        let mut r = crate::combat::roller::Rigged::new(&[80, 40]);
        let a = t.roll(&mut r, Skill::Navigation, 35);
        assert_eq!((a.level, a.margin()), (Level::Failure, 45));
        let b = t.roll(&mut r, Skill::Navigation, 35);
        assert_eq!((b.level, b.margin()), (Level::Failure, 5));
    }

    #[test]
    fn thresholds_agree_with_rolling_every_face() {
        let mut t = brp();
        for fumble in [None, Some(97)] {
            t.fumble = fumble;
            for target in -5..130 {
                for level in [Level::Success, Level::Special, Level::Critical] {
                    let counted = (1..=100).filter(|r| t.level(*r, target) >= level).count() as u32;
                    assert_eq!(
                        t.highest(level, target),
                        counted,
                        "target {target} {level:?} fumble {fumble:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn fumbles_only_when_the_ruleset_has_them() {
        let mut t = brp();
        assert_eq!(t.level(99, 100), Level::Success);
        t.fumble = Some(99);
        assert_eq!(t.level(99, 100), Level::Failure);
    }
}
