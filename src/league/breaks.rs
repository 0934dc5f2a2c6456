//! Home/away balance: breaks (two home or two away games in a row, rests skipped) and
//! choosing home and away in a fixed timetable so that there are few of them.
//!
//! Who plays whom in which round fixes the carry-over; home and away does not touch it, so
//! the orientation can be chosen freely afterwards ("fewer breaks at no carry-over cost").
use super::plan::{Plan, RoundPlan};
use rand::Rng;
use rand_pcg::Pcg64Mcg;

/// Home games, away games and breaks of one team over a whole schedule.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Venues {
    pub home: u32,
    pub away: u32,
    pub breaks: u32,
}

/// Each team's home and away games and breaks over `rounds`, in the order played.
pub fn venues(rounds: &[&RoundPlan], n: usize) -> Vec<Venues> {
    let mut out = vec![Venues::default(); n];
    // Last venue each team played at: 0 none yet, 1 home, 2 away.
    let mut last = vec![0u8; n];
    for round in rounds {
        for &(h, a) in &round.games {
            for (t, v) in [(h, 1u8), (a, 2u8)] {
                if last[t] == v {
                    out[t].breaks += 1;
                }
                last[t] = v;
                if v == 1 {
                    out[t].home += 1;
                } else {
                    out[t].away += 1;
                }
            }
        }
    }
    out
}

/// Annealing temperatures (in breaks) for the home/away choice.
const HOT: f64 = 1.5;
const COLD: f64 = 0.05;
/// Most flips tried, whatever the league's size (bounds the time on big leagues).
const MAX_FLIPS: usize = 20_000_000;

/// Re-choose home and away for every game of a leg to cut breaks: within the leg, plus
/// the turns into each further (mirrored) leg. Greedy round by round, then seeded
/// annealing over single-game flips, about `passes` flips per game.
pub fn orient(plan: &mut Plan, n: usize, legs: u32, rng: &mut Pcg64Mcg, passes: usize) {
    let rounds = plan.len();
    if rounds < 2 {
        return;
    }
    // played[t]: the rounds team t plays, in order; home[r][t]: its venue in round r.
    let mut played: Vec<Vec<usize>> = vec![Vec::new(); n];
    let mut slot = vec![vec![usize::MAX; n]; rounds];
    for (r, round) in plan.iter().enumerate() {
        for &(h, a) in &round.games {
            for t in [h, a] {
                slot[r][t] = played[t].len();
                played[t].push(r);
            }
        }
    }
    let mut home = vec![vec![false; n]; rounds];
    // Greedy: whoever was away last time is at home now.
    let mut last: Vec<Option<bool>> = vec![None; n];
    for (r, round) in plan.iter().enumerate() {
        for &(h, a) in &round.games {
            let h_home = match (last[h], last[a]) {
                (Some(true), _) => false,
                (Some(false), _) => true,
                (None, Some(a_home)) => a_home,
                (None, None) => true,
            };
            home[r][h] = h_home;
            home[r][a] = !h_home;
            last[h] = Some(h_home);
            last[a] = Some(!h_home);
        }
    }
    let turn_weight = legs.saturating_sub(1) as i64;
    // Breaks of team t that involve its game in round r.
    let local = |home: &Vec<Vec<bool>>, t: usize, r: usize| -> i64 {
        let seq = &played[t];
        let i = slot[r][t];
        let v = home[r][t];
        let mut b = 0;
        if i > 0 && home[seq[i - 1]][t] == v {
            b += 1;
        }
        if i + 1 < seq.len() && home[seq[i + 1]][t] == v {
            b += 1;
        }
        // The turn from the last game back to the first. With one leg it is counted as if
        // the leg were a cycle (the cut is chosen afterwards, at the turn with most
        // breaks); with more, the next leg starts with the first game mirrored, a break
        // when the first and last venues differ.
        if seq.len() > 1 && (i == 0 || i + 1 == seq.len()) {
            let (first, last) = (home[seq[0]][t], home[seq[seq.len() - 1]][t]);
            if turn_weight == 0 && first == last {
                b += 1;
            } else if turn_weight > 0 && first != last {
                b += turn_weight;
            }
        }
        b
    };
    // Annealing over single-game flips: each flip changes only the two teams' breaks
    // around that round, so its effect is cheap to weigh; the best orientation is kept.
    let games: Vec<(usize, usize, usize)> = plan
        .iter()
        .enumerate()
        .flat_map(|(r, round)| round.games.iter().map(move |&(h, a)| (r, h, a)))
        .collect();
    let total = |home: &Vec<Vec<bool>>| -> i64 {
        (0..n)
            .map(|t| played[t].iter().map(|&r| local(home, t, r)).sum::<i64>())
            .sum()
    };
    let mut current = total(&home) / 2;
    let mut best = (current, home.clone());
    let flips = (passes * games.len()).clamp(games.len(), MAX_FLIPS).max(1);
    let mut temperature = HOT;
    let cooling = (COLD / HOT).powf(1.0 / flips as f64);
    for step in 0..flips {
        let (r, h, a) = games[rng.gen_range(0..games.len())];
        let before = local(&home, h, r) + local(&home, a, r);
        home[r][h] = !home[r][h];
        home[r][a] = !home[r][a];
        let after = local(&home, h, r) + local(&home, a, r);
        let delta = after - before;
        if delta <= 0 || rng.gen::<f64>() < (-(delta as f64) / temperature).exp() {
            current += delta;
            // Snapshots are O(teams × rounds): take them at most once per sweep.
            if current < best.0 && step % games.len() == 0 {
                best = (current, home.clone());
            }
        } else {
            home[r][h] = !home[r][h];
            home[r][a] = !home[r][a];
        }
        temperature *= cooling;
    }
    if current <= best.0 {
        best = (current, home);
    }
    let home = best.1;
    for (r, round) in plan.iter_mut().enumerate() {
        for g in round.games.iter_mut() {
            if !home[r][g.0] {
                *g = (g.1, g.0);
            }
        }
    }
}

