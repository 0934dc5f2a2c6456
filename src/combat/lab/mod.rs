//! The balance lab: the questions a designer asks of the combat engine, answered by many
//! simulations on common random numbers.
//!
//! * [`sweep()`]: win rates against one or two ruleset values (every point on the same seeds).
//! * [`matrix()`]: every ordered pair of ships, a Bradley–Terry strength and suggested points.
//! * [`balance()`]: the value of a parameter at which a matchup is even (or any target share),
//!   by a bracketing search that samples each candidate only until it can tell.
//! * [`to_precision`]: one matchup, sampled until both win rates are known to ±P.
//!
//! Everything runs through `combat::sim::simulate_with` in fixed batches whose seeds depend only on
//! the run seed and the batch's index ([`sampling`]), and every stopping decision is made on
//! integer sums after a whole round: the answers do not depend on the thread count.
pub(crate) mod adaptive;
pub mod balance;
pub mod matrix;
pub(crate) mod parameter;
pub mod rivals;
pub(crate) mod sampling;
pub(crate) mod strength;
pub(crate) mod sweep;
