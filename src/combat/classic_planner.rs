//! The classic tactic's movement plan (`ClassicTactic`; the default tactic plans in
//! `default_tactic/plan.rs`): the best place its class can reach this turn (the class's reach
//! table lists them, cheapest first), scored in thousandths of a point, and the
//! moves there, followed over the turn's decisions.
use super::context::{Context, Loc};
use super::events::Maneuver;
use super::hex::{self, Hex, Relation};
use super::movement::apply_maneuver;
use super::reach::{price, Reach, Reachable, MAX_MOVES};
use super::side::Facing;
use super::skill::{Level, Skill};
use super::view::View;

/// Distances with tabulated shot values (farther ones, within a long sensor range, are
/// worked out when scored).
const DISTANCES: usize = 64;

/// The moves of one turn's plan being followed, and the state expected before each: what both
/// planners (classic's and the default's) check a plan is still on track by.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Route {
    turn: u32,
    flee: bool,
    /// The engines multiplier the costs were worked out with.
    mult: u32,
    len: u8,
    pub(crate) next: u8,
    moves: [Option<Maneuver>; MAX_MOVES],
    /// Where the ship is before each move (and after the last).
    pub(crate) before: [Waypoint; MAX_MOVES + 1],
    /// Energy the moves still to make cost, from each move on.
    cost_from: [u32; MAX_MOVES + 1],
}

impl Route {
    /// The route of `moves` from where the ship of `v` is, each move's energy times `mult`.
    pub(crate) fn new(v: &View, moves: &[Maneuver], flee: bool, mult: u32) -> Route {
        let mut route = Route {
            turn: v.turn,
            flee,
            mult,
            len: moves.len() as u8,
            ..Route::default()
        };
        let mut at = Waypoint::of(v);
        route.before[0] = at;
        let mut costs = [0u32; MAX_MOVES];
        for (i, &m) in moves.iter().enumerate() {
            let free = v
                .my_class
                .maneuverability
                .saturating_sub(at.free_turns_used);
            let (paid, free_after) = price(&v.ctx.energy, m, free);
            costs[i] = mult * paid;
            let (pos, facing) = apply_maneuver(at.pos, at.facing, m);
            at = Waypoint {
                pos,
                facing,
                free_turns_used: at.free_turns_used + free - free_after,
            };
            route.moves[i] = Some(m);
            route.before[i + 1] = at;
        }
        for i in (0..moves.len()).rev() {
            route.cost_from[i] = route.cost_from[i + 1] + costs[i];
        }
        route
    }

    /// Whether the route can still be followed from where the ship of `v` is, within
    /// `budget`; a failed maneuver left the ship where it was, and is the next move again.
    pub(crate) fn still_fits(&mut self, v: &View, budget: u32, flee: bool, mult: u32) -> bool {
        let here = Waypoint::of(v);
        let next = self.next as usize;
        if next > 0
            && next <= self.len as usize
            && self.before[next] != here
            && self.before[next - 1] == here
        {
            self.next -= 1;
        }
        let next = self.next as usize;
        self.turn == v.turn
            && self.flee == flee
            && self.mult == mult
            && next <= self.len as usize
            && self.before[next] == here
            && self.cost_from[next] <= budget
    }

    /// The next move (None: the route is done).
    pub(crate) fn step(&self) -> Option<Maneuver> {
        if self.next < self.len {
            self.moves[self.next as usize]
        } else {
            None
        }
    }

    /// Where the route ends.
    pub(crate) fn end(&self) -> Waypoint {
        self.before[self.len as usize]
    }
}

/// A movement plan being followed, and the per-distance shot values it was scored with, kept
/// while what they depend on holds.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct PlanCache {
    route: Route,
    shots: ShotValues,
}

/// Where a ship is in a plan: what a plan checks it is still on track by.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Waypoint {
    pub pos: Hex,
    pub facing: u8,
    pub free_turns_used: u32,
}

