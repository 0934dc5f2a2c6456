//! `r.ship("NAME").shields = 9`: rhai does not allow a method call on the left of `=`, so a
//! one-argument `.ship(…)` is read as the indexer `.ship[…]` (the ruleset's `ship` property is
//! its ships, looked up by name or alias). Only the two brackets change, so every line and
//! column of the script stays where it was for error messages.

/// The script text with each `.ship(ONE_ARGUMENT)` written `.ship[ONE_ARGUMENT]`.
pub(crate) fn ship_calls_as_index(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = chars.clone();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '"' | '\'' | '`' => i = skip_string(&chars, i),
            '/' if chars.get(i + 1) == Some(&'/') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '/' if chars.get(i + 1) == Some(&'*') => {
                i += 2;
                while i + 1 < chars.len() && !(chars[i] == '*' && chars[i + 1] == '/') {
                    i += 1;
                }
                i += 2;
            }
            '.' if is_ship_call(&chars, i) => {
                let open = i + 5;
                if let Some(close) = single_argument_end(&chars, open) {
                    out[open] = '[';
                    out[close] = ']';
                }
                i = open;
            }
            _ => i += 1,
        }
    }
    out.into_iter().collect()
}

/// `.ship(` exactly (not `.ships(` or `.shipyard(`), not preceded by another `.` (a range).
fn is_ship_call(chars: &[char], dot: usize) -> bool {
    let word: String = chars.iter().skip(dot + 1).take(4).collect();
    word == "ship" && chars.get(dot + 5) == Some(&'(') && (dot == 0 || chars[dot - 1] != '.')
}

/// The index of the `)` closing the bracket at `open`, if what is inside is one argument.
fn single_argument_end(chars: &[char], open: usize) -> Option<usize> {
    let mut depth = 0i32;
    let mut i = open;
    let mut empty = true;
    while i < chars.len() {
        match chars[i] {
            '"' | '\'' | '`' => {
                empty = false;
                i = skip_string(chars, i);
                continue;
            }
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => {
                depth -= 1;
                if depth == 0 {
                    return (!empty && chars[i] == ')').then_some(i);
                }
            }
            ',' if depth == 1 => return None,
            c if !c.is_whitespace() && depth >= 1 => empty = false,
            _ => {}
        }
        i += 1;
    }
    None
}

/// The index just past the string literal starting at `start`.
fn skip_string(chars: &[char], start: usize) -> usize {
    let quote = chars[start];
    let mut i = start + 1;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 2,
            c if c == quote => return i + 1,
            '\n' if quote != '`' => return i,
            _ => i += 1,
        }
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ship_call_becomes_an_index_of_the_same_length() {
        let s = "r.ship(\"UFP heavy cruiser\").shields = 9;";
        assert_eq!(
            ship_calls_as_index(s),
            "r.ship[\"UFP heavy cruiser\"].shields = 9;"
        );
        assert_eq!(
            ship_calls_as_index("x.ship(names[i]).value"),
            "x.ship[names[i]].value"
        );
    }

    #[test]
    fn other_text_is_left_alone() {
        for s in [
            "print(\"r.ship(x)\")",
            "// r.ship(x)",
            "r.ships(x)",
            "r.ship(a, b)",
            "r.ship()",
            "ship(r, \"x\")",
            "let s = `a.ship(${x})`;",
        ] {
            assert_eq!(ship_calls_as_index(s), s, "{s}");
        }
    }
}
