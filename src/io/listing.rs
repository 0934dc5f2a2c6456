//! Listing a folder, for completion: names only, nothing is opened.
use super::FileKind;
use std::path::Path;

/// Bounds a listing: completion in a folder of a million files must stay quick.
const MAX_ENTRIES: usize = 2000;

/// The entries of `dir` a person may mean: sub-folders (with a trailing `/`) and files of the
/// given kinds, sorted; hidden entries only when `hidden`. An unreadable folder lists nothing.
pub(crate) fn entries_of_kinds(dir: &Path, kinds: &[FileKind], hidden: bool) -> Vec<String> {
    let Ok(read) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<String> = read
        .take(MAX_ENTRIES)
        .flatten()
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            if name.starts_with('.') && !hidden {
                return None;
            }
            let is_dir = entry.file_type().ok()?.is_dir() || entry.path().is_dir();
            if is_dir {
                return Some(format!("{name}/"));
            }
            FileKind::of(&name)
                .filter(|k| kinds.contains(k))
                .map(|_| name)
        })
        .collect();
    found.sort();
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_and_files_of_the_kinds_asked_for() {
        let dir = tempfile::tempdir().unwrap();
        for f in ["house.rules", "season.yaml", "notes.txt", ".hidden.rules"] {
            std::fs::write(dir.path().join(f), "x").unwrap();
        }
        std::fs::create_dir(dir.path().join("clubs")).unwrap();
        let kinds = [FileKind::Rules, FileKind::Yaml];
        assert_eq!(
            entries_of_kinds(dir.path(), &kinds, false),
            ["clubs/", "house.rules", "season.yaml"]
        );
        assert!(entries_of_kinds(dir.path(), &kinds, true).contains(&".hidden.rules".into()));
        assert!(entries_of_kinds(&dir.path().join("none"), &kinds, false).is_empty());
    }
}
