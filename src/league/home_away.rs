//! Home and away for a fixed timetable: who meets whom in which round stays as the method
//! made it; only which side is at home is chosen, so that every team's home and away counts
//! differ by at most one and there are few breaks (two home or two away games in a row).
//!
//! For the source's rotation (a circle method) there is a closed form: in its round r the
//! pair (r + k, r − k) has r + k at home when k is odd and r − k when k is even, and the
//! resting team r (which meets team n when n is even) is at home when r is even. With the
//! rounds in the source's order that gives n − 2 breaks for even n, the fewest any single
//! round robin can have (de Werra, 1981), and none for odd n; every team alternates but for
//! at most one break, so its counts are within one. Mirrored legs then add one break per
//! team whose leg starts and ends at different venues: 3n − 6 for two legs, again de
//! Werra's least for a mirrored double round robin. Other timetables (shuffled rounds,
//! Berger's, the balanced method's) get the better of their own venues and the seeded
//! break-cutting flips of breaks.rs, each evened out by reversing paths of games.
use super::breaks::orient;
use super::plan::{Plan, RoundPlan};
use crate::error::{Error, Result};
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Serialize};

/// The home/away choices, by the name the command line and scripts use.
pub(crate) const HOME_AWAY: &[&str] = &["source", "balanced"];

/// Flips of the break-cutting search per game (as the balanced method's).
const ORIENT_PASSES: usize = 300;

/// Most teams the flip search is tried for: beyond, its tables grow with the square of the
/// league for a gain of a few breaks; the closed form and the method's own venues remain.
const MAX_SEARCHED_TEAMS: usize = 200;

/// Who is at home in each game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "lowercase")]
pub enum HomeAway {
    /// As the method gives it: for the rotation, the source's tables exactly.
    #[default]
    Source,
    /// Re-chosen: home and away counts within one for every team, breaks as few as found.
    Balanced,
}

impl HomeAway {
    pub(crate) fn parse(name: &str) -> Result<HomeAway> {
        match HOME_AWAY.iter().position(|m| crate::names::same(m, name)) {
            Some(0) => Ok(HomeAway::Source),
            Some(1) => Ok(HomeAway::Balanced),
            _ => Err(Error::unknown("home/away choice", name, HOME_AWAY)),
        }
    }

    pub(crate) fn name(self) -> &'static str {
        HOME_AWAY[self as usize]
    }
}

/// Re-choose home and away in one leg (`plan`, which further legs repeat) so that every
/// team's counts over the whole schedule differ by at most one, keeping the candidate with
/// the fewest breaks as `breaks_of` counts them over all legs. Pairings and round order
/// are left as they are.
pub(crate) fn balance(
    plan: &mut Plan,
    n: usize,
    legs: u32,
    rng: &mut Pcg64Mcg,
    breaks_of: impl Fn(&Plan) -> u32,
) {
    let mut candidates: Vec<Plan> = Vec::new();
    let mut circle = plan.clone();
    if let Some(in_order) = rotation_venues(&mut circle, n) {
        if in_order {
            // The closed form is the fewest possible here (see the top of this file).
            *plan = circle;
            return;
        }
        candidates.push(circle);
    } else {
        // The method's own venues, evened out (for the rotation, the closed form above is
        // that already, at a fraction of the cost on a big league).
        let mut own = plan.clone();
        even_out(&mut own, n);
        candidates.push(own);
    }
    if n <= MAX_SEARCHED_TEAMS {
        let mut searched = plan.clone();
        orient(&mut searched, n, legs, rng, ORIENT_PASSES);
        even_out(&mut searched, n);
        candidates.push(searched);
    }
    if let Some(best) = candidates.into_iter().min_by_key(|c| breaks_of(c)) {
        *plan = best;
    }
}

/// The rotation's own round number (1-based) of one of its rounds, found from who rests
/// (odd n) or who meets team n (even n); `None` when the round is not one of its rounds.
fn rotation_round(round: &RoundPlan, n: usize) -> Option<usize> {
    let r = match round.bye {
        Some(b) if !n.is_multiple_of(2) => b + 1,
        None if n.is_multiple_of(2) => {
            let &(h, a) = round
                .games
                .iter()
                .find(|&&(h, a)| h == n - 1 || a == n - 1)?;
            if h == n - 1 {
                a + 1
            } else {
                h + 1
            }
        }
        _ => return None,
    };
    Some(r)
}

