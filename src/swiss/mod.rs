//! Swiss tournaments: the FIDE (Dutch) pairing system, TRF in and out, tie-breaks.
//! Pure: callers pass texts and values, nothing here touches a file.
pub mod blossom;
pub mod dutch;
pub mod model;
pub mod standings;
pub mod tournament;
pub mod trf;
pub mod trf_out;
pub mod wide;
