//! The starship combat engine (spec: shared/spec/combat.md).
//!
//! Library API, for the CLI and the scripting layer:
//! * [`volley()`]: the exact outcome of one phaser volley or torpedo (`VolleyReport`).
//! * [`duel()`]: one battle from a seed, optionally with its events (`DuelReport`;
//!   [`narrate`] renders it in English).
//! * [`simulate`]: Monte Carlo over many battles on rayon (`SimReport`); [`compare`] runs two
//!   rulesets on the same seeds.
//! * [`Tactic`]: the decision-maker trait; [`DefaultTactic`] plays both sides unless another is
//!   given (`duel_with`, `SimOptions` + `simulate_with`).
//!
//! Every number comes from the ruleset's `combat` section and ship table ([`Context`]
//! resolves them once). Randomness comes from a [`Roller`]: seeded PCG in play, rigged in tests.
//!
//! Plugging in a tactic: implement [`Tactic`] (it must be `Send + Sync`; it answers one
//! question at a time through a [`view::View`], which also says what is legal:
//! `can_fire`, `can_maneuver`, `can_warp`, ...). Per-battle state goes in the
//! [`tactics::Memory`] handed to `next_action`. Then
//! `simulate_with(&rules, &opts, [&mine, &DefaultTactic::default()], &|_| {})` or
//! `duel_with(&ctx, classes, [&mine, &other], Setup::standard(&ctx), seed, narrate)`.
//! The engine checks every answer: an illegal one ends that step of the phase.
//!
//! Rulings the engine makes where the spec is silent (each a flow choice, no number):
//! halvings apply before penalties; a failed Piloting roll spends the maneuver's energy and
//! leaves the ship where it was; free turns need no roll; a failed Shields roll spends the
//! attempt (and its energy); with shield control damaged a transfer takes two points from the
//! giving face; energy left at deactivation may charge the battery, the rest is lost; a
//! damaged launcher that fails keeps its torpedo; a warp jump always leaves the battle, but
//! its distortion damage is applied first and can destroy the ship; boarders who attacked are
//! fought by the defenders at the next activation without a search roll; the auxiliary bridge
//! is set up once per battle; ships may share a hex (nothing can be fired at distance 0); a
//! team can be beamed when the enemy is in the phaser arc and its face toward the sender (either
//! face on a vertex) is at 0 or its shields are down; while a ship is cloaked its enemy moves by
//! inertia only, even in a turn it has found the cloaked ship; shields belong to the ship's
//! faces (the source names them front, front-left, ...), so they turn with the ship.
pub mod boarding;
pub mod context;
pub mod damage;
pub mod duel;
pub mod events;
pub mod fire;
pub mod hex;
pub mod lab;
pub mod movement;
pub mod planner;
pub mod reach;
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
