//! `rules explain PATH`: what a value of a ruleset means (the model's description, from the
//! schema), its type and default, its value with `extends` resolved, and what the ruleset files
//! say about it (their comments on that key quote the source's rule or the ruling taken).
use super::comments::Comments;
use super::edit;
use super::model::Ruleset;
use super::schema;
use crate::error::{Error, Result};
use crate::io::Format;
use serde::Serialize;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// Files an `extends` chain is followed through for comments, at most (`load` refuses cycles;
/// this only bounds the walk).
const MAX_CHAIN: usize = 32;

#[derive(Debug, Clone, Serialize)]
pub(crate) struct Explanation {
    /// The path with the ruleset's own keys (a ship's alias resolved to its name).
    pub path: String,
    pub pointer: String,
    pub description: Option<String>,
    #[serde(rename = "type")]
    pub type_name: String,
    /// The model's default, where a field has one.
    pub default: Option<Value>,
    /// The value in the ruleset, `extends` resolved (`None`: not set).
    pub value: Option<Value>,
    /// The ruleset's name and where its numbers come from.
    pub ruleset: Option<String>,
    pub source: Option<String>,
    /// Comments the ruleset files put on this key, nearest file first: `(file, text)`.
    pub notes: Vec<(String, String)>,
    /// For a list of named choices (tie-breaks): what each name in the value means, or every
    /// name's meaning when the value is not set: `(name, meaning)`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub meanings: Vec<(String, String)>,
}

/// The named choices a key's values come from, with their meanings (each tie-break's FIDE
/// article is in its meaning).
fn choices(segments: &[String]) -> &'static [(&'static str, &'static str)] {
    match segments {
        [section, key, ..] if section == "swiss" && key == "tiebreakers" => super::swiss::TIEBREAKS,
        [section, key, ..] if section == "league" && key == "tiebreakers" => {
            super::league::TIEBREAKERS
        }
        _ => &[],
    }
}

/// The meanings of the names `value` holds (one name, or a list), or all of them.
fn meanings_of(
    known: &[(&'static str, &'static str)],
    value: Option<&Value>,
) -> Vec<(String, String)> {
    let named: Vec<&str> = match value {
        Some(Value::String(s)) => vec![s.as_str()],
        Some(Value::Array(items)) => items.iter().filter_map(Value::as_str).collect(),
        _ => known.iter().map(|k| k.0).collect(),
    };
    named
        .iter()
        .filter_map(|n| known.iter().find(|k| k.0 == *n))
        .map(|(n, m)| (n.to_string(), m.to_string()))
        .collect()
}

/// The comments of a ruleset and of every file it extends, nearest first.
pub(crate) fn comment_chain(reference: &str) -> Vec<(String, Comments)> {
    let mut out = Vec::new();
    follow(reference, None, &mut out);
    out
}

/// The same for a document being edited (its text given), then what it extends.
pub(crate) fn comment_chain_of_text(
    name: &str,
    text: &str,
    dir: Option<&Path>,
) -> Vec<(String, Comments)> {
    let mut out = Vec::new();
    add_text(name, text, Format::of(name), dir, &mut out);
    out
}

fn follow(reference: &str, dir: Option<&Path>, out: &mut Vec<(String, Comments)>) {
    if out.len() >= MAX_CHAIN {
        return;
    }
    let as_path = match dir {
        Some(d) if Path::new(reference).is_relative() => d.join(reference),
        _ => PathBuf::from(reference),
    };
    if as_path.is_file() {
        let shown = as_path.display().to_string();
        if let Ok(text) = crate::io::read_text(&shown) {
            let parent = as_path.parent().map(Path::to_path_buf);
            add_text(&shown, &text, Format::of(&shown), parent.as_deref(), out);
        }
    } else if let Some((name, file, text)) = super::builtin::find(reference) {
        let shown = format!("<built-in {name}: rulesets/{file}>");
        add_text(&shown, text, Format::of(file), None, out);
    }
}

fn add_text(
    name: &str,
    text: &str,
    format: Format,
    dir: Option<&Path>,
    out: &mut Vec<(String, Comments)>,
) {
    let Ok((doc, comments)) = super::canonical::parse_with_comments(name, text, format) else {
        return;
    };
    out.push((name.to_string(), comments));
    if let Ok(Some(base)) = super::pin::read_extends(&doc) {
        follow(&base.name, dir, out);
    }
}

