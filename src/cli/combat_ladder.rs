//! `arbiter combat ladder`: tactics against each other in mirror matches, rated; and the
//! choice of a tactic by name or rhai file, which `sim` and `duel` share.
use crate::combat::builtin_tactics::{built_in, unknown, BUILT_IN_TACTICS};
use crate::combat::ladder::{ladder, LadderOptions};
use crate::combat::{context::Context, tactics::Tactic};
use crate::error::{Error, Result};
use crate::io::FileKind;
use crate::rules::builtin::{DEFAULT_COMBAT, DEFAULT_RATING};
use crate::rules::identity::Identity;
use crate::rules::scoring::System;
use crate::rules::tactic::TacticRules;
use crate::rules::{load, model::Ruleset};
use crate::script::tactic::ScriptTactic;

#[derive(clap::Args)]
pub(super) struct Args {
    /// Tactics to rank: built-in names (default, classic) or .rhai files
    #[arg(long, value_delimiter = ',', default_value = "default,classic")]
    tactics: Vec<String>,
    /// Ship classes (default: every ship of the ruleset)
    #[arg(long, value_delimiter = ',')]
    ships: Vec<String>,
    /// Battles per ship class, pairing and side
    #[arg(short = 'n', long = "battles", default_value_t = 500)]
    battles: u64,
    /// Seed of the dice: the same seed gives the same ladder, whatever --threads is
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (default: one per CPU core); the result is the same whatever the number
    #[arg(long)]
    threads: Option<usize>,
    /// Ruleset (built-in name or path) whose ships fight
    #[arg(long, default_value = DEFAULT_COMBAT)]
    rules: String,
    /// The ruleset whose `scoring` section rates the tactics
    #[arg(long, default_value = DEFAULT_RATING)]
    ratings: String,
    /// Rating system: elo, glicko2, weng_lin, trueskill
    #[arg(long, default_value = "glicko2")]
    system: String,
    /// Decided battles of each tactic in one rating period, about: the battles are rated in
    /// rounds, since a period of thousands of games between two players makes the ratings
    /// overshoot
    #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u64).range(1..))]
    per_period: u64,
    /// JSON: each tactic's rating and record
    #[arg(long)]
    json: bool,
}

/// A tactic chosen on the command line: built in, or a script (whose failure is reported).
pub(super) enum Chosen {
    BuiltIn(Box<dyn Tactic>),
    Script(Box<ScriptTactic>),
}

impl Chosen {
    /// `name` is a built-in tactic (the default one playing with `knobs`) or a .rhai file.
    pub(super) fn new(name: &str, rules: &Ruleset, knobs: &TacticRules) -> Result<Chosen> {
        if let Some(t) = built_in(name, knobs) {
            return Ok(Chosen::BuiltIn(t));
        }
        if FileKind::of(name) != Some(FileKind::Script) {
            return Err(unknown(name));
        }
        let limits = crate::script::hook::limits(rules);
        Ok(Chosen::Script(Box::new(ScriptTactic::from_file(
            name, &limits,
        )?)))
    }

    pub(super) fn tactic(&self) -> &dyn Tactic {
        match self {
            Chosen::BuiltIn(t) => t.as_ref(),
            Chosen::Script(t) => t.as_ref(),
        }
    }

    /// The script's failure, if it failed: the battles after it did not measure it.
    pub(super) fn check(&self) -> Result<()> {
        match self {
            Chosen::Script(t) => t.take_failure().map_or(Ok(()), Err),
            Chosen::BuiltIn(_) => Ok(()),
        }
    }
}

pub(super) fn run(args: Args) -> Result<()> {
    let r = load::load(&args.rules)?;
    let ratings = load::load(&args.ratings)?;
    let system = System::named(&args.system).ok_or_else(|| {
        Error::msg(format!(
            "unknown rating system `{}`; systems are elo, glicko2, weng_lin, trueskill",
            args.system
        ))
    })?;
    let knobs = TacticRules::of(&r)?;
    let mut chosen = Vec::new();
    for name in &args.tactics {
        if args.tactics.iter().filter(|t| *t == name).count() > 1 {
            return Err(Error::msg(format!("tactic `{name}` is named twice")));
        }
        chosen.push((name.clone(), Chosen::new(name, &r, &knobs)?));
    }
    let ctx = Context::new(&r)?;
    let ships = if args.ships.is_empty() {
        ctx.ships.iter().map(|c| c.name.clone()).collect()
    } else {
        // Each name checked (and spelled as the ruleset spells it) before any battle.
        args.ships
            .iter()
            .map(|s| ctx.class(&r, s).map(|c| c.name))
            .collect::<Result<Vec<_>>>()?
    };
    let report = ladder(
        &r,
        &LadderOptions {
            tactics: chosen
                .iter()
                .map(|(name, c)| (display_name(name), c.tactic()))
                .collect(),
            ships,
            battles: args.battles,
            seed: args.seed,
            threads: args.threads,
            ratings: &ratings,
            system,
            per_period: args.per_period,
        },
    );
    chosen.iter().try_for_each(|(_, c)| c.check())?;
    let report = report?;
    super::print(&if args.json {
        super::json_with_ruleset(&report, &Identity::of(&r))
    } else {
        report.render(super::layout())
    })
}

/// A built-in tactic under its own spelling, a file under its path.
fn display_name(name: &str) -> String {
    BUILT_IN_TACTICS
        .iter()
        .find(|b| crate::names::same(b, name))
        .map_or_else(|| name.to_string(), |b| b.to_string())
}
