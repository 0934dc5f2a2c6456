//! `arbiter combat ships | volley | duel | sim | ladder` (and the lab's commands, `combat_lab`):
//! a thin layer over `crate::combat`.
use super::combat_ladder::Chosen;
use crate::combat::{
    self,
    context::Context,
    scenario::Scenario,
    sim::{SimOptions, SimReport},
    tactics::Tactic,
    volley::Shot,
};
use crate::error::{Error, Result};
use crate::output::{json_string, Align, Table};
use crate::rules::builtin::DEFAULT_COMBAT;
use crate::rules::identity::Identity;
use crate::rules::{load, model::Ruleset};
use clap::Subcommand;

#[derive(clap::Args)]
#[command(after_help = "Examples:\
        \n  arbiter combat ships\
        \n  arbiter combat volley \"UFP heavy cruiser\" \"Klingon battle cruiser\" --range 5\
        \n  arbiter combat volley \"Romulan bird of prey\" \"UFP frigate\" --range 3 --torpedo\
        \n  arbiter combat duel \"Crucero pesado de la UFP\" \"Transporte\" --seed 7\
        \n  arbiter combat sim \"UFP heavy cruiser\" \"Klingon battle cruiser\" -n 10000 \\\
        \n      --seed 1 --plot outcomes.svg\
        \n  arbiter combat sim \"UFP heavy cruiser\" \"Klingon battle cruiser\" -n 5000 \\\
        \n      --vs house.rules\
        \n  arbiter combat sim --scenario ambush.yaml -n 2000")]
pub(super) struct Args {
    #[command(subcommand)]
    command: CombatCommand,
}

