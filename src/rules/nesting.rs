//! A cheap pre-check of nesting depth and size, so that no input can overflow the parsers'
//! stacks or fill memory with pest's tokens (some 300 bytes for each name, number or symbol).
//!
//! pest recurses once per bracket and once per `if` (an `if` inside `then` or `else` needs no
//! bracket), so both count as a level. A formula's `if`s are done once its value ends: at a
//! separator (`=`, `:`, `;`, `,`) or at the bracket that closes around it.

/// Deepest bracket nesting accepted.
pub const MAX_NESTING: usize = 100;
/// Most names, numbers, strings and symbols in one text: real rulesets have a few thousand.
pub const MAX_TOKENS: usize = 1_000_000;

/// The byte position and message of the first place nested too deep, or past `MAX_TOKENS`.
pub fn precheck(text: &str) -> Option<(usize, String)> {
    // `level` counts open brackets and open `if`s; `openers` the level outside each bracket.
    let mut level = 0usize;
    let mut openers: Vec<usize> = Vec::new();
    let mut in_string = false;
    let mut in_comment = false;
    let mut escaped = false;
    let mut previous = ' ';
    let mut tokens = 0usize;
    let mut chars = text.char_indices().peekable();
    while let Some((pos, c)) = chars.next() {
        let next = chars.peek().map(|(_, n)| *n).unwrap_or(' ');
        let before = std::mem::replace(&mut previous, c);
        if c == '\n' {
            in_comment = false;
            continue;
        }
        if in_comment {
            continue;
        }
        if in_string {
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
            continue;
        }
        if !c.is_whitespace() && c != '#' && !(is_word(c) && is_word(before)) {
            tokens += 1;
            if tokens > MAX_TOKENS {
                return Some((
                    pos,
                    format!(
                        "more than {MAX_TOKENS} names, numbers and symbols (real rulesets have a \
                         few thousand)"
                    ),
                ));
            }
        }
        match c {
            '"' => in_string = true,
            '#' => in_comment = true,
            '(' | '[' | '{' => {
                openers.push(level);
                level += 1;
                if level > MAX_NESTING {
                    return Some((pos, format!("nested more than {MAX_NESTING} brackets deep")));
                }
            }
            ')' | ']' | '}' => level = openers.pop().unwrap_or(0),
            ';' | ',' | ':' => level = openers.last().map_or(0, |l| l + 1),
            '=' if !matches!(before, '=' | '<' | '>' | '!') && next != '=' => {
                level = openers.last().map_or(0, |l| l + 1)
            }
            'i' if next == 'f' && !is_word(before) => {
                let after = text[pos + 2..].chars().next().unwrap_or(' ');
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
    }
    None
}

/// A character that can be part of a name (so `gift` holds no `if`).
fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
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
