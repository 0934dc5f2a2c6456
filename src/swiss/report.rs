//! Swiss results as people and programs read them: the standings as a table and a CSV, and a
//! round's pairing (the JSON and the scripts' maps are these types serialised).
use super::dutch::Pairing;
use super::model::Field;
use super::standings::{Standing, Standings};
use crate::output::{trim_number, Align, Table};
use serde::Serialize;

impl Standings {
    /// The table for people: rank, player, name, points, one column per tie-break.
    pub(crate) fn render(&self, layout: crate::output::Layout) -> String {
        let header = self.header();
        let cols: Vec<(&str, Align)> = header
            .iter()
            .enumerate()
            .map(|(i, h)| (h.as_str(), if i == 2 { Align::Left } else { Align::Right }))
            .collect();
        let mut table = Table::new(&cols);
        table.key(&["name", "points"]);
        for r in &self.standings {
            table.row(cells(r));
        }
        table.render(layout)
    }

    /// CSV with the table's columns.
    pub(crate) fn to_csv(&self) -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        let _ = w.write_record(self.header());
        for r in &self.standings {
            let _ = w.write_record(cells(r));
        }
        String::from_utf8(w.into_inner().unwrap_or_default()).unwrap_or_default()
    }

    fn header(&self) -> Vec<String> {
        let mut header: Vec<String> = ["rank", "player", "name", "points"]
            .map(String::from)
            .into();
        header.extend(self.tiebreakers.iter().cloned());
        header
    }
}

fn cells(r: &Standing) -> Vec<String> {
    let mut row = vec![
        r.rank.to_string(),
        r.player.to_string(),
        r.name.clone(),
        number(r.points),
    ];
    row.extend(r.tiebreaks.values().map(|v| number(*v)));
    row
}

fn number(v: f64) -> String {
    trim_number(v, 2)
}

/// One round's pairing by starting numbers: `{"round", "pairs": [{"white", "black"}], "bye"}`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub(crate) struct RoundPairing {
    pub round: usize,
    pub pairs: Vec<PairedBoard>,
    pub bye: Option<usize>,
    /// Each player's name and score before the round (by starting number − 1), for the table.
    #[serde(skip)]
    players: Vec<(String, u32)>,
}

#[derive(Debug, Clone, Copy, Serialize, PartialEq, Eq)]
pub(crate) struct PairedBoard {
    pub white: usize,
    pub black: usize,
}

impl RoundPairing {
    /// The pairing of the round after `field`'s played rounds.
    pub(crate) fn new(field: &Field, pairing: &Pairing) -> RoundPairing {
        RoundPairing {
            round: field.played_rounds + 1,
            pairs: pairing
                .pairs
                .iter()
                .map(|&(w, b)| PairedBoard {
                    white: w + 1,
                    black: b + 1,
                })
                .collect(),
            bye: pairing.bye.map(|b| b + 1),
            players: field
                .entrants
                .iter()
                .enumerate()
                .map(|(p, e)| (e.name.clone(), field.score_after(p, field.played_rounds)))
                .collect(),
        }
    }

    /// The boards for people: numbers, names and each player's points so far.
    pub(crate) fn render(&self, layout: crate::output::Layout) -> String {
        let player = |n: usize| format!("{n} {}", self.players[n - 1].0);
        let score = |n: usize| super::trf::show_tenths(self.players[n - 1].1);
        let mut t = Table::new(&[
            ("board", Align::Right),
            ("white", Align::Left),
            ("pts", Align::Right),
            ("black", Align::Left),
            ("pts", Align::Right),
        ]);
        t.key(&["white", "black"]);
        for (board, p) in self.pairs.iter().enumerate() {
            t.row([
                (board + 1).to_string(),
                player(p.white),
                score(p.white),
                player(p.black),
                score(p.black),
            ]);
        }
        let mut out = format!("Round {}\n{}", self.round, t.render(layout));
        if let Some(b) = self.bye {
            out += &format!("bye: {}\n", player(b));
        }
        out
    }
}
