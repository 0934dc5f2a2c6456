//! What the language server says about one document's text: the located errors `rules check`
//! gives, `rules explain` for the key under the cursor, and the keys (and ship names) that fit
//! where the cursor is. Pure functions of the text, so a hostile document can only give
//! diagnostics; positions are 0-based lines and UTF-16 columns, as the protocol counts.
use super::context;
use super::records::{self, Kind};
use crate::error::Place as ErrorPlace;
use crate::rules::doc::Doc;
use crate::{
    io::Format,
    rules::{explain, load, model::Ruleset, recover, schema},
};
use std::path::Path;

/// Most bytes of a document the server reads (as for files on disk).
pub(crate) const MAX_DOCUMENT_BYTES: usize = crate::io::MAX_FILE_BYTES as usize;

/// One problem: 0-based line, UTF-16 column, and the message.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    pub line: u32,
    pub character: u32,
    /// Where the word at the problem ends (UTF-16 column of the same line).
    pub end: u32,
    pub message: String,
}

/// A document as the editor holds it: its file name (for the format and relative `extends`).
pub struct Document<'a> {
    pub name: &'a str,
    pub text: &'a str,
}

impl Document<'_> {
    /// The folder its relative `extends` are found in.
    pub(crate) fn dir(&self) -> Option<&Path> {
        Path::new(self.name)
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
    }

    fn parsed(&self) -> crate::error::Result<Doc> {
        if self.text.len() > MAX_DOCUMENT_BYTES {
            return Err(crate::error::Error::msg(format!(
                "{}: larger than {MAX_DOCUMENT_BYTES} bytes",
                self.name
            )));
        }
        load::parse_text(self.name, self.text, Format::of(self.name))
    }

    /// The ruleset, `extends` resolved and checked, as `rules check` loads it.
    pub fn ruleset(&self) -> crate::error::Result<Ruleset> {
        let doc = self.parsed()?;
        let resolved = load::resolve_loaded(doc, self.name, self.dir())?;
        load::ruleset_from_doc(&resolved)
    }

    /// What the document holds: a ruleset, or a record (told by a modeline or its keys; only
    /// a file with a top-level `rules` line is parsed to tell).
    pub(crate) fn kind(&self) -> Kind {
        let named = self.text.lines().any(|l| l.starts_with("rules"));
        let modeline = self.text.lines().take(5).any(|l| l.contains("arbiter:"));
        if !named && !modeline {
            return Kind::Ruleset;
        }
        let doc = self.parsed().ok();
        records::kind_of(self.text, doc.as_ref())
    }

    /// The problems `rules check` reports: every one of the file (up to
    /// `recover::MAX_PROBLEMS`), each at its line and column.
    pub fn problems(&self) -> Vec<Problem> {
        let errors = match self.text.len() > MAX_DOCUMENT_BYTES {
            true => vec![crate::error::Error::msg(format!(
                "{}: larger than {MAX_DOCUMENT_BYTES} bytes",
                self.name
            ))],
            false => match self.kind() {
                Kind::Ruleset => {
                    let format = Format::of(self.name);
                    recover::check_text(self.name, self.text, format, self.name, self.dir()).1
                }
                record => records::check(record, self.name, self.text),
            },
        };
        errors.iter().map(|e| self.problem(e)).collect()
    }

    fn problem(&self, e: &crate::error::Error) -> Problem {
        let (line, col) = match e.place() {
            // An error in another file (a base) is shown at the top of this one.
            ErrorPlace::Span(s) if s.source.name == self.name => (s.line, s.col),
            _ => (1, 1),
        };
        let line0 = line.saturating_sub(1);
        let message = match e.place() {
            ErrorPlace::Span(s) if s.source.name != self.name => {
                format!("{}:{}:{}: {}", s.source.name, s.line, s.col, e.message())
            }
            _ => e.message(),
        };
        let character = utf16_column(self.text, line0, col.saturating_sub(1));
        let word = super::tokens::Lines::new(self.text)
            .token(line0 + 1, col.max(1))
            .end;
        let end = match word.line as usize == line0 && word.character > character {
            true => word.character,
            false => character + 1,
        };
        Problem {
            line: line0 as u32,
            character,
            end,
            message,
        }
    }

    /// `rules explain` for the key under the cursor, as Markdown; `None` off any key.
    pub(crate) fn hover(&self, line: u32, character: u32) -> Option<String> {
        let doc = self.parsed().ok()?;
        let col = char_column(self.text, line as usize, character);
        let pointer = doc
            .places
            .iter()
            .filter_map(|(p, place)| {
                let k = place.key.as_ref()?;
                (k.line == line as usize + 1 && k.col <= col + 1).then_some((k.col, p))
            })
            .max()?
            .1
            .clone();
        let ruleset = self.ruleset().ok();
        let chain = explain::comment_chain_of_text(self.name, self.text, self.dir());
        let e = explain::explain(&pointer_or_root(&pointer), ruleset.as_ref(), &chain).ok()?;
        let inherited = inherited(&doc, &pointer, self.dir()).unwrap_or_default();
        Some(format!("```text\n{}```{inherited}", e.text()))
    }

    /// What may be written at the cursor, found from the text around it (never from a parse,
    /// so a half-typed buffer completes too): the keys of the enclosing block, or the values of
    /// the key being written (choices, ship names, sizes, torpedo kinds, crew skills,
    /// tie-breakers, `extends` targets), each with what `rules explain` says of it.
    pub fn completions(&self, line: u32, character: u32) -> Vec<Item> {
        let before = &self.text[..self.byte_at(line as usize, character)];
        let ctx = match Format::of(self.name) {
            Format::Rules => context::rules_context(before),
            Format::Yaml => context::yaml_context(before),
        };
        // Parsing the document and its base is most of a completion's time on a long file:
        // done only for the completions that list names from them.
        let known = std::cell::OnceCell::new();
        let known = Known(&|| known.get_or_init(|| self.known()).as_slice());
        let mut items = match &ctx.value_of {
            None => key_items(&ctx.path, &known),
            Some(key) => self.value_items(&ctx.path, key, &known),
        };
        let mut seen = std::collections::HashSet::new();
        items.retain(|i| seen.insert(i.label.clone()));
        items
    }

    /// The byte of a 0-based line and UTF-16 column (the end of the line past it).
    fn byte_at(&self, line: usize, units: u32) -> usize {
        let start: usize = self
            .text
            .split_inclusive('\n')
            .take(line)
            .map(str::len)
            .sum();
        let start = start.min(self.text.len());
        let chars = char_column(self.text, line, units);
        let rest = &self.text[start..];
        let end = rest.find('\n').unwrap_or(rest.len());
        start
            + rest[..end]
                .char_indices()
                .nth(chars)
                .map_or(end, |(i, _)| i)
    }

    /// The ruleset as far as it can be read: the document with `extends` applied when it
    /// parses, else what its `extends` line names.
    fn known(&self) -> Vec<serde_json::Value> {
        let parsed = self
            .parsed()
            .and_then(|doc| load::resolve_loaded(doc, self.name, self.dir()));
        // The base too: a section being written (`ships:` still empty) hides its entries.
        let base = extends_target(self.text)
            .or_else(|| rules_line(self.text))
            .and_then(|t| load::resolve_doc_beside(&t, self.dir()).ok());
        parsed.into_iter().chain(base).map(|d| d.value).collect()
    }

    fn value_items(&self, path: &[String], key: &str, known: &Known) -> Vec<Item> {
        let mut at: Vec<String> = path.to_vec();
        at.push(key.to_string());
        let names = |section: &str, what: &str| names_in(known.get(), section, what);
        let segments: Vec<&str> = at.iter().map(String::as_str).collect();
        if let Some(items) = super::formulas::items(&segments) {
            return items;
        }
        match segments.as_slice() {
            ["extends"] | ["rules"] => return self.extends_targets(),
            // A scenario's sides and a game record's ships name ships of the ruleset.
            ["a" | "b", "ship"] => return names("/ships", "a ship"),
            [.., "ships", _, "type"] => return names("/ships", "a ship"),
            ["ships", _, "size"] => return names("/combat/sizes", "a size class (combat.sizes)"),
            ["ships", _, "torpedo_kind"] => {
                return names("/combat/torpedoes", "a torpedo kind (combat.torpedoes)")
            }
            ["swiss", "tiebreakers"] => return documented(crate::rules::swiss::TIEBREAKS),
            ["league", "tiebreakers"] => return documented(crate::rules::league::TIEBREAKERS),
            _ => {}
        }
        schema::choices(&at)
            .into_iter()
            .map(|(label, doc)| Item::value(label, doc))
            .collect()
    }

    /// Built-in rulesets, then the ruleset files beside the document.
    fn extends_targets(&self) -> Vec<Item> {
        let about = schema::describe(&["extends".to_string()]);
        let mut items: Vec<Item> = crate::rules::builtin::names()
            .into_iter()
            .map(|n| {
                Item::value(
                    n.to_string(),
                    Some(format!(
                        "built-in ruleset. {}",
                        about.clone().unwrap_or_default()
                    )),
                )
            })
            .collect();
        let own = Path::new(self.name).file_name();
        let dir = self.dir().unwrap_or(Path::new("."));
        let mut files: Vec<String> = std::fs::read_dir(dir)
            .into_iter()
            .flatten()
            .take(MAX_LISTED_FILES)
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| Some(std::ffi::OsStr::new(n)) != own)
            .filter(|n| [".rules", ".yaml", ".yml"].iter().any(|x| n.ends_with(x)))
            .collect();
        files.sort();
        items.extend(files.into_iter().map(|f| {
            Item::value(
                f,
                Some(format!(
                    "ruleset file beside this one. {}",
                    about.clone().unwrap_or_default()
                )),
            )
        }));
        items
    }
}

