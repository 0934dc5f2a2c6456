//! Matching names the way people type them: case-insensitive, accents ignored
//! (`trialon` is `trialón`), and "did you mean" suggestions.

/// The form two names are compared in: accents dropped, lower case, runs of white space as
/// one space, none at the ends.
pub fn normalize(name: &str) -> String {
    if name.is_ascii() {
        // Most names: one pass, one allocation (this runs for every key a ruleset loads).
        let mut out = String::with_capacity(name.len());
        for word in name.split_whitespace() {
            if !out.is_empty() {
                out.push(' ');
            }
            out.extend(word.chars().map(|c| c.to_ascii_lowercase()));
        }
        return out;
    }
    deunicode::deunicode(name)
        .to_lowercase()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// Whether two names are the same name.
pub(crate) fn same(a: &str, b: &str) -> bool {
    normalize(a) == normalize(b)
}

/// The closest of `known` to `name`, if any is close enough to be a likely typo.
pub(crate) fn nearest<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let n = normalize(name);
    known
        .into_iter()
        .map(|k| (k, strsim::jaro_winkler(&n, &normalize(k))))
        .filter(|(_, score)| *score >= 0.75)
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(k, _)| k)
}

/// " (did you mean `x`?)" or nothing.
pub(crate) fn suggestion<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    match nearest(name, known) {
        Some(k) => format!(" (did you mean `{k}`?)"),
        None => String::new(),
    }
}

/// An error for a name not found among `known`, with a suggestion and the list.
pub(crate) fn unknown(kind: &str, name: &str, known: &[&str]) -> String {
    let mut m = format!(
        "unknown {kind} `{name}`{}",
        suggestion(name, known.iter().copied())
    );
    if known.len() <= 20 && !known.is_empty() {
        m.push_str(&format!("; known: {}", known.join(", ")));
    }
    m
}

/// Whether a character may not appear in a name: a control character (a newline, a tab, the
/// escape that starts a terminal sequence, C1 controls) or a line or paragraph separator. A name
/// is one line of text in every file arbiter writes (TRF columns, bundle headers, CSV, iCal)
/// and on the terminal.
pub(crate) fn is_unprintable(c: char) -> bool {
    c.is_control() || matches!(c, '\u{2028}' | '\u{2029}')
}

/// The text with every unprintable character written as `\u{1b}`, so it shows what is there
/// without acting on a terminal or breaking a line.
pub(crate) fn escaped(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(is_unprintable) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_unprintable(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Refuse a name (of a `kind`: "player", "ruleset"...) holding an unprintable character, with
/// the name shown escaped and the character named.
pub(crate) fn check_printable(kind: &str, name: &str) -> crate::error::Result<()> {
    match name.chars().find(|&c| is_unprintable(c)) {
        None => Ok(()),
        Some(c) => Err(crate::error::Error::msg(format!(
            "{kind} name `{}` holds a control character (U+{:04X}); a name is one line of \
             printable text",
            escaped(name),
            c as u32
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_and_unicode_names_normalize_alike() {
        assert_eq!(normalize("  UFP   Heavy\tCruiser "), "ufp heavy cruiser");
        assert_eq!(normalize("Trialón"), "trialon");
        assert_eq!(
            normalize(" Crucero  PESADO de la UFP"),
            "crucero pesado de la ufp"
        );
        assert_eq!(normalize(""), "");
        assert!(same("Übersreik Ürsine", "ubersreik  ursine"));
    }
    #[test]
    fn accents_and_case_are_ignored() {
        assert!(same("trialon", "Trialón"));
        assert!(same("CAPITAN", "capitán"));
        assert!(!same("mayor", "teniente"));
    }
    #[test]
    fn control_characters_are_refused_and_shown_escaped() {
        assert!(check_printable("player", "Ana Pérez, 2.º").is_ok());
        let e = check_printable("player", "Ana\u{1b}[31mRed")
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "player name `Ana\\u{1b}[31mRed` holds a control character (U+001B); a name is one \
             line of printable text"
        );
        assert!(check_printable("ruleset", "a\nb").is_err());
        assert!(check_printable("team", "a\u{85}b").is_err());
        assert!(check_printable("team", "a\u{2028}b").is_err());
        assert_eq!(escaped("tab\there\r"), "tab\\u{9}here\\u{d}");
        assert!(matches!(escaped("plain"), std::borrow::Cow::Borrowed(_)));
    }

    #[test]
    fn suggests_the_nearest() {
        assert_eq!(nearest("trialin", ["trialón", "virel"]), Some("trialón"));
        assert_eq!(nearest("zzzz", ["trialón", "virel"]), None);
    }
}