impl Waypoint {
    /// Where the ship of `v` is now.
    pub(crate) fn of(v: &View) -> Waypoint {
        Waypoint {
            pos: v.me.pos,
            facing: v.me.facing,
            free_turns_used: v.me.free_turns_used,
        }
    }
}

/// A position and a facing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Pose {
    pub pos: Hex,
    pub facing: u8,
}

/// What the plan says: the move to make now (None: stay), and where the plan ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct NextMove {
    pub step: Option<Maneuver>,
    pub end: Pose,
}

/// What the shot values depend on: my Gunnery, the chance (as bits) a torpedo is not dodged
/// over a hex, and whether torpedoes are left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ShotKey {
    gunnery: Gunnery,
    not_dodged: u64,
    torpedoes: bool,
}

/// By distance: the value of having the enemy in the phaser arc there, and on the torpedo
/// row. They depend on my Gunnery, the chance a torpedo is not dodged over a hex, whether I
/// have torpedoes left (the key) and the weights they were worked out with.
#[derive(Debug, Clone, Copy)]
struct ShotValues {
    key: Option<ShotKey>,
    weights: PlaceWeights,
    /// The weights in thousandths, worked out with the values.
    scaled: Scaled,
    /// The farthest distance a shot is worth something (the sensor range).
    range: u32,
    in_arc: [i64; DISTANCES],
    in_row: [i64; DISTANCES],
}

impl Default for ShotValues {
    fn default() -> Self {
        let weights = PlaceWeights::default();
        ShotValues {
            key: None,
            weights,
            scaled: Scaled::from(&weights),
            range: 0,
            in_arc: [0; DISTANCES],
            in_row: [0; DISTANCES],
        }
    }
}

/// A ship's Gunnery before the range penalty: the crew's skill and how many times damage
/// halves it (after the penalty, ruling R2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Gunnery {
    base: u32,
    halvings: u32,
}

impl Gunnery {
    fn at(self, ctx: &Context, d: u32) -> i32 {
        let penalty = d
            .saturating_mul(ctx.phaser_range_penalty)
            .min(i32::MAX as u32) as i32;
        super::skill::effective(self.base, self.halvings, penalty, ctx.halving_divisor)
    }
}

/// The values at distance `d` for Gunnery `gunnery` and a torpedo not dodged all the way
/// with chance `through`.
fn shot_values_at(
    ctx: &Context,
    w: &PlaceWeights,
    d: u32,
    gunnery: Gunnery,
    through: f64,
    torpedoes: bool,
) -> (i64, i64) {
    let hit = ctx.thresholds.chance(Level::Success, gunnery.at(ctx, d));
    (
        milli(w.in_arc + w.hit_chance * hit),
        if torpedoes {
            milli(w.torpedo_line * through)
        } else {
            0
        },
    )
}

/// Points to the nearest thousandth (halves away from zero).
fn milli(points: f64) -> i64 {
    if points >= 0.0 {
        (points * 1000.0 + 0.5) as i64
    } else {
        -((-points * 1000.0 + 0.5) as i64)
    }
}

/// How the default tactic weighs a place it could move to, in points. These are play style,
/// not rules: a tactic may weigh differently without any rule changing.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct PlaceWeights {
    /// Lost per hex between the enemy and the preferred range.
    pub off_range: f64,
    /// Lost for ending in the enemy's hex.
    pub enemy_hex: f64,
    /// Lost for standing in the phaser arc of an enemy it can see.
    pub in_enemy_arc: f64,
    /// Won for the enemy in the phaser arc within sensor range...
    pub in_arc: f64,
    /// ...and this much more times the chance a phaser shot from there hits.
    pub hit_chance: f64,
    /// Won for the enemy on the torpedo line (with torpedoes left), times the chance a
    /// torpedo is not dodged all the way.
    pub torpedo_line: f64,
    /// Won, with the enemy in arc, per point the enemy's face in the line of fire is below
    /// its rating.
    pub weak_enemy_face: f64,
    /// Won per shield point of my face toward the enemy (the stronger of two on a vertex).
    pub my_face: f64,
    /// Lost per energy point spent moving.
    pub energy: f64,
    /// When fleeing: won per hex from the enemy...
    pub flee_distance: f64,
    /// ...and lost per energy point spent.
    pub flee_energy: f64,
}

