//! REPL input help: when an entry is complete, and what a word may complete to.
use super::api::fields::struct_fields;

/// Whether `text` is unfinished: an open bracket, backtick string or block comment. An entry
/// with too many closing brackets is "complete" (the parser reports it).
pub fn incomplete(text: &str) -> bool {
    let mut depth: i64 = 0;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth -= 1,
            '"' | '\'' => {
                // Ends at the matching quote or the end of the line (rhai strings are one line,
                // unless a backslash continues them).
                while let Some(d) = chars.next() {
                    match d {
                        '\\' if chars.next().is_none() => return true,
                        '\\' => {}
                        '\n' => break,
                        _ if d == c => break,
                        _ => {}
                    }
                }
            }
            '`' => {
                let mut closed = false;
                for d in chars.by_ref() {
                    if d == '`' {
                        closed = true;
                        break;
                    }
                }
                if !closed {
                    return true;
                }
            }
            '/' if chars.peek() == Some(&'/') => {
                for d in chars.by_ref() {
                    if d == '\n' {
                        break;
                    }
                }
            }
            '/' if chars.peek() == Some(&'*') => {
                chars.next();
                let mut prev = ' ';
                let mut closed = false;
                for d in chars.by_ref() {
                    if prev == '*' && d == '/' {
                        closed = true;
                        break;
                    }
                    prev = d;
                }
                if !closed {
                    return true;
                }
            }
            _ => {}
        }
    }
    depth > 0
}

/// What the word before `pos` may complete to: (start of the word, candidates).
///
/// Inside a string, ship names; after a `.`, methods and ship fields; elsewhere API functions,
/// the session's variables and functions, and at the start of a line the `:` commands.
pub fn candidates(
    line: &str,
    pos: usize,
    api: &[&str],
    defined: &[String],
    ships: &[String],
) -> (usize, Vec<String>) {
    let before = &line[..pos];
    if let Some(open) = open_string_start(before) {
        let typed = &before[open..];
        let found = ships
            .iter()
            .filter(|s| starts_with_loosely(s, typed))
            .cloned()
            .collect();
        return (open, found);
    }
    let start = before
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
        .map(|i| i + 1)
        .unwrap_or(0);
    let word = &before[start..];
    if word.starts_with(':') {
        let found = super::repl::COMMANDS
            .iter()
            .map(|(c, _)| c.to_string())
            .filter(|c| c.starts_with(word))
            .collect();
        return (start, found);
    }
    let after_dot = before[..start].ends_with('.');
    let mut found: Vec<String> = Vec::new();
    let mut add = |name: &str| {
        if name.starts_with(word) && !found.iter().any(|f| f == name) {
            found.push(name.to_string());
        }
    };
    if after_dot {
        struct_fields::<crate::rules::Ship>()
            .iter()
            .for_each(|f| add(f));
    }
    api.iter().for_each(|f| add(f));
    if !after_dot {
        defined.iter().for_each(|d| add(d));
    }
    found.sort();
    (start, found)
}

/// Where the text of a string left open before the cursor starts.
fn open_string_start(before: &str) -> Option<usize> {
    let mut open: Option<(char, usize)> = None;
    let mut escaped = false;
    for (i, c) in before.char_indices() {
        match open {
            Some(_) if escaped => escaped = false,
            Some(_) if c == '\\' => escaped = true,
            Some((q, _)) if c == q => open = None,
            Some(_) => {}
            None if c == '"' || c == '`' => open = Some((c, i + 1)),
            None => {}
        }
    }
    open.map(|(_, i)| i)
}

fn starts_with_loosely(name: &str, typed: &str) -> bool {
    crate::names::normalize(name).starts_with(&crate::names::normalize(typed)) || typed.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn open_brackets_and_strings_continue_the_entry() {
        assert!(incomplete("fn f(x) {"));
        assert!(incomplete("let a = [1,\n 2"));
        assert!(incomplete("let s = `multi\nline"));
        assert!(incomplete("/* note"));
        assert!(!incomplete("let a = [1, 2];"));
        assert!(!incomplete("print(\"{ not a bracket\");"));
        assert!(!incomplete("let c = '{'; // {"));
        assert!(!incomplete("}"));
    }

    #[test]
    fn words_complete_to_api_functions_and_names() {
        let api = ["dice", "rules", "rng"];
        let (start, found) = candidates("let d = di", 10, &api, &[], &[]);
        assert_eq!((start, found), (8, vec!["dice".to_string()]));
        let (_, found) = candidates("r", 1, &api, &["r2".to_string()], &[]);
        assert_eq!(found, vec!["r2", "rng", "rules"]);
        let (_, found) = candidates(":he", 3, &api, &[], &[]);
        assert_eq!(found, vec![":help"]);
    }

    #[test]
    fn inside_a_string_ship_names_complete_loosely() {
        let ships = vec![
            "UFP heavy cruiser".to_string(),
            "Klingon battle cruiser".to_string(),
        ];
        let line = "r.ship(\"ufp";
        let (start, found) = candidates(line, line.len(), &[], &[], &ships);
        assert_eq!((start, found), (8, vec!["UFP heavy cruiser".to_string()]));
    }

    #[test]
    fn after_a_dot_ship_fields_complete() {
        let line = "s.shi";
        let (start, found) = candidates(line, line.len(), &["ship"], &[], &[]);
        assert_eq!(start, 2);
        assert_eq!(found, vec!["shields", "ship"]);
    }
}