/// Explain `path` ("combat.start_distance", "/ships/Scout/shields"), in `ruleset` if one is
/// given, with the comments of its files.
pub(crate) fn explain(
    path: &str,
    ruleset: Option<&Ruleset>,
    comments: &[(String, Comments)],
) -> Result<Explanation> {
    let typed = edit::parse_path(path);
    let tree = ruleset.map(edit::tree);
    let segments = match (ruleset, &tree) {
        (Some(r), Some(t)) => edit::resolve(r, t, &typed),
        _ => typed.clone(),
    };
    let field = schema::field(&segments).map_err(|unknown| {
        let at = edit::show_path(&segments[..unknown.depth]);
        let key = &segments[unknown.depth];
        let known: Vec<&str> = unknown.known.iter().map(String::as_str).collect();
        let within = if unknown.depth == 0 {
            "a ruleset".to_string()
        } else {
            format!("`{at}`")
        };
        let mut m = format!(
            "no key `{key}` in {within}{}",
            crate::names::suggestion(key, known.iter().copied())
        );
        if known.is_empty() {
            m.push_str(&format!(" (`{at}` holds no keys)"));
        } else if known.len() <= 40 {
            m.push_str(&format!("; it has: {}", known.join(", ")));
        }
        Error::msg(m)
    })?;
    if let (Some(r), [first, name, ..]) = (ruleset, segments.as_slice()) {
        if first == "ships" {
            r.ship(name)?;
        }
    }
    let pointer = segments
        .iter()
        .fold(String::new(), |p, s| crate::pointer::pointer_push(&p, s));
    let value = tree
        .as_ref()
        .and_then(|t| edit::value_at(t, &segments))
        .cloned();
    let notes = notes(&pointer, comments);
    let meanings = meanings_of(choices(&segments), value.as_ref());
    Ok(Explanation {
        path: edit::show_path(&segments),
        pointer,
        description: field.description.clone(),
        type_name: schema::type_name(field.declared),
        default: field.declared.get("default").cloned(),
        value,
        ruleset: ruleset.map(|r| r.name.clone()),
        source: ruleset.map(|r| r.source.clone()).filter(|s| !s.is_empty()),
        notes,
        meanings,
    })
}

/// What the ruleset files say about the value at `pointer`: `(file, text)`, nearest file first.
pub(crate) fn notes(pointer: &str, comments: &[(String, Comments)]) -> Vec<(String, String)> {
    comments
        .iter()
        .filter_map(|(file, c)| {
            let n = c.get(pointer)?;
            let mut lines: Vec<String> = n
                .before
                .iter()
                .filter(|l| !super::comments::is_blank(l))
                .map(|l| l.trim().to_string())
                .collect();
            lines.extend(n.after.iter().map(|l| l.trim().to_string()));
            let text = lines.join(" ");
            (!text.trim().is_empty()).then(|| (file.clone(), text))
        })
        .collect()
}

impl Explanation {
    /// As `rules explain` prints it (and the language server shows it on hover, as Markdown).
    pub(crate) fn text(&self) -> String {
        let mut out = format!("{}\n", self.path);
        if let Some(d) = &self.description {
            out.push_str(&format!("  {d}\n"));
        }
        out.push_str(&format!("  type: {}\n", self.type_name));
        if let Some(d) = &self.default {
            out.push_str(&format!("  default: {}\n", shown(d)));
        }
        match (&self.ruleset, &self.value) {
            (Some(r), Some(v)) => out.push_str(&format!("  in {r}: {}\n", shown(v))),
            (Some(r), None) => out.push_str(&format!("  in {r}: not set\n")),
            _ => {}
        }
        for (file, note) in &self.notes {
            out.push_str(&format!("  {file}: {note}\n"));
        }
        for (name, meaning) in &self.meanings {
            out.push_str(&format!("  {name}: {meaning}\n"));
        }
        if let Some(s) = &self.source {
            out.push_str(&format!("  source: {s}\n"));
        }
        out
    }
}

/// A value on one line, shortened: a whole section is summarised by its keys (as `rules explain` shows it).
pub(crate) fn shown(v: &Value) -> String {
    let text = match v {
        Value::Object(m) if m.len() > 6 => {
            let keys: Vec<&str> = m.keys().take(6).map(String::as_str).collect();
            format!("{{{}, ... ({} keys)}}", keys.join(", "), m.len())
        }
        _ => v.to_string(),
    };
    if text.chars().count() > 200 {
        let cut: String = text.chars().take(200).collect();
        format!("{cut}...")
    } else {
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_combat_value_is_explained_with_its_value_and_the_rulesets_comment() {
        let r = super::super::load::load("startrek").unwrap();
        let e = explain("combat.sensor_range", Some(&r), &comment_chain("startrek")).unwrap();
        assert_eq!(e.pointer, "/combat/sensor_range");
        assert_eq!(e.value, Some(serde_json::json!(10)));
        assert_eq!(e.type_name, "integer (at least 0)");
        assert!(e.description.unwrap().starts_with("Short-range sensors"));
        assert_eq!(e.notes.len(), 1, "{:?}", e.notes);
        assert!(e.notes[0].1.contains("10 hexes (1000 km)"), "{:?}", e.notes);
    }

    #[test]
    fn a_typo_gets_a_suggestion_and_an_unknown_ship_too() {
        let r = super::super::load::load("startrek").unwrap();
        let e = explain("/combat/sensor_rang", Some(&r), &[]).unwrap_err();
        assert!(e.to_string().contains("did you mean `sensor_range`"), "{e}");
        let e = explain("ships.Klingon battel cruiser.shields", Some(&r), &[]).unwrap_err();
        assert!(e.to_string().contains("did you mean"), "{e}");
    }
}
