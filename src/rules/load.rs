//! Loading rulesets: built-in names or files, either format, `extends` chains, validation.
use super::builtin;
use super::doc::Doc;
use super::model::Ruleset;
use super::{lang, yaml};
use crate::error::{Error, Result};
use crate::io::policy::Permit;
use std::path::{Path, PathBuf};

use crate::io::Format;

/// Parse text in a given format.
pub fn parse_text(name: &str, text: &str, format: Format) -> Result<Doc> {
    match format {
        Format::Rules => lang::parse(name, text),
        Format::Yaml => yaml::parse(name, text),
    }
}

/// Read a file of either format into a `Doc`, as written (no `extends` applied).
pub(crate) fn read_doc(path: &str) -> Result<Doc> {
    read_permitted(&Permit::as_given(Path::new(path)))
}

/// `read_doc` of a file the read policy allowed.
fn read_permitted(permit: &Permit) -> Result<Doc> {
    let shown = permit.path().display().to_string();
    let text = permit.read_text()?;
    parse_text(&shown, &text, Format::of(&shown))
}

/// `read_permitted` of a file another file named: if it does not parse as a ruleset (a
/// mapping of sections), the error says where and why but shows none of its text.
fn read_named_inside(permit: &Permit) -> Result<Doc> {
    let doc = read_permitted(permit).map_err(Error::without_excerpt)?;
    if !doc.value.is_object() {
        return Err(doc
            .error_at(
                "",
                "is not a ruleset: a ruleset is a mapping of sections (`name: ...`, `ships: ...`)",
            )
            .without_excerpt());
    }
    Ok(doc)
}

/// Most rulesets one `extends` chain may hold (the file itself included). A house rule
/// extends a club's, which extends a built-in: a few links. Each link is read, parsed and
/// laid over the next while the ones above it wait, so a chain of thousands of files ran
/// out of stack.
pub(crate) const MAX_EXTENDS_DEPTH: usize = 32;