/// What the nearest base that has `pointer` gives it, as a line of Markdown: the value this
/// document changes (or the entry it adds to) and the base it comes from.
fn inherited(doc: &Doc, pointer: &str, dir: Option<&Path>) -> Option<String> {
    let chain = super::bases::chain(doc, dir);
    chain.iter().find_map(|base| {
        let found = super::bases::find(&base.doc, pointer)?;
        let value = base.doc.value.pointer(&found)?;
        let from = base.origin.shown();
        Some(match value {
            serde_json::Value::Object(_) | serde_json::Value::Array(_) => {
                format!("\n\nChanges the entry `{found}` of {from}.")
            }
            scalar => format!("\n\nInherited from {from}: `{scalar}` (this file changes it)."),
        })
    })
}

/// Most folder entries looked at for `extends` targets.
const MAX_LISTED_FILES: usize = 1000;

/// One completion: the text, what it is, how it is written (a function's signature) and what
/// it means.
#[derive(Debug, Clone, PartialEq)]
pub struct Item {
    pub label: String,
    pub documentation: Option<String>,
    pub(crate) kind: ItemKind,
    pub detail: Option<String>,
}

/// What a completion is, for the editor's icon.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum ItemKind {
    Key,
    Value,
    /// A formula's function.
    Function,
    /// A formula's variable.
    Variable,
    /// A formula's word operator (`and`, `not`).
    Operator,
}

