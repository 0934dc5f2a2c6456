//! Movement: the plan being followed, and the scan of the places the ship can reach that
//! makes it.
use super::chances::Chances;
use super::odds::OddsByRolls;
use super::scene::Scene;
use super::DefaultTactic;
use crate::combat::classic_planner::{Route, Waypoint};
use crate::combat::context::Loc;
use crate::combat::events::Maneuver;
use crate::combat::hex::{self, Hex};
use crate::combat::reach::{Reach, Reachable, MAX_MOVES};
use crate::combat::view::View;

/// The movement plan being followed this turn (kept in the side's `Memory`).
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Plan {
    pub(super) route: Route,
    /// Whether the plan was made with a shot still to come.
    shot_left: bool,
    /// The best phaser and torpedo chances at the waypoints from each one on (0 past the
    /// end), worked out once a plan: within a move phase they change only with the plan.
    phaser_ahead: [f64; MAX_MOVES + 2],
    torpedo_ahead: [f64; MAX_MOVES + 2],
}

impl Plan {
    /// The plan of the moves to `place` (None: stay), for a shot still to come or not.
    fn follow(
        &mut self,
        v: &View,
        chances: &Chances,
        place: Option<&Reach>,
        (flee, shot_left): (bool, bool),
        mult: u32,
    ) {
        let moves = place.map_or(&[][..], |r| r.moves());
        *self = Plan {
            route: Route::new(v, moves, flee, mult),
            shot_left,
            ..Plan::default()
        };
        for i in (0..=moves.len()).rev() {
            let Waypoint { pos, facing, .. } = self.route.before[i];
            let to_enemy = hex::relation(v.enemy_pos().minus(pos));
            let phaser = chances.phaser_across(v, to_enemy, facing);
            let torpedo = chances.torpedo_across(v, to_enemy, facing);
            self.phaser_ahead[i] = phaser.max(self.phaser_ahead[i + 1]);
            self.torpedo_ahead[i] = torpedo.max(self.torpedo_ahead[i + 1]);
        }
    }

    /// The best phaser and torpedo chances at the places the rest of the plan passes
    /// through (after the next move).
    pub(super) fn ahead(&self) -> (f64, f64) {
        let i = (self.route.next as usize + 1).min(MAX_MOVES + 1);
        (self.phaser_ahead[i], self.torpedo_ahead[i])
    }
}

/// The default tactic's memory for a battle: its plan, its table of chances and the
/// Piloting odds its scans weigh places by.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Mind {
    pub(super) plan: Plan,
    pub(super) chances: Chances,
    my_odds: OddsByRolls<{ MAX_MOVES + 1 }>,
    enemy_odds: OddsByRolls<4>,
}

/// Energy the move may take: planning within maximum speed, finishing a planned move whose
/// maneuvers failed up to a few points beyond it (`overspeed.most_points`).
#[derive(Debug, Clone, Copy)]
pub(super) struct Budget {
    pub(super) plan: u32,
    pub(super) finish: u32,
}

/// What the plan says to do next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Step {
    Move(Maneuver),
    Fire,
    Stay,
}

/// The best place a scan found and its score (no place: staying put).
#[derive(Debug, Clone, Copy)]
struct Candidate<'r> {
    place: Option<&'r Reach>,
    score: f64,
}