/// Orient every round of the rotation's pairings by the closed form. Returns `None` (and
/// leaves `plan` as it was) when some round is not one of the rotation's; otherwise whether
/// the rounds are in the source's order.
fn rotation_venues(plan: &mut Plan, n: usize) -> Option<bool> {
    let m = if n.is_multiple_of(2) { n - 1 } else { n };
    // 1-based team number x reduced into 1..m, as a 0-based index.
    let index = |x: isize| -> usize { (x - 1).rem_euclid(m as isize) as usize };
    let mut oriented = Vec::with_capacity(plan.len());
    for round in plan.iter() {
        let r = rotation_round(round, n)? as isize;
        let mut games = Vec::with_capacity(round.games.len());
        for &(h, a) in &round.games {
            let game = if n.is_multiple_of(2) && (h == n - 1 || a == n - 1) {
                let resting = index(r);
                if r % 2 == 0 {
                    (resting, n - 1)
                } else {
                    (n - 1, resting)
                }
            } else {
                // Which of the two is r + k (k = 1 ..= (m − 1)/2).
                let k = (h as isize + 1 - r).rem_euclid(m as isize);
                let (plus, minus, k) = if (1..=(m as isize - 1) / 2).contains(&k) {
                    (h, a, k)
                } else {
                    (a, h, (a as isize + 1 - r).rem_euclid(m as isize))
                };
                if plus != index(r + k) || minus != index(r - k) {
                    return None;
                }
                if k % 2 == 1 {
                    (plus, minus)
                } else {
                    (minus, plus)
                }
            };
            games.push(game);
        }
        oriented.push(RoundPlan {
            games,
            bye: round.bye,
        });
    }
    let in_order = plan
        .iter()
        .enumerate()
        .all(|(i, round)| rotation_round(round, n) == Some(i + 1));
    *plan = oriented;
    Some(in_order)
}

