//! A season's pages: the standings (the team names linking to the teams' pages), the fixtures
//! and results by round, and a page per team with its matches.
use super::load::SeasonIn;
use super::slug::Slugs;
use super::{Context, Listed, Site};
use crate::html::{Cell, Column, Inline, PageTable};
use crate::league::html;
use crate::league::teams::Team;
use crate::output::Align;

pub(super) fn pages(cx: &Context, s: &SeasonIn, stem: &str, site: &mut Site) -> Listed {
    let main = format!("{stem}.html");
    let fixtures = format!("{stem}.fixtures.html");
    let mut slugs = Slugs::default();
    let teams: Vec<(Team, String)> = s
        .season
        .teams
        .iter()
        .map(|t| {
            let file = format!("{stem}.{}.html", slugs.name("team", &t.to_string(), "team"));
            (t.clone(), file)
        })
        .collect();
    let link = |t: &Team| {
        teams
            .iter()
            .find(|(team, _)| team == t)
            .map(|(_, f)| f.clone())
    };
    let crumb = || Inline::link(&s.title, &main);

    let mut page = cx.page(&s.title, Vec::new());
    page.paragraph(&html::summary(&s.standings));
    page.line(&[Inline::link("Fixtures and results by round", &fixtures)]);
    page.table(&html::standings(&s.standings, &link));
    page.heading(2, "Teams");
    let listed: Vec<Vec<Inline>> = teams
        .iter()
        .map(|(t, f)| vec![Inline::link(&t.to_string(), f)])
        .collect();
    page.list(&listed);
    site.files
        .insert(main.clone(), cx.finish(&mut page, s.ruleset));

    let mut page = cx.page(&format!("{}: fixtures and results", s.title), vec![crumb()]);
    for t in html::rounds(&s.season, None, &link) {
        page.table(&t);
    }
    site.files.insert(fixtures, cx.finish(&mut page, s.ruleset));

    for (team, file) in &teams {
        let mut page = cx.page(&format!("{team} — {}", s.title), vec![crumb()]);
        if let Some(row) = s.standings.standings.iter().find(|r| r.team == *team) {
            page.paragraph(&format!(
                "Position {} with {} points: played {}, won {}, drawn {}, lost {}; {} for, {} \
                 against.",
                row.position,
                crate::output::trim_number(row.points, 3),
                row.played,
                row.won,
                row.drawn,
                row.lost,
                row.scored,
                row.against
            ));
        }
        page.table(&matches(s, team, &link));
        site.files
            .insert(file.clone(), cx.finish(&mut page, s.ruleset));
    }
    Listed {
        title: s.title.clone(),
        href: main,
        note: format!(
            "{} of {} matches played",
            s.standings.played, s.standings.scheduled
        ),
    }
}

/// One team's matches in round order: where, against whom, the score (theirs first) and the
/// outcome; a round it rests is said so.
fn matches(s: &SeasonIn, team: &Team, link: html::TeamLink) -> PageTable {
    let mut t = PageTable::new(vec![
        Column::new("Round", Align::Right),
        Column::name("Opponent"),
        Column::new("Venue", Align::Left),
        Column::new("Score", Align::Right),
        Column::points("Result"),
    ])
    .caption("Matches");
    for r in &s.season.schedule.rounds {
        if r.bye.as_ref() == Some(team) {
            t.row([r.round.to_string(), "(rests)".to_string()]);
        }
        for m in &r.matches {
            let (opponent, venue) = if m.home == *team {
                (&m.away, "home")
            } else if m.away == *team {
                (&m.home, "away")
            } else {
                continue;
            };
            let result = s
                .season
                .results
                .iter()
                .find(|x| x.round == r.round && x.home == m.home && x.away == m.away);
            let (score, outcome) = match result {
                None => ("–".to_string(), String::new()),
                Some(x) => {
                    let (ours, theirs) = if venue == "home" {
                        (x.home_score, x.away_score)
                    } else {
                        (x.away_score, x.home_score)
                    };
                    let outcome = match ours.cmp(&theirs) {
                        std::cmp::Ordering::Greater => "won",
                        std::cmp::Ordering::Equal => "drawn",
                        std::cmp::Ordering::Less => "lost",
                    };
                    (format!("{ours} – {theirs}"), outcome.to_string())
                }
            };
            t.cells(vec![
                Cell::text(r.round),
                Cell::link(opponent, link(opponent)),
                Cell::text(venue),
                Cell::text(score),
                Cell::text(outcome),
            ]);
        }
    }
    t
}