impl DefaultTactic {
    /// The plan's next step, making the plan when there is none to follow. `fire_now`: the
    /// chance of a shot from here, if one can be fired: the plan may be to fire it first
    /// and then move where the enemy's answer is weakest.
    pub(super) fn next_step(
        &self,
        v: &View,
        mind: &mut Mind,
        Budget {
            plan: budget,
            finish,
        }: Budget,
        flee: bool,
        shot_left: bool,
        fire_now: Option<f64>,
    ) -> Step {
        let mult = v.me.cost(v.my_class, v.ctx, Loc::Engines, 1);
        let Mind {
            plan,
            chances,
            my_odds,
            enemy_odds,
        } = mind;
        let on_track = plan.route.still_fits(v, finish, flee, mult) && plan.shot_left == shot_left;
        let fire_first = fire_now.filter(|_| !flee && shot_left);
        if !on_track && fire_first.is_none() && !self.can_afford_a_place(v, budget, mult) {
            // Staying is the only plan: no need to weigh the scene.
            plan.follow(v, chances, None, (flee, shot_left), mult);
        } else if !on_track {
            let odds = (&*chances, my_odds, enemy_odds);
            let scene = Scene::new(v, &self.knobs, odds, (budget / mult.max(1), shot_left));
            let [without_shot, with_shot] = Self::scan(v, &scene, budget, flee, mult);
            match fire_first {
                Some(chance) => {
                    // Fire from here and then move for the next turn, or move and then fire?
                    let here = hex::relation(scene.enemy);
                    let shot = scene.mine * scene.shot(here, 0);
                    if chance > 0.0 && without_shot.score + shot >= with_shot.score {
                        plan.follow(v, chances, without_shot.place, (flee, false), mult);
                        return Step::Fire;
                    }
                    plan.follow(v, chances, with_shot.place, (flee, shot_left), mult);
                }
                None => {
                    let best = if shot_left { with_shot } else { without_shot };
                    plan.follow(v, chances, best.place, (flee, shot_left), mult);
                }
            }
        }
        match plan.route.step() {
            Some(m) => Step::Move(m),
            None => Step::Stay,
        }
    }

    /// Whether any place the ship can reach costs at most `budget`.
    fn can_afford_a_place(&self, v: &View, budget: u32, mult: u32) -> bool {
        let free = v.free_turns_left();
        let reachable = v.my_class.reach(v.ctx).places(free);
        // Hexes come cheapest first.
        reachable
            .by_hex()
            .next()
            .is_some_and(|(h, _)| h.cheapest.saturating_mul(mult) <= budget)
    }

    /// The best places within `budget` (staying put included), scored without and with a
    /// shot fired from the place this turn, in one pass over the reach table.
    fn scan<'r>(
        v: &'r View,
        scene: &Scene,
        budget: u32,
        flee: bool,
        mult: u32,
    ) -> [Candidate<'r>; 2] {
        let reachable = v.my_class.reach(v.ctx).places(v.free_turns_left());
        let start = scene.hex(Hex::default(), flee);
        let staying = scene.facing(Hex::default(), &start, 0, flee);
        let here = [
            start.value + staying.without_shot,
            start.value + staying.with_shot,
        ];
        // Without a shot to come (or fleeing, or blind) both ways score every place alike.
        if flee || !scene.visible || !scene.shot_to_come {
            let [best] = Self::best_places(scene, reachable, [here[0]], (budget, mult), flee);
            return [best; 2];
        }
        Self::best_places(scene, reachable, here, (budget, mult), flee)
    }

    /// The best places for each way of scoring them (without a shot from the place this
    /// turn, then with), against the score of staying put, `here`.
    fn best_places<'r, const N: usize>(
        scene: &Scene,
        reachable: &'r Reachable,
        here: [f64; N],
        (budget, mult): (u32, u32),
        flee: bool,
    ) -> [Candidate<'r>; N] {
        let free = scene.v.free_turns_left();
        let per_energy = if flee {
            scene.k.weights.flee_energy
        } else {
            scene.k.weights.energy
        };
        let mut best = here.map(|score| Candidate { place: None, score });
        let rolls_free = free.min(u8::MAX as u32) as u8;
        for (h, places) in reachable.by_hex() {
            if h.cheapest.saturating_mul(mult) > budget {
                break;
            }
            let on_hex = scene.hex(h.offset, flee);
            for r in places {
                let spent = r.cost.saturating_mul(mult);
                if spent > budget {
                    break;
                }
                // Maneuvers that need a Piloting roll may fail: the place is reached only
                // when enough of them succeed; otherwise the ship stays about where it is.
                let rolls = r.len.saturating_sub(rolls_free) as usize;
                let odds = scene.my_odds.get(rolls).copied().unwrap_or(0.0);
                let value = scene.facing(h.offset, &on_hex, r.turn, flee);
                let energy = per_energy * spent as f64;
                for i in 0..N {
                    let value = on_hex.value + value.get(i == 1);
                    let s = here[i] + odds * (value - here[i]) - energy;
                    if s > best[i].score {
                        best[i] = Candidate {
                            place: Some(r),
                            score: s,
                        };
                    }
                }
            }
        }
        best
    }
}
