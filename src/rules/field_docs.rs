//! What each value of a ruleset means, from the model's own doc comments (`///` above each
//! field in src/rules/), read from the sources embedded in the binary: one text to keep up to
//! date, the code's.
use std::collections::HashMap;
use std::sync::OnceLock;

/// The model's sources: every file that declares a section of the ruleset.
const SOURCES: &[&str] = &[
    include_str!("model.rs"),
    include_str!("ship.rs"),
    include_str!("scoring.rs"),
    include_str!("league.rs"),
    include_str!("swiss.rs"),
    include_str!("combat.rs"),
    include_str!("script.rs"),
    include_str!("limits.rs"),
];

struct Field {
    doc: String,
    /// The field's type as written (`Option<IndexMap<String, Ship>>`).
    ty: String,
}

/// Struct name → its doc comment and fields by name.
struct Model {
    structs: HashMap<String, (String, HashMap<String, Field>)>,
}

fn model() -> &'static Model {
    static MODEL: OnceLock<Model> = OnceLock::new();
    MODEL.get_or_init(|| {
        let mut structs = HashMap::new();
        for source in SOURCES {
            read_structs(source, &mut structs);
        }
        Model { structs }
    })
}

fn read_structs(source: &str, out: &mut HashMap<String, (String, HashMap<String, Field>)>) {
    let mut doc: Vec<&str> = Vec::new();
    let mut current: Option<(String, String, HashMap<String, Field>)> = None;
    for line in source.lines() {
        let t = line.trim();
        if let Some(d) = t.strip_prefix("///") {
            doc.push(d.trim());
            continue;
        }
        if t.starts_with("#[") {
            continue;
        }
        let text = std::mem::take(&mut doc).join(" ");
        if let Some(rest) = t.strip_prefix("pub struct ") {
            if let Some(name) = rest.strip_suffix('{').map(str::trim) {
                current = Some((name.to_string(), text, HashMap::new()));
            }
            continue;
        }
        let Some((_, _, fields)) = current.as_mut() else {
            continue;
        };
        if t == "}" {
            let (name, doc, fields) = current.take().expect("in a struct");
            out.insert(name, (doc, fields));
            continue;
        }
        if let Some((name, ty)) = t.strip_prefix("pub ").and_then(|f| f.split_once(':')) {
            let ty = ty.trim().trim_end_matches(',').to_string();
            fields.insert(name.trim().to_string(), Field { doc: text, ty });
        }
    }
}

/// What a field's type holds: a section (a struct of the model), a map or list of something,
/// or a plain value.
enum Holds<'a> {
    Section(&'a str),
    Entries(&'a str),
    Value,
}

fn holds(ty: &str) -> Holds<'_> {
    let ty = ty.trim();
    for wrapper in ["Option<", "Box<"] {
        if let Some(inner) = ty.strip_prefix(wrapper).and_then(|t| t.strip_suffix('>')) {
            return holds(inner);
        }
    }
    for map in ["IndexMap<", "BTreeMap<", "HashMap<"] {
        if let Some(inner) = ty.strip_prefix(map).and_then(|t| t.strip_suffix('>')) {
            return Holds::Entries(
                inner
                    .split_once(',')
                    .map(|(_, v)| v.trim())
                    .unwrap_or(inner),
            );
        }
    }
    if let Some(inner) = ty.strip_prefix("Vec<").and_then(|t| t.strip_suffix('>')) {
        return Holds::Entries(inner);
    }
    let name = ty.rsplit("::").next().unwrap_or(ty);
    if model().structs.contains_key(name) {
        Holds::Section(name)
    } else {
        Holds::Value
    }
}

/// The doc comment of the value at `segments` (a path into the ruleset, as `rules diff` and
/// `r.get` write them), or of the entry it is part of; `None` if the model does not say.
pub fn describe(segments: &[String]) -> Option<String> {
    let mut ty = "Ruleset".to_string();
    let mut doc: Option<String> = model().structs.get("Ruleset").map(|s| s.0.clone());
    let mut in_entries = false;
    for seg in segments {
        if in_entries {
            // A name (a ship, a rank) or a list index: the entry's type, documented by its field.
            in_entries = false;
            match holds(&ty) {
                Holds::Entries(inner) => ty = inner.to_string(),
                _ => return None,
            }
            if let Holds::Section(name) = holds(&ty) {
                ty = name.to_string();
            }
            continue;
        }
        let section = match holds(&ty) {
            Holds::Section(name) => name.to_string(),
            _ => return None,
        };
        let field = model().structs.get(&section)?.1.get(seg.as_str())?;
        // The field's own comment, else its section's (`index`: the struct ResultIndex's),
        // else the one it is part of.
        let section_doc = match holds(&field.ty) {
            Holds::Section(name) => model().structs.get(name).map(|s| s.0.clone()),
            _ => None,
        };
        let nonempty = |d: Option<String>| d.filter(|d| !d.is_empty());
        doc = nonempty(Some(field.doc.clone()))
            .or(nonempty(section_doc))
            .or(doc);
        ty = field.ty.clone();
        in_entries = matches!(holds(&ty), Holds::Entries(_));
    }
    doc.filter(|d| !d.is_empty())
}

#[cfg(test)]
mod tests {
    use super::describe;

    fn path(p: &str) -> Vec<String> {
        crate::pointer::pointer_segments(p).collect()
    }

    #[test]
    fn fields_are_described_by_their_doc_comments_through_maps_and_sections() {
        let name = describe(&path("/name")).unwrap();
        assert_eq!(
            name,
            "The ruleset's name, as `rules list` and `--rules` know it."
        );
        let ships = describe(&path("/ships")).unwrap();
        assert!(ships.starts_with("Ships (or any playing pieces"), "{ships}");
        // A ship's own field, under a name the model cannot know.
        let shields = describe(&path("/ships/Any name/shields")).unwrap();
        assert!(shields.to_lowercase().contains("shield"), "{shields}");
        assert_eq!(describe(&path("/ships/Any name/no such field")), None);
        let win = describe(&path("/league/points/win"));
        let points = describe(&path("/league/points"));
        assert!(win.is_some() && points.is_some());
    }
}