/// Swap home and away along paths of games until no team's home and away counts in `plan`
/// differ by more than one. A team with two or more home games too many has, among the
/// teams it reaches by playing at home, one with an away game too many (the home games out
/// of that set cannot outnumber the away games into it); swapping the path moves one
/// surplus game from the first to the last and leaves the teams between as they were.
pub(crate) fn even_out(plan: &mut Plan, n: usize) {
    // Every game by (round, slot); surplus[t] = home − away.
    let slots: Vec<(usize, usize)> = plan
        .iter()
        .enumerate()
        .flat_map(|(r, round)| (0..round.games.len()).map(move |g| (r, g)))
        .collect();
    let mut surplus = vec![0i64; n];
    for &(r, g) in &slots {
        let (h, a) = plan[r].games[g];
        surplus[h] += 1;
        surplus[a] -= 1;
    }
    while let Some(u) = (0..n).find(|&t| surplus[t].abs() >= 2) {
        // Follow games in which the team is at home (surplus of home games) or away.
        let forward = surplus[u] > 0;
        let mut from: Vec<Option<usize>> = vec![None; n];
        let mut seen = vec![false; n];
        let mut edges: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (i, &(r, g)) in slots.iter().enumerate() {
            let (h, a) = plan[r].games[g];
            edges[if forward { h } else { a }].push(i);
        }
        let mut queue = std::collections::VecDeque::from([u]);
        seen[u] = true;
        let mut end = None;
        while let Some(t) = queue.pop_front() {
            if t != u
                && (if forward {
                    surplus[t] <= -1
                } else {
                    surplus[t] >= 1
                })
            {
                end = Some(t);
                break;
            }
            for &i in &edges[t] {
                let (r, g) = slots[i];
                let (h, a) = plan[r].games[g];
                let next = if forward { a } else { h };
                if !seen[next] {
                    seen[next] = true;
                    from[next] = Some(i);
                    queue.push_back(next);
                }
            }
        }
        let Some(mut t) = end else {
            // Cannot happen for a round robin (see above); stop rather than loop.
            return;
        };
        let change = if forward { 2 } else { -2 };
        surplus[u] -= change;
        surplus[t] += change;
        while let Some(i) = from[t] {
            let (r, g) = slots[i];
            let (h, a) = plan[r].games[g];
            plan[r].games[g] = (a, h);
            t = if forward { h } else { a };
            if t == u {
                break;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::league::breaks::venues;
    use crate::league::plan::mirrored;
    use crate::league::rotation::rotation;
    use rand::seq::SliceRandom;
    use rand::SeedableRng;

    fn legs_of(plan: &Plan, legs: u32) -> Vec<RoundPlan> {
        (0..legs)
            .flat_map(|l| {
                plan.iter()
                    .map(move |r| if l % 2 == 0 { r.clone() } else { mirrored(r) })
            })
            .collect()
    }

    fn report(plan: &Plan, n: usize, legs: u32) -> (u32, u32) {
        let all = legs_of(plan, legs);
        let order: Vec<&RoundPlan> = all.iter().collect();
        let v = venues(&order, n);
        (
            v.iter().map(|t| t.breaks).sum(),
            v.iter().map(|t| t.home.abs_diff(t.away)).max().unwrap_or(0),
        )
    }

    fn unordered(plan: &Plan) -> Vec<Vec<(usize, usize)>> {
        plan.iter()
            .map(|r| r.games.iter().map(|&(h, a)| (h.min(a), h.max(a))).collect())
            .collect()
    }

    #[test]
    fn the_rotation_gets_the_fewest_breaks_with_its_pairings_kept() {
        for n in 2..=40 {
            for legs in [1, 2, 3] {
                let source = rotation(n);
                let mut plan = source.clone();
                balance(&mut plan, n, legs, &mut Pcg64Mcg::seed_from_u64(0), |p| {
                    report(p, n, legs).0
                });
                assert_eq!(unordered(&plan), unordered(&source), "{n} teams");
                let byes: Vec<_> = plan.iter().map(|r| r.bye).collect();
                assert_eq!(byes, source.iter().map(|r| r.bye).collect::<Vec<_>>());
                let (breaks, spread) = report(&plan, n, legs);
                assert!(spread <= 1, "{n} teams, {legs} legs: spread {spread}");
                // Single leg: n − 2 (even), 0 (odd). Each further mirrored leg adds the
                // leg's breaks again and one at the turn for every team that starts and
                // ends a leg at different venues: the n − 2 with a break (even n), all n
                // (odd n, an even number of games alternating).
                let (leg, turn) = if n % 2 == 0 { (n - 2, n - 2) } else { (0, n) };
                let expected = legs as usize * leg + (legs as usize - 1) * turn;
                assert_eq!(breaks as usize, expected, "{n} teams, {legs} legs");
            }
        }
    }

    #[test]
    fn any_timetable_is_evened_out() {
        let mut rng = Pcg64Mcg::seed_from_u64(5);
        for n in 2..=20 {
            for legs in [1, 2] {
                let mut plan = rotation(n);
                plan.shuffle(&mut rng);
                // Everyone's first listed team at home in every game: far from even.
                for r in plan.iter_mut() {
                    for g in r.games.iter_mut() {
                        *g = (g.0.min(g.1), g.0.max(g.1));
                    }
                }
                let before = unordered(&plan);
                balance(&mut plan, n, legs, &mut rng, |p| report(p, n, legs).0);
                assert_eq!(unordered(&plan), before);
                assert!(report(&plan, n, legs).1 <= 1, "{n} teams, {legs} legs");
            }
        }
    }

    #[test]
    fn even_out_fixes_a_lopsided_leg() {
        // Team 0 at home in all its games: 5 home, 0 away.
        let mut plan = rotation(6);
        for r in plan.iter_mut() {
            for g in r.games.iter_mut() {
                *g = (g.0.min(g.1), g.0.max(g.1));
            }
        }
        assert_eq!(report(&plan, 6, 1).1, 5);
        even_out(&mut plan, 6);
        assert_eq!(report(&plan, 6, 1).1, 1);
    }

    #[test]
    fn names_parse() {
        assert_eq!(HomeAway::parse("Balanced").unwrap(), HomeAway::Balanced);
        assert_eq!(HomeAway::Source.name(), "source");
        assert!(HomeAway::parse("fair").is_err());
    }
}
