//! arbiter: a rules engine for tabletop game clubs. Scoring, leagues and starship combat,
//! all reading their numbers from one ruleset file.
pub mod calendar;
pub mod cli;
pub mod combat;
pub mod error;
pub mod files;
pub mod html;
pub mod io;
pub mod league;
pub mod lsp;
pub mod names;
pub mod output;
pub mod pointer;
pub mod progress;
pub mod rules;
pub mod scoped;
pub mod scoring;
pub mod script;
pub mod site;
pub mod stop;
pub mod style;
pub mod swiss;
