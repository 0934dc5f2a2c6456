//! Scripting settings of a ruleset: sandbox limits it tightens, and rule hooks.
//!
//! ```text
//! script {
//!   limits { max_operations = 100000  max_seconds = 1 }   # may only tighten the safe defaults
//!   hooks { tiebreak = "tiebreak.rhai" }                  # file defines fn tiebreak(...)
//! }
//! ```
//!
//! This is the model only: the rules layer knows no script engine. Checking the limits against
//! the sandbox and compiling the hooks is the scripting layer's work, done through the
//! [`ScriptLayer`] it installs (`crate::script::hook::install`): a ruleset with a `script`
//! section is validated by it, so a broken or hostile hook fails when the ruleset loads. No
//! engine offers a hook yet; scripts call them (`r.hook(rule, args)`), and an engine that
//! offers one would call [`Hook::call`].
use super::limits::LimitSettings;
use super::model::Ruleset;
use crate::error::Result;
use indexmap::IndexMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::path::Path;
use std::sync::{Arc, OnceLock};
use {super::doc::Doc, crate::pointer::pointer_push};

/// Most hooks a ruleset may name: each is compiled and run when the ruleset loads.
pub(crate) const MAX_HOOKS: usize = 64;

#[derive(Debug, Clone, Default, Serialize, Deserialize, schemars::JsonSchema, PartialEq)]
#[serde(deny_unknown_fields)]
pub(crate) struct ScriptRules {
    /// Sandbox limits for scripts run with this ruleset and for its hooks.
    #[serde(default, skip_serializing_if = "LimitSettings::is_empty")]
    pub limits: LimitSettings,
    /// Rule name → rhai file defining `fn RULE(...)`.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub hooks: IndexMap<String, Hook>,
}

impl LimitSettings {
    pub(crate) fn is_empty(&self) -> bool {
        *self == LimitSettings::default()
    }
}

/// A rule hook: the rhai file as written, and (once the ruleset is loaded) its compiled form.
#[derive(Clone)]
pub(crate) struct Hook {
    pub file: String,
    compiled: Arc<OnceLock<Arc<dyn CompiledRule>>>,
}

/// A compiled hook, callable from any thread (the scripting layer's `CompiledHook`).
pub(crate) trait CompiledRule: Send + Sync + std::fmt::Debug {
    /// For the scripting layer, which calls its own hooks with script values.
    fn as_any(&self) -> &dyn std::any::Any;
}

/// What checks and compiles a ruleset's `script` section: implemented by the scripting layer,
/// which installs it with [`install_script_layer`].
pub(crate) trait ScriptLayer: Sync {
    /// Check `script`'s limits and compile its hooks not yet compiled ([`Hook::set_compiled`]);
    /// errors are placed in `doc` under `pointer`.
    fn prepare(&self, script: &ScriptRules, doc: &Doc, pointer: &str) -> Result<()>;
}

static SCRIPT_LAYER: OnceLock<&'static dyn ScriptLayer> = OnceLock::new();

/// Make rulesets with a `script` section loadable (the first call wins).
pub(crate) fn install_script_layer(layer: &'static dyn ScriptLayer) {
    let _ = SCRIPT_LAYER.set(layer);
}

impl Hook {
    pub(crate) fn new(file: impl Into<String>) -> Hook {
        Hook {
            file: file.into(),
            compiled: Arc::new(OnceLock::new()),
        }
    }

    /// The compiled hook; `None` only for a ruleset that was never validated.
    pub(crate) fn compiled(&self) -> Option<&Arc<dyn CompiledRule>> {
        self.compiled.get()
    }

    /// Keep the compiled form (the first one set stays).
    pub(crate) fn set_compiled(&self, compiled: Arc<dyn CompiledRule>) {
        let _ = self.compiled.set(compiled);
    }

    /// Keep another hook's compiled form if it names the same file (after a script edit).
    pub(crate) fn adopt(&self, other: &Hook) {
        if self.file == other.file {
            if let Some(c) = other.compiled() {
                let _ = self.compiled.set(c.clone());
            }
        }
    }
}

impl std::fmt::Debug for Hook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Hook({:?})", self.file)
    }
}

impl PartialEq for Hook {
    fn eq(&self, other: &Hook) -> bool {
        self.file == other.file
    }
}

