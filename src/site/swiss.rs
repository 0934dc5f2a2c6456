//! A Swiss tournament's pages: the standings with their tie-breaks, and each paired round's
//! boards and results.
use super::load::TournamentIn;
use super::{Context, Listed, Site};
use crate::html::Inline;
use crate::swiss::html;

pub(super) fn pages(cx: &Context, t: &TournamentIn, stem: &str, site: &mut Site) -> Listed {
    let main = format!("{stem}.html");
    let paired = t.tournament.paired.len();
    let rounds: Vec<(usize, String)> = (1..=paired)
        .map(|k| (k, format!("{stem}.round-{k}.html")))
        .collect();
    let mut page = cx.page(&t.title, Vec::new());
    page.paragraph(&format!(
        "{} players; {paired} of {} rounds paired.",
        t.tournament.players.len(),
        t.tournament.rounds
    ));
    if let Some(line) = html::tiebreak_line(&t.standings) {
        page.paragraph(&line);
    }
    page.table(&html::standings(&t.standings));
    if !rounds.is_empty() {
        page.heading(2, "Rounds");
        let listed: Vec<Vec<Inline>> = rounds
            .iter()
            .map(|(k, f)| vec![Inline::link(&format!("Round {k}"), f)])
            .collect();
        page.list(&listed);
    }
    site.files
        .insert(main.clone(), cx.finish(&mut page, t.ruleset));
    for (k, file) in &rounds {
        let title = format!("{}: round {k}", t.title);
        let mut page = cx.page(&title, vec![Inline::link(&t.title, &main)]);
        let mut steps = Vec::new();
        if *k > 1 {
            steps.push(Inline::link("Previous round", &rounds[k - 2].1));
        }
        if *k < paired {
            if !steps.is_empty() {
                steps.push(Inline::text(" · "));
            }
            steps.push(Inline::link("Next round", &rounds[*k].1));
        }
        if !steps.is_empty() {
            page.line(&steps);
        }
        page.table(&html::round(&t.tournament, *k));
        site.files
            .insert(file.clone(), cx.finish(&mut page, t.ruleset));
    }
    let played = t
        .tournament
        .paired
        .iter()
        .filter(|r| r.boards.iter().all(|b| b.result.is_some()))
        .count();
    Listed {
        title: t.title.clone(),
        href: main,
        note: format!("{played} of {} rounds played", t.tournament.rounds),
    }
}
