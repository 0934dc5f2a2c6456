//! Evaluating scripts in a session: `arbiter run`, and each REPL entry.
use super::engine::{session_engine, Session};
use super::errors;
use super::sandbox;
use crate::error::{Result, Source};
use rhai::{Dynamic, Engine, Scope, AST};
use std::collections::HashMap;
use std::sync::Arc;

/// A session's engine and state: variables and functions persist from one evaluation to the next.
pub struct Runner {
    pub session: Session,
    engine: Engine,
    scope: Scope<'static>,
    /// Functions defined so far (a REPL entry may call one defined earlier).
    functions: AST,
    /// The text each script function was defined in (its latest definition), so an error
    /// inside a function from an earlier entry shows that entry's line.
    defined_in: HashMap<String, Arc<Source>>,
    /// The status a script asked to end with (`exit(N)`), once it has.
    pub exit_code: Option<i32>,
}

/// What `exit(N)` raises: not an error, a request to end with status N.
#[derive(Debug, Clone, Copy)]
struct ExitRequest(i32);

impl Runner {
    pub fn new(session: Session) -> Runner {
        let mut engine = session_engine(&session);
        register_exit(&mut engine);
        let mut scope = Scope::new();
        if let Ok(r) = session.current() {
            scope.push("r", r);
        }
        Runner {
            session,
            engine,
            scope,
            functions: AST::empty(),
            defined_in: HashMap::new(),
            exit_code: None,
        }
    }

    /// Set a variable the next evaluations see.
    pub(crate) fn set_var(&mut self, name: &str, value: impl Into<Dynamic>) {
        self.scope.set_or_push(name.to_string(), value.into());
    }

    /// Set a constant the next evaluations see.
    pub(crate) fn set_constant(&mut self, name: &str, value: impl Into<Dynamic>) {
        self.scope
            .push_constant_dynamic(name.to_string(), value.into());
    }

    /// The value of a variable, if the session has one by that name.
    pub(crate) fn var(&self, name: &str) -> Option<Dynamic> {
        self.scope.get_value::<Dynamic>(name)
    }

    /// Every ruleset the session's variables hold (for completion of ship names).
    pub(crate) fn rulesets(&self) -> Vec<super::handle::RulesHandle> {
        let mut found: Vec<super::handle::RulesHandle> = Vec::new();
        for (_, _, value) in self.scope.iter_raw() {
            if let Some(r) = value.clone().try_cast::<super::handle::RulesHandle>() {
                if !found.iter().any(|f| f.same_as(&r)) {
                    found.push(r);
                }
            }
        }
        found
    }

    /// Names of variables and functions defined so far (for completion).
    pub(crate) fn defined_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.scope.iter_raw().map(|(n, ..)| n.to_string()).collect();
        names.extend(self.functions.iter_functions().map(|f| f.name.to_string()));
        names
    }

    /// Compile and evaluate `text` (named `name` in errors) in the sandbox, on a thread with a
    /// stack deep enough for the call-level limit, under the session's read policy and a bound
    /// on time and memory that engine calls share.
    pub fn eval(&mut self, name: &str, text: &str) -> Result<Dynamic> {
        let policy = Some(self.session.policy.clone());
        let bound = Some(Arc::new(self.session.limits.bound()));
        let limits = self.session.limits;
        sandbox::on_big_stack(|| {
            crate::io::policy::enter(policy, || {
                crate::stop::enter(bound, || self.eval_here(name, text))
            })
        })
        .map_err(|e| with_limit_advice(e, &limits))
    }

    fn eval_here(&mut self, name: &str, text: &str) -> Result<Dynamic> {
        let source = Arc::new(Source {
            name: name.to_string(),
            text: text.to_string(),
        });
        let rewritten = super::sugar::ship_calls_as_index(text);
        let mut ast = self
            .engine
            .compile_with_scope(&self.scope, &rewritten)
            .map_err(|e| errors::parse_error(&source, &e))?;
        ast.set_source(name);
        for f in ast.iter_functions() {
            self.defined_in.insert(f.name.to_string(), source.clone());
        }
        let mut whole = self.functions.clone();
        whole += ast;
        // Functions the script passes to the engine (a tactic) are called from this AST.
        self.session.set_functions(super::engine::ScriptFunctions {
            ast: Arc::new(whole.clone_functions_only()),
            sources: self.defined_in.clone(),
        });
        sandbox::start_clock();
        let result = self
            .engine
            .eval_ast_with_scope::<Dynamic>(&mut self.scope, &whole);
        // Keep the functions even if the statements failed: they compiled.
        whole.clear_statements();
        self.functions = whole;
        if let Some(code) = result.as_ref().err().and_then(|e| exit_request(e)) {
            self.exit_code = Some(code);
            return Ok(Dynamic::UNIT);
        }
        result.map_err(|e| {
            let from = innermost_function(&e)
                .and_then(|f| self.defined_in.get(f))
                .unwrap_or(&source);
            errors::eval_error(from, &e)
        })
    }
}

