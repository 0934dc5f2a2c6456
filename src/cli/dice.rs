//! `arbiter dice EXPR`: the exact distribution of a roll.
use crate::error::{Error, Result};
use crate::output::{percent, trim_number, Align, Table};
use crate::rules::dice::Dice;
use serde::Serialize;

#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  arbiter dice 3D6\n  arbiter dice 2D6+1D3 --json\n  arbiter dice D100"
)]
pub(super) struct Args {
    /// Dice expression: 3D6, D100, 2D6+1, 4D6-2, 2D6+1D3
    expr: String,
    /// JSON: {"dice", "min", "max", "mean", "distribution": {"3": p, ...}}, exact
    /// probabilities
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
struct DiceReport {
    dice: String,
    min: i64,
    max: i64,
    mean: f64,
    distribution: indexmap::IndexMap<String, f64>,
}

pub(super) fn run(args: Args) -> Result<()> {
    let dice = Dice::parse(&args.expr).map_err(Error::msg)?;
    let (low, probs) = dice.distribution().map_err(Error::msg)?;
    let mean = dice.mean();
    let report = DiceReport {
        dice: dice.to_string(),
        min: dice.min(),
        max: dice.max(),
        mean,
        distribution: probs
            .iter()
            .enumerate()
            .map(|(i, p)| ((low + i as i64).to_string(), *p))
            .collect(),
    };
    if args.json {
        super::print(&crate::output::json_string(&report))?;
        return Ok(());
    }
    let top = probs.iter().copied().fold(0.0, f64::max);
    let mut t = Table::new(&[
        ("roll", Align::Right),
        ("chance", Align::Right),
        ("at least", Align::Right),
        ("", Align::Left),
    ]);
    t.key(&["chance"]);
    let mut at_least = 1.0f64;
    for (i, p) in probs.iter().enumerate() {
        let bar = "#".repeat(((p / top) * 40.0).round() as usize);
        t.row([
            (low + i as i64).to_string(),
            percent(*p),
            percent(at_least.clamp(0.0, 1.0)),
            bar,
        ]);
        at_least -= p;
    }
    super::print(&format!(
        "{}: {}..{}, mean {}\n\n{}",
        report.dice,
        report.min,
        report.max,
        trim_number(mean, 4),
        t.render(super::layout())
    ))?;
    Ok(())
}
