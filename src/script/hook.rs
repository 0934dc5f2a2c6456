//! Rule hooks: a rhai function that computes a rule the formula language cannot express.
//!
//! A ruleset names the file (`script { hooks { NAME = "file.rhai" } }`); the file defines
//! `fn NAME(...)`. Loading the ruleset compiles the file and runs its top level once, in the
//! sandbox (so a broken or hostile hook fails at load, with its file, line and column).
//! Scripts call it (`r.hook(rule, args)`); no engine offers a hook yet. One that does would
//! call it with serde data and get serde data back, with no rhai types in the engine:
//!
//! ```ignore
//! if let Some(hook) = arbiter::rules::script::hook(&ruleset, "tiebreak") {
//!     let order: Vec<String> = hook.call(&[serde_json::to_value(&standings)?])?;
//! }
//! ```
//!
//! The rules layer knows no script engine: [`install`] gives it this module's [`ScriptLayer`],
//! which checks a ruleset's script limits and compiles its hooks when the ruleset loads.
use super::api::convert::{dynamic_to_json, json_to_dynamic};
use super::errors;
use crate::error::{Error, Result, Source};
use crate::rules::model::Ruleset;
use crate::rules::{
    limits::LimitSettings,
    script::{CompiledRule, ScriptLayer, ScriptRules},
};
use crate::{pointer::pointer_push, rules::doc::Doc};
use rhai::{CallFnOptions, Dynamic, Engine, Scope, AST};
use serde::de::DeserializeOwned;
use std::sync::Arc;
use {
    super::sandbox::{self},
    crate::rules::limits::{Limits, SAFE},
};

/// A compiled hook, ready to call from any thread.
pub struct CompiledHook {
    /// The rule (and function) name.
    pub rule: String,
    source: Arc<Source>,
    engine: Engine,
    ast: AST,
    /// Constants and variables the script's top level left behind.
    scope: Scope<'static>,
    /// The parameters of each `fn RULE(...)` the file defines (one per arity).
    params: Vec<Vec<String>>,
}

impl std::fmt::Debug for CompiledHook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CompiledHook({} in {})", self.rule, self.source.name)
    }
}

impl CompiledHook {
    /// Compile `text` (read from `file`) and run its top level; it must define `fn RULE(...)`.
    pub fn compile(rule: &str, file: &str, text: &str, limits: &Limits) -> Result<CompiledHook> {
        let source = Arc::new(Source {
            name: file.to_string(),
            text: text.to_string(),
        });
        let engine = super::engine::pure_engine(limits);
        let mut ast = engine
            .compile(text)
            .map_err(|e| errors::parse_error(&source, &e))?;
        ast.set_source(file);
        if !ast.iter_functions().any(|f| f.name == rule) {
            let defined: Vec<String> = ast
                .iter_functions()
                .map(|f| format!("`{}`", f.name))
                .collect();
            return Err(Error::msg(format!(
                "{file}: a hook for rule `{rule}` must define `fn {rule}(...)`{}",
                if defined.is_empty() {
                    String::new()
                } else {
                    format!(" (it defines {})", defined.join(", "))
                }
            )));
        }
        let mut scope = Scope::new();
        sandbox::with_own_clock(|| engine.run_ast_with_scope(&mut scope, &ast))
            .map_err(|e| errors::eval_error(&source, &e))?;
        let mut params: Vec<Vec<String>> = ast
            .iter_functions()
            .filter(|f| f.name == rule)
            .map(|f| f.params.iter().map(|p| p.to_string()).collect())
            .collect();
        // Fewest first (rhai lists functions in no fixed order).
        params.sort_by_key(Vec::len);
        Ok(CompiledHook {
            rule: rule.to_string(),
            source,
            engine,
            ast,
            scope,
            params,
        })
    }

    /// Call the hook with arguments given as JSON values (`serde_json::to_value(&x)`), and read
    /// its result as `T`. Errors name the hook file, line and column.
    pub fn call<T: DeserializeOwned>(&self, args: &[serde_json::Value]) -> Result<T> {
        let result = self.call_dynamic(args.iter().map(json_to_dynamic).collect())?;
        let json = dynamic_to_json(&result).map_err(|e| {
            Error::msg(format!(
                "{}: hook `{}` returned {e}",
                self.source.name, self.rule
            ))
        })?;
        crate::rules::doc::Doc::new(json)
            .deserialize::<T>()
            .map_err(|e| {
                Error::msg(format!(
                    "{}: hook `{}` returned an unexpected value: {e}",
                    self.source.name, self.rule
                ))
            })
    }