/// `exit(N)` ends the script (the REPL session, `arbiter run`) with status N (0 to 255).
fn register_exit(engine: &mut Engine) {
    fn request(code: rhai::INT) -> std::result::Result<Dynamic, Box<rhai::EvalAltResult>> {
        match i32::try_from(code) {
            Ok(c) if (0..=255).contains(&c) => Err(Box::new(rhai::EvalAltResult::ErrorRuntime(
                Dynamic::from(ExitRequest(c)),
                rhai::Position::NONE,
            ))),
            _ => Err(super::api::convert::script_error(format!(
                "exit({code}): an exit status is 0 to 255"
            ))),
        }
    }
    engine.register_fn("exit", request);
    engine.register_fn("exit", || request(0));
    engine.register_fn(
        "exit",
        |value: Dynamic| -> std::result::Result<Dynamic, Box<rhai::EvalAltResult>> {
            Err(super::api::convert::script_error(format!(
                "exit({value}): an exit status is a whole number, 0 to 255"
            )))
        },
    );
}

/// The status of an `exit(N)`, however deep in function calls it was made.
fn exit_request(e: &rhai::EvalAltResult) -> Option<i32> {
    let mut inner = e;
    while let rhai::EvalAltResult::ErrorInFunctionCall(_, _, next, _) = inner {
        inner = next;
    }
    match inner {
        rhai::EvalAltResult::ErrorRuntime(v, _) => v.clone().try_cast::<ExitRequest>().map(|r| r.0),
        _ => None,
    }
}

/// The innermost script function an error happened in, if any.
fn innermost_function(e: &rhai::EvalAltResult) -> Option<&str> {
    let mut inner = e;
    let mut found = None;
    while let rhai::EvalAltResult::ErrorInFunctionCall(name, _, next, _) = inner {
        found = Some(name.as_str());
        inner = next;
    }
    found
}

/// What `arbiter run` needs.
pub(crate) struct RunOptions {
    pub script: String,
    /// Limits the person running it set (`--max-seconds`, `--max-memory`).
    pub limits: ChosenLimits,
    pub rules: Option<String>,
    pub allow_write: bool,
    /// Folders the script may read besides its own and the current one (`--allow-read`).
    pub allow_read: Vec<String>,
    pub args: Vec<String>,
}

/// Run a script file: `ARGS` holds its arguments, `r` (and `rules()`) the `--rules` ruleset.
/// Returns the status the script asked to end with (`exit(N)`), 0 if it did not.
pub(crate) fn run_file(options: &RunOptions) -> Result<i32> {
    let text = crate::io::read_text(&options.script)?;
    let mut policy = crate::io::policy::Policy::for_script(&options.script);
    for dir in &options.allow_read {
        policy.allow_read(dir)?;
    }
    // What the person typed is theirs to name: the ruleset and the script's arguments.
    for named in options.rules.iter().chain(&options.args) {
        policy.allow_named(named);
    }
    let writes = super::writes::Writes::new(options.allow_write, false);
    let session = session_for(options.rules.as_deref(), policy, writes, options.limits)?;
    let mut runner = Runner::new(session);
    let args: rhai::Array = options.args.iter().cloned().map(Dynamic::from).collect();
    runner.set_constant("ARGS", args);
    let _ = runner.eval(&options.script, &text)?;
    Ok(runner.exit_code.unwrap_or(0))
}

