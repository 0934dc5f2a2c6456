//! Fitting a rating system to a club: the parameters that forecast its history best.
//! Every game is forecast from the games before it only (as the backtest does); the search
//! minimises the mean log-loss of those forecasts over the games it may see, one parameter at
//! a time (golden-section search over each parameter's range in `fit_ranges`, rounds of
//! coordinate descent), and is deterministic. The last share of the games can be held out:
//! the parameters never see them, and the before/after comparison is made on them.
use super::bootstrap::{block_means, interval, paired_interval};
use super::fit_ranges::{self, Knob, Unit};
use super::game::Invalid;
use super::prepared::Prepared;
use super::ratings::{forecast_losses, scoring_rules};
use crate::output::{trim_number, Align, Table};
use crate::rules::formula::{canonical, Formula, Node, NumberOrFormula};
use crate::rules::scoring::{ScoringRules, System};
use serde::Serialize;

/// How the fit runs (the caller's choice, not the ruleset's).
#[derive(Debug, Clone, Copy)]
pub(crate) struct FitOptions {
    /// Share of the games, the last ones, kept out of the fit to compare on (0: none).
    pub holdout: f64,
    /// Bootstrap resamples for the intervals.
    pub resamples: usize,
    pub seed: u64,
    /// Width of the intervals (0.95: 2.5th to 97.5th percentile).
    pub level: f64,
}

/// Rounds of coordinate descent at most (each searches every parameter once).
const ROUNDS: usize = 4;
/// A parameter's search stops when its bracket is this share of its range.
const BRACKET: f64 = 1e-3;
/// A round that gains less log-loss than this ends the search.
const GAIN: f64 = 1e-7;
/// Fitted values are printed, and scored, to this many significant digits.
const DIGITS: i32 = 4;

#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct FitReport {
    pub ruleset: String,
    pub system: &'static str,
    pub games: usize,
    /// The first games, which the search saw.
    pub fitted_games: usize,
    /// The last games, which it did not (0: the comparison is on the fitted games).
    pub held_out: usize,
    pub parameters: Vec<FittedParameter>,
    /// Mean log-loss on the comparison games (held out, else all) with the ruleset's
    /// parameters and with the fitted ones, each with its bootstrap interval.
    pub before: Loss,
    pub after: Loss,
    /// After minus before, and its paired bootstrap interval (the same resamples for both):
    /// an interval below 0 means the fitted parameters clearly forecast better.
    pub difference: f64,
    pub difference_low: f64,
    pub difference_high: f64,
    /// Mean log-loss on the fitted games, before and after.
    pub fit_before: f64,
    pub fit_after: f64,
    /// Histories rated during the search.
    pub evaluations: usize,
    pub resamples: usize,
    pub level: f64,
    /// The fitted values as a ruleset overlay (YAML) to paste into the club's ruleset.
    pub overlay: String,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct Loss {
    pub log_loss: f64,
    pub low: f64,
    pub high: f64,
}

#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct FittedParameter {
    /// `scoring.<system>.<key>`, and for a K formula which of its numbers.
    pub key: String,
    pub before: f64,
    pub after: f64,
    /// The range searched.
    pub low: f64,
    pub high: f64,
}

/// One parameter of the search: a knob's value, or one number of Elo's K formula.
#[derive(Debug, Clone)]
struct Param {
    knob: &'static Knob,
    /// Which number of the K formula (in reading order), if K is a formula.
    constant: Option<usize>,
    low: f64,
    high: f64,
    value: f64,
}

