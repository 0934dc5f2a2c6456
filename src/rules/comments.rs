//! Comments of a ruleset file, kept beside its value tree (which engines read) in a side table
//! keyed by the path of the node each comment belongs to, so that conversion and `rules fmt`
//! write every comment back with its key.
//!
//! A comment on a line of its own belongs to the key (or list item) below it; one at the end
//! of a line, to the key on that line; one before the end of a section or list (nothing of
//! that section below it), to the section's end.
use std::collections::{HashMap, HashSet};

/// A blank line kept among comment lines: between two groups of them, or between a group and
/// the node below it. A marker no comment's text can be (a text is one line).
pub(crate) const BLANK: &str = "\n";

/// Whether a comment line of a `Notes` is the blank-line marker.
pub(crate) fn is_blank(text: &str) -> bool {
    text == BLANK
}

/// The comments of one node. Texts are what follows the `#`, trailing blanks removed; a
/// `BLANK` among `before` or `end` stands for a blank line written there.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Notes {
    /// Comment lines above the node.
    pub before: Vec<String>,
    /// The comment at the end of the node's (first) line.
    pub after: Option<String>,
    /// For a section or list: comment lines after its last entry.
    pub end: Vec<String>,
}

/// Every comment of a document, by JSON pointer ("" is the file: its `end` closes the file).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Comments {
    by_pointer: HashMap<String, Notes>,
}

impl Comments {
    pub(crate) fn is_empty(&self) -> bool {
        self.by_pointer.is_empty()
    }

    pub(crate) fn get(&self, pointer: &str) -> Option<&Notes> {
        self.by_pointer.get(pointer)
    }

    /// A child's pointer for a printer, made only when there are comments to look up.
    pub(crate) fn child(&self, base: &str, key: &str) -> String {
        if self.is_empty() {
            String::new()
        } else {
            crate::pointer::pointer_push(base, key)
        }
    }

    /// Every node's comments, by pointer, in pointer order.
    pub(crate) fn entries(&self) -> Vec<(&str, &Notes)> {
        let mut all: Vec<(&str, &Notes)> = self
            .by_pointer
            .iter()
            .map(|(p, n)| (p.as_str(), n))
            .collect();
        all.sort_by(|a, b| a.0.cmp(b.0));
        all
    }

    /// How many comments there are in all.
    pub fn count(&self) -> usize {
        self.by_pointer
            .values()
            .map(|n| {
                let lines = n.before.iter().chain(&n.end);
                lines.filter(|t| !is_blank(t)).count() + usize::from(n.after.is_some())
            })
            .sum()
    }

    fn notes(&mut self, pointer: &str) -> &mut Notes {
        self.by_pointer.entry(pointer.to_string()).or_default()
    }

    pub fn add_before(&mut self, pointer: &str, text: String) {
        self.notes(pointer).before.push(text);
    }

    pub fn add_end(&mut self, pointer: &str, text: String) {
        self.notes(pointer).end.push(text);
    }

    /// A blank line among the comment lines above `pointer` (`end`: at the end of its section
    /// or list), where they have come to: between two groups, above the first or below the
    /// last. One blank line stands for several.
    pub fn add_blank(&mut self, pointer: &str, end: bool) {
        let notes = self.notes(pointer);
        let lines = if end {
            &mut notes.end
        } else {
            &mut notes.before
        };
        if lines.last().is_none_or(|t| !is_blank(t)) {
            lines.push(BLANK.to_string());
        }
    }

    /// Blank lines that part no comment from anything are dropped (at the end of a section or
    /// list; a node's only ones), so that what is read back is what the writers give.
    pub fn tidy_blanks(&mut self) {
        self.by_pointer.retain(|_, notes| {
            while notes.end.last().is_some_and(|t| is_blank(t)) {
                notes.end.pop();
            }
            if notes.before.iter().all(|t| is_blank(t)) {
                notes.before.clear();
            }
            notes != &Notes::default()
        });
    }

    /// A second comment at the end of the same node's lines joins the first (one line holds one).
    pub fn add_after(&mut self, pointer: &str, text: String) {
        let notes = self.notes(pointer);
        notes.after = Some(match notes.after.take() {
            Some(first) => format!("{first} #{text}"),
            None => text,
        });
    }
}

/// A comment found in a file: where its `#` is and whether it has the line to itself.
#[derive(Debug, Clone)]
pub(crate) struct Found {
    pub pos: usize,
    pub line: usize,
    /// Column of the `#`, from 0, in characters.
    pub col: usize,
    pub own_line: bool,
    pub text: String,
}

impl Comments {
    /// Make the file's header its own: the comment lines at the top that a blank line parts
    /// from what follows are the file's (`""`'s `before`), not the first key's, and are
    /// written back above everything with the blank line kept. `first` is the pointer of the
    /// first key, which the attaching gave them to (with the blank lines among them).
    pub(crate) fn split_header(&mut self, first: &str) {
        let Some(notes) = self.by_pointer.get_mut(first) else {
            return;
        };
        let Some(last_blank) = notes.before.iter().rposition(|t| is_blank(t)) else {
            return;
        };
        let rest = notes.before.split_off(last_blank + 1);
        let mut taken = std::mem::replace(&mut notes.before, rest);
        taken.pop();
        if notes == &Notes::default() {
            self.by_pointer.remove(first);
        }
        // Blank lines at the top of the file part nothing.
        let start = taken.iter().take_while(|t| is_blank(t)).count();
        if start < taken.len() {
            self.notes("").before.extend(taken.drain(start..));
        }
    }
}

