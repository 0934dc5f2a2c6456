//! The sandbox: limits every script runs under, whoever wrote it.
//!
//! The crate is built with rhai's `no_module` feature, so there is no `import` and no module
//! resolver; scripts reach files only through the API functions (which read rulesets and game
//! records, and write a ruleset only when the session allows it). What is left to bound is
//! work and memory, and that is what these limits do.
use rhai::{Dynamic, Engine};
use std::cell::Cell;
use std::time::{Duration, Instant};

/// Limits on one evaluation (a script, a REPL entry, one call of a hook or tactic).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Limits {
    /// Operations (rhai's unit of work: a statement, an expression step, a call).
    pub max_operations: u64,
    /// Nested function calls (recursion depth).
    pub max_call_levels: usize,
    /// Nesting of expressions and statements at the top level of a script.
    pub max_expr_depth: usize,
    /// Nesting of expressions and statements inside functions.
    pub max_function_expr_depth: usize,
    /// Bytes in one string (strings inside an array or map count together).
    pub max_string_size: usize,
    /// Elements in one array (nested arrays count together).
    pub max_array_size: usize,
    /// Entries in one object map (nested maps count together).
    pub max_map_size: usize,
    /// Variables alive at once.
    pub max_variables: usize,
    /// Functions a script may define.
    pub max_functions: usize,
    /// Seconds of script time (time spent inside engine calls such as a simulation not counted).
    pub max_seconds: f64,
}

/// The safe defaults: generous for real uses (a season, a pricing study, a tactic), small
/// enough that a hostile script stops in well under a second and a few hundred MB at most.
pub const SAFE: Limits = Limits {
    max_operations: 1_000_000,
    max_call_levels: 48,
    max_expr_depth: 64,
    max_function_expr_depth: 32,
    max_string_size: 100_000,
    max_array_size: 20_000,
    max_map_size: 10_000,
    max_variables: 256,
    max_functions: 256,
    max_seconds: 2.0,
};

impl Default for Limits {
    fn default() -> Limits {
        SAFE
    }
}

/// The names of the limits, as a ruleset's `script.limits` section spells them.
pub const LIMIT_NAMES: &[&str] = &[
    "max_operations",
    "max_call_levels",
    "max_expr_depth",
    "max_function_expr_depth",
    "max_string_size",
    "max_array_size",
    "max_map_size",
    "max_variables",
    "max_functions",
    "max_seconds",
];

impl Limits {
    /// The value of a limit by name (as a number, for messages and checks).
    pub fn get(&self, name: &str) -> Option<f64> {
        Some(match name {
            "max_operations" => self.max_operations as f64,
            "max_call_levels" => self.max_call_levels as f64,
            "max_expr_depth" => self.max_expr_depth as f64,
            "max_function_expr_depth" => self.max_function_expr_depth as f64,
            "max_string_size" => self.max_string_size as f64,
            "max_array_size" => self.max_array_size as f64,
            "max_map_size" => self.max_map_size as f64,
            "max_variables" => self.max_variables as f64,
            "max_functions" => self.max_functions as f64,
            "max_seconds" => self.max_seconds,
            _ => return None,
        })
    }

    /// The tighter of the two, limit by limit: tightening never loosens anything.
    pub fn tightened(&self, other: &Limits) -> Limits {
        Limits {
            max_operations: self.max_operations.min(other.max_operations),
            max_call_levels: self.max_call_levels.min(other.max_call_levels),
            max_expr_depth: self.max_expr_depth.min(other.max_expr_depth),
            max_function_expr_depth: self.max_function_expr_depth.min(other.max_function_expr_depth),
            max_string_size: self.max_string_size.min(other.max_string_size),
            max_array_size: self.max_array_size.min(other.max_array_size),
            max_map_size: self.max_map_size.min(other.max_map_size),
            max_variables: self.max_variables.min(other.max_variables),
            max_functions: self.max_functions.min(other.max_functions),
            max_seconds: self.max_seconds.min(other.max_seconds),
        }
    }

    /// Put the limits on an engine. Every limit is set explicitly (rhai's own defaults differ
    /// between debug and release builds, and some are unlimited).
    pub fn apply(&self, engine: &mut Engine) {
        engine.set_max_operations(self.max_operations.max(1));
        engine.set_max_call_levels(self.max_call_levels);
        engine.set_max_expr_depths(self.max_expr_depth.max(1), self.max_function_expr_depth.max(1));
        engine.set_max_string_size(self.max_string_size.max(1));
        engine.set_max_array_size(self.max_array_size.max(1));
        engine.set_max_map_size(self.max_map_size.max(1));
        engine.set_max_variables(self.max_variables.max(1));
        engine.set_max_functions(self.max_functions);
        let budget = Duration::from_secs_f64(self.max_seconds.max(0.001));
        engine.on_progress(move |operations| {
            // Reading the clock costs more than an operation: look every few thousand.
            if operations % 1024 == 0 && script_time() > budget {
                Some(Dynamic::from(format!("the script ran out of time (limit {} s of script time)", budget.as_secs_f64())))
            } else {
                None
            }
        });
    }
}

