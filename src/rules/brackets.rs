//! Which bracket of a `.rules` file is never closed. A parser that meets the end of the file
//! inside a block can only say what it expected there; a person wants to see the `{` they
//! forgot to close, so a syntax error is explained by the first unbalanced bracket.

/// An opening bracket with no partner, or a closer that does not match the last opener.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Unbalanced {
    /// Where to point: 1-based line and column (in characters).
    pub line: usize,
    pub col: usize,
    pub message: String,
    /// Only left open at the end of the file (no closer of the wrong kind, no stray closer,
    /// no open string): then an error found before the end may be the first one.
    pub only_left_open: bool,
}

#[derive(Debug, Clone, Copy)]
struct Bracket {
    ch: char,
    line: usize,
    col: usize,
    /// The indentation of its line, to tell which block a later closer lines up with.
    indent: usize,
    /// The closer is the first thing on its line (so its indentation means something).
    starts_line: bool,
}

fn closer_of(open: char) -> char {
    match open {
        '{' => '}',
        '[' => ']',
        _ => ')',
    }
}

/// What a bracket (either half) opens or closes.
fn what(bracket: char) -> &'static str {
    match bracket {
        '{' | '}' => "block",
        '[' | ']' => "list",
        _ => "parenthesis",
    }
}

/// The first unbalanced bracket of `text`, outside strings and comments; `None` if they all pair.
pub(crate) fn unbalanced(text: &str) -> Option<Unbalanced> {
    let mut open: Vec<Bracket> = Vec::new();
    // Blocks whose `}` starts its line at another indentation than the `{`'s line: the first
    // such (opener, closer) for each indentation of a closer (a few, whatever the file's size).
    let mut misaligned: std::collections::BTreeMap<usize, (Bracket, Bracket)> = Default::default();
    // A string may run over lines; where the one still open began.
    let mut string_start: Option<(usize, usize)> = None;
    let mut escaped = false;
    for (index, line) in text.split('\n').enumerate() {
        let number = index + 1;
        let indent = line.len() - line.trim_start_matches([' ', '\t']).len();
        for (col, (byte, ch)) in line.char_indices().enumerate() {
            if string_start.is_some() {
                match ch {
                    _ if escaped => escaped = false,
                    '\\' => escaped = true,
                    '"' => string_start = None,
                    _ => {}
                }
                continue;
            }
            let here = Bracket {
                ch,
                line: number,
                col: col + 1,
                indent,
                starts_line: byte == indent,
            };
            match ch {
                '#' => break,
                '"' => string_start = Some((number, col + 1)),
                '{' | '[' | '(' => open.push(here),
                '}' | ']' | ')' => match open.pop() {
                    Some(o) if closer_of(o.ch) == ch => {
                        if o.ch == '{' && here.starts_line && here.indent != o.indent {
                            misaligned.entry(here.indent).or_insert((o, here));
                        }
                    }
                    Some(o) => {
                        return Some(Unbalanced {
                            line: o.line,
                            col: o.col,
                            message: format!(
                            "this `{}` is never closed: the `{ch}` at {}:{} comes before its `{}`",
                            o.ch,
                            here.line,
                            here.col,
                            closer_of(o.ch)
                        ),
                            only_left_open: false,
                        })
                    }
                    None => {
                        return Some(Unbalanced {
                            line: here.line,
                            col: here.col,
                            message: format!(
                                "this `{ch}` closes nothing: no {} is open here",
                                what(ch)
                            ),
                            only_left_open: false,
                        })
                    }
                },
                _ => {}
            }
        }
    }
    if let Some((line, col)) = string_start {
        return Some(Unbalanced {
            line,
            col,
            message: "this string is never closed: the file ends before its `\"`".to_string(),
            only_left_open: false,
        });
    }
    let last = open.last().copied()?;
    // A `}` that lines up with a block left open closed the wrong one: the block it did close
    // is the one missing its `}`.
    let forgot = misaligned
        .values()
        .filter(|(_, c)| open.iter().any(|b| b.indent == c.indent))
        .min_by_key(|(_, c)| (c.line, c.col))
        .map_or(last, |(o, _)| *o);
    Some(Unbalanced {
        line: forgot.line,
        col: forgot.col,
        message: format!(
            "this `{}` is never closed: the file ends before its `{}`",
            forgot.ch,
            closer_of(forgot.ch)
        ),
        only_left_open: true,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> Option<(usize, usize)> {
        unbalanced(text).map(|u| (u.line, u.col))
    }

    #[test]
    fn balanced_text_has_nothing_to_say() {
        assert_eq!(at("a { b = [1, (2)] }\n# { not code\nc = \"}{\"\n"), None);
        assert_eq!(at("s = \"a \\\" { \"\n"), None);
        // A string may run over lines, brackets and `#` in it included.
        assert_eq!(at("s = \"a {\n # [\" t = 1\n"), None);
    }

    #[test]
    fn an_open_string_is_shown_where_it_starts() {
        let u = unbalanced("a { b = 1 }\nname = \"x\n").unwrap();
        assert_eq!((u.line, u.col), (2, 8));
        assert!(u.message.starts_with("this string is never closed"));
    }

    #[test]
    fn the_block_missing_its_brace_is_the_one_shown() {
        // The `}` on line 5 lines up with `ships {`, so the ship's block is the one left open.
        let text = "ships {\n  \"UFP heavy cruiser\" {\n    shields = 12\n\n}\n";
        assert_eq!(at(text), Some((2, 23)));
        // Nothing closes anything: the innermost opener.
        assert_eq!(at("ships {\n  a {\n    b = 1\n"), Some((2, 5)));
        // An odd but closed block earlier does not mislead it.
        assert_eq!(at("a {\n  b = 1\n  }\nc {\n  d {\n}\n"), Some((5, 5)));
        let u = unbalanced("ships {\n").unwrap();
        assert_eq!(
            u.message,
            "this `{` is never closed: the file ends before its `}`"
        );
    }

    #[test]
    fn a_closer_of_the_wrong_kind_points_at_the_opener() {
        let u = unbalanced("a {\n  l = [1, 2\n}\n").unwrap();
        assert_eq!((u.line, u.col), (2, 7));
        assert!(
            u.message.contains("the `}` at 3:1 comes before its `]`"),
            "{}",
            u.message
        );
    }

    #[test]
    fn a_stray_closer_is_shown_itself() {
        let u = unbalanced("a = 1\n}\n").unwrap();
        assert_eq!((u.line, u.col), (2, 1));
        assert_eq!(u.message, "this `}` closes nothing: no block is open here");
    }
}
