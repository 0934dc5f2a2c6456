//! `arbiter combat sweep | matrix | balance` and `sim --precision`: a thin layer over
//! `crate::combat::lab`.
use super::combat::progress_bar;
use super::lab_plot;
use crate::combat::lab::{
    self, balance::BalanceOptions, matrix::MatrixOptions, parameter::Parameter, sweep::Axis,
};
use crate::combat::{default_tactic::DefaultTactic, sim::SimOptions, tactics::Tactic};
use crate::error::{Error, Result};
use crate::rules::builtin::DEFAULT_COMBAT;
use crate::rules::edit::{self, Syntax};
use crate::rules::identity::Identity;
use crate::rules::{load, model::Ruleset};
use clap::Subcommand;

#[derive(Subcommand)]
pub(super) enum LabCommand {
    /// Win rates against a ruleset value (or a grid of two), the same battles at every point
    #[command(after_help = "Examples:\
            \n  arbiter combat sweep \"UFP heavy cruiser\" \"Klingon battle cruiser\" \\\
            \n      --set \"/ships/Klingon battle cruiser/shields=5..10\" -n 2000\
            \n  arbiter combat sweep \"UFP frigate\" \"Pirate frigate\" \\\
            \n      --set \"ships.UFP frigate.torpedoes=0,5,10\" --csv sweep.csv\
            \n  arbiter combat sweep \"UFP heavy cruiser\" \"Klingon battle cruiser\" \\\
            \n      --set combat.start_distance=4..10:2 \\\
            \n      --set \"ships.UFP heavy cruiser.shields=8..10\" --plot grid.svg")]
    Sweep {
        /// Side a's ship (a name or alias of the ruleset)
        a: String,
        /// Side b's ship
        b: String,
        /// PATH=LO..HI[:STEP] or PATH=V1,V2,... (twice for a grid)
        #[arg(long = "set", required = true, value_name = "PATH=VALUES")]
        set: Vec<String>,
        /// Battles at each point
        #[arg(short = 'n', long = "battles", default_value_t = 1000)]
        battles: u64,
        /// Seed of the dice: every point (cell, value) fights the same seeded battles
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Ruleset (built-in name or path) whose ships and numbers to use
        #[arg(long, default_value = DEFAULT_COMBAT)]
        rules: String,
        /// JSON: {"parameter", "points": [{"value", "battles", "a", "b", "draws"}]}
        #[arg(long, conflicts_with = "csv")]
        json: bool,
        /// CSV on standard output, or into FILE
        #[arg(long, value_name = "FILE", num_args = 0..=1, default_missing_value = "-")]
        csv: Option<String>,
        /// Write win rates with their 95% bands as an SVG chart
        #[arg(long, value_name = "FILE.svg")]
        plot: Option<String>,
    },
    /// Every ordered pair of ships: a win/draw table, strengths and suggested points
    #[command(after_help = "Examples:\
            \n  arbiter combat matrix -n 400\
            \n  arbiter combat matrix \"UFP heavy cruiser\" \"Klingon battle cruiser\" \\\
            \n      \"Gorn attack cruiser\" --points-scale 250 --plot matrix.svg\
            \n  arbiter combat matrix --rules house.rules --json")]
    Matrix {
        /// Ships (default: every ship of the ruleset)
        ships: Vec<String>,
        /// Battles in each cell (half with each side moving first)
        #[arg(short = 'n', long = "battles", default_value_t = 400)]
        battles: u64,
        /// Seed of the dice: every point (cell, value) fights the same seeded battles
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Points the strongest ship is worth
        #[arg(long, default_value_t = 100.0)]
        points_scale: f64,
        /// Ruleset (built-in name or path) whose ships and numbers to use
        #[arg(long, default_value = DEFAULT_COMBAT)]
        rules: String,
        /// JSON: {"ships", "cells": [{"a", "b", "battles", "a_wins", "b_wins", "draws"}],
        /// "strength": [{"ship", "rating", "points"}]}
        #[arg(long)]
        json: bool,
        /// Write the table as an SVG heatmap
        #[arg(long, value_name = "FILE.svg")]
        plot: Option<String>,
    },
    /// The value of a ruleset number at which a matchup is even (or at --target)
    #[command(after_help = "Examples:\
            \n  arbiter combat balance \"UFP heavy cruiser\" \"Klingon battle cruiser\" \\\
            \n      --vary \"/ships/Klingon battle cruiser/shields\" --precision 0.03\
            \n  arbiter combat balance \"UFP frigate\" \"Pirate frigate\" \\\
            \n      --vary \"ships.Pirate frigate.torpedoes\" --min 0 --max 20 --target 0.6")]
    Balance {
        /// Side a's ship (a name or alias of the ruleset): --target is its share
        a: String,
        /// Side b's ship
        b: String,
        /// The ruleset path of the number to vary
        #[arg(long, value_name = "PATH")]
        vary: String,
        /// Lowest value (default 0)
        #[arg(long)]
        min: Option<f64>,
        /// Highest value (default twice the value now)
        #[arg(long)]
        max: Option<f64>,
        /// A's share of the decided battles to reach
        #[arg(long, default_value_t = 0.5)]
        target: f64,
        /// Close enough: ± this on the share (95% interval)
        #[arg(long, default_value_t = 0.03)]
        precision: f64,
        /// Most battles spent on one value
        #[arg(long, default_value_t = 20_000)]
        max_battles: u64,
        /// Seed of the dice: every point (cell, value) fights the same seeded battles
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Ruleset (built-in name or path) whose ships and numbers to use
        #[arg(long, default_value = DEFAULT_COMBAT)]
        rules: String,
        /// JSON: {"parameter", "value", "share", "ci95", "battles", "tried": [...]}
        #[arg(long)]
        json: bool,
    },
}

