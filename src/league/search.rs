//! Seeded local search for low carry-over when n is not a power of two.
//!
//! A single round robin is held as `opp[round][team]` over N = n rounded up to even (an odd
//! league gets a phantom team; meeting it is a rest). Three moves keep it a round robin:
//! swapping two rounds, the partial round swap (the games of one alternating cycle change
//! rounds) and the partial team swap (two teams exchange opponents in a closed chain of
//! rounds). Simulated annealing on the carry-over value, from the source's rotation. The
//! number of moves is fixed, so the same seed always gives the same schedule; an optional
//! wall-clock limit can stop it sooner (then the result depends on the machine).
use super::plan::{Plan, RoundPlan};
use super::rotation::rotation;
use rand::Rng;
use rand_pcg::Pcg64Mcg;
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

/// How long the search may run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Default)]
#[serde(deny_unknown_fields)]
pub struct SearchBudget {
    /// Moves to try; None: a default that grows slower than the league (see `default_moves`).
    #[serde(default)]
    pub moves: Option<u64>,
    /// Stop after this many seconds even if moves are left.
    #[serde(default)]
    pub seconds: Option<f64>,
}

/// What the search did, for the record.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct SearchReport {
    pub moves: u64,
    pub start_value: u64,
    pub stopped_by_time: bool,
}

/// Default moves: plenty for small leagues, bounded work (moves × teams) for big ones.
pub(crate) fn default_moves(n: usize) -> u64 {
    (4_000_000 / n.max(1) as u64).clamp(10_000, 200_000)
}

/// Annealing temperatures (in units of carry-over value) at the start and the end.
const HOT: f64 = 4.0;
const COLD: f64 = 0.05;

struct State {
    n: usize,
    size: usize,
    rounds: usize,
    opp: Vec<Vec<usize>>,
    counts: Vec<u32>,
    value: u64,
}

impl State {
    fn new(n: usize) -> State {
        let size = n + n % 2;
        let plan = rotation(size);
        let rounds = plan.len();
        let mut opp = vec![vec![0usize; size]; rounds];
        for (r, round) in plan.iter().enumerate() {
            for &(h, a) in &round.games {
                opp[r][h] = a;
                opp[r][a] = h;
            }
        }
        let mut s = State {
            n,
            size,
            rounds,
            opp,
            counts: vec![0; n * n],
            value: 0,
        };
        for i in 0..rounds {
            for t in 0..n {
                s.touch(t, i, true);
            }
        }
        s
    }

    /// Add (or remove) the carry-over team t makes across transition i (round i to i + 1).
    #[inline]
    fn touch(&mut self, t: usize, i: usize, add: bool) {
        let n = self.n;
        if t >= n || self.rounds < 2 {
            return;
        }
        let j = self.opp[i][t];
        let k = self.opp[(i + 1) % self.rounds][t];
        if j >= n || k >= n {
            return;
        }
        let c = &mut self.counts[j * n + k];
        if add {
            self.value += 2 * *c as u64 + 1;
            *c += 1;
        } else {
            self.value -= 2 * *c as u64 - 1;
            *c -= 1;
        }
    }

    /// The transitions that involve rounds r or s (up to four, without repeats).
    fn transitions(&self, r: usize, s: usize) -> ([usize; 4], usize) {
        let back = |x: usize| (x + self.rounds - 1) % self.rounds;
        let mut t = [back(r), r, back(s), s];
        t.sort_unstable();
        let mut len = 1;
        for i in 1..4 {
            if t[i] != t[len - 1] {
                t[len] = t[i];
                len += 1;
            }
        }
        (t, len)
    }

    /// The alternating cycle through team t of the games of rounds r and s, into `cycle`.
    fn cycle(&self, r: usize, s: usize, t: usize, cycle: &mut Vec<usize>) {
        cycle.clear();
        cycle.push(t);
        let mut at = t;
        loop {
            let a = self.opp[r][at];
            let b = self.opp[s][a];
            cycle.push(a);
            if b == t {
                return;
            }
            cycle.push(b);
            at = b;
        }
    }

