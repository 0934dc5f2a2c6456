//! What a file is, by its name: the one table that maps extensions to formats.
use std::path::Path;

/// The kinds of file arbiter reads and writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FileKind {
    /// The rules language (rulesets, and records written in it).
    Rules,
    /// YAML: rulesets, game records, histories, seasons, scenarios.
    Yaml,
    /// JSON, read as YAML (it is YAML).
    Json,
    /// A CSV rating history.
    Csv,
    /// A names file: one team or player a line.
    Names,
    /// A rhai script or tactic.
    Script,
    /// Output only: an SVG plot, an HTML table.
    Svg,
    Html,
}

/// Every extension arbiter knows (lower case, no dot), and what it means.
const EXTENSIONS: &[(&str, FileKind)] = &[
    ("rules", FileKind::Rules),
    ("yaml", FileKind::Yaml),
    ("yml", FileKind::Yaml),
    ("json", FileKind::Json),
    ("csv", FileKind::Csv),
    ("txt", FileKind::Names),
    ("rhai", FileKind::Script),
    ("svg", FileKind::Svg),
    ("html", FileKind::Html),
    ("htm", FileKind::Html),
];

impl FileKind {
    /// The kind a file name says, if it is one arbiter knows.
    pub(crate) fn of(path: &str) -> Option<FileKind> {
        let ext = Path::new(path).extension()?.to_str()?.to_lowercase();
        EXTENSIONS.iter().find(|(e, _)| *e == ext).map(|(_, k)| *k)
    }

    /// The extensions of the given kinds, for messages (".rules, .yaml, ...").
    pub(crate) fn extensions(kinds: &[FileKind]) -> String {
        let shown: Vec<String> = EXTENSIONS
            .iter()
            .filter(|(_, k)| kinds.contains(k))
            .map(|(e, _)| format!(".{e}"))
            .collect();
        shown.join(", ")
    }
}

/// The two syntaxes a document (ruleset, record, season...) can be written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Rules,
    Yaml,
}

impl Format {
    /// The syntax a file name implies: `.rules` is the rules language, anything else YAML/JSON.
    pub fn of(path: &str) -> Format {
        match FileKind::of(path) {
            Some(FileKind::Rules) => Format::Rules,
            _ => Format::Yaml,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extensions_map_to_kinds_ignoring_case() {
        assert_eq!(FileKind::of("a/b/house.RULES"), Some(FileKind::Rules));
        assert_eq!(FileKind::of("season.yml"), Some(FileKind::Yaml));
        assert_eq!(FileKind::of("h.csv"), Some(FileKind::Csv));
        assert_eq!(FileKind::of("teams.txt"), Some(FileKind::Names));
        assert_eq!(FileKind::of("id_rsa"), None);
        assert_eq!(FileKind::of("x.exe"), None);
        assert_eq!(Format::of("x.rules"), Format::Rules);
        assert_eq!(Format::of("x.json"), Format::Yaml);
        assert_eq!(
            FileKind::extensions(&[FileKind::Yaml, FileKind::Csv]),
            ".yaml, .yml, .csv"
        );
    }
}
