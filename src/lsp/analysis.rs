//! What the language server says about one document's text: the located errors `rules check`
//! gives, `rules explain` for the key under the cursor, and the keys (and ship names) that fit
//! where the cursor is. Pure functions of the text, so a hostile document can only give
//! diagnostics; positions are 0-based lines and UTF-16 columns, as the protocol counts.
use crate::error::Place as ErrorPlace;
use crate::rules::doc::Doc;
use crate::rules::{explain, load, recover, schema, Format, Ruleset};
use std::path::Path;

/// Most bytes of a document the server reads (as for files on disk).
pub const MAX_DOCUMENT_BYTES: usize = crate::io::MAX_FILE_BYTES as usize;

/// One problem: 0-based line, UTF-16 column, and the message.
#[derive(Debug, Clone, PartialEq)]
pub struct Problem {
    pub line: u32,
    pub character: u32,
    pub message: String,
}

/// A document as the editor holds it: its file name (for the format and relative `extends`).
pub struct Document<'a> {
    pub name: &'a str,
    pub text: &'a str,
}

impl Document<'_> {
    fn dir(&self) -> Option<&Path> {
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
    fn ruleset(&self) -> crate::error::Result<Ruleset> {
        let doc = self.parsed()?;
        let resolved = load::resolve_loaded(doc, self.name, self.dir())?;
        load::ruleset_from_doc(&resolved)
    }

    /// The problems `rules check` reports: every one of the file (up to
    /// `recover::MAX_PROBLEMS`), each at its line and column.
    pub fn problems(&self) -> Vec<Problem> {
        let errors = match self.text.len() > MAX_DOCUMENT_BYTES {
            true => vec![crate::error::Error::msg(format!(
                "{}: larger than {MAX_DOCUMENT_BYTES} bytes",
                self.name
            ))],
            false => {
                let format = Format::of(self.name);
                recover::check_text(self.name, self.text, format, self.name, self.dir()).1
            }
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
        Problem {
            line: line0 as u32,
            character: utf16_column(self.text, line0, col.saturating_sub(1)),
            message,
        }
    }

    /// `rules explain` for the key under the cursor, as Markdown; `None` off any key.
    pub fn hover(&self, line: u32, character: u32) -> Option<String> {
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
        Some(format!("```text\n{}```", e.text()))
    }

    /// Keys that may go where the cursor is (with their descriptions), and ship names under
    /// `ships`.
    pub fn completions(&self, line: u32, character: u32) -> Vec<(String, Option<String>)> {
        let parent = self
            .section_at(line as usize, character)
            .unwrap_or_default();
        let segments: Vec<String> = if parent.is_empty() {
            Vec::new()
        } else {
            crate::pointer::pointer_segments(&parent).collect()
        };
        let mut out = schema::keys_at(&segments);
        if segments == ["ships"] {
            // The ships of the document as it stands, and of what it extends (while the
            // document is broken, or its `ships:` still empty).
            let mut names: Vec<String> = Vec::new();
            if let Ok(r) = self.ruleset() {
                names.extend(r.ships.keys().cloned());
            }
            let base = self.parsed().ok().and_then(|doc| {
                let pins = crate::rules::pin::read_extends(&doc).ok()??;
                let reference = match self.dir() {
                    Some(d) if d.join(&pins.name).is_file() => {
                        d.join(&pins.name).display().to_string()
                    }
                    _ => pins.name,
                };
                load::load(&reference).ok()
            });
            if let Some(r) = base {
                names.extend(r.ships.keys().cloned());
            }
            let mut seen = std::collections::HashSet::new();
            for n in names {
                if seen.insert(n.clone()) {
                    out.push((n, Some("a ship".to_string())));
                }
            }
        }
        out
    }

    /// The pointer of the section the cursor is in: the nearest key above it that starts
    /// left of the cursor's indentation.
    fn section_at(&self, line: usize, character: u32) -> Option<String> {
        let doc = self.parsed().ok()?;
        let this_line = self.text.lines().nth(line).unwrap_or("");
        let indent = this_line.chars().take_while(|c| c.is_whitespace()).count() + 1;
        let col = char_column(self.text, line, character).max(indent);
        let mut above: Vec<(usize, usize, &String)> = doc
            .places
            .iter()
            .filter_map(|(p, place)| {
                let k = place.key.as_ref()?;
                (k.line <= line).then_some((k.line, k.col, p))
            })
            .collect();
        above.sort();
        let (_, _, nearest) = above
            .iter()
            .rev()
            .find(|(_, kcol, p)| *kcol < indent.min(col) && doc_is_object(&doc, p))?;
        Some((*nearest).clone())
    }
}

/// A section, or a key with nothing under it yet (a section being written).
fn doc_is_object(doc: &Doc, pointer: &str) -> bool {
    doc.value
        .pointer(pointer)
        .is_some_and(|v| v.is_object() || v.is_null())
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
        let keys: Vec<String> = d.completions(3, 2).into_iter().map(|k| k.0).collect();
        assert!(keys.contains(&"start_distance".to_string()), "{keys:?}");
        let d = doc("house.yaml", "extends: startrek\nships:\n  \n");
        let keys: Vec<String> = d.completions(2, 2).into_iter().map(|k| k.0).collect();
        assert!(keys.contains(&"UFP heavy cruiser".to_string()), "{keys:?}");
        let top: Vec<String> = d.completions(3, 0).into_iter().map(|k| k.0).collect();
        assert!(top.contains(&"combat".to_string()), "{top:?}");
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
