//! Edits the server proposes: the `rules fmt` layout as the few changes that make it (whole
//! document or a range), renaming a ship, torpedo kind or size class everywhere it is written
//! (and in the folder's rulesets that extend the document), and the quick fix of each
//! "did you mean" diagnostic.
use super::analysis::{Document, Problem};
use super::bases;
use super::navigate::parsed;
use super::tokens::{unquoted, Lines};
use super::workspace::{self, canonical};
use crate::io::Format;
use lsp_types::{Position, Range, TextEdit};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The edits that lay the document out as `rules fmt` does; an error (a located message) if
/// it does not parse.
pub(crate) fn formatting(doc: &Document, only: Option<Range>) -> Result<Vec<TextEdit>, String> {
    let formatted =
        crate::rules::canonical::formatted(doc.name, doc.text).map_err(|e| e.to_string())?;
    let old: Vec<&str> = doc.text.split_inclusive('\n').collect();
    let new: Vec<&str> = formatted.split_inclusive('\n').collect();
    let lines = Lines::new(doc.text);
    let end_of = |line: usize| match line >= old.len() {
        true => lines.end(),
        false => Position::new(line as u32, 0),
    };
    Ok(hunks(&old, &new)
        .into_iter()
        .filter(|h| {
            only.is_none_or(|r| {
                let (first, last) = (r.start.line as usize, r.end.line as usize);
                h.old.start <= last && (h.old.end > first || h.old.start >= first)
            })
        })
        .map(|h| TextEdit {
            range: Range::new(end_of(h.old.start), end_of(h.old.end)),
            new_text: new[h.new.clone()].concat(),
        })
        .collect())
}

/// Lines `old` of the old text are replaced by lines `new` of the new.
#[derive(Debug, PartialEq)]
struct Hunk {
    old: std::ops::Range<usize>,
    new: std::ops::Range<usize>,
}

/// Most cells of the table a line diff fills; past it the changed middle is one hunk.
const MAX_DIFF_CELLS: usize = 4_000_000;

/// The changed runs of lines between `old` and `new` (a longest common subsequence's gaps).
fn hunks(old: &[&str], new: &[&str]) -> Vec<Hunk> {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let (a, b) = (
        &old[prefix..old.len() - suffix],
        &new[prefix..new.len() - suffix],
    );
    if a.is_empty() && b.is_empty() {
        return Vec::new();
    }
    if (a.len() + 1) * (b.len() + 1) > MAX_DIFF_CELLS {
        return vec![Hunk {
            old: prefix..prefix + a.len(),
            new: prefix..prefix + b.len(),
        }];
    }
    // common[i][j]: the longest common subsequence of a[i..] and b[j..].
    let width = b.len() + 1;
    let mut common = vec![0u32; (a.len() + 1) * width];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            common[i * width + j] = if a[i] == b[j] {
                common[(i + 1) * width + j + 1] + 1
            } else {
                common[(i + 1) * width + j].max(common[i * width + j + 1])
            };
        }
    }
    let mut found = Vec::new();
    let (mut i, mut j) = (0, 0);
    let mut open: Option<(usize, usize)> = None;
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            if let Some((oi, oj)) = open.take() {
                found.push(Hunk {
                    old: prefix + oi..prefix + i,
                    new: prefix + oj..prefix + j,
                });
            }
            i += 1;
            j += 1;
            continue;
        }
        open.get_or_insert((i, j));
        if j < b.len() && (i == a.len() || common[i * width + j + 1] >= common[(i + 1) * width + j])
        {
            j += 1;
        } else {
            i += 1;
        }
    }
    if let Some((oi, oj)) = open {
        found.push(Hunk {
            old: prefix + oi..prefix + a.len(),
            new: prefix + oj..prefix + b.len(),
        });
    }
    found
}

/// A rename's edits by file (`None`: the document itself).
pub(crate) type Renamed = BTreeMap<Option<PathBuf>, Vec<TextEdit>>;

/// Rename the ship, torpedo kind or size class under the cursor to `to`: every place this
/// document (and each ruleset of the folder that extends it) writes the name as a whole key
/// or value. An error says why nothing can be renamed there.
pub(crate) fn rename(
    doc: &Document,
    at: Position,
    to: &str,
    folder: &[workspace::Ruleset],
) -> Result<Renamed, String> {
    let name = renamable(doc, at).ok_or(
        "only a ship, a torpedo kind or a size class can be renamed: put the cursor on one",
    )?;
    if to.trim().is_empty() || to.contains(['\n', '\r']) {
        return Err("a new name is one line of text, not empty".into());
    }
    let format = Format::of(doc.name);
    let mut edits = Renamed::new();
    edits.insert(None, occurrences(doc.text, &name, to, format));
    let own = canonical(Path::new(doc.name));
    for r in folder {
        let extends = crate::rules::pin::read_extends(&r.doc).ok().flatten();
        let Some(reference) = extends.map(|e| e.name) else {
            continue;
        };
        let dir = r.path.parent().unwrap_or(Path::new("."));
        if canonical(&r.path) != own && canonical(&dir.join(&reference)) == own {
            let shown = r.path.display().to_string();
            let found = occurrences(&r.text, &name, to, Format::of(&shown));
            if !found.is_empty() {
                edits.insert(Some(r.path.clone()), found);
            }
        }
    }
    Ok(edits)
}

