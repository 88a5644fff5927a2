//! One running engine process: its scratch directory, its connection, and the threads that
//! turn its output into [`Event`]s.

use std::io::{self, BufRead, BufReader, Read};
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Child, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread;
use std::time::{Duration, Instant};

use super::auth;
use super::config::EngineConfig;
use super::discover::EngineSpec;
use super::error::OracleError;
use super::protocol::{read_frame, write_frame};
use super::scratch;
use crate::fence::{NetNamespace, Network};
use crate::sandbox::{Plan, Sandbox, Tree, TreeLimits};

/// The script the engine runs, inside the project.
const ENTRY: &str = "res://oracle/main.gd";

/// Something the engine did.
#[derive(Debug)]
pub(crate) enum Event {
    /// A line on its stderr.
    Stderr(String),
    /// Its stderr closed: the process is gone or going.
    StderrClosed,
    /// A response frame.
    Frame(Vec<u8>),
    /// The connection closed.
    SocketClosed,
}

/// A started engine process. Dropping it kills the process and removes its scratch directory.
pub struct Process {
    child: Child,
    stream: TcpStream,
    /// Everything the engine does, in arrival order.
    pub events: Receiver<Event>,
    exited: Option<ExitStatus>,
    refused: usize,
    exit_grace: Duration,
    /// Its cgroup and process group, killed whole.
    tree: Tree,
    _scratch: tempfile::TempDir,
}

impl Process {
    /// Starts the engine on a scratch copy of `project` and waits for it to connect.
    pub fn spawn(spec: &EngineSpec, config: &EngineConfig) -> Result<Process, OracleError> {
        let (project, timeout) = (&config.project, config.start_timeout);
        let scratch = scratch::create().map_err(OracleError::Scratch)?;
        let copy = scratch.path().join("project");
        let home = scratch.path().join("home");
        copy_project(project, &copy).map_err(OracleError::Scratch)?;
        std::fs::create_dir(&home).map_err(OracleError::Scratch)?;
        let (listener, namespace) = listener(config.network).map_err(OracleError::Io)?;
        let port = listener.local_addr().map_err(OracleError::Io)?.port();
        let secret = auth::new_secret().map_err(OracleError::Io)?;

        // HOME and XDG dirs in the scratch dir keep the engine's user data out of the real home.
        // The port and the secret go in the environment: a command line is world-readable.
        let mut env = crate::sandbox::env::passed(&[]);
        for (name, value) in [
            (auth::PORT_VAR, port.to_string().into()),
            (auth::SECRET_VAR, secret.clone().into()),
            ("HOME", home.clone().into_os_string()),
            ("XDG_DATA_HOME", home.join(".local/share").into_os_string()),
            ("XDG_CONFIG_HOME", home.join(".config").into_os_string()),
            ("XDG_CACHE_HOME", home.join(".cache").into_os_string()),
        ] {
            env.push((name.into(), value));
        }
        let mut args: Vec<std::ffi::OsString> = spec.args.iter().map(Into::into).collect();
        args.extend(["--path".into(), copy.clone().into_os_string()]);
        args.extend(["-s".into(), ENTRY.into()]);
        let sandbox = Sandbox {
            mode: config.sandbox,
            tree: TreeLimits {
                memory: config.limits.address_space,
                processes: Sandbox::PROCESSES,
            },
        };
        let mut jail = sandbox
            .prepare(Plan {
                program: spec.launcher.as_os_str(),
                args,
                scratch: scratch.path(),
                writable: &config.writable,
                cwd: scratch.path(),
                env,
                own_network: false,
            })
            .map_err(OracleError::Sandbox)?;
        let command = &mut jail.command;
        config.limits.apply(command);
        if let Some(ns) = &namespace {
            ns.enter_on(command);
        }
        // Its own process group: a crash, hang or drop kills the group (`kill_group`).
        command
            .process_group(0)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = jail.spawn().map_err(|source| OracleError::Spawn {
            launcher: spec.launcher.display().to_string(),
            source,
        })?;
        let tree = Tree::of(&child, jail);

        // Bounded: an engine that floods stderr blocks on its own pipe (and then counts as hung)
        // instead of filling the host's memory.
        let (tx, events) = sync_channel(EVENTS);
        let stderr = child.stderr.take().expect("stderr is piped");
        let stdout = child.stdout.take().expect("stdout is piped");
        spawn_thread("gdmarshal-engine-stderr", stderr_reader(stderr, tx.clone()));
        spawn_thread("gdmarshal-engine-stdout", move || {
            // The banner and print() output: read only so that the pipe never fills.
            let _ = io::copy(&mut BufReader::new(stdout), &mut io::sink());
        });

        let (stream, refused) = match auth::accept_engine(&listener, &mut child, &secret, timeout) {
            Ok(a) => (a.stream, a.refused),
            Err(e) => return Err(Self::failed_start(child, &tree, events, e, timeout)),
        };
        let process = Process {
            child,
            stream,
            events,
            exited: None,
            refused,
            exit_grace: spec.exit_grace,
            tree,
            _scratch: scratch,
        };
        let reader = process.stream.try_clone().map_err(OracleError::Io)?;
        spawn_thread("gdmarshal-engine-socket", socket_reader(reader, tx));
        process.stream.set_nodelay(true).map_err(OracleError::Io)?;
        Ok(process)
    }

