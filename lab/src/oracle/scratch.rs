//! Engine scratch folders (`$TMPDIR/gdmarshal-engine-*`: the project copy and the engine's home).
//! Each is removed when its engine ends; one left behind by a host that was killed is removed by
//! the next host that starts an engine, once its owner is gone.

use std::io;
use std::path::Path;
use std::sync::Once;

/// The folder-name prefix.
pub(crate) const PREFIX: &str = "gdmarshal-engine-";

/// The file in each scratch folder that names the host process owning it.
const OWNER: &str = "owner.pid";

/// Makes a scratch folder (mode 0700) owned by this process.
pub fn create() -> io::Result<tempfile::TempDir> {
    static SWEEP: Once = Once::new();
    SWEEP.call_once(|| {
        sweep(&std::env::temp_dir());
    });
    let dir = crate::sandbox::scratch(PREFIX)?;
    std::fs::write(dir.path().join(OWNER), std::process::id().to_string())?;
    Ok(dir)
}

/// Removes the scratch folders under `tmp` whose owner process no longer runs; returns how many.
pub(crate) fn sweep(tmp: &Path) -> usize {
    let Ok(entries) = std::fs::read_dir(tmp) else {
        return 0;
    };
    let mut removed = 0;
    for e in entries.flatten() {
        let name = e.file_name();
        if !name.to_string_lossy().starts_with(PREFIX) {
            continue;
        }
        let owner = std::fs::read_to_string(e.path().join(OWNER))
            .ok()
            .and_then(|t| t.trim().parse::<u32>().ok());
        // A folder without an owner file is being made right now, or predates them: leave it.
        if let Some(pid) = owner
            && !alive(pid)
            && std::fs::remove_dir_all(e.path()).is_ok()
        {
            removed += 1;
        }
    }
    removed
}

fn alive(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn folders_of_dead_owners_are_swept_and_live_ones_kept() {
        let tmp = tempfile::tempdir().unwrap();
        let dead = tmp.path().join(format!("{PREFIX}dead"));
        let live = tmp.path().join(format!("{PREFIX}live"));
        let other = tmp.path().join("someone-else");
        for d in [&dead, &live, &other] {
            std::fs::create_dir(d).unwrap();
        }
        // A pid that cannot be running: beyond the kernel's pid limit.
        std::fs::write(dead.join(OWNER), "4294967295").unwrap();
        std::fs::write(live.join(OWNER), std::process::id().to_string()).unwrap();
        std::fs::write(other.join(OWNER), "4294967295").unwrap();
        assert_eq!(sweep(tmp.path()), 1);
        assert!(!dead.exists() && live.exists() && other.exists());
    }
}
