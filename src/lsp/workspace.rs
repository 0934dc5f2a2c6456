//! The open folder's rulesets: its `.rules` and YAML files (and the open documents' newest
//! text in their place), found by a bounded walk and read through `crate::io`; what
//! workspace symbols list and a rename reaches.
use super::tokens::Lines;
use super::worker::Open;
use crate::rules::doc::Doc;
use crate::{io::Format, rules::load};
use lsp_types::{Location, Range, SymbolKind, Uri};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Most folder levels walked below the open folder.
const MAX_DEPTH: usize = 4;
/// Most folder entries looked at, and files read, by one walk.
const MAX_ENTRIES: usize = 5000;
const MAX_FILES: usize = 500;
/// Most symbols one query answers with.
pub(crate) const MAX_WORKSPACE_SYMBOLS: usize = 1000;

/// A ruleset of the folder: its path, text and parse.
pub(crate) struct Ruleset {
    pub path: PathBuf,
    pub text: String,
    pub doc: Doc,
}

/// The ruleset files under `root` (hidden folders and `target` skipped), each parsed; a file
/// that does not parse, or is not a mapping, is left out. An open document is read as the
/// editor holds it.
pub(crate) fn rulesets(root: &Path, open: &HashMap<String, Open>) -> Vec<Ruleset> {
    let by_name: HashMap<PathBuf, &Open> = open
        .values()
        .map(|o| (canonical(Path::new(&o.name)), o))
        .collect();
    files(root)
        .into_iter()
        .filter_map(|path| {
            let shown = path.display().to_string();
            let text = match by_name.get(&canonical(&path)) {
                Some(o) => o.text.to_string(),
                None => crate::io::read_text(&shown).ok()?,
            };
            let doc = load::parse_text(&shown, &text, Format::of(&shown)).ok()?;
            doc.value.is_object().then_some(Ruleset { path, text, doc })
        })
        .collect()
}

pub(crate) fn canonical(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

fn files(root: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut folders = vec![(root.to_path_buf(), 0usize)];
    let mut looked = 0;
    while let Some((dir, depth)) = folders.pop() {
        let Ok(read) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut entries: Vec<_> = read.take(MAX_ENTRIES - looked).flatten().collect();
        looked += entries.len();
        entries.sort_by_key(|e| e.file_name());
        for entry in entries {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if name.starts_with('.') {
                continue;
            }
            if kind.is_dir() {
                if depth < MAX_DEPTH && name != "target" {
                    folders.push((entry.path(), depth + 1));
                }
            } else if kind.is_file()
                && [".rules", ".yaml", ".yml"]
                    .iter()
                    .any(|x| name.ends_with(x))
            {
                found.push(entry.path());
            }
            if found.len() >= MAX_FILES {
                return found;
            }
        }
        if looked >= MAX_ENTRIES {
            break;
        }
    }
    found
}

/// One symbol of the folder.
pub(crate) struct Symbol {
    pub name: String,
    pub kind: SymbolKind,
    pub container: &'static str,
    pub location: Location,
}

/// The ships, torpedo kinds and ruleset names of the folder's rulesets that match `query`
/// (its letters in order, ignoring case; everything for an empty query).
pub(crate) fn symbols(rulesets: &[Ruleset], query: &str) -> Vec<Symbol> {
    let query = query.to_lowercase();
    let mut found = Vec::new();
    for r in rulesets {
        let Some(uri) = file_uri(&r.path) else {
            continue;
        };
        let lines = Lines::new(&r.text);
        let sections: [(&str, SymbolKind, &'static str); 3] = [
            ("/ships", SymbolKind::STRUCT, "ships"),
            (
                "/combat/torpedoes",
                SymbolKind::ENUM_MEMBER,
                "combat.torpedoes",
            ),
            ("/combat/sizes", SymbolKind::ENUM_MEMBER, "combat.sizes"),
        ];
        let mut add = |name: &str, pointer: &str, kind, container| {
            if found.len() >= MAX_WORKSPACE_SYMBOLS || !fuzzy(&query, name) {
                return;
            }
            let Some(key) = r.doc.places.get(pointer).and_then(|p| p.key.as_ref()) else {
                return;
            };
            found.push(Symbol {
                name: name.to_string(),
                kind,
                container,
                location: Location::new(uri.clone(), lines.token(key.line, key.col)),
            });
        };
        if let Some(name) = r.doc.value.get("name").and_then(|v| v.as_str()) {
            add(name, "/name", SymbolKind::MODULE, "ruleset");
        }
        for (section, kind, container) in sections {
            let Some(map) = r.doc.value.pointer(section).and_then(|v| v.as_object()) else {
                continue;
            };
            for key in map.keys() {
                let pointer = crate::pointer::pointer_push(section, key);
                add(super::bases::unmarked(key), &pointer, kind, container);
            }
        }
    }
    found
}

/// Whether `query`'s letters appear in `name` in order (ignoring case).
fn fuzzy(query: &str, name: &str) -> bool {
    let mut letters = name.chars().flat_map(char::to_lowercase);
    query
        .chars()
        .filter(|c| !c.is_whitespace())
        .all(|q| letters.any(|c| c == q))
}

/// The `file://` URI of a path (each byte outside the unreserved set percent-escaped).
pub(crate) fn file_uri(path: &Path) -> Option<Uri> {
    let shown = path.to_str()?;
    let mut uri = String::from("file://");
    if !shown.starts_with('/') {
        uri.push('/');
    }
    for b in shown.replace('\\', "/").bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                uri.push(b as char)
            }
            b':' if uri.len() <= 10 => uri.push(':'),
            _ => uri.push_str(&format!("%{b:02X}")),
        }
    }
    uri.parse().ok()
}

/// A location in `file` (a path), or in the document at `here` when `file` is `None`.
pub(crate) fn location(file: Option<&Path>, here: &Uri, range: Range) -> Option<Location> {
    let uri = match file {
        Some(path) => file_uri(path)?,
        None => here.clone(),
    };
    Some(Location::new(uri, range))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_is_a_file_uri_that_reads_back() {
        let uri = file_uri(Path::new("/home/ana/club rules é/a#b.rules")).unwrap();
        assert_eq!(
            uri.as_str(),
            "file:///home/ana/club%20rules%20%C3%A9/a%23b.rules"
        );
        assert!(fuzzy("ufphc", "UFP heavy cruiser"));
        assert!(!fuzzy("ufpx", "UFP heavy cruiser"));
    }
}
