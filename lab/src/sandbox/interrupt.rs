//! SIGINT, SIGTERM and SIGHUP while children run. What the first does depends on the command
//! ([`Stop`]): kill every process tree the sandbox started (their cgroups and process groups)
//! and exit at once, kill them and let the run write its report, or let the run end its batch.
//! It is recorded either way, and the run exits with 128 + the signal; a second signal kills
//! every tree and exits at once with 128 + its number.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError};

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};

/// The first signal received (0: none).
static RECEIVED: AtomicI32 = AtomicI32::new(0);

/// Set with [`RECEIVED`]: for loops that poll a flag between pieces of work.
static STOP: AtomicBool = AtomicBool::new(false);

/// What the first signal does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Stop {
    /// Kill every tree and exit: the command has nothing partial worth writing (its files are
    /// written whole or not at all).
    Now,
    /// Kill every tree; the run marks what it did not run and writes its report (conform).
    AfterReport,
    /// Kill nothing yet; the run ends its current batch, writes what it ran and drops its
    /// children (campaigns, whose engines answer a batch in a moment).
    AfterBatch,
}

/// A tree to kill: its process group and its cgroup folders.
type Target = (Option<i32>, Vec<PathBuf>);

/// The trees alive now, by a number of their own.
static TREES: Mutex<BTreeMap<u64, Target>> = Mutex::new(BTreeMap::new());

/// Catches the three signals on a thread of its own. The first call in a process decides what
/// the first signal does; later calls change nothing.
pub fn install(stop: Stop) -> std::io::Result<()> {
    static DONE: Mutex<bool> = Mutex::new(false);
    let mut done = DONE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if *done {
        return Ok(());
    }
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::Builder::new()
        .name("gdmarshal-signals".into())
        .spawn(move || {
            for sig in signals.forever() {
                let first = RECEIVED
                    .compare_exchange(0, sig, Ordering::SeqCst, Ordering::SeqCst)
                    .is_ok();
                STOP.store(true, Ordering::SeqCst);
                match (first, stop) {
                    (true, Stop::AfterBatch) => {}
                    (true, Stop::AfterReport) => drop(kill_all(false)),
                    _ => {
                        let _held = kill_all(true);
                        eprintln!("gdmarshal: interrupted by {}", name(sig));
                        std::process::exit(128 + sig);
                    }
                }
            }
        })?;
    *done = true;
    Ok(())
}

/// Set once a signal has been received: a flag for loops that stop between pieces of work.
pub fn stop_flag() -> &'static AtomicBool {
    &STOP
}

/// The signal received, if one was.
pub fn received() -> Option<i32> {
    match RECEIVED.load(Ordering::SeqCst) {
        0 => None,
        sig => Some(sig),
    }
}

/// The signal's name, for reports.
pub fn name(sig: i32) -> &'static str {
    match sig {
        SIGINT => "SIGINT",
        SIGTERM => "SIGTERM",
        SIGHUP => "SIGHUP",
        _ => "a signal",
    }
}

/// Kills every registered tree; with `remove`, also removes their cgroup folders (the process
/// is about to exit, so their owners will not). Returns the list's lock, still held: a process
/// about to exit keeps it, so that no thread makes a cgroup folder after the list was read.
fn kill_all(remove: bool) -> MutexGuard<'static, BTreeMap<u64, Target>> {
    let trees = TREES.lock().unwrap_or_else(PoisonError::into_inner);
    for (group, dirs) in trees.values() {
        if let Some(pid) = group.and_then(rustix::process::Pid::from_raw) {
            let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
        }
        super::cgroup_kill::kill_dirs(dirs);
        if remove {
            super::cgroup_kill::remove_dirs(dirs);
        }
    }
    trees
}

/// A tree known to the signal handler while this value lives.
#[derive(Debug)]
pub(crate) struct Registered(u64);

impl Registered {
    /// Registers the process group `group` (its cgroup registers itself: [`Registered::making`]).
    pub fn group(group: Option<i32>) -> Registered {
        let id = next_id();
        TREES
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(id, (group, Vec::new()));
        Registered(id)
    }

    /// Registers the cgroup folders `dirs` as `make` creates them, under the lock the handler
    /// takes: a signal finds them either made and registered or not made at all. `make`
    /// removes what it made if it fails.
    pub fn making<E>(
        dirs: Vec<PathBuf>,
        make: impl FnOnce() -> Result<(), E>,
    ) -> Result<Registered, E> {
        let id = next_id();
        let mut trees = TREES.lock().unwrap_or_else(PoisonError::into_inner);
        make()?;
        trees.insert(id, (None, dirs));
        Ok(Registered(id))
    }
}

/// A number for a new entry of [`TREES`].
fn next_id() -> u64 {
    static NEXT: AtomicU64 = AtomicU64::new(0);
    NEXT.fetch_add(1, Ordering::Relaxed)
}

impl Drop for Registered {
    fn drop(&mut self) {
        TREES
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A signal that comes between a cgroup's making and its tree's spawning still finds its
    /// folders, so that they are removed before the process exits.
    #[test]
    fn a_cgroup_is_known_to_the_handler_from_its_making() {
        let group = super::super::Cgroup::create(super::super::TreeLimits {
            memory: 64 << 20,
            processes: 4,
        })
        .expect("this project's machines let a process make cgroups below its own");
        let known = |dirs: &[PathBuf]| {
            TREES
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .values()
                .any(|(_, d)| d == dirs)
        };
        let dirs = group.dirs().to_vec();
        assert!(dirs.iter().all(|d| d.is_dir()));
        assert!(known(&dirs));
        drop(group);
        assert!(!known(&dirs));
        assert!(dirs.iter().all(|d| !d.exists()));
    }
}
