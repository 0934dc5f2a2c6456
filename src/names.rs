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
pub fn same(a: &str, b: &str) -> bool {
    normalize(a) == normalize(b)
}

/// The closest of `known` to `name`, if any is close enough to be a likely typo.
pub fn nearest<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let n = normalize(name);
    known
        .into_iter()
        .map(|k| (k, strsim::jaro_winkler(&n, &normalize(k))))
        .filter(|(_, score)| *score >= 0.75)
        .max_by(|a, b| a.1.total_cmp(&b.1))
        .map(|(k, _)| k)
}

/// " (did you mean `x`?)" or nothing.
pub fn suggestion<'a>(name: &str, known: impl IntoIterator<Item = &'a str>) -> String {
    match nearest(name, known) {
        Some(k) => format!(" (did you mean `{k}`?)"),
        None => String::new(),
    }
}

/// An error for a name not found among `known`, with a suggestion and the list.
pub fn unknown(kind: &str, name: &str, known: &[&str]) -> String {
    let mut m = format!(
        "unknown {kind} `{name}`{}",
        suggestion(name, known.iter().copied())
    );
    if known.len() <= 20 && !known.is_empty() {
        m.push_str(&format!("; known: {}", known.join(", ")));
    }
    m
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
    fn suggests_the_nearest() {
        assert_eq!(nearest("trialin", ["trialón", "virel"]), Some("trialón"));
        assert_eq!(nearest("zzzz", ["trialón", "virel"]), None);
    }
}