#[derive(Subcommand)]
enum CombatCommand {
    /// The ruleset's ships and their combat stats
    #[command(after_help = "Examples:\
            \n  arbiter combat ships\
            \n  arbiter combat ships --rules house.rules --json")]
    Ships {
        /// Ruleset (built-in name or path) whose ships to list
        #[arg(long, default_value = DEFAULT_COMBAT)]
        rules: String,
        /// JSON: every ship with all its stats, as the ruleset gives them
        #[arg(long)]
        json: bool,
    },
    /// Exact odds of one phaser volley (K dice) or one torpedo at a fresh target
    #[command(after_help = "Examples:\
            \n  arbiter combat volley \"UFP heavy cruiser\" \"Klingon battle cruiser\" \\\
            \n      --range 5 --dice 4\
            \n  arbiter combat volley \"Klingon battle cruiser\" \"UFP frigate\" --range 3 \\\
            \n      --torpedo --json")]
    Volley {
        /// The firing ship (a ship name or alias of the ruleset)
        attacker: String,
        /// The ship fired at, fresh: full shields toward the attacker
        target: String,
        /// Distance in hexes
        #[arg(long)]
        range: u32,
        /// Phaser dice fired (default: all the attacker's)
        #[arg(long, conflicts_with = "torpedo")]
        dice: Option<u32>,
        /// One torpedo instead of phasers
        #[arg(long)]
        torpedo: bool,
        /// Ruleset (built-in name or path)
        #[arg(long, default_value = DEFAULT_COMBAT)]
        rules: String,
        /// JSON: hit_chance, expected_shield_loss, internal_chance, expected_internal and the
        /// outcomes
        #[arg(long)]
        json: bool,
    },
    /// One battle, narrated turn by turn (or --json: the events)
    #[command(after_help = "Examples:\
            \n  arbiter combat duel \"UFP heavy cruiser\" \"Klingon battle cruiser\" --seed 3\
            \n  arbiter combat duel \"Crucero pesado de la UFP\" \"Transporte\" --seed 1 --json")]
    Duel {
        /// Side a's ship (a name or alias; or from --scenario)
        a: Option<String>,
        /// Side b's ship
        b: Option<String>,
        /// Seed of the dice: the same seed replays the same battle
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Who moves first: a or b (default: a scenario's `first`, else a)
        #[arg(long, value_parser = parse_side)]
        first: Option<combat::side::Side>,
        /// A YAML scenario: ships, positions, facings, crews, who moves first, turn limit
        #[arg(long, value_name = "FILE")]
        scenario: Option<String>,
        /// Ruleset (built-in name or path); default: the scenario's `rules:`, else startrek
        #[arg(long)]
        rules: Option<String>,
        #[command(flatten)]
        tactics: TacticArgs,
        /// JSON: the battle's events turn by turn, and its outcome
        #[arg(long)]
        json: bool,
    },
    /// Monte Carlo: many battles, win rates with 95% intervals
    #[command(after_help = "Examples:\
            \n  arbiter combat sim \"UFP heavy cruiser\" \"Klingon battle cruiser\" -n 10000 \\\
            \n      --seed 1\
            \n  arbiter combat sim \"UFP heavy cruiser\" \"Klingon battle cruiser\" -n 2000 \\\
            \n      --seed 1 --vs house.rules\
            \n  arbiter combat sim --scenario ambush.yaml -n 1000 --plot outcomes.svg")]
    Sim {
        /// Side a's ship (a name or alias; or from --scenario)
        a: Option<String>,
        /// Side b's ship
        b: Option<String>,
        /// Battles to fight (default: the scenario's, else 1000); with --precision, the most to
        /// fight (default 250000)
        #[arg(short = 'n', long = "battles")]
        battles: Option<u64>,
        /// Seed of the dice (default: the scenario's, else 1): the same seed gives the same
        /// result, whatever --threads is
        #[arg(long)]
        seed: Option<u64>,
        /// Worker threads (default: one per CPU core); the result is the same whatever the number
        #[arg(long)]
        threads: Option<usize>,
        /// Who moves first: a, b, or alternate (half the battles each; the default)
        #[arg(long, value_parser = parse_first)]
        first: Option<combat::side::First>,
        /// A YAML scenario: ships, positions, facings, crews, who moves first, turn limit
        #[arg(long, value_name = "FILE")]
        scenario: Option<String>,
        /// Ruleset (built-in name or path); default: the scenario's `rules:`, else startrek
        #[arg(long)]
        rules: Option<String>,
        /// A second ruleset run on the same seeds, with a significance verdict
        #[arg(long)]
        vs: Option<String>,
        /// Write outcomes over turns as an SVG chart
        #[arg(long)]
        plot: Option<String>,
        /// Fight rounds of battles until both win rates are within ± this (95% intervals),
        /// -n battles at most
        #[arg(long, conflicts_with = "vs")]
        precision: Option<f64>,
        #[command(flatten)]
        tactics: TacticArgs,
        /// JSON: {"battles", "seed", "a": {"name", "wins", "win_rate", "ci95"}, "b", "draws",
        /// "escapes", "mean_turns", ...}
        #[arg(long)]
        json: bool,
    },
    /// Tactics against each other in mirror matches over every ship class, rated
    #[command(after_help = "Examples:\
            \n  arbiter combat ladder -n 500\
            \n  arbiter combat ladder --tactics classic,mine.rhai --ships \"UFP frigate\"")]
    Ladder(super::combat_ladder::Args),
    // The balance lab: sweep, matrix, balance.
    #[command(flatten)]
    Lab(super::combat_lab::LabCommand),
}

/// Which tactic plays each side.
#[derive(clap::Args)]
pub(super) struct TacticArgs {
    /// Side a's tactic: default, classic, or a .rhai file (default: the scenario's, else default)
    #[arg(long = "tactic-a", value_name = "T")]
    tactic_a: Option<String>,
    /// Side b's tactic
    #[arg(long = "tactic-b", value_name = "T")]
    tactic_b: Option<String>,
}

const DEFAULT_BATTLES: u64 = 1000;
const DEFAULT_SEED: u64 = 1;

