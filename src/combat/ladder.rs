//! The tactics ladder: a round robin of tactics in mirror matches (both sides the same ship
//! class) over ship classes, each pairing played with each tactic on each side, on the same
//! seeds; the decided battles are rated as games by a rating system of the project.
use super::side::First;
use super::sim::{simulate_with, wilson, SimOptions};
use super::tactics::Tactic;
use crate::error::{Error, Result};
use crate::rules::scoring::System;
use crate::rules::Ruleset;
use crate::scoring::history::{prepare, History, HistoryGame, Period, Placing};
use serde::Serialize;

/// What to run.
pub struct LadderOptions<'a> {
    /// The tactics, each with the name it is shown and rated under.
    pub tactics: Vec<(String, &'a dyn Tactic)>,
    pub ships: Vec<String>,
    /// Battles per ship class, pairing and side.
    pub battles: u64,
    pub seed: u64,
    pub threads: Option<usize>,
    /// The ruleset whose `scoring` section rates the tactics, and the system to use.
    pub ratings: &'a Ruleset,
    pub system: System,
}

/// One mirror match: `a` played side a, `b` side b.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct LadderMatch {
    pub ship: String,
    pub a: String,
    pub b: String,
    pub battles: u64,
    pub a_wins: u64,
    pub b_wins: u64,
    pub draws: u64,
    pub escapes: u64,
    /// a's wins over the decided battles, and its Wilson 95% interval.
    pub a_share: f64,
    pub ci95: [f64; 2],
}

/// One tactic's standing.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct LadderTactic {
    pub tactic: String,
    pub rating: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deviation: Option<f64>,
    pub wins: u64,
    pub losses: u64,
    /// Wins over its decided battles.
    pub share: f64,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct LadderReport {
    pub ruleset: String,
    pub system: String,
    pub battles: u64,
    pub seed: u64,
    pub ships: Vec<String>,
    /// Best rated first.
    pub tactics: Vec<LadderTactic>,
    pub matches: Vec<LadderMatch>,
}

/// Share of `wins` over `wins + losses` (0 when nothing was decided).
fn share(wins: u64, losses: u64) -> f64 {
    if wins + losses == 0 {
        0.0
    } else {
        wins as f64 / (wins + losses) as f64
    }
}

pub fn ladder(rules: &Ruleset, opts: &LadderOptions) -> Result<LadderReport> {
    if opts.tactics.len() < 2 {
        return Err(Error::msg("a ladder needs two tactics or more"));
    }
    if opts.ships.is_empty() {
        return Err(Error::msg("a ladder needs one ship class or more"));
    }
    let mut matches = Vec::new();
    let mut games = Vec::new();
    for (period, ship) in opts.ships.iter().enumerate() {
        for i in 0..opts.tactics.len() {
            for j in 0..opts.tactics.len() {
                if i == j {
                    continue;
                }
                let (a, b) = (&opts.tactics[i], &opts.tactics[j]);
                let sim = SimOptions {
                    a: ship.clone(),
                    b: ship.clone(),
                    battles: opts.battles,
                    seed: opts.seed,
                    threads: opts.threads,
                    scenario: None,
                    // Each tactic moves first in half its battles on each side.
                    first: Some(First::Alternate),
                };
                let r = simulate_with(rules, &sim, [a.1, b.1], &|_| {})?;
                let decided = |winner: &String, loser: &String, n: u64| {
                    let (winner, loser) = (winner.clone(), loser.clone());
                    (0..n).map(move |_| HistoryGame {
                        period: Some(Period::Number(period as i64)),
                        order: Some(vec![
                            Placing::One(winner.to_string()),
                            Placing::One(loser.to_string()),
                        ]),
                        ..HistoryGame::default()
                    })
                };
                games.extend(decided(&a.0, &b.0, r.a.wins));
                games.extend(decided(&b.0, &a.0, r.b.wins));
                matches.push(LadderMatch {
                    ship: r.a.name.clone(),
                    a: a.0.clone(),
                    b: b.0.clone(),
                    battles: r.battles,
                    a_wins: r.a.wins,
                    b_wins: r.b.wins,
                    draws: r.draws,
                    escapes: r.escapes,
                    a_share: share(r.a.wins, r.b.wins),
                    ci95: wilson(r.a.wins, r.a.wins + r.b.wins),
                });
            }
        }
    }
    let history = History {
        games,
        ..History::default()
    };
    let prepared = prepare(&history).map_err(|e| e.locate(None))?;
    let rated = crate::scoring::ratings::rate_prepared_as(
        opts.ratings,
        opts.system,
        &prepared,
        Default::default(),
    )
    .map_err(|e| e.locate(None))?;
    let mut tactics: Vec<LadderTactic> = opts
        .tactics
        .iter()
        .map(|(name, _)| {
            let (wins, losses) = matches.iter().fold((0, 0), |(w, l), m| {
                if m.a == *name {
                    (w + m.a_wins, l + m.b_wins)
                } else if m.b == *name {
                    (w + m.b_wins, l + m.a_wins)
                } else {
                    (w, l)
                }
            });
            let rating = rated.players.iter().find(|p| p.name == *name);
            LadderTactic {
                tactic: name.clone(),
                rating: rating.map_or(0.0, |p| p.rating),
                deviation: rating.and_then(|p| p.deviation),
                wins,
                losses,
                share: share(wins, losses),
            }
        })
        .collect();
    tactics.sort_by(|x, y| y.rating.total_cmp(&x.rating));
    let mut ships: Vec<String> = Vec::new();
    for m in &matches {
        if !ships.contains(&m.ship) {
            ships.push(m.ship.clone());
        }
    }
    Ok(LadderReport {
        ruleset: rules.name.clone(),
        system: opts.system.name().to_string(),
        battles: opts.battles,
        seed: opts.seed,
        ships,
        tactics,
        matches,
    })
}

