//! The entry a syntax error is in, found from the text alone (brackets, strings, comments and
//! indentation), never from a parse: a parser that stops at its first error is run again with
//! that entry blanked out, to find the next one. Blanking writes a space for every character
//! but line breaks, so every other entry keeps its line and column.
use std::ops::Range;

/// One line of rules-language text, as the scanner sees it.
#[derive(Debug, Clone)]
struct Line {
    start: usize,
    end: usize,
    /// Blanks before its first character (bytes).
    indent: usize,
    /// It starts an entry: code that is not inside a list or parentheses and is no closer.
    head: bool,
    /// It starts with `}`, `]` or `)`.
    closer: bool,
    /// The last character of its code (comments aside), and where it is.
    last: Option<(char, usize)>,
    /// A `"` left open at its end (a string never runs over lines: a line break in one is an
    /// error anyway).
    open_quote: Option<usize>,
    /// The innermost `{` open where the line starts.
    block: Option<usize>,
}

fn scan(text: &str) -> Vec<Line> {
    let mut lines = Vec::new();
    let mut stack: Vec<(char, usize)> = Vec::new();
    let mut start = 0;
    for raw in text.split_inclusive('\n') {
        let body = raw.trim_end_matches(['\n', '\r']);
        let indent = body.len() - body.trim_start_matches([' ', '\t']).len();
        let inside_value = matches!(stack.last(), Some(('[', _)) | Some(('(', _)));
        let block = stack.iter().rev().find(|(c, _)| *c == '{').map(|b| b.1);
        let first = body[indent..].chars().next().filter(|c| *c != '#');
        let closer = matches!(first, Some('}' | ']' | ')'));
        let mut last = None;
        let mut quote: Option<usize> = None;
        let mut escaped = false;
        for (i, c) in body.char_indices() {
            let at = start + i;
            if quote.is_some() {
                match c {
                    _ if escaped => escaped = false,
                    '\\' => escaped = true,
                    '"' => quote = None,
                    _ => {}
                }
            } else {
                match c {
                    '#' => break,
                    '"' => quote = Some(at),
                    '{' | '[' | '(' => stack.push((c, at)),
                    '}' | ']' | ')' => {
                        stack.pop();
                    }
                    _ => {}
                }
            }
            if !c.is_whitespace() {
                last = Some((c, at));
            }
        }
        lines.push(Line {
            start,
            end: start + body.len(),
            indent,
            head: first.is_some() && !closer && !inside_value,
            closer,
            last,
            open_quote: quote,
            block,
        });
        start += raw.len();
    }
    lines
}

/// Where a broken entry is: what to blank, and the block it sits in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Entry {
    pub range: Range<usize>,
    /// The `{` of the block holding it (`None` at the top level).
    pub block: Option<usize>,
    /// An entry `key =` with nothing after it: where its `=` is. The parser then reads the
    /// next line's key as its value and fails there, a line late.
    pub dangling: Option<usize>,
    /// An entry that is a key alone on its line (`sh`, half typed): where the key is. The
    /// parser reads on for its `=` or `{` and fails at the next line, a line late.
    pub lone: Option<std::ops::Range<usize>>,
}

/// The byte positions of strings left open at the end of their line.
pub(crate) fn open_strings(text: &str) -> Vec<usize> {
    scan(text).iter().filter_map(|l| l.open_quote).collect()
}

/// The entry of rules-language text that a syntax error at byte `pos` belongs to.
pub(crate) fn rules_entry(text: &str, pos: usize) -> Option<Entry> {
    let lines = scan(text);
    let here = lines
        .iter()
        .rposition(|l| l.start <= pos)
        .unwrap_or_default();
    // A line that ends waiting for more (`key =`, `1 +`): the parser fails at the next line,
    // but the broken entry is that one.
    let waiting = |i: usize| {
        let above = (0..i).rev().find(|&j| lines[j].last.is_some())?;
        let (c, at) = lines[above].last?;
        let entry = (0..=above).rev().find(|&j| lines[j].head)?;
        matches!(c, '=' | ':' | '+' | '-' | '*' | '/' | '^').then_some((entry, c, at))
    };
    let line = lines.get(here)?;
    if let Some(key) =
        lone_key_above(text, &lines, here).filter(|_| pos >= line.start + line.indent)
    {
        let own = lines
            .iter()
            .rposition(|l| l.start <= key.start)
            .unwrap_or_default();
        return Some(Entry {
            range: lines[own].start..lines[own].end,
            block: lines[own].block,
            dangling: None,
            lone: Some(key),
        });
    }
    let stray_closer = line.closer && pos >= line.start + line.indent && pos <= line.end;
    let head = match (stray_closer, waiting(here)) {
        // The formula goes on over lines: the entry is all of them.
        (false, Some((entry, _, _))) if !starts_statement(&text[line.start..line.end]) => entry,
        (_, Some((entry, c, at))) if line.start + line.indent <= pos => {
            let dangling = matches!(c, '=' | ':').then_some(at);
            let end = lines
                .iter()
                .find(|l| l.start > at)
                .map_or(text.len(), |l| l.start);
            return Some(Entry {
                range: lines[entry].start..end,
                block: lines[entry].block,
                dangling,
                lone: None,
            });
        }
        (true, None) => {
            return Some(Entry {
                range: line.start..line.end,
                block: line.block,
                dangling: None,
                lone: None,
            });
        }
        _ => (0..=here)
            .rev()
            .find(|&i| lines[i].head && lines[i].start + lines[i].indent <= pos)?,
    };
    let top = &lines[head];
    let end = lines[head + 1..]
        .iter()
        .find(|l| (l.head || l.closer) && l.indent <= top.indent)
        .map_or(text.len(), |l| l.start);
    Some(Entry {
        range: top.start..end,
        block: top.block,
        dangling: None,
        lone: None,
    })
}