/// Where a ruleset reference points: a built-in or a file.
enum Origin {
    Builtin(&'static str, &'static str, &'static str),
    File(Permit),
}

/// The read policy's word on a ruleset file (named inside a file in `relative_to`, or by the
/// person when `None`).
fn permit(path: &Path, relative_to: Option<&Path>) -> Result<Permit> {
    crate::io::policy::permit(path, crate::io::policy::Kind::Ruleset, relative_to)
}

fn locate(reference: &str, relative_to: Option<&Path>) -> Result<Origin> {
    let as_path = match relative_to {
        Some(dir) if Path::new(reference).is_relative() => dir.join(reference),
        _ => PathBuf::from(reference),
    };
    let looks_like_path = reference.contains(['/', '\\', '.']);
    // A bare name is a built-in first: a file of that name in the folder must not be read in
    // its place (it may be anything).
    if !looks_like_path {
        if let Some(b) = builtin::find(reference) {
            return Ok(Origin::Builtin(b.0, b.1, b.2));
        }
    }
    if looks_like_path || as_path.exists() || as_path.is_symlink() {
        // Outside the policy, say so whether or not the file is there; inside it, the reader
        // says what it is (a directory, a device, a pipe, a link that loops or leads nowhere)
        // or that it is missing.
        return Ok(Origin::File(permit(&as_path, relative_to)?));
    }
    Err(Error::unknown("ruleset", reference, &builtin::names()))
}

/// Where a ruleset reference leads, and its text as written (nothing resolved): what an
/// editor opens to show the base an `extends` names.
pub(crate) enum Found {
    /// A built-in: its name, its file under `rulesets/`, and its text.
    Builtin(&'static str, &'static str, &'static str),
    /// A file the read policy allowed, and its text.
    File(PathBuf, String),
}

/// The ruleset `reference` names from a file in `relative_to` (`None`: as the person gave it),
/// read through the policy as `extends` reads it.
pub(crate) fn find_reference(reference: &str, relative_to: Option<&Path>) -> Result<Found> {
    let relative_to = relative_to.filter(|d| !d.as_os_str().is_empty());
    match locate(reference, relative_to)? {
        Origin::Builtin(name, file, text) => Ok(Found::Builtin(name, file, text)),
        Origin::File(permit) => {
            let text = permit.read_text()?;
            Ok(Found::File(permit.path().to_path_buf(), text))
        }
    }
}

/// Load a reference (built-in name or path) with its `extends` chain applied.
pub fn resolve_doc(reference: &str) -> Result<Doc> {
    resolve(reference, None, &mut Vec::new())
}

/// Load a reference named inside a file in `dir` (a record's `rules:`): a relative path is
/// found there, and under a script's read policy the file may sit there.
pub(crate) fn resolve_doc_beside(reference: &str, dir: Option<&Path>) -> Result<Doc> {
    resolve(
        reference,
        dir.filter(|d| !d.as_os_str().is_empty()),
        &mut Vec::new(),
    )
}

fn resolve(reference: &str, relative_to: Option<&Path>, chain: &mut Vec<String>) -> Result<Doc> {
    let origin = locate(reference, relative_to)?;
    let (id, doc, dir) = match origin {
        Origin::Builtin(name, file, text) => (
            format!("builtin:{name}"),
            parse_text(
                &format!("<built-in {name}: rulesets/{file}>"),
                text,
                Format::of(file),
            )?,
            None,
        ),
        Origin::File(permit) => {
            let path = permit.path();
            let id = std::fs::canonicalize(path)
                .map(|p| p.display().to_string())
                .unwrap_or_else(|_| path.display().to_string());
            let doc = match relative_to {
                // Named inside another file (its `extends`, a record's `rules:`): a file that
                // is not a ruleset gets its place named, never a line of it shown.
                Some(_) => read_named_inside(&permit)?,
                None => read_permitted(&permit)?,
            };
            (id, doc, path.parent().map(|p| p.to_path_buf()))
        }
    };
    resolve_extends(doc, id, dir.as_deref(), chain)
}

/// Apply the `extends` of an already-read document.
pub fn resolve_loaded(doc: Doc, id: &str, dir: Option<&Path>) -> Result<Doc> {
    resolve_extends(doc, id.to_string(), dir, &mut Vec::new())
}

fn resolve_extends(
    mut doc: Doc,
    id: String,
    dir: Option<&Path>,
    chain: &mut Vec<String>,
) -> Result<Doc> {
    if chain.contains(&id) {
        chain.push(id);
        return Err(doc.error_at(
            "/extends",
            format!("`extends` goes round in a circle: {}", chain.join(" -> ")),
        ));
    }
    if !doc.value.is_object() {
        return Err(doc.error_at(
            "",
            "a ruleset must be a mapping of sections (`name: ...`, `ships: ...`)",
        ));
    }
    let Some(pins) = super::pin::read_extends(&doc)? else {
        return doc.without_markers();
    };
    if chain.len() + 1 >= MAX_EXTENDS_DEPTH {
        let top = chain.first().unwrap_or(&id);
        return Err(doc.error_at(
            "/extends",
            format!(
                "an `extends` chain holds at most {MAX_EXTENDS_DEPTH} rulesets: this file is \
                 number {MAX_EXTENDS_DEPTH} of the chain from {top}, and it extends another"
            ),
        ));
    }
    chain.push(id);
    let mut base = resolve(&pins.name, dir, chain).map_err(|e| e.placed_at(&doc, "/extends"))?;
    chain.pop();
    if pins.sha256.is_some() || pins.version.is_some() {
        let ruleset = ruleset_from_doc(&base).map_err(|e| e.placed_at(&doc, "/extends"))?;
        super::pin::check(&pins, &ruleset, &doc)?;
    }
    if let Some(map) = doc.value.as_object_mut() {
        map.shift_remove("extends");
    }
    doc.places
        .retain(|p, _| p != "/extends" && !p.starts_with("/extends/"));
    // A version is its own file's: a house rule is not the version of what it extends.
    if doc.value.get("version").is_none() {
        if let Some(map) = base.value.as_object_mut() {
            map.shift_remove("version");
        }
    }
    let unmatched = base.overlay(doc)?;
    super::misses::check(&base, &unmatched, &pins.name)?;
    Ok(base)
}

/// Load and check a ruleset by built-in name or path as `load` does, but report every problem
/// of the file (up to `recover::MAX_PROBLEMS`), not the first: what `rules check` prints.
pub(crate) fn check(reference: &str) -> std::result::Result<Ruleset, Vec<Error>> {
    let permit = match locate(reference, None).map_err(|e| vec![e])? {
        Origin::Builtin(..) => return load(reference).map_err(|e| vec![e]),
        Origin::File(permit) => permit,
    };
    let path = permit.path();
    let shown = path.display().to_string();
    let text = permit.read_text().map_err(|e| vec![e])?;
    let id = std::fs::canonicalize(path)
        .map(|p| p.display().to_string())
        .unwrap_or_else(|_| shown.clone());
    let (ruleset, errors) =
        super::recover::check_text(&shown, &text, Format::of(&shown), &id, path.parent());
    match ruleset {
        Some(r) if errors.is_empty() => Ok(r),
        _ if errors.is_empty() => Err(vec![Error::msg(format!("{shown}: not a ruleset"))]),
        _ => Err(errors),
    }
}

/// Turn a resolved document into a checked ruleset.
pub fn ruleset_from_doc(doc: &Doc) -> Result<Ruleset> {
    let ruleset: Ruleset = doc.deserialize()?;
    ruleset.validate(doc)?;
    Ok(ruleset)
}

/// Load, resolve and check a ruleset by built-in name or path.
pub fn load(reference: &str) -> Result<Ruleset> {
    ruleset_from_doc(&resolve_doc(reference)?)
}

/// Load, resolve and check a ruleset named inside `file` (a game's, season's or scenario's
/// `rules:`): a relative path means the file beside it when there is one (the read policy
/// lets it sit there); otherwise the reference as given, a built-in name or a path the policy
/// must allow.
pub(crate) fn load_beside(reference: &str, file: Option<&str>) -> Result<Ruleset> {
    let dir = file.and_then(|f| Path::new(f).parent());
    ruleset_from_doc(&resolve_doc_beside(reference, beside(reference, dir))?)
}

/// The folder a reference named inside a file in `dir` is read from (the CLI's records and
/// the script API alike): that folder when the file is there; else `None`, the reference as
/// given (from the current folder, or a built-in name).
pub(crate) fn beside<'a>(reference: &str, dir: Option<&'a Path>) -> Option<&'a Path> {
    dir.filter(|d| !d.as_os_str().is_empty())
        .filter(|d| Path::new(reference).is_relative() && d.join(reference).is_file())
}

