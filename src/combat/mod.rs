//! The starship combat engine (spec: shared/spec/combat.md).
//!
//! Library API, for the CLI and the scripting layer:
//! * [`volley()`]: the exact outcome of one phaser volley or torpedo (`VolleyReport`).
//! * [`duel()`]: one battle from a seed, optionally with its events (`DuelReport`;
//!   [`narrate`] renders it in English).
//! * [`simulate`]: Monte Carlo over many battles on rayon (`SimReport`); [`compare`] runs two
//!   rulesets on the same seeds.
//! * [`Tactic`]: the decision-maker trait; [`DefaultTactic`] (style from the ruleset's `tactic`
//!   section) plays both sides unless another is given; [`ClassicTactic`] is the first one, kept to
//!   measure against (`ladder`). Either side may be
//!   given (`duel_with`, `SimOptions` + `simulate_with`).
//!
//! Every number comes from the ruleset's `combat` section and ship table ([`Context`]
//! resolves them once). Randomness comes from a [`Roller`]: seeded PCG in play, rigged in tests.
//!
//! Plugging in a tactic: implement [`Tactic`] (it must be `Send + Sync`; it answers one
//! question at a time through a [`view::View`], which also says what is legal:
//! `can_fire`, `can_maneuver`, `can_warp`, ...). Per-battle state goes in the
//! [`tactics::Memory`] handed to `next_action`. Then
//! `simulate_with(&rules, &opts, [&mine, &ClassicTactic::default()], &|_| {})` or
//! `duel_with(&ctx, classes, [&mine, &other], Setup::standard(&ctx), seed, narrate)`.
//! The engine checks every answer: an illegal one ends that step of the phase.
//!
//! The revised rulings (spec combat.md R1–R11; the ruleset's `combat.rulings` lists them for
//! `arbiter rules show`):
//! * R1 one generator point to the shields a turn in all (`shields.generator_points_per_turn`);
//!   transfers between faces stay one roll a point.
//! * R2 "at half" halves the chance left after every penalty (`skill_rolls.halving_divisor`).
//! * R3 one Engines roll a turn, after the maneuvers, at the penalty per point over Vm.
//! * R4 badly damaged sensors also stop maneuvers beyond inertia and the warp jump.
//! * R5 a tactic's [`view::View`] shows the enemy as its sensors know it: state from the last
//!   successful Sensors roll (the start of the battle before one), position and facing unless
//!   the enemy is cloaked and undetected. The engine's legality checks see the real enemy.
//! * R6 in a turn a cloaked enemy has been detected, a ship may maneuver as well as fire.
//! * R7 the battery is charged in activation ([`tactics::Activation`]`::charge_battery`); it
//!   is spent in any phase; this turn's energy left at deactivation is lost.
//! * R8 defenders search in groups of `security_teams.teams_per_search_group` teams, each
//!   group rolling; a group that finds the boarders fights them.
//! * R9 [`Setup::standard`] starts with both ships' shields raised, paid from the battery
//!   (a scenario may set `shields_up: false`); simulations alternate the first move unless
//!   [`SimOptions`]`::first` says otherwise, and report results by initiative.
//! * R10 hull dice are the ship table's; `examples/house-d3-hulls.rules` has the prose's.
//! * R11 no number in engine code: the halving divisor, a damaged generator's divisor
//!   (`energy.damaged_generator_divisor`), inertia (`maneuvers.inertia`), torpedoes a turn
//!   (`torpedoes_per_turn`) and the team size (`transport.team_size`, people lost with a
//!   team) are ruleset data; a failure chance rolls the skill die, and the shields phase
//!   takes as many operations as the ruleset's allowances give.
//! * H1 shuttles are out of scope: hangar damage counts casualties and passes its excess to
//!   the hull; the built-in tactics never repair the hangars (`Loc::repair_plays`).
//! * B1 once activated, the auxiliary bridge halves the bridge's skills to the end of the
//!   battle (`ShipState::aux_bridge_active`). H1 and B1: doc/combat-rulings.md.
//!
//! Other rulings where the spec is silent (each a flow choice, no number): a failed Piloting
//! roll spends the maneuver's energy and leaves the ship where it was; free turns need no
//! roll; a failed Shields roll spends the attempt (and its energy); with shield control
//! damaged a transfer takes two points from the giving face; a damaged launcher that fails
//! keeps its torpedo; a warp jump always leaves the battle, but its distortion damage is
//! applied first and can destroy the ship; boarders who attacked are fought by all the
//! defenders at the next activation without a search roll; the auxiliary bridge is set up
//! once per battle; ships may share a hex (nothing can be fired at distance 0); a team can be
//! beamed when the enemy is in the phaser arc and its face toward the sender (either face on a
//! vertex) is at 0 or its shields are down; shields belong to the ship's faces (the source
//! names them front, front-left, ...), so they turn with the ship.
pub(crate) mod boarding;
pub(crate) mod builtin_tactics;
pub(crate) mod classic_planner;
pub mod context;
pub mod damage;
pub mod default_tactic;
pub(crate) mod duel;
pub mod events;
pub(crate) mod fire;
pub mod hex;
pub mod lab;
pub(crate) mod ladder;
pub(crate) mod movement;
pub(crate) mod narration;
pub(crate) mod reach;
pub(crate) mod repair;
pub mod roller;
pub(crate) mod scenario;
pub(crate) mod shields;
pub(crate) mod ship;
pub(crate) mod side;
pub mod sim;
pub(crate) mod skill;
pub mod tactics;
pub mod turn;
pub mod view;
pub mod volley;
pub(crate) mod warp;

#[cfg(test)]
mod tests;
