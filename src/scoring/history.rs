//! Ratings over a history of games: Elo and multiplayer Elo, Weng-Lin, TrueSkill, and the
//! score-based ladders (percentile, pot), with rating periods.
use super::game::{Invalid, ResultRow};
use super::{multiplayer, percentile, pot};
use crate::output::{trim_number, Align, Table};
use crate::rules::formula::{Compiled, NumberOrFormula};
use crate::rules::scoring::{Aggregate, ScoringRules, System, K_VARIABLES};
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// A file of games to rate.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct History {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<String>,
    /// Starting ratings; anyone else starts at the ruleset's `initial`.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub ratings: IndexMap<String, StartRating>,
    pub games: Vec<HistoryGame>,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum StartRating {
    Rating(f64),
    /// For the Bayesian systems: a rating and its uncertainty.
    Full { rating: f64, uncertainty: f64 },
}

/// One game: a finishing order (best first; an inner list is a tie) or final scores.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct HistoryGame {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub period: Option<Period>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub order: Option<Vec<Placing>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scores: Option<IndexMap<String, f64>>,
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
#[serde(untagged)]
pub enum Placing {
    One(String),
    Tied(Vec<String>),
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq, Hash)]
#[serde(untagged)]
pub enum Period {
    Number(i64),
    Name(String),
}

