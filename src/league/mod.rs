//! The league engine: schedules (the source's rotation, FIDE Berger tables, carry-over
//! balanced schedules), their carry-over and breaks, seasons and standings.
//!
//! Library API for the CLI and scripts:
//! `schedule(&ScheduleOptions, &Teams) -> Result<Schedule>`,
//! `standings(&Ruleset, &Season) -> Result<Standings>`, and `Season::{create, load, record}`.
pub(crate) mod balanced;
pub(crate) mod berger;
pub(crate) mod breaks;
pub(crate) mod calendar;
pub(crate) mod carryover;
pub(crate) mod fixtures;
pub(crate) mod galois;
pub mod home_away;
pub(crate) mod html;
pub(crate) mod plan;
pub(crate) mod rotation;
pub mod schedule;
pub mod search;
pub mod season;
pub mod standings;
pub mod teams;
pub(crate) mod tiebreak;