pub(super) fn run(args: Args) -> Result<()> {
    match args.command {
        CombatCommand::Ships { rules, json } => {
            let r = super::chosen(crate::rules::resolve::Chosen {
                ruleset: load::load(&rules)?,
                how: if rules == DEFAULT_COMBAT {
                    crate::rules::resolve::How::Default
                } else {
                    crate::rules::resolve::How::Typed
                },
                reference: rules,
            })
            .ruleset;
            crate::style::explain(&format!("{} ships", r.ships.len()));
            ships(&r, json)
        }
        CombatCommand::Ladder(args) => super::combat_ladder::run(args),
        CombatCommand::Volley {
            attacker,
            target,
            range,
            dice,
            torpedo,
            rules,
            json,
        } => {
            let r = load::load(&rules)?;
            let shot = if torpedo {
                Shot::Torpedo
            } else {
                let dice = match dice {
                    Some(d) => d,
                    None => Context::new(&r)?.class(&r, &attacker)?.phaser_dice,
                };
                Shot::Phasers { dice }
            };
            let report = combat::volley::volley(&r, &attacker, &target, range, shot)?;
            super::print(&if json {
                super::json_with_ruleset(&report, &Identity::of(&r))
            } else {
                report.render(super::layout())
            })?;
            Ok(())
        }
        CombatCommand::Duel {
            a,
            b,
            seed,
            first,
            scenario,
            rules,
            tactics,
            json,
        } => {
            let (r, scen) = rules_and_scenario(rules, scenario.as_deref())?;
            let sides = Sides::choose(&r, &tactics, scen.as_ref())?;
            let ctx = Context::new(&r)?;
            let resolved = match &scen {
                Some((s, doc)) => s.resolve(&r, &ctx, Some(doc))?,
                None => {
                    let (a, b) = two_ships(a, b)?;
                    combat::scenario::Resolved {
                        classes: [ctx.class(&r, &a)?, ctx.class(&r, &b)?],
                        setup: combat::turn::Setup::standard(&ctx),
                    }
                }
            };
            let setup = match first {
                Some(side) => resolved.setup.with_first(side),
                None => resolved.setup,
            };
            let report = combat::duel::duel_with(
                &ctx,
                [&resolved.classes[0], &resolved.classes[1]],
                sides.both(),
                setup,
                seed,
                true,
            );
            sides.check()?;
            super::print(&if json {
                super::json_with_ruleset(&report, &Identity::of(&r))
            } else {
                combat::narration::narrate(&report)
            })?;
            Ok(())
        }
        CombatCommand::Sim {
            a,
            b,
            battles,
            seed,
            threads,
            first,
            scenario,
            rules,
            vs,
            plot,
            precision,
            tactics,
            json,
        } => {
            let (r, scen) = rules_and_scenario(rules, scenario.as_deref())?;
            let sides = Sides::choose(&r, &tactics, scen.as_ref())?;
            let (a, b) = match &scen {
                Some((s, _)) => (s.a.ship.clone(), s.b.ship.clone()),
                None => two_ships(a, b)?,
            };
            if let Some((s, doc)) = &scen {
                // Check the scenario against the ruleset now, so errors point into its file.
                s.resolve(&r, &Context::new(&r)?, Some(doc))?;
            }
            let n = battles
                .or(scen.as_ref().and_then(|s| s.0.battles))
                .unwrap_or(DEFAULT_BATTLES);
            let seed = seed
                .or(scen.as_ref().and_then(|s| s.0.seed))
                .unwrap_or(DEFAULT_SEED);
            let opts = SimOptions {
                threads,
                scenario: scen.map(|s| s.0),
                first,
                ..SimOptions::new(a, b, n, seed)
            };
            if let Some(p) = precision {
                let opts = SimOptions {
                    // With a precision, -n is the ceiling.
                    battles: battles.unwrap_or(super::combat_lab::PRECISION_CEILING),
                    ..opts
                };
                let done = super::combat_lab::sim_to_precision(
                    &r,
                    &opts,
                    p,
                    json,
                    plot.as_deref(),
                    sides.both(),
                );
                sides.check()?;
                return done;
            }
            let runs = if vs.is_some() { 2 } else { 1 };
            let bar = progress_bar(opts.battles * runs);
            let tick = |n: u64| bar.tick(n);
            match vs {
                None => {
                    let report = combat::sim::simulate_with(&r, &opts, sides.both(), &tick);
                    sides.check()?;
                    let report = report?;
                    drop(bar);
                    if let Some(path) = &plot {
                        crate::io::write_atomically(path, &plot_svg(&report)?)?;
                    }
                    super::print(&if json {
                        super::json_with_ruleset(&strip_turns(report), &Identity::of(&r))
                    } else {
                        report.render(super::layout())
                    })?;
                }
                Some(other) => {
                    let r2 = load::load(&other)?;
                    let cmp = combat::sim::compare(&r, &r2, &opts, sides.both(), &tick);
                    sides.check()?;
                    let cmp = cmp?;
                    drop(bar);
                    if let Some(path) = &plot {
                        crate::io::write_atomically(path, &plot_svg(&cmp.base)?)?;
                    }
                    if json {
                        let mut c = cmp.clone();
                        c.base.by_turn.clear();
                        c.variant.by_turn.clear();
                        super::print(&super::json_with_ruleset(&c, &Identity::of(&r)))?;
                    } else {
                        super::print(&format!(
                            "{}\n{}\n{}\n",
                            cmp.base.render(super::layout()),
                            cmp.variant.render(super::layout()),
                            cmp.verdict
                        ))?;
                    }
                }
            }
            Ok(())
        }
        CombatCommand::Lab(command) => super::combat_lab::run(command),
    }
}

