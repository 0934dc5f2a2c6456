//! The index: the club's name and a link to every part of its site.
use super::{Context, Listed};
use crate::html::Inline;

/// The lists the index shows, each page with a few words.
pub(super) struct Sections {
    pub seasons: Vec<Listed>,
    pub tournaments: Vec<Listed>,
    pub ratings: Vec<Listed>,
    pub rulesets: Vec<Listed>,
    pub balance: Option<Listed>,
}

pub(super) fn page(cx: &Context, s: &Sections) -> String {
    let mut page = crate::html::Page::new(&cx.loaded.club);
    let mut section = |heading: &str, items: &[Listed]| {
        if items.is_empty() {
            return;
        }
        page.heading(2, heading);
        let lines: Vec<Vec<Inline>> = items
            .iter()
            .map(|l| {
                vec![
                    Inline::link(&l.title, &l.href),
                    Inline::text(&format!(": {}", l.note)),
                ]
            })
            .collect();
        page.list(&lines);
    };
    section("Leagues", &s.seasons);
    section("Swiss tournaments", &s.tournaments);
    section("Ratings", &s.ratings);
    section("Balance", s.balance.as_slice());
    section("Rulesets", &s.rulesets);
    for r in &cx.loaded.rulesets {
        let i = cx
            .loaded
            .rulesets
            .iter()
            .position(|x| x.id.sha256 == r.id.sha256)
            .unwrap_or(0);
        page.ruleset(&r.id, Some(&cx.ruleset_pages[i]));
    }
    page.render_linked(super::STYLESHEET)
}