/// Fit `system` (the ruleset's own when None) to the history.
pub(crate) fn fit(
    ruleset: &crate::rules::model::Ruleset,
    prepared: &Prepared,
    system: Option<System>,
    options: FitOptions,
) -> Result<FitReport, Invalid> {
    let base = scoring_rules(ruleset)?;
    let system = system.unwrap_or(base.system);
    if !System::RATINGS.contains(&system) {
        return Err(Invalid::new(
            "",
            format!(
                "`{}` has no parameters to fit: a fit tunes elo, glicko2, weng_lin and trueskill",
                system.name()
            ),
        ));
    }
    if !base.present().contains(&system) {
        return Err(Invalid::new(
            "",
            format!(
                "ruleset `{}` has no `{}` section to fit",
                ruleset.name,
                system.name()
            ),
        ));
    }
    if !(0.0..1.0).contains(&options.holdout) {
        return Err(Invalid::options(
            &["holdout"],
            format!(
                "the held-out share is {}: give a share from 0 up to (not including) 1",
                options.holdout
            ),
        ));
    }
    let games = prepared.games.len();
    let held_out = ((games as f64) * options.holdout).floor() as usize;
    let fitted_games = games - held_out;
    if fitted_games == 0 {
        return Err(Invalid::new("/games", "there are no games to fit to"));
    }
    let start = base.with_system(system);
    let formula = k_formula(&start, system);
    let mut params = parameters(&start, system, formula.as_ref());
    let name = ruleset.name.as_str();
    let before_losses = forecast_losses(name, &start, prepared)?;
    let mut evaluations = 1usize;
    let fit_mean = |l: &[f64]| l[..fitted_games].iter().sum::<f64>() / fitted_games as f64;
    let mut objective = |params: &[Param]| -> f64 {
        evaluations += 1;
        let rules = apply(&start, system, formula.as_ref(), params);
        // A value the system cannot rate with (a deviation below a starting one) is no fit.
        match forecast_losses(name, &rules, prepared) {
            Ok(l) => fit_mean(&l),
            Err(_) => f64::INFINITY,
        }
    };
    let mut best = fit_mean(&before_losses);
    for _ in 0..ROUNDS {
        let round_start = best;
        for p in 0..params.len() {
            let (value, loss) = search(&mut params, p, best, &mut objective);
            if loss < best {
                params[p].value = value;
                best = loss;
            }
        }
        if round_start - best < GAIN {
            break;
        }
    }
    for p in &mut params {
        p.value = significant(p.value, DIGITS);
    }
    let fitted = apply(&start, system, formula.as_ref(), &params);
    let after_losses = forecast_losses(name, &fitted, prepared)?;
    // Compare on the held-out games when there are some, else on all of them.
    let from = if held_out > 0 { fitted_games } else { 0 };
    let series: [&[f64]; 2] = [&before_losses[from..], &after_losses[from..]];
    let means = block_means(&series, options.resamples, options.seed);
    let mean = |l: &[f64]| l.iter().sum::<f64>() / l.len() as f64;
    let loss = |k: usize| {
        let log_loss = mean(series[k]);
        let mut sorted: Vec<f64> = means.iter().map(|m| m[k]).collect();
        sorted.sort_by(f64::total_cmp);
        let (low, high) = interval(&sorted, options.level).unwrap_or((log_loss, log_loss));
        Loss {
            log_loss,
            low,
            high,
        }
    };
    let (before, after) = (loss(0), loss(1));
    let difference = after.log_loss - before.log_loss;
    let (difference_low, difference_high) =
        paired_interval(&means, 1, 0, options.level).unwrap_or((difference, difference));
    let parameters = params
        .iter()
        .map(|p| {
            let start_value = match (p.constant, formula.as_ref()) {
                (Some(c), Some(f)) => constants(f)[c],
                _ => fit_ranges::get(&start, system, p.knob.key).unwrap_or(f64::NAN),
            };
            FittedParameter {
                key: match p.constant {
                    Some(c) => format!(
                        "{}.{} (number {} of the formula)",
                        system.name(),
                        p.knob.key,
                        c + 1
                    ),
                    None => format!("{}.{}", system.name(), p.knob.key),
                },
                before: start_value,
                after: p.value,
                low: p.low,
                high: p.high,
            }
        })
        .collect();
    Ok(FitReport {
        ruleset: ruleset.name.clone(),
        system: system.name(),
        games,
        fitted_games,
        held_out,
        parameters,
        before,
        after,
        difference,
        difference_low,
        difference_high,
        fit_before: fit_mean(&before_losses),
        fit_after: fit_mean(&after_losses),
        evaluations,
        resamples: options.resamples,
        level: options.level,
        overlay: overlay(base.system, system, formula.as_ref(), &params),
    })
}

/// Elo's K when it is a formula.
fn k_formula(rules: &ScoringRules, system: System) -> Option<Node> {
    match (system, rules.elo.as_ref().map(|e| &e.k)) {
        (System::Elo, Some(NumberOrFormula::Formula(f))) => Some(f.node().clone()),
        _ => None,
    }
}

/// The parameters to search and their ranges.
fn parameters(rules: &ScoringRules, system: System, formula: Option<&Node>) -> Vec<Param> {
    let mut out = Vec::new();
    for knob in fit_ranges::knobs(system) {
        let bounds = |value: f64| {
            let unit = match knob.unit {
                Unit::One => 1.0,
                Unit::Itself => value,
                Unit::Key(k) => fit_ranges::get(rules, system, k).unwrap_or(1.0),
            };
            (knob.low * unit, knob.high * unit)
        };
        match (knob.key, formula) {
            ("k", Some(f)) => {
                for (c, value) in constants(f).into_iter().enumerate() {
                    let (low, high) = bounds(value);
                    if value > 0.0 {
                        out.push(Param {
                            knob,
                            constant: Some(c),
                            low,
                            high,
                            value,
                        });
                    }
                }
            }
            _ => {
                if let Some(value) = fit_ranges::get(rules, system, knob.key) {
                    let (low, high) = bounds(value);
                    if low < high {
                        out.push(Param {
                            knob,
                            constant: None,
                            low,
                            high,
                            value,
                        });
                    }
                }
            }
        }
    }
    out
}