impl Default for PlaceWeights {
    fn default() -> Self {
        PlaceWeights {
            off_range: 2.0,
            enemy_hex: 20.0,
            in_enemy_arc: 2.0,
            in_arc: 10.0,
            hit_chance: 20.0,
            torpedo_line: 8.0,
            weak_enemy_face: 1.0,
            my_face: 0.6,
            energy: 1.5,
            flee_distance: 10.0,
            flee_energy: 1.0,
        }
    }
}

/// The fighting weights a scan uses, in thousandths of a point.
#[derive(Debug, Clone, Copy)]
struct Scaled {
    off_range: i64,
    enemy_hex: i64,
    in_enemy_arc: i64,
    weak_enemy_face: i64,
    my_face: i64,
    energy: i64,
}

impl From<&PlaceWeights> for Scaled {
    fn from(w: &PlaceWeights) -> Scaled {
        Scaled {
            off_range: milli(w.off_range),
            enemy_hex: milli(w.enemy_hex),
            in_enemy_arc: milli(w.in_enemy_arc),
            weak_enemy_face: milli(w.weak_enemy_face),
            my_face: milli(w.my_face),
            energy: milli(w.energy),
        }
    }
}

impl ShotValues {
    fn refresh(&mut self, v: &View, weights: &PlaceWeights) {
        let gunnery = Gunnery {
            base: v.my_class.crew[Skill::Gunnery as usize],
            halvings: v.me.halvings(v.my_class, v.ctx, Skill::Gunnery),
        };
        let not_dodged = if v.enemy_can_dodge() {
            1.0 - v
                .ctx
                .thresholds
                .chance(Level::Special, v.enemy_skill(Skill::Piloting, 0))
        } else {
            1.0
        };
        let torpedoes = v.me.torpedoes > 0;
        let key = ShotKey {
            gunnery,
            not_dodged: f64::to_bits(not_dodged),
            torpedoes,
        };
        if self.key == Some(key) && self.weights == *weights {
            return;
        }
        (self.key, self.weights, self.scaled) = (Some(key), *weights, Scaled::from(weights));
        self.range = v.ctx.sensor_range;
        // The chance a torpedo is not dodged over each hex it travels.
        let mut through = 1.0;
        for d in 1..=self.range.min(DISTANCES as u32 - 1) {
            through *= not_dodged;
            (self.in_arc[d as usize], self.in_row[d as usize]) =
                shot_values_at(v.ctx, weights, d, gunnery, through, torpedoes);
        }
    }

    /// The values at distance `d` (within range).
    fn at(&self, d: u32, ctx: &Context) -> (i64, i64) {
        if (d as usize) < DISTANCES {
            self.near(d)
        } else {
            self.far(d, ctx)
        }
    }

    /// The values at a distance below `DISTANCES`.
    #[inline(always)]
    fn near(&self, d: u32) -> (i64, i64) {
        let k = d as usize % DISTANCES;
        (self.in_arc[k], self.in_row[k])
    }

    /// Beyond the table (only under a sensor range of `DISTANCES` or more).
    #[cold]
    #[inline(never)]
    fn far(&self, d: u32, ctx: &Context) -> (i64, i64) {
        let Some(ShotKey {
            gunnery,
            not_dodged,
            torpedoes,
        }) = self.key
        else {
            return (0, 0);
        };
        let through = f64::from_bits(not_dodged).powi(d.min(i32::MAX as u32) as i32);
        shot_values_at(ctx, &self.weights, d, gunnery, through, torpedoes)
    }
}

