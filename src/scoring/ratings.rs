//! The rating loop: Elo and multiplayer Elo, Glicko-2, Weng-Lin, TrueSkill, and the
//! score-based ladders (percentile, pot), game by game or period by period, with idle time
//! (decay, growing deviations), provisional players and each game's prediction.
use super::game::{Invalid, ResultRow};
use super::glicko2::{self, Glicko};
use super::history::{prepare, History};
use super::prepared::Prepared;
use super::rating_report::{GameChanges, PlayerChange, PlayerRating, Prediction, RatingReport};
use super::{elo, multiplayer, percentile, pot, trueskill, weng_lin};
use crate::error::{Error, Place};
use crate::rules::formula::{Compiled, NumberOrFormula};
use crate::rules::scoring::{
    Aggregate, Glicko2Rules, Scale, ScoringRules, System, TrueSkillRules, DECAY_VARIABLES,
    INITIAL_VARIABLES, K_VARIABLES,
};

#[derive(Debug, Clone, Copy, Default)]
pub struct RateOptions {
    /// Keep each game's changes in the report.
    pub record_games: bool,
    /// Predict each game from the ratings before it (for the backtest).
    pub predict: bool,
}

/// Everything the rating systems keep per player.
struct State {
    start: Vec<f64>,
    rating: Vec<f64>,
    sigma: Vec<f64>,
    volatility: Vec<f64>,
    played: Vec<u32>,
    /// Sum of game points (percentile ladder).
    points: Vec<f64>,
    /// Has a rating: given by the history, or set on their first game.
    known: Vec<bool>,
    /// Period position and day of the player's last game.
    last_position: Vec<Option<i64>>,
    last_day: Vec<Option<i64>>,
    /// Sum and count of the known players' ratings (an initial-rating formula reads them).
    known_sum: f64,
    known_count: usize,
}

/// One player's effect of one game: rating change, and the precision (1/σ²) it adds.
/// Games of one period all start from the same σ: their precisions add, where multiplying
/// each game's σ ratio would compound them.
#[derive(Clone, Copy)]
struct Delta {
    player: usize,
    rating: f64,
    precision: f64,
    points: f64,
}

