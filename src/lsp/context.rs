//! Where the cursor is, read from the text before it (brackets in the rules language,
//! indentation in YAML), never from a parse: a buffer being typed in (`"UFP` with no closing
//! quote, `sh`, `shields =`) rarely parses.

/// What is being written at the cursor.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Context {
    /// The keys of the blocks the cursor is in, outermost first (a list item as `0`).
    pub path: Vec<String>,
    /// The key whose value is being written (`shields =`, an item of `tiebreakers = [`);
    /// `None` while a key is.
    pub value_of: Option<String>,
    /// What is typed of the word so far (a key's opening `"` included).
    pub typed: String,
}

/// A block or list open before the cursor, by the key it is under.
enum Frame {
    Block(String),
    List(String),
}

/// The context of the rules-language text `before` the cursor.
pub(crate) fn rules_context(before: &str) -> Context {
    let mut frames: Vec<Frame> = Vec::new();
    let mut statement = String::new();
    let mut in_string = false;
    let mut in_comment = false;
    // Round brackets open in a formula: its commas and line breaks do not end the statement.
    let mut parens = 0usize;
    for c in before.chars() {
        if in_comment {
            in_comment = c != '\n';
            if c == '\n' {
                end_line(&mut statement);
            }
            continue;
        }
        if in_string {
            match c {
                '"' => in_string = false,
                '\n' => {
                    in_string = false;
                    end_line(&mut statement);
                    continue;
                }
                _ => {}
            }
            statement.push(c);
            continue;
        }
        match c {
            '"' => {
                in_string = true;
                statement.push(c);
            }
            '#' => in_comment = true,
            '{' => {
                frames.push(Frame::Block(key_of(&statement)));
                statement.clear();
            }
            '[' => {
                frames.push(Frame::List(key_of(&statement)));
                statement.clear();
            }
            '}' | ']' => {
                frames.pop();
                statement.clear();
                parens = 0;
            }
            '(' | ')' => {
                parens = match c {
                    '(' => parens + 1,
                    _ => parens.saturating_sub(1),
                };
                statement.push(c);
            }
            ';' | ',' | '\n' if parens > 0 => statement.push(' '),
            ';' | ',' => statement.clear(),
            '\n' => end_line(&mut statement),
            _ => statement.push(c),
        }
    }
    let mut path: Vec<String> = frames
        .iter()
        .map(|f| match f {
            Frame::Block(k) | Frame::List(k) => k.clone(),
        })
        .collect();
    let typed_word = |s: &str| {
        let start = s
            .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '"' || c == '-'))
            .map_or(0, |i| i + s[i..].chars().next().map_or(1, char::len_utf8));
        s[start..].to_string()
    };
    if let Some(Frame::List(_)) = frames.last() {
        let key = path.pop();
        return Context {
            path,
            value_of: key,
            typed: typed_word(&statement),
        };
    }
    let trimmed = statement.trim_start();
    if frames.is_empty() {
        if let Some(rest) = trimmed.strip_prefix("extends ") {
            return Context {
                path,
                value_of: Some("extends".into()),
                typed: rest.trim_start().to_string(),
            };
        }
    }
    match split_assignment(trimmed) {
        Some((key, value)) => Context {
            path,
            value_of: Some(key_of(key)),
            typed: typed_word(value),
        },
        None => Context {
            path,
            value_of: None,
            typed: trimmed.trim_start_matches("new ").to_string(),
        },
    }
}

/// A statement is over at the end of its line (a value is written on its key's line).
fn end_line(statement: &mut String) {
    statement.clear();
}

/// `key = value` split at its first `=` or `:` outside quotes.
fn split_assignment(statement: &str) -> Option<(&str, &str)> {
    let mut quoted = false;
    for (i, c) in statement.char_indices() {
        match c {
            '"' => quoted = !quoted,
            '=' | ':' if !quoted => return Some((&statement[..i], &statement[i + 1..])),
            _ => {}
        }
    }
    None
}

