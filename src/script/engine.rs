//! Building the sandboxed rhai engine, and the session state its functions share.
use super::api;
use super::handle::RulesHandle;
use crate::error::{Error, Result};
use crate::rules::limits::{Limits, SAFE};
use rhai::Engine;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};

/// What a script session shares with its functions.
#[derive(Clone)]
pub struct Session {
    /// Whether `r.save(path)` may write (`--allow-write`; in the REPL, also after asking).
    pub allow_write: bool,
    /// The limits every evaluation runs under.
    pub limits: Limits,
    /// The files the session's scripts may read.
    pub policy: Arc<crate::io::policy::Policy>,
    /// What the session may write, and what it wrote.
    pub(crate) writes: Arc<super::writes::Writes>,
    current: Arc<RwLock<Option<RulesHandle>>>,
    /// The functions the running script has defined so far (for tactics it passes by name).
    functions: Arc<RwLock<Option<ScriptFunctions>>>,
}

/// A script's own functions, compiled, with the text each was defined in (for error places).
#[derive(Clone)]
pub(crate) struct ScriptFunctions {
    pub ast: Arc<rhai::AST>,
    pub sources: std::collections::HashMap<String, Arc<crate::error::Source>>,
}

impl Session {
    /// A session reading only in the current folder, writing with `allow_write`.
    pub fn new(allow_write: bool, limits: Limits) -> Session {
        Session::with_policy(
            crate::io::policy::Policy::current_folder(),
            super::writes::Writes::new(allow_write, false),
            limits,
        )
    }

    pub(crate) fn with_policy(
        policy: crate::io::policy::Policy,
        writes: super::writes::Writes,
        limits: Limits,
    ) -> Session {
        // Rulesets a script loads may name hooks: this layer compiles them.
        super::hook::install();
        Session {
            allow_write: writes.allowed(),
            limits,
            policy: Arc::new(policy),
            writes: Arc::new(writes),
            current: Arc::new(RwLock::new(None)),
            functions: Arc::new(RwLock::new(None)),
        }
    }

    /// The session's ruleset (`--rules`, `:rules`), for API functions called without one.
    pub(crate) fn current(&self) -> Result<RulesHandle> {
        self.current
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
            .ok_or_else(|| {
                Error::msg(
                    "no ruleset chosen: start with --rules NAME, use :rules NAME, or call \
                     rules(\"NAME\")",
                )
            })
    }

    pub(crate) fn has_current(&self) -> bool {
        self.current
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .is_some()
    }

    pub(crate) fn set_current(&self, rules: RulesHandle) {
        *self.current.write().unwrap_or_else(|p| p.into_inner()) = Some(rules);
    }

    /// Record the functions the script being evaluated defines (done before each evaluation).
    pub(crate) fn set_functions(&self, functions: ScriptFunctions) {
        *self.functions.write().unwrap_or_else(|p| p.into_inner()) = Some(functions);
    }

    /// The functions the running script has defined, if any.
    pub(crate) fn functions(&self) -> Option<ScriptFunctions> {
        self.functions
            .read()
            .unwrap_or_else(|p| p.into_inner())
            .clone()
    }

    /// Ship names of the current ruleset (for completion).
    pub(crate) fn ship_names(&self) -> Vec<String> {
        self.current().map(|r| r.ship_names()).unwrap_or_default()
    }
}

/// A bare sandboxed engine: rhai's standard library, no modules, no file access, the limits.
pub(crate) fn sandboxed(limits: &Limits) -> Engine {
    // `no_module` leaves the engine without a module resolver: `import` cannot load anything.
    let mut engine = Engine::new();
    limits.apply(&mut engine);
    // Output goes to the program's standard output; a closed pipe ends the program quietly.
    engine.on_print(print_line);
    engine.on_debug(|text, source, pos| {
        let place = match (source, pos.line()) {
            (Some(s), Some(l)) => format!("{s}:{l}: "),
            (None, Some(l)) => format!("line {l}: "),
            _ => String::new(),
        };
        eprintln!("{place}{text}");
    });
    // rhai's `sleep` would wait past every limit: a bare sandbox (hooks, tactics) never waits.
    super::wait::forbid(&mut engine);
    engine
}

/// The engine rule hooks run in: the sandbox and the functions that need no session.
pub(crate) fn pure_engine(limits: &Limits) -> Engine {
    let mut engine = sandboxed(limits);
    api::register_pure(&mut engine, limits);
    engine
}

/// The engine of a script session (`arbiter run`, the REPL): every API function.
pub fn session_engine(session: &Session) -> Engine {
    let mut engine = sandboxed(&session.limits);
    // A script may wait, on its time limit.
    super::wait::charge(&mut engine, &session.limits);
    api::register_all(&mut engine, session);
    engine
}

/// The limits for a session with an optional ruleset: the safe defaults, tightened by it.
pub(crate) fn limits_for(rules: Option<&RulesHandle>) -> Limits {
    rules
        .map(|r| r.with(crate::script::hook::limits))
        .unwrap_or(SAFE)
}

/// Whether standard output carries a protocol (the language server's), where a line a hook
/// prints would break the next message: then `print` goes to standard error.
static PRINT_TO_STDERR: AtomicBool = AtomicBool::new(false);

/// Send every script's `print` to standard error from now on.
pub(crate) fn print_to_stderr() {
    PRINT_TO_STDERR.store(true, Ordering::Relaxed);
}

/// Print a line to standard output; a closed pipe (`| head`) ends the program quietly, any
/// other failure (a full disk) ends it with an error: output that was asked for and lost is
/// not a success.
pub(crate) fn print_line(text: &str) {
    if PRINT_TO_STDERR.load(Ordering::Relaxed) {
        eprintln!("{text}");
        return;
    }
    let mut out = std::io::stdout().lock();
    if let Err(e) = writeln!(out, "{text}").and_then(|_| out.flush()) {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            std::process::exit(0);
        }
        eprintln!("error: cannot write to standard output: {e}");
        std::process::exit(1);
    }
}
