//! Where things are in a document's text, as the protocol counts (0-based lines, UTF-16
//! columns): the extent of the key or value a parse placed at a line and column, and the end
//! of a block. Found from the text, so a place from any parse (or a recovered one) maps to
//! what the editor shows.
use lsp_types::{Position, Range};

/// A document's lines (without their `\n` or `\r\n`), looked up by 0-based number.
pub(crate) struct Lines<'a> {
    lines: Vec<&'a str>,
}

impl<'a> Lines<'a> {
    pub(crate) fn new(text: &'a str) -> Lines<'a> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        Lines {
            lines: text
                .split('\n')
                .map(|l| l.strip_suffix('\r').unwrap_or(l))
                .collect(),
        }
    }

    pub(crate) fn get(&self, line: usize) -> &'a str {
        self.lines.get(line).copied().unwrap_or("")
    }

    pub(crate) fn count(&self) -> usize {
        self.lines.len()
    }

    /// The protocol's position of character `chars` (0-based) of line `line` (0-based).
    pub(crate) fn position(&self, line: usize, chars: usize) -> Position {
        let units: usize = self
            .get(line)
            .chars()
            .take(chars)
            .map(char::len_utf16)
            .sum();
        Position::new(line as u32, units as u32)
    }

    /// The character (0-based) at a protocol position's UTF-16 column.
    pub(crate) fn char_of(&self, at: Position) -> usize {
        let mut used = 0usize;
        let mut chars = 0usize;
        for c in self.get(at.line as usize).chars() {
            if used >= at.character as usize {
                break;
            }
            used += c.len_utf16();
            chars += 1;
        }
        chars
    }

    /// The end of the document.
    pub(crate) fn end(&self) -> Position {
        let last = self.count().saturating_sub(1);
        self.position(last, self.get(last).chars().count())
    }

    /// The key or value that starts at 1-based `line` and `col` (characters), as a range:
    /// a quoted string to its closing quote, `new NAME` whole, a bare word or value to where
    /// the syntax around it ends it (`=`, `:`, a bracket, a comma, a comment, the line's end).
    pub(crate) fn token(&self, line: usize, col: usize) -> Range {
        let line0 = line.saturating_sub(1);
        let start = col.saturating_sub(1);
        let chars: Vec<char> = self.get(line0).chars().collect();
        let end = token_end(&chars, start.min(chars.len()));
        Range::new(self.position(line0, start), self.position(line0, end))
    }

    /// The token's text (quotes kept), as `token` finds it.
    pub(crate) fn token_text(&self, range: Range) -> String {
        let line = self.get(range.start.line as usize);
        let from = self.char_of(range.start);
        let to = self.char_of(range.end);
        line.chars()
            .skip(from)
            .take(to.saturating_sub(from))
            .collect()
    }

    /// Where the block or list opening at 1-based `line` and `col` closes (just past its
    /// bracket), strings and comments skipped; `None` if no bracket opens there or it never
    /// closes.
    pub(crate) fn closing(&self, line: usize, col: usize) -> Option<Position> {
        let mut depth = 0usize;
        let mut quote: Option<char> = None;
        for l in line.saturating_sub(1)..self.count() {
            let chars: Vec<char> = self.get(l).chars().collect();
            let from = if l + 1 == line {
                col.saturating_sub(1)
            } else {
                0
            };
            if l + 1 == line && !matches!(chars.get(from), Some('{' | '[')) {
                return None;
            }
            let mut i = from;
            while i < chars.len() {
                let c = chars[i];
                match quote {
                    Some(q) if c == '\\' && q == '"' => i += 1,
                    Some(q) if c == q => quote = None,
                    Some(_) => {}
                    None => match c {
                        '"' | '\'' => quote = Some(c),
                        '#' => break,
                        '{' | '[' => depth += 1,
                        '}' | ']' => {
                            depth = depth.saturating_sub(1);
                            if depth == 0 {
                                return Some(self.position(l, i + 1));
                            }
                        }
                        _ => {}
                    },
                }
                i += 1;
            }
            // A string ends on its line.
            quote = None;
        }
        None
    }
}

/// The end (exclusive) of the token starting at `start` of a line's characters.
fn token_end(chars: &[char], start: usize) -> usize {
    match chars.get(start) {
        Some(&q @ ('"' | '\'')) => {
            let mut i = start + 1;
            while i < chars.len() {
                match chars[i] {
                    '\\' if q == '"' => i += 1,
                    c if c == q => return i + 1,
                    _ => {}
                }
                i += 1;
            }
            chars.len()
        }
        Some('{' | '[') => start + 1,
        _ => {
            let word: String = chars[start..].iter().take(4).collect();
            if word == "new " {
                let next = start + 4;
                let next = next + chars[next..].iter().take_while(|c| **c == ' ').count();
                return token_end(chars, next);
            }
            let mut end = start;
            while end < chars.len() {
                let c = chars[end];
                let after = chars.get(end + 1).copied();
                let stops = match c {
                    '=' | ',' | '[' | ']' | '{' | '}' => true,
                    ':' => after.is_none_or(|a| a == ' '),
                    '#' => end > start && chars[end - 1] == ' ',
                    _ => false,
                };
                if stops {
                    break;
                }
                end += 1;
            }
            while end > start && chars[end - 1] == ' ' {
                end -= 1;
            }
            end
        }
    }
}

/// A token's text without its quotes (a quoted string's escapes read as JSON's).
pub(crate) fn unquoted(token: &str) -> String {
    let token = token.strip_prefix("new ").unwrap_or(token).trim();
    if token.len() >= 2 && token.starts_with('"') && token.ends_with('"') {
        return serde_json::from_str(token).unwrap_or_else(|_| token[1..token.len() - 1].into());
    }
    if token.len() >= 2 && token.starts_with('\'') && token.ends_with('\'') {
        return token[1..token.len() - 1].replace("''", "'");
    }
    token.to_string()
}

/// Whether `at` is inside `range` (its end included: a cursor just after a word is on it).
pub(crate) fn contains(range: Range, at: Position) -> bool {
    range.start <= at && at <= range.end
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text_of(lines: &Lines, line: usize, col: usize) -> String {
        lines.token_text(lines.token(line, col))
    }

    #[test]
    fn tokens_end_where_their_syntax_does() {
        let l = Lines::new(
            "ships {\n  new \"UFP é\" { shields = 10 }\n  x = 3D6/3D3 # c\n}\nUFP heavy cruiser: {a: 1}\n",
        );
        assert_eq!(text_of(&l, 2, 3), "new \"UFP é\"");
        assert_eq!(text_of(&l, 2, 17), "shields");
        assert_eq!(text_of(&l, 2, 27), "10");
        assert_eq!(text_of(&l, 3, 7), "3D6/3D3");
        assert_eq!(text_of(&l, 5, 1), "UFP heavy cruiser");
        assert_eq!(l.closing(1, 7), Some(Position::new(3, 1)));
        assert_eq!(l.closing(2, 15), Some(Position::new(1, 30)));
        assert_eq!(unquoted("new \"UFP é\""), "UFP é");
        // UTF-16 columns: `é` is one unit, an emoji two.
        let l = Lines::new("\"\u{1F680}\" = 1\n");
        assert_eq!(l.token(1, 1).end, Position::new(0, 4));
        assert_eq!(l.char_of(Position::new(0, 4)), 3);
    }
}
