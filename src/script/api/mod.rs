//! The functions scripts see, one area per file.
//!
//! Adding an engine area (score, rate, schedule, simulate, volley, tactics) is one new file
//! `api/AREA.rs` with:
//!   * `pub const HELP: &[ApiDoc]` — one line per function (the REPL's `:help` and completion);
//!   * `pub fn register(engine: &mut Engine, session: &Session)` — registers the functions, each
//!     as a plain function using `session.current()` and as a method on a `RulesHandle` (first
//!     parameter `r: &mut RulesHandle`, engine input from `r.with(..)` or `r.snapshot()`);
//!     inputs with `convert::input::<T>(&value, "a game")` (a map or a path), results with
//!     `convert::to_dynamic(&result)` (the same keys as the JSON), errors with `checked(..)`;
//!     long engine work inside `sandbox::untimed(|| ..)`;
//!
//! and one line each in `register_all` and `help` below.
pub mod convert;
pub mod dice;
pub mod fields;
pub mod rules;

use super::engine::Session;
use super::sandbox::Limits;
use rhai::Engine;

/// One line of `:help`: the function's name (for completion), how it is called, what it does.
#[derive(Debug, Clone, Copy)]
pub struct ApiDoc {
    pub name: &'static str,
    pub usage: &'static str,
    pub summary: &'static str,
}

impl ApiDoc {
    pub const fn new(name: &'static str, usage: &'static str, summary: &'static str) -> ApiDoc {
        ApiDoc { name, usage, summary }
    }
}

/// Functions that need no session (also given to rule hooks).
pub fn register_pure(engine: &mut Engine, limits: &Limits) {
    dice::register(engine, limits);
}

/// Every function of a script session.
pub fn register_all(engine: &mut Engine, session: &Session) {
    register_pure(engine, &session.limits);
    rules::register(engine, session);
    // Engine areas land here, one line each: score::register(engine, session); ...
}

/// The whole API, for `:help` and tab completion.
pub fn help() -> Vec<ApiDoc> {
    [rules::HELP, dice::HELP].concat()
}
