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

/// Re-choose home and away for every game of a leg to cut breaks: within the leg, plus
/// the turns into each further (mirrored) leg. Greedy round by round, then single-game
/// flips (seeded, for ties) until no flip helps or `passes` run out.
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
        // The next leg starts with this leg's first game mirrored: a break when the first
        // and last venues of the leg differ.
        if turn_weight > 0 && seq.len() > 1 && (i == 0 || i + 1 == seq.len()) && home[seq[0]][t] != home[seq[seq.len() - 1]][t] {
            b += turn_weight;
        }
        b
    };
    for _ in 0..passes {
        let mut improved = false;
        for (r, round) in plan.iter().enumerate() {
            for &(h, a) in &round.games {
                let before = local(&home, h, r) + local(&home, a, r);
                home[r][h] = !home[r][h];
                home[r][a] = !home[r][a];
                let after = local(&home, h, r) + local(&home, a, r);
                let keep = after < before || (after == before && rng.gen_bool(0.5));
                if after < before {
                    improved = true;
                }
                if !keep {
                    home[r][h] = !home[r][h];
                    home[r][a] = !home[r][a];
                }
            }
        }
        if !improved {
            break;
        }
    }
    for (r, round) in plan.iter_mut().enumerate() {
        for g in round.games.iter_mut() {
            if !home[r][g.0] {
                *g = (g.1, g.0);
            }
        }
    }
}
