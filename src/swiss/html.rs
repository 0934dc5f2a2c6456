//! The HTML of a Swiss tournament a club can post, built with the crate's one page builder
//! (`crate::html`), as the league's is: `page` is what `swiss table --html` writes; the site
//! (`crate::site`) uses the standings table and each round's boards on pages of their own.
use super::standings::Standings;
use super::tournament::Tournament;

use crate::html::{Cell, Column, Page, PageTable};
use crate::output::{trim_number, Align};
use crate::rules::identity::Identity;

/// The page: `title` is the tournament's name (a plain "Standings" when it has none); one column
/// per tie-break, headed in words.
pub(crate) fn page(title: &str, s: &Standings, ruleset: &Identity) -> String {
    let title = if title.trim().is_empty() {
        "Standings"
    } else {
        title
    };
    let mut page = Page::new(title);
    if let Some(line) = tiebreak_line(s) {
        page.paragraph(&line);
    }
    page.table(&standings(s)).ruleset(ruleset, None).render()
}

/// "Ties broken by Buchholz cut1, ..." (none without tie-breaks).
pub(crate) fn tiebreak_line(s: &Standings) -> Option<String> {
    if s.tiebreakers.is_empty() {
        return None;
    }
    let named: Vec<String> = s.tiebreakers.iter().map(|t| words(t)).collect();
    Some(format!("Ties broken by {}.", named.join(", ")))
}

/// The standings with one column per tie-break; the name and the points stay in view.
pub(crate) fn standings(s: &Standings) -> PageTable {
    let mut columns = vec![
        Column::new("Rank", Align::Right),
        Column::new("No.", Align::Right),
        Column::name("Name"),
        Column::points("Points"),
    ];
    columns.extend(
        s.tiebreakers
            .iter()
            .map(|t| Column::new(&words(t), Align::Right)),
    );
    let mut table = PageTable::new(columns).caption("Standings");
    for r in &s.standings {
        let mut row = vec![
            r.rank.to_string(),
            r.player.to_string(),
            r.name.clone(),
            points(r.points),
        ];
        row.extend(r.tiebreaks.values().map(|v| points(*v)));
        table.row(row);
    }
    table
}

/// Round `round`'s boards (1-based): white, result (`–` until played), black, and the player
/// who sat the round out on the pairing bye.
pub(crate) fn round(t: &Tournament, round: usize) -> PageTable {
    let mut table = PageTable::new(vec![
        Column::new("Board", Align::Right),
        Column::name("White"),
        Column::new("Result", Align::Left),
        Column::new("Black", Align::Left),
    ])
    .caption(&format!("Round {round}"));
    let name = |n: usize| {
        t.players
            .get(n.wrapping_sub(1))
            .map_or_else(|| n.to_string(), |p| format!("{} ({n})", p.name))
    };
    let Some(paired) = t.paired.get(round.wrapping_sub(1)) else {
        return table;
    };
    for (i, b) in paired.boards.iter().enumerate() {
        let result = b.result.as_deref().map_or("–".to_string(), shown_result);
        table.cells(vec![
            Cell::text(i + 1),
            Cell::text(name(b.white)),
            Cell::text(result),
            Cell::text(name(b.black)),
        ]);
    }
    if let Some(p) = paired.bye {
        table.row([String::new(), name(p), "bye".to_string()]);
    }
    table
}

/// A result as a club reads it: `1/2-1/2` as `½–½`, forfeits in words.
fn shown_result(r: &str) -> String {
    match r {
        "1/2-1/2" => "½–½".to_string(),
        "+-" => "1–0 forfeit".to_string(),
        "-+" => "0–1 forfeit".to_string(),
        "--" => "double forfeit".to_string(),
        other => other.replace('-', "–"),
    }
}

fn points(v: f64) -> String {
    trim_number(v, 2)
}

/// A tie-break's key in words: `buchholz_cut1` → `Buchholz cut1`.
fn words(key: &str) -> String {
    let spaced = key.replace('_', " ");
    let mut chars = spaced.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => spaced,
    }
}
