//! The rating loop: Elo and multiplayer Elo, Weng-Lin, TrueSkill, and the score-based ladders
//! (percentile, pot), game by game or period by period.
use super::game::{Invalid, ResultRow};
use super::history::{prepare, History};
use super::prepared::Prepared;
use super::rating_report::{GameChanges, PlayerChange, PlayerRating, RatingReport};
use super::{multiplayer, percentile, pot};
use crate::rules::formula::{Compiled, NumberOrFormula};
use crate::rules::scoring::{Aggregate, ScoringRules, System, K_VARIABLES};

#[derive(Debug, Clone, Copy, Default)]
pub struct RateOptions {
    /// Keep each game's changes in the report.
    pub record_games: bool,
}

/// Everything the rating systems keep per player.
struct State {
    start: Vec<f64>,
    rating: Vec<f64>,
    sigma: Vec<f64>,
    played: Vec<u32>,
    /// Sum of game points (percentile ladder).
    points: Vec<f64>,
}

/// One player's effect of one game: rating change and uncertainty ratio.
#[derive(Clone, Copy)]
struct Delta {
    player: usize,
    rating: f64,
    sigma_ratio: f64,
    points: f64,
}

/// The system's parameters in the form the loop wants them.
enum Engine<'a> {
    Elo { k: KFactor, scale: f64 },
    WengLin(&'a crate::rules::scoring::WengLinRules),
    TrueSkill(&'a crate::rules::scoring::TrueSkillRules),
    Percentile(&'a crate::rules::scoring::PercentileRules),
    Pot(&'a crate::rules::scoring::PotRules),
}

enum KFactor {
    Fixed(f64),
    Formula(Compiled),
}

impl KFactor {
    fn of(&self, rating: f64, games: u32) -> f64 {
        match self {
            KFactor::Fixed(k) => *k,
            KFactor::Formula(f) => f.eval(&[rating, games as f64]),
        }
    }
}

/// Rate a history with the ruleset's scoring system, keeping each game's changes.
pub fn rate(ruleset: &crate::rules::Ruleset, history: &History) -> crate::Result<RatingReport> {
    rate_with(ruleset, history, RateOptions { record_games: true }).map_err(|e| e.locate(None))
}

/// Rate a history; problems come back with the place in the history they concern.
pub fn rate_with(
    ruleset: &crate::rules::Ruleset,
    history: &History,
    options: RateOptions,
) -> Result<RatingReport, Invalid> {
    let prepared = prepare(history)?;
    rate_prepared(ruleset, &prepared, options)
}

/// The engine's parameters, initial rating and initial uncertainty.
fn engine_of(
    ruleset: &crate::rules::Ruleset,
) -> Result<(Engine<'_>, f64, f64, &ScoringRules), Invalid> {
    let rules: &ScoringRules = ruleset.scoring.as_ref().ok_or_else(|| {
        Invalid::new(
            "",
            format!("ruleset `{}` has no `scoring` section", ruleset.name),
        )
    })?;
    let missing = || {
        Invalid::new(
            "",
            format!(
                "ruleset `{}` lacks the `{}` parameters",
                ruleset.name,
                rules.system.name()
            ),
        )
    };
    let (engine, initial, sigma) = match rules.system {
        System::Cep => {
            return Err(Invalid::new(
                "",
                format!(
                    "ruleset `{}` scores single CEP scenarios (`arbiter score`); rate with elo, \
                     figf, advciv or a Bayesian system",
                    ruleset.name
                ),
            ))
        }
        System::Elo => {
            let e = rules.elo.as_ref().ok_or_else(missing)?;
            let k = match &e.k {
                NumberOrFormula::Number(k) => KFactor::Fixed(*k),
                NumberOrFormula::Formula(f) => KFactor::Formula(f.compile(K_VARIABLES)),
            };
            (Engine::Elo { k, scale: e.scale }, e.initial, 0.0)
        }
        System::WengLin => {
            let w = rules.weng_lin.as_ref().ok_or_else(missing)?;
            (Engine::WengLin(w), w.initial, w.uncertainty)
        }
        System::TrueSkill => {
            let t = rules.trueskill.as_ref().ok_or_else(missing)?;
            (Engine::TrueSkill(t), t.initial, t.uncertainty)
        }
        System::Percentile => {
            let p = rules.percentile.as_ref().ok_or_else(missing)?;
            (Engine::Percentile(p), p.initial, 0.0)
        }
        System::Pot => {
            let p = rules.pot.as_ref().ok_or_else(missing)?;
            (Engine::Pot(p), p.initial as f64, 0.0)
        }
    };
    Ok((engine, initial, sigma, rules))
}

/// Rate a prepared history (see `history::prepare` and the CSV reader).
pub fn rate_prepared(
    ruleset: &crate::rules::Ruleset,
    prepared: &Prepared,
    options: RateOptions,
) -> Result<RatingReport, Invalid> {
    let (engine, initial, sigma0, rules) = engine_of(ruleset)?;
    let score_based = matches!(engine, Engine::Percentile(_) | Engine::Pot(_));
    let bayesian = matches!(engine, Engine::WengLin(_) | Engine::TrueSkill(_));
    let n = prepared.names.len();
    let mut state = State {
        start: vec![initial; n],
        rating: vec![initial; n],
        sigma: vec![sigma0; n],
        played: vec![0; n],
        points: vec![0.0; n],
    };
    for &(id, r, s) in &prepared.starts {
        state.start[id] = r;
        state.rating[id] = r;
        state.sigma[id] = s.unwrap_or(sigma0);
    }

    let mut games_out = Vec::new();
    let mut pending: Vec<Delta> = Vec::new();
    let mut deltas: Vec<Delta> = Vec::new();
    let mut scratch = Scratch::default();
    let mut closed = vec![false; prepared.periods.len()];
    let mut current: Option<usize> = None;
    let use_periods = rules.periods && !score_based;
    for (g, game) in prepared.games.iter().enumerate() {
        if score_based && !game.has_scores {
            return Err(Invalid::new(
                format!("/games/{g}/order"),
                "this ruleset scores tables: give the game's `scores`, not an `order`",
            ));
        }
        // A period's games are computed against the ratings at its start: apply the
        // pending changes when the period ends.
        let period = if use_periods { game.period } else { None };
        if period != current {
            apply(&mut state, &mut pending);
            if let Some(c) = current {
                closed[c] = true;
            }
            if let Some(pd) = period {
                if closed[pd] {
                    return Err(Invalid::new(
                        format!("/games/{g}/period"),
                        format!(
                            "period {} was already closed by the games above: keep a period's \
                             games together",
                            prepared.periods[pd]
                        ),
                    ));
                }
            }
            current = period;
        }
        let slot = Slot {
            players: &prepared.players[game.from..game.to],
            places: &prepared.places[game.from..game.to],
            ranks: &prepared.ranks[game.from..game.to],
            scores: &prepared.scores[game.from..game.to],
        };
        deltas.clear();
        game_deltas(
            &engine,
            &state,
            &prepared.names.shown,
            &slot,
            &mut scratch,
            &mut deltas,
        )
        .map_err(|e| e.under_pointer(&format!("/games/{g}")))?;
        if options.record_games {
            games_out.push(record(
                &state,
                &prepared.names.shown,
                &slot,
                &deltas,
                g,
                prepared,
                &engine,
            ));
        }
        for d in &deltas {
            state.played[d.player] += 1;
        }
        pending.extend_from_slice(&deltas);
        if current.is_none() {
            apply(&mut state, &mut pending);
        }
    }
    apply(&mut state, &mut pending);
    if let Engine::Percentile(p) = &engine {
        for i in 0..n {
            state.rating[i] = percentile_rating(
                p.aggregate,
                state.start[i],
                state.points[i],
                state.played[i],
            );
        }
    }

    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|a, b| state.rating[*b].total_cmp(&state.rating[*a]));
    let mut rank = vec![0usize; n];
    for (pos, &i) in order.iter().enumerate() {
        rank[i] = if pos > 0 && state.rating[order[pos - 1]] == state.rating[i] {
            rank[order[pos - 1]]
        } else {
            pos + 1
        };
    }
    let players = prepared
        .names
        .shown
        .iter()
        .enumerate()
        .map(|(i, name)| PlayerRating {
            name: name.clone(),
            rating: state.rating[i],
            uncertainty: bayesian.then(|| state.sigma[i]),
            rank: rank[i],
            games: state.played[i],
            start: state.start[i],
            change: state.rating[i] - state.start[i],
        })
        .collect();
    Ok(RatingReport {
        ruleset: ruleset.name.clone(),
        system: rules.system.name(),
        games_rated: prepared.games.len(),
        players,
        games: games_out,
    })
}

/// One game's players, as slices of the prepared arrays.
struct Slot<'a> {
    players: &'a [usize],
    places: &'a [f64],
    ranks: &'a [usize],
    scores: &'a [f64],
}

/// Buffers reused from game to game.
#[derive(Default)]
struct Scratch {
    ratings: Vec<f64>,
    ks: Vec<f64>,
    changes: Vec<f64>,
}

fn percentile_rating(aggregate: Aggregate, start: f64, points: f64, games: u32) -> f64 {
    match aggregate {
        Aggregate::Sum => start + points,
        // The starting value stands until the first game.
        Aggregate::Mean if games == 0 => start,
        Aggregate::Mean => points / games as f64,
    }
}

fn apply(state: &mut State, pending: &mut Vec<Delta>) {
    for d in pending.drain(..) {
        state.rating[d.player] += d.rating;
        state.sigma[d.player] *= d.sigma_ratio;
        state.points[d.player] += d.points;
    }
}

/// The effect of one game on each of its players, against the ratings in `state`.
fn game_deltas(
    engine: &Engine,
    state: &State,
    names: &[String],
    p: &Slot,
    scratch: &mut Scratch,
    out: &mut Vec<Delta>,
) -> Result<(), Invalid> {
    let one = |player: usize, rating: f64| Delta {
        player,
        rating,
        sigma_ratio: 1.0,
        points: 0.0,
    };
    match engine {
        Engine::Elo { k, scale } => {
            scratch.ratings.clear();
            scratch.ks.clear();
            for &i in p.players {
                let ki = k.of(state.rating[i], state.played[i]);
                if !ki.is_finite() {
                    return Err(Invalid::new(
                        "",
                        format!("the ruleset's K formula gives {ki} for `{}`", names[i]),
                    ));
                }
                scratch.ratings.push(state.rating[i]);
                scratch.ks.push(ki);
            }
            multiplayer::elo_changes(
                &scratch.ratings,
                p.places,
                &scratch.ks,
                *scale,
                &mut scratch.changes,
            );
            out.extend(
                p.players
                    .iter()
                    .zip(scratch.changes.iter())
                    .map(|(&i, &c)| one(i, c)),
            );
        }
        Engine::WengLin(_) | Engine::TrueSkill(_) => {
            let before: Vec<(f64, f64)> = p
                .players
                .iter()
                .map(|&i| (state.rating[i], state.sigma[i]))
                .collect();
            let after = match engine {
                Engine::WengLin(w) => multiplayer::weng_lin(&before, p.ranks, w),
                Engine::TrueSkill(t) => multiplayer::trueskill(&before, p.ranks, t),
                _ => unreachable!("Bayesian systems only"),
            };
            for ((&i, b), a) in p.players.iter().zip(&before).zip(&after) {
                let ratio = if b.1 > 0.0 { a.1 / b.1 } else { 1.0 };
                out.push(Delta {
                    player: i,
                    rating: a.0 - b.0,
                    sigma_ratio: ratio,
                    points: 0.0,
                });
            }
        }
        Engine::Percentile(rules) => {
            let report = percentile::score("", rules, &rows(p, names))
                .map_err(|e| Invalid::new("/scores", e.message()))?;
            for (&i, pl) in p.players.iter().zip(&report.players) {
                let points = pl.points as f64;
                let before = percentile_rating(
                    rules.aggregate,
                    state.start[i],
                    state.points[i],
                    state.played[i],
                );
                let after = percentile_rating(
                    rules.aggregate,
                    state.start[i],
                    state.points[i] + points,
                    state.played[i] + 1,
                );
                out.push(Delta {
                    player: i,
                    rating: after - before,
                    sigma_ratio: 1.0,
                    points,
                });
            }
        }
        Engine::Pot(rules) => {
            let report = pot::score("", rules, &rows(p, names))
                .map_err(|e| Invalid::new("/scores", e.message()))?;
            out.extend(
                p.players
                    .iter()
                    .zip(&report.players)
                    .map(|(&i, pl)| one(i, pl.change as f64)),
            );
        }
    }
    Ok(())
}

fn rows(p: &Slot, names: &[String]) -> Vec<ResultRow> {
    p.players
        .iter()
        .zip(p.scores)
        .map(|(&i, s)| ResultRow {
            name: names[i].clone(),
            score: *s,
        })
        .collect()
}

fn record(
    state: &State,
    names: &[String],
    p: &Slot,
    deltas: &[Delta],
    g: usize,
    prepared: &Prepared,
    engine: &Engine,
) -> GameChanges {
    let players = p
        .players
        .iter()
        .zip(deltas)
        .enumerate()
        .map(|(j, (&i, d))| {
            let before = match engine {
                Engine::Percentile(r) => percentile_rating(
                    r.aggregate,
                    state.start[i],
                    state.points[i],
                    state.played[i],
                ),
                _ => state.rating[i],
            };
            PlayerChange {
                name: names[i].clone(),
                place: p.places[j],
                score: prepared.games[g].has_scores.then(|| p.scores[j]),
                before,
                after: before + d.rating,
                change: d.rating,
            }
        })
        .collect();
    let slot = &prepared.games[g];
    GameChanges {
        game: g + 1,
        period: slot.period.map(|i| prepared.periods[i].clone()),
        label: slot.label.clone(),
        players,
    }
}