    fn swap_cycle(&mut self, r: usize, s: usize, cycle: &[usize]) {
        for &t in cycle {
            let (x, y) = (self.opp[r][t], self.opp[s][t]);
            self.opp[r][t] = y;
            self.opp[s][t] = x;
        }
    }

    fn plan(&self) -> Plan {
        let n = self.n;
        self.opp
            .iter()
            .map(|row| {
                let games = (0..n)
                    .filter(|&t| t < row[t] && row[t] < n)
                    .map(|t| (t, row[t]))
                    .collect();
                let bye = (0..n).find(|&t| row[t] >= n);
                RoundPlan { games, bye }
            })
            .collect()
    }
}

/// The three moves; each is its own inverse.
#[derive(Clone, Copy)]
enum Move {
    /// Swap two whole rounds.
    Rounds(usize, usize),
    /// Partial round swap: the games of one alternating cycle change rounds.
    Cycle(usize, usize),
    /// Partial team swap: two teams exchange opponents in a closed chain of rounds (the
    /// move that changes a perfect one-factorisation, where every cycle is Hamiltonian).
    Teams(usize, usize),
}

impl State {
    /// The rounds in which t1 and t2 must exchange opponents, starting from `start`, so that
    /// every pair still meets exactly once. False when t1 meets t2 in `start`. `round_of` is
    /// working space: the round t1 meets each team in, looked up once per chain instead of
    /// searched for at every step (a long chain in a big league made that the square).
    fn chain(
        &self,
        t1: usize,
        t2: usize,
        start: usize,
        out: &mut Vec<usize>,
        round_of: &mut [usize],
    ) -> bool {
        out.clear();
        let first = self.opp[start][t1];
        if first == t2 {
            return false;
        }
        round_of.fill(usize::MAX);
        // Each team meets t1 once: the first round found is the only one.
        for x in (0..self.rounds).rev() {
            round_of[self.opp[x][t1]] = x;
        }
        let mut r = start;
        loop {
            out.push(r);
            let b = self.opp[r][t2];
            if b == first {
                return true;
            }
            match round_of[b] {
                next if next != usize::MAX && out.len() < self.rounds => r = next,
                _ => return false,
            }
        }
    }

    fn swap_teams(&mut self, r: usize, t1: usize, t2: usize) {
        let (a, b) = (self.opp[r][t1], self.opp[r][t2]);
        self.opp[r][t1] = b;
        self.opp[r][b] = t1;
        self.opp[r][t2] = a;
        self.opp[r][a] = t2;
    }

    fn apply(&mut self, m: Move, cycle: &[usize], chain: &[usize]) {
        match m {
            Move::Rounds(r, s) => self.opp.swap(r, s),
            Move::Cycle(r, s) => self.swap_cycle(r, s, cycle),
            Move::Teams(t1, t2) => {
                for &r in chain {
                    self.swap_teams(r, t1, t2);
                }
            }
        }
    }

    fn touch_pairs(&mut self, pairs: &[(usize, usize)], add: bool) {
        for &(t, i) in pairs {
            self.touch(t, i, add);
        }
    }
}

