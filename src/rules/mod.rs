//! The ruleset model and its two formats (the rules language and YAML).
pub mod builtin;
pub mod combat;
pub mod dice;
pub mod doc;
pub mod edit;
pub mod formula;
pub mod grammar;
pub mod lang;
pub mod league;
pub mod limits;
pub mod lines;
pub mod load;
pub mod model;
pub mod nesting;
pub mod ranges;
pub mod scoring;
pub mod script;
pub mod ship;
pub mod swiss;
pub mod tactic;
pub mod yaml;

pub use dice::{Dice, DicePair};
pub use doc::Doc;
pub use formula::{Formula, NumberOrFormula};
pub use load::{load, Format};
pub use model::Ruleset;
pub use ship::Ship;
