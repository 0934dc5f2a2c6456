//! arbiter: a rules engine for tabletop game clubs. Scoring, leagues and starship combat,
//! all reading their numbers from one ruleset file.
// What no other crate (the binary, tests, benches, fuzz targets) uses is pub(crate), so that
// dead_code sees every unused item.
#![warn(unreachable_pub)]
mod calendar;
pub mod cli;
pub mod combat;
pub mod engine_files;
pub mod error;
mod html;
pub mod io;
pub mod league;
pub mod lsp;
pub mod names;
mod output;
pub mod pointer;
mod progress;
pub mod rules;
mod scoped;
pub mod scoring;
pub mod script;
mod site;
pub mod stop;
mod style;
pub mod swiss;
