//! Standings with FIDE C.07 tie-breaks, in the order a ruleset lists them. Unplayed rounds
//! (byes, forfeits, absences) count for the player's own Buchholz and Sonneborn-Berger as a
//! game against a dummy opponent whose score is the player's own (C.07 16.4's reading in the
//! spec); the player's opponents see their actual scores.
use super::model::{Colour, Field, Outcome};
use serde::Serialize;

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Standing {
    pub rank: usize,
    pub player: usize,
    pub name: String,
    pub points: f64,
    pub tiebreaks: indexmap::IndexMap<String, f64>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Standings {
    pub standings: Vec<Standing>,
}

fn pts(t: u32) -> f64 {
    t as f64 / 10.0
}

/// Standings after the rounds played in `field` (in tenths of points internally).
pub fn standings(field: &Field, tiebreakers: &[String]) -> Standings {
    let n = field.entrants.len();
    let rounds = field.played_rounds;
    let score: Vec<u32> = (0..n).map(|p| field.score_after(p, rounds)).collect();
    // Per player, per tie-break, in tenths (or units for counts); direct encounter is filled
    // per tied group below.
    let mut values: Vec<Vec<f64>> = vec![Vec::new(); n];
    for p in 0..n {
        for tb in tiebreakers {
            values[p].push(individual(field, &score, p, tb));
        }
    }
    // Order: points, then each tie-break in turn among those still level.
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| score[b].cmp(&score[a]).then(a.cmp(&b)));
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for &p in &order {
        match groups.last_mut() {
            Some(g) if score[g[0]] == score[p] => g.push(p),
            _ => groups.push(vec![p]),
        }
    }
    for (k, tb) in tiebreakers.iter().enumerate() {
        let mut next = Vec::new();
        for mut g in groups {
            if g.len() > 1 && tb == "direct_encounter" {
                let de = direct_encounter(field, &g);
                for (i, &p) in g.iter().enumerate() {
                    values[p][k] = de[i];
                }
            }
            g.sort_by(|&a, &b| values[b][k].total_cmp(&values[a][k]).then(a.cmp(&b)));
            let mut cur: Vec<usize> = Vec::new();
            for p in g {
                if cur.first().is_some_and(|&q| values[q][k] != values[p][k]) {
                    next.push(std::mem::take(&mut cur));
                }
                cur.push(p);
            }
            next.push(cur);
        }
        groups = next;
    }
    let mut out = Vec::new();
    let mut rank = 1;
    for g in groups {
        for &p in &g {
            out.push(Standing {
                rank,
                player: p + 1,
                name: field.entrants[p].name.clone(),
                points: pts(score[p]),
                tiebreaks: tiebreakers
                    .iter()
                    .zip(&values[p])
                    .map(|(t, v)| (t.clone(), round2(*v)))
                    .collect(),
            });
        }
        rank += g.len();
    }
    Standings { standings: out }
}

fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

/// One tie-break for one player, in points (counts for wins, games with black).
fn individual(field: &Field, score: &[u32], p: usize, tb: &str) -> f64 {
    let rounds = &field.entrants[p].rounds[..field.played_rounds];
    let points = &field.points;
    // Each round's opponent score for Buchholz: the opponent's, or the player's own when the
    // round was not played over the board.
    let opp_scores: Vec<u32> = rounds
        .iter()
        .map(|r| match r.opponent.filter(|_| r.played) {
            Some(o) => score[o],
            None => score[p],
        })
        .collect();
    let buchholz: u32 = opp_scores.iter().sum();
    match tb {
        "buchholz" => pts(buchholz),
        "buchholz_cut1" => pts(buchholz - opp_scores.iter().min().copied().unwrap_or(0)),
        "buchholz_median" => {
            if opp_scores.len() < 3 {
                return 0.0;
            }
            let lo = opp_scores.iter().min().copied().unwrap_or(0);
            let hi = opp_scores.iter().max().copied().unwrap_or(0);
            pts(buchholz - lo - hi)
        }
        "sonneborn_berger" => {
            rounds
                .iter()
                .zip(&opp_scores)
                .map(|(r, &s)| {
                    let share = match r.outcome {
                        Outcome::Win => 1.0,
                        Outcome::Draw => 0.5,
                        Outcome::Loss => 0.0,
                    };
                    // A bye or absence scored less than a win counts by what it earned.
                    let share = if r.played {
                        share
                    } else {
                        points.of(r) as f64 / points.win.max(1) as f64
                    };
                    pts(s) * share
                })
                // An empty sum is -0.0; + 0.0 makes it 0 (JSON would say -0.0).
                .sum::<f64>()
                + 0.0
        }
        "wins" => rounds
            .iter()
            .filter(|r| r.outcome == Outcome::Win && r.opponent.is_some())
            .count() as f64,
        "black_games" => rounds
            .iter()
            .filter(|r| r.played && r.colour == Some(Colour::Black))
            .count() as f64,
        "average_rating_of_opponents" => {
            let ratings: Vec<u32> = rounds
                .iter()
                .filter(|r| r.played)
                .filter_map(|r| r.opponent)
                .map(|o| field.entrants[o].rating)
                .filter(|&r| r > 0)
                .collect();
            if ratings.is_empty() {
                0.0
            } else {
                (ratings.iter().map(|&r| r as f64).sum::<f64>() / ratings.len() as f64).round()
            }
        }
        "progressive" => {
            let mut run = 0;
            let mut total = 0;
            for r in rounds {
                run += points.of(r);
                total += run;
            }
            pts(total)
        }
        _ => 0.0,
    }
}

/// Points scored in the games among `group`, when every two of them have met (C.07 6.1);
/// otherwise the criterion cannot separate them and everyone gets 0.
fn direct_encounter(field: &Field, group: &[usize]) -> Vec<f64> {
    let rounds = field.played_rounds;
    let mut out = vec![0.0; group.len()];
    for (i, &a) in group.iter().enumerate() {
        for &b in group {
            if a == b {
                continue;
            }
            let games: Vec<_> = field.entrants[a].rounds[..rounds]
                .iter()
                .filter(|r| r.opponent == Some(b) && r.paired)
                .collect();
            if games.is_empty() {
                return vec![0.0; group.len()];
            }
            out[i] += games.iter().map(|r| pts(field.points.of(r))).sum::<f64>();
        }
    }
    out
}