    /// Call with script values (for callers that already hold them).
    pub fn call_dynamic(&self, args: Vec<Dynamic>) -> Result<Dynamic> {
        self.check_arguments(args.len())?;
        let mut scope = self.scope.clone();
        sandbox::with_own_clock(|| {
            self.engine.call_fn_with_options::<Dynamic>(
                CallFnOptions::new().eval_ast(false),
                &mut scope,
                &self.ast,
                &self.rule,
                args,
            )
        })
        .map_err(|e| {
            errors::eval_error(&self.source, &e).context(&format!("in hook `{}`", self.rule))
        })
    }
}

impl CompiledHook {
    /// A call with a number of arguments no `fn RULE` takes is a misuse of the hook, said as
    /// such (rhai would report `RULE` as an unknown function inside the hook file).
    fn check_arguments(&self, given: usize) -> Result<()> {
        if self.params.iter().any(|p| p.len() == given) {
            return Ok(());
        }
        let forms: Vec<String> = self
            .params
            .iter()
            .map(|p| format!("[{}]", p.join(", ")))
            .collect();
        let counts: Vec<String> = self.params.iter().map(|p| p.len().to_string()).collect();
        Err(Error::msg(format!(
            "hook `{rule}` ({file}) takes {} argument{}, not {given}: call it as \
             r.hook(\"{rule}\", {})",
            counts.join(" or "),
            if counts.len() == 1 && counts[0] == "1" {
                ""
            } else {
                "s"
            },
            forms.join(" or "),
            rule = self.rule,
            file = self.source.name,
        )))
    }
}

impl CompiledRule for CompiledHook {
    fn as_any(&self) -> &dyn std::any::Any {
        self
    }
}

/// Give the rules layer this module's checking and compiling of `script` sections.
pub fn install() {
    crate::rules::script::install_script_layer(&Layer);
}

struct Layer;

impl ScriptLayer for Layer {
    /// Check the limits, then compile every hook and run its top level in the sandbox.
    fn prepare(&self, script: &ScriptRules, doc: &Doc, pointer: &str) -> Result<()> {
        check_limits(&script.limits, doc, &pointer_push(pointer, "limits"))?;
        let limits = tightened(&script.limits);
        // The top levels share one bound: 64 hooks each spinning to its own time limit would
        // hold up a command loading the ruleset 64 times that. A script loading it is already
        // bounded by its own limits.
        let bound = crate::stop::current().unwrap_or_else(|| Arc::new(limits.bound()));
        crate::stop::enter(Some(bound), || {
            for (rule, hook) in &script.hooks {
                if hook.compiled().is_some() {
                    continue;
                }
                let p = pointer_push(&pointer_push(pointer, "hooks"), rule);
                let (shown, text) = ScriptRules::hook_text(doc, &p, &hook.file)?;
                let compiled = CompiledHook::compile(rule, &shown, &text, &limits)?;
                hook.set_compiled(Arc::new(compiled));
            }
            Ok(())
        })
    }
}

/// The hook for `rule` in a ruleset as this layer compiled it.
pub(crate) fn compiled(ruleset: &Ruleset, rule: &str) -> Option<Arc<dyn CompiledRule>> {
    crate::rules::script::hook(ruleset, rule).and_then(|h| h.compiled().cloned())
}

/// The safe defaults with a ruleset's settings applied (never looser than the defaults).
pub(crate) fn tightened(settings: &LimitSettings) -> Limits {
    let d = SAFE;
    let mine = Limits {
        max_operations: settings.max_operations.unwrap_or(d.max_operations),
        max_call_levels: settings.max_call_levels.unwrap_or(d.max_call_levels),
        max_expr_depth: settings.max_expr_depth.unwrap_or(d.max_expr_depth),
        max_function_expr_depth: settings
            .max_function_expr_depth
            .unwrap_or(d.max_function_expr_depth),
        max_string_size: settings.max_string_size.unwrap_or(d.max_string_size),
        max_array_size: settings.max_array_size.unwrap_or(d.max_array_size),
        max_map_size: settings.max_map_size.unwrap_or(d.max_map_size),
        max_variables: settings.max_variables.unwrap_or(d.max_variables),
        max_functions: settings.max_functions.unwrap_or(d.max_functions),
        max_seconds: settings.max_seconds.unwrap_or(d.max_seconds),
        max_memory_mb: settings.max_memory_mb.unwrap_or(d.max_memory_mb),
    };
    d.tightened(&mine)
}