/// The two sides' tactics: the command line's, else the scenario's, else `default`.
struct Sides([Chosen; 2]);

impl Sides {
    fn choose(r: &Ruleset, t: &TacticArgs, scen: Option<&LoadedScenario>) -> Result<Sides> {
        let side = |i: usize, given: &Option<String>| -> Result<Chosen> {
            let (name, knobs) = match scen {
                Some((s, doc)) => s.side_tactic(i, r, Some(doc))?,
                None => (None, crate::rules::tactic::TacticRules::of(r)?),
            };
            let name = given.as_deref().or(name.as_deref()).unwrap_or("default");
            Chosen::new(name, r, &knobs)
        };
        Ok(Sides([side(0, &t.tactic_a)?, side(1, &t.tactic_b)?]))
    }

    fn both(&self) -> [&dyn Tactic; 2] {
        [self.0[0].tactic(), self.0[1].tactic()]
    }

    /// A script tactic that failed: its error, not a result that no longer measures it.
    fn check(&self) -> Result<()> {
        self.0.iter().try_for_each(Chosen::check)
    }
}

/// The by-turn table is for the chart; JSON keeps the summary.
fn strip_turns(mut r: SimReport) -> SimReport {
    r.by_turn.clear();
    r
}

fn parse_side(s: &str) -> std::result::Result<combat::side::Side, String> {
    combat::side::Side::from_letter(s).ok_or_else(|| format!("`{s}` is not a or b"))
}

fn parse_first(s: &str) -> std::result::Result<combat::side::First, String> {
    combat::side::First::parse(s).ok_or_else(|| format!("`{s}` is not a, b or alternate"))
}

fn two_ships(a: Option<String>, b: Option<String>) -> Result<(String, String)> {
    match (a, b) {
        (Some(a), Some(b)) => Ok((a, b)),
        _ => Err(Error::msg(
            "name two ships (see `arbiter combat ships`), or give --scenario FILE",
        )),
    }
}

pub(super) type LoadedScenario = (Scenario, crate::rules::doc::Doc);

/// The ruleset: --rules, else the scenario's `rules` (a relative path means the file beside
/// the scenario when there is one), else startrek.
fn rules_and_scenario(
    rules: Option<String>,
    scenario: Option<&str>,
) -> Result<(Ruleset, Option<LoadedScenario>)> {
    let scen = scenario.map(crate::engine_files::scenario).transpose()?;
    let named = scen
        .as_ref()
        .and_then(|(s, doc)| s.rules.as_deref().map(|r| (r, doc)));
    let ruleset = super::chosen(
        crate::rules::resolve::Choice {
            typed: rules.as_deref(),
            named: named.map(|(r, _)| (r, scenario)),
            default: DEFAULT_COMBAT,
        }
        .load(crate::rules::resolve::needs_nothing, |e| match named {
            Some((_, doc)) => e.placed_at(doc, "/rules"),
            None => e,
        })?,
    )
    .ruleset;
    Ok((ruleset, scen))
}