impl Item {
    pub(crate) fn new(kind: ItemKind, label: String, documentation: Option<String>) -> Item {
        Item {
            label,
            documentation,
            kind,
            detail: None,
        }
    }

    fn key(label: String, documentation: Option<String>) -> Item {
        Item::new(ItemKind::Key, label, documentation)
    }

    fn value(label: String, documentation: Option<String>) -> Item {
        Item::new(ItemKind::Value, label, documentation)
    }
}

/// The keys of the block at `path`: the schema's, or the names a map of names holds.
fn key_items(path: &[String], known: &Known) -> Vec<Item> {
    let segments: Vec<&str> = path.iter().map(String::as_str).collect();
    let mut items: Vec<Item> = schema::keys_at(path)
        .into_iter()
        .map(|(k, d)| Item::key(k, d))
        .collect();
    match segments.as_slice() {
        ["ships"] => items.extend(
            names_in(known.get(), "/ships", "a ship")
                .into_iter()
                .map(|i| Item {
                    kind: ItemKind::Key,
                    ..i
                }),
        ),
        ["combat", "crew"] | ["ships", _, "crew"] => {
            let about = schema::describe(&["ships".into(), "_".into(), "crew".into()]);
            let skills = names_in(known.get(), "/combat/crew", "a crew skill");
            items.extend(
                skills
                    .into_iter()
                    .map(|i| Item::key(i.label, about.clone().or(i.documentation))),
            );
        }
        _ => {}
    }
    items
}