// The script clock, per thread (rhai evaluates on the calling thread). Time inside engine
// calls (`untimed`) is left out, so a long simulation a script asked for is not held against it.
thread_local! {
    static STARTED: Cell<Option<Instant>> = const { Cell::new(None) };
    static EXCLUDED: Cell<Duration> = const { Cell::new(Duration::ZERO) };
}

/// Start (or restart) the script clock of this thread; call before each evaluation.
pub fn start_clock() {
    STARTED.with(|s| s.set(Some(Instant::now())));
    EXCLUDED.with(|e| e.set(Duration::ZERO));
}

/// Script time since `start_clock`, without the time spent in `untimed` calls.
pub fn script_time() -> Duration {
    let started = STARTED.with(|s| s.get());
    match started {
        Some(t) => t.elapsed().saturating_sub(EXCLUDED.with(|e| e.get())),
        None => Duration::ZERO,
    }
}

/// Run a nested evaluation (a hook or a tactic called from a script, or from an engine) on a
/// clock of its own: it gets its own time budget, and its time is not charged to the caller.
pub fn with_own_clock<T>(work: impl FnOnce() -> T) -> T {
    let saved = (STARTED.with(|s| s.get()), EXCLUDED.with(|e| e.get()));
    let t = Instant::now();
    start_clock();
    let result = work();
    STARTED.with(|s| s.set(saved.0));
    EXCLUDED.with(|e| e.set(saved.1 + t.elapsed()));
    result
}

/// Run an engine call (a simulation, a schedule...) without charging its time to the script.
/// Every API function that may take long should wrap its work in this.
pub fn untimed<T>(work: impl FnOnce() -> T) -> T {
    let t = Instant::now();
    let result = work();
    let spent = t.elapsed();
    EXCLUDED.with(|e| e.set(e.get() + spent));
    result
}

/// Run `work` on a thread with a large stack: rhai recursion at the call-level limit must
/// never overflow the native stack, whatever the build profile. A failure inside (which
/// would be a bug) comes back as an error, not a crash.
pub fn on_big_stack<T: Send>(work: impl FnOnce() -> crate::Result<T> + Send) -> crate::Result<T> {
    std::thread::scope(|s| {
        let thread = std::thread::Builder::new()
            .name("script".into())
            .stack_size(64 * 1024 * 1024)
            .spawn_scoped(s, work)
            .map_err(|e| crate::Error::msg(format!("cannot start the script thread: {e}")))?;
        thread.join().unwrap_or_else(|p| {
            let why = p.downcast_ref::<String>().cloned().or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default();
            Err(crate::Error::msg(format!("internal error in the script engine (please report it): {why}")))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tightening_takes_the_smaller_of_each_limit() {
        let mut strict = SAFE;
        strict.max_operations = 1000;
        strict.max_seconds = 10.0;
        let t = SAFE.tightened(&strict);
        assert_eq!(t.max_operations, 1000);
        assert_eq!(t.max_seconds, SAFE.max_seconds);
        assert_eq!(t.max_array_size, SAFE.max_array_size);
    }

    #[test]
    fn every_limit_name_has_a_value() {
        for name in LIMIT_NAMES {
            assert!(SAFE.get(name).is_some(), "{name}");
        }
        assert_eq!(SAFE.get("nonsense"), None);
    }

    #[test]
    fn a_nested_clock_leaves_the_callers_budget_alone() {
        start_clock();
        std::thread::sleep(Duration::from_millis(30));
        with_own_clock(|| {
            assert!(script_time() < Duration::from_millis(30));
            std::thread::sleep(Duration::from_millis(400));
        });
        // The caller's 30 ms count, the nested 400 ms do not (bounds loose for a busy machine).
        let t = script_time();
        assert!(t >= Duration::from_millis(30) && t < Duration::from_millis(300), "{t:?}");
    }

    #[test]
    fn untimed_work_is_not_script_time() {
        start_clock();
        untimed(|| std::thread::sleep(Duration::from_millis(400)));
        assert!(script_time() < Duration::from_millis(300), "{:?}", script_time());
    }
}
