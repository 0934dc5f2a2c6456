//! The balance lab: the questions a designer asks of the combat engine, answered by many
//! simulations on common random numbers.
//!
//! * [`sweep()`]: win rates against one or two ruleset values (every point on the same seeds).
//! * [`matrix()`]: every ordered pair of ships, a Bradley–Terry strength and suggested points.
//! * [`balance()`]: the value of a parameter at which a matchup is even (or any target share),
//!   by a bracketing search that samples each candidate only until it can tell.
//! * [`to_precision`]: one matchup, sampled until both win rates are known to ±P.
//!
//! Everything runs through `combat::simulate_with` in fixed batches whose seeds depend only on
//! the run seed and the batch's index ([`sampling`]), and every stopping decision is made on
//! integer sums after a whole round: the answers do not depend on the thread count.
pub mod adaptive;
pub mod balance;
pub mod matrix;
pub mod parameter;
pub mod rivals;
pub mod sampling;
pub mod strength;
pub mod sweep;

pub use adaptive::{to_precision, AdaptiveReport};
pub use balance::{balance, BalanceOptions, BalanceReport};
pub use matrix::{matrix, MatrixOptions, MatrixReport};
pub use parameter::{values_from_range, Parameter};
pub use sweep::{sweep, Axis, SweepReport};
