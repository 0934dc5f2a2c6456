//! Standings with FIDE C.07 (2023) tie-breaks, in the order a ruleset lists them. Unplayed
//! rounds (byes, forfeits, absences) count for the player's own Buchholz and Sonneborn-Berger
//! as a game against a dummy opponent whose score is the player's own (16.4). An opponent's
//! score in a Buchholz counts each round he chose not to play as a draw (16.3): a player who
//! withdrew does not drag his opponents down for the rounds he left. Cut-1 and Median cut a
//! round the player chose not to play before the lowest opponent (16.5 with 14).
use super::model::{Colour, Field, Outcome, Round};
use serde::Serialize;

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Standing {
    pub rank: usize,
    pub player: usize,
    pub name: String,
    pub points: f64,
    pub tiebreaks: indexmap::IndexMap<String, f64>,
}

/// The standings and the tie-breaks they were ranked by (one column each in the table, the CSV
/// and the page; the JSON carries them in each line's `tiebreaks`).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Standings {
    pub standings: Vec<Standing>,
    #[serde(skip)]
    pub tiebreakers: Vec<String>,
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
    Standings {
        standings: out,
        tiebreakers: tiebreakers.to_vec(),
    }
}

fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}

/// C.07 16.5: a round the player chose not to play: a forfeit loss, a bye asked for (of any
/// value), an absence, the rounds after a withdrawal. The pairing-allocated bye and a win by
/// the opponent's forfeit were not the player's choice.
fn voluntarily_unplayed(r: &Round) -> bool {
    let forfeit_win = r.opponent.is_some() && r.outcome == Outcome::Win;
    !r.played && !r.is_pairing_bye() && !forfeit_win
}

/// C.07 16.3: a player's score as his opponents' Buchholz counts it, each round he chose not
/// to play counted as a draw.
fn adjusted_score(field: &Field, p: usize) -> u32 {
    field.entrants[p].rounds[..field.played_rounds]
        .iter()
        .map(|r| {
            if voluntarily_unplayed(r) {
                field.points.draw
            } else {
                field.points.of(r)
            }
        })
        .sum()
}

/// The Buchholz terms, one a round, and the index of the one Cut-1 drops (C.07 14 with 16.5:
/// a round the player chose not to play first, else the lowest).
fn buchholz_terms(field: &Field, score: &[u32], p: usize) -> (Vec<u32>, Option<usize>) {
    let rounds = &field.entrants[p].rounds[..field.played_rounds];
    // The opponent's adjusted score, or the player's own when the round was not played over
    // the board (the dummy opponent of 16.4).
    let terms: Vec<u32> = rounds
        .iter()
        .map(|r| match r.opponent.filter(|_| r.played) {
            Some(o) => adjusted_score(field, o),
            None => score[p],
        })
        .collect();
    let lowest = |pick: &dyn Fn(usize) -> bool| {
        (0..terms.len())
            .filter(|&i| pick(i))
            .min_by_key(|&i| terms[i])
    };
    let cut = lowest(&|i| voluntarily_unplayed(&rounds[i])).or_else(|| lowest(&|_| true));
    (terms, cut)
}

/// One tie-break for one player, in points (counts for wins, games with black).
fn individual(field: &Field, score: &[u32], p: usize, tb: &str) -> f64 {
    let rounds = &field.entrants[p].rounds[..field.played_rounds];
    let points = &field.points;
    let (terms, cut) = buchholz_terms(field, score, p);
    let buchholz: u32 = terms.iter().sum();
    let cut_value = cut.map_or(0, |i| terms[i]);
    // Each round's opponent score for Sonneborn-Berger: the opponent's, or the player's own
    // when the round was not played over the board.
    let opp_scores: Vec<u32> = rounds
        .iter()
        .map(|r| match r.opponent.filter(|_| r.played) {
            Some(o) => score[o],
            None => score[p],
        })
        .collect();
    match tb {
        "buchholz" => pts(buchholz),
        "buchholz_cut1" => pts(buchholz - cut_value),
        "buchholz_median" => {
            if terms.len() < 3 {
                return 0.0;
            }
            let hi = (0..terms.len())
                .filter(|&i| Some(i) != cut)
                .map(|i| terms[i])
                .max()
                .unwrap_or(0);
            pts(buchholz - cut_value - hi)
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
        // C.07 7.1: rounds that earned a win's points, played or not (byes and forfeits too).
        "win" => rounds.iter().filter(|r| points.of(r) >= points.win).count() as f64,
        // C.07 7.2: games won over the board.
        "won" => rounds
            .iter()
            .filter(|r| r.played && r.outcome == Outcome::Win)
            .count() as f64,
        // C.07 7.4: games won with black over the board.
        "black_wins" => rounds
            .iter()
            .filter(|r| r.played && r.outcome == Outcome::Win && r.colour == Some(Colour::Black))
            .count() as f64,
        // C.07 9.2 (Koya, for round robins): points against the opponents who scored at least
        // half of what the rounds played could give.
        "koya" => {
            let max = field.played_rounds as u32 * points.win;
            rounds
                .iter()
                .filter(|r| r.opponent.is_some_and(|o| 2 * score[o] >= max))
                .map(|r| pts(points.of(r)))
                .sum::<f64>()
                + 0.0
        }
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