/// Whether the line after the one at byte `pos` of `text` is blank: a comment followed by one
/// keeps it (`Comments::add_blank`). The text's last line has no line after it.
pub(crate) fn blank_line_follows(text: &str, pos: usize) -> bool {
    let Some(newline) = text[pos..].find('\n') else {
        return false;
    };
    let rest = &text[pos + newline + 1..];
    rest.find('\n')
        .is_some_and(|end| rest[..end].trim().is_empty())
}

/// Whether the line before the one at byte `pos` of `text` is blank.
pub(crate) fn blank_line_precedes(text: &str, pos: usize) -> bool {
    let Some(start) = text[..pos].rfind('\n') else {
        return false;
    };
    let above = &text[..start];
    let line = above.rfind('\n').map_or(above, |i| &above[i + 1..]);
    line.trim().is_empty() && start > 0
}

/// Where a comment on a line of its own goes, with the blank lines around it kept: into the
/// lines above `pointer`'s node, or (`end`) at the end of its section or list.
pub(crate) fn place_own_line(
    comments: &mut Comments,
    text: &str,
    found: Found,
    pointer: &str,
    end: bool,
) {
    if blank_line_precedes(text, found.pos) {
        comments.add_blank(pointer, end);
    }
    if end {
        comments.add_end(pointer, found.text);
    } else {
        comments.add_before(pointer, found.text);
    }
    if blank_line_follows(text, found.pos) {
        comments.add_blank(pointer, end);
    }
}

/// The file's header comments (see `Comments::split_header`) and the blank line after them.
pub(crate) fn push_header(out: &mut String, comments: &Comments) {
    let header = comments
        .get("")
        .map(|n| n.before.as_slice())
        .unwrap_or_default();
    for text in header {
        push_line(out, "", text);
    }
    if !header.is_empty() {
        out.push('\n');
    }
}

/// A comment's text: what follows `#` on its line, trailing blanks (and `\r`) removed.
pub(crate) fn comment_text(rest_of_line: &str) -> String {
    rest_of_line.trim_end().to_string()
}

/// A comment written back at `indent`.
pub(crate) fn push_line(out: &mut String, indent: &str, text: &str) {
    if is_blank(text) {
        // Not at the top of the file, nor a second one where the layout has left one.
        if !out.is_empty() && !out.ends_with("\n\n") {
            out.push('\n');
        }
        return;
    }
    out.push_str(indent);
    out.push('#');
    out.push_str(text);
    out.push('\n');
}

/// The end-of-line form of a comment.
pub(crate) fn push_after(out: &mut String, notes: Option<&Notes>) {
    if let Some(text) = notes.and_then(|n| n.after.as_deref()) {
        out.push_str("  #");
        out.push_str(text);
    }
}

/// Leading comment lines of a node.
pub(crate) fn push_before(out: &mut String, indent: &str, notes: Option<&Notes>) {
    for text in notes.map(|n| n.before.as_slice()).unwrap_or_default() {
        push_line(out, indent, text);
    }
}

/// Closing comment lines of a section or list.
pub(crate) fn push_end(out: &mut String, indent: &str, notes: Option<&Notes>) {
    for text in notes.map(|n| n.end.as_slice()).unwrap_or_default() {
        push_line(out, indent, text);
    }
}

impl Comments {
    /// Every pointer that has comments at or below it (a list with some is written one item a
    /// line): each commented pointer and its ancestors.
    /// Whether the canonical layout writes a collection on one line (`{ a = 1, b = 2 }`,
    /// `[1, 2]`, in YAML `{ a: 1, b: 2 }`): a non-empty map or any list of scalars, short, with no
    /// comment inside it (its leading comments stay above it, and a list's trailing one after
    /// it). Both formats decide alike, from the tree and its comments alone. The writers keep
    /// maps that are list items in blocks, where a comment above the item reads back as its
    /// first key's.
    ///
    /// `marked` is `commented_paths()`, made once per document.
    pub(crate) fn on_one_line(
        &self,
        v: &serde_json::Value,
        pointer: &str,
        marked: &HashSet<String>,
    ) -> bool {
        use serde_json::Value;
        let width = |v: &Value| match v {
            Value::String(s) => s.len() + 2,
            Value::Number(n) => n.to_string().len(),
            _ => 5,
        };
        let (fits, scalars) = match v {
            // A list of long strings (a ruleset's rulings) reads better one item a line.
            Value::Array(items) => (
                items
                    .iter()
                    .map(|i| i.as_str().map_or(8, str::len) + 2)
                    .sum::<usize>()
                    <= 100,
                items.iter().all(|i| !i.is_object() && !i.is_array()),
            ),
            Value::Object(m) if !m.is_empty() => (
                m.iter()
                    .map(|(k, v)| k.len() + 3 + width(v) + 2)
                    .sum::<usize>()
                    <= 60,
                m.values().all(|i| !i.is_object() && !i.is_array()),
            ),
            _ => return false,
        };
        let child_marked = |key: &str| marked.contains(&crate::pointer::pointer_push(pointer, key));
        let commented_inside = marked.contains(pointer)
            && (self.get(pointer).is_some_and(|n| !n.end.is_empty())
                || match v {
                    Value::Object(m) => m.keys().any(|k| child_marked(k)),
                    Value::Array(a) => (0..a.len()).any(|i| child_marked(&i.to_string())),
                    _ => false,
                });
        // A comment at the end of `{ a = 1 }` would read back as `a`'s.
        let trailing = v.is_object() && self.get(pointer).is_some_and(|n| n.after.is_some());
        fits && scalars && !commented_inside && !trailing
    }

    pub(crate) fn commented_paths(&self) -> HashSet<String> {
        let mut set = HashSet::new();
        for pointer in self.by_pointer.keys() {
            let mut p = pointer.as_str();
            while set.insert(p.to_string()) {
                match p.rfind('/') {
                    Some(i) => p = &p[..i],
                    None => break,
                }
            }
        }
        set
    }
}