/// Scores places in thousandths of a point (whole numbers, so the scan is cheap and ties are
/// exact). The enemy stays put during our move. Everything is in the ship's frame at the
/// start of the plan (bow along direction 0), as the reach table is.
struct Scorer<'a> {
    enemy: Hex,
    enemy_facing: u8,
    /// For standing in the enemy's phaser arc (0 when it cannot be seen).
    seen_penalty: i64,
    preferred: u32,
    /// Per hex off the preferred range, and for the enemy's hex.
    off_range: i64,
    enemy_hex: i64,
    /// By my face toward the enemy: how far the enemy face a shot along that line meets is
    /// below its rating. (Arrays are a power of two long, so masked indices need no checks.)
    weakness: [i64; 8],
    /// By face f + 6 − turn: the value of showing my shield of face f after turning `turn`.
    shown: [i64; 16],
    shots: &'a ShotValues,
    ctx: &'a Context,
}

impl Scorer<'_> {
    fn new<'a>(v: &View<'a>, preferred: u32, shots: &'a ShotValues) -> Scorer<'a> {
        let w = &shots.scaled;
        let facing = v.me.facing % 6;
        let mut weakness = [0; 8];
        let mut shown = [0; 16];
        let (per_weak_point, per_shield_point) = (w.weak_enemy_face, w.my_face);
        let bow = Facing::new(facing);
        for f in 0..6 {
            // Frame face f: the enemy face across from it, and my own face (absolute).
            let frame = Facing::new(f as u8);
            let enemy_face = frame.opposite().absolute_from(bow).index();
            let my_face = frame.absolute_from(bow).index() as usize;
            weakness[f] = per_weak_point
                * v.enemy_class
                    .shields
                    .saturating_sub(v.enemy.shield_value(enemy_face)) as i64;
            shown[f] = per_shield_point * v.me.shields[my_face] as i64;
            shown[f + 6] = shown[f];
        }
        Scorer {
            enemy: v.enemy.pos.minus(v.me.pos).in_frame(facing),
            enemy_facing: Facing::new(v.enemy.facing).relative_to(bow).index(),
            seen_penalty: if v.enemy_visible() { w.in_enemy_arc } else { 0 },
            preferred,
            off_range: w.off_range,
            enemy_hex: w.enemy_hex,
            weakness,
            shown,
            shots,
            ctx: v.ctx,
        }
    }

    /// What standing on the hex at `offset` is worth whatever the facing, and the relation
    /// the facings are scored with.
    #[inline(always)]
    fn hex(&self, offset: Hex) -> (Relation, i64) {
        // Distance, faces and arcs of the offset at once (a table lookup for near offsets).
        let rel = hex::relation(self.enemy.minus(offset));
        let d = rel.distance;
        // Near the preferred range; never in the enemy's hex; not in the enemy's arc.
        let mut s = -self.off_range * d.abs_diff(self.preferred) as i64;
        if d == 0 {
            s -= self.enemy_hex;
        }
        if rel.seen_by(self.enemy_facing) {
            s -= self.seen_penalty;
        }
        (rel, s)
    }

    /// What facing the enemy as `turn` faces from the start adds on a hex (`rel` from `hex`).
    /// `FAR`: the enemy may be beyond the tabulated distances (else the table is indexed
    /// without a check, which keeps the usual scan lean).
    #[inline(always)]
    fn facing<const FAR: bool>(&self, rel: Relation, turn: u8) -> i64 {
        let d = rel.distance;
        // The line between the centres crosses my face f and the enemy's face f + 3 (two
        // faces on a vertex, where the stronger counts).
        let (mine, other) = rel.face_pair();
        let mut s = 0;
        if d.wrapping_sub(1) < self.shots.range && rel.in_arc(turn) {
            // Better still if the shot lands on a weakened face.
            let (in_arc, in_row) = if FAR {
                self.shots.at(d, self.ctx)
            } else {
                self.shots.near(d)
            };
            s += in_arc + self.weakness[mine as usize % 8].min(self.weakness[other as usize % 8]);
            if rel.in_row(turn) {
                s += in_row;
            }
        }
        // Show the enemy a strong face: after turning, face f carries the shield of face f − turn.
        s + self.shown[(mine + 6 - turn) as usize % 16]
            .max(self.shown[(other + 6 - turn) as usize % 16])
    }
}

