//! The functions scripts see, one area per file.
//!
//! Adding an engine area (score, rate, schedule, simulate, volley) is one new file `api/AREA.rs`
//! plus one line in `register_all` and one in `help` below. The template, for `score`:
//!
//! ```ignore
//! use super::convert::{checked, input, to_dynamic, ScriptResult};
//! use super::ApiDoc;
//! use crate::script::{engine::Session, handle::RulesHandle, sandbox::engine_call};
//! use rhai::{Dynamic, Engine};
//!
//! pub const HELP: &[ApiDoc] =
//!     &[ApiDoc::new("score", "score(game)", "score a game record (map or path)")];
//!
//! pub fn register(engine: &mut Engine, session: &Session) {
//!     let s = session.clone();
//!     // As a function: the session's ruleset (--rules / :rules) ...
//!     engine.register_fn("score", move |game: Dynamic| score(&checked(s.current())?, &game));
//!     // ... and as a method on a ruleset a script holds (and may have edited).
//!     engine.register_fn("score", |r: &mut RulesHandle, game: Dynamic| score(r, &game));
//! }
//!
//! fn score(r: &RulesHandle, game: &Dynamic) -> ScriptResult<Dynamic> {
//!     let record: GameRecord = input(game, "a game record")?;          // a map or a path
//!     let result = engine_call(|| r.with(|rules| crate::scoring::score(rules, &record)));
//!     to_dynamic(&checked(result)?)                                   // the JSON's keys
//! }
//! ```
//!
//! * Inputs: `convert::input::<T>(&value, "what")` takes a map or a path (files are read with
//!   positions); `convert::from_dynamic::<T>` takes data only. Plain numbers/strings arrive as
//!   rhai types (`INT` = i64, `FLOAT` = f64, `&str`).
//! * Results: `convert::to_dynamic(&result)` — any `Serialize` becomes a map with the same keys
//!   as its JSON (integers INT, other numbers FLOAT).
//! * Errors: `checked(arbiter_result)` / `script_error(msg)`; the script's file, line and column
//!   are added by the runner.
//! * Work: wrap engine calls in `sandbox::engine_call`: their time and memory count against the
//!   script, and a script past its bound is stopped there (engines check `crate::stop`).
//! * Paths: check every path a script names with `convert::readable(path, Kind)` before
//!   opening it (`script::policy`); never read a file first and check after.
//! * Rulesets: `r.with(|rules| ..)` borrows the current (always valid) ruleset; `r.snapshot()`
//!   clones it for work that outlives the call.
//! * Rhai code an engine runs: a rule hook is `crate::script::hook::CompiledHook` (compiled
//!   once; `call::<T>(&[json args])` from any thread); a combat tactic is
//!   `crate::script::tactic::ScriptTactic` (a function of the running script via
//!   `session.functions()`, or a .rhai file), which implements `combat::tactics::Tactic`.
//! * Which ruleset a function form uses: `which_ruleset::ruleset_for` (the session's, else the one the
//!   input names, else the command's default).
//!
//! Areas: `rules` (rulesets), `dice`, `scoring` (score, score_vs, rate), `league` (schedule,
//! standings), `swiss` (tournaments: create, pair, record, standings, TRF), `combat` (simulate, volley, tactics), `lab` (sweep, matrix, balance).
pub(crate) mod combat;
pub mod convert;
pub(crate) mod dice;
pub(crate) mod fields;
pub(crate) mod lab;
pub(crate) mod league;
pub(crate) mod rules;
pub(crate) mod scoring;
pub(crate) mod swiss;
pub(crate) mod which_ruleset;

use super::engine::Session;
use crate::rules::limits::Limits;
use rhai::Engine;

/// One line of `:help`: the function's name (for completion), how it is called, what it does.
#[derive(Debug, Clone, Copy)]
pub struct ApiDoc {
    pub name: &'static str,
    pub usage: &'static str,
    pub summary: &'static str,
}

impl ApiDoc {
    pub(crate) const fn new(
        name: &'static str,
        usage: &'static str,
        summary: &'static str,
    ) -> ApiDoc {
        ApiDoc {
            name,
            usage,
            summary,
        }
    }
}

/// Functions that need no session (also given to rule hooks).
pub(crate) fn register_pure(engine: &mut Engine, limits: &Limits) {
    dice::register(engine, limits);
}

/// Every function of a script session.
pub(crate) fn register_all(engine: &mut Engine, session: &Session) {
    register_pure(engine, &session.limits);
    rules::register(engine, session);
    scoring::register(engine, session);
    league::register(engine, session);
    swiss::register(engine, session);
    combat::register(engine, session);
    lab::register(engine, session);
}

/// The whole API, for `:help` and tab completion.
pub fn help() -> Vec<ApiDoc> {
    [
        rules::HELP,
        dice::HELP,
        scoring::HELP,
        league::HELP,
        swiss::HELP,
        combat::HELP,
        lab::HELP,
    ]
    .concat()
}
