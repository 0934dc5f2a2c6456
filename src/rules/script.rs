//! Scripting settings of a ruleset: sandbox limits it tightens, and rule hooks.
//!
//! ```text
//! script {
//!   limits { max_operations = 100000  max_seconds = 1 }   # may only tighten the safe defaults
//!   hooks { tiebreak = "tiebreak.rhai" }                  # file defines fn tiebreak(...)
//! }
//! ```
//!
//! Hook files are found relative to the ruleset file that names them. Loading the ruleset
//! compiles each hook and runs its top level in the sandbox; an engine that offers a hook
//! calls it with `hook(&ruleset, "tiebreak")` (see `crate::script::hook`).
use super::doc::{pointer_push, Doc};
use super::model::Ruleset;
use crate::error::{Error, Result};
use crate::script::hook::CompiledHook;
use crate::script::sandbox::{Limits, SAFE};
use indexmap::IndexMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// Most hooks a ruleset may name: each is compiled and run when the ruleset loads.
pub const MAX_HOOKS: usize = 64;

#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ScriptRules {
    /// Sandbox limits for scripts run with this ruleset and for its hooks.
    #[serde(default, skip_serializing_if = "LimitSettings::is_empty")]
    pub limits: LimitSettings,
    /// Rule name → rhai file defining `fn RULE(...)`.
    #[serde(default, skip_serializing_if = "IndexMap::is_empty")]
    pub hooks: IndexMap<String, Hook>,
}

macro_rules! declare_limit_settings {
    ($( $(#[$doc:meta])* $name:ident: $type:ty = $safe:expr, )*) => {
        /// Limits a ruleset sets; each may only be at most the safe default.
        #[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq)]
        #[serde(deny_unknown_fields)]
        pub struct LimitSettings {
            $(
                $(#[$doc])*
                #[serde(default, skip_serializing_if = "Option::is_none")]
                pub $name: Option<$type>,
            )*
        }

        impl LimitSettings {
            /// The safe defaults with these settings applied (never looser than the defaults).
            pub fn limits(&self) -> Limits {
                let mine = Limits { $( $name: self.$name.unwrap_or(SAFE.$name), )* };
                SAFE.tightened(&mine)
            }
        }
    };
}
crate::script::sandbox::sandbox_limits!(declare_limit_settings);

impl LimitSettings {
    pub fn is_empty(&self) -> bool {
        *self == LimitSettings::default()
    }

    fn validate(&self, doc: &Doc, pointer: &str) -> Result<()> {
        let value = serde_json::to_value(self).map_err(|e| Error::msg(e.to_string()))?;
        let Some(set) = value.as_object() else {
            return Ok(());
        };
        for (name, v) in set {
            let p = pointer_push(pointer, name);
            let x = v.as_f64().unwrap_or(0.0);
            let safe = SAFE.get(name).unwrap_or(0.0);
            if x <= 0.0 {
                return Err(doc.error_at(&p, format!("`{name}` must be above 0")));
            }
            if x > safe {
                return Err(doc.error_at(
                    &p,
                    format!("`{name}` = {x} would loosen the sandbox: a ruleset may only tighten it (at most {safe})"),
                ));
            }
        }
        Ok(())
    }
}

/// A rule hook: the rhai file as written, and (once the ruleset is loaded) its compiled form.
#[derive(Clone)]
pub struct Hook {
    pub file: String,
    compiled: Arc<OnceLock<Arc<CompiledHook>>>,
}

impl Hook {
    pub fn new(file: impl Into<String>) -> Hook {
        Hook {
            file: file.into(),
            compiled: Arc::new(OnceLock::new()),
        }
    }

    /// The compiled hook; `None` only for a ruleset that was never validated.
    pub fn compiled(&self) -> Option<&Arc<CompiledHook>> {
        self.compiled.get()
    }

    /// Call the hook with JSON arguments and read its result (see `CompiledHook::call`).
    pub fn call<T: serde::de::DeserializeOwned>(&self, args: &[serde_json::Value]) -> Result<T> {
        match self.compiled() {
            Some(h) => h.call(args),
            None => Err(Error::msg(format!(
                "hook file {} was not loaded (the ruleset was not validated)",
                self.file
            ))),
        }
    }

    /// Keep another hook's compiled form if it names the same file (after a script edit).
    pub fn adopt(&self, other: &Hook) {
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
    /// Check the limits, then compile every hook and run its top level in the sandbox.
    pub fn validate(&self, doc: &Doc, pointer: &str) -> Result<()> {
        self.limits
            .validate(doc, &pointer_push(pointer, "limits"))?;
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
        let limits = self.limits.limits();
        for (rule, hook) in &self.hooks {
            if hook.compiled().is_some() {
                continue;
            }
            let p = pointer_push(&pointer_push(pointer, "hooks"), rule);
            let (path, beside) = hook_path(doc, &p, &hook.file)?;
            let shown = path.display().to_string();
            // Checked before it is opened: a refused file's bytes never reach a message.
            crate::io::policy::check_hook(&path, beside.as_deref())
                .map_err(|e| doc.error_at(&p, e.to_string()))?;
            let text = super::load::read_text(&shown).map_err(|e| match e {
                Error::Plain(m) => doc.error_at(&p, m),
                located => located,
            })?;
            let compiled = CompiledHook::compile(rule, &shown, &text, &limits)?;
            let _ = hook.compiled.set(Arc::new(compiled));
        }
        Ok(())
    }

    /// The hook for a rule, if the ruleset has one.
    pub fn hook(&self, rule: &str) -> Option<&Hook> {
        self.hooks.get(rule)
    }

    /// Reuse the compiled hooks of an earlier version of the same ruleset.
    pub fn adopt_hooks(&self, earlier: &ScriptRules) {
        for (rule, hook) in &self.hooks {
            if let Some(old) = earlier.hooks.get(rule) {
                hook.adopt(old);
            }
        }
    }
}

/// The hook for `rule` in a ruleset, if it names one: what engines call.
pub fn hook<'a>(ruleset: &'a Ruleset, rule: &str) -> Option<&'a Hook> {
    ruleset.script.as_ref()?.hook(rule)
}

/// The sandbox limits scripts run under with this ruleset.
pub fn limits(ruleset: &Ruleset) -> Limits {
    ruleset
        .script
        .as_ref()
        .map(|s| s.limits.limits())
        .unwrap_or(SAFE)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rulesets_with_hooks_can_be_shared_across_threads() {
        fn shareable<T: Send + Sync>() {}
        shareable::<Ruleset>();
        shareable::<Hook>();
    }

    #[test]
    fn limits_start_from_the_safe_defaults() {
        let settings = LimitSettings {
            max_operations: Some(500),
            ..Default::default()
        };
        let l = settings.limits();
        assert_eq!(l.max_operations, 500);
        assert_eq!(l.max_call_levels, SAFE.max_call_levels);
        assert!(LimitSettings::default().is_empty());
    }
}
