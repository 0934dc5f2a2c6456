//! Swiss tournaments: the FIDE (Dutch) pairing system, TRF in and out, tie-breaks.
//! Pure: callers pass texts and values, nothing here touches a file.
// The matching and the pairing rules index several parallel tables by player and vertex
// number (as the handbook and Edmonds' algorithm are written); iterators would hide that.
#![allow(clippy::needless_range_loop)]
pub(crate) mod acceleration;
pub(crate) mod blossom;
pub(crate) mod calendar;
pub mod dutch;
pub(crate) mod html;
pub(crate) mod import;
pub mod model;
pub(crate) mod performance;
pub(crate) mod players;
pub(crate) mod report;
pub(crate) mod standings;
pub(crate) mod tiebreaks;
pub mod tournament;
pub mod trf;
pub mod trf_out;
pub(crate) mod unplayed;
pub(crate) mod weight_table;
pub(crate) mod wide;
