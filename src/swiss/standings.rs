//! Standings with FIDE C.07 (2023) tie-breaks, in the order a ruleset lists them: points,
//! then each tie-break in turn among those still level. Each player's values come from
//! `tiebreaks` (unplayed rounds by article 16, see `unplayed`); direct encounter is worked out
//! per tied group here.
use super::model::Field;
use super::tiebreaks::individual;
use crate::rules::swiss::SwissRules;
use serde::Serialize;

#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct Standing {
    pub rank: usize,
    pub player: usize,
    pub name: String,
    pub points: f64,
    pub tiebreaks: indexmap::IndexMap<String, f64>,
}

/// The standings and the tie-breaks they were ranked by (one column each in the table, the CSV
/// and the page; the JSON carries them in each line's `tiebreaks`).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct Standings {
    pub standings: Vec<Standing>,
    #[serde(skip)]
    pub tiebreakers: Vec<String>,
}

fn pts(t: u32) -> f64 {
    t as f64 / 10.0
}

/// Standings after the rounds played in `field` (in tenths of points internally), by the
/// ruleset's tie-breaks.
pub(crate) fn standings(field: &Field, rules: &SwissRules) -> Standings {
    let tiebreakers = &rules.tiebreakers;
    let n = field.entrants.len();
    let rounds = field.played_rounds;
    let score: Vec<u32> = (0..n).map(|p| field.score_after(p, rounds)).collect();
    // Per player, per tie-break, in tenths (or units for counts); direct encounter is filled
    // per tied group below.
    let mut values: Vec<Vec<f64>> = vec![Vec::new(); n];
    for p in 0..n {
        for tb in tiebreakers {
            values[p].push(individual(field, &score, p, tb, rules.performance.as_ref()));
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
