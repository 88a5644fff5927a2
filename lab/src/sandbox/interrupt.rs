//! SIGINT, SIGTERM and SIGHUP while children run: the first kills every process tree the
//! sandbox started (their cgroups and process groups) and is recorded, so that the run stops,
//! writes what it has and exits with 128 + the signal; a second exits at once with that status.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicI32, AtomicU64, Ordering};

use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};

/// The first signal received (0: none).
static RECEIVED: AtomicI32 = AtomicI32::new(0);

/// A tree to kill: its process group and its cgroup folders.
type Target = (Option<i32>, Vec<PathBuf>);

/// The trees alive now, by a number of their own.
static TREES: Mutex<BTreeMap<u64, Target>> = Mutex::new(BTreeMap::new());

/// Catches the three signals on a thread of its own (once per process).
pub fn install() -> std::io::Result<()> {
    static DONE: std::sync::OnceLock<()> = std::sync::OnceLock::new();
    if DONE.get().is_some() {
        return Ok(());
    }
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    std::thread::Builder::new()
        .name("gdmarshal-signals".into())
        .spawn(move || {
            for sig in signals.forever() {
                let first = RECEIVED.compare_exchange(0, sig, Ordering::SeqCst, Ordering::SeqCst);
                kill_all();
                if first.is_err() {
                    std::process::exit(128 + sig);
                }
            }
        })?;
    let _ = DONE.set(());
    Ok(())
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

fn kill_all() {
    let trees: Vec<_> = TREES
        .lock()
        .map(|t| t.values().cloned().collect())
        .unwrap_or_default();
    for (group, dirs) in trees {
        if let Some(pid) = group.and_then(rustix::process::Pid::from_raw) {
            let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
        }
        super::cgroup::kill_dirs(&dirs);
    }
}

/// A tree known to the signal handler while this value lives.
#[derive(Debug)]
pub struct Registered(u64);

impl Registered {
    /// Registers the process group `group` and the cgroup folders `dirs`.
    pub fn new(group: Option<i32>, dirs: Vec<PathBuf>) -> Registered {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let id = NEXT.fetch_add(1, Ordering::Relaxed);
        if let Ok(mut t) = TREES.lock() {
            t.insert(id, (group, dirs));
        }
        Registered(id)
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        if let Ok(mut t) = TREES.lock() {
            t.remove(&self.0);
        }
    }
}
