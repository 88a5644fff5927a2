//! The runner's memory budget for wide answers, shared by every testee process of a run
//! (`--jobs`): an answer line longer than [`WIDE_ANSWER`] bytes is read as a JSON tree only while
//! its runner thread holds one of [`WIDE_SLOTS`] slots, kept until its case is judged. A tree
//! costs up to about 35 times its JSON (one small object is some 350 bytes of maps and strings),
//! so this, and not `--jobs`, bounds the trees the runner holds at once.
//!
//! A thread takes at most one slot and never waits while it holds one, so the slots cannot
//! deadlock.

use std::sync::{Arc, Condvar, Mutex, PoisonError};

/// Answer lines longer than this (in bytes) need a slot: 256 KiB, twice the corpus's largest
/// legitimate answer outside the stress cases (123 KB).
pub(crate) const WIDE_ANSWER: usize = 256 << 10;

/// Wide answers read as trees at once, whatever `--jobs`.
pub(crate) const WIDE_SLOTS: usize = 2;

/// The slots of one run.
#[derive(Debug)]
pub struct Budget {
    free: Mutex<usize>,
    freed: Condvar,
}

/// A slot held; dropping it gives it back.
#[derive(Debug)]
pub struct Slot(Arc<Budget>);

impl Budget {
    /// A budget of `slots` slots.
    pub fn new(slots: usize) -> Arc<Budget> {
        Arc::new(Budget {
            free: Mutex::new(slots),
            freed: Condvar::new(),
        })
    }

    /// Waits for a free slot and takes it.
    pub fn take(self: &Arc<Self>) -> Slot {
        let mut free = self.free.lock().unwrap_or_else(PoisonError::into_inner);
        while *free == 0 {
            free = self
                .freed
                .wait(free)
                .unwrap_or_else(PoisonError::into_inner);
        }
        *free -= 1;
        Slot(self.clone())
    }

    /// Slots free now.
    pub fn free(&self) -> usize {
        *self.free.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Drop for Slot {
    /// Gives the slot back, and the memory freed under it back to the system.
    fn drop(&mut self) {
        give_back_freed_memory();
        *self.0.free.lock().unwrap_or_else(PoisonError::into_inner) += 1;
        self.0.freed.notify_one();
    }
}

/// Returns freed memory to the system. glibc keeps what a thread frees in that thread's arena,
/// so without this every runner thread that ever read a wide answer would keep the pages of its
/// tree, and the runner's resident memory would grow with `--jobs` after all.
fn give_back_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free pages of the allocator's own arenas.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slot_is_waited_for_until_one_is_given_back() {
        let budget = Budget::new(1);
        let held = budget.take();
        assert_eq!(budget.free(), 0);
        let (tx, rx) = std::sync::mpsc::channel();
        let other = budget.clone();
        let waiter = std::thread::spawn(move || {
            let _slot = other.take();
            tx.send(()).unwrap();
        });
        // The waiter cannot take a slot while this one is held.
        assert!(
            rx.recv_timeout(std::time::Duration::from_millis(200))
                .is_err()
        );
        drop(held);
        rx.recv().unwrap();
        waiter.join().unwrap();
        assert_eq!(budget.free(), 1);
    }
}