/// The best place of `reachable` affordable within `budget`, if any beats staying put:
/// `hex_value` scores a hex once, `place_value` each facing on it; energy spent costs
/// `per_energy` thousandths a point.
#[inline(always)]
fn best_place<H: Copy>(
    reachable: &Reachable,
    mult: u32,
    budget: u32,
    per_energy: i64,
    hex_value: impl Fn(Hex) -> (H, i64),
    place_value: impl Fn(H, u8) -> i64,
) -> Option<&Reach> {
    let (here, value) = hex_value(Hex::default());
    let mut best = None;
    let mut best_score = value + place_value(here, 0);
    for (hex, places) in reachable.by_hex() {
        if hex.cheapest.saturating_mul(mult) > budget {
            break;
        }
        let (h, value) = hex_value(hex.offset);
        for r in places {
            let spent = r.cost.saturating_mul(mult);
            if spent > budget {
                break;
            }
            let s = value + place_value(h, r.turn) - per_energy * spent as i64;
            if s > best_score {
                best = Some(r);
                best_score = s;
            }
        }
    }
    best
}

impl PlanCache {
    /// The plan's next move (None: stay) and where the plan ends, for a turn's maneuvers
    /// within `budget`. Follows the plan while it can be followed. A failed maneuver leaves
    /// the ship where it was: retrying it keeps to the best place still affordable (a
    /// cheapest path's rest is a cheapest path), so only a plan that no longer fits the
    /// budget, or a change of mind about fleeing or of engine costs, is made afresh.
    pub(crate) fn next_move(
        &mut self,
        v: &View,
        budget: u32,
        flee: bool,
        preferred: u32,
        weights: &PlaceWeights,
    ) -> NextMove {
        // The engines' cost multiplier: what one energy of maneuver costs now.
        let mult = v.me.cost(v.my_class, v.ctx, Loc::Engines, 1);
        if !self.route.still_fits(v, budget, flee, mult) {
            self.plan(v, budget, flee, preferred, mult, weights);
        }
        let end = self.route.end();
        NextMove {
            step: self.route.step(),
            end: Pose {
                pos: end.pos,
                facing: end.facing,
            },
        }
    }

    /// The move `next_move` gave was taken (or attempted).
    pub(crate) fn advance(&mut self) {
        self.route.next += 1;
    }