/// One ruleset of an `extends` chain, as its own file gives it (not yet overlaid).
#[derive(Debug, Clone)]
pub(crate) struct Link {
    /// `built-in startrek` or the file's path.
    pub source: String,
    pub name: Option<String>,
    pub version: Option<String>,
    /// Its own comments, each at its node (what `rules bundle` carries over).
    pub comments: super::comments::Comments,
    /// The sha256 of this link resolved (itself over everything it extends), as `rules hash`
    /// prints it: what a pin on it would hold. `None` if it does not resolve on its own.
    pub sha256: Option<String>,
}

/// The chain a reference extends, itself first: what `rules bundle` names in its header.
pub(crate) fn chain(reference: &str) -> Result<Vec<Link>> {
    let mut links = Vec::new();
    let (mut reference, mut dir) = (reference.to_string(), None::<PathBuf>);
    // `resolve` has refused circles and long chains; the bound only keeps a changing file
    // from looping here.
    while links.len() < MAX_EXTENDS_DEPTH {
        let (source, (doc, comments), next_dir) = match locate(&reference, dir.as_deref())? {
            Origin::Builtin(name, file, text) => {
                let shown = format!("<built-in {name}>");
                let parsed = super::canonical::parse_with_comments(&shown, text, Format::of(file))?;
                (format!("built-in {name}"), parsed, None)
            }
            Origin::File(permit) => {
                // As `resolve` reads it (a file another names is placed, never shown).
                let doc = match dir {
                    Some(_) => read_named_inside(&permit)?,
                    None => read_permitted(&permit)?,
                };
                let path = permit.path();
                let shown = path.display().to_string();
                let text = permit.read_text()?;
                let comments =
                    super::canonical::parse_with_comments(&shown, &text, Format::of(&shown))
                        .map(|(_, c)| c)
                        .unwrap_or_default();
                (shown, (doc, comments), path.parent().map(Path::to_path_buf))
            }
        };
        let own = |key: &str| {
            doc.value
                .get(key)
                .and_then(|v| v.as_str())
                .map(String::from)
        };
        let sha256 = resolve(&reference, dir.as_deref(), &mut Vec::new())
            .and_then(|d| ruleset_from_doc(&d))
            .ok()
            .map(|r| super::identity::hash(&r));
        links.push(Link {
            source,
            name: own("name"),
            version: own("version"),
            comments,
            sha256,
        });
        match super::pin::read_extends(&doc)? {
            Some(pins) => (reference, dir) = (pins.name, next_dir),
            None => break,
        }
    }
    Ok(links)
}

/// The ruleset a reference extends, resolved and checked (`None` if it extends nothing), with
/// the name it gives it.
pub(crate) fn base_of(reference: &str) -> Result<Option<(String, Ruleset)>> {
    base_of_beside(reference, None)
}

/// `base_of` for a reference named inside a file in `dir` (a club file's `rulesets:`).
pub(crate) fn base_of_beside(
    reference: &str,
    dir: Option<&Path>,
) -> Result<Option<(String, Ruleset)>> {
    let (doc, dir) = match locate(reference, dir)? {
        Origin::Builtin(name, file, text) => (
            parse_text(&format!("<built-in {name}>"), text, Format::of(file))?,
            None,
        ),
        Origin::File(permit) => {
            let dir = permit.path().parent().map(Path::to_path_buf);
            (read_permitted(&permit)?, dir)
        }
    };
    let Some(pins) = super::pin::read_extends(&doc)? else {
        return Ok(None);
    };
    let base = resolve_doc_beside(&pins.name, dir.as_deref())
        .map_err(|e| e.placed_at(&doc, "/extends"))?;
    Ok(Some((pins.name, ruleset_from_doc(&base)?)))
}
