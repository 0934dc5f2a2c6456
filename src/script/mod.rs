//! The scripting layer: a sandboxed rhai API over the rulesets and engines, `arbiter run`,
//! and the REPL.
//!
//! * `sandbox` — limits every evaluation runs under, and the script clock.
//! * `wait` — `sleep`: charged to a script's time limit, refused in hooks and tactics.
//! * `writes` — which files a script may write (what it may read is `crate::io::policy`).
//! * `engine` — building the sandboxed engine; the `Session` its functions share.
//! * `api/` — the functions scripts see, one area per file (see `api/mod.rs` for adding one).
//! * `handle` — an editable ruleset a script holds (`RulesHandle`) and places in it (`Node`).
//! * `tactic` — rhai tactics: a script's `fn tactic(me, enemy, ctx)` steering a side in combat.
//! * `hook` — rule hooks: rhai functions a ruleset names for rules formulas cannot express.
//! * `display` — results shown for people (maps as tables).
//! * `run`, `repl` — running a script file; the interactive (or piped) session.
pub mod api;
pub(crate) mod complete;
pub(crate) mod display;
pub mod engine;
pub(crate) mod errors;
pub(crate) mod handle;
pub mod hook;
pub mod repl;
pub mod run;
pub(crate) mod sandbox;
pub(crate) mod sugar;
pub mod tactic;
pub(crate) mod wait;
pub(crate) mod writes;