impl LadderReport {
    /// Per ship class and pairing, the first tactic's share as side a, as side b, and both;
    /// then the ratings.
    pub fn render(&self) -> String {
        use crate::output::{percent, trim_number, Align, Table};
        // A share of nothing decided is no share.
        let of = |w: u64, l: u64| {
            if w + l == 0 {
                "–".to_string()
            } else {
                percent(share(w, l))
            }
        };
        let mut t = Table::new(&[
            ("ship", Align::Left),
            ("tactic", Align::Left),
            ("vs", Align::Left),
            ("share as a", Align::Right),
            ("share as b", Align::Right),
            ("both", Align::Right),
            ("95% CI", Align::Right),
            ("draws", Align::Right),
            ("escapes", Align::Right),
        ]);
        for (k, m) in self.matches.iter().enumerate() {
            // Each pairing once: the match with its first tactic as a, and the return match.
            let Some(back) = self.matches[k + 1..]
                .iter()
                .find(|o| o.ship == m.ship && o.a == m.b && o.b == m.a)
            else {
                continue;
            };
            let (w, l) = (m.a_wins + back.b_wins, m.b_wins + back.a_wins);
            let ci = wilson(w, w + l);
            t.row([
                m.ship.clone(),
                m.a.clone(),
                m.b.clone(),
                of(m.a_wins, m.b_wins),
                of(back.b_wins, back.a_wins),
                of(w, l),
                if w + l == 0 {
                    "–".to_string()
                } else {
                    format!("{}–{}", percent(ci[0]), percent(ci[1]))
                },
                (m.draws + back.draws).to_string(),
                (m.escapes + back.escapes).to_string(),
            ]);
        }
        let mut r = Table::new(&[
            ("tactic", Align::Left),
            ("rating", Align::Right),
            ("deviation", Align::Right),
            ("wins", Align::Right),
            ("losses", Align::Right),
            ("share", Align::Right),
        ]);
        for s in &self.tactics {
            r.row([
                s.tactic.clone(),
                trim_number(s.rating, 1),
                s.deviation.map_or(String::new(), |d| trim_number(d, 1)),
                s.wins.to_string(),
                s.losses.to_string(),
                percent(s.share),
            ]);
        }
        format!(
            "{} battles per ship, pairing and side (ruleset {}, seed {}); share: wins over \
             decided battles\n\n{}\nratings ({}):\n{}",
            self.battles,
            self.ruleset,
            self.seed,
            t.render(),
            self.system,
            r.render()
        )
    }
}