/// The numbers of a K formula a fit may change, in reading order: every number outside an
/// `if`'s condition (the K values, not the thresholds that choose between them).
fn constants(node: &Node) -> Vec<f64> {
    fn walk(node: &Node, out: &mut Vec<f64>) {
        match node {
            Node::Num { value, .. } => out.push(*value),
            Node::Neg(a) | Node::Not(a) => walk(a, out),
            Node::Bin(_, a, b) => {
                walk(a, out);
                walk(b, out);
            }
            Node::Call { args, .. } => args.iter().for_each(|a| walk(a, out)),
            Node::If(_, t, e) => {
                walk(t, out);
                walk(e, out);
            }
            _ => {}
        }
    }
    let mut out = Vec::new();
    walk(node, &mut out);
    out
}

/// The formula with its fitted numbers (`values[c]` for number c, None: unchanged).
fn with_constants(node: &Node, values: &[Option<f64>]) -> Node {
    fn walk(node: &Node, values: &[Option<f64>], at: &mut usize) -> Node {
        let go = |n: &Node, at: &mut usize| Box::new(walk(n, values, at));
        match node {
            Node::Num { value, text } => {
                let c = *at;
                *at += 1;
                match values.get(c).copied().flatten() {
                    Some(v) => Node::Num {
                        value: v,
                        text: number_text(v),
                    },
                    None => Node::Num {
                        value: *value,
                        text: text.clone(),
                    },
                }
            }
            Node::Neg(a) => Node::Neg(go(a, at)),
            Node::Not(a) => Node::Not(go(a, at)),
            Node::Bin(op, a, b) => {
                let a = go(a, at);
                Node::Bin(*op, a, go(b, at))
            }
            Node::Call { name, offset, args } => Node::Call {
                name: name.clone(),
                offset: *offset,
                args: args.iter().map(|a| walk(a, values, at)).collect(),
            },
            Node::If(c, t, e) => {
                let t = go(t, at);
                Node::If(c.clone(), t, go(e, at))
            }
            other => other.clone(),
        }
    }
    walk(node, values, &mut 0)
}

/// The rules with the parameters' values.
fn apply(
    start: &ScoringRules,
    system: System,
    formula: Option<&Node>,
    params: &[Param],
) -> ScoringRules {
    let mut rules = start.clone();
    let mut numbers: Vec<Option<f64>> = Vec::new();
    for p in params {
        match p.constant {
            Some(c) => {
                if numbers.len() <= c {
                    numbers.resize(c + 1, None);
                }
                numbers[c] = Some(p.value);
            }
            None => fit_ranges::set(&mut rules, system, p.knob.key, p.value),
        }
    }
    if let (Some(node), Some(elo)) = (formula, rules.elo.as_mut()) {
        let text = canonical(&with_constants(node, &numbers));
        if let Ok(f) = Formula::parse(&text) {
            elo.k = NumberOrFormula::Formula(f);
        }
    }
    rules
}

/// Golden-section search of parameter `p` over its range, the others fixed; the best value
/// seen and its loss (the current value, at `current`, if nothing beats it).
fn search(
    params: &mut [Param],
    p: usize,
    current: f64,
    objective: &mut dyn FnMut(&[Param]) -> f64,
) -> (f64, f64) {
    let (low, high, log) = (params[p].low, params[p].high, params[p].knob.log);
    let to = |t: f64| if log { t.exp() } else { t };
    let (a0, b0) = if log {
        (low.ln(), high.ln())
    } else {
        (low, high)
    };
    let mut best = (params[p].value, current);
    let mut eval = |t: f64, params: &mut [Param]| {
        let keep = params[p].value;
        params[p].value = to(t);
        let loss = objective(params);
        if loss < best.1 {
            best = (params[p].value, loss);
        }
        params[p].value = keep;
        loss
    };
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    let (mut a, mut b) = (a0, b0);
    let mut c = b - ratio * (b - a);
    let mut d = a + ratio * (b - a);
    let mut fc = eval(c, params);
    let mut fd = eval(d, params);
    while b - a > BRACKET * (b0 - a0) {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - ratio * (b - a);
            fc = eval(c, params);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + ratio * (b - a);
            fd = eval(d, params);
        }
    }
    best
}

/// `x` to `digits` significant digits.
fn significant(x: f64, digits: i32) -> f64 {
    if x == 0.0 || !x.is_finite() {
        return x;
    }
    let places = digits - 1 - x.abs().log10().floor() as i32;
    crate::rules::formula::round_to(x, places)
}