/// Search for a schedule with a low carry-over value.
pub(crate) fn search(n: usize, rng: &mut Pcg64Mcg, budget: &SearchBudget) -> (Plan, SearchReport) {
    let mut state = State::new(n);
    let start_value = state.value;
    let moves = budget.moves.unwrap_or_else(|| default_moves(n));
    let deadline = budget
        .seconds
        .map(|s| Instant::now() + Duration::from_secs_f64(s.max(0.0)));
    let mut report = SearchReport {
        moves: 0,
        start_value,
        stopped_by_time: false,
    };
    if state.rounds < 3 {
        return (state.plan(), report);
    }
    let rounds = state.rounds;
    let back = |x: usize| (x + rounds - 1) % rounds;
    let mut cycle: Vec<usize> = Vec::with_capacity(state.size);
    let mut chain: Vec<usize> = Vec::with_capacity(rounds);
    let mut round_of = vec![usize::MAX; state.size];
    // The (team, transition) pairs whose carry-over a move may change.
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    let mut best = (state.value, state.opp.clone());
    let snapshot_every = state.size as u64;
    let cooling = (COLD / HOT).powf(1.0 / moves.max(1) as f64);
    let mut temperature = HOT;
    for step in 0..moves {
        if step % 4096 == 0 {
            // A bound the caller set (a script's limits): stop here; the caller reports it.
            if crate::stop::reason().is_some() {
                report.stopped_by_time = true;
                break;
            }
            if let Some(d) = deadline {
                if Instant::now() >= d {
                    report.stopped_by_time = true;
                    break;
                }
            }
        }
        report.moves = step + 1;
        let r = rng.gen_range(0..rounds);
        let mut s = rng.gen_range(0..rounds - 1);
        if s >= r {
            s += 1;
        }
        pairs.clear();
        let kind = rng.gen_range(0..10);
        let m = if kind < 2 {
            let (transitions, count) = state.transitions(r, s);
            pairs.extend(
                transitions[..count]
                    .iter()
                    .flat_map(|&i| (0..n).map(move |t| (t, i))),
            );
            Move::Rounds(r, s)
        } else if kind < 6 {
            state.cycle(r, s, rng.gen_range(0..state.size), &mut cycle);
            let (transitions, count) = state.transitions(r, s);
            pairs.extend(
                transitions[..count]
                    .iter()
                    .flat_map(|&i| cycle.iter().map(move |&t| (t, i))),
            );
            Move::Cycle(r, s)
        } else {
            let t1 = rng.gen_range(0..state.size);
            let mut t2 = rng.gen_range(0..state.size - 1);
            if t2 >= t1 {
                t2 += 1;
            }
            if !state.chain(t1, t2, r, &mut chain, &mut round_of) {
                continue;
            }
            for &x in &chain {
                for t in [t1, t2, state.opp[x][t1], state.opp[x][t2]] {
                    pairs.push((t, back(x)));
                    pairs.push((t, x));
                }
            }
            pairs.sort_unstable();
            pairs.dedup();
            Move::Teams(t1, t2)
        };
        let before = state.value;
        state.touch_pairs(&pairs, false);
        state.apply(m, &cycle, &chain);
        state.touch_pairs(&pairs, true);
        let delta = state.value as f64 - before as f64;
        let accept = delta <= 0.0 || rng.gen::<f64>() < (-delta / temperature).exp();
        if !accept {
            state.touch_pairs(&pairs, false);
            state.apply(m, &cycle, &chain);
            state.touch_pairs(&pairs, true);
        }
        temperature *= cooling;
        if step % snapshot_every == 0 && state.value < best.0 {
            best = (state.value, state.opp.clone());
        }
    }
    // The running value must match a recount (a check on the incremental bookkeeping).
    debug_assert_eq!(
        state.value,
        super::carryover::value_of(&super::carryover::counts(&state.plan(), n))
    );
    if state.value >= best.0 {
        state.opp = best.1;
    }
    (state.plan(), report)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::league::carryover::carryover;
    use crate::league::plan::check_round_robin;
    use rand::SeedableRng;

    #[test]
    fn the_search_keeps_a_round_robin_and_lowers_the_value() {
        for n in [3, 5, 6, 7, 9, 10, 12, 13] {
            let budget = SearchBudget {
                moves: Some(5000),
                seconds: None,
            };
            let (plan, report) = search(n, &mut Pcg64Mcg::seed_from_u64(n as u64), &budget);
            check_round_robin(&plan, n).unwrap_or_else(|e| panic!("{n} teams: {e}"));
            let value = carryover(&plan, n, false).value;
            assert!(
                value <= report.start_value,
                "{n} teams: {value} > {}",
                report.start_value
            );
        }
    }

    #[test]
    fn seven_teams_reach_the_bound() {
        // 35 = 7 · 5 carry-overs, each cell at most once.
        let budget = SearchBudget {
            moves: Some(50_000),
            seconds: None,
        };
        let (plan, _) = search(7, &mut Pcg64Mcg::seed_from_u64(1), &budget);
        let c = carryover(&plan, 7, false);
        assert_eq!((c.value, c.lower_bound), (35, 35));
    }
}
