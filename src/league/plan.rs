//! One leg of a schedule as the methods build it: rounds of games between team indices.
use serde::Serialize;

/// One round: games as (home, away) by 0-based team index, and who rests (odd leagues).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub(crate) struct RoundPlan {
    pub games: Vec<(usize, usize)>,
    pub bye: Option<usize>,
}

/// A single round robin: every team once per round, every pair once.
pub(crate) type Plan = Vec<RoundPlan>;

/// Each team's opponent in each round (`None` when it rests): `opponents[round][team]`.
pub(crate) fn opponents(plan: &[RoundPlan], n: usize) -> Vec<Vec<Option<usize>>> {
    plan.iter()
        .map(|r| {
            let mut row = vec![None; n];
            for &(h, a) in &r.games {
                row[h] = Some(a);
                row[a] = Some(h);
            }
            row
        })
        .collect()
}

/// The same games with home and away swapped (the next leg).
pub(crate) fn mirrored(round: &RoundPlan) -> RoundPlan {
    RoundPlan {
        games: round.games.iter().map(|&(h, a)| (a, h)).collect(),
        bye: round.bye,
    }
}

#[cfg(test)]
/// Whether `plan` is a single round robin for n teams: every team plays or rests exactly
/// once a round, and every pair meets exactly once. Returns what is wrong.
pub(crate) fn check_round_robin(plan: &[RoundPlan], n: usize) -> Result<(), String> {
    let rounds = if n.is_multiple_of(2) { n - 1 } else { n };
    if plan.len() != rounds {
        return Err(format!(
            "{} rounds for {n} teams, expected {rounds}",
            plan.len()
        ));
    }
    let mut met = vec![false; n * n];
    for (r, round) in plan.iter().enumerate() {
        let mut seen = vec![false; n];
        let mut mark = |t: usize| -> Result<(), String> {
            if t >= n || seen[t] {
                return Err(format!(
                    "team index {t} appears twice (or is out of range) in round {}",
                    r + 1
                ));
            }
            seen[t] = true;
            Ok(())
        };
        for &(h, a) in &round.games {
            mark(h)?;
            mark(a)?;
            let (lo, hi) = (h.min(a), h.max(a));
            if met[lo * n + hi] {
                return Err(format!(
                    "teams {lo} and {hi} meet twice (again in round {})",
                    r + 1
                ));
            }
            met[lo * n + hi] = true;
        }
        if let Some(b) = round.bye {
            mark(b)?;
        }
        if seen.iter().any(|s| !s) {
            return Err(format!(
                "some team neither plays nor rests in round {}",
                r + 1
            ));
        }
    }
    Ok(())
}
