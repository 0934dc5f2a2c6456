//! A cheap pre-check of nesting depth and size, so that no input can overflow the parsers'
//! stacks or fill memory with pest's tokens (some 300 bytes for each name, number or symbol).
//!
//! pest recurses once per bracket and once per `if` (an `if` inside `then` or `else` needs no
//! bracket), so both count as a level. A formula's `if`s are done once its value ends: at a
//! separator (`=`, `:`, `;`, `,`) or at the bracket that closes around it.

/// Deepest bracket nesting accepted.
pub(crate) const MAX_NESTING: usize = 100;
/// Most names, numbers, strings and symbols in one text: real rulesets have a few thousand.
pub(crate) const MAX_TOKENS: usize = 1_000_000;

/// The byte position and message of the first place nested too deep, or past `MAX_TOKENS`.
///
/// It reads bytes, not characters: everything it looks for is ASCII, and a byte of a longer
/// character (a letter such as `ó`, or a symbol such as `×`) counts as part of a word. That
/// keeps it a few instructions a byte, as it runs over every ruleset loaded.
pub(crate) fn precheck(text: &str) -> Option<(usize, String)> {
    // `level` counts open brackets and open `if`s; `openers` the level outside each bracket.
    let bytes = text.as_bytes();
    let mut level = 0usize;
    let mut openers: Vec<usize> = Vec::new();
    let mut in_string = false;
    let mut in_comment = false;
    let mut escaped = false;
    let mut tokens = 0usize;
    let mut pos = 0;
    while pos < bytes.len() {
        let c = bytes[pos];
        if in_comment {
            // The rest of the line: straight to its end.
            pos = bytes[pos..]
                .iter()
                .position(|b| *b == b'\n')
                .map_or(bytes.len(), |n| pos + n);
            in_comment = false;
            continue;
        }
        if in_string {
            if escaped {
                escaped = false;
            } else if c == b'\\' {
                escaped = true;
            } else if c == b'"' {
                in_string = false;
            }
            pos += 1;
            continue;
        }
        let before = if pos == 0 { b' ' } else { bytes[pos - 1] };
        let next = bytes.get(pos + 1).copied().unwrap_or(b' ');
        if !c.is_ascii_whitespace() && c != b'#' && !(is_word(c) && is_word(before)) {
            tokens += 1;
            if tokens > MAX_TOKENS {
                return Some((
                    pos,
                    format!(
                        "more than {MAX_TOKENS} names, numbers and symbols (real rulesets have a few thousand)"
                    ),
                ));
            }
        }
        match c {
            b'"' => in_string = true,
            b'#' => in_comment = true,
            b'(' | b'[' | b'{' => {
                openers.push(level);
                level += 1;
                if level > MAX_NESTING {
                    return Some((pos, format!("nested more than {MAX_NESTING} brackets deep")));
                }
            }
            b')' | b']' | b'}' => level = openers.pop().unwrap_or(0),
            b';' | b',' | b':' => level = openers.last().map_or(0, |l| l + 1),
            b'=' if !matches!(before, b'=' | b'<' | b'>' | b'!') && next != b'=' => {
                level = openers.last().map_or(0, |l| l + 1)
            }
            b'i' if next == b'f' && !is_word(before) => {
                let after = bytes.get(pos + 2).copied().unwrap_or(b' ');
                // `(if` is one level, not two: the canonical text brackets an `if` that is an
                // operand (`1 + if ...` prints `1 + (if ...)`), and must read back.
                let bracketed = text[..pos].trim_end().ends_with('(')
                    && level == openers.last().map_or(0, |l| l + 1);
                if !is_word(after) && !bracketed {
                    level += 1;
                    if level > MAX_NESTING {
                        return Some((
                            pos,
                            format!("nested more than {MAX_NESTING} deep (`if`s and brackets)"),
                        ));
                    }
                }
            }
            _ => {}
        }
        pos += 1;
    }
    None
}

/// A byte that can be part of a name (so `gift` holds no `if`); any byte of a character
/// beyond ASCII counts, so `ifó` is a name too.
fn is_word(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_' || c >= 0x80
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brackets_past_the_limit_are_found_where_they_open() {
        let text = format!("a = {}1{}", "(".repeat(101), ")".repeat(101));
        assert_eq!(
            precheck(&text),
            Some((104, "nested more than 100 brackets deep".to_string()))
        );
        let fine = format!("a = {}1{}", "(".repeat(100), ")".repeat(100));
        assert_eq!(precheck(&fine), None);
        assert_eq!(precheck("a = \"((((\" # ((((("), None);
    }

    #[test]
    fn nested_ifs_count_as_levels() {
        let deep = format!("x = {}1", "if 1 then 1 else ".repeat(101));
        let (pos, message) = precheck(&deep).unwrap();
        assert_eq!(message, "nested more than 100 deep (`if`s and brackets)");
        assert_eq!(pos, 4 + 100 * "if 1 then 1 else ".len());
        let equal = format!("x = {}1", "if a == 1 then 1 else ".repeat(101));
        assert!(precheck(&equal).is_some(), "`==` is no separator");
        // Many formulas with one `if` each, and many arguments with one each, are fine.
        let many: String = (0..500)
            .map(|i| format!("k{i} = if a then 1 else 2\n"))
            .collect();
        assert_eq!(precheck(&format!("s {{\n{many}}}")), None);
        let args = format!("max({})", vec!["if a then 1 else 2"; 500].join(", "));
        assert_eq!(precheck(&args), None);
        assert_eq!(precheck(&"gift + iffy + if_ + ".repeat(200)), None);
        // A bracket around an `if` is one level with it.
        assert_eq!(
            precheck(&format!("{}1", "1 + (if 1 then 1 else ".repeat(100))),
            None
        );
        assert!(precheck(&format!("{}1", "1 + (if 1 then 1 else ".repeat(101))).is_some());
    }

    #[test]
    fn texts_of_more_than_a_million_tokens_are_refused() {
        // a = [ 1, 1, ... 1 ]: 999,999 tokens, and one more name is the millionth.
        let text = format!("a = [{}1]", "1, ".repeat(499_997));
        assert_eq!(precheck(&format!("{text} b")), None);
        let (pos, message) = precheck(&format!("{text} b = \"x\"")).unwrap();
        assert_eq!(
            (pos, message.as_str()),
            (
                text.len() + 3,
                "more than 1000000 names, numbers and symbols (real rulesets have a few thousand)"
            )
        );
        // Names, numbers and strings are one token each, comments and spaces none.
        assert_eq!(
            precheck(&format!(
                "{} # {}",
                "abc_12 \"x y z\" ".repeat(500_000),
                "x ".repeat(10)
            )),
            None
        );
    }
}