/// A number as a ruleset writes it (no trailing zeros, no exponent).
fn number_text(x: f64) -> String {
    if x == 0.0 || !x.is_finite() {
        return trim_number(x, 0);
    }
    let places = (DIGITS - 1 - x.abs().log10().floor() as i32).clamp(0, 12) as usize;
    trim_number(x, places)
}

/// The fitted values as YAML to merge into the club's ruleset.
fn overlay(
    ruleset_system: System,
    system: System,
    formula: Option<&Node>,
    params: &[Param],
) -> String {
    let mut out = String::from("scoring:\n");
    if system != ruleset_system {
        out.push_str(&format!("  system: {}\n", system.name()));
    }
    out.push_str(&format!("  {}:\n", system.name()));
    if let Some(node) = formula {
        let numbers: Vec<Option<f64>> = {
            let mut n = Vec::new();
            for p in params.iter().filter(|p| p.constant.is_some()) {
                let c = p.constant.unwrap_or(0);
                if n.len() <= c {
                    n.resize(c + 1, None);
                }
                n[c] = Some(p.value);
            }
            n
        };
        let text = canonical(&with_constants(node, &numbers));
        out.push_str(&format!(
            "    k: \"{}\"\n",
            text.replace('\\', "\\\\").replace('"', "\\\"")
        ));
    }
    for p in params.iter().filter(|p| p.constant.is_none()) {
        out.push_str(&format!("    {}: {}\n", p.knob.key, number_text(p.value)));
    }
    out
}

impl FitReport {
    pub(crate) fn table(&self, layout: crate::output::Layout) -> String {
        let mut t = Table::new(&[
            ("parameter", Align::Left),
            ("ruleset", Align::Right),
            ("fitted", Align::Right),
            ("range searched", Align::Right),
        ]);
        t.key(&["fitted"]);
        for p in &self.parameters {
            t.row([
                p.key.clone(),
                number_text(p.before),
                number_text(p.after),
                format!("{} to {}", number_text(p.low), number_text(p.high)),
            ]);
        }
        let level = trim_number(self.level * 100.0, 1);
        let on = if self.held_out > 0 {
            format!(
                "the last {} games, held out of the fit (fitted on the first {})",
                self.held_out, self.fitted_games
            )
        } else {
            format!(
                "the {} games the fit saw (no games held out: an optimistic comparison)",
                self.games
            )
        };
        let verdict = if self.difference_high < 0.0 {
            "the fitted parameters forecast clearly better (the paired interval lies below 0)"
        } else if self.difference_low > 0.0 {
            "the fitted parameters forecast clearly worse (the paired interval lies above 0)"
        } else {
            "these games do not tell the two apart (the paired interval includes 0)"
        };
        format!(
            "Fit of {} ({}): each game forecast from the games before it; {} histories rated\n\n{}\n\
             Log-loss on {on}:\n  ruleset {:.4} ({level}% interval {:.4}–{:.4})\n  fitted  {:.4} ({level}% interval {:.4}–{:.4})\n  \
             difference {:+.4} (paired interval {:+.4} to {:+.4}): {verdict}.\n\n\
             Paste into the club's ruleset (it extends {}):\n\n{}",
            self.system,
            self.ruleset,
            self.evaluations,
            t.render(layout),
            self.before.log_loss,
            self.before.low,
            self.before.high,
            self.after.log_loss,
            self.after.low,
            self.after.high,
            self.difference,
            self.difference_low,
            self.difference_high,
            self.ruleset,
            self.overlay
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_k_formulas_values_are_its_parameters_not_its_thresholds() {
        let f = Formula::parse("if games < 10 then 60 else if games < 20 then 40 else 20").unwrap();
        assert_eq!(constants(f.node()), vec![60.0, 40.0, 20.0]);
        let changed = with_constants(f.node(), &[Some(52.5), None, Some(18.25)]);
        assert_eq!(
            canonical(&changed),
            "if games < 10 then 52.5 else if games < 20 then 40 else 18.25"
        );
    }

    #[test]
    fn golden_section_finds_a_parabolas_bottom() {
        let knob = &fit_ranges::KNOBS[0];
        let mut params = vec![Param {
            knob,
            constant: None,
            low: 4.0,
            high: 256.0,
            value: 32.0,
        }];
        let mut f = |p: &[Param]| (p[0].value.ln() - 20f64.ln()).powi(2);
        let start = f(&params);
        let (value, loss) = search(&mut params, 0, start, &mut f);
        assert!((value - 20.0).abs() < 0.1, "{value}");
        assert!(loss < 1e-5);
        assert_eq!(
            params[0].value, 32.0,
            "the search leaves the value to its caller"
        );
    }

    #[test]
    fn significant_digits() {
        assert_eq!(significant(21.3749, 4), 21.37);
        assert_eq!(significant(0.0123456, 4), 0.01235);
        assert_eq!(number_text(0.0833333), "0.08333");
        assert_eq!(number_text(1234.5678), "1235");
    }
}
