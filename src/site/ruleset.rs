//! A ruleset's page: what it is (name, version, source, sha256, where it was read from), what
//! it changes from the ruleset it extends (`rules diff`, each change in the model's words), and
//! every value it sets, section by section, in `rules explain`'s words: what the value means
//! and what the ruleset's files say about it. Ships are one table, a row a ship.
use super::load::RulesetIn;
use super::{Context, Listed, Site};
use crate::html::{Cell, Column, Inline, PageTable};
use crate::output::Align;
use crate::pointer::pointer_push;
use crate::rules::{changes, edit, explain, schema};
use serde_json::Value;

/// Most rows one section's table lists (the rest: `arbiter rules show`).
const MOST_ROWS: usize = 400;
/// Most columns of the ships' table besides the name.
const MOST_SHIP_COLUMNS: usize = 8;

pub(super) fn page(cx: &Context, index: usize, r: &RulesetIn, site: &mut Site) -> Listed {
    let file = cx.ruleset_pages[index].clone();
    let rules = &r.ruleset;
    let title = match &r.id.version {
        Some(v) => format!("Ruleset {} {v}", rules.name),
        None => format!("Ruleset {}", rules.name),
    };
    let mut page = cx.page(&title, Vec::new());
    if !rules.description.is_empty() {
        page.paragraph(&rules.description);
    }
    if !rules.source.is_empty() {
        page.paragraph(&format!("Source: {}", rules.source));
    }
    page.line(&[Inline::text("sha256 "), Inline::code(&r.id.sha256)]);
    page.line(&[Inline::text("Read from "), Inline::code(&r.origin)]);

    match &r.base {
        None => {
            page.heading(2, "Changes");
            page.paragraph("It extends no other ruleset.");
        }
        Some((base_name, base)) => {
            page.heading(2, &format!("Changes from {base_name}"));
            let mut found = changes::between(base, rules);
            changes::explain(&mut found);
            if found.is_empty() {
                page.paragraph("No changes: the same rules as its base.");
            } else {
                page.table(&diff_table(&found));
            }
        }
    }

    let tree = edit::tree(rules);
    let Value::Object(sections) = &tree else {
        site.files.insert(file.clone(), cx.finish(&mut page, index));
        return listed(r, title, file);
    };
    for (key, value) in sections {
        let Value::Object(_) = value else {
            continue;
        };
        let pointer = pointer_push("", key);
        page.heading(2, &section_title(key));
        if let Some(d) = schema::describe(std::slice::from_ref(key)) {
            page.paragraph(&d);
        }
        if key == "ships" {
            page.table(&ships_table(value));
        } else {
            page.table(&values_table(value, &pointer, &r.comments));
        }
    }
    site.files.insert(file.clone(), cx.finish(&mut page, index));
    listed(r, title, file)
}

fn listed(r: &RulesetIn, title: String, href: String) -> Listed {
    Listed {
        title,
        href,
        note: format!("sha256 {}…", &r.id.sha256[..r.id.sha256.len().min(12)]),
    }
}

/// `league` → `League`.
fn section_title(key: &str) -> String {
    let mut c = key.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

fn diff_table(found: &[changes::Change]) -> PageTable {
    let mut t = PageTable::new(vec![
        Column::name("Value"),
        Column::new("Change", Align::Left),
        Column::new("Was", Align::Left),
        Column::new("Now", Align::Left),
        Column::prose("What it means"),
    ])
    .caption("What differs (as rules diff lists it)");
    for c in found {
        let shown = |v: &Option<Value>| v.as_ref().map(explain::shown).unwrap_or_default();
        let kind = match c.change {
            changes::Kind::Added => "added",
            changes::Kind::Removed => "removed",
            changes::Kind::Changed => "changed",
            changes::Kind::Reordered => "reordered",
        };
        t.row([
            readable(&c.path),
            kind.to_string(),
            shown(&c.old),
            shown(&c.new),
            c.meaning.clone().unwrap_or_default(),
        ]);
    }
    t
}

/// Every value below a section, in order: where it is, its value, and what it means.
fn values_table(
    section: &Value,
    pointer: &str,
    comments: &[(String, crate::rules::comments::Comments)],
) -> PageTable {
    let mut leaves = Vec::new();
    collect(section, pointer, &mut leaves);
    let mut t = PageTable::new(vec![
        Column::name("Setting"),
        Column::new("Value", Align::Left),
        Column::prose("What it means"),
    ]);
    for (p, v) in leaves.iter().take(MOST_ROWS) {
        let segments: Vec<String> = crate::pointer::pointer_segments(p).collect();
        let mut meaning = schema::describe(&segments).unwrap_or_default();
        for (file, note) in explain::notes(p, comments) {
            if !meaning.is_empty() {
                meaning.push(' ');
            }
            meaning.push_str(&format!("({file}: {note})"));
        }
        t.row([readable(p), explain::shown(v), meaning]);
    }
    if leaves.len() > MOST_ROWS {
        t.row([format!(
            "and {} more (arbiter rules show)",
            leaves.len() - MOST_ROWS
        )]);
    }
    t
}

/// The values under `value` (a list is one value), with their pointers.
fn collect<'a>(value: &'a Value, pointer: &str, out: &mut Vec<(String, &'a Value)>) {
    match value {
        Value::Object(m) => {
            for (k, v) in m {
                collect(v, &pointer_push(pointer, k), out);
            }
        }
        v => out.push((pointer.to_string(), v)),
    }
}

/// `/league/points/win` → `league.points.win`.
fn readable(pointer: &str) -> String {
    let segments: Vec<String> = crate::pointer::pointer_segments(pointer).collect();
    segments.join(".")
}

/// The ships, a row each: its name, then its plain values (the first few keys the ships use).
fn ships_table(ships: &Value) -> PageTable {
    let Value::Object(ships) = ships else {
        return PageTable::new(vec![Column::name("Ship")]);
    };
    let mut keys: Vec<&str> = Vec::new();
    for ship in ships.values() {
        if let Value::Object(fields) = ship {
            for (k, v) in fields {
                if !v.is_object() && !v.is_array() && !keys.contains(&k.as_str()) {
                    keys.push(k);
                }
            }
        }
    }
    keys.truncate(MOST_SHIP_COLUMNS);
    let mut columns = vec![Column::name("Ship")];
    columns.extend(
        keys.iter()
            .map(|k| Column::new(&k.replace('_', " "), Align::Right)),
    );
    let mut t = PageTable::new(columns).caption("Ships");
    for (name, ship) in ships {
        let mut row = vec![Cell::text(name)];
        for k in &keys {
            row.push(Cell::text(
                ship.get(*k).map(explain::shown).unwrap_or_default(),
            ));
        }
        t.cells(row);
    }
    t
}
