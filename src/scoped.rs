//! A value in force on one thread for the length of a call (a script's read policy, its time
//! and memory bound): `enter` sets it, `current` reads it, and what was there before comes back
//! afterwards, even if the call unwinds.
use std::cell::RefCell;
use std::sync::Arc;
use std::thread::LocalKey;

/// The thread-local slot such a value lives in.
pub(crate) type Slot<T> = RefCell<Option<Arc<T>>>;

/// The value in force on this thread, if any.
pub(crate) fn current<T>(slot: &'static LocalKey<Slot<T>>) -> Option<Arc<T>> {
    slot.with(|s| s.borrow().clone())
}

/// Run `work` with `value` in force on this thread.
pub(crate) fn enter<T: 'static, R>(
    slot: &'static LocalKey<Slot<T>>,
    value: Option<Arc<T>>,
    work: impl FnOnce() -> R,
) -> R {
    let before = slot.with(|s| s.replace(value));
    let _restore = Restore {
        slot,
        before: Some(before),
    };
    work()
}

struct Restore<T: 'static> {
    slot: &'static LocalKey<Slot<T>>,
    before: Option<Option<Arc<T>>>,
}

impl<T: 'static> Drop for Restore<T> {
    fn drop(&mut self) {
        let before = self.before.take().flatten();
        self.slot.with(|s| *s.borrow_mut() = before);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        static NUMBER: Slot<u32> = const { RefCell::new(None) };
    }

    #[test]
    fn a_value_holds_for_its_call_and_the_one_before_comes_back() {
        assert_eq!(current(&NUMBER), None);
        enter(&NUMBER, Some(Arc::new(1)), || {
            assert_eq!(current(&NUMBER).as_deref(), Some(&1));
            enter(&NUMBER, Some(Arc::new(2)), || {
                assert_eq!(current(&NUMBER).as_deref(), Some(&2))
            });
            assert_eq!(current(&NUMBER).as_deref(), Some(&1));
            let unwound = std::panic::catch_unwind(|| enter(&NUMBER, None, || panic!("unwinds")));
            assert!(unwound.is_err());
            assert_eq!(
                current(&NUMBER).as_deref(),
                Some(&1),
                "restored after a panic too"
            );
        });
        assert_eq!(current(&NUMBER), None);
    }
}
