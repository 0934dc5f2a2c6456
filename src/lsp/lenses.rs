//! `textDocument/codeLens`: above each ship a ruleset with combat defines or changes in the
//! document, one lens per rival with the live balance ([`super::live_balance`]):
//! `vs Klingon battle cruiser: 54.0% of decided battles [49.1%–58.8%], 8.0% undecided
//! (n=400, seed 1)`, "computing" until the figures are ready. A document that is not a
//! ruleset, does not load (its diagnostics say why) or has no combat gets no lens.
use super::analysis::Document;
use super::live_balance::{Figures, LiveBalance, Pair, Row, MAX_SHIPS, SEED};
use super::records::Kind;
use crate::combat::lab::rivals::{rivals, Record};
use crate::output::percent;
use lsp_types::{CodeLens, Command, Range, SymbolKind};
use std::sync::Arc;

/// The lenses of `doc` (whose newest text is `text`), starting the live balance if needed.
pub(crate) fn code_lenses(
    doc: &Document,
    uri: &str,
    text: &Arc<str>,
    live: &LiveBalance,
) -> Vec<CodeLens> {
    if doc.kind() != Kind::Ruleset {
        return Vec::new();
    }
    let Ok(rules) = doc.ruleset() else {
        return Vec::new();
    };
    if rules.combat.is_none() {
        return Vec::new();
    }
    // The ships the document itself writes, where their names are.
    let ships: Vec<(String, Range)> = super::navigate::document_symbols(doc)
        .into_iter()
        .filter(|s| s.name == "ships")
        .flat_map(|s| s.children.unwrap_or_default())
        .filter(|s| s.kind == SymbolKind::STRUCT)
        .filter_map(|s| Some((rules.ship_key(&s.name)?.to_string(), s.selection_range)))
        .collect();
    let (live_ships, beyond) = ships.split_at(ships.len().min(MAX_SHIPS));
    let per_ship: Vec<Vec<String>> = live_ships.iter().map(|(s, _)| rivals(&rules, s)).collect();
    let pairs: Vec<Pair> = live_ships
        .iter()
        .zip(&per_ship)
        .flat_map(|((ship, _), rs)| rs.iter().map(|r| (ship.clone(), r.clone())))
        .collect();
    let figures = match pairs.is_empty() {
        true => None,
        false => live.figures(uri, text, rules, pairs),
    };
    let mut lenses = Vec::new();
    let mut k = 0;
    for ((_, range), rs) in live_ships.iter().zip(&per_ship) {
        if rs.is_empty() {
            lenses.push(lens(
                *range,
                "no rival to simulate: name one in `combat.rivals` (or give the ship a size)"
                    .into(),
            ));
        }
        for rival in rs {
            let row = figures.as_ref().and_then(|f| Some((f, f.rows.get(k)?)));
            lenses.push(lens(*range, title(rival, row)));
            k += 1;
        }
    }
    for (_, range) in beyond {
        lenses.push(lens(
            *range,
            format!(
                "no live balance: only the first {MAX_SHIPS} ships of a file are simulated \
                 (`arbiter combat matrix` compares them all)"
            ),
        ));
    }
    lenses
}

fn lens(range: Range, title: String) -> CodeLens {
    CodeLens {
        range,
        // A label, not an action: an empty command is shown and does nothing.
        command: Some(Command {
            title,
            command: String::new(),
            arguments: None,
        }),
        data: None,
    }
}

/// One lens's words: the rival's figures, or why there are none yet.
pub(crate) fn title(rival: &str, row: Option<(&Figures, &Row)>) -> String {
    match row {
        None => format!("vs {rival}: computing the live balance… (seed {SEED})"),
        Some((_, Row::Failed(why))) => format!("vs {rival}: no live balance: {why}"),
        Some((f, Row::Record(r))) => {
            let refining = if f.done { "" } else { ", refining" };
            format!("vs {rival}: {}{refining}", figures(r))
        }
    }
}

/// `54.0% of decided battles [49.1%–58.8%], 8.0% undecided (n=400, seed 1)`.
pub(crate) fn figures(r: &Record) -> String {
    let [lo, hi] = r.ci95();
    format!(
        "{} of decided battles [{}–{}], {} undecided (n={}, seed {SEED})",
        percent(r.share()),
        percent(lo),
        percent(hi),
        percent(r.undecided()),
        r.battles
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lsp::transport::Out;

    fn titles(text: &str) -> Vec<(u32, String)> {
        let live = LiveBalance::start(Out::to(Box::new(std::io::sink())), false).unwrap();
        let doc = Document {
            name: "fleet.rules",
            text,
        };
        code_lenses(&doc, "file:///fleet.rules", &Arc::from(text), &live)
            .into_iter()
            .map(|l| (l.range.start.line, l.command.unwrap().title))
            .collect()
    }

    #[test]
    fn a_huge_fleet_is_capped_and_a_ship_without_a_rival_says_so() {
        // A ship without a size first, then more ships than the cap.
        let mut text = String::from("extends startrek\nships {\n  new Drone { shields = 1 }\n");
        for i in 0..MAX_SHIPS + 2 {
            text.push_str(&format!(
                "  new \"Scout {i}\" {{ shields = 4, size = small }}\n"
            ));
        }
        text.push_str("}\n");
        let lenses = titles(&text);
        assert_eq!(lenses.len(), MAX_SHIPS + 3);
        assert!(
            lenses[0].1.starts_with("no rival to simulate"),
            "{:?}",
            lenses[0]
        );
        // Scouts are one faction: each meets the next small ship of another, wrapping round
        // to startrek's first, the UFP frigate.
        assert_eq!(
            lenses[1],
            (
                3,
                "vs UFP frigate: computing the live balance… (seed 1)".to_string()
            )
        );
        assert!(lenses[MAX_SHIPS - 1].1.contains("computing"));
        // The 24 ships within the cap are the drone and 23 scouts: 3 scouts are beyond it.
        for (line, title) in &lenses[MAX_SHIPS..] {
            assert!(title.contains("only the first 24 ships"), "{line}: {title}");
        }
    }

    #[test]
    fn no_combat_section_no_lens() {
        let doc = Document {
            name: "club.rules",
            text: "extends swiss\nname = club\n",
        };
        let live = LiveBalance::start(Out::to(Box::new(std::io::sink())), false).unwrap();
        assert!(code_lenses(&doc, "file:///club.rules", &Arc::from(doc.text), &live).is_empty());
    }
}
