//! A static HTML page of a season a club can post: the table, the results by round and the
//! matches still to play, built with the crate's one page builder (`crate::html`).
use super::season::Season;
use super::standings::Standings;

use crate::html::{Column, Page, PageTable};
use crate::output::Align;

/// The page. `title` is shown as its heading (the season file's name, say).
pub fn page(title: &str, season: &Season, table: &Standings) -> String {
    let mut page = Page::new(title);
    let mut summary = format!("{} of {} matches played", table.played, table.scheduled);
    if !table.tiebreakers.is_empty() {
        summary.push_str(&format!(
            "; ties broken by {}",
            table.tiebreakers.join(", ").replace('_', " ")
        ));
    }
    page.paragraph(&format!("{summary}."));
    page.heading(2, "Table").table(&standings(table));
    page.heading(2, "Rounds");
    for r in &season.schedule.rounds {
        let mut t = PageTable::new(vec![
            Column::new("Home", Align::Left),
            Column::new("Score", Align::Right),
            Column::new("Away", Align::Left),
        ])
        .caption(&format!("Round {}", r.round));
        for m in &r.matches {
            let result = season
                .results
                .iter()
                .find(|x| x.round == r.round && x.home == m.home && x.away == m.away);
            let score = match result {
                Some(x) => format!("{} – {}", x.home_score, x.away_score),
                None => "–".to_string(),
            };
            t.row([m.home.to_string(), score, m.away.to_string()]);
        }
        if let Some(b) = &r.bye {
            t.row([format!("rests: {b}")]);
        }
        page.table(&t);
    }
    page.render()
}

/// The standings table: the team and its points stay in view on a narrow screen.
fn standings(table: &Standings) -> PageTable {
    let number = |h: &str| Column::new(h, Align::Right);
    let mut t = PageTable::new(vec![
        number("#"),
        Column::name("Team"),
        number("P"),
        number("W"),
        number("D"),
        number("L"),
        number("For"),
        number("Against"),
        number("Diff"),
        Column::points("Points"),
    ])
    .caption("Standings");
    for s in &table.standings {
        t.row(super::standings::row_cells(
            s.position.to_string(),
            s,
            format!("{:+}", s.difference),
        ));
    }
    t
}