/// The key of the last line with code above line `here`, when that line is an entry holding
/// nothing but one key (a word or a quoted name) and line `here` begins something else.
fn lone_key_above(text: &str, lines: &[Line], here: usize) -> Option<Range<usize>> {
    let above = (0..here).rev().find(|&j| lines[j].last.is_some())?;
    let l = &lines[above];
    let (c, last) = l.last?;
    // The line's code ends after its last character, which may take several bytes.
    let end = last + c.len_utf8();
    let code = &text[l.start + l.indent..end];
    let word = code
        .chars()
        .all(|c| c.is_alphanumeric() || c == '_' || c == '-');
    let quoted = code.len() >= 2
        && code.starts_with('"')
        && code.ends_with('"')
        && !code[1..code.len() - 1].contains('"');
    (l.head && (word || quoted)).then(|| l.start + l.indent..end)
}

/// Whether a line reads as an entry of its own (`key = ...`, `name {`), not more of a formula.
fn starts_statement(line: &str) -> bool {
    line.contains(['=', ':', '{'])
}

/// The entry of YAML text that a syntax error at byte `pos` belongs to: its line (or the last
/// one with something on it) and the lines indented under it; and the line of its parent key.
pub(crate) fn yaml_entry(text: &str, pos: usize) -> Option<(Range<usize>, Option<usize>)> {
    let lines: Vec<(usize, &str)> = text
        .split_inclusive('\n')
        .scan(0, |start, raw| {
            let at = *start;
            *start += raw.len();
            Some((at, raw.trim_end_matches(['\n', '\r'])))
        })
        .collect();
    let code = |l: &str| !l.trim().is_empty() && !l.trim_start().starts_with('#');
    let indent = |l: &str| l.len() - l.trim_start_matches(' ').len();
    let here = lines
        .iter()
        .rposition(|(s, _)| *s <= pos)
        .unwrap_or_default();
    let line = (0..=here.min(lines.len().checked_sub(1)?))
        .rev()
        .find(|&i| code(lines[i].1))?;
    let own = indent(lines[line].1);
    let end = lines[line + 1..]
        .iter()
        .find(|(_, l)| code(l) && indent(l) <= own)
        .map_or(text.len(), |(s, _)| *s);
    let parent = (0..line)
        .rev()
        .find(|&i| code(lines[i].1) && indent(lines[i].1) < own)
        .map(|i| i + 1);
    Some((lines[line].0..end, parent))
}

/// `text` with the bytes of `range` blanked: a space for each character, line breaks kept.
pub(crate) fn blank(text: &str, range: Range<usize>) -> String {
    let mut out = String::with_capacity(text.len());
    out.push_str(&text[..range.start]);
    out.extend(text[range.clone()].chars().map(|c| match c {
        '\n' | '\r' => c,
        _ => ' ',
    }));
    out.push_str(&text[range.end..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn blanked(text: &str, needle: &str) -> String {
        let pos = text.find(needle).unwrap();
        let e = rules_entry(text, pos).unwrap();
        blank(text, e.range)
    }

    #[test]
    fn an_entry_is_its_line_and_the_lines_under_it() {
        let text = "a {\n  b = 1 +\n    2 *\n  c = 3\n}\n";
        assert_eq!(
            blanked(text, "2 *"),
            "a {\n         \n       \n  c = 3\n}\n"
        );
        let nested = "ships {\n  \"A\" {\n    x = 1\n  \"B\" { x = 2 }\n}\n";
        assert_eq!(
            blanked(nested, "\"A\""),
            "ships {\n       \n         \n  \"B\" { x = 2 }\n}\n"
        );
    }

    #[test]
    fn a_key_with_no_value_is_the_broken_entry_not_the_next() {
        let text = "a {\n  shields =\n  hull = 3\n}\n";
        let pos = text.find("= 3").unwrap();
        let e = rules_entry(text, pos).unwrap();
        assert_eq!(&text[e.range.clone()], "  shields =\n");
        assert_eq!(e.dangling, text.find("=\n"));
        assert_eq!(e.block, Some(2));
    }

    #[test]
    fn a_formula_left_unfinished_is_the_broken_entry_not_the_closer_after_it() {
        let text = "s {\n  shields = 10 +\n}\n";
        let e = rules_entry(text, text.rfind('}').unwrap()).unwrap();
        assert_eq!(&text[e.range], "  shields = 10 +\n");
        assert_eq!(e.dangling, None);
    }

    #[test]
    fn strings_open_at_the_end_of_their_line_are_found() {
        let text = "a = \"x\\\"\nb = \"ok\" # \"\nc = \"UFP\n";
        assert_eq!(open_strings(text), vec![4, text.rfind('"').unwrap()]);
    }

    #[test]
    fn a_yaml_entry_is_its_line_and_its_children() {
        let text = "a:\n  b: [1\n    c: 2\n  d: 3\n";
        let pos = text.find("c:").unwrap();
        let (range, parent) = yaml_entry(text, pos).unwrap();
        assert_eq!(&text[range], "    c: 2\n");
        assert_eq!(parent, Some(2));
        assert_eq!(blank("é\nb", 0..2), " \nb");
    }
}
