//! `arbiter site`: a club's static site, a folder of HTML pages made from a club file (see
//! `club`): an index; each season's standings, fixtures and results, and a page per team; each
//! Swiss tournament's standings and each round's pairings; each rating history's leaderboard
//! with a chart per player; each ruleset in `rules explain`'s words with its diff against its
//! base; and, when asked, the balance matrix. One stylesheet, no script, nothing fetched from
//! the network; every page names the ruleset it was made under and its sha256; the same files
//! give the same bytes (no clock, no randomness but the club file's seed).
//!
//! `load` reads the inputs (through the I/O layer); the page kinds (`index`, `season`,
//! `swiss`, `ratings`, `ruleset`, `balance`) only lay out what was read; `write` writes the
//! folder. Charts are drawn by the caller (`Charts`), as `rate --plot` and `combat matrix
//! --plot` draw them.
mod balance;
pub(crate) mod club;
mod index;
pub(crate) mod load;
mod ratings;
mod ruleset;
mod season;
mod slug;
mod swiss;

use crate::combat::lab::matrix::MatrixReport;
use crate::error::Result;
use crate::html::{Inline, Page};
use crate::scoring::rating_report::RatingReport;
use load::Loaded;
use slug::Slugs;
use std::collections::BTreeMap;

/// The site's one stylesheet.
pub(crate) const STYLESHEET: &str = "style.css";
/// The page a reader opens first.
pub(crate) const INDEX: &str = "index.html";

/// The charts a site shows, as SVG documents.
pub(crate) trait Charts {
    /// One player's rating over the games of a history.
    fn rating(&self, report: &RatingReport, player: &str) -> Result<String>;
    /// The balance matrix as a heat map.
    fn matrix(&self, report: &MatrixReport) -> Result<String>;
}

/// The site: file names (no folders) and their contents.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Site {
    pub files: BTreeMap<String, String>,
}

/// What every page shares: the club's name, each ruleset's page.
struct Context<'a> {
    loaded: &'a Loaded,
    ruleset_pages: Vec<String>,
}

impl Context<'_> {
    /// A page whose navigation leads back to the index, then through `crumbs`.
    fn page(&self, title: &str, crumbs: Vec<Inline>) -> Page {
        let mut page = Page::new(title);
        let mut nav = vec![Inline::link(&self.loaded.club, INDEX)];
        nav.extend(crumbs);
        page.nav(nav);
        page
    }

    /// The page's HTML, naming the ruleset it was made under (linked to its page).
    fn finish(&self, page: &mut Page, ruleset: usize) -> String {
        let r = &self.loaded.rulesets[ruleset];
        page.ruleset(&r.id, Some(&self.ruleset_pages[ruleset]));
        page.render_linked(STYLESHEET)
    }
}

/// A link to a page of the site, from the list of a page above it.
struct Listed {
    title: String,
    href: String,
    /// A few words after the link ("5 of 12 matches played").
    note: String,
}

/// Lay out every page of the site.
pub(crate) fn build(loaded: &Loaded, charts: &dyn Charts) -> Result<Site> {
    let mut site = Site::default();
    let mut slugs = Slugs::default();
    let ruleset_pages: Vec<String> = loaded
        .rulesets
        .iter()
        .map(|r| format!("{}.html", slugs.name("ruleset", &r.id.name, "ruleset")))
        .collect();
    let cx = Context {
        loaded,
        ruleset_pages,
    };
    let seasons: Vec<Listed> = loaded
        .seasons
        .iter()
        .map(|s| season::pages(&cx, s, &slugs.name("season", &s.title, "season"), &mut site))
        .collect();
    let tournaments: Vec<Listed> = loaded
        .tournaments
        .iter()
        .map(|t| {
            swiss::pages(
                &cx,
                t,
                &slugs.name("swiss", &t.title, "tournament"),
                &mut site,
            )
        })
        .collect();
    let mut ratings = Vec::new();
    for r in &loaded.ratings {
        let stem = slugs.name("ratings", &r.title, "ratings");
        ratings.push(ratings::pages(&cx, r, &stem, charts, &mut site)?);
    }
    let rulesets: Vec<Listed> = loaded
        .rulesets
        .iter()
        .enumerate()
        .map(|(i, r)| ruleset::page(&cx, i, r, &mut site))
        .collect();
    let balance = match &loaded.balance {
        Some(b) => Some(balance::page(&cx, b, charts, &mut site)?),
        None => None,
    };
    let index = index::page(
        &cx,
        &index::Sections {
            seasons,
            tournaments,
            ratings,
            rulesets,
            balance,
        },
    );
    site.files.insert(INDEX.to_string(), index);
    site.files.insert(
        STYLESHEET.to_string(),
        crate::html::stylesheet().to_string(),
    );
    Ok(site)
}

/// Write the site into the folder `out` (made if missing), each file atomically. Files already
/// there that the site does not make are left alone.
pub(crate) fn write(out: &str, site: &Site) -> Result<()> {
    crate::io::create_folder(out)?;
    for (name, contents) in &site.files {
        let path = std::path::Path::new(out).join(name);
        crate::io::write_file_quietly(
            &path.display().to_string(),
            contents,
            crate::io::Replace::Output,
        )?;
    }
    Ok(())
}
