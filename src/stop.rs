//! Stopping engine work a caller bounds: a deadline and a memory cap (a script's sandbox
//! limits). Engines ask `check()` between units of work (a battle, a search iteration) and
//! return its error; without a bound in force (a plain command) it costs one thread-local read.
//!
//! The bound is kept per thread (`enter`); an engine that spreads work over threads hands its
//! caller's bound to them (`current()` on the calling thread, `enter` in each worker).
//!
//! Memory is measured by `CountingAlloc`, which the binary installs as its global allocator;
//! where it is not installed (library tests) the count stays 0 and the cap never triggers.
use crate::error::{Error, Result};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Bytes allocated and not yet freed, process-wide (kept by `CountingAlloc`).
static LIVE_BYTES: AtomicUsize = AtomicUsize::new(0);

/// The system allocator, counting live bytes (one relaxed add or subtract per call).
pub struct CountingAlloc;

unsafe impl GlobalAlloc for CountingAlloc {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            LIVE_BYTES.fetch_add(layout.size(), Ordering::Relaxed);
        }
        p
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc_zeroed(layout);
        if !p.is_null() {
            LIVE_BYTES.fetch_add(layout.size(), Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        LIVE_BYTES.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            if new_size >= layout.size() {
                LIVE_BYTES.fetch_add(new_size - layout.size(), Ordering::Relaxed);
            } else {
                LIVE_BYTES.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

/// Bytes the program holds now (0 where `CountingAlloc` is not the global allocator).
pub(crate) fn live_bytes() -> usize {
    LIVE_BYTES.load(Ordering::Relaxed)
}

/// Ctrl-C, for work that may be interrupted rather than ended (a REPL entry).
pub(crate) struct Interrupt {
    /// Whether Ctrl-C now stops the work in progress instead of ending the program.
    interruptible: AtomicBool,
    /// Whether it has, since the work began.
    interrupted: AtomicBool,
}

/// The program's one `Interrupt`, which the Ctrl-C handler and `Bound::passed` share.
pub(crate) static CTRL_C: Interrupt = Interrupt::new();

impl Interrupt {
    pub(crate) const fn new() -> Interrupt {
        Interrupt {
            interruptible: AtomicBool::new(false),
            interrupted: AtomicBool::new(false),
        }
    }

    /// Run `work` so that Ctrl-C stops it (bounded work ends with `Reason::Interrupted`)
    /// rather than the program. A second Ctrl-C before the work notices ends the program.
    pub(crate) fn interruptible<T>(&self, work: impl FnOnce() -> T) -> T {
        self.interrupted.store(false, Ordering::SeqCst);
        self.interruptible.store(true, Ordering::SeqCst);
        let result = work();
        self.interruptible.store(false, Ordering::SeqCst);
        self.interrupted.store(false, Ordering::SeqCst);
        result
    }

    /// What the Ctrl-C handler calls: true if the work in progress was asked to stop (the
    /// program goes on), false if the program should end.
    pub(crate) fn interrupt(&self) -> bool {
        self.interruptible.load(Ordering::SeqCst) && !self.interrupted.swap(true, Ordering::SeqCst)
    }

    pub(crate) fn interrupted(&self) -> bool {
        self.interrupted.load(Ordering::Relaxed)
    }
}

impl Default for Interrupt {
    fn default() -> Interrupt {
        Interrupt::new()
    }
}

/// Why work must stop.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Reason {
    Time {
        limit_seconds: f64,
    },
    Memory {
        limit_mb: u64,
    },
    Interrupted,
    /// The caller no longer wants the work (`Bound::with_cancel`: an edit made it stale).
    Cancelled,
}

impl Reason {
    pub(crate) fn message(self) -> String {
        match self {
            Reason::Time { limit_seconds } => format!(
                "the script ran out of time (limit {limit_seconds} s of CPU time, engine calls \
                 included)"
            ),
            Reason::Memory { limit_mb } => {
                format!("the script went over its memory limit ({limit_mb} MB)")
            }
            Reason::Interrupted => "interrupted (Ctrl-C)".to_string(),
            Reason::Cancelled => "cancelled: the work is no longer wanted".to_string(),
        }
    }
}

/// A bound on work: how much time it may take and how much memory the program may hold
/// meanwhile. Time is CPU time (the program's, every thread, since the bound began) plus the
/// time its scripts chose to wait (`sleep`): what the work itself costs, the same on a quiet
/// machine as on a loaded one. Wall-clock time still stops it at `WALL_FACTOR` times the
/// limit (and a second), so work blocked without using the CPU cannot run on for ever.
#[derive(Debug)]
pub(crate) struct Bound {
    started: Instant,
    cpu_at_start: Duration,
    /// Nanoseconds of waiting charged (`charge_wait`).
    waited: AtomicU64,
    limit: Duration,
    limit_seconds: f64,
    memory_cap: usize,
    limit_mb: u64,
    /// Set by the caller to stop the work between units (`with_cancel`).
    cancel: Option<Arc<AtomicBool>>,
}

/// How many times its limit in wall-clock time a bounded piece of work may take, at most (a
/// loaded machine gives a program a fraction of a core; anything slower is stuck).
pub(crate) const WALL_FACTOR: u32 = 4;

/// The wall-clock backstop for a limit of `limit`.
pub(crate) fn wall_backstop(limit: Duration) -> Duration {
    limit * WALL_FACTOR + Duration::from_secs(1)
}

/// CPU time the whole program has used (every thread).
pub(crate) fn process_cpu() -> Duration {
    cpu_clock(libc::CLOCK_PROCESS_CPUTIME_ID)
}

/// CPU time the calling thread has used.
pub(crate) fn thread_cpu() -> Duration {
    cpu_clock(libc::CLOCK_THREAD_CPUTIME_ID)
}

fn cpu_clock(clock: libc::clockid_t) -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // Safe: clock_gettime only writes the timespec it is given.
    if unsafe { libc::clock_gettime(clock, &mut t) } != 0 {
        return Duration::ZERO;
    }
    Duration::new(
        t.tv_sec.max(0) as u64,
        t.tv_nsec.clamp(0, 999_999_999) as u32,
    )
}

impl Bound {
    pub(crate) fn new(seconds: f64, memory_mb: u64) -> Bound {
        let seconds = if seconds.is_finite() {
            seconds.clamp(0.001, 1.0e6)
        } else {
            1.0e6
        };
        Bound {
            started: Instant::now(),
            cpu_at_start: process_cpu(),
            waited: AtomicU64::new(0),
            limit: Duration::from_secs_f64(seconds),
            limit_seconds: seconds,
            memory_cap: usize::try_from(memory_mb.saturating_mul(1024 * 1024))
                .unwrap_or(usize::MAX),
            limit_mb: memory_mb,
            cancel: None,
        }
    }

    /// The same bound, also passed once `cancel` is set (a language server's stale work).
    pub(crate) fn with_cancel(self, cancel: Arc<AtomicBool>) -> Bound {
        Bound {
            cancel: Some(cancel),
            ..self
        }
    }

    /// Time charged so far: CPU time since the bound began, plus waits.
    pub(crate) fn charged(&self) -> Duration {
        process_cpu().saturating_sub(self.cpu_at_start)
            + Duration::from_nanos(self.waited.load(Ordering::Relaxed))
    }

    /// Charge a wait (a script's `sleep`) to the bound.
    pub(crate) fn charge_wait(&self, waited: Duration) {
        let nanos = u64::try_from(waited.as_nanos()).unwrap_or(u64::MAX);
        self.waited.fetch_add(nanos, Ordering::Relaxed);
    }

    /// Time left before the limit (zero once it is passed), by either clock.
    pub(crate) fn time_left(&self) -> Duration {
        let by_charge = self.limit.saturating_sub(self.charged());
        let by_wall = wall_backstop(self.limit).saturating_sub(self.started.elapsed());
        by_charge.min(by_wall)
    }

    /// The reason given when the deadline passes.
    pub(crate) fn time_reason(&self) -> Reason {
        Reason::Time {
            limit_seconds: self.limit_seconds,
        }
    }

    /// Why to stop now, if the bound is passed.
    pub(crate) fn passed(&self) -> Option<Reason> {
        if CTRL_C.interrupted() {
            return Some(Reason::Interrupted);
        }
        if self
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(Ordering::Relaxed))
        {
            return Some(Reason::Cancelled);
        }
        if live_bytes() > self.memory_cap {
            return Some(Reason::Memory {
                limit_mb: self.limit_mb,
            });
        }
        if self.time_left().is_zero() {
            return Some(self.time_reason());
        }
        None
    }
}