/// The system's parameters in the form the loop wants them.
enum Engine<'a> {
    Elo {
        k: Record,
        initial: Initial,
        decay: Option<Box<Compiled>>,
        scale: f64,
    },
    Glicko2(&'a Glicko2Rules),
    WengLin(&'a crate::rules::scoring::WengLinRules),
    TrueSkill(&'a crate::rules::scoring::TrueSkillRules),
    Percentile(&'a crate::rules::scoring::PercentileRules),
    Pot(&'a crate::rules::scoring::PotRules),
}

/// A number, or a formula of a player's record (`K_VARIABLES`).
enum Record {
    Fixed(f64),
    Formula(Box<Compiled>),
}

impl Record {
    fn of(&self, record: &[f64; 5]) -> f64 {
        match self {
            Record::Fixed(k) => *k,
            Record::Formula(f) => f.eval(record),
        }
    }
}

enum Initial {
    Fixed(f64),
    Formula(Box<Compiled>),
}

/// Rate a history with the ruleset's scoring system, keeping each game's changes.
pub fn rate(
    ruleset: &crate::rules::model::Ruleset,
    history: &History,
) -> crate::error::Result<RatingReport> {
    rate_with(
        ruleset,
        history,
        RateOptions {
            record_games: true,
            ..RateOptions::default()
        },
    )
    .map_err(|e| e.locate(None))
}

/// Rate a history; problems come back with the place in the history they concern.
pub(crate) fn rate_with(
    ruleset: &crate::rules::model::Ruleset,
    history: &History,
    options: RateOptions,
) -> Result<RatingReport, Invalid> {
    let prepared = prepare(history)?;
    rate_prepared(ruleset, &prepared, options)
}

pub(crate) fn scoring_rules(
    ruleset: &crate::rules::model::Ruleset,
) -> Result<&ScoringRules, Invalid> {
    ruleset.scoring.as_ref().ok_or_else(|| {
        Invalid::new(
            "",
            format!("ruleset `{}` has no `scoring` section", ruleset.name),
        )
    })
}

/// The engine's parameters, initial rating and initial uncertainty.
fn engine_of<'a>(
    name: &str,
    rules: &'a ScoringRules,
) -> Result<(Engine<'a>, f64, f64, f64), Invalid> {
    let missing = || {
        Invalid::new(
            "",
            format!(
                "ruleset `{name}` lacks the `{}` parameters",
                rules.system.name()
            ),
        )
    };
    check_parameters(name, rules)?;
    let (engine, initial, sigma, volatility) = match rules.system {
        System::Cep => {
            return Err(Invalid::new("", format!("ruleset `{name}` scores single CEP scenarios (`arbiter score`); rate with elo, figf, advciv or a Bayesian system")))
        }
        System::Elo => {
            let e = rules.elo.as_ref().ok_or_else(missing)?;
            let k = match &e.k {
                NumberOrFormula::Number(k) => Record::Fixed(*k),
                NumberOrFormula::Formula(f) => Record::Formula(Box::new(f.compile(K_VARIABLES))),
            };
            let (initial, fixed) = match &e.initial {
                NumberOrFormula::Number(n) => (Initial::Fixed(*n), *n),
                NumberOrFormula::Formula(f) => {
                    (Initial::Formula(Box::new(f.compile(INITIAL_VARIABLES))), f64::NAN)
                }
            };
            let decay = e.decay.as_ref().map(|f| Box::new(f.compile(DECAY_VARIABLES)));
            (
                Engine::Elo {
                    k,
                    initial,
                    decay,
                    scale: e.scale,
                },
                fixed,
                0.0,
                0.0,
            )
        }
        System::Glicko2 => {
            let g = rules.glicko2.as_ref().ok_or_else(missing)?;
            (Engine::Glicko2(g), g.initial, g.deviation, g.volatility)
        }
        System::WengLin => {
            let w = rules.weng_lin.as_ref().ok_or_else(missing)?;
            (Engine::WengLin(w), w.initial, w.uncertainty, 0.0)
        }
        System::TrueSkill => {
            let t = rules.trueskill.as_ref().ok_or_else(missing)?;
            (Engine::TrueSkill(t), t.initial, t.uncertainty, 0.0)
        }
        System::Percentile => {
            let p = rules.percentile.as_ref().ok_or_else(missing)?;
            (Engine::Percentile(p), p.initial, 0.0, 0.0)
        }
        System::Pot => {
            let p = rules.pot.as_ref().ok_or_else(missing)?;
            (Engine::Pot(p), p.initial as f64, 0.0, 0.0)
        }
    };
    Ok((engine, initial, sigma, volatility))
}

/// Parameters outside their sense (a negative K, a draw chance of 1, a zero spread) are
/// refused before any game is rated, naming the ruleset key.
/// One check: the key, its value, what it must be, and the test.
type Check<'a> = (&'a str, f64, &'a str, fn(f64) -> bool);

fn check_parameters(name: &str, rules: &ScoringRules) -> Result<(), Invalid> {
    let mut checks: Vec<Check> = Vec::new();
    let positive: fn(f64) -> bool = |x| x.is_finite() && x > 0.0;
    let not_negative: fn(f64) -> bool = |x| x.is_finite() && x >= 0.0;
    let finite: fn(f64) -> bool = f64::is_finite;
    let above = "a number above 0";
    let at_least = "a number of 0 or more";
    match rules.system {
        System::Elo => {
            if let Some(e) = &rules.elo {
                if let NumberOrFormula::Number(k) = &e.k {
                    checks.push(("elo.k", *k, above, positive));
                }
                if let NumberOrFormula::Number(i) = &e.initial {
                    checks.push(("elo.initial", *i, "a number", finite));
                }
                checks.push(("elo.scale", e.scale, above, positive));
            }
        }
        System::Glicko2 => {
            if let Some(g) = &rules.glicko2 {
                checks.push(("glicko2.initial", g.initial, "a number", finite));
                checks.push(("glicko2.deviation", g.deviation, above, positive));
                checks.push(("glicko2.volatility", g.volatility, above, positive));
                checks.push(("glicko2.tau", g.tau, above, positive));
                checks.push(("glicko2.convergence", g.convergence, above, positive));
                checks.push(("glicko2.max_volatility", g.max_volatility, above, positive));
                if let Some(d) = g.days_per_period {
                    checks.push(("glicko2.days_per_period", d, above, positive));
                }
                if let Some(c) = g.conservative {
                    checks.push(("glicko2.conservative", c, at_least, not_negative));
                }
            }
        }
        System::WengLin => {
            if let Some(w) = &rules.weng_lin {
                checks.push(("weng_lin.initial", w.initial, "a number", finite));
                checks.push(("weng_lin.uncertainty", w.uncertainty, above, positive));
                checks.push(("weng_lin.beta", w.beta, above, positive));
                checks.push(("weng_lin.tolerance", w.tolerance, at_least, not_negative));
                checks.push(("weng_lin.dynamics", w.dynamics, at_least, not_negative));
                checks.push((
                    "weng_lin.draw_margin",
                    w.draw_margin,
                    at_least,
                    not_negative,
                ));
                checks.push((
                    "weng_lin.window",
                    w.window as f64,
                    "a whole number above 0",
                    positive,
                ));
                if let Some(c) = w.conservative {
                    checks.push(("weng_lin.conservative", c, at_least, not_negative));
                }
            }
        }
        System::TrueSkill => {
            if let Some(t) = &rules.trueskill {
                checks.push(("trueskill.initial", t.initial, "a number", finite));
                checks.push(("trueskill.uncertainty", t.uncertainty, above, positive));
                checks.push(("trueskill.beta", t.beta, above, positive));
                checks.push(("trueskill.dynamics", t.dynamics, at_least, not_negative));
                checks.push((
                    "trueskill.draw_probability",
                    t.draw_probability,
                    "a chance from 0 up to (not including) 1",
                    |p| (0.0..1.0).contains(&p),
                ));
                if let Some(c) = t.conservative {
                    checks.push(("trueskill.conservative", c, at_least, not_negative));
                }
            }
        }
        _ => {}
    }
    for (key, value, want, ok) in checks {
        if !ok(value) {
            return Err(Invalid::new(
                "",
                format!("ruleset `{name}`: `scoring.{key}` is {value}; it must be {want}"),
            ));
        }
    }
    if let Some(g) = rules
        .glicko2
        .as_ref()
        .filter(|_| rules.system == System::Glicko2)
    {
        if g.volatility > g.max_volatility {
            return Err(Invalid::new(
                "",
                format!("ruleset `{name}`: a new player's `scoring.glicko2.volatility` ({}) is above `max_volatility` ({})", g.volatility, g.max_volatility),
            ));
        }
    }
    Ok(())
}

/// A starting rating must be on the system's own scale: an Elo 1613 handed to TrueSkill
/// (μ 25) is a mistake to point at, not a number to mix in.
fn check_start(
    system: System,
    scale: &Scale,
    name: &str,
    start: &super::history::FullStart,
) -> Result<(), Invalid> {
    let pointer = || crate::pointer::pointer_push("/ratings", name);
    let s = system.name();
    if let Some([low, high]) = scale.range {
        if !(low..=high).contains(&start.rating) {
            return Err(Invalid::new(
                pointer(),
                format!(
                    "{} is not a `{s}` rating: this ruleset's `{s}` ratings lie in [{low}, {high}] (is it from another system's scale?)",
                    start.rating
                ),
            ));
        }
    }
    match (start.deviation, scale.deviation) {
        (Some(_), None) => {
            return Err(Invalid::new(
                pointer(),
                format!("`{s}` keeps no deviation: give `{name}` a plain rating"),
            ))
        }
        (Some(d), Some(most)) if d > most => {
            return Err(Invalid::new(
                pointer(),
                format!("a deviation of {d} is more than a new `{s}` player's ({most}): is it from another system's scale?"),
            ))
        }
        _ => {}
    }
    match (start.volatility, scale.max_volatility) {
        (Some(_), None) => Err(Invalid::new(
            pointer(),
            format!("`{s}` keeps no volatility (only glicko2 does)"),
        )),
        (Some(v), Some(most)) if v > most => Err(Invalid::new(
            pointer(),
            format!("a volatility of {v} is more than this ruleset's `max_volatility` ({most})"),
        )),
        _ => Ok(()),
    }
}

/// Rate a prepared history (see `history::prepare` and the CSV reader).
pub(crate) fn rate_prepared(
    ruleset: &crate::rules::model::Ruleset,
    prepared: &Prepared,
    options: RateOptions,
) -> Result<RatingReport, Invalid> {
    let rules = scoring_rules(ruleset)?;
    Rater::new(&ruleset.name, rules, prepared, options)?.run()
}

/// `rate_prepared` recording every game, each handed to `sink` as soon as its rows are final
/// rather than kept in the report (a million games' rows need not be held at once).
pub(crate) fn rate_prepared_into(
    ruleset: &crate::rules::model::Ruleset,
    prepared: &Prepared,
    options: RateOptions,
    sink: GameSink,
) -> Result<RatingReport, Invalid> {
    let rules = scoring_rules(ruleset)?;
    let mut rater = Rater::new(
        &ruleset.name,
        rules,
        prepared,
        RateOptions {
            record_games: true,
            ..options
        },
    )?;
    rater.sink = Some(sink);
    rater.run()
}

/// Rate with another system of the same ruleset (the backtest compares them).
pub(crate) fn rate_prepared_as(
    ruleset: &crate::rules::model::Ruleset,
    system: System,
    prepared: &Prepared,
    options: RateOptions,
) -> Result<RatingReport, Invalid> {
    let rules = scoring_rules(ruleset)?.with_system(system);
    Rater::new(&ruleset.name, &rules, prepared, options)?.run()
}

/// Each game's log-loss, forecast from the ratings before it, rating with `rules` (the fit
/// tries many parameter sets on one history).
pub(crate) fn forecast_losses(
    name: &str,
    rules: &ScoringRules,
    prepared: &Prepared,
) -> Result<Vec<f64>, Invalid> {
    let options = RateOptions {
        record_games: false,
        predict: true,
    };
    let report = Rater::new(name, rules, prepared, options)?.run()?;
    Ok(report.predictions.iter().map(|p| p.log_loss).collect())
}

/// Whether `ruleset` can rate games of finishing orders with `system`, checked before any
/// games exist (a tactics ladder asks before its battles, not after them).
pub(crate) fn check_system(
    ruleset: &crate::rules::model::Ruleset,
    system: System,
) -> Result<(), Invalid> {
    if !System::RATINGS.contains(&system) {
        let known: Vec<&str> = System::RATINGS.iter().map(|s| s.name()).collect();
        return Err(Invalid::new(
            "",
            format!(
                "`{}` does not rate finishing orders; rating systems are {}",
                system.name(),
                known.join(", ")
            ),
        ));
    }
    let rules = scoring_rules(ruleset)?.with_system(system);
    engine_of(&ruleset.name, &rules).map(|_| ())
}

/// The rating of one history with one system.
struct Rater<'a> {
    name: &'a str,
    rules: &'a ScoringRules,
    engine: Engine<'a>,
    prepared: &'a Prepared,
    options: RateOptions,
    state: State,
    positions: Vec<i64>,
    /// Every period is a whole number, so their order can be checked (worked out once: for
    /// each game it made a million games' rating quadratic in the periods).
    numbered: bool,
    /// Players of each period (a K formula's `field`).
    fields: Vec<usize>,
    initial: f64,
    /// Where recorded games go as soon as their rows are final, instead of the report.
    sink: Option<GameSink<'a>>,
}

/// Takes each recorded game once its rows are final (a Glicko-2 period's at its end).
pub(crate) type GameSink<'a> = &'a mut dyn FnMut(GameChanges);

/// A Glicko-2 result waiting for its period to end: player, opponent, score.
type GlickoResult = (usize, usize, f64);

impl<'a> Rater<'a> {
    fn new(
        name: &'a str,
        rules: &'a ScoringRules,
        prepared: &'a Prepared,
        options: RateOptions,
    ) -> Result<Rater<'a>, Invalid> {
        let (engine, initial, sigma0, volatility0) = engine_of(name, rules)?;
        let n = prepared.names.len();
        let mut state = State {
            start: vec![initial; n],
            rating: vec![initial; n],
            sigma: vec![sigma0; n],
            volatility: vec![volatility0; n],
            played: vec![0; n],
            points: vec![0.0; n],
            known: vec![false; n],
            last_position: vec![None; n],
            last_day: vec![None; n],
            known_sum: 0.0,
            known_count: 0,
        };
        let scale = rules.scale();
        for &(id, start) in &prepared.starts {
            check_start(rules.system, &scale, &prepared.names.shown[id], &start)?;
            state.start[id] = start.rating;
            state.rating[id] = start.rating;
            state.sigma[id] = start.deviation.unwrap_or(sigma0);
            state.volatility[id] = start.volatility.unwrap_or(volatility0);
            state.known[id] = true;
            state.known_sum += start.rating;
            state.known_count += 1;
        }
        let mut fields = vec![0usize; prepared.periods.len()];
        let mut seen: Vec<Option<usize>> = vec![None; n];
        for game in &prepared.games {
            if let Some(pd) = game.period {
                for &i in &prepared.players[game.from..game.to] {
                    if seen[i] != Some(pd) {
                        // Periods are contiguous (checked while rating), so one mark a player.
                        seen[i] = Some(pd);
                        fields[pd] += 1;
                    }
                }
            }
        }
        Ok(Rater {
            fields,
            name,
            rules,
            engine,
            prepared,
            options,
            state,
            positions: prepared.period_positions(),
            numbered: prepared.periods.iter().all(|p| p.parse::<i64>().is_ok()),
            initial,
            sink: None,
        })
    }

    fn run(mut self) -> Result<RatingReport, Invalid> {
        let prepared = self.prepared;
        let score_based = matches!(self.engine, Engine::Percentile(_) | Engine::Pot(_));
        let mut games_out: Vec<GameChanges> = Vec::new();
        let mut predictions = Vec::new();
        let mut pending: Vec<Delta> = Vec::new();
        let mut glicko_pending: Vec<GlickoResult> = Vec::new();
        // Recorded games whose rows wait for their period's end (Glicko-2).
        let mut open_rows: Vec<usize> = Vec::new();
        let mut deltas: Vec<Delta> = Vec::new();
        let mut scratch = Scratch::default();
        let mut notes: Vec<String> = Vec::new();
        // The latest date and period so far, and the game (in file order) that set each.
        let mut seen_day: Option<(i64, usize)> = None;
        let mut seen_position: Option<(i64, usize)> = None;
        let mut closed = vec![false; prepared.periods.len()];
        let mut current: Option<usize> = None;
        let mut latest_position: Option<i64> = None;
        let use_periods = self.rules.periods && !score_based;
        for (g, game) in prepared.games.iter().enumerate() {
            // Errors point at the game's place in the file (it may have been sorted).
            let source = game.source;
            let at_game = |e: Invalid| e.under_pointer(&format!("/games/{source}"));
            self.check_order(g, &mut seen_day, &mut seen_position)?;
            if score_based && !game.has_scores {
                return Err(Invalid::new(
                    format!("/games/{source}/order"),
                    "this ruleset scores tables: give the game's `scores`, not an `order`",
                ));
            }
            // A period's games are computed against the ratings at its start: apply the
            // pending changes when the period ends.
            let period = if use_periods { game.period } else { None };
            if period != current {
                self.close(
                    &mut pending,
                    &mut glicko_pending,
                    &mut games_out,
                    &mut open_rows,
                )
                .map_err(at_game)?;
                if let Some(c) = current {
                    closed[c] = true;
                }
                if let Some(pd) = period {
                    if closed[pd] {
                        return Err(Invalid::new(
                            format!("/games/{source}/period"),
                            format!("period {} was already closed by the games above: keep a period's games together", prepared.periods[pd]),
                        ));
                    }
                }
                current = period;
            }
            if let Some(pd) = game.period {
                let p = self.positions[pd];
                latest_position = Some(latest_position.map_or(p, |l: i64| l.max(p)));
            }
            let slot = Slot {
                players: &prepared.players[game.from..game.to],
                places: &prepared.places[game.from..game.to],
                ranks: &prepared.ranks[game.from..game.to],
                scores: prepared.scores_of(game),
            };
            scratch.records.clear();
            let field = game.period.map_or(slot.players.len(), |pd| self.fields[pd]);
            for &i in slot.players {
                self.grow_sigma(i, period.is_some(), latest_position);
                let record = self
                    .arrive(i, game.period.is_some(), latest_position, game.day, field)
                    .map_err(at_game)?;
                scratch.records.push(record);
            }
            if self.options.predict {
                predictions.push(self.predict(&slot));
            }
            deltas.clear();
            self.game_deltas(&slot, &mut scratch, &mut deltas, &mut glicko_pending)
                .map_err(at_game)?;
            for note in scratch.notes.drain(..) {
                notes.push(format!("game {}: {note}", source + 1));
            }
            // Bayesian systems rate a period's games in order (a game's result is evidence
            // about the skills the next game sees); Elo and Glicko-2 rate a period against
            // its start.
            let in_order = self.bayesian();
            if self.options.record_games {
                let from_start = current.is_some() && !in_order;
                games_out.push(self.record(&slot, &deltas, g, from_start));
                if matches!(self.engine, Engine::Glicko2(_)) {
                    open_rows.push(games_out.len() - 1);
                }
            }
            for &i in slot.players {
                self.state.played[i] += 1;
            }
            pending.extend_from_slice(&deltas);
            if current.is_none() || in_order {
                self.close(
                    &mut pending,
                    &mut glicko_pending,
                    &mut games_out,
                    &mut open_rows,
                )
                .map_err(at_game)?;
            }
            self.flush(&mut games_out, &open_rows);
        }
        let last = prepared.games.last().map_or(0, |g| g.source);
        let at_last = |e: Invalid| e.under_pointer(&format!("/games/{last}"));
        self.close(
            &mut pending,
            &mut glicko_pending,
            &mut games_out,
            &mut open_rows,
        )
        .map_err(at_last)?;
        self.flush(&mut games_out, &open_rows);
        // Idle time runs to the end of the history: the standings are as of now.
        let end_day = prepared.games.iter().filter_map(|g| g.day).max();
        for i in 0..prepared.names.len() {
            if self.state.known[i] && self.state.played[i] > 0 {
                self.idle(i, latest_position, end_day, false)
                    .map_err(at_last)?;
            }
        }
        if let Engine::Percentile(p) = &self.engine {
            for i in 0..prepared.names.len() {
                self.state.rating[i] = percentile_rating(
                    p.aggregate,
                    self.state.start[i],
                    self.state.points[i],
                    self.state.played[i],
                );
            }
        }
        let mut report = self.report(games_out, predictions);
        report.notes = notes;
        Ok(report)
    }

    /// TrueSkill's and Weng-Lin's dynamics τ: σ² grows by τ² before each game, or with rating periods by τ²
    /// for each period since the player's last (none within a period: its games are evidence
    /// about one skill). An idle player's σ grows no further than a newcomer's.
    fn grow_sigma(&mut self, i: usize, by_period: bool, now: Option<i64>) {
        let (dynamics, uncertainty) = match &self.engine {
            Engine::TrueSkill(t) => (t.dynamics, t.uncertainty),
            Engine::WengLin(w) => (w.dynamics, w.uncertainty),
            _ => return,
        };
        if dynamics == 0.0 {
            return;
        }
        let steps = match (by_period, self.state.last_position[i], now) {
            (false, ..) => 1,
            (true, Some(last), Some(now)) => (now - last).max(0),
            (true, ..) => 1,
        };
        if steps == 0 {
            return;
        }
        let s = self.state.sigma[i];
        let tau2 = dynamics * dynamics;
        let once = (s * s + tau2).sqrt();
        let grown = (s * s + steps as f64 * tau2).sqrt();
        self.state.sigma[i] = grown.min(once.max(uncertainty));
    }

    /// A player sits down at a game: a newcomer gets the initial rating, a returning player
    /// their idle time's decay. Their record (for K) comes back.
    fn arrive(
        &mut self,
        i: usize,
        in_period: bool,
        position: Option<i64>,
        day: Option<i64>,
        field: usize,
    ) -> Result<[f64; 5], Invalid> {
        if !self.state.known[i] {
            let r = match &self.engine {
                Engine::Elo {
                    initial: Initial::Formula(f),
                    ..
                } => {
                    let count = self.state.known_count;
                    let mean = if count == 0 {
                        f64::NAN
                    } else {
                        self.state.known_sum / count as f64
                    };
                    let r = f.eval(&[mean, count as f64]);
                    if !r.is_finite() {
                        return Err(Invalid::new(
                            "",
                            format!(
                                "the ruleset's initial-rating formula gives {r} for `{}` ({count} players rated before)",
                                self.prepared.names.shown[i]
                            ),
                        ));
                    }
                    r
                }
                _ => self.initial,
            };
            self.state.start[i] = r;
            self.state.rating[i] = r;
            self.state.known[i] = true;
            self.state.known_sum += r;
            self.state.known_count += 1;
        }
        let (idle_periods, idle_days) = self.idle(i, position, day, in_period)?;
        Ok([
            self.state.rating[i],
            self.state.played[i] as f64,
            idle_periods as f64,
            idle_days as f64,
            field as f64,
        ])
    }

    /// Apply the idle time since `i`'s last game up to `position` / `day`; returns it.
    fn idle(
        &mut self,
        i: usize,
        position: Option<i64>,
        day: Option<i64>,
        in_period: bool,
    ) -> Result<(i64, i64), Invalid> {
        let periods = match (self.state.last_position[i], position) {
            (Some(last), Some(now)) => (now - last - i64::from(in_period)).max(0),
            _ => 0,
        };
        let days = match (self.state.last_day[i], day) {
            (Some(last), Some(now)) => (now - last).max(0),
            _ => 0,
        };
        if let Some(p) = position {
            self.state.last_position[i] = Some(p);
        }
        if let Some(d) = day {
            self.state.last_day[i] = Some(d);
        }
        if self.state.played[i] == 0 || (periods == 0 && days == 0) {
            return Ok((periods, days));
        }
        match &self.engine {
            Engine::Elo {
                decay: Some(f),
                initial,
                ..
            } => {
                let initial = match initial {
                    Initial::Fixed(x) => *x,
                    Initial::Formula(_) => self.state.start[i],
                };
                let before = self.state.rating[i];
                let after = f.eval(&[
                    before,
                    self.state.played[i] as f64,
                    periods as f64,
                    days as f64,
                    initial,
                ]);
                if !after.is_finite() {
                    return Err(Invalid::new(
                        "",
                        format!(
                            "the ruleset's decay formula gives {after} for `{}`",
                            self.prepared.names.shown[i]
                        ),
                    ));
                }
                self.state.rating[i] = after;
                self.state.known_sum += after - before;
            }
            Engine::Glicko2(rules) => {
                // Numbered periods count where the games have them; else whole spans of
                // `days_per_period` between dated games.
                let elapsed = match rules.days_per_period {
                    _ if periods > 0 => periods as f64,
                    Some(span) => (days as f64 / span).floor(),
                    None => 0.0,
                };
                if elapsed > 0.0 {
                    let g = glicko2::idle(self.glicko(i), elapsed, rules);
                    self.state.sigma[i] = g.deviation;
                }
            }
            _ => {}
        }
        Ok((periods, days))
    }

    /// Games are rated in the order played: a date or a numbered period earlier than one
    /// above it is an error at its line (idle time would otherwise follow file order).
    fn check_order(
        &self,
        g: usize,
        seen_day: &mut Option<(i64, usize)>,
        seen_position: &mut Option<(i64, usize)>,
    ) -> Result<(), Invalid> {
        let game = &self.prepared.games[g];
        let fix = "order the file by date and period, or rate with `sort`";
        // The way out is an option: the CLI names it `--sort`, a script its key.
        let out_of_order = |pointer: String, message: String| {
            Error::options(&["sort"], message).with_place(Place::Pointer(pointer))
        };
        if let Some(day) = game.day {
            match *seen_day {
                Some((latest, at)) if day < latest => {
                    return Err(out_of_order(
                        format!("/games/{}/date", game.source),
                        format!(
                            "{} is before {} (game {} above it): {fix}",
                            super::dates::date_text(day),
                            super::dates::date_text(latest),
                            at + 1
                        ),
                    ))
                }
                _ => *seen_day = Some((day, game.source)),
            }
        }
        if let (Some(pd), true) = (game.period, self.numbered) {
            let position = self.positions[pd];
            match *seen_position {
                Some((latest, at)) if position < latest => {
                    return Err(out_of_order(
                        format!("/games/{}/period", game.source),
                        format!(
                            "period {position} comes after period {latest} (game {}): {fix}",
                            at + 1
                        ),
                    ))
                }
                _ => *seen_position = Some((position, game.source)),
            }
        }
        Ok(())
    }

    fn bayesian(&self) -> bool {
        matches!(self.engine, Engine::WengLin(_) | Engine::TrueSkill(_))
    }

    fn glicko(&self, i: usize) -> Glicko {
        Glicko {
            rating: self.state.rating[i],
            deviation: self.state.sigma[i],
            volatility: self.state.volatility[i],
        }
    }

    /// The end of a rating period (or of a game outside one): its changes take effect.
    fn close(
        &mut self,
        pending: &mut Vec<Delta>,
        glicko_pending: &mut Vec<GlickoResult>,
        games_out: &mut [GameChanges],
        open_rows: &mut Vec<usize>,
    ) -> Result<(), Invalid> {
        for d in pending.drain(..) {
            let s = &mut self.state;
            s.rating[d.player] += d.rating;
            if d.precision != 0.0 {
                let sigma = s.sigma[d.player];
                let precision = 1.0 / (sigma * sigma) + d.precision;
                let after = 1.0 / precision.sqrt();
                if precision > 0.0 && after.is_finite() && after > 0.0 {
                    s.sigma[d.player] = after;
                }
            }
            s.points[d.player] += d.points;
            s.known_sum += d.rating;
        }
        if let Engine::Glicko2(rules) = &self.engine {
            if !glicko_pending.is_empty() {
                // Every player's period against the ratings at its start, then all at once.
                glicko_pending.sort_by_key(|r| r.0);
                let mut updates = Vec::new();
                let mut results = Vec::new();
                for chunk in glicko_pending.chunk_by(|a, b| a.0 == b.0) {
                    let i = chunk[0].0;
                    results.clear();
                    results.extend(chunk.iter().map(|&(_, o, s)| glicko2::PeriodGame {
                        opponent: self.glicko(o),
                        score: s,
                    }));
                    let after = glicko2::rate_period(self.glicko(i), &results, rules);
                    if !(after.rating.is_finite()
                        && after.deviation.is_finite()
                        && after.volatility.is_finite())
                    {
                        return Err(self.overflow(i));
                    }
                    updates.push((i, after));
                }
                for (i, after) in updates {
                    self.state.known_sum += after.rating - self.state.rating[i];
                    self.state.rating[i] = after.rating;
                    self.state.sigma[i] = after.deviation;
                    self.state.volatility[i] = after.volatility;
                }
                glicko_pending.clear();
            }
            // A period's rows show where it left each player.
            for &g in open_rows.iter() {
                for row in &mut games_out[g].players {
                    let i = row.id;
                    row.after = self.state.rating[i];
                    row.change = row.after - row.before;
                    row.deviation = Some(self.state.sigma[i]);
                }
            }
        }
        open_rows.clear();
        Ok(())
    }

    fn overflow(&self, i: usize) -> Invalid {
        Invalid::new(
            "",
            format!(
                "rating `{}` here takes {} past the numbers it can compute: check the starting ratings and the ruleset's parameters",
                self.prepared.names.shown[i],
                self.rules.system.name()
            ),
        )
    }

    /// Each pair's chance, from the ratings before the game, against what happened.
    fn predict(&self, p: &Slot) -> Prediction {
        let mut out = Prediction::default();
        let n = p.players.len();
        let mut pairs = 0u32;
        for a in 0..n {
            for b in a + 1..n {
                let (i, j) = (p.players[a], p.players[b]);
                let chance = self.chance(i, j);
                // Places: lower is better; equal places are a draw.
                let actual = if p.places[a] < p.places[b] {
                    1.0
                } else if p.places[a] > p.places[b] {
                    0.0
                } else {
                    0.5
                };
                out.add(chance, actual);
                pairs += 1;
            }
        }
        out.finish(pairs);
        out
    }

    /// The chance that `i` finishes above `j`, by the system's own model.
    fn chance(&self, i: usize, j: usize) -> f64 {
        let s = &self.state;
        match &self.engine {
            Engine::Elo { scale, .. } => elo::expected(s.rating[i], s.rating[j], *scale),
            Engine::Glicko2(_) => glicko2::expected(self.glicko(i), self.glicko(j)),
            Engine::WengLin(w) => {
                weng_lin::expected((s.rating[i], s.sigma[i]), (s.rating[j], s.sigma[j]), w)
            }
            Engine::TrueSkill(t) => {
                trueskill::expected((s.rating[i], s.sigma[i]), (s.rating[j], s.sigma[j]), t)
            }
            // The ladders make no forecast: the higher ladder is favoured 1 to 1.
            Engine::Percentile(_) | Engine::Pot(_) => 0.5,
        }
    }

    /// The effect of one game on each of its players, against the ratings in `state`.
    fn game_deltas(
        &self,
        p: &Slot,
        scratch: &mut Scratch,
        out: &mut Vec<Delta>,
        glicko_pending: &mut Vec<GlickoResult>,
    ) -> Result<(), Invalid> {
        let state = &self.state;
        let names = &self.prepared.names.shown;
        let one = |player: usize, rating: f64| Delta {
            player,
            rating,
            precision: 0.0,
            points: 0.0,
        };
        match &self.engine {
            Engine::Elo { k, scale, .. } => {
                scratch.ratings.clear();
                scratch.ks.clear();
                for (&i, record) in p.players.iter().zip(&scratch.records) {
                    let ki = k.of(record);
                    if !(ki.is_finite() && ki >= 0.0) {
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
            Engine::Glicko2(_) => {
                // Every other player of the table is one result: win, loss or draw by place.
                for (a, &i) in p.players.iter().enumerate() {
                    for (b, &j) in p.players.iter().enumerate() {
                        if a != b {
                            let s = if p.places[a] < p.places[b] {
                                1.0
                            } else if p.places[a] > p.places[b] {
                                0.0
                            } else {
                                0.5
                            };
                            glicko_pending.push((i, j, s));
                        }
                    }
                }
            }
            Engine::WengLin(_) | Engine::TrueSkill(_) => {
                let before: Vec<(f64, f64)> = p
                    .players
                    .iter()
                    .map(|&i| (state.rating[i], state.sigma[i]))
                    .collect();
                let ranks: Vec<usize> = p.ranks.iter().map(|&r| r as usize).collect();
                let after = match &self.engine {
                    Engine::WengLin(w) => weng_lin::rate(&before, &ranks, w),
                    Engine::TrueSkill(t) => {
                        // σ has grown by τ already (per game, or per period): see `arrive`.
                        let still = TrueSkillRules {
                            dynamics: 0.0,
                            ..(*t).clone()
                        };
                        let teams: Vec<Vec<(f64, f64)>> = before.iter().map(|&b| vec![b]).collect();
                        trueskill::rate(&teams, &ranks, &still)
                            .map_err(|m| Invalid::new("", m))?
                            .into_iter()
                            .map(|t| t[0])
                            .collect()
                    }
                    _ => unreachable!("Bayesian systems only"),
                };
                for ((&i, b), a) in p.players.iter().zip(&before).zip(&after) {
                    if !(a.0.is_finite() && a.1.is_finite() && a.1 > 0.0) {
                        return Err(self.overflow(i));
                    }
                    out.push(Delta {
                        player: i,
                        rating: a.0 - b.0,
                        precision: 1.0 / (a.1 * a.1) - 1.0 / (b.1 * b.1),
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
                        precision: 0.0,
                        points,
                    });
                }
            }
            Engine::Pot(rules) => {
                let report = pot::score("", rules, &rows(p, names))
                    .map_err(|e| Invalid::new("/scores", e.message()))?;
                if !report.unequal.is_empty() {
                    scratch.notes.push(format!(
                        "the remainder cannot go to whole groups of equal scores: one point each to {} (ranking order)",
                        report.unequal.join(", ")
                    ));
                }
                out.extend(
                    p.players
                        .iter()
                        .zip(&report.players)
                        .map(|(&i, pl)| one(i, pl.change as f64)),
                );
            }
        }
        for d in out.iter() {
            let after = state.rating[d.player] + d.rating;
            if !(after.is_finite() && d.precision.is_finite()) {
                return Err(self.overflow(d.player));
            }
        }
        Ok(())
    }

    /// Hand the recorded games to the sink, if there is one, once none waits for its
    /// period's end (rows waiting are indices into `games`).
    fn flush(&mut self, games: &mut Vec<GameChanges>, open_rows: &[usize]) {
        if let Some(sink) = self.sink.as_mut() {
            if open_rows.is_empty() {
                for g in games.drain(..) {
                    sink(g);
                }
            }
        }
    }

    fn record(&self, p: &Slot, deltas: &[Delta], g: usize, in_period: bool) -> GameChanges {
        let state = &self.state;
        let names = &self.prepared.names.shown;
        let uncertain = self.rules.scale().deviation.is_some();
        let players = p
            .players
            .iter()
            .enumerate()
            .map(|(j, &i)| {
                let before = match &self.engine {
                    Engine::Percentile(r) => percentile_rating(
                        r.aggregate,
                        state.start[i],
                        state.points[i],
                        state.played[i],
                    ),
                    _ => state.rating[i],
                };
                // Glicko-2 rows are filled in when their period ends.
                let d = deltas.get(j);
                let change = d.map_or(0.0, |d| d.rating);
                PlayerChange {
                    id: i,
                    name: names[i].clone(),
                    place: p.places[j],
                    score: self.prepared.games[g].has_scores.then(|| p.scores[j]),
                    before,
                    after: before + change,
                    change,
                    deviation: uncertain.then(|| {
                        let sigma = state.sigma[i];
                        let gained = d.map_or(0.0, |d| d.precision);
                        let after = 1.0 / (1.0 / (sigma * sigma) + gained).sqrt();
                        if after.is_finite() && after > 0.0 {
                            after
                        } else {
                            sigma
                        }
                    }),
                }
            })
            .collect();
        let slot = &self.prepared.games[g];
        GameChanges {
            game: slot.source + 1,
            period: slot.period.map(|i| self.prepared.periods[i].clone()),
            label: slot.label.clone(),
            from_period_start: in_period,
            players,
        }
    }

    fn report(self, games: Vec<GameChanges>, predictions: Vec<Prediction>) -> RatingReport {
        let state = &self.state;
        let n = self.prepared.names.len();
        let scale = self.rules.scale();
        let threshold = self.rules.provisional_games.unwrap_or(0);
        let provisional: Vec<bool> = (0..n).map(|i| state.played[i] < threshold).collect();
        // Bayesian systems rank by the conservative rating μ − c·σ (a player with few games
        // is not second on a lucky μ); the others by rating.
        let by_conservative = self.bayesian() && scale.conservative.is_some();
        let key: Vec<f64> = (0..n)
            .map(|i| match scale.conservative {
                Some(c) if by_conservative => state.rating[i] - c * state.sigma[i],
                _ => state.rating[i],
            })
            .collect();
        // Established players first, each group by its key; equal keys share a place.
        let mut order: Vec<usize> = (0..n).collect();
        order.sort_by(|a, b| {
            provisional[*a]
                .cmp(&provisional[*b])
                .then(key[*b].total_cmp(&key[*a]))
        });
        let mut rank = vec![0usize; n];
        for (pos, &i) in order.iter().enumerate() {
            let prev = (pos > 0).then(|| order[pos - 1]);
            rank[i] = match prev {
                Some(o) if key[o] == key[i] && provisional[o] == provisional[i] => rank[o],
                _ => pos + 1,
            };
        }
        let players = self
            .prepared
            .names
            .shown
            .iter()
            .enumerate()
            .map(|(i, name)| {
                let deviation = scale.deviation.map(|_| state.sigma[i]);
                PlayerRating {
                    name: name.clone(),
                    rating: state.rating[i],
                    deviation,
                    volatility: scale.max_volatility.map(|_| state.volatility[i]),
                    conservative: scale
                        .conservative
                        .zip(deviation)
                        .map(|(c, d)| state.rating[i] - c * d),
                    provisional: provisional[i],
                    rank: rank[i],
                    games: state.played[i],
                    start: state.start[i],
                    change: state.rating[i] - state.start[i],
                }
            })
            .collect();
        RatingReport {
            ruleset: self.name.to_string(),
            system: self.rules.system.name(),
            games_rated: self.prepared.games.len(),
            provisional_games: threshold,
            conservative: scale.conservative,
            ranked_by: if by_conservative {
                "conservative"
            } else {
                "rating"
            },
            notes: Vec::new(),
            players,
            games,
            predictions,
        }
    }
}

/// One game's players, as slices of the prepared arrays.
struct Slot<'a> {
    players: &'a [usize],
    places: &'a [f64],
    ranks: &'a [u32],
    scores: &'a [f64],
}

/// Buffers reused from game to game.
#[derive(Default)]
struct Scratch {
    ratings: Vec<f64>,
    ks: Vec<f64>,
    changes: Vec<f64>,
    records: Vec<[f64; 5]>,
    /// Notes of the game being rated (a pot remainder split unequally).
    notes: Vec<String>,
}

fn percentile_rating(aggregate: Aggregate, start: f64, points: f64, games: u32) -> f64 {
    match aggregate {
        Aggregate::Sum => start + points,
        // The starting value stands until the first game.
        Aggregate::Mean if games == 0 => start,
        Aggregate::Mean => points / games as f64,
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_system_is_checked_without_games() {
        let elo = crate::rules::load::load("elo").unwrap();
        assert!(check_system(&elo, System::Glicko2).is_ok());
        let e = check_system(&elo, System::Percentile).unwrap_err();
        assert!(e
            .message()
            .starts_with("`percentile` does not rate finishing orders"));
        let startrek = crate::rules::load::load("startrek").unwrap();
        let e = check_system(&startrek, System::Elo).unwrap_err();
        assert_eq!(e.message(), "ruleset `startrek` has no `scoring` section");
    }
}
