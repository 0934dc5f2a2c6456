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
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
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
pub fn live_bytes() -> usize {
    LIVE_BYTES.load(Ordering::Relaxed)
}

/// Ctrl-C, for work that may be interrupted rather than ended (a REPL entry).
pub struct Interrupt {
    /// Whether Ctrl-C now stops the work in progress instead of ending the program.
    interruptible: AtomicBool,
    /// Whether it has, since the work began.
    interrupted: AtomicBool,
}

/// The program's one `Interrupt`, which the Ctrl-C handler and `Bound::passed` share.
pub static CTRL_C: Interrupt = Interrupt::new();

impl Interrupt {
    pub const fn new() -> Interrupt {
        Interrupt {
            interruptible: AtomicBool::new(false),
            interrupted: AtomicBool::new(false),
        }
    }

    /// Run `work` so that Ctrl-C stops it (bounded work ends with `Reason::Interrupted`)
    /// rather than the program. A second Ctrl-C before the work notices ends the program.
    pub fn interruptible<T>(&self, work: impl FnOnce() -> T) -> T {
        self.interrupted.store(false, Ordering::SeqCst);
        self.interruptible.store(true, Ordering::SeqCst);
        let result = work();
        self.interruptible.store(false, Ordering::SeqCst);
        self.interrupted.store(false, Ordering::SeqCst);
        result
    }

    /// What the Ctrl-C handler calls: true if the work in progress was asked to stop (the
    /// program goes on), false if the program should end.
    pub fn interrupt(&self) -> bool {
        self.interruptible.load(Ordering::SeqCst) && !self.interrupted.swap(true, Ordering::SeqCst)
    }

    pub fn interrupted(&self) -> bool {
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
    Time { limit_seconds: f64 },
    Memory { limit_mb: u64 },
    Interrupted,
}

impl Reason {
    pub fn message(self) -> String {
        match self {
            Reason::Time { limit_seconds } => format!(
                "the script ran out of time (limit {limit_seconds} s, engine calls included)"
            ),
            Reason::Memory { limit_mb } => {
                format!("the script went over its memory limit ({limit_mb} MB)")
            }
            Reason::Interrupted => "interrupted (Ctrl-C)".to_string(),
        }
    }
}

/// A bound on work: when it ends, and how much memory the program may hold meanwhile.
#[derive(Debug)]
pub struct Bound {
    deadline: Instant,
    limit_seconds: f64,
    memory_cap: usize,
    limit_mb: u64,
}

impl Bound {
    pub fn new(seconds: f64, memory_mb: u64) -> Bound {
        let seconds = if seconds.is_finite() {
            seconds.clamp(0.001, 1.0e6)
        } else {
            1.0e6
        };
        Bound {
            deadline: Instant::now() + Duration::from_secs_f64(seconds),
            limit_seconds: seconds,
            memory_cap: usize::try_from(memory_mb.saturating_mul(1024 * 1024))
                .unwrap_or(usize::MAX),
            limit_mb: memory_mb,
        }
    }

    /// Time until the deadline (zero once it is passed).
    pub fn time_left(&self) -> Duration {
        self.deadline.saturating_duration_since(Instant::now())
    }

    /// The reason given when the deadline passes.
    pub fn time_reason(&self) -> Reason {
        Reason::Time {
            limit_seconds: self.limit_seconds,
        }
    }

    /// Why to stop now, if the bound is passed.
    pub fn passed(&self) -> Option<Reason> {
        if CTRL_C.interrupted() {
            return Some(Reason::Interrupted);
        }
        if live_bytes() > self.memory_cap {
            return Some(Reason::Memory {
                limit_mb: self.limit_mb,
            });
        }
        if Instant::now() >= self.deadline {
            return Some(self.time_reason());
        }
        None
    }
}

thread_local! {
    static ACTIVE: crate::scoped::Slot<Bound> = const { RefCell::new(None) };
}

/// The bound in force on this thread, if any.
pub fn current() -> Option<Arc<Bound>> {
    crate::scoped::current(&ACTIVE)
}

/// Run `work` with `bound` in force on this thread (what was there before comes back after).
pub fn enter<T>(bound: Option<Arc<Bound>>, work: impl FnOnce() -> T) -> T {
    crate::scoped::enter(&ACTIVE, bound, work)
}

/// Why this thread's work must stop, if it must.
pub fn reason() -> Option<Reason> {
    ACTIVE.with(|a| a.borrow().as_ref().and_then(|b| b.passed()))
}

/// An error if the bound in force here is passed: engines call this between units of work.
pub fn check() -> Result<()> {
    match reason() {
        Some(r) => Err(Error::msg(r.message())),
        None => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_a_bound_work_goes_on() {
        assert!(check().is_ok());
    }

    #[test]
    fn a_passed_deadline_stops_work_with_its_limit_named() {
        let bound = Arc::new(Bound::new(0.001, 1 << 20));
        std::thread::sleep(Duration::from_millis(5));
        let e = enter(Some(bound), check).unwrap_err().to_string();
        assert_eq!(
            e,
            "the script ran out of time (limit 0.001 s, engine calls included)"
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
