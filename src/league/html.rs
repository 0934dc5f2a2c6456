//! The HTML of a season a club can post: the table, the results by round and the matches
//! still to play, built with the crate's one page builder (`crate::html`). `page` is the
//! page `league table --html` writes; the site (`crate::site`) lays the same tables out over
//! several pages, its team names linking to each team's page.
use super::season::Season;
use super::standings::Standings;
use super::teams::Team;

use crate::html::{Cell, Column, Page, PageTable};
use crate::output::Align;
use crate::rules::identity::Identity;

/// Where a team's name links to (a site's team page), if anywhere.
pub(crate) type TeamLink<'a> = &'a dyn Fn(&Team) -> Option<String>;

/// The page. `title` is shown as its heading (the season file's name, say).
pub(crate) fn page(title: &str, season: &Season, table: &Standings, ruleset: &Identity) -> String {
    let mut page = Page::new(title);
    let none = |_: &Team| None;
    page.paragraph(&summary(table));
    page.heading(2, "Table").table(&standings(table, &none));
    page.heading(2, "Rounds");
    for r in rounds(season, None, &none) {
        page.table(&r);
    }
    page.ruleset(ruleset, None).render()
}

/// "5 of 12 matches played; ties broken by head to head, ...".
pub(crate) fn summary(table: &Standings) -> String {
    let mut summary = format!("{} of {} matches played", table.played, table.scheduled);
    if !table.tiebreakers.is_empty() {
        summary.push_str(&format!(
            "; ties broken by {}",
            table.tiebreakers.join(", ").replace('_', " ")
        ));
    }
    format!("{summary}.")
}

/// One captioned table per round: home, score, away (`–` until played); only `team`'s matches
/// when one is given (rounds it plays no part in are left out).
pub(crate) fn rounds(season: &Season, team: Option<&Team>, link: TeamLink) -> Vec<PageTable> {
    let mut out = Vec::new();
    for r in &season.schedule.rounds {
        let mut t = PageTable::new(vec![
            Column::new("Home", Align::Left),
            Column::new("Score", Align::Right),
            Column::new("Away", Align::Left),
        ])
        .caption(&format!("Round {}", r.round));
        for m in &r.matches {
            if team.is_some_and(|t| *t != m.home && *t != m.away) {
                continue;
            }
            let result = season
                .results
                .iter()
                .find(|x| x.round == r.round && x.home == m.home && x.away == m.away);
            let score = match result {
                Some(x) => format!("{} – {}", x.home_score, x.away_score),
                None => "–".to_string(),
            };
            t.cells(vec![
                Cell::link(&m.home, link(&m.home)),
                Cell::text(score),
                Cell::link(&m.away, link(&m.away)),
            ]);
        }
        if let Some(b) = &r.bye {
            if team.is_none_or(|t| t == b) {
                t.row([format!("rests: {b}")]);
            }
        }
        if !t.is_empty() {
            out.push(t);
        }
    }
    out
}

/// The standings table: the team and its points stay in view on a narrow screen.
pub(crate) fn standings(table: &Standings, link: TeamLink) -> PageTable {
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
        let cells =
            super::standings::row_cells(s.position.to_string(), s, format!("{:+}", s.difference));
        let mut row: Vec<Cell> = cells.into_iter().map(Cell::text).collect();
        row[1] = Cell::link(&s.team, link(&s.team));
        t.cells(row);
    }
    t
}
