//! Hit chances by distance, worked out once a turn, that the planner and the fire orders
//! read.
use crate::combat::hex::{self, Hex, Relation};
use crate::combat::view::View;

/// Distances with tabulated chances (farther ones are worked out when asked for).
const TABLE: usize = 24;

/// What the chances by distance depend on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ChanceKey {
    gunnery: i32,
    enemy_gunnery: i32,
    enemy_piloting: i32,
    enemy_dodges: bool,
}

/// Hit chances by distance, kept while what they depend on (the key) holds.
#[derive(Debug, Clone, Copy)]
pub(super) struct Chances {
    key: Option<ChanceKey>,
    /// The turn the key was last checked: within a side's move phase neither my skills nor
    /// what I know of the enemy's change (damage comes in the enemy's phases, knowledge
    /// from the Sensors phase), so it is checked once a turn.
    checked: u32,
    mine: [f64; TABLE],
    theirs: [f64; TABLE],
    through: [f64; TABLE],
}

impl Default for Chances {
    fn default() -> Chances {
        Chances {
            key: None,
            checked: 0,
            mine: [0.0; TABLE],
            theirs: [0.0; TABLE],
            through: [0.0; TABLE],
        }
    }
}

impl Chances {
    pub(super) fn refresh(&mut self, v: &View) {
        use crate::combat::skill::Skill;
        if self.key.is_some() && self.checked == v.turn {
            return;
        }
        self.checked = v.turn;
        let key = ChanceKey {
            gunnery: v.my_skill(Skill::Gunnery, 0),
            enemy_gunnery: v.enemy_skill(Skill::Gunnery, 0),
            enemy_piloting: v.enemy_skill(Skill::Piloting, 0),
            enemy_dodges: v.enemy_can_dodge(),
        };
        if self.key == Some(key) {
            return;
        }
        self.key = Some(key);
        for d in 0..TABLE as u32 {
            self.mine[d as usize] = v.phaser_chance_at(d);
            self.theirs[d as usize] = v.enemy_phaser_chance_at(d);
            self.through[d as usize] = torpedo_through(v, d);
        }
    }

    pub(super) fn mine(&self, v: &View, d: u32) -> f64 {
        self.mine
            .get(d as usize)
            .copied()
            .unwrap_or_else(|| v.phaser_chance_at(d))
    }

    pub(super) fn theirs(&self, v: &View, d: u32) -> f64 {
        self.theirs
            .get(d as usize)
            .copied()
            .unwrap_or_else(|| v.enemy_phaser_chance_at(d))
    }

    pub(super) fn through(&self, v: &View, d: u32) -> f64 {
        self.through
            .get(d as usize)
            .copied()
            .unwrap_or_else(|| torpedo_through(v, d))
    }
}

/// Chance a torpedo over `d` hexes is not dodged.
fn torpedo_through(v: &View, d: u32) -> f64 {
    let from = v.enemy_pos().plus(Hex::new(d as i32, 0));
    v.torpedo_chance_from(from)
}

impl Chances {
    /// The hit chance of a phaser shot from `pos` facing `facing` (0 when out of arc).
    pub(super) fn phaser_from(&self, v: &View, pos: Hex, facing: u8) -> f64 {
        self.phaser_across(v, hex::relation(v.enemy_pos().minus(pos)), facing)
    }

    /// `phaser_from` with the enemy in relation `to_enemy` (absolute directions).
    pub(super) fn phaser_across(&self, v: &View, to_enemy: Relation, facing: u8) -> f64 {
        within_reach(v, to_enemy, to_enemy.in_arc(facing)).map_or(0.0, |d| self.mine(v, d))
    }

    /// The chance a torpedo from `pos` facing `facing` is not dodged (0 off the line).
    pub(super) fn torpedo_from(&self, v: &View, pos: Hex, facing: u8) -> f64 {
        self.torpedo_across(v, hex::relation(v.enemy_pos().minus(pos)), facing)
    }

    /// `torpedo_from` with the enemy in relation `to_enemy` (absolute directions).
    pub(super) fn torpedo_across(&self, v: &View, to_enemy: Relation, facing: u8) -> f64 {
        let lined_up = to_enemy.on_torpedo_line(facing);
        within_reach(v, to_enemy, lined_up).map_or(0.0, |d| self.through(v, d))
    }
}

/// The distance to the enemy when a shot `aimed` at it is within sensor range (None: no shot).
fn within_reach(v: &View, to_enemy: Relation, aimed: bool) -> Option<u32> {
    let d = to_enemy.distance;
    (aimed && d != 0 && d <= v.ctx.sensor_range).then_some(d)
}
