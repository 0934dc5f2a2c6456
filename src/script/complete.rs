//! REPL input help: when an entry is complete, and what a word may complete to.
use super::api::fields::struct_fields;

/// Whether `text` is unfinished: an open bracket, backtick string or block comment, or a
/// statement the parser finds cut off (`let x =`, `1 +`). An entry with too many closing
/// brackets is "complete" (the parser reports it).
pub(crate) fn incomplete(text: &str) -> bool {
    match bracket_depth(text) {
        None => true,
        Some(depth) if depth > 0 => true,
        Some(depth) if depth < 0 => false,
        Some(_) => cut_off(text),
    }
}

/// Whether rhai's parser reaches the end of `text` still expecting more.
fn cut_off(text: &str) -> bool {
    let mut engine = rhai::Engine::new_raw();
    // Completion of a line a person typed: a small, fixed bound on the parser's work.
    engine.set_max_expr_depths(64, 64);
    match engine.compile(text) {
        Ok(_) => false,
        Err(e) => matches!(e.err_type(), rhai::ParseErrorType::UnexpectedEOF),
    }
}

/// The depth of brackets left open at the end, or None if a string or comment is left open.
fn bracket_depth(text: &str) -> Option<i64> {
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
                        '\\' if chars.next().is_none() => return None,
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
                    return None;
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
                    return None;
                }
            }
            _ => {}
        }
    }
    Some(depth)
}

/// What completion can offer: the API, the session's names, ships of the rulesets the
/// session holds, and the built-in rulesets.
#[derive(Default)]
pub(crate) struct Known<'a> {
    pub api: &'a [&'a str],
    pub defined: &'a [String],
    pub ships: &'a [String],
    pub rulesets: &'a [&'a str],
}

/// What the word before `pos` may complete to: (start of the word, candidates).
///
/// Inside the string of `rules("...")` or after `:rules `, built-in rulesets and ruleset files;
/// inside another string, ship names; after a `.`, methods and ship fields; elsewhere API
/// functions, the session's variables and functions, and at the start of a line the `:`
/// commands.
pub(crate) fn candidates(line: &str, pos: usize, known: &Known) -> (usize, Vec<String>) {
    let before = &line[..pos];
    if let Some(arg) = rules_command_argument(before) {
        return (arg, rulesets(&before[arg..], known.rulesets));
    }
    if let Some(open) = open_string_start(before) {
        let typed = &before[open..];
        if before[..open - 1].trim_end().ends_with("rules(") {
            return (open, rulesets(typed, known.rulesets));
        }
        let found = known
            .ships
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
        struct_fields::<crate::rules::ship::Ship>()
            .iter()
            .for_each(|f| add(f));
    }
    known.api.iter().for_each(|f| add(f));
    if !after_dot {
        known.defined.iter().for_each(|d| add(d));
    }
    found.sort();
    (start, found)
}

/// Where the argument of a `:rules ` (or `:rules! `) command starts, if `before` is one.
fn rules_command_argument(before: &str) -> Option<usize> {
    let trimmed = before.trim_start();
    let indent = before.len() - trimmed.len();
    [":rules! ", ":rules "]
        .iter()
        .find(|c| trimmed.starts_with(*c))
        .map(|c| {
            let rest = &trimmed[c.len()..];
            indent + c.len() + (rest.len() - rest.trim_start().len())
        })
}

/// Built-in rulesets, and the folders and ruleset files a typed path leads to.
fn rulesets(typed: &str, built_in: &[&str]) -> Vec<String> {
    let mut found: Vec<String> = built_in
        .iter()
        .filter(|b| b.starts_with(typed))
        .map(|b| b.to_string())
        .collect();
    let (dir, name) = match typed.rfind('/') {
        Some(i) => (&typed[..=i], &typed[i + 1..]),
        None => ("", typed),
    };
    let folder = if dir.is_empty() { "." } else { dir };
    let kinds = [
        crate::io::FileKind::Rules,
        crate::io::FileKind::Yaml,
        crate::io::FileKind::Json,
    ];
    for entry in
        crate::io::entries_of_kinds(std::path::Path::new(folder), &kinds, name.starts_with('.'))
    {
        if entry.starts_with(name) {
            found.push(format!("{dir}{entry}"));
        }
    }
    found
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
    fn a_statement_cut_off_continues_on_the_next_line() {
        assert!(incomplete("let x ="));
        assert!(incomplete("let total = 1 +"));
        assert!(!incomplete("let x = 5"));
        assert!(!incomplete("let = 5"), "a mistake is shown, not continued");
    }

    #[test]
    fn words_complete_to_api_functions_and_names() {
        let api = ["dice", "rules", "rng"];
        let known = Known {
            api: &api,
            ..Known::default()
        };
        let (start, found) = candidates("let d = di", 10, &known);
        assert_eq!((start, found), (8, vec!["dice".to_string()]));
        let defined = ["r2".to_string()];
        let with_r2 = Known {
            api: &api,
            defined: &defined,
            ..Known::default()
        };
        let (_, found) = candidates("r", 1, &with_r2);
        assert_eq!(found, vec!["r2", "rng", "rules"]);
        let (_, found) = candidates(":he", 3, &known);
        assert_eq!(found, vec![":help"]);
    }

    #[test]
    fn inside_a_string_ship_names_complete_loosely() {
        let ships = vec![
            "UFP heavy cruiser".to_string(),
            "Klingon battle cruiser".to_string(),
        ];
        let line = "r.ship(\"ufp";
        let known = Known {
            ships: &ships,
            ..Known::default()
        };
        let (start, found) = candidates(line, line.len(), &known);
        assert_eq!((start, found), (8, vec!["UFP heavy cruiser".to_string()]));
    }

    #[test]
    fn rulesets_complete_inside_rules_and_after_the_command() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("clubs")).unwrap();
        std::fs::write(dir.path().join("clubs/house.rules"), "x").unwrap();
        std::fs::write(dir.path().join("clubs/notes.txt"), "x").unwrap();
        let built_in = ["startrek", "swiss", "cep"];
        let known = Known {
            rulesets: &built_in,
            ..Known::default()
        };
        let line = "let r = rules(\"s";
        let (start, found) = candidates(line, line.len(), &known);
        assert_eq!(
            (start, &found[..2]),
            (15, &["startrek".into(), "swiss".into()][..])
        );
        assert!(
            found.iter().all(|f| f.starts_with('s')),
            "then files here: {found:?}"
        );
        let clubs = format!("{}/clubs/", dir.path().display());
        let line = format!(":rules {clubs}");
        let (start, found) = candidates(&line, line.len(), &known);
        assert_eq!((start, found), (7, vec![format!("{clubs}house.rules")]));
        let line = format!("rules(`{}/cl", dir.path().display());
        let (_, found) = candidates(&line, line.len(), &known);
        assert_eq!(found, vec![format!("{clubs}")]);
    }

    #[test]
    fn after_a_dot_ship_fields_complete() {
        let line = "s.shi";
        let known = Known {
            api: &["ship"],
            ..Known::default()
        };
        let (start, found) = candidates(line, line.len(), &known);
        assert_eq!(start, 2);
        assert_eq!(found, vec!["shields", "ship"]);
    }
}
