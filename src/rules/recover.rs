//! Every problem of a ruleset file at once (up to `MAX_PROBLEMS`), for `rules check` and the
//! language server. Parsing and checking stop at their first error, so each is run again
//! without what was wrong:
//!
//! * a syntax error blanks its entry (`entries`), keeping every other line and column, and the
//!   text is parsed again;
//! * a check's error drops the entry it is at from the file's own document (a base's value
//!   shows through), and the document is checked again. An error at a block above something
//!   dropped is its consequence (a field now missing), not reported.
//!
//! A ruleset's hooks run once at most: the checks before the `script` section are repeated
//! without it, and the full check runs last.
use super::doc::Doc;
use super::entries;
use super::model::Ruleset;
use crate::error::{Error, Place as ErrorPlace, Source, Span};
use crate::pointer::pointer_segments;
use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;
use {
    super::load::{self},
    crate::io::Format,
};

/// Most problems reported for one file.
pub(crate) const MAX_PROBLEMS: usize = 100;

/// Most bytes parsed again while looking for more syntax errors (a 16 MiB file is read twice
/// at most; a club's ruleset, a hundred times).
pub(crate) const MAX_REPARSED_BYTES: usize = 32 << 20;

/// Most bytes of a file's text checked again (a round per problem): a check resolves and
/// validates the whole ruleset, so a big file gets fewer rounds (a 20,000-ship overlay, a few).
pub(crate) const MAX_RECHECKED_BYTES: usize = 4 << 20;

/// The ruleset (when the file has no problem) and the problems of a ruleset file's text, in
/// the order of the file (a problem in a base it extends first). `id` names it in `extends`
/// circles; `dir` is where its relative `extends` are found.
pub(crate) fn check_text(
    name: &str,
    text: &str,
    format: Format,
    id: &str,
    dir: Option<&Path>,
) -> (Option<Ruleset>, Vec<Error>) {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let source = Arc::new(Source {
        name: name.to_string(),
        text: text.to_string(),
    });
    let parsed = parse_recovering(&source, format);
    let mut errors = parsed.errors;
    let mut ruleset = None;
    // A base that went with a broken `extends` line would make every entry look wrong.
    let lost_extends = !errors.is_empty()
        && parsed
            .doc
            .as_ref()
            .is_some_and(|d| d.value.get("extends").is_none())
        && text.lines().any(|l| l.starts_with("extends"));
    if let Some(doc) = parsed.doc.filter(|_| !lost_extends) {
        let rounds = (MAX_RECHECKED_BYTES / text.len().max(1)).max(2);
        let checked = check_recovering(doc, name, id, dir, parsed.suppressed, rounds, &mut errors);
        ruleset = checked.filter(|_| errors.is_empty());
    }
    errors.truncate(MAX_PROBLEMS);
    errors.sort_by_key(|e| match e.location() {
        Some((file, line, col)) if file == name => (1, line, col),
        _ => (0, 0, 0),
    });
    (ruleset, errors)
}

/// The document as far as it parses: each entry with a syntax error blanked, the rest kept
/// at its own line and column (what the language server lists and navigates in a buffer being
/// typed). `None` when nothing can be trusted (a block left open to the end, say).
pub(crate) fn parse_text_recovering(name: &str, text: &str, format: Format) -> Option<Doc> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let source = Arc::new(Source {
        name: name.to_string(),
        text: text.to_string(),
    });
    parse_recovering(&source, format).doc
}

struct Parsed {
    doc: Option<Doc>,
    errors: Vec<Error>,
    /// Pointers below which an entry was blanked (see `consequence_of`).
    suppressed: Vec<String>,
}