/// The key a statement starts with: `new` and quotes taken away, an `=` before a block too.
fn key_of(statement: &str) -> String {
    let s = statement.trim();
    let s = s.strip_suffix(['=', ':']).unwrap_or(s).trim();
    let s = s.strip_prefix("new ").unwrap_or(s).trim();
    s.trim_matches('"').to_string()
}

/// The context of the YAML text `before` the cursor.
pub(crate) fn yaml_context(before: &str) -> Context {
    let mut lines: Vec<&str> = before.split('\n').collect();
    let current = lines.pop().unwrap_or_default();
    let indent = |l: &str| l.len() - l.trim_start_matches(' ').len();
    let mut want = indent(current);
    let content = current.trim_start();
    let (item, content) = match content.strip_prefix('-') {
        Some(rest) if rest.is_empty() || rest.starts_with(' ') => (true, rest.trim_start()),
        _ => (false, content),
    };
    let mut path = Vec::new();
    for line in lines.iter().rev() {
        let code = line.split(" #").next().unwrap_or_default();
        if code.trim().is_empty() || code.trim_start().starts_with('#') {
            continue;
        }
        let at = indent(code);
        if at >= want {
            continue;
        }
        want = at;
        let body = code.trim_start();
        let (dash, body) = match body.strip_prefix("- ") {
            Some(rest) => (true, rest),
            None => (false, body),
        };
        if let Some((key, _)) = split_assignment(body) {
            path.push(key_of(key));
        }
        if dash {
            path.push("0".to_string());
        }
        if at == 0 {
            break;
        }
    }
    path.reverse();
    // A list item's parent list is still `key:` above: the item is its value.
    if item {
        if let Some(key) = path.pop() {
            let typed = content.to_string();
            return Context {
                path,
                value_of: Some(key),
                typed,
            };
        }
    }
    match split_assignment(content) {
        Some((key, value)) => Context {
            path,
            value_of: Some(key_of(key)),
            typed: value.trim_start().to_string(),
        },
        None => Context {
            path,
            value_of: None,
            typed: content.to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ctx(path: &[&str], value_of: Option<&str>, typed: &str) -> Context {
        Context {
            path: path.iter().map(|s| s.to_string()).collect(),
            value_of: value_of.map(str::to_string),
            typed: typed.to_string(),
        }
    }

    #[test]
    fn half_typed_rules_text_gives_its_block_and_word() {
        let head = "extends startrek\nships {\n  \"UFP heavy cruiser\" {\n    ";
        assert_eq!(
            rules_context(&format!("{head}sh")),
            ctx(&["ships", "UFP heavy cruiser"], None, "sh")
        );
        assert_eq!(
            rules_context(&format!("{head}size = ")),
            ctx(&["ships", "UFP heavy cruiser"], Some("size"), "")
        );
        assert_eq!(
            rules_context("extends startrek\nships {\n  \"UFP"),
            ctx(&["ships"], None, "\"UFP")
        );
        assert_eq!(
            rules_context("swiss {\n  tiebreakers = [buchholz, son"),
            ctx(&["swiss"], Some("tiebreakers"), "son")
        );
        assert_eq!(rules_context("extends bl"), ctx(&[], Some("extends"), "bl"));
        // Inside a formula's brackets a comma or a line break does not end the value.
        assert_eq!(
            rules_context("scoring {\n  cep {\n    points = max(1,\n      tur"),
            ctx(&["scoring", "cep"], Some("points"), "tur")
        );
        assert_eq!(
            rules_context("a { b = \"}\" # {\n}\ncombat {\n  crew {\n    gu"),
            ctx(&["combat", "crew"], None, "gu")
        );
    }

    #[test]
    fn half_typed_yaml_gives_its_block_and_word() {
        assert_eq!(
            yaml_context("extends: startrek\nships:\n  UFP heavy cruiser:\n    si"),
            ctx(&["ships", "UFP heavy cruiser"], None, "si")
        );
        assert_eq!(
            yaml_context("ships:\n  A:\n    size: me"),
            ctx(&["ships", "A"], Some("size"), "me")
        );
        assert_eq!(
            yaml_context("swiss:\n  tiebreakers:\n    - bu"),
            ctx(&["swiss"], Some("tiebreakers"), "bu")
        );
    }
}