    // Why a start failed: the engine's own words (its stderr) and how it ended.
    fn failed_start(
        mut child: Child,
        tree: &Tree,
        events: Receiver<Event>,
        err: io::Error,
        timeout: Duration,
    ) -> OracleError {
        let exited = child.try_wait().ok().flatten();
        if exited.is_none() {
            tree.kill(&mut child);
        }
        let status = child.wait().ok();
        let status = describe(status, status.and_then(|s| tree.signal_of(s)));
        let deadline = Instant::now() + Duration::from_secs(2);
        let mut stderr = String::new();
        while let Ok(Event::Stderr(line)) =
            events.recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            // Shown to people: bounded, and no terminal control sequences of the engine's.
            if stderr.len() + line.len() < START_STDERR {
                stderr.push_str(&escape_controls(&line));
                stderr.push('\n');
            }
        }
        if exited.is_some() {
            OracleError::ExitedEarly { status, stderr }
        } else if err.kind() == io::ErrorKind::TimedOut {
            OracleError::NoConnection { timeout, stderr }
        } else {
            OracleError::Io(err)
        }
    }

    /// Connections to the engine's port that were closed because they did not present the
    /// secret (someone else connected first).
    pub fn refused(&self) -> usize {
        self.refused
    }

    /// The engine's process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends one request frame.
    pub fn send(&mut self, body: &[u8]) -> io::Result<()> {
        write_frame(&mut self.stream, body)
    }

    /// Waits up to `grace` for the process to end, kills it if it has not, and says how it
    /// ended: in words, and the signal that ended it, if any.
    pub fn finish(&mut self, grace: Duration) -> (String, Option<i32>) {
        let deadline = Instant::now() + grace;
        while self.exited.is_none() && Instant::now() < deadline {
            match self.child.try_wait() {
                Ok(Some(status)) => self.exited = Some(status),
                Ok(None) => thread::sleep(Duration::from_millis(5)),
                Err(_) => break,
            }
        }
        if self.exited.is_none() {
            self.tree.kill(&mut self.child);
            self.exited = self.child.wait().ok();
        }
        let signal = self.exited.and_then(|s| self.tree.signal_of(s));
        (describe(self.exited, signal), signal)
    }
}

impl Drop for Process {
    fn drop(&mut self) {
        if self.exited.is_none() && !self.exit_grace.is_zero() {
            // The oracle quits when its connection closes: let it end normally.
            let _ = self.stream.shutdown(std::net::Shutdown::Both);
            self.finish(self.exit_grace);
        }
        if self.exited.is_none() {
            self.tree.kill(&mut self.child);
            let _ = self.child.wait();
        }
        // Whatever the tree left (a process that left its group) goes with its cgroup.
        if let Some(c) = self.tree.cgroup() {
            c.kill();
        }
    }
}

/// The most of a failed start's stderr kept for its error message.
const START_STDERR: usize = 16 << 10;

/// The text with control characters (other than tab) written as `\u{..}` escapes.
pub(crate) fn escape_controls(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            let escaped: Vec<char> = if c.is_control() && c != '\t' {
                format!("\\u{{{:x}}}", c as u32).chars().collect()
            } else {
                vec![c]
            };
            escaped
        })
        .collect()
}

/// Events queued from an engine before its readers wait for the host.
const EVENTS: usize = 4096;

/// The longest stderr line kept; the rest of a longer line is read and dropped, so that an engine
/// printing without end cannot make the host hold it.
pub const MAX_LINE: usize = 16 << 10;