/// Most battles `sim --precision` fights when -n does not say (times the 500-turn safety
/// cap, within the bound on battles × turns one run plays).
pub(super) const PRECISION_CEILING: u64 = 250_000;

fn options(a: String, b: String, battles: u64, seed: u64) -> SimOptions {
    SimOptions::new(a, b, battles, seed)
}

/// `--set PATH=VALUES` as an axis of the ruleset.
fn axis(r: &Ruleset, text: &str) -> Result<Axis> {
    let Some((path, values)) = text.rsplit_once('=') else {
        return Err(Error::msg(format!(
            "--set `{text}`: write PATH=LO..HI[:STEP] or PATH=V1,V2,..."
        )));
    };
    Ok(Axis {
        parameter: Parameter::new(r, path)?,
        values: lab::parameter::values_from_range(values)
            .map_err(|e| e.context(&format!("--set `{}`", path.trim())))?,
    })
}

pub(super) fn run(command: LabCommand) -> Result<()> {
    match command {
        LabCommand::Sweep {
            a,
            b,
            set,
            battles,
            seed,
            rules,
            json,
            csv,
            plot,
        } => {
            if set.len() > 2 {
                return Err(Error::msg(
                    "a sweep takes one --set, or two for a grid, not more",
                ));
            }
            let r = load::load(&rules)?;
            let t = DefaultTactic::of(&r)?;
            let axes = set
                .iter()
                .map(|s| axis(&r, s))
                .collect::<Result<Vec<_>>>()?;
            let points: u64 = axes.iter().map(|x| x.values.len() as u64).product();
            let bar = progress_bar(points.saturating_mul(battles));
            let tick = |n: u64| bar.tick(n);
            let report =
                lab::sweep::sweep(&r, &options(a, b, battles, seed), &axes, [&t, &t], &tick)?;
            drop(bar);
            if let Some(path) = &plot {
                crate::io::write_atomically(path, &lab_plot::sweep_svg(&report)?)?;
            }
            match csv.as_deref() {
                Some("-") => super::print(&report.csv()?),
                Some(path) => {
                    crate::io::write_atomically(path, &report.csv()?)?;
                    super::print(&report.render(super::layout()))
                }
                None if json => super::print(&super::json_with_ruleset(&report, &Identity::of(&r))),
                None => super::print(&report.render(super::layout())),
            }
        }
        LabCommand::Matrix {
            ships,
            battles,
            seed,
            points_scale,
            rules,
            json,
            plot,
        } => {
            let r = load::load(&rules)?;
            let t = DefaultTactic::of(&r)?;
            let n = if ships.is_empty() {
                crate::combat::context::Context::new(&r)?.ships.len() as u64
            } else {
                ships.len() as u64
            };
            // The matrix refuses a total over its limit before any battle; the bar only shows it.
            let bar = progress_bar((n * n.saturating_sub(1)).saturating_mul(battles));
            let tick = |k: u64| bar.tick(k);
            let o = MatrixOptions {
                ships,
                battles,
                seed,
                points_scale,
            };
            let report = lab::matrix::matrix(&r, &o, [&t, &t], &tick)?;
            drop(bar);
            if let Some(path) = &plot {
                crate::io::write_atomically(path, &lab_plot::matrix_svg(&report)?)?;
            }
            if json {
                super::print(&super::json_with_ruleset(&report, &Identity::of(&r)))
            } else {
                super::print(&format!(
                    "{}\npoints as a ruleset overlay (each ship's `value`), to paste into a \
                     ruleset:\n\n{}",
                    report.render(super::layout()),
                    edit::text(report.points_overlay(), Syntax::Rules)
                ))
            }
        }
        LabCommand::Balance {
            a,
            b,
            vary,
            min,
            max,
            target,
            precision,
            max_battles,
            seed,
            rules,
            json,
        } => {
            let r = load::load(&rules)?;
            let t = DefaultTactic::of(&r)?;
            let o = BalanceOptions {
                min,
                max,
                target,
                precision,
                seed,
                max_battles,
            };
            let bar = crate::progress::Progress::counting_battles();
            let tick = |n: u64| bar.tick(n);
            let report = lab::balance::balance(&r, &a, &b, &vary, &o, [&t, &t], &tick)?;
            drop(bar);
            super::print(&if json {
                super::json_with_ruleset(&report, &Identity::of(&r))
            } else {
                report.render("--min/--max", super::layout())
            })
        }
    }
}

/// `combat sim --precision P`: rounds until both win rates are within ±P, -n the ceiling.
pub(super) fn sim_to_precision(
    r: &Ruleset,
    opts: &SimOptions,
    precision: f64,
    json: bool,
    plot: Option<&str>,
    tactics: [&dyn Tactic; 2],
) -> Result<()> {
    let bar = progress_bar(opts.battles);
    let tick = |n: u64| bar.tick(n);
    let report = lab::adaptive::to_precision(r, opts, precision, tactics, &tick)?;
    drop(bar);
    if let Some(path) = plot {
        crate::io::write_atomically(path, &super::combat::plot_svg(&report.report)?)?;
    }
    if json {
        let mut stripped = report.clone();
        stripped.report.by_turn.clear();
        super::print(&super::json_with_ruleset(&stripped, &Identity::of(r)))
    } else {
        super::print(&format!(
            "{}{}\n",
            report.report.render(super::layout()),
            report.stopped
        ))
    }
}
