//! `rules pin FILE`: write the sha256 of the base a house rule extends into its `extends`, and
//! keep that base, resolved and self-contained, beside it (`FILE`'s stem + `.pinned-base.rules`),
//! so that when the base later changes, `rules diff KEPT BASE` shows what changed.
use super::canonical;
use super::edit::{self, Syntax};
use super::{
    identity::Identity,
    pin::{self},
};
use crate::error::{Error, Result};
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};
use {
    super::load::{self},
    crate::io::Format,
};

/// Where the base a file was pinned against is kept: beside it, `house.pinned-base.rules`.
pub(crate) fn kept_base(file: &str) -> PathBuf {
    let path = Path::new(file);
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    path.with_file_name(format!("{stem}.pinned-base.rules"))
}

/// What `rules pin` writes: the file's new text, the kept base's text and where it goes, and
/// the base's identity.
pub(crate) struct Pinned {
    pub text: String,
    pub kept_path: PathBuf,
    pub kept_text: String,
    pub base: Identity,
}

/// Pin `file`'s base at what it is now. The file keeps its comments (in the canonical layout,
/// as `rules fmt` gives it).
pub(crate) fn pin(file: &str, text: &str) -> Result<Pinned> {
    let syntax = Syntax::of_path(file)?;
    let (mut doc, comments) = canonical::parse_with_comments(file, text, Format::of(file))?;
    let Some(extends) = pin::read_extends(&doc)? else {
        return Err(Error::msg(format!(
            "{file}: extends nothing, so there is no base to pin"
        )));
    };
    let dir = Path::new(file)
        .parent()
        .filter(|d| !d.as_os_str().is_empty());
    let base_doc =
        load::resolve_doc_beside(&extends.name, dir).map_err(|e| e.placed_at(&doc, "/extends"))?;
    let base = load::ruleset_from_doc(&base_doc)?;
    let id = Identity::of(&base);
    let mut pins = Map::new();
    pins.insert("name".into(), extends.name.clone().into());
    pins.insert("sha256".into(), id.sha256.clone().into());
    if let Some(Value::Object(old)) = doc.value.get("extends") {
        if let Some(v) = old.get("version") {
            pins.insert("version".into(), v.clone());
        }
    }
    if let Some(map) = doc.value.as_object_mut() {
        map.insert("extends".into(), Value::Object(pins));
    }
    let text = canonical::render_with_comments(&doc.value, &comments, syntax);
    let kept_text = format!(
        "# The base `{}` as {file} was pinned against it (sha256 {}), kept by `arbiter rules \
         pin` so that `arbiter rules diff` can show what changed since.\n\n{}",
        crate::names::escaped(&extends.name),
        id.sha256,
        edit::show(&base, Syntax::Rules)
    );
    Ok(Pinned {
        text,
        kept_path: kept_base(file),
        kept_text,
        base: id,
    })
}

/// The command that shows how a pinned base changed, if its old form was kept beside `file`:
/// `arbiter rules diff KEPT BASE`, with both as seen from the current folder.
pub(crate) fn diff_command(file: &str, base: &str) -> Option<String> {
    let kept = kept_base(file);
    if !kept.is_file() {
        return None;
    }
    let dir = Path::new(file)
        .parent()
        .filter(|d| !d.as_os_str().is_empty());
    let looks_like_path = base.contains(['/', '\\', '.']);
    let base_shown = match dir {
        Some(d) if looks_like_path && Path::new(base).is_relative() => {
            d.join(base).display().to_string()
        }
        _ => base.to_string(),
    };
    Some(format!(
        "arbiter rules diff {} {}",
        shell_word(&kept.display().to_string()),
        shell_word(&base_shown)
    ))
}

/// A word as a shell reads it back: quoted when it holds anything but plain characters.
fn shell_word(s: &str) -> String {
    if !s.is_empty()
        && s.chars()
            .all(|c| c.is_alphanumeric() || matches!(c, '/' | '.' | '-' | '_'))
    {
        s.to_string()
    } else {
        format!("'{}'", s.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pinned_file_holds_its_bases_hash_and_keeps_its_comments() {
        let d = tempfile::tempdir().unwrap();
        let file = d.path().join("house.rules");
        let file = file.to_str().unwrap();
        let text = "# our house rule\n\nextends startrek  # the base\nname = house\n";
        let p = pin(file, text).unwrap();
        let startrek = Identity::of(&load::load("startrek").unwrap());
        assert_eq!(p.base, startrek);
        assert!(
            p.text
                .contains(&format!("extends startrek sha256 \"{}\"", startrek.sha256)),
            "{}",
            p.text
        );
        assert!(p.text.contains("# our house rule") && p.text.contains("# the base"));
        assert_eq!(p.kept_path, d.path().join("house.pinned-base.rules"));
        // The kept base is the base: it hashes the same.
        std::fs::write(&p.kept_path, &p.kept_text).unwrap();
        let kept = load::load(p.kept_path.to_str().unwrap()).unwrap();
        assert_eq!(Identity::of(&kept).sha256, startrek.sha256);
        assert_eq!(
            diff_command(file, "startrek").unwrap(),
            format!("arbiter rules diff {} startrek", p.kept_path.display())
        );
    }
}