fn stderr_reader(
    stderr: impl Read + Send + 'static,
    tx: SyncSender<Event>,
) -> impl FnOnce() + Send + 'static {
    move || {
        let mut reader = BufReader::new(stderr);
        let mut line = Vec::new();
        loop {
            line.clear();
            match read_capped_line(&mut reader, &mut line, MAX_LINE) {
                Ok(0) | Err(_) => break,
                Ok(_) => {
                    let text = String::from_utf8_lossy(&line);
                    let text = text.trim_end_matches(['\n', '\r']).to_string();
                    if tx.send(Event::Stderr(text)).is_err() {
                        return;
                    }
                }
            }
        }
        let _ = tx.send(Event::StderrClosed);
    }
}

/// Reads one line into `line`, keeping at most `max` bytes of it and skipping the rest; returns
/// the bytes read (0 at the end of the stream).
pub(crate) fn read_capped_line(
    r: &mut impl BufRead,
    line: &mut Vec<u8>,
    max: usize,
) -> io::Result<usize> {
    let mut total = 0;
    loop {
        let buf = r.fill_buf()?;
        if buf.is_empty() {
            return Ok(total);
        }
        let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..=i], true),
            None => (buf, false),
        };
        let room = max.saturating_sub(line.len());
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        let n = chunk.len();
        total += n;
        r.consume(n);
        if done {
            return Ok(total);
        }
    }
}

fn socket_reader(stream: TcpStream, tx: SyncSender<Event>) -> impl FnOnce() + Send + 'static {
    move || {
        let mut reader = BufReader::with_capacity(1 << 16, stream);
        loop {
            match read_frame(&mut reader) {
                Ok(body) => {
                    if tx.send(Event::Frame(body)).is_err() {
                        return;
                    }
                }
                Err(_) => {
                    let _ = tx.send(Event::SocketClosed);
                    return;
                }
            }
        }
    }
}

fn spawn_thread(name: &str, f: impl FnOnce() + Send + 'static) {
    thread::Builder::new()
        .name(name.to_string())
        .spawn(f)
        .expect("cannot start a thread");
}

/// Copies the project, leaving out engine caches (`.godot`, `.import`).
fn copy_project(from: &Path, to: &Path) -> io::Result<()> {
    std::fs::create_dir_all(to)?;
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let name = entry.file_name();
        if name.to_string_lossy().starts_with('.') {
            continue;
        }
        let target = to.join(&name);
        if entry.file_type()?.is_dir() {
            copy_project(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), target)?;
        }
    }
    Ok(())
}

/// How a process ended, e.g. `killed by signal 11 (SIGSEGV)` or `exited with status 1`, given
/// the signal that ended it (under the sandbox, bubblewrap reports it as status 128 + N).
pub fn describe(status: Option<ExitStatus>, signal: Option<i32>) -> String {
    let Some(status) = status else {
        return "unknown exit".to_string();
    };
    if let Some(sig) = signal {
        let name = match sig {
            4 => " (SIGILL)",
            6 => " (SIGABRT)",
            7 => " (SIGBUS)",
            8 => " (SIGFPE)",
            9 => " (SIGKILL)",
            11 => " (SIGSEGV)",
            15 => " (SIGTERM)",
            _ => "",
        };
        return format!("killed by signal {sig}{name}");
    }
    match status.code() {
        Some(code) => format!("exited with status {code}"),
        None => "unknown exit".to_string(),
    }
}

/// The listener the engine connects to: inside a network namespace of the engine's own when
/// `network` is [`Network::None`] and one can be made (else on the host, said once per run).
fn listener(network: Network) -> io::Result<(TcpListener, Option<NetNamespace>)> {
    if network == Network::None {
        match NetNamespace::with_listener() {
            Ok((ns, listener)) => return Ok((listener, Some(ns))),
            Err(e) => crate::fence::note_unfenced(&e),
        }
    }
    Ok((TcpListener::bind("127.0.0.1:0")?, None))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(
            escape_controls("a\x1b[2Jb\tc\u{7f}"),
            "a\\u{1b}[2Jb\tc\\u{7f}"
        );
    }

    #[test]
    fn long_lines_are_cut_and_the_next_line_is_whole() {
        let mut input: &[u8] = b"0123456789abcdef\nshort\n";
        let mut line = Vec::new();
        assert_eq!(read_capped_line(&mut input, &mut line, 4).unwrap(), 17);
        assert_eq!(line, b"0123");
        line.clear();
        assert_eq!(read_capped_line(&mut input, &mut line, 4).unwrap(), 6);
        assert_eq!(line, b"shor");
        line.clear();
        assert_eq!(read_capped_line(&mut input, &mut line, 4).unwrap(), 0);
    }
}