    /// The best place within reach (staying put included) and the cheapest moves there.
    fn plan(
        &mut self,
        v: &View,
        budget: u32,
        flee: bool,
        preferred: u32,
        mult: u32,
        w: &PlaceWeights,
    ) {
        let free = v.free_turns_left();
        let (start_pos, start_facing) = (v.me.pos, v.me.facing);
        let reachable = v.my_class.reach(v.ctx).places(free);
        let best = if flee {
            // Away from the enemy, as cheaply as possible.
            let enemy = v.enemy.pos.minus(start_pos).in_frame(start_facing % 6);
            let per_hex = milli(w.flee_distance);
            best_place(
                reachable,
                mult,
                budget,
                milli(w.flee_energy),
                |offset| ((), per_hex * offset.distance(enemy) as i64),
                |_, _| 0,
            )
        } else {
            self.shots.refresh(v, w);
            let sc = Scorer::new(v, preferred, &self.shots);
            let per_energy = self.shots.scaled.energy;
            // Every place lies within MAX_MOVES hexes of the start.
            if v.distance().saturating_add(MAX_MOVES as u32) < DISTANCES as u32 {
                best_place(
                    reachable,
                    mult,
                    budget,
                    per_energy,
                    |offset| sc.hex(offset),
                    |rel, turn| sc.facing::<false>(rel, turn),
                )
            } else {
                best_place(
                    reachable,
                    mult,
                    budget,
                    per_energy,
                    |offset| sc.hex(offset),
                    |rel, turn| sc.facing::<true>(rel, turn),
                )
            }
        };
        // Remember the moves, the state expected before each and what the rest costs (the
        // shot values stay).
        self.route = Route::new(v, best.map_or(&[][..], |r| r.moves()), flee, mult);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::combat::ship::ShipState;

    /// A heavy cruiser at the origin facing `facing` and a Klingon battle cruiser `distance`
    /// hexes along direction 0, facing back, shields up, under a sensor range of 100.
    fn far_apart(distance: i32, facing: u8, check: impl FnOnce(&View)) {
        let rules = crate::rules::load::load("startrek").unwrap();
        let mut ctx = Context::new(&rules).unwrap();
        ctx.sensor_range = 100;
        let a = ctx.class(&rules, "UFP heavy cruiser").unwrap();
        let b = ctx.class(&rules, "Klingon battle cruiser").unwrap();
        let mut me = ShipState::new(&a, &ctx, Hex::new(0, 0), facing);
        me.energy = 11;
        let mut enemy = ShipState::new(&b, &ctx, Hex::new(distance, 0), 3);
        (me.shields_raised, enemy.shields_raised) = (true, true);
        check(&View::knowing(&ctx, 1, (&me, &a), (&enemy, &b)));
    }

    #[test]
    fn shot_values_beyond_the_table_follow_the_same_formula() {
        far_apart(70, 0, |v| {
            let mut shots = ShotValues::default();
            shots.refresh(v, &PlaceWeights::default());
            assert_eq!(shots.range, 100);
            let not_dodged = 1.0
                - v.ctx
                    .thresholds
                    .chance(Level::Special, v.enemy_skill(Skill::Piloting, 0));
            let mut through = 1.0;
            for d in 1..=70 {
                through *= not_dodged;
                let (arc, row) = shots.at(d, v.ctx);
                // The chance to hit is gone beyond 12 hexes (Gunnery 60, −5 a hex); being in
                // arc is still worth 10 points; a torpedo's worth falls hex by hex.
                if d > 12 {
                    assert_eq!(arc, 10_000, "distance {d}");
                }
                assert!(
                    (row - milli(8.0 * through)).abs() <= 1,
                    "distance {d}: {row}"
                );
            }
        });
    }

    #[test]
    fn a_far_enemy_within_a_long_sensor_range_is_still_worth_turning_toward() {
        // Facing away from an enemy 70 hexes off: three turns put it in the phaser arc.
        far_apart(70, 3, |v| {
            let mut plan = PlanCache::default();
            let NextMove { step: first, end } =
                plan.next_move(v, 3, false, 3, &PlaceWeights::default());
            assert!(
                matches!(first, Some(Maneuver::TurnLeft | Maneuver::TurnRight)),
                "{first:?}"
            );
            assert_eq!(
                end,
                Pose {
                    pos: Hex::new(0, 0),
                    facing: 0
                }
            );
        });
    }

    #[test]
    fn the_weights_decide_whether_a_turn_is_worth_its_energy() {
        // Three turns cost 3 energy: worth it at 1.5 points an energy (4.5 for 10 points of
        // arc), not at 4 (12 points).
        far_apart(70, 3, |v| {
            let dear = PlaceWeights {
                energy: 4.0,
                ..PlaceWeights::default()
            };
            let plan = PlanCache::default().next_move(v, 3, false, 3, &dear);
            let stay = Pose {
                pos: Hex::new(0, 0),
                facing: 3,
            };
            assert_eq!((plan.step, plan.end), (None, stay));
            let keen = PlaceWeights {
                in_arc: 13.0,
                ..dear
            };
            assert_eq!(
                PlanCache::default().next_move(v, 3, false, 3, &keen).end,
                Pose {
                    pos: Hex::new(0, 0),
                    facing: 0
                }
            );
        });
    }
}
