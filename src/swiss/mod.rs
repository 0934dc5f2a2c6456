//! Swiss tournaments: the FIDE (Dutch) pairing system, TRF in and out, tie-breaks.
//! Pure: callers pass texts and values, nothing here touches a file.
// The matching and the pairing rules index several parallel tables by player and vertex
// number (as the handbook and Edmonds' algorithm are written); iterators would hide that.
#![allow(clippy::needless_range_loop)]
pub mod acceleration;
pub mod blossom;
pub mod calendar;
pub mod dutch;
pub mod html;
pub mod import;
pub mod model;
pub mod performance;
pub mod players;
pub mod report;
pub mod standings;
pub mod tiebreaks;
pub mod tournament;
pub mod trf;
pub mod trf_out;
pub mod unplayed;
pub mod weight_table;
pub mod wide;