/// The sandbox limits scripts run under with this ruleset.
pub(crate) fn limits(ruleset: &Ruleset) -> Limits {
    ruleset
        .script
        .as_ref()
        .map(|s| tightened(&s.limits))
        .unwrap_or(SAFE)
}

/// Each limit a ruleset sets must be above 0 and at most the safe default.
fn check_limits(settings: &LimitSettings, doc: &Doc, pointer: &str) -> Result<()> {
    let value = serde_json::to_value(settings).map_err(|e| Error::msg(e.to_string()))?;
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
                format!(
                    "`{name}` = {x} would loosen the sandbox: a ruleset may only tighten it (at \
                     most {safe})"
                ),
            ));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn limits_start_from_the_safe_defaults() {
        let settings = LimitSettings {
            max_operations: Some(500),
            ..Default::default()
        };
        let l = tightened(&settings);
        assert_eq!(l.max_operations, 500);
        assert_eq!(l.max_call_levels, SAFE.max_call_levels);
        assert!(LimitSettings::default().is_empty());
    }

    #[test]
    fn a_hook_computes_with_its_top_level_constants() {
        let h = CompiledHook::compile(
            "bonus",
            "b.rhai",
            "const STEP = 3;\nfn bonus(x) { if x > 10 { STEP * 2 } else { STEP } }",
            &Limits::default(),
        )
        .unwrap();
        assert_eq!(h.call::<i64>(&[json!(12)]).unwrap(), 6);
        assert_eq!(h.call::<i64>(&[json!(2)]).unwrap(), 3);
    }

    #[test]
    fn a_hook_without_its_function_is_refused() {
        let e = CompiledHook::compile("bonus", "b.rhai", "fn other() { 1 }", &Limits::default())
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("must define `fn bonus(...)`") && e.contains("`other`"),
            "{e}"
        );
    }

    #[test]
    fn a_call_with_the_wrong_number_of_arguments_says_what_the_hook_takes() {
        let h = CompiledHook::compile(
            "tiebreak",
            "t.rhai",
            "fn tiebreak(a, b) { a + b }\nfn tiebreak(a) { a }",
            &Limits::default(),
        )
        .unwrap();
        assert_eq!(h.call::<i64>(&[json!(2), json!(3)]).unwrap(), 5);
        assert_eq!(h.call::<i64>(&[json!(2)]).unwrap(), 2);
        let e = h.call::<i64>(&[]).unwrap_err().to_string();
        assert_eq!(
            e,
            "hook `tiebreak` (t.rhai) takes 1 or 2 arguments, not 0: call it as \
             r.hook(\"tiebreak\", [a] or [a, b])"
        );
    }

    #[test]
    fn a_hook_may_not_wait() {
        let h = CompiledHook::compile(
            "slow",
            "s.rhai",
            "fn slow() {\n  sleep(60);\n}",
            &Limits::default(),
        )
        .unwrap();
        let e = h.call::<()>(&[]).unwrap_err().to_string();
        assert!(
            e.contains("s.rhai:2:3") && e.contains("`sleep` is not available in a hook"),
            "{e}"
        );
    }

    #[test]
    fn recursion_to_the_call_limit_fits_an_ordinary_thread_stack() {
        // Engines may call hooks from worker threads with the default 2 MiB stack.
        let h = CompiledHook::compile(
            "deep",
            "d.rhai",
            "fn deep(n) { if n == 0 { 0 } else { 1 + deep(n - 1) } }",
            &Limits::default(),
        )
        .unwrap();
        let levels = Limits::default().max_call_levels as i64 - 2;
        let got = std::thread::Builder::new()
            .stack_size(2 * 1024 * 1024)
            .spawn(move || h.call::<i64>(&[json!(levels)]).unwrap())
            .unwrap()
            .join()
            .unwrap();
        assert_eq!(got, levels);
    }

    #[test]
    fn a_runaway_hook_stops_at_the_operation_limit() {
        let limits = Limits {
            max_operations: 10_000,
            ..Limits::default()
        };
        let h =
            CompiledHook::compile("spin", "s.rhai", "fn spin() {\n  loop { }\n}", &limits).unwrap();
        let e = h.call::<i64>(&[]).unwrap_err().to_string();
        assert!(
            e.contains("in hook `spin`: s.rhai") && e.contains("operation limit"),
            "{e}"
        );
    }
}
