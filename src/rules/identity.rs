//! A ruleset's identity: its canonical form and that form's sha256, the name, version and hash
//! records keep (`Identity`), and the checks of a record against the rules it names.
use super::doc::tidy_numbers;
use super::model::Ruleset;
use crate::error::{Error, Result};
use serde_json::Value;
use sha2::{Digest, Sha256};

/// The canonical text of a resolved ruleset: the model serialised as compact JSON (fields in the
/// model's order, entries in the ruleset's, whole numbers whole). Comments, layout and the
/// file's format (.rules or YAML) do not change it; any value that can change a result does.
pub(crate) fn canonical(ruleset: &Ruleset) -> String {
    let mut tree = serde_json::to_value(ruleset).expect("a ruleset serialises");
    tidy_numbers(&mut tree);
    serde_json::to_string(&tree).expect("a value serialises")
}

/// The sha256 of the canonical form, 64 lowercase hex digits.
pub(crate) fn hash(ruleset: &Ruleset) -> String {
    let digest = Sha256::digest(canonical(ruleset).as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// A ruleset's name, version and hash, as seasons, tournaments and `--json` reports record them.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Identity {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    pub sha256: String,
}

impl Identity {
    pub fn of(ruleset: &Ruleset) -> Identity {
        Identity {
            name: ruleset.name.clone(),
            version: ruleset.version.clone(),
            sha256: hash(ruleset),
        }
    }

    /// Stamp a report (a JSON object) with the ruleset it was made under: `ruleset` (its name,
    /// unless the report already names it), `ruleset_version` and `ruleset_sha256`.
    pub(crate) fn stamp(&self, report: &mut Value) {
        if let Value::Object(map) = report {
            map.entry("ruleset")
                .or_insert_with(|| self.name.clone().into());
            map.insert("ruleset_version".into(), self.version.clone().into());
            map.insert("ruleset_sha256".into(), self.sha256.clone().into());
        }
    }

    /// "startrek 1.0.0 (sha256 1a2b3c4d…)" for messages.
    pub(crate) fn shown(&self) -> String {
        let version = self
            .version
            .as_deref()
            .map(|v| format!(" {v}"))
            .unwrap_or_default();
        format!(
            "{}{version} (sha256 {}…)",
            self.name,
            &self.sha256[..self.sha256.len().min(12)]
        )
    }
}

/// A warning when the rules a record (a season, a tournament) names are no longer the ones
/// it began under.
pub(crate) fn drift(record: &str, recorded: &Identity, now: &Ruleset) -> Option<String> {
    let now = Identity::of(now);
    (now.sha256 != recorded.sha256).then(|| {
        format!(
            "{record}: the ruleset has changed since it began: it was {}, it is now {}",
            recorded.shown(),
            now.shown()
        )
    })
}

/// A ruleset embedded in a record (`league new --embed-rules`): the rules language, whole (no
/// `extends`: a record from elsewhere must not make this machine read its files), and, when
/// the record says which hash it had, exactly that ruleset.
pub(crate) fn embedded(record: &str, text: &str, recorded: Option<&Identity>) -> Result<Ruleset> {
    let name = format!("{record} (its embedded rules)");
    let doc = super::lang::parse(&name, text)?;
    if doc.value.get("extends").is_some() {
        return Err(doc.error_at(
            "/extends",
            "embedded rules are self-contained: they cannot `extends` another ruleset",
        ));
    }
    let doc = doc.without_markers()?;
    let ruleset = super::load::ruleset_from_doc(&doc)?;
    if let Some(want) = recorded {
        let got = hash(&ruleset);
        if got != want.sha256 {
            return Err(Error::msg(format!(
                "{record}: its embedded rules are not the ruleset it records (sha256 {got}, \
                 recorded {}): the file has been altered",
                want.sha256
            )));
        }
    }
    Ok(ruleset)
}
