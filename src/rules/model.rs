//! The ruleset model: one structure every engine reads its numbers from.
//!
//! Each engine's section lives in its own file; this one ties them together.
use super::combat::CombatRules;
use super::doc::Doc;
use super::league::LeagueRules;
use super::scoring::ScoringRules;
use super::script::ScriptRules;
use super::ship::Ship;
use super::swiss::SwissRules;
use super::tactic::TacticRules;
use crate::error::Result;
use indexmap::IndexMap;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Ruleset {
    /// The ruleset's name, as `rules list` and `--rules` know it.
    pub name: String,
    /// The ruleset's version, MAJOR.MINOR.PATCH (semver): raise it when a change alters
    /// results, so `extends NAME version ">=1.2"` can ask for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<String>,
    /// What the ruleset is for, in a sentence or two (shown by `rules list`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub description: String,
    /// Where the numbers come from (a source document, a club's house rules).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub source: String,
    /// Ships (or any playing pieces with stats), by name.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub ships: IndexMap<String, Ship>,
    /// How games are scored and players rated (`arbiter score`, `arbiter rate`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scoring: Option<ScoringRules>,
    /// League play: scheduling, league points and tie-breakers (`arbiter league`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) league: Option<LeagueRules>,
    /// Swiss tournaments: the pairing system, points and tie-breaks (`arbiter swiss`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub swiss: Option<SwissRules>,
    /// Starship combat: every number the combat engine uses (`arbiter combat`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) combat: Option<CombatRules>,
    /// The default combat tactic's play style.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) tactic: Option<TacticRules>,
    /// Scripting: sandbox limits and rule hooks written in rhai.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) script: Option<ScriptRules>,
}

impl Ruleset {
    /// Checks that types alone cannot express: formula variables, names that refer to
    /// other parts of the ruleset, sensible ranges. Errors point into `doc`.
    pub(crate) fn validate(&self, doc: &Doc) -> Result<()> {
        let printable = |kind: &str, name: &str, pointer: &str| {
            crate::names::check_printable(kind, name)
                .map_err(|e| doc.error_at(pointer, e.message()))
        };
        printable("ruleset", &self.name, "/name")?;
        if let Some(v) = &self.version {
            printable("version", v, "/version")?;
            super::pin::parse_version(v).map_err(|m| doc.error_at("/version", m))?;
        }
        self.check_unique_ship_names(doc)?;
        for (name, ship) in &self.ships {
            let pointer = crate::pointer::pointer_push("/ships", name);
            // Combat stats (victory points aside) are summed and multiplied in 32 bits.
            super::ranges::at_most(
                doc,
                &pointer,
                super::ranges::MAX_COMBAT_NUMBER,
                &["value", "structure"],
            )?;
            ship.validate(doc, &pointer)?;
        }
        if let Some(s) = &self.scoring {
            s.validate(self, doc, "/scoring")?;
        }
        if let Some(l) = &self.league {
            l.validate(doc, "/league")?;
        }
        if let Some(s) = &self.swiss {
            s.validate(doc, "/swiss")?;
        }
        if let Some(c) = &self.combat {
            c.validate(self, doc, "/combat")?;
        }
        if let Some(t) = &self.tactic {
            t.validate(doc, "/tactic")?;
        }
        if let Some(s) = &self.script {
            s.validate(doc, "/script")?;
        }
        Ok(())
    }

    /// Ship names and aliases must differ even ignoring case and accents, or lookups would guess.
    fn check_unique_ship_names(&self, doc: &Doc) -> Result<()> {
        let mut seen: std::collections::HashMap<String, &str> = std::collections::HashMap::new();
        for (key, ship) in &self.ships {
            let pointer = crate::pointer::pointer_push("/ships", key);
            for (i, name) in std::iter::once(key).chain(ship.aliases.iter()).enumerate() {
                if let Err(e) = crate::names::check_printable("ship", name) {
                    let at = if i == 0 {
                        pointer.clone()
                    } else {
                        crate::pointer::pointer_push(&pointer, "aliases")
                    };
                    return Err(doc.error_at_key(&at, e.message()));
                }
                let n = crate::names::normalize(name);
                if let Some(owner) = seen.get(&n) {
                    let at = if i == 0 {
                        pointer.clone()
                    } else {
                        crate::pointer::pointer_push(&pointer, "aliases")
                    };
                    return Err(doc.error_at_key(
                        &at,
                        format!("the name `{name}` is already used by ship `{owner}`"),
                    ));
                }
                seen.insert(n, key);
            }
        }
        Ok(())
    }

    /// A ship by name or alias, matched ignoring case and accents.
    pub(crate) fn ship(&self, name: &str) -> Result<(&str, &Ship)> {
        self.ship_key(name)
            .map(|k| {
                let (k, s) = self.ships.get_key_value(k).expect("key found");
                (k.as_str(), s)
            })
            .ok_or_else(|| {
                let mut known: Vec<&str> = self.ships.keys().map(|s| s.as_str()).collect();
                let aliases: Vec<&str> = self
                    .ships
                    .values()
                    .flat_map(|s| s.aliases.iter().map(|a| a.as_str()))
                    .collect();
                let message = crate::names::unknown("ship", name, &known);
                known.extend(aliases);
                let hint = crate::names::suggestion(name, known.iter().copied());
                crate::error::Error::msg(if message.contains("did you mean") || hint.is_empty() {
                    format!("{message} (in ruleset `{}`)", self.name)
                } else {
                    format!("unknown ship `{name}`{hint} (in ruleset `{}`)", self.name)
                })
            })
    }

    /// The ruleset's own key for a ship name or alias.
    pub(crate) fn ship_key(&self, name: &str) -> Option<&str> {
        if let Some((k, _)) = self.ships.get_key_value(name) {
            return Some(k.as_str());
        }
        let wanted = crate::names::normalize(name);
        let same = |other: &str| crate::names::normalize(other) == wanted;
        self.ships
            .iter()
            .find(|(k, s)| same(k) || s.aliases.iter().any(|a| same(a)))
            .map(|(k, _)| k.as_str())
    }
}
