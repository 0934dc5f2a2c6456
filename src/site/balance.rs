//! The balance page: the combat matrix the club file asks for, as a heat map (drawn as `combat
//! matrix --plot` draws it), each ship's fitted strength and suggested points, and the
//! rankings a head-to-head disagrees with.
use super::load::BalanceIn;
use super::{Charts, Context, Listed, Site};
use crate::error::Result;
use crate::html::{Column, PageTable};
use crate::output::{trim_number, Align};

/// The balance page's files.
const PAGE: &str = "balance.html";
const CHART: &str = "balance.svg";

pub(super) fn page(
    cx: &Context,
    b: &BalanceIn,
    charts: &dyn Charts,
    site: &mut Site,
) -> Result<Listed> {
    let report = &b.report;
    site.files.insert(CHART.to_string(), charts.matrix(report)?);
    let mut page = cx.page("Balance", Vec::new());
    page.paragraph(&format!(
        "Every pair of {} ships, {} battles a pair (each side moving first in half), seed {}: \
         rebuilt from the same club file, the same battles.",
        report.ships.len(),
        b.battles,
        report.seed
    ));
    page.figure(
        CHART,
        "Heat map of each row ship's score against each column ship",
        "The row ship's score against the column ship, in percent (wins and half the draws): \
         red loses, white is even, blue wins.",
    );
    let mut t = PageTable::new(vec![
        Column::name("Ship"),
        Column::new("Strength", Align::Right),
        Column::points("Suggested points"),
    ])
    .caption("Strength and suggested points");
    page.paragraph(
        "Strength on the Elo scale (1500 the average ship, 400 points apart is 10 to 1 odds); \
         suggested points in proportion to it.",
    );
    for s in &report.strength {
        t.row([
            s.ship.clone(),
            trim_number(s.rating, 0),
            s.points.to_string(),
        ]);
    }
    page.table(&t);
    let mut scores = PageTable::new(vec![
        Column::name("Ship"),
        Column::new("Against", Align::Left),
        Column::new("Won", Align::Right),
        Column::new("Lost", Align::Right),
        Column::new("Neither", Align::Right),
        Column::points("Score %"),
    ])
    .caption("Every pairing");
    for c in &report.cells {
        scores.row([
            c.a.clone(),
            c.b.clone(),
            c.a_wins.to_string(),
            c.b_wins.to_string(),
            c.draws.to_string(),
            trim_number(
                crate::combat::lab::matrix::MatrixReport::score(c) * 100.0,
                0,
            ),
        ]);
    }
    page.table(&scores);
    for d in &report.disagreements {
        page.paragraph(&format!(
            "{} ranks above {}, which scores {}% against it head to head.",
            d.higher,
            d.lower,
            trim_number((1.0 - d.head_to_head) * 100.0, 0)
        ));
    }
    site.files
        .insert(PAGE.to_string(), cx.finish(&mut page, b.ruleset));
    Ok(Listed {
        title: "Balance".to_string(),
        href: PAGE.to_string(),
        note: format!("{} ships, {} battles a pair", report.ships.len(), b.battles),
    })
}