impl Serialize for Hook {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_str(&self.file)
    }
}

impl<'de> Deserialize<'de> for Hook {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Hook, D::Error> {
        Ok(Hook::new(String::deserialize(d)?))
    }
}

impl ScriptRules {
    /// Check the number of hooks, then have the scripting layer check the limits and compile
    /// the hooks.
    pub(crate) fn validate(&self, doc: &Doc, pointer: &str) -> Result<()> {
        if self.hooks.len() > MAX_HOOKS {
            let p = pointer_push(
                &pointer_push(pointer, "hooks"),
                self.hooks
                    .keys()
                    .nth(MAX_HOOKS)
                    .expect("more than MAX_HOOKS"),
            );
            return Err(doc.error_at_key(&p, format!("more than {MAX_HOOKS} hooks in one ruleset")));
        }
        if self.limits.is_empty() && self.hooks.is_empty() {
            return Ok(());
        }
        match SCRIPT_LAYER.get() {
            Some(layer) => layer.prepare(self, doc, pointer),
            None => Err(doc.error_at(
                pointer,
                "script limits and hooks need the scripting layer, which this program lacks",
            )),
        }
    }

    /// The hook file for `rule` as found beside the file that names it (at `pointer`), and that
    /// file's folder: checked against the read policy, then read.
    pub(crate) fn hook_text(doc: &Doc, pointer: &str, file: &str) -> Result<(String, String)> {
        let (path, beside) = hook_path(doc, pointer, file)?;
        let shown = path.display().to_string();
        // Checked before it is opened, and the opened file again: a refused file's bytes never
        // reach a message. A hook is always named by a file, so it may sit only beside it (or
        // wherever the policy in force allows).
        let beside = beside.unwrap_or_else(|| std::path::PathBuf::from("."));
        let permit =
            crate::io::policy::permit(&path, crate::io::policy::Kind::Script, Some(&beside))
                .map_err(|e| e.placed_at(doc, pointer))?;
        let text = permit.read_text().map_err(|e| e.placed_at(doc, pointer))?;
        Ok((shown, text))
    }

    /// The hook for a rule, if the ruleset has one.
    pub(crate) fn hook(&self, rule: &str) -> Option<&Hook> {
        self.hooks.get(rule)
    }

    /// Reuse the compiled hooks of an earlier version of the same ruleset.
    pub(crate) fn adopt_hooks(&self, earlier: &ScriptRules) {
        for (rule, hook) in &self.hooks {
            if let Some(old) = earlier.hooks.get(rule) {
                hook.adopt(old);
            }
        }
    }
}

/// The hook for `rule` in a ruleset, if it names one: what engines call.
pub(crate) fn hook<'a>(ruleset: &'a Ruleset, rule: &str) -> Option<&'a Hook> {
    ruleset.script.as_ref()?.hook(rule)
}

/// A hook file relative to the file that names it, and that file's folder.
fn hook_path(
    doc: &Doc,
    pointer: &str,
    file: &str,
) -> Result<(std::path::PathBuf, Option<std::path::PathBuf>)> {
    let named_in = doc.place(pointer).map(|p| p.value.source.name.clone());
    if let Some(name) = &named_in {
        if name.starts_with("<built-in") {
            return Err(doc.error_at(pointer, "a built-in ruleset cannot name hook files"));
        }
    }
    let file_path = Path::new(file);
    let dir = named_in.as_deref().map(Path::new).and_then(|p| p.parent());
    let path = match dir {
        Some(dir) if file_path.is_relative() => dir.join(file_path),
        _ => file_path.to_path_buf(),
    };
    // The naming file's folder ("." for a file named without one), where its hooks may sit.
    let beside = dir.map(|d| {
        if d.as_os_str().is_empty() {
            Path::new(".")
        } else {
            d
        }
    });
    Ok((path, beside.map(Path::to_path_buf)))
}

/// A hook is named by its script file.
impl schemars::JsonSchema for Hook {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Hook".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "type": "string",
            "description": "A rhai script file, relative to the ruleset's folder.",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rulesets_with_hooks_can_be_shared_across_threads() {
        fn shareable<T: Send + Sync>() {}
        shareable::<Ruleset>();
        shareable::<Hook>();
    }
}