/// A session's own time or memory limit, hit: say how to raise it (run and the REPL are the
/// command line's, so the advice names its options).
fn with_limit_advice(
    e: crate::error::Error,
    limits: &crate::rules::limits::Limits,
) -> crate::error::Error {
    let text = e.to_string();
    let time = crate::stop::Reason::Time {
        limit_seconds: limits.max_seconds.max(0.001),
    };
    let memory = crate::stop::Reason::Memory {
        limit_mb: limits.max_memory_mb.max(1),
    };
    if text.contains(&time.message()) {
        e.hint("; --max-seconds raises it")
    } else if text.contains(&memory.message()) {
        e.hint("; --max-memory raises it")
    } else {
        e
    }
}

/// Time and memory limits the person running a script chose on the command line. They are
/// theirs to raise or lower: they replace the defaults and a ruleset's `script.limits` for the
/// session's own evaluations (a ruleset's hooks and tactics keep the ruleset's limits per call).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub(crate) struct ChosenLimits {
    pub max_seconds: Option<f64>,
    pub max_memory_mb: Option<u64>,
}

/// The most a person may ask for: an hour of CPU time and 64 GB.
pub(crate) const MOST_SECONDS: f64 = 3600.0;
pub(crate) const MOST_MEMORY_MB: u64 = 65_536;

impl ChosenLimits {
    /// `limits` with the chosen values in place.
    pub(crate) fn over(
        self,
        mut limits: crate::rules::limits::Limits,
    ) -> crate::rules::limits::Limits {
        if let Some(s) = self.max_seconds {
            limits.max_seconds = s;
        }
        if let Some(m) = self.max_memory_mb {
            limits.max_memory_mb = m;
        }
        limits
    }
}

/// A session with an optional ruleset: its limits are the defaults tightened by that ruleset's
/// `script.limits`, then the ones the person chose.
pub(crate) fn session_for(
    rules: Option<&str>,
    policy: crate::io::policy::Policy,
    writes: super::writes::Writes,
    chosen: ChosenLimits,
) -> Result<Session> {
    // The session's ruleset is read under the session's policy: what it extends or hooks is
    // held to the same places as what the script reads.
    let within = Some(std::sync::Arc::new(policy.clone()));
    let handle = match rules {
        Some(r) => Some(crate::io::policy::enter(within, || {
            super::handle::RulesHandle::load(r)
        })?),
        None => None,
    };
    let limits = chosen.over(super::engine::limits_for(handle.as_ref()));
    let session = Session::with_policy(policy, writes, limits);
    if let Some(h) = handle {
        session.set_current(h);
    }
    Ok(session)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runner() -> Runner {
        Runner::new(Session::new(false, crate::rules::limits::SAFE))
    }

    #[test]
    fn variables_and_functions_persist_between_entries() {
        let mut r = runner();
        r.eval("<1>", "let x = 4; fn twice(v) { v * 2 }")
            .map(|_| ())
            .unwrap();
        let v = r.eval("<2>", "twice(x) + 1").unwrap();
        assert_eq!(v.as_int().unwrap(), 9);
    }

    #[test]
    fn an_error_in_an_earlier_function_shows_that_entry() {
        let mut r = runner();
        r.eval("<1>", "fn bad(v) {\n  v / 0\n}")
            .map(|_| ())
            .unwrap();
        let e = r.eval("<2>", "bad(1)").unwrap_err().to_string();
        assert!(e.starts_with("<1>:2:5: "), "{e}");
    }

    #[test]
    fn a_ship_edit_through_a_chain_writes_back() {
        let mut r = runner();
        let v = r
            .eval(
                "<1>",
                "let r = rules(\"startrek\"); r.ship(\"UFP heavy cruiser\").shields = 9; \
                 r.get(\"ships.UFP heavy cruiser.shields\")",
            )
            .unwrap();
        assert_eq!(v.as_int().unwrap(), 9);
    }
}
