//! The pins of `extends NAME sha256 "HEX" version "REQ"` (YAML `extends: {name, sha256,
//! version}`): reading them, and checking a base against them; and the version syntax.
use super::doc::Doc;
use super::identity::hash;
use super::model::Ruleset;
use crate::error::{Error, Result};
use serde_json::Value;

pub(crate) fn parse_version(text: &str) -> std::result::Result<semver::Version, String> {
    semver::Version::parse(text.trim()).map_err(|e| {
        format!("`{text}` is not a version ({e}); write MAJOR.MINOR.PATCH, like \"1.2.0\"")
    })
}

/// What an `extends` asks of its base.
#[derive(Debug, Clone)]
pub(crate) struct Extends {
    pub name: String,
    pub sha256: Option<String>,
    pub version: Option<semver::VersionReq>,
}

/// Read a document's `extends` (a name, or `{name, sha256, version}`), if it has one.
pub(crate) fn read_extends(doc: &Doc) -> Result<Option<Extends>> {
    let wrong = || doc.error_at("/extends", "`extends` takes the name or path of a ruleset");
    let map = match doc.value.get("extends") {
        None => return Ok(None),
        Some(Value::String(s)) => {
            return Ok(Some(Extends {
                name: s.clone(),
                sha256: None,
                version: None,
            }))
        }
        Some(Value::Object(m)) => m,
        Some(_) => return Err(wrong()),
    };
    let mut pins = Extends {
        name: String::new(),
        sha256: None,
        version: None,
    };
    for (key, value) in map {
        let at = crate::pointer::pointer_push("/extends", key);
        // The key is checked first: an unknown one is named as such, whatever its value.
        let text = || match value {
            Value::String(text) => Ok(text),
            _ => Err(doc.error_at(&at, format!("`{key}` of `extends` takes a string"))),
        };
        match key.as_str() {
            "name" => pins.name = text()?.clone(),
            "sha256" => {
                let hex = text()?.trim().to_ascii_lowercase();
                if hex.len() != 64 || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                    return Err(doc.error_at(
                        &at,
                        "a sha256 is 64 hex digits (as `arbiter rules hash BASE` prints it)",
                    ));
                }
                pins.sha256 = Some(hex);
            }
            "version" => {
                let text = text()?;
                let req = semver::VersionReq::parse(text).map_err(|e| {
                    doc.error_at(
                        &at,
                        format!("`{text}` is not a version requirement ({e}); like \">=1.0\""),
                    )
                })?;
                pins.version = Some(req);
            }
            other => {
                let hint = crate::names::suggestion(other, ["name", "sha256", "version"]);
                return Err(doc.error_at_key(
                    &at,
                    format!("`extends` has no `{other}`{hint}; it takes name, sha256 and version"),
                ));
            }
        }
    }
    if pins.name.is_empty() {
        return Err(doc.error_at(
            "/extends",
            "`extends` needs the `name` of the ruleset it extends",
        ));
    }
    Ok(Some(pins))
}

/// Refuse a base that is not the one the overlay was written against, at the `extends` line.
pub(crate) fn check(pins: &Extends, base: &Ruleset, doc: &Doc) -> Result<()> {
    if let Some(req) = &pins.version {
        let at = "/extends/version";
        let Some(v) = &base.version else {
            return Err(doc.error_at(
                at,
                format!(
                    "`{}` has no version, and this ruleset asks for {req}",
                    pins.name
                ),
            ));
        };
        let version = parse_version(v).map_err(Error::msg)?;
        if !req.matches(&version) {
            return Err(doc.error_at(
                at,
                format!(
                    "`{}` is version {v}, and this ruleset asks for {req}",
                    pins.name
                ),
            ));
        }
    }
    if let Some(want) = &pins.sha256 {
        let got = hash(base);
        if &got != want {
            // The way to what changed: the base as it was, if `rules pin` kept it.
            let file = doc
                .place("/extends")
                .map(|p| p.value.source.name.clone())
                .unwrap_or_default();
            let shown = crate::names::escaped(&pins.name);
            let see = match super::pinning::diff_command(&file, &pins.name) {
                Some(command) => format!("see what changed with `{command}`"),
                None => format!(
                    "the base as it was is not kept, so only its new form can be seen: \
                     `arbiter rules show {shown}`; `arbiter rules pin FILE` pins a file and keeps \
                     its base beside it, for `rules diff` to compare"
                ),
            };
            return Err(doc.error_at(
                "/extends/sha256",
                format!(
                    "`{shown}` has changed since this ruleset was written against it: its sha256 \
                     is now {got}, not {want} ({see})"
                ),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{io::Format, rules::load::parse_text};

    fn refusal(name: &str, text: &str) -> String {
        let format = Format::of(name);
        let doc = parse_text(name, text, format).unwrap();
        read_extends(&doc).unwrap_err().to_string()
    }

    #[test]
    fn an_unknown_pin_is_named_at_its_key_whatever_its_value() {
        let e = refusal("p.yaml", "extends:\n  name: startrek\n  colour: 1\n");
        assert!(
            e.starts_with(
                "p.yaml:3:3: `extends` has no `colour`; it takes name, sha256 and version"
            ),
            "{e}"
        );
        let e = refusal("p.rules", "extends startrek sha265 \"abc\"\n");
        assert!(
            e.starts_with("p.rules:1:18: `extends` has no `sha265` (did you mean `sha256`?)"),
            "{e}"
        );
        // `new "NAME" { ... }` after the line is a statement, not a pin.
        let doc = parse_text(
            "n.rules",
            "extends startrek\nships { new \"X\" { hull = 3 } }\n",
            Format::Rules,
        )
        .unwrap();
        assert_eq!(read_extends(&doc).unwrap().unwrap().name, "startrek");
    }
}