pub(super) fn progress_bar(total: u64) -> crate::progress::Progress {
    crate::progress::Progress::battles(total)
}

fn ships(r: &Ruleset, json: bool) -> Result<()> {
    let ctx = Context::new(r)?;
    if json {
        super::print(&json_string(&ctx.ships))?;
        return Ok(());
    }
    let mut t = Table::new(&[
        ("ship", Align::Left),
        ("aliases", Align::Left),
        ("shields", Align::Right),
        ("hull", Align::Left),
        ("Vm/M", Align::Right),
        ("phasers", Align::Right),
        ("torpedoes", Align::Right),
        ("cloak", Align::Left),
        ("EqR", Align::Right),
        ("EqS", Align::Right),
        ("size", Align::Left),
        ("energy", Align::Right),
    ]);
    // A ship's torpedo kind is shown when it is not the ruleset's default.
    let default_kind = r.combat.as_ref().map(|c| c.default_torpedo.as_str());
    for c in &ctx.ships {
        let aliases = r
            .ships
            .get(&c.name)
            .map(|s| s.aliases.join(", "))
            .unwrap_or_default();
        let torps = if c.torpedoes == 0 || Some(c.torpedo_kind_name.as_str()) == default_kind {
            c.torpedoes.to_string()
        } else {
            format!("{} {}", c.torpedoes, c.torpedo_kind_name)
        };
        t.row([
            c.name.clone(),
            aliases,
            c.shields.to_string(),
            format!("{}/{}", c.hull_intact, c.hull_damaged),
            format!("{}/{}", c.max_speed, c.maneuverability),
            format!("{}D{}", c.phaser_dice, c.phaser_sides),
            torps,
            if c.cloak { "yes" } else { "no" }.to_string(),
            c.repair_teams.to_string(),
            c.security_teams.to_string(),
            c.size.clone(),
            format!("{}+{}", c.generator, c.battery),
        ]);
    }
    super::print(&format!(
        "{}\nhull: the hull roll, intact / damaged\n\
         Vm/M: most energy into maneuvers a turn / free 60° turns a move\n\
         EqR, EqS: repair teams, security teams\n\
         energy: generator output a turn + battery capacity\n",
        t.render(super::layout())
    ))?;
    Ok(())
}

/// Cumulative share of battles decided by each turn, by outcome.
pub(super) fn plot_svg(report: &SimReport) -> Result<String> {
    use super::line_chart::{Chart, Line};
    use plotters::style::{Color, BLUE, GREEN, RED};
    let n = report.battles.max(1) as f64;
    type Count = Box<dyn Fn(&combat::sim::TurnCounts) -> u64>;
    let names = report.side_names();
    let series: [(&str, plotters::style::RGBColor, Count); 3] = [
        (names[0].as_str(), BLUE, Box::new(|c| c.a_wins)),
        (names[1].as_str(), RED, Box::new(|c| c.b_wins)),
        ("escapes", GREEN, Box::new(|c| c.escapes)),
    ];
    let lines: Vec<Line> = series
        .iter()
        .map(|(label, colour, count)| {
            let mut total = 0u64;
            let points = std::iter::once((0.0, 0.0))
                .chain(report.by_turn.iter().map(|c| {
                    total += count(c);
                    (c.turn as f64, total as f64 / n)
                }))
                .collect();
            Line {
                label: label.to_string(),
                colour: colour.to_rgba(),
                points,
                band: None,
                markers: false,
            }
        })
        .collect();
    let whole = |x: &f64| format!("{x:.0}");
    let share = |y: &f64| crate::output::trim_number(*y, 2);
    let chart = Chart {
        caption: format!(
            "{} vs {}: battles decided by turn ({} battles)",
            report.a.name, report.b.name, report.battles
        ),
        size: (900, 540),
        x: 0f64..report.turn_limit.max(1) as f64,
        y: 0f64..1f64,
        x_desc: "turn".into(),
        y_desc: "share of battles (cumulative)".into(),
        x_labels: None,
        x_format: &whole,
        y_format: &share,
        y_ticks: None,
    };
    super::line_chart::svg(&chart, &lines)
}