/// The ruleset as far as it is known (`Document::known`), read when first asked for.
struct Known<'a>(&'a dyn Fn() -> &'a [serde_json::Value]);

impl Known<'_> {
    fn get(&self) -> &[serde_json::Value] {
        (self.0)()
    }
}

/// The keys of the map at `pointer` of the ruleset as far as it is known.
fn names_in(known: &[serde_json::Value], pointer: &str, what: &str) -> Vec<Item> {
    known
        .iter()
        .filter_map(|v| v.pointer(pointer)?.as_object())
        .flat_map(|m| m.keys())
        .map(|k| Item::value(k.clone(), Some(what.to_string())))
        .collect()
}

fn documented(list: &[(&str, &str)]) -> Vec<Item> {
    list.iter()
        .map(|(name, doc)| Item::value(name.to_string(), Some(doc.to_string())))
        .collect()
}

/// The name or path the text's `extends` line gives, read from the line alone.
fn extends_target(text: &str) -> Option<String> {
    let line = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))?;
    let rest = line.strip_prefix("extends")?.trim_start();
    let rest = rest.strip_prefix(':').unwrap_or(rest).trim_start();
    let target = match rest.strip_prefix('"') {
        Some(quoted) => quoted.split('"').next()?,
        None => rest.split_whitespace().next()?,
    };
    (!target.is_empty()).then(|| target.to_string())
}

/// The ruleset a record's top-level `rules:` line names.
fn rules_line(text: &str) -> Option<String> {
    let line = text.lines().find(|l| l.starts_with("rules"))?;
    let rest = line.strip_prefix("rules")?.trim_start();
    let rest = rest.strip_prefix([':', '='])?.trim();
    let rest = rest.split(" #").next().unwrap_or(rest).trim();
    let target = rest.trim_matches(['"', '\'']);
    (!target.is_empty()).then(|| target.to_string())
}

fn pointer_or_root(pointer: &str) -> String {
    if pointer.is_empty() {
        "/".to_string()
    } else {
        pointer.to_string()
    }
}

/// The UTF-16 column of character `chars` of line `line` (0-based both).
fn utf16_column(text: &str, line: usize, chars: usize) -> u32 {
    let l = text.lines().nth(line).unwrap_or("");
    l.chars().take(chars).map(char::len_utf16).sum::<usize>() as u32
}

/// The character column (0-based) of UTF-16 column `units` of line `line`.
fn char_column(text: &str, line: usize, units: u32) -> usize {
    let l = text.lines().nth(line).unwrap_or("");
    let mut used = 0usize;
    let mut chars = 0usize;
    for c in l.chars() {
        if used >= units as usize {
            break;
        }
        used += c.len_utf16();
        chars += 1;
    }
    chars
}

#[cfg(test)]
mod tests {
    use super::*;

    fn doc<'a>(name: &'a str, text: &'a str) -> Document<'a> {
        Document { name, text }
    }

    #[test]
    fn a_bad_value_is_a_problem_at_its_line_and_column() {
        let d = doc(
            "house.rules",
            "extends startrek\nships {\n  \"UFP heavy cruiser\" { shields = \"ten\" }\n}\n",
        );
        let p = d.problems();
        assert_eq!(p.len(), 1, "{p:?}");
        assert_eq!(p[0].line, 2, "{p:?}");
        assert!(p[0].character >= 24, "{p:?}");
        assert!(doc("ok.rules", "extends startrek\n").problems().is_empty());
    }

    #[test]
    fn hover_explains_the_key_with_its_value_through_extends() {
        let d = doc(
            "house.yaml",
            "extends: startrek\ncombat:\n  sensor_range: 12\n",
        );
        let h = d.hover(2, 4).unwrap();
        assert!(h.contains("combat.sensor_range"), "{h}");
        assert!(h.contains("Short-range sensors"), "{h}");
        assert!(h.contains(": 12"), "{h}");
        assert!(d
            .hover(0, 2)
            .unwrap()
            .contains("The ruleset this one changes"));
        assert_eq!(d.hover(7, 0), None);
    }