fn parse_recovering(source: &Arc<Source>, format: Format) -> Parsed {
    let (name, text) = (source.name.as_str(), source.text.as_str());
    let mut working = text.to_string();
    let mut errors = Vec::new();
    let mut blocks: Vec<Block> = Vec::new();
    if format == Format::Rules {
        // A string left open swallows the lines after it: each is an error of its own line.
        for quote in entries::open_strings(text) {
            if let Some(entry) = entries::rules_entry(&working, quote) {
                let (line, col) = line_col(text, quote);
                errors.push(
                    Span::new(source, line, col)
                        .at("this string is never closed: a string ends on its line, with a `\"`"),
                );
                blocks.push(Block::Brace(entry.block));
                working = entries::blank(&working, entry.range);
            }
        }
    }
    let mut reparsed = 0;
    while errors.len() < MAX_PROBLEMS {
        let e = match load::parse_text(name, &working, format) {
            Ok(doc) => {
                let suppressed = blocks
                    .iter()
                    .filter_map(|b| b.pointer(&doc, &working))
                    .collect();
                return Parsed {
                    doc: Some(placed_in(doc, source)),
                    errors,
                    suppressed,
                };
            }
            Err(e) => e,
        };
        reparsed += text.len();
        // A block left open to the end of the file leaves no entry to trust after it.
        let left_open = e.message().contains("never closed: the file ends");
        let Some((_, line, col)) = e.location().filter(|_| !left_open) else {
            errors.push(in_source(e, source));
            break;
        };
        let pos = byte_of(&working, line, col);
        let found = match format {
            Format::Rules => entries::rules_entry(&working, pos)
                .map(|en| (en.range, Block::Brace(en.block), en.dangling, en.lone)),
            Format::Yaml => entries::yaml_entry(&working, pos)
                .map(|(r, parent)| (r, Block::Line(parent), None, None)),
        };
        let Some((range, block, dangling, lone)) =
            found.filter(|f| !working[f.0.clone()].trim().is_empty())
        else {
            errors.push(in_source(e, source));
            break;
        };
        errors.push(match (dangling, lone) {
            (Some(at), _) => {
                let key = working[range.start..at].trim();
                let (line, col) = line_col(&working, at);
                Span::new(source, line, col).at(format!(
                    "`{key} =` has no value: write one after the `=` (or remove the line)"
                ))
            }
            (None, Some(key)) => {
                let (line, col) = line_col(&working, key.start);
                let key = &working[key];
                Span::new(source, line, col).at(format!(
                    "`{key}` has no value: write `{key} = ...` or `{key} {{ ... }}` (or remove the line)"
                ))
            }
            (None, None) => in_source(e, source),
        });
        blocks.push(block);
        working = entries::blank(&working, range);
        if reparsed > MAX_REPARSED_BYTES {
            break;
        }
    }
    Parsed {
        doc: None,
        errors,
        suppressed: Vec::new(),
    }
}

/// The block a blanked entry sat in: by its `{` (rules language) or its key's line (YAML).
/// Its byte positions are the working text's: blanking writes a space a character, so bytes
/// move after a blanked character of several bytes while lines and columns (in characters)
/// stay those of the file.
enum Block {
    Brace(Option<usize>),
    Line(Option<usize>),
}

impl Block {
    /// A pointer just below the block (so that the block and everything above it count as
    /// touched); the top level when it is not found.
    fn pointer(&self, doc: &Doc, text: &str) -> Option<String> {
        let found = match self {
            Block::Brace(Some(at)) => {
                let (line, col) = line_col(text, *at);
                doc.places
                    .iter()
                    .find(|(_, p)| p.value.line == line && p.value.col == col)
                    .map(|(k, _)| k.clone())
            }
            Block::Line(Some(line)) => doc
                .places
                .iter()
                .filter_map(|(k, p)| Some((p.key.as_ref()?, k)))
                .filter(|(key, _)| key.line == *line)
                .min_by_key(|(key, _)| key.col)
                .map(|(_, k)| k.clone()),
            _ => None,
        };
        Some(format!("{}/\u{0}", found.unwrap_or_default()))
    }
}

/// Check a parsed document, dropping each entry an error is at, until it passes or an error
/// cannot be dropped (it is in a base, at `extends`, or at the whole file).
fn check_recovering(
    mut own: Doc,
    name: &str,
    id: &str,
    dir: Option<&Path>,
    mut touched: Vec<String>,
    rounds: usize,
    errors: &mut Vec<Error>,
) -> Option<Ruleset> {
    let mut seen = HashSet::new();
    let mut has_script = false;
    let mut with_script = false;
    // Each round drops an entry (or turns the hooks on, once): bounded by the entries.
    for _ in 0..rounds {
        if errors.len() >= MAX_PROBLEMS {
            break;
        }
        let result = load::resolve_loaded(own.clone(), id, dir).and_then(|mut resolved| {
            if let Some(map) = resolved.value.as_object_mut().filter(|_| !with_script) {
                has_script |= map.shift_remove("script").is_some();
            }
            load::ruleset_from_doc(&resolved)
        });
        let e = match result {
            Ok(ruleset) if with_script || !has_script => return Some(ruleset),
            Ok(_) => {
                with_script = true;
                continue;
            }
            Err(e) => e,
        };
        if with_script || !seen.insert(e.to_string()) {
            errors.push(e);
            break;
        }
        let pointer = match e.location() {
            Some((file, line, col)) if file == name => pointer_at(&own, line, col),
            _ => None,
        };
        let Some(pointer) = pointer.map(|p| member(&own, p)) else {
            errors.push(e);
            break;
        };
        let consequence = touched.iter().any(|t| is_within(t, &pointer));
        if !consequence {
            errors.push(e);
        }
        if pointer.is_empty() || pointer == "/extends" || pointer.starts_with("/extends/") {
            break;
        }
        drop_entry(&mut own, &pointer);
        touched.push(pointer);
    }
    None
}

