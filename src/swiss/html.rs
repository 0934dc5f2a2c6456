//! A static HTML page of a Swiss tournament's standings a club can post, built with the crate's
//! one page builder (`crate::html`), as the league's page is.
use super::standings::Standings;

use crate::html::{Column, Page, PageTable};
use crate::output::{trim_number, Align};

/// The page: `title` is the tournament's name (a plain "Standings" when it has none); one column
/// per tie-break, headed in words.
pub fn page(title: &str, s: &Standings) -> String {
    let tiebreaks = &s.tiebreakers;
    let title = if title.trim().is_empty() {
        "Standings"
    } else {
        title
    };
    let mut columns = vec![
        Column::new("Rank", Align::Right),
        Column::new("No.", Align::Right),
        Column::name("Name"),
        Column::points("Points"),
    ];
    columns.extend(
        tiebreaks
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
    let mut page = Page::new(title);
    if !tiebreaks.is_empty() {
        let named: Vec<String> = tiebreaks.iter().map(|t| words(t)).collect();
        page.paragraph(&format!("Ties broken by {}.", named.join(", ")));
    }
    page.table(&table).render()
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
