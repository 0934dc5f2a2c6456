//! The sandbox: limits every script runs under, whoever wrote it.
//!
//! The crate is built with rhai's `no_module` feature, so there is no `import` and no module
//! resolver; scripts reach files only through the API functions (which read rulesets and game
//! records, and write a ruleset only when the session allows it; which files, `policy` says).
//! What is left to bound is work, time and memory, and that is what these limits do. Time
//! and memory include engine calls: an evaluation runs under a `stop::Bound` the engines
//! check between units of work, so a script's `simulate` of millions of battles ends at the
//! script's time limit with a clear error.
use rhai::{Dynamic, Engine};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Once;
use std::time::{Duration, Instant};

use crate::rules::limits::Limits;

impl Limits {
    /// Put the limits on an engine. Every limit is set explicitly (rhai's own defaults differ
    /// between debug and release builds, and some are unlimited).
    pub(crate) fn apply(&self, engine: &mut Engine) {
        engine.set_max_operations(self.max_operations.max(1));
        engine.set_max_call_levels(self.max_call_levels);
        engine.set_max_expr_depths(
            self.max_expr_depth.max(1),
            self.max_function_expr_depth.max(1),
        );
        engine.set_max_string_size(self.max_string_size.max(1));
        engine.set_max_array_size(self.max_array_size.max(1));
        engine.set_max_map_size(self.max_map_size.max(1));
        engine.set_max_variables(self.max_variables.max(1));
        engine.set_max_functions(self.max_functions);
        let seconds = self.max_seconds.max(0.001);
        let budget = Duration::from_secs_f64(seconds);
        start_ticker();
        engine.on_progress(move |operations| {
            OPERATIONS.with(|o| o.set(operations));
            // Reading the clock costs more than an operation: look once a tick (an operation
            // may take a millisecond: a hook doing a thousand of them must not run to the end
            // unseen), and every 1024 operations should the ticker be missing. The
            // evaluation's own clock (a hook or tactic call has its own), then the bound of the
            // whole script (time and memory), which nested calls inside engines share.
            if !ticked() && operations % 1024 != 0 {
                return None;
            }
            if script_time() > budget || wall_time() > crate::stop::wall_backstop(budget) {
                return Some(Dynamic::from(
                    crate::stop::Reason::Time {
                        limit_seconds: seconds,
                    }
                    .message(),
                ));
            }
            crate::stop::reason().map(|r| Dynamic::from(r.message()))
        });
    }

    /// The bound engine calls made by one evaluation under these limits run to.
    pub(crate) fn bound(&self) -> crate::stop::Bound {
        crate::stop::Bound::new(self.max_seconds.max(0.001), self.max_memory_mb.max(1))
    }
}

/// How often the sandbox looks at the clock, at most.
const TICK: Duration = Duration::from_millis(2);

/// Ticks since the ticker started: cheaper to read than the clock.
static TICKS: AtomicU64 = AtomicU64::new(0);

/// Start the thread that counts ticks (once for the program; it sleeps between ticks).
fn start_ticker() {
    static STARTED: Once = Once::new();
    STARTED.call_once(|| {
        // Without it the checks fall back to every 1024 operations.
        let _ = std::thread::Builder::new()
            .name("sandbox-clock".into())
            .spawn(|| loop {
                std::thread::sleep(TICK);
                TICKS.fetch_add(1, Ordering::Relaxed);
            });
    });
}

/// Whether a tick has passed since this thread last asked.
fn ticked() -> bool {
    let now = TICKS.load(Ordering::Relaxed);
    SEEN_TICK.with(|seen| seen.replace(now) != now)
}

// The evaluation clock, per thread (rhai evaluates on the calling thread): the thread's CPU
// time since the evaluation began, plus the waits it chose (`sleep`), so a loaded machine does
// not cut a script short. Engine calls are bounded by the script's `stop::Bound` (the whole
// program's CPU time), so a script that asks for hours of simulation is stopped at its limit.
thread_local! {
    static STARTED: Cell<Option<(Instant, Duration, Duration)>> = const { Cell::new(None) };
    static OPERATIONS: Cell<u64> = const { Cell::new(0) };
    static SEEN_TICK: Cell<u64> = const { Cell::new(0) };
}

/// Operations the evaluation running (or last run) on this thread has used so far (rhai counts
/// from each call's start; `reset_operations` before a call that might use none).
pub(crate) fn operations_used() -> u64 {
    OPERATIONS.with(|o| o.get())
}

pub(crate) fn reset_operations() {
    OPERATIONS.with(|o| o.set(0));
}

/// Start (or restart) the clock of this thread; call before each evaluation.
pub(crate) fn start_clock() {
    STARTED.with(|s| {
        s.set(Some((
            Instant::now(),
            crate::stop::thread_cpu(),
            Duration::ZERO,
        )))
    });
}

/// Time charged to the evaluation since `start_clock`: this thread's CPU time and its waits.
pub(crate) fn script_time() -> Duration {
    STARTED
        .with(|s| s.get())
        .map(|(_, cpu, waited)| crate::stop::thread_cpu().saturating_sub(cpu) + waited)
        .unwrap_or(Duration::ZERO)
}

