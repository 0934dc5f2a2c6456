//! The league engine: schedules (the source's rotation, FIDE Berger tables, carry-over
//! balanced schedules), their carry-over and breaks, seasons and standings.
//!
//! Library API for the CLI and scripts:
//! `schedule(&ScheduleOptions, &Teams) -> Result<Schedule>`,
//! `standings(&Ruleset, &Season) -> Result<Standings>`, and `Season::{create, load, record}`.
pub mod balanced;
pub mod berger;
pub mod breaks;
pub mod calendar;
pub mod carryover;
pub mod fixtures;
pub mod galois;
pub mod home_away;
pub mod html;
pub mod plan;
pub mod rotation;
pub mod schedule;
pub mod search;
pub mod season;
pub mod standings;
pub mod teams;
pub mod tiebreak;
