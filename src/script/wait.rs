//! `sleep` in the sandbox. rhai's own blocks the thread for as long as it is asked, and no
//! limit sees it: limits are checked between operations and a sleep is one operation, so
//! `sleep(60)` ran 60 s under a 2 s limit, and a hook whose top level slept held up every
//! command loading its ruleset (the language server too).
//!
//! * A script (`arbiter run`, the REPL) may wait, and the wait is charged to its time limit:
//!   it sleeps in short slices, looking at its clock, its bound and Ctrl-C between them, and a
//!   wait longer than the time left fails at once with the time-limit message (waiting first
//!   would only delay the same error).
//! * A hook or a tactic may not wait at all. They compute an answer from their arguments inside
//!   commands that run them many times (every turn of thousands of battles, every keystroke in
//!   an editor) on a budget per call, so any wait multiplies into a hang and never changes the
//!   answer. There `sleep` is an error that names the place.
use rhai::{Dynamic, Engine, EvalAltResult, Position, FLOAT, INT};
use std::time::{Duration, Instant};
use {super::sandbox::script_time, crate::rules::limits::Limits};

/// Longest stretch a wait sleeps before looking at its limits again.
const SLICE: Duration = Duration::from_millis(20);

type WaitResult = Result<(), Box<EvalAltResult>>;

/// A script's `sleep(seconds)`: charged to `limits.max_seconds` (and the script's bound).
pub(crate) fn charge(engine: &mut Engine, limits: &Limits) {
    let limit = limits.max_seconds.max(0.001);
    engine.register_fn("sleep", move |seconds: INT| wait(seconds as f64, limit));
    engine.register_fn("sleep", move |seconds: FLOAT| wait(seconds, limit));
}

/// A hook's or a tactic's `sleep`: refused.
pub(crate) fn forbid(engine: &mut Engine) {
    engine.register_fn("sleep", |_: INT| refused());
    engine.register_fn("sleep", |_: FLOAT| refused());
}

fn refused() -> WaitResult {
    Err(Box::new(EvalAltResult::ErrorRuntime(
        Dynamic::from(
            "`sleep` is not available in a hook or a tactic: they run inside other commands \
             (rules check, combat sim, the language server), which must not wait",
        ),
        Position::NONE,
    )))
}

/// Sleep `seconds` (nothing for 0, a negative number or NaN, as rhai's own), or stop as the
/// sandbox stops a script: at its time limit, its bound, or Ctrl-C.
fn wait(seconds: f64, limit_seconds: f64) -> WaitResult {
    if seconds.is_nan() || seconds <= 0.0 {
        return Ok(());
    }
    let time_limit = crate::stop::Reason::Time { limit_seconds };
    let mut left = Duration::from_secs_f64(limit_seconds).saturating_sub(script_time());
    let mut limit_message = time_limit.message();
    if let Some(bound) = crate::stop::current() {
        if bound.time_left() < left {
            left = bound.time_left();
            limit_message = bound.time_reason().message();
        }
    }
    if seconds > left.as_secs_f64() {
        return Err(stopped(format!(
            "{limit_message}: sleep({seconds}) waits longer than the {:.2} s left",
            left.as_secs_f64()
        )));
    }
    let until = Instant::now() + Duration::from_secs_f64(seconds);
    loop {
        if let Some(reason) = crate::stop::reason() {
            return Err(stopped(reason.message()));
        }
        if crate::stop::CTRL_C.interrupted() {
            return Err(stopped(crate::stop::Reason::Interrupted.message()));
        }
        let now = Instant::now();
        if now >= until {
            return Ok(());
        }
        let slice = (until - now).min(SLICE);
        std::thread::sleep(slice);
        super::sandbox::charge_wait(slice);
    }
}

/// Ends the evaluation as the sandbox's own limits do (a `try` cannot catch it).
fn stopped(message: String) -> Box<EvalAltResult> {
    Box::new(EvalAltResult::ErrorTerminated(
        Dynamic::from(message),
        Position::NONE,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::script::sandbox;

    fn engine(limits: &Limits, charged: bool) -> Engine {
        let mut e = crate::script::engine::sandboxed(limits);
        if charged {
            charge(&mut e, limits);
        }
        e
    }

    /// The message an evaluation ended with, as `errors` shows it.
    fn message(e: &EvalAltResult) -> String {
        match e {
            EvalAltResult::ErrorTerminated(v, _) | EvalAltResult::ErrorRuntime(v, _) => {
                v.to_string()
            }
            EvalAltResult::ErrorInFunctionCall(_, _, inner, _) => message(inner),
            other => other.to_string(),
        }
    }

    fn short() -> Limits {
        Limits {
            max_seconds: 0.2,
            ..Limits::default()
        }
    }

    #[test]
    fn a_wait_within_the_limit_sleeps_it() {
        let e = engine(&short(), true);
        sandbox::start_clock();
        let started = Instant::now();
        e.run("sleep(0.05); sleep(0)").unwrap();
        assert!(started.elapsed() >= Duration::from_millis(50));
    }

    #[test]
    fn a_wait_past_the_limit_fails_at_once_with_the_limit_named() {
        let e = engine(&short(), true);
        sandbox::start_clock();
        let started = Instant::now();
        let err = e.run("try { sleep(60) } catch { }").unwrap_err();
        let shown = message(&err);
        assert!(
            shown.contains(
                "the script ran out of time (limit 0.2 s of CPU time, engine calls included)"
            ) && shown.contains("sleep(60) waits longer than"),
            "{shown}"
        );
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "it did not sleep the minute"
        );
    }

    #[test]
    fn a_wait_stops_at_the_scripts_bound() {
        // The evaluation's own clock allows a second; the bound in force only a few ms.
        let limits = Limits {
            max_seconds: 1.0,
            ..Limits::default()
        };
        let e = engine(&limits, true);
        let bound = std::sync::Arc::new(crate::stop::Bound::new(0.05, 512));
        sandbox::start_clock();
        let err = crate::stop::enter(Some(bound), || e.run("sleep(0.5)").unwrap_err());
        let shown = message(&err);
        assert!(
            shown.contains("ran out of time (limit 0.05 s of CPU time, engine calls included)"),
            "{shown}"
        );
    }

    #[test]
    fn hooks_and_tactics_may_not_wait() {
        let e = engine(&short(), false);
        for call in ["sleep(60)", "sleep(0.1)", "Fn(\"sleep\").call(1)"] {
            let err = message(&e.run(call).unwrap_err());
            assert!(
                err.contains("`sleep` is not available in a hook"),
                "{call}: {err}"
            );
        }
    }
}