/// The name of the ship, torpedo kind or size class under the cursor (its key or a value
/// naming it), if it is one this document or its bases define.
fn renamable(doc: &Document, at: Position) -> Option<String> {
    let own = parsed(doc)?;
    let lines = Lines::new(doc.text);
    let line = at.line as usize + 1;
    let named = ["/ships", "/combat/torpedoes", "/combat/sizes"];
    for (pointer, place) in &own.places {
        let segments: Vec<String> = crate::pointer::pointer_segments(pointer).collect();
        if let Some(key) = place.key.as_ref().filter(|k| k.line == line) {
            let section = pointer.rfind('/').map_or("", |i| &pointer[..i]);
            if named.contains(&section)
                && super::tokens::contains(lines.token(key.line, key.col), at)
            {
                return segments.last().map(|s| bases::unmarked(s).to_string());
            }
        }
        let value = &place.value;
        let range = lines.token(value.line, value.col);
        if value.line != line || !super::tokens::contains(range, at) {
            continue;
        }
        let Some(field) = segments.iter().rfind(|s| s.parse::<usize>().is_err()) else {
            continue;
        };
        let section = match field.as_str() {
            "size" => "/combat/sizes",
            "torpedo_kind" => "/combat/torpedoes",
            _ => "/ships",
        };
        let name = unquoted(&lines.token_text(range));
        let wanted = crate::pointer::pointer_push(section, &name);
        let defined = bases::find(&own, &wanted).is_some()
            || bases::chain(&own, doc.dir())
                .iter()
                .any(|b| bases::find(&b.doc, &wanted).is_some());
        if defined {
            return Some(name);
        }
    }
    None
}

/// Every place `text` writes `name` as a whole key or value (quoted, or bare between the
/// syntax that ends a word), outside comments, as the edits that write `to` there instead.
pub(crate) fn occurrences(text: &str, name: &str, to: &str, format: Format) -> Vec<TextEdit> {
    let lines = Lines::new(text);
    let wanted: Vec<char> = name.chars().collect();
    let mut edits = Vec::new();
    if wanted.is_empty() {
        return edits;
    }
    for n in 0..lines.count() {
        let chars: Vec<char> = lines.get(n).chars().collect();
        let code = code_end(&chars, format);
        let mut i = 0;
        while i + wanted.len() <= code {
            if chars[i..i + wanted.len()] != wanted[..] {
                i += 1;
                continue;
            }
            let end = i + wanted.len();
            let before = chars[..i].iter().rposition(|c| *c != ' ');
            let after = chars[end..code]
                .iter()
                .position(|c| *c != ' ')
                .map(|p| end + p);
            let quoted = i > 0
                && end < chars.len()
                && matches!(chars[i - 1], '"' | '\'')
                && chars[end] == chars[i - 1];
            let bare = {
                let opens = match before {
                    None => true,
                    Some(b) => {
                        ":=,[{-".contains(chars[b])
                            || (b >= 2 && chars[b - 2..=b] == ['n', 'e', 'w'] && b + 1 < i)
                    }
                };
                let closes = after.is_none_or(|a| ":={},]#".contains(chars[a]));
                opens && closes
            };
            if quoted || bare {
                let written = match quoted {
                    true => requoted(to, chars[i - 1]),
                    false => bare_or_quoted(to, format),
                };
                let (from, until) = match quoted && written.starts_with('"') {
                    // A name that needs escapes in single quotes is written double-quoted.
                    true if chars[i - 1] == '\'' => (i - 1, end + 1),
                    _ => (i, end),
                };
                edits.push(TextEdit {
                    range: Range::new(lines.position(n, from), lines.position(n, until)),
                    new_text: written,
                });
                i = end;
            } else {
                i += 1;
            }
        }
    }
    edits
}

/// Where a line's code ends (a comment starts), quotes respected.
fn code_end(chars: &[char], format: Format) -> usize {
    let mut quote: Option<char> = None;
    for (i, &c) in chars.iter().enumerate() {
        match quote {
            Some(q) if c == q && (q == '\'' || i == 0 || chars[i - 1] != '\\') => quote = None,
            Some(_) => {}
            None if c == '"' || (c == '\'' && format == Format::Yaml) => quote = Some(c),
            None if c == '#' && (format == Format::Rules || i == 0 || chars[i - 1] == ' ') => {
                return i
            }
            None => {}
        }
    }
    chars.len()
}