/// Wall-clock time since `start_clock` (the backstop for an evaluation that is blocked).
pub(crate) fn wall_time() -> Duration {
    STARTED
        .with(|s| s.get())
        .map(|(started, _, _)| started.elapsed())
        .unwrap_or(Duration::ZERO)
}

/// Charge a wait (`sleep`) to this thread's evaluation and to the bound in force.
pub(crate) fn charge_wait(waited: Duration) {
    STARTED.with(|s| {
        if let Some((started, cpu, before)) = s.get() {
            s.set(Some((started, cpu, before + waited)));
        }
    });
    if let Some(bound) = crate::stop::current() {
        bound.charge_wait(waited);
    }
}

/// Run a nested evaluation (a hook or a tactic called from a script, or from an engine) on a
/// clock of its own: it gets its own time budget per call. Its time still passes on the
/// caller's clock, and the script's bound (`stop`) still stops it.
pub(crate) fn with_own_clock<T>(work: impl FnOnce() -> T) -> T {
    let saved = STARTED.with(|s| s.get());
    start_clock();
    let result = work();
    STARTED.with(|s| s.set(saved));
    result
}

/// Run an engine call (a simulation, a schedule...) for a script. Its time counts against the
/// script; the engines stop at the script's bound, and a bound passed while the call ran
/// (memory its result took, say) ends the script here.
pub(crate) fn engine_call<T>(
    work: impl FnOnce() -> crate::error::Result<T>,
) -> crate::error::Result<T> {
    crate::stop::check()?;
    let result = work()?;
    crate::stop::check()?;
    Ok(result)
}

/// Run `work` on a thread with a large stack: rhai recursion at the call-level limit must
/// never overflow the native stack, whatever the build profile. A failure inside (which
/// would be a bug) comes back as an error, not a crash.
pub(crate) fn on_big_stack<T: Send>(
    work: impl FnOnce() -> crate::error::Result<T> + Send,
) -> crate::error::Result<T> {
    std::thread::scope(|s| {
        let thread = std::thread::Builder::new()
            .name("script".into())
            .stack_size(64 * 1024 * 1024)
            .spawn_scoped(s, work)
            .map_err(|e| {
                crate::error::Error::msg(format!("cannot start the script thread: {e}"))
            })?;
        thread.join().unwrap_or_else(|p| {
            let why = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            Err(crate::error::Error::msg(format!(
                "internal error in the script engine (please report it): {why}"
            )))
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::limits::SAFE;

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
    fn limits_are_read_by_their_names() {
        assert_eq!(SAFE.get("max_operations"), Some(1_000_000.0));
        assert_eq!(SAFE.get("max_seconds"), Some(2.0));
        assert_eq!(SAFE.get("max_memory_mb"), Some(512.0));
        assert_eq!(SAFE.get("nonsense"), None);
    }

    #[test]
    fn a_nested_clock_has_its_own_budget_and_its_time_still_counts() {
        start_clock();
        crate::stop::tests::spin(Duration::from_millis(30));
        with_own_clock(|| {
            assert!(script_time() < Duration::from_millis(30));
            crate::stop::tests::spin(Duration::from_millis(100));
        });
        assert!(
            script_time() >= Duration::from_millis(130),
            "{:?}",
            script_time()
        );
    }

    #[test]
    fn a_few_slow_operations_are_stopped_at_the_time_limit() {
        // Each `contains` compares 20,000 strings (milliseconds): 150 of them are 916
        // operations in all, under the 1,024 between looks at the clock without the ticker,
        // and take far more than 0.05 s.
        let limits = Limits {
            max_seconds: 0.05,
            ..Limits::default()
        };
        let mut engine = Engine::new();
        limits.apply(&mut engine);
        start_clock();
        let e = engine
            .run(
                "let s = \"\".pad(99000, \"a\"); let a = []; a.pad(20000, s); \
                 for i in 0..150 { a.contains(\"b\"); }",
            )
            .unwrap_err();
        let rhai::EvalAltResult::ErrorTerminated(why, _) = *e else {
            panic!("{e}");
        };
        assert!(
            why.to_string().contains("ran out of time (limit 0.05 s"),
            "{why}"
        );
    }

    #[test]
    fn a_loaded_machine_does_not_cut_a_script_short() {
        // Time the thread spends not running (the machine busy elsewhere) is not charged.
        start_clock();
        std::thread::sleep(Duration::from_millis(60));
        assert!(
            script_time() < Duration::from_millis(20),
            "{:?}",
            script_time()
        );
        assert!(wall_time() >= Duration::from_millis(60));
    }

    #[test]
    fn an_engine_call_past_the_bound_is_stopped() {
        let bound = std::sync::Arc::new(crate::stop::Bound::new(0.001, 512));
        crate::stop::tests::spin(Duration::from_millis(5));
        let e = crate::stop::enter(Some(bound), || engine_call(|| Ok(1)))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("ran out of time (limit 0.001 s of CPU time, engine calls included)"),
            "{e}"
        );
    }
}