/// Whether `pointer` is `touched` or above it.
fn is_within(touched: &str, pointer: &str) -> bool {
    touched == pointer || touched.starts_with(&format!("{pointer}/"))
}

/// The node whose place (key or value) starts last at or before a line and column: the entry
/// an error there is about.
fn pointer_at(doc: &Doc, line: usize, col: usize) -> Option<String> {
    doc.places
        .iter()
        .flat_map(|(p, place)| {
            place
                .key
                .iter()
                .chain(std::iter::once(&place.value))
                .map(move |s| ((s.line, s.col), p))
        })
        .filter(|(at, p)| *at <= (line, col) && !p.is_empty())
        .max_by_key(|(at, p)| (*at, p.len()))
        .map(|(_, p)| p.clone())
}

/// The entry of a map that holds `pointer` (an item of a list goes with its list).
fn member(doc: &Doc, pointer: String) -> String {
    let mut segments: Vec<String> = pointer_segments(&pointer).collect();
    while segments.len() > 1 {
        let parent = join(&segments[..segments.len() - 1]);
        if doc.value.pointer(&parent).is_some_and(|v| v.is_array()) {
            segments.pop();
        } else {
            break;
        }
    }
    join(&segments)
}

fn join(segments: &[String]) -> String {
    segments
        .iter()
        .fold(String::new(), |p, s| crate::pointer::pointer_push(&p, s))
}

fn drop_entry(doc: &mut Doc, pointer: &str) {
    let segments: Vec<String> = pointer_segments(pointer).collect();
    let Some((last, parents)) = segments.split_last() else {
        return;
    };
    if let Some(map) = doc
        .value
        .pointer_mut(&join(parents))
        .and_then(|v| v.as_object_mut())
    {
        map.shift_remove(last);
    }
    let below = format!("{pointer}/");
    doc.places
        .retain(|p, _| p != pointer && !p.starts_with(&below));
}

/// An error placed in the blanked text, placed in the text as written (for its excerpt).
fn in_source(e: Error, source: &Arc<Source>) -> Error {
    match e.place() {
        ErrorPlace::Span(s) if s.source.name == source.name => {
            let span = Span::new(source, s.line, s.col);
            e.with_place(ErrorPlace::Span(span))
        }
        _ => e,
    }
}

/// A document parsed from the blanked text, its places in the text as written.
fn placed_in(mut doc: Doc, source: &Arc<Source>) -> Doc {
    let moved = |s: &mut Span| {
        if s.source.name == source.name {
            s.source = source.clone();
        }
    };
    for place in doc.places.values_mut() {
        moved(&mut place.value);
        if let Some(k) = place.key.as_mut() {
            moved(k);
        }
    }
    doc
}

/// The byte of 1-based line `line`, character column `col`.
fn byte_of(text: &str, line: usize, col: usize) -> usize {
    let start: usize = text
        .split_inclusive('\n')
        .take(line.saturating_sub(1))
        .map(str::len)
        .sum();
    let rest = &text[start.min(text.len())..];
    let within = rest
        .char_indices()
        .take_while(|(_, c)| *c != '\n')
        .nth(col.saturating_sub(1))
        .map_or_else(|| rest.find('\n').unwrap_or(rest.len()), |(i, _)| i);
    start + within
}