/// `name` inside the quotes `quote` opened: escaped as JSON inside `"`, doubled `'` inside
/// `'` (or the whole string double-quoted when that cannot hold it).
fn requoted(name: &str, quote: char) -> String {
    let json = serde_json::to_string(name).unwrap_or_default();
    match quote {
        '\'' if name.contains(['\\', '\n']) => json,
        '\'' => name.replace('\'', "''"),
        _ => json[1..json.len() - 1].to_string(),
    }
}

/// `name` bare where the syntax allows it, else double-quoted.
fn bare_or_quoted(name: &str, format: Format) -> String {
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    let bare = match format {
        Format::Rules => name.chars().all(word) && !name.starts_with(|c: char| c.is_ascii_digit()),
        Format::Yaml => {
            name.chars().all(|c| word(c) || c == ' ')
                && !name.starts_with([' ', '-'])
                && !name.ends_with(' ')
        }
    };
    match bare {
        true => name.to_string(),
        false => serde_json::to_string(name).unwrap_or_default(),
    }
}

/// A diagnostic's quick fix: its title and the edit that applies the suggestion.
pub(crate) struct Fix {
    pub problem: Problem,
    pub title: String,
    pub edit: TextEdit,
}

/// The quick fix of every "did you mean" problem on the lines of `range`: the word the
/// message names replaced by the one it suggests.
pub(crate) fn quick_fixes(doc: &Document, problems: Vec<Problem>, range: Range) -> Vec<Fix> {
    let lines = Lines::new(doc.text);
    problems
        .into_iter()
        .filter(|p| (range.start.line..=range.end.line).contains(&p.line))
        .filter_map(|p| {
            let (wrong, right) = suggestion(&p.message)?;
            let at = Position::new(p.line, p.character);
            let token = lines.token(p.line as usize + 1, lines.char_of(at) + 1);
            let written = lines.token_text(token);
            let range = match unquoted(&written) == wrong {
                true => token,
                // The message names another word of the line: its first whole occurrence.
                false => {
                    let format = Format::of(doc.name);
                    occurrences(lines.get(p.line as usize), &wrong, &right, format)
                        .first()
                        .map(|e| {
                            Range::new(
                                Position::new(p.line, e.range.start.character),
                                Position::new(p.line, e.range.end.character),
                            )
                        })?
                }
            };
            let old = lines.token_text(range);
            let new_text = match old.chars().next() {
                Some(q @ ('"' | '\'')) if old.len() >= 2 && old.ends_with(q) => {
                    format!("{q}{}{q}", requoted(&right, q))
                }
                _ => bare_or_quoted(&right, Format::of(doc.name)),
            };
            Some(Fix {
                title: format!("Change `{wrong}` to `{right}`"),
                problem: p,
                edit: TextEdit { range, new_text },
            })
        })
        .collect()
}

/// The word a message says is wrong and the one it suggests: "unknown field `sheilds` (did
/// you mean `shields`?)" gives (`sheilds`, `shields`).
fn suggestion(message: &str) -> Option<(String, String)> {
    let (before, after) = message.split_once("did you mean `")?;
    let right = after.split('`').next()?.to_string();
    let wrong = before.split('`').nth(1)?.to_string();
    (!wrong.is_empty() && !right.is_empty()).then_some((wrong, right))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_diff_keeps_what_did_not_change() {
        let old = ["a\n", "b\n", "c\n", "d\n"];
        let new = ["a\n", "B\n", "c\n", "d\n", "e\n"];
        assert_eq!(
            hunks(&old, &new),
            [
                Hunk {
                    old: 1..2,
                    new: 1..2
                },
                Hunk {
                    old: 4..4,
                    new: 4..5
                }
            ]
        );
        assert!(hunks(&old, &old).is_empty());
    }

    #[test]
    fn a_name_is_renamed_where_it_is_a_whole_key_or_value() {
        let text = "ships {\n  new \"Scout\" { size = small } # Scout\n  \"Scout II\" {}\n}\n\
                    x = [Scout, \"Scout\"]\n";
        let edits = occurrences(text, "Scout", "Long Scout", Format::Rules);
        let at: Vec<(u32, u32, &str)> = edits
            .iter()
            .map(|e| {
                (
                    e.range.start.line,
                    e.range.start.character,
                    e.new_text.as_str(),
                )
            })
            .collect();
        assert_eq!(
            at,
            [
                (1, 7, "Long Scout"),
                (4, 5, "\"Long Scout\""),
                (4, 13, "Long Scout")
            ]
        );
        let yaml = "ships:\n  Scout:\n    size: small\nrivals: [Scout]\nx:\n  - Scout # Scout\n";
        let edits = occurrences(yaml, "Scout", "Long Scout", Format::Yaml);
        assert_eq!(edits.len(), 3);
        assert!(edits.iter().all(|e| e.new_text == "Long Scout"));
    }

    #[test]
    fn a_suggestion_names_the_wrong_word_and_the_right_one() {
        assert_eq!(
            suggestion("unknown field `sheilds` (did you mean `shields`?)"),
            Some(("sheilds".into(), "shields".into()))
        );
        assert_eq!(suggestion("no suggestion here"), None);
    }
}
