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
pub(crate) struct Venues {
    pub home: u32,
    pub away: u32,
    pub breaks: u32,
}

/// Each team's home and away games and breaks over `rounds`, in the order played.
pub(crate) fn venues(rounds: &[&RoundPlan], n: usize) -> Vec<Venues> {
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
pub(crate) fn orient(plan: &mut Plan, n: usize, legs: u32, rng: &mut Pcg64Mcg, passes: usize) {
    let rounds = plan.len();
    if rounds < 2 {
        return;
    }
    let mut venues = TeamVenues::new(plan, n);
    // Greedy: whoever was away last time is at home now.
    let mut last: Vec<Option<bool>> = vec![None; n];
    let mut games: Vec<Flip> = Vec::new();
    let mut next = vec![0usize; n];
    for round in plan.iter() {
        for &(h, a) in &round.games {
            let h_home = match (last[h], last[a]) {
                (Some(true), _) => false,
                (Some(false), _) => true,
                (None, Some(a_home)) => a_home,
                (None, None) => true,
            };
            let flip = Flip {
                home: venues.at(h, next[h]),
                away: venues.at(a, next[a]),
            };
            next[h] += 1;
            next[a] += 1;
            venues.home[flip.home.slot as usize] = h_home;
            venues.home[flip.away.slot as usize] = !h_home;
            last[h] = Some(h_home);
            last[a] = Some(!h_home);
            games.push(flip);
        }
    }
    let turn_weight = legs.saturating_sub(1) as i64;
    let mut current = venues.total(turn_weight) / 2;
    let mut best = (current, venues.home.clone());
    let flips = (passes * games.len()).clamp(games.len(), MAX_FLIPS).max(1);
    let mut temperature = HOT;
    let cooling = (COLD / HOT).powf(1.0 / flips as f64);
    // Annealing over single-game flips: each flip changes only the two teams' breaks
    // around that game, so its effect is cheap to weigh; the best orientation is kept.
    for step in 0..flips {
        let g = games[rng.gen_range(0..games.len())];
        let before = venues.local(g.home, turn_weight) + venues.local(g.away, turn_weight);
        venues.flip(g);
        let after = venues.local(g.home, turn_weight) + venues.local(g.away, turn_weight);
        let delta = after - before;
        if delta <= 0 || rng.gen::<f64>() < (-(delta as f64) / temperature).exp() {
            current += delta;
            // Snapshots are O(teams × rounds): take them at most once per sweep.
            if current < best.0 && step % games.len() == 0 {
                best = (current, venues.home.clone());
            }
        } else {
            venues.flip(g);
        }
        temperature *= cooling;
    }
    if current <= best.0 {
        best = (current, venues.home);
    }
    let home = best.1;
    let mut k = 0;
    for round in plan.iter_mut() {
        for g in round.games.iter_mut() {
            if !home[games[k].home.slot as usize] {
                *g = (g.1, g.0);
            }
            k += 1;
        }
    }
}

/// One team's game: where its venue is kept, and the team (whose run of games holds it).
/// Small, so the list of every game stays in cache as the annealing picks games at random.
#[derive(Clone, Copy)]
struct GameSlot {
    slot: u32,
    team: u32,
}

/// A game's two sides, flipped together.
#[derive(Clone, Copy)]
struct Flip {
    home: GameSlot,
    away: GameSlot,
}

/// Every team's venues in the order it plays, team after team: a flip's breaks are read from
/// the two teams' own runs (two short reads), where a table by round jumped a row for every
/// neighbouring game (500 teams took 20 s).
struct TeamVenues {
    /// true: at home.
    home: Vec<bool>,
    /// Where each team's run starts (and, one past the last team, where the runs end).
    starts: Vec<usize>,
}

impl TeamVenues {
    fn new(plan: &Plan, n: usize) -> TeamVenues {
        let mut count = vec![0usize; n];
        for round in plan {
            for &(h, a) in &round.games {
                count[h] += 1;
                count[a] += 1;
            }
        }
        let mut starts = Vec::with_capacity(n + 1);
        starts.push(0);
        for c in &count {
            starts.push(starts.last().expect("one") + c);
        }
        TeamVenues {
            home: vec![false; *starts.last().expect("one")],
            starts,
        }
    }

    /// Team t's i-th game.
    fn at(&self, t: usize, i: usize) -> GameSlot {
        GameSlot {
            slot: (self.starts[t] + i) as u32,
            team: t as u32,
        }
    }

    fn flip(&mut self, g: Flip) {
        for slot in [g.home.slot as usize, g.away.slot as usize] {
            self.home[slot] = !self.home[slot];
        }
    }

    /// The breaks of one team that involve its game at `g`.
    fn local(&self, g: GameSlot, turn_weight: i64) -> i64 {
        let (slot, t) = (g.slot as usize, g.team as usize);
        let (first, last) = (self.starts[t], self.starts[t + 1] - 1);
        let v = self.home[slot];
        let mut b = 0;
        if slot > first && self.home[slot - 1] == v {
            b += 1;
        }
        if slot < last && self.home[slot + 1] == v {
            b += 1;
        }
        // The turn from the last game back to the first. With one leg it is counted as if
        // the leg were a cycle (the cut is chosen afterwards, at the turn with most
        // breaks); with more, the next leg starts with the first game mirrored, a break
        // when the first and last venues differ.
        if last > first && (slot == first || slot == last) {
            let (first, last) = (self.home[first], self.home[last]);
            if turn_weight == 0 && first == last {
                b += 1;
            } else if turn_weight > 0 && first != last {
                b += turn_weight;
            }
        }
        b
    }

    /// Every team's breaks counted from both games of each (so twice each break).
    fn total(&self, turn_weight: i64) -> i64 {
        (0..self.starts.len() - 1)
            .flat_map(|t| (0..self.starts[t + 1] - self.starts[t]).map(move |i| (t, i)))
            .map(|(t, i)| self.local(self.at(t, i), turn_weight))
            .sum()
    }
}

/// Where to start a single leg so that it has the fewest breaks: rotating the rounds keeps
/// the cyclic carry-over, and a cut between two rounds removes every break across it.
/// Returns the index of the round to play first.
pub(crate) fn best_start(plan: &[RoundPlan], n: usize) -> usize {
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