/// The 1-based line and character column of byte `pos`.
fn line_col(text: &str, pos: usize) -> (usize, usize) {
    super::lines::LineIndex::new(text).line_col(text, pos)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn problems(name: &str, text: &str) -> Vec<String> {
        let (ruleset, errors) = check_text(name, text, Format::of(name), name, None);
        assert!(ruleset.is_none() || errors.is_empty());
        errors
            .iter()
            .map(|e| e.to_string().lines().next().unwrap().to_string())
            .collect()
    }

    #[test]
    fn each_broken_entry_is_reported_and_the_next_still_read() {
        let text = "extends startrek\nships {\n  \"UFP heavy cruiser\" {\n    shields = = 3\n  }\n  \
                    \"Klingon battle cruiser\" {\n    sheilds = 4\n  }\n  \"Romulan battle cruiser\" {\n    \
                    shields = \"ten\"\n  }\n}\n";
        let p = problems("h.rules", text);
        assert_eq!(p.len(), 3, "{p:#?}");
        assert!(p[0].starts_with("h.rules:4:15: "), "{p:#?}");
        assert!(
            p[1].starts_with("h.rules:7:5: unknown field `sheilds` (did you mean `shields`?)"),
            "{p:#?}"
        );
        assert!(p[2].starts_with("h.rules:10:15: wrong type"), "{p:#?}");
    }

    #[test]
    fn a_key_with_no_value_and_an_open_string_are_each_one_problem() {
        let text = "extends startrek\nships {\n  \"UFP heavy cruiser\" {\n    shields =\n    \
                    hull = 3\n  }\n  \"UFP\n}\n";
        let p = problems("h.rules", text);
        assert_eq!(p.len(), 2, "{p:#?}");
        assert!(
            p[0].starts_with("h.rules:4:13: `shields =` has no value"),
            "{p:#?}"
        );
        assert!(
            p[1].starts_with("h.rules:7:3: this string is never closed"),
            "{p:#?}"
        );
    }

    #[test]
    fn a_key_alone_on_its_line_is_one_problem_at_that_line() {
        // Half typed in an editor: the parser reads on to the next line for the key's `=` or
        // `{`; the problem is the key's line, and what follows it is still read.
        let text = "extends startrek\nships {\n  sh\n  \"UFP heavy cruiser\" { sheilds = 3 }\n}\n";
        let p = problems("h.rules", text);
        assert_eq!(p.len(), 2, "{p:#?}");
        assert!(
            p[0].starts_with("h.rules:3:3: `sh` has no value: write `sh = ...` or `sh { ... }`"),
            "{p:#?}"
        );
        assert!(
            p[1].starts_with("h.rules:4:25: unknown field `sheilds`"),
            "{p:#?}"
        );
        // A key that ends in a character of several bytes is the same problem, not a panic.
        let text = "extends startrek\nships {\n  café\n}\n";
        let p = problems("h.rules", text);
        assert_eq!(p.len(), 1, "{p:#?}");
        assert!(
            p[0].starts_with("h.rules:3:3: `café` has no value"),
            "{p:#?}"
        );
        // After an entry with such characters is blanked, the next problem keeps its column.
        let text = "extends startrek\nships {\n  \"Klingon été\" {\n    shields =\n  }\n  \
                    \"UFP heavy cruiser\" {\n    shields =\n  }\n}\n";
        let p = problems("h.rules", text);
        assert_eq!(p.len(), 2, "{p:#?}");
        assert!(
            p[1].starts_with("h.rules:7:13: `shields =` has no value"),
            "{p:#?}"
        );
        // The same word after a line waiting for more is the rest of a formula, not a key.
        let text = "extends startrek\ncombat {\n  sensor_range = 4 +\n    six\n}\n";
        let p = problems("h.rules", text);
        assert!(!p.iter().any(|l| l.contains("has no value")), "{p:#?}");
    }

    #[test]
    fn yaml_reports_each_broken_entry() {
        let text = "extends: startrek\nships:\n  UFP heavy cruiser:\n    shields: 3: 4\n  \
                    Klingon battle cruiser:\n    sheilds: 4\n  Romulan battle cruiser:\n    hull: ten\n";
        let p = problems("h.yaml", text);
        assert!(p.len() >= 3, "{p:#?}");
        assert!(
            p.iter()
                .any(|l| l.starts_with("h.yaml:6:5: unknown field `sheilds`")),
            "{p:#?}"
        );
        assert!(
            p.iter()
                .any(|l| l.starts_with("h.yaml:8:11: `ten` is not dice")),
            "{p:#?}"
        );
    }

    #[test]
    fn a_missing_field_after_a_dropped_one_is_not_reported_again() {
        let (_, errors) = check_text(
            "s.rules",
            "name = s\nships {\n  A {\n    shields = \"x\"\n  }\n}\n",
            Format::Rules,
            "s.rules",
            None,
        );
        assert_eq!(errors.len(), 1, "{errors:#?}");
    }

    #[test]
    fn at_most_a_hundred_problems() {
        let mut text = String::from("extends startrek\nships {\n  \"UFP heavy cruiser\" {\n");
        for i in 0..300 {
            text.push_str(&format!("    sheilds{i} = 1\n"));
        }
        text.push_str("  }\n}\n");
        assert_eq!(problems("h.rules", &text).len(), MAX_PROBLEMS);
    }

    #[test]
    fn a_byte_and_a_line_and_column_agree() {
        let text = "ab\né = 1\n";
        assert_eq!(byte_of(text, 2, 2), 5);
        assert_eq!(line_col(text, 5), (2, 2));
        assert_eq!(byte_of(text, 9, 9), text.len());
    }
}
