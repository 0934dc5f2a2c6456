//! A rating history's pages: the leaderboard, and a page per player with the chart of their
//! rating (drawn as `rate --plot` draws it) and their games.
use super::load::RatingsIn;
use super::slug::Slugs;
use super::{Charts, Context, Listed, Site};
use crate::error::Result;
use crate::html::{Cell, Column, Inline, PageTable};
use crate::output::{trim_number, Align};
use crate::scoring::rating_report::RatingReport;

pub(super) fn pages(
    cx: &Context,
    r: &RatingsIn,
    stem: &str,
    charts: &dyn Charts,
    site: &mut Site,
) -> Result<Listed> {
    let main = format!("{stem}.html");
    let report = &r.report;
    let mut slugs = Slugs::default();
    let mut players: Vec<_> = report.players.iter().collect();
    players.sort_by_key(|p| p.rank);
    let files: Vec<(String, String)> = players
        .iter()
        .map(|p| {
            let s = format!("{stem}.{}", slugs.name("player", &p.name, "player"));
            (p.name.clone(), s)
        })
        .collect();
    let page_of = |name: &str| {
        files
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, s)| format!("{s}.html"))
    };

    let title = format!("Ratings: {}", r.title);
    let mut page = cx.page(&title, Vec::new());
    page.paragraph(&format!(
        "{} ratings over {} games; ranked by {}.",
        report.system, report.games_rated, report.ranked_by
    ));
    if report.provisional_games > 0 {
        page.paragraph(&format!(
            "Players with fewer than {} games are provisional: listed after the others.",
            report.provisional_games
        ));
    }
    page.table(&leaderboard(report, &page_of));
    for note in &report.notes {
        page.paragraph(note);
    }
    site.files
        .insert(main.clone(), cx.finish(&mut page, r.ruleset));

    for p in &players {
        let stem = page_of(&p.name).unwrap_or_default();
        let stem = stem.trim_end_matches(".html");
        let chart = format!("{stem}.svg");
        let svg = charts.rating(report, &p.name)?;
        site.files.insert(chart.clone(), svg);
        let mut page = cx.page(&p.name, vec![Inline::link(&title, &main)]);
        let provisional = if p.provisional { " (provisional)" } else { "" };
        page.paragraph(&format!(
            "Place {}{provisional}: rating {} after {} games (started at {}, {} since).",
            p.rank,
            trim_number(p.rating, 1),
            p.games,
            trim_number(p.start, 1),
            signed(p.change)
        ));
        page.figure(
            &chart,
            &format!("{}'s rating over the games of {}", p.name, r.title),
            &format!("{}'s rating after each game it changed.", p.name),
        );
        page.table(&games(report, &p.name, &page_of));
        site.files
            .insert(format!("{stem}.html"), cx.finish(&mut page, r.ruleset));
    }
    Ok(Listed {
        title: title.clone(),
        href: main,
        note: format!("{} players, {} games", players.len(), report.games_rated),
    })
}

fn leaderboard(report: &RatingReport, page_of: &dyn Fn(&str) -> Option<String>) -> PageTable {
    let uncertain = report.players.iter().any(|p| p.deviation.is_some());
    let mut columns = vec![
        Column::new("#", Align::Right),
        Column::name("Player"),
        Column::points("Rating"),
    ];
    if uncertain {
        columns.push(Column::new("±", Align::Right));
    }
    columns.extend([
        Column::new("Games", Align::Right),
        Column::new("Change", Align::Right),
    ]);
    let mut t = PageTable::new(columns).caption("Leaderboard");
    let mut players: Vec<_> = report.players.iter().collect();
    players.sort_by_key(|p| p.rank);
    for p in players {
        let name = if p.provisional {
            format!("{} (provisional)", p.name)
        } else {
            p.name.clone()
        };
        let mut row = vec![
            Cell::text(p.rank),
            Cell::link(name, page_of(&p.name)),
            Cell::text(trim_number(p.rating, 1)),
        ];
        if uncertain {
            row.push(Cell::text(
                p.deviation.map(|d| trim_number(d, 1)).unwrap_or_default(),
            ));
        }
        row.extend([Cell::text(p.games), Cell::text(signed(p.change))]);
        t.cells(row);
    }
    t
}

/// A player's games: which, the place, the rating before and after, and who else played.
fn games(report: &RatingReport, name: &str, page_of: &dyn Fn(&str) -> Option<String>) -> PageTable {
    let mut t = PageTable::new(vec![
        Column::new("Game", Align::Right),
        Column::new("Place", Align::Right),
        Column::new("Before", Align::Right),
        Column::new("After", Align::Right),
        Column::points("Change"),
        Column::new("Against", Align::Left),
    ])
    .caption("Games");
    for g in &report.games {
        let Some(me) = g.players.iter().find(|p| p.name == name) else {
            continue;
        };
        let game = match (&g.label, &g.period) {
            (Some(l), _) => format!("{} ({l})", g.game),
            (None, Some(p)) => format!("{} (period {p})", g.game),
            (None, None) => g.game.to_string(),
        };
        let others: Vec<&str> = g
            .players
            .iter()
            .filter(|p| p.name != name)
            .map(|p| p.name.as_str())
            .collect();
        let against = match others.as_slice() {
            [one] => Cell::link(one, page_of(one)),
            _ => Cell::text(others.join(", ")),
        };
        t.cells(vec![
            Cell::text(game),
            Cell::text(trim_number(me.place, 1)),
            Cell::text(trim_number(me.before, 1)),
            Cell::text(trim_number(me.after, 1)),
            Cell::text(signed(me.change)),
            against,
        ]);
    }
    t
}

/// A change with its sign: `+12.5`, `-3`, `0`.
fn signed(x: f64) -> String {
    let s = trim_number(x, 1);
    if s == "0" || s == "-0" {
        "0".to_string()
    } else if x > 0.0 {
        format!("+{s}")
    } else {
        s
    }
}