    #[test]
    fn completion_offers_the_sections_keys_and_ship_names() {
        let d = doc(
            "house.yaml",
            "extends: startrek\ncombat:\n  sensor_range: 12\n  \n",
        );
        let keys: Vec<String> = d.completions(3, 2).into_iter().map(|k| k.label).collect();
        assert!(keys.contains(&"start_distance".to_string()), "{keys:?}");
        let d = doc("house.yaml", "extends: startrek\nships:\n  \n");
        let keys: Vec<String> = d.completions(2, 2).into_iter().map(|k| k.label).collect();
        assert!(keys.contains(&"UFP heavy cruiser".to_string()), "{keys:?}");
        let top: Vec<String> = d.completions(3, 0).into_iter().map(|k| k.label).collect();
        assert!(top.contains(&"combat".to_string()), "{top:?}");
    }

    fn labels(d: &Document, line: u32, character: u32) -> Vec<String> {
        d.completions(line, character)
            .into_iter()
            .map(|i| i.label)
            .collect()
    }

    #[test]
    fn a_half_typed_buffer_completes_from_the_cursors_block() {
        // Open string, half a key, a key with no value: none of these parse.
        let text = "extends startrek\nships {\n  \"UFP\n  \"UFP heavy cruiser\" {\n    sh\n    \
                    size = \n    torpedo_kind = \n    crew {\n      gu\n";
        let d = doc("house.rules", text);
        assert!(d.parsed().is_err());
        let ships = labels(&d, 2, 6);
        assert!(
            ships.contains(&"UFP heavy cruiser".to_string()),
            "{ships:?}"
        );
        assert!(!ships.contains(&"combat".to_string()), "{ships:?}");
        let keys = labels(&d, 4, 6);
        assert!(keys.contains(&"shields".to_string()), "{keys:?}");
        assert!(!keys.contains(&"extends".to_string()), "{keys:?}");
        assert_eq!(labels(&d, 5, 11), ["large", "medium", "small"]);
        assert!(labels(&d, 6, 19).contains(&"plasma".to_string()));
        let skills = labels(&d, 8, 8);
        assert!(skills.contains(&"gunnery".to_string()), "{skills:?}");
        let base = labels(&d, 0, 10);
        assert!(base.contains(&"startrek".to_string()) && base.contains(&"swiss".to_string()));
        let sized = d.completions(5, 11);
        assert!(sized[0]
            .documentation
            .as_deref()
            .unwrap()
            .contains("combat.sizes"));
    }

    #[test]
    fn values_complete_with_their_meaning() {
        let d = doc(
            "s.yaml",
            "extends: swiss\nswiss:\n  tiebreakers:\n    - bu\n",
        );
        let items = d.completions(3, 8);
        let buchholz = items.iter().find(|i| i.label == "buchholz").unwrap();
        assert!(buchholz.kind == ItemKind::Value && buchholz.documentation.is_some());
        let d = doc("s.rules", "scoring {\n  system = \n");
        let systems = labels(&d, 1, 11);
        assert!(systems.contains(&"cep".to_string()), "{systems:?}");
    }

    #[test]
    fn a_hostile_document_gives_diagnostics_never_a_crash() {
        let deep = format!("a = {}{}\n", "[".repeat(100_000), "]".repeat(100_000));
        let cyclic = "extends \"house.rules\"\n";
        let texts = [
            deep.as_str(),
            cyclic,
            "ships {\n  \"é\u{1F680}\" { shields = -1 }\n",
            "\u{0}\u{feff}{{{{",
        ];
        for text in texts {
            for name in ["house.rules", "house.yaml"] {
                let d = doc(name, text);
                assert!(!d.problems().is_empty(), "{name}: {text:.40}");
                let _ = d.hover(u32::MAX, u32::MAX);
                let _ = d.hover(1, 9);
                let _ = d.completions(u32::MAX, u32::MAX);
            }
        }
    }
}
