//! The starship combat engine (spec: shared/spec/combat.md).
//!
//! Library API, for the CLI and the scripting layer:
//! * [`volley`]: the exact outcome of one phaser volley or torpedo (`VolleyReport`).
//! * [`duel`]: one battle from a seed, optionally with its events (`DuelReport`;
//!   [`narrate`] renders it in English).
//! * [`simulate`]: Monte Carlo over many battles on rayon (`SimReport`); [`compare`] runs two
//!   rulesets on the same seeds.
//! * [`Tactic`]: the decision-maker trait; [`DefaultTactic`] plays both sides unless another is
//!   given (`duel_with`, `SimOptions` + `simulate_with`).
//!
//! Every number comes from the ruleset's `combat` section and ship table ([`Context`]
//! resolves them once). Randomness comes from a [`Roller`]: seeded PCG in play, rigged in tests.
pub mod boarding;
pub mod context;
pub mod damage;
pub mod duel;
pub mod events;
pub mod fire;
pub mod hex;
pub mod movement;
pub mod repair;
pub mod roller;
pub mod scenario;
pub mod shields;
pub mod ship;
pub mod sim;
pub mod skill;
pub mod tactics;
pub mod turn;
pub mod view;
pub mod volley;
pub mod warp;

pub use context::{Context, Loc};
pub use duel::{duel, duel_with, narrate, DuelReport};
pub use events::Event;
pub use roller::{Pcg, Rigged, Roller};
pub use scenario::Scenario;
pub use ship::{ShipClass, ShipState};
pub use sim::{compare, simulate, simulate_with, Comparison, SimOptions, SimReport};
pub use tactics::{Action, DefaultTactic, Tactic};
pub use turn::{Battle, Outcome, OutcomeKind, Setup};
pub use volley::{volley, Shot, VolleyReport};

#[cfg(test)]
mod tests;