impl std::fmt::Display for Period {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Period::Number(n) => write!(f, "{n}"),
            Period::Name(s) => write!(f, "{s}"),
        }
    }
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct RatingReport {
    pub ruleset: String,
    pub system: &'static str,
    pub games_rated: usize,
    /// Every player in the order the history first names them.
    pub players: Vec<PlayerRating>,
    /// Each game's changes (when asked for).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub games: Vec<GameChanges>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PlayerRating {
    pub name: String,
    pub rating: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uncertainty: Option<f64>,
    /// Place in the standings (equal ratings share a place).
    pub rank: usize,
    pub games: u32,
    pub start: f64,
    pub change: f64,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct GameChanges {
    /// 1-based position in the history.
    pub game: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub period: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub label: Option<String>,
    pub players: Vec<PlayerChange>,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct PlayerChange {
    pub name: String,
    /// Finishing place (tied players hold the average of their places).
    pub place: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<f64>,
    pub before: f64,
    pub after: f64,
    pub change: f64,
}

#[derive(Debug, Clone, Copy, Default)]
pub struct RateOptions {
    /// Keep each game's changes in the report.
    pub record_games: bool,
}

/// One game with its players interned and its places worked out.
struct Played {
    players: Vec<usize>,
    /// Average place (1 = first), for Elo.
    places: Vec<f64>,
    /// Competition rank (1, 1, 3), for the Bayesian systems.
    ranks: Vec<usize>,
    scores: Option<Vec<f64>>,
}

/// Player names: exact spellings first (fast), then case- and accent-insensitive.
#[derive(Default)]
struct Names {
    shown: Vec<String>,
    exact: HashMap<String, usize>,
    normal: HashMap<String, usize>,
}

impl Names {
    fn id(&mut self, name: &str) -> usize {
        if let Some(&i) = self.exact.get(name) {
            return i;
        }
        let n = crate::names::normalize(name);
        let id = match self.normal.get(&n) {
            Some(&i) => i,
            None => {
                self.shown.push(name.to_string());
                self.normal.insert(n, self.shown.len() - 1);
                self.shown.len() - 1
            }
        };
        self.exact.insert(name.to_string(), id);
        id
    }
}

/// Turn one game of the history into places, checking it.
fn played(game: &HistoryGame, g: usize, names: &mut Names, needs_scores: bool) -> Result<Played, Invalid> {
    let base = format!("/games/{g}");
    let (players, places, ranks, scores) = match (&game.order, &game.scores) {
        (Some(_), Some(_)) => return Err(Invalid::new(base, "give a game's `order` or its `scores`, not both")),
        (None, None) => return Err(Invalid::new(base, "a game needs an `order` (best first) or `scores`")),
        (Some(_), None) if needs_scores => {
            return Err(Invalid::new(format!("{base}/order"), "this ruleset scores tables: give the game's `scores`, not an `order`"))
        }
        (Some(order), None) => {
            let mut players = Vec::new();
            let mut places = Vec::new();
            let mut ranks = Vec::new();
            for (j, placing) in order.iter().enumerate() {
                let group: Vec<(String, &String)> = match placing {
                    Placing::One(n) => vec![(format!("{base}/order/{j}"), n)],
                    Placing::Tied(ns) => ns.iter().enumerate().map(|(m, n)| (format!("{base}/order/{j}/{m}"), n)).collect(),
                };
                if group.is_empty() {
                    return Err(Invalid::new(format!("{base}/order/{j}"), "an empty tie"));
                }
                let first = players.len() + 1;
                let average = first as f64 + (group.len() as f64 - 1.0) / 2.0;
                for (pointer, name) in group {
                    let id = names.id(name);
                    if players.contains(&id) {
                        return Err(Invalid::new(pointer, format!("`{name}` is listed twice in this game")));
                    }
                    players.push(id);
                    places.push(average);
                    ranks.push(first);
                }
            }
            (players, places, ranks, None)
        }
        (None, Some(scores)) => {
            let mut players = Vec::with_capacity(scores.len());
            let mut values = Vec::with_capacity(scores.len());
            for (name, score) in scores {
                let id = names.id(name);
                let pointer = format!("{base}/scores/{}", name.replace('~', "~0").replace('/', "~1"));
                if players.contains(&id) {
                    return Err(Invalid::new(pointer, format!("`{name}` is listed twice in this game")));
                }
                if !score.is_finite() {
                    return Err(Invalid::new(pointer, "a score must be a number"));
                }
                players.push(id);
                values.push(*score);
            }
            // Places from scores: higher is better, equal scores tie.
            let places = values.iter().map(|s| {
                let above = values.iter().filter(|o| *o > s).count();
                let equal = values.iter().filter(|o| *o == s).count();
                above as f64 + 1.0 + (equal as f64 - 1.0) / 2.0
            });
            let ranks = values.iter().map(|s| values.iter().filter(|o| *o > s).count() + 1).collect();
            (players, places.collect(), ranks, Some(values))
        }
    };
    if players.len() < 2 {
        return Err(Invalid::new(base, format!("a game needs at least two players (found {})", players.len())));
    }
    Ok(Played { players, places, ranks, scores })
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

impl State {
    fn grow(&mut self, n: usize, initial: f64, sigma: f64) {
        while self.rating.len() < n {
            self.start.push(initial);
            self.rating.push(initial);
            self.sigma.push(sigma);
            self.played.push(0);
            self.points.push(0.0);
        }
    }
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
pub fn rate_with(ruleset: &crate::rules::Ruleset, history: &History, options: RateOptions) -> Result<RatingReport, Invalid> {
    let rules: &ScoringRules = ruleset
        .scoring
        .as_ref()
        .ok_or_else(|| Invalid::new("", format!("ruleset `{}` has no `scoring` section", ruleset.name)))?;
    let missing = || Invalid::new("", format!("ruleset `{}` lacks the `{}` parameters", ruleset.name, rules.system.name()));
    let (engine, initial, sigma0) = match rules.system {
        System::Cep => {
            return Err(Invalid::new("", format!("ruleset `{}` scores single CEP scenarios (`arbiter score`); rate with elo, figf, advciv or a Bayesian system", ruleset.name)))
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
    let score_based = matches!(engine, Engine::Percentile(_) | Engine::Pot(_));
    let bayesian = matches!(engine, Engine::WengLin(_) | Engine::TrueSkill(_));

    let mut names = Names::default();
    let mut state = State { start: Vec::new(), rating: Vec::new(), sigma: Vec::new(), played: Vec::new(), points: Vec::new() };
    for (name, start) in &history.ratings {
        let pointer = format!("/ratings/{}", name.replace('~', "~0").replace('/', "~1"));
        let id = names.id(name);
        if id + 1 != names.shown.len() {
            return Err(Invalid::new(pointer, format!("`{name}` is given twice")));
        }
        state.grow(id + 1, initial, sigma0);
        let (r, s) = match *start {
            StartRating::Rating(r) => (r, sigma0),
            StartRating::Full { rating, uncertainty } => (rating, uncertainty),
        };
        if !r.is_finite() || !s.is_finite() || s < 0.0 {
            return Err(Invalid::new(pointer, "a starting rating must be a number (and an uncertainty, 0 or more)"));
        }
        state.start[id] = r;
        state.rating[id] = r;
        state.sigma[id] = s;
    }

    let mut games_out = Vec::new();
    let mut pending: Vec<Delta> = Vec::new();
    let mut deltas: Vec<Delta> = Vec::new();
    let mut buf = Vec::new();
    let mut finished_periods: std::collections::HashSet<&Period> = std::collections::HashSet::new();
    let mut current: Option<&Period> = None;
    let use_periods = rules.periods && !score_based;
    for (g, game) in history.games.iter().enumerate() {
        let p = played(game, g, &mut names, score_based)?;
        state.grow(names.shown.len(), initial, sigma0);
        // A period's games are computed against the ratings at its start: apply the
        // pending changes when the period ends.
        let period = if use_periods { game.period.as_ref() } else { None };
        if period != current {
            apply(&mut state, &mut pending);
            if let Some(c) = current {
                finished_periods.insert(c);
            }
            if let Some(pd) = period {
                if finished_periods.contains(pd) {
                    return Err(Invalid::new(format!("/games/{g}/period"), format!("period {pd} was already closed by the games above: keep a period's games together")));
                }
            }
            current = period;
        }
        deltas.clear();
        game_deltas(&engine, &state, &names, &p, &mut buf, &mut deltas).map_err(|mut e| {
            e.pointer = format!("/games/{g}{}", e.pointer);
            e
        })?;
        if options.record_games {
            games_out.push(record(&state, &names, &p, &deltas, g, game, &engine));
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
        for i in 0..state.rating.len() {
            state.rating[i] = percentile_rating(p.aggregate, state.start[i], state.points[i], state.played[i]);
        }
    }

    let mut order: Vec<usize> = (0..names.shown.len()).collect();
    order.sort_by(|a, b| state.rating[*b].total_cmp(&state.rating[*a]));
    let mut rank = vec![0usize; names.shown.len()];
    for (pos, &i) in order.iter().enumerate() {
        rank[i] = if pos > 0 && state.rating[order[pos - 1]] == state.rating[i] { rank[order[pos - 1]] } else { pos + 1 };
    }
    let players = names
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
    Ok(RatingReport { ruleset: ruleset.name.clone(), system: rules.system.name(), games_rated: history.games.len(), players, games: games_out })
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
fn game_deltas(engine: &Engine, state: &State, names: &Names, p: &Played, buf: &mut Vec<f64>, out: &mut Vec<Delta>) -> Result<(), Invalid> {
    let one = |player: usize, rating: f64| Delta { player, rating, sigma_ratio: 1.0, points: 0.0 };
    match engine {
        Engine::Elo { k, scale } => {
            let ratings: Vec<f64> = p.players.iter().map(|&i| state.rating[i]).collect();
            let ks: Vec<f64> = p.players.iter().map(|&i| k.of(state.rating[i], state.played[i])).collect();
            multiplayer::elo_changes(&ratings, &p.places, &ks, *scale, buf);
            out.extend(p.players.iter().zip(buf.iter()).map(|(&i, &c)| one(i, c)));
        }
        Engine::WengLin(_) | Engine::TrueSkill(_) => {
            let before: Vec<(f64, f64)> = p.players.iter().map(|&i| (state.rating[i], state.sigma[i])).collect();
            let after = match engine {
                Engine::WengLin(w) => multiplayer::weng_lin(&before, &p.ranks, w),
                Engine::TrueSkill(t) => multiplayer::trueskill(&before, &p.ranks, t),
                _ => unreachable!("Bayesian systems only"),
            };
            for ((&i, b), a) in p.players.iter().zip(&before).zip(&after) {
                let ratio = if b.1 > 0.0 { a.1 / b.1 } else { 1.0 };
                out.push(Delta { player: i, rating: a.0 - b.0, sigma_ratio: ratio, points: 0.0 });
            }
        }
        Engine::Percentile(rules) => {
            let report = percentile::score("", rules, &rows(p, names)).map_err(|e| Invalid::new("/scores", e.message))?;
            for (&i, pl) in p.players.iter().zip(&report.players) {
                let points = pl.points as f64;
                let before = percentile_rating(rules.aggregate, state.start[i], state.points[i], state.played[i]);
                let after = percentile_rating(rules.aggregate, state.start[i], state.points[i] + points, state.played[i] + 1);
                out.push(Delta { player: i, rating: after - before, sigma_ratio: 1.0, points });
            }
        }
        Engine::Pot(rules) => {
            let report = pot::score("", rules, &rows(p, names)).map_err(|e| Invalid::new("/scores", e.message))?;
            out.extend(p.players.iter().zip(&report.players).map(|(&i, pl)| one(i, pl.change as f64)));
        }
    }
    Ok(())
}

fn rows(p: &Played, names: &Names) -> Vec<ResultRow> {
    let scores = p.scores.as_deref().unwrap_or(&[]);
    p.players.iter().zip(scores).map(|(&i, s)| ResultRow { name: names.shown[i].clone(), score: *s }).collect()
}

fn record(state: &State, names: &Names, p: &Played, deltas: &[Delta], g: usize, game: &HistoryGame, engine: &Engine) -> GameChanges {
    let players = p
        .players
        .iter()
        .zip(deltas)
        .enumerate()
        .map(|(j, (&i, d))| {
            let before = match engine {
                Engine::Percentile(r) => percentile_rating(r.aggregate, state.start[i], state.points[i], state.played[i]),
                _ => state.rating[i],
            };
            PlayerChange {
                name: names.shown[i].clone(),
                place: p.places[j],
                score: p.scores.as_ref().map(|s| s[j]),
                before,
                after: before + d.rating,
                change: d.rating,
            }
        })
        .collect();
    GameChanges { game: g + 1, period: game.period.as_ref().map(|p| p.to_string()), label: game.label.clone(), players }
}

impl RatingReport {
    /// Final standings, best first.
    pub fn table(&self) -> String {
        let bayesian = self.players.iter().any(|p| p.uncertainty.is_some());
        let mut cols = vec![("#", Align::Right), ("player", Align::Left), ("rating", Align::Right)];
        if bayesian {
            cols.push(("±", Align::Right));
        }
        cols.extend([("games", Align::Right), ("change", Align::Right)]);
        let mut t = Table::new(&cols);
        let mut sorted: Vec<&PlayerRating> = self.players.iter().collect();
        sorted.sort_by_key(|p| p.rank);
        for p in sorted {
            let mut row = vec![p.rank.to_string(), p.name.clone(), trim_number(p.rating, 1)];
            if let Some(u) = p.uncertainty {
                row.push(trim_number(u, 2));
            }
            row.extend([p.games.to_string(), signed(p.change)]);
            t.row(row);
        }
        format!("{} ratings ({}), {} games\n\n{}", self.system, self.ruleset, self.games_rated, t.render())
    }

    /// Each game's changes; only `player`'s lines when given.
    pub fn history_table(&self, player: Option<&str>) -> String {
        let mut t = Table::new(&[
            ("game", Align::Right),
            ("period", Align::Left),
            ("player", Align::Left),
            ("place", Align::Right),
            ("before", Align::Right),
            ("after", Align::Right),
            ("change", Align::Right),
        ]);
        for g in &self.games {
            for (j, c) in g.players.iter().enumerate() {
                if player.is_some_and(|n| !crate::names::same(n, &c.name)) {
                    continue;
                }
                let first = j == 0 || player.is_some();
                t.row([
                    if first { g.game.to_string() } else { String::new() },
                    if first { g.period.clone().or_else(|| g.label.clone()).unwrap_or_default() } else { String::new() },
                    c.name.clone(),
                    trim_number(c.place, 1),
                    trim_number(c.before, 1),
                    trim_number(c.after, 1),
                    signed(c.change),
                ]);
            }
        }
        t.render()
    }
}

fn signed(x: f64) -> String {
    let s = trim_number(x, 1);
    if x >= 0.05 {
        format!("+{s}")
    } else if s == "-0" {
        "0".to_string()
    } else {
        s
    }
}
