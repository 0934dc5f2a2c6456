//! A tournament's rounds as a calendar: one all-day event per round (what an organiser puts
//! on a club calendar and players plan around), round k on `start + (k-1) × every`. A round
//! already paired lists its boards (and results as they come in), and its SEQUENCE rises
//! with each change so calendar clients take the update. With a player, the feed is that
//! player's: each event says whom they play, with which colour, on which board.
use super::tournament::Tournament;
use crate::calendar::{tag, Calendar, Date, Event, Every};
use crate::error::Result;

pub(crate) struct CalendarOptions<'a> {
    /// The tournament's name (the calendar's title, part of every UID).
    pub name: &'a str,
    pub start: Date,
    pub every: Every,
    /// Only this player's games (a player number from `Tournament::player`).
    pub player: Option<usize>,
}

pub(crate) fn calendar(t: &Tournament, o: &CalendarOptions) -> Result<Calendar> {
    let id = tag(o.name, &[]);
    let name_of = |n: usize| {
        t.players
            .get(n.wrapping_sub(1))
            .map_or(String::from("?"), |p| p.name.clone())
    };
    let mut events = Vec::with_capacity(t.rounds);
    for k in 1..=t.rounds {
        let date = o.every.round(o.start, k)?;
        let paired = t.paired.get(k - 1);
        let results = paired.map_or(0, |r| {
            r.boards.iter().filter(|b| b.result.is_some()).count()
        });
        let sequence = paired.map_or(0, |_| 1 + results as u32);
        let (uid, summary, description) = match o.player {
            None => {
                let description = match paired {
                    None => "not paired yet".to_string(),
                    Some(r) => {
                        let mut lines: Vec<String> = r
                            .boards
                            .iter()
                            .enumerate()
                            .map(|(i, b)| {
                                let mut l = format!(
                                    "Board {}: {} – {}",
                                    i + 1,
                                    name_of(b.white),
                                    name_of(b.black)
                                );
                                if let Some(res) = &b.result {
                                    l.push_str(&format!(" {res}"));
                                }
                                l
                            })
                            .collect();
                        if let Some(p) = r.bye {
                            lines.push(format!("Bye: {}", name_of(p)));
                        }
                        lines.join("\n")
                    }
                };
                (
                    format!("{id}-round-{k}@arbiter"),
                    format!("{}: round {k}", o.name),
                    description,
                )
            }
            Some(p) => {
                let me = name_of(p);
                let game = paired.and_then(|r| {
                    r.boards
                        .iter()
                        .enumerate()
                        .find(|(_, b)| b.white == p || b.black == p)
                });
                let what = match (paired, game) {
                    (None, _) => "not paired yet".to_string(),
                    (Some(_), Some((i, b))) => {
                        let (colour, other) = if b.white == p {
                            ("white", b.black)
                        } else {
                            ("black", b.white)
                        };
                        let mut l = format!("board {}, {colour} against {}", i + 1, name_of(other));
                        if let Some(res) = &b.result {
                            l.push_str(&format!(" ({res})"));
                        }
                        l
                    }
                    (Some(r), None) if r.bye == Some(p) => "bye".to_string(),
                    (Some(_), None) => "not playing".to_string(),
                };
                (
                    format!("{id}-round-{k}-player-{p}@arbiter"),
                    format!("{}: round {k}, {what}", o.name),
                    format!("{me}, round {k}: {what}"),
                )
            }
        };
        events.push(Event {
            uid,
            date,
            summary,
            description: Some(description),
            sequence,
        });
    }
    let name = match o.player {
        Some(p) => format!("{} – {}", o.name, name_of(p)),
        None => o.name.to_string(),
    };
    Ok(Calendar {
        name,
        stamp: o.start,
        events,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::swiss::tournament::{Board, PairedRound};

    fn open() -> Tournament {
        let players = [("Ann", 2100), ("Bob", 2000), ("Cy", 1900)]
            .map(|(n, r)| (n.to_string(), r))
            .to_vec();
        let mut t = Tournament::new("Club Open", "swiss", 3, players).unwrap();
        t.paired.push(PairedRound {
            boards: vec![Board {
                white: 1,
                black: 2,
                result: Some("1-0".to_string()),
            }],
            bye: Some(3),
        });
        t
    }

    fn options(player: Option<usize>) -> CalendarOptions<'static> {
        CalendarOptions {
            name: "Club Open",
            start: Date::parse("2026-10-03").unwrap(),
            every: Every::parse("7d").unwrap(),
            player,
        }
    }

    #[test]
    fn a_round_an_event_listing_its_boards_once_paired() {
        let c = calendar(&open(), &options(None)).unwrap();
        let got: Vec<(String, &str, Option<&str>, u32)> = c
            .events
            .iter()
            .map(|e| {
                (
                    e.date.to_string(),
                    e.summary.as_str(),
                    e.description.as_deref(),
                    e.sequence,
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                (
                    "2026-10-03".to_string(),
                    "Club Open: round 1",
                    Some("Board 1: Ann – Bob 1-0\nBye: Cy"),
                    2
                ),
                (
                    "2026-10-10".to_string(),
                    "Club Open: round 2",
                    Some("not paired yet"),
                    0
                ),
                (
                    "2026-10-17".to_string(),
                    "Club Open: round 3",
                    Some("not paired yet"),
                    0
                ),
            ]
        );
        let id = tag("Club Open", &[]);
        assert_eq!(c.events[1].uid, format!("{id}-round-2@arbiter"));
    }

    #[test]
    fn a_players_feed_says_whom_they_play() {
        let bob = calendar(&open(), &options(Some(2))).unwrap();
        assert_eq!(bob.name, "Club Open – Bob");
        assert_eq!(
            bob.events[0].summary,
            "Club Open: round 1, board 1, black against Ann (1-0)"
        );
        let cy = calendar(&open(), &options(Some(3))).unwrap();
        assert_eq!(cy.events[0].summary, "Club Open: round 1, bye");
        assert_eq!(cy.events[2].summary, "Club Open: round 3, not paired yet");
        assert_ne!(cy.events[0].uid, bob.events[0].uid);
    }
}
