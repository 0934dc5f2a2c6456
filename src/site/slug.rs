//! File names for a site's pages, made from names anyone may have typed: only lowercase ASCII
//! letters, digits and dashes (no markup, no path, nothing a browser or a shell reads as more),
//! each unique within its site, the same for the same names in the same order.
use std::collections::HashSet;

/// Longest part of a file name a name gives.
const MOST_CHARS: usize = 40;

/// The file names handed out so far.
#[derive(Debug, Default)]
pub(super) struct Slugs {
    taken: HashSet<String>,
}

impl Slugs {
    /// A new name `prefix-NAME` (`fallback` when the name has no letter or digit to keep),
    /// with `-2`, `-3`... when taken.
    pub(super) fn name(&mut self, prefix: &str, name: &str, fallback: &str) -> String {
        let mut stem = slug(name);
        if stem.is_empty() {
            stem = fallback.to_string();
        }
        let base = if prefix.is_empty() {
            stem
        } else {
            format!("{prefix}-{stem}")
        };
        let mut candidate = base.clone();
        let mut n = 2;
        while !self.taken.insert(candidate.clone()) {
            candidate = format!("{base}-{n}");
            n += 1;
        }
        candidate
    }
}

/// `Gouged Eye` → `gouged-eye`; accents and other scripts are dropped.
pub(super) fn slug(name: &str) -> String {
    let mut out = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
        if out.len() >= MOST_CHARS {
            break;
        }
    }
    out.trim_end_matches('-').to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_become_safe_unique_file_names() {
        assert_eq!(slug("Gouged Eye"), "gouged-eye");
        assert_eq!(slug("<b>&'\""), "b");
        assert_eq!(slug("../../etc/passwd"), "etc-passwd");
        assert_eq!(slug("Ωμέγα"), "");
        let mut s = Slugs::default();
        assert_eq!(s.name("team", "Gouged Eye", "team"), "team-gouged-eye");
        assert_eq!(s.name("team", "gouged eye!", "team"), "team-gouged-eye-2");
        assert_eq!(s.name("team", "Ωμέγα", "team"), "team-team");
        assert_eq!(s.name("team", "", "team"), "team-team-2");
    }
}