thread_local! {
    static ACTIVE: crate::scoped::Slot<Bound> = const { RefCell::new(None) };
}

/// The bound in force on this thread, if any.
pub(crate) fn current() -> Option<Arc<Bound>> {
    crate::scoped::current(&ACTIVE)
}

/// Run `work` with `bound` in force on this thread (what was there before comes back after).
pub(crate) fn enter<T>(bound: Option<Arc<Bound>>, work: impl FnOnce() -> T) -> T {
    crate::scoped::enter(&ACTIVE, bound, work)
}

/// Why this thread's work must stop, if it must.
pub(crate) fn reason() -> Option<Reason> {
    ACTIVE.with(|a| a.borrow().as_ref().and_then(|b| b.passed()))
}

/// An error if the bound in force here is passed: engines call this between units of work.
pub(crate) fn check() -> Result<()> {
    match reason() {
        Some(r) => Err(Error::msg(r.message())),
        None => Ok(()),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    #[test]
    fn time_not_running_is_not_charged_but_waits_are() {
        // A bound charges the process's CPU, and the tests running beside this one would be
        // charged too: the check runs alone, in a child process of this test binary.
        if std::env::var_os("ARBITER_ALONE").is_none() {
            let name = "stop::tests::time_not_running_is_not_charged_but_waits_are";
            let out = std::process::Command::new(std::env::current_exe().unwrap())
                .arg(name)
                .env("RUST_TEST_THREADS", "1")
                .env("ARBITER_ALONE", "1")
                .output()
                .unwrap();
            let stdout = String::from_utf8_lossy(&out.stdout);
            assert!(out.status.success(), "{stdout}");
            assert!(
                stdout.contains("1 passed"),
                "the test did not run alone: {stdout}"
            );
            return;
        }
        let bound = Bound::new(0.05, 1 << 20);
        std::thread::sleep(Duration::from_millis(80));
        assert!(bound.passed().is_none(), "{:?}", bound.charged());
        bound.charge_wait(Duration::from_millis(60));
        assert_eq!(bound.passed(), Some(bound.time_reason()));
    }

    #[test]
    fn a_blocked_piece_of_work_meets_the_wall_clock_backstop() {
        let bound = Bound::new(0.001, 1 << 20);
        assert_eq!(
            wall_backstop(Duration::from_millis(1)),
            Duration::from_millis(1004)
        );
        std::thread::sleep(Duration::from_millis(1010));
        assert_eq!(bound.passed(), Some(bound.time_reason()));
    }

    #[test]
    fn without_a_bound_work_goes_on() {
        assert!(check().is_ok());
    }

    /// Use `d` of this thread's CPU time.
    pub(crate) fn spin(d: Duration) {
        let start = thread_cpu();
        while thread_cpu().saturating_sub(start) < d {
            std::hint::black_box(0u64.wrapping_add(1));
        }
    }

    #[test]
    fn a_passed_limit_stops_work_with_its_limit_named() {
        let bound = Arc::new(Bound::new(0.001, 1 << 20));
        spin(Duration::from_millis(5));
        let e = enter(Some(bound), check).unwrap_err().to_string();
        assert_eq!(
            e,
            "the script ran out of time (limit 0.001 s of CPU time, engine calls included)"
        );
        assert!(check().is_ok(), "the bound ends with `enter`");
    }

    #[test]
    fn ctrl_c_stops_interruptible_work_once_then_the_program() {
        let ctrl_c = Interrupt::new();
        assert!(
            !ctrl_c.interrupt(),
            "outside interruptible work Ctrl-C ends the program"
        );
        ctrl_c.interruptible(|| {
            assert!(!ctrl_c.interrupted());
            assert!(ctrl_c.interrupt(), "the first Ctrl-C stops the work");
            assert!(ctrl_c.interrupted());
            assert!(!ctrl_c.interrupt(), "a second one ends the program");
        });
        assert!(!ctrl_c.interrupted(), "the next entry starts afresh");
        assert_eq!(Reason::Interrupted.message(), "interrupted (Ctrl-C)");
    }
}