/// Where to start a single leg so that it has the fewest breaks: rotating the rounds keeps
/// the cyclic carry-over, and a cut between two rounds removes every break across it.
/// Returns the index of the round to play first.
pub fn best_start(plan: &[RoundPlan], n: usize) -> usize {
    let rounds = plan.len();
    if rounds < 2 {
        return 0;
    }
    // venue[r][t]: 0 rests, 1 home, 2 away.
    let mut venue = vec![vec![0u8; n]; rounds];
    for (r, round) in plan.iter().enumerate() {
        for &(h, a) in &round.games {
            venue[r][h] = 1;
            venue[r][a] = 2;
        }
    }
    // Breaks removed by cutting before round c: for each team, its last game before c and
    // its first game from c on (cyclically) at the same venue.
    let saved = |c: usize| -> usize {
        (0..n)
            .filter(|&t| {
                let before = (1..rounds)
                    .map(|k| venue[(c + rounds - k) % rounds][t])
                    .find(|&v| v != 0);
                let after = (0..rounds)
                    .map(|k| venue[(c + k) % rounds][t])
                    .find(|&v| v != 0);
                before.is_some() && before == after
            })
            .count()
    };
    (0..rounds)
        .max_by_key(|&c| (saved(c), std::cmp::Reverse(c)))
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::league::rotation::rotation;
    use rand::SeedableRng;

    fn total(plan: &Plan, n: usize) -> u32 {
        let order: Vec<&RoundPlan> = plan.iter().collect();
        venues(&order, n).iter().map(|v| v.breaks).sum()
    }

    #[test]
    fn the_rotations_timetable_gets_the_fewest_breaks_possible() {
        // With an even number of teams at most two can avoid breaks, so n − 2 is the least
        // a single leg can have (de Werra); the rotation's pairings allow exactly that.
        for n in [4, 6, 8, 10, 12] {
            let mut plan = rotation(n);
            orient(&mut plan, n, 1, &mut Pcg64Mcg::seed_from_u64(0), 300);
            let start = best_start(&plan, n);
            plan.rotate_left(start);
            crate::league::plan::check_round_robin(&plan, n).unwrap();
            assert_eq!(total(&plan, n), n as u32 - 2, "{n} teams");
        }
    }

    #[test]
    fn counting_breaks_skips_rests() {
        // Team 0: home, rest, home → one break (home twice, across the rest).
        let plan = [
            RoundPlan {
                games: vec![(0, 1)],
                bye: Some(2),
            },
            RoundPlan {
                games: vec![(1, 2)],
                bye: Some(0),
            },
            RoundPlan {
                games: vec![(0, 2)],
                bye: Some(1),
            },
        ];
        let order: Vec<&RoundPlan> = plan.iter().collect();
        let v = venues(&order, 3);
        assert_eq!(
            v[0],
            Venues {
                home: 2,
                away: 0,
                breaks: 1
            }
        );
        assert_eq!(
            v[1],
            Venues {
                home: 1,
                away: 1,
                breaks: 0
            }
        );
        assert_eq!(
            v[2],
            Venues {
                home: 0,
                away: 2,
                breaks: 1
            }
        );
    }
}
