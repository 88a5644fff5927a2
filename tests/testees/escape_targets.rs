//! What `hostile.py escape` attacks from inside the sandbox, made by the host side of a test: a
//! listener on the host's loopback, a Unix socket in the host's `/tmp`, and a file in the
//! repository's build folder (seen read-only inside). Shared by cli/tests/sandbox.rs (testees)
//! and lab/tests/sandbox.rs (engines), which include this file by path.

use std::net::TcpListener;
use std::os::unix::net::UnixListener;
use std::path::PathBuf;

/// The targets; the folders go when it is dropped.
pub struct Targets {
    tcp: TcpListener,
    unix: UnixListener,
    sock: PathBuf,
    /// The file to write, holding "original".
    pub file: PathBuf,
    _dirs: [tempfile::TempDir; 2],
}

impl Targets {
    /// Makes the listeners and the file; `build` is the build folder the file goes in.
    pub fn new(build: &str) -> Targets {
        let tcp = TcpListener::bind("127.0.0.1:0").unwrap();
        tcp.set_nonblocking(true).unwrap();
        let host = tempfile::tempdir().unwrap();
        let sock = host.path().join("host.sock");
        let unix = UnixListener::bind(&sock).unwrap();
        unix.set_nonblocking(true).unwrap();
        let kept = tempfile::tempdir_in(build).unwrap();
        let file = kept.path().join("judged-binary");
        std::fs::write(&file, "original").unwrap();
        Targets {
            tcp,
            unix,
            sock,
            file,
            _dirs: [host, kept],
        }
    }

    /// `hostile.py`'s arguments: `escape PORT PID SOCKET FILE ENGINE VAR`.
    pub fn args(&self, pid: u32, engine: &str, var: &str) -> Vec<String> {
        let port = self.tcp.local_addr().unwrap().port();
        vec![
            "escape".into(),
            port.to_string(),
            pid.to_string(),
            self.sock.display().to_string(),
            self.file.display().to_string(),
            engine.into(),
            var.into(),
        ]
    }

    /// Connections accepted so far: on the loopback listener and on the Unix socket.
    pub fn reached(&self) -> (usize, usize) {
        let tcp = std::iter::from_fn(|| self.tcp.accept().ok()).count();
        let unix = std::iter::from_fn(|| self.unix.accept().ok()).count();
        (tcp, unix)
    }

    /// Whether the file still holds what it was made with.
    pub fn file_intact(&self) -> bool {
        std::fs::read_to_string(&self.file).unwrap() == "original"
    }

    /// Asserts that every attempt `hostile.py escape` reported in `said` failed, and that
    /// nothing of the host's was reached or changed.
    pub fn assert_all_refused(&self, said: &str) {
        for route in [
            "setns",
            "ptrace",
            "unix",
            "unix-root",
            "write",
            "write-root",
            "engine",
            "unshare",
        ] {
            assert!(!said.contains(&format!("{route} ok")), "{route}: {said}");
        }
        // The view is read-only, the filter refuses namespaces, nothing gains privileges.
        for refusal in ["var unset", "engine EROFS", "nnp 1", "unshare EPERM"] {
            assert!(said.contains(refusal), "{refusal}: {said}");
        }
        assert_eq!(self.reached(), (0, 0), "{said}");
        assert!(self.file_intact(), "{said}");
    }
}
