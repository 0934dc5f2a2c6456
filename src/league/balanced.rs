//! Schedules with a low carry-over effect.
//!
//! For n a power of two, Russell's construction (1980) is perfect: teams are the elements of
//! GF(2^k), round i pairs every t with t + x^i (x primitive), and a team that met a in round
//! i meets a + x^i(1 + x) next, so every ordered pair of teams carries over exactly once:
//! value n(n − 1), the lower bound. For other n, a seeded local search (search.rs).
//! Home and away are then chosen for few breaks; that never changes the carry-over.
use super::breaks::{best_start, orient};
use super::galois::powers;
use super::plan::{Plan, RoundPlan};
use super::search::{search, SearchBudget, SearchReport};
use rand_pcg::Pcg64Mcg;

/// Passes of the break-cutting flips (each pass touches every game once).
const ORIENT_PASSES: usize = 300;

/// Most teams a balanced schedule is made for: its search and its home/away flips each work
/// through tables the square of the league (1000 teams take about 3 s on two cores, 4096 took
/// 20 s and 900 MB); a real league is a few dozen teams, and rotation or berger have no limit
/// below the schedule's own.
pub(crate) const MAX_BALANCED_TEAMS: usize = 1000;

/// A balanced single round robin for n teams. Uses `rng` only when n is not a power of two
/// (the search) and for ties in the home/away choice.
pub(crate) fn balanced(
    n: usize,
    legs: u32,
    rng: &mut Pcg64Mcg,
    budget: &SearchBudget,
) -> (Plan, Option<SearchReport>) {
    let (mut plan, report) = match russell(n) {
        Some(p) => (p, None),
        None => {
            let (p, r) = search(n, rng, budget);
            (p, Some(r))
        }
    };
    orient(&mut plan, n, legs, rng, ORIENT_PASSES);
    if legs == 1 {
        // Any round may come first: the carry-over is counted cyclically.
        let start = best_start(&plan, n);
        plan.rotate_left(start);
    }
    (plan, report)
}

/// Whether the construction applies (n a power of two).
pub(crate) fn is_power_of_two(n: usize) -> bool {
    n >= 2 && n.is_power_of_two()
}

/// Russell's perfectly balanced schedule, when n is a power of two.
pub(crate) fn russell(n: usize) -> Option<Plan> {
    if !is_power_of_two(n) {
        return None;
    }
    let k = n.trailing_zeros();
    let elements = powers(k)?;
    Some(
        elements
            .iter()
            .map(|&e| {
                let e = e as usize;
                let games = (0..n).filter(|&t| t < t ^ e).map(|t| (t, t ^ e)).collect();
                RoundPlan { games, bye: None }
            })
            .collect(),
    )
}
