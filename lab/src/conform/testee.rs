//! A testee process: the runner's side of the testee protocol (docs/conformance.md). It answers
//! cases as an [`Answerer`](crate::model::answerer::Answerer) (see `answers.rs`).
//!
//! The process is started once and answers one JSON line per request. If it dies, stops
//! answering within the timeout or breaks the protocol, the case in progress is
//! [`Answer::Unanswered`](crate::model::answer::Answer::Unanswered) (always a failure), the process is
//! killed with its whole process group and the next request starts a fresh one. A testee whose
//! main process has ended has crashed, even while processes it started still hold its pipes.
//! What it sends is held to the caps of [`super::limits`].

use std::io::{BufReader, Read, Write};
use std::os::unix::process::CommandExt;
use std::process::{Child, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, channel, sync_channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use gdmarshal::profile::Profile;

use super::budget::{Budget, Slot, WIDE_ANSWER};
use super::excerpt::StderrExcerpt;
use super::hello::{Hello, PROTOCOL};
use super::limits::{
    EXIT_GRACE_MS, EXIT_POLL_MS, Line, LineReader, MAX_ANSWER_DEPTH, MAX_ANSWER_LINE, line_start,
    too_deep,
};
use super::reply::{Reply, Request, whole};
use super::{Options, TesteeLimits};
use crate::fence::Network;
use crate::sandbox::{Plan, Tree};
use crate::shown::{SHOWN_LINE_START, truncate};

/// The stack of the threads that write a testee's stdin and read its stdout and stderr (their
/// buffers are on the heap).
const HELPER_STACK: usize = 256 << 10;

/// How a request went unanswered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Failure {
    /// The testee could not be started again, or failed its handshake.
    NotStarted,
    /// The testee's main process ended, or it closed its output.
    Crashed,
    /// No answer within the timeout.
    Hung,
    /// An answer that breaks the protocol (too long, too deep, not UTF-8, not JSON, another id).
    Protocol,
}

/// A testee that could not be started or did not complete its handshake.
#[derive(Clone, Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TesteeError {
    /// The command could not be run.
    #[error("cannot start testee {command:?}: {message}")]
    Spawn {
        /// The command line.
        command: String,
        /// What the system said.
        message: String,
    },
    /// The handshake failed: no answer, a crash, a hang, or not the protocol.
    #[error("handshake: {0}")]
    Handshake(NoAnswer),
    /// The handshake's answer is not a valid `hello`.
    #[error(transparent)]
    Hello(#[from] super::hello::HelloError),
}

/// Why a request got no answer: how, and the words for people (what the testee printed on stderr
/// before, and the flag that gives it longer, included).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{why}")]
pub struct NoAnswer {
    /// How.
    pub failure: Failure,
    why: String,
}

impl NoAnswer {
    fn new(failure: Failure, why: String) -> NoAnswer {
        NoAnswer { failure, why }
    }
}

struct Process {
    child: Child,
    /// Requests for the writer thread, which owns the testee's stdin (a testee that stops
    /// reading blocks that thread, never the runner); dropping it closes the stdin.
    requests: Option<Sender<Vec<u8>>>,
    /// A message from the writer thread when a write failed.
    write_failed: Receiver<()>,
    lines: Receiver<Line>,
    stderr: Arc<Mutex<StderrExcerpt>>,
    stderr_done: Receiver<()>,
    /// Whether the group was killed and the testee reaped.
    killed: bool,
    /// Its cgroup and process group, killed whole.
    tree: Tree,
    /// Its writable folder, removed once it has ended.
    _scratch: tempfile::TempDir,
}

impl Process {
    /// What the testee wrote to stderr, as the lines to add to a failure.
    fn stderr_excerpt(&self) -> String {
        match self.stderr.lock().ok().and_then(|e| e.render()) {
            Some(lines) => format!("\nits stderr:\n{lines}"),
            None => String::new(),
        }
    }

    /// Kills the whole process group (the testee and whatever it started) and reaps the testee.
    fn kill(&mut self) {
        if !self.killed {
            self.killed = true;
            self.tree.kill(&mut self.child);
            let _ = self.child.wait();
        }
    }

    /// Why the testee ended or closed its input or output (`what`): its exit status when its
    /// main process ends within two seconds. Kills its group either way.
    fn crash(&mut self, what: &str) -> String {
        let ended = self.exits_within(Duration::from_secs(2));
        self.kill();
        match self.child.try_wait() {
            // The testee runs under `sh -c`, which reports it as a parent does.
            Ok(Some(s)) if ended => match self
                .tree
                .signal_of(s)
                .or_else(|| crate::sandbox::signal_in_exit_code(s))
            {
                Some(sig) => format!("testee crashed (signal: {sig})"),
                None => format!("testee crashed ({s})"),
            },
            _ => format!("testee crashed (closed its {what})"),
        }
    }

    /// Waits up to `within` for the testee's main process to end; whether it did.
    fn exits_within(&mut self, within: Duration) -> bool {
        let until = Instant::now() + within;
        loop {
            if crate::group::has_exited(&mut self.child) {
                return true;
            }
            if Instant::now() >= until {
                return false;
            }
            std::thread::sleep(Duration::from_millis(EXIT_POLL_MS));
        }
    }
}

impl Drop for Process {
    /// Closes the testee's stdin, which asks it to exit; kills its whole process group once it
    /// has, or after a second if it has not, so that nothing it started is left running.
    fn drop(&mut self) {
        drop(self.requests.take());
        if !self.killed {
            self.exits_within(Duration::from_secs(1));
            self.kill();
        }
    }
}

/// A testee command, run as a persistent child process, asked about one format profile.
pub struct Testee {
    command: String,
    pub(super) profile: Profile,
    timeout: Duration,
    handshake_timeout: Duration,
    limits: TesteeLimits,
    process: Option<Process>,
    hello: Option<Hello>,
    next_id: u64,
    /// How many times the process was (re)started.
    pub starts: usize,
    /// Requests in a row that the testee crashed or hung on (a restart that fails counts too);
    /// any answer resets it.
    in_a_row: usize,
    /// Why the last request that counts in `in_a_row` got no answer.
    last_failure: Option<String>,
    /// The run's budget for wide answers.
    budget: Arc<Budget>,
    /// The slot of it this testee holds until its case is judged ([`Testee::release`]).
    slot: Option<Slot>,
}

impl Testee {
    /// Starts the options' testee command (run by `sh -c`, inside [`Options::limits`]) and does
    /// the handshake, which has [`Options::handshake_timeout`] to answer; each later request has
    /// [`Options::timeout`]. Its cases will be asked as engines of `profile` answer them; a wide
    /// answer is read within `budget` (shared by the run's testee processes).
    pub fn start(
        o: &Options,
        profile: Profile,
        budget: Arc<Budget>,
    ) -> Result<Testee, TesteeError> {
        let mut t = Testee {
            command: o.testee.clone(),
            profile,
            timeout: o.timeout,
            handshake_timeout: o.handshake_timeout,
            limits: o.limits.clone(),
            process: None,
            hello: None,
            next_id: 1,
            starts: 0,
            in_a_row: 0,
            last_failure: None,
            budget,
            slot: None,
        };
        t.ensure_started()?;
        t.release();
        Ok(t)
    }

    /// Holds a slot of the run's budget for wide answers, if the answer of `len` bytes is wide
    /// and none is held yet: waits for one.
    pub(super) fn hold_for(&mut self, len: usize) {
        if len > WIDE_ANSWER && self.slot.is_none() {
            self.slot = Some(self.budget.take());
        }
    }

    /// Gives back the slot held for wide answers, once what was read under it is dropped.
    pub fn release(&mut self) {
        self.slot = None;
    }

    /// The command line.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// The handshake answer.
    pub fn hello(&self) -> &Hello {
        self.hello.as_ref().expect("started")
    }

    /// Requests in a row the testee crashed or hung on (restarts that failed included), and the
    /// last reason; zero after any answer.
    pub(crate) fn failures_in_a_row(&self) -> (usize, Option<&str>) {
        (self.in_a_row, self.last_failure.as_deref())
    }

    fn spawn(&self) -> Result<Process, TesteeError> {
        let spawn_error = |message: String| TesteeError::Spawn {
            command: self.command.clone(),
            message,
        };
        // Its one writable folder, its HOME and TMPDIR.
        let scratch = crate::sandbox::scratch("gdmarshal-testee-")
            .map_err(|e| spawn_error(format!("cannot make its scratch folder: {e}")))?;
        let mut env = crate::sandbox::env::passed(&self.limits.env);
        for name in ["HOME", "TMPDIR"] {
            env.push((name.into(), scratch.path().into()));
        }
        let cwd = std::env::current_dir().map_err(|e| spawn_error(e.to_string()))?;
        let mut jail = self
            .limits
            .sandbox()
            .prepare(Plan {
                program: "sh".as_ref(),
                // As the user wrote it: `VAR=x cmd` and `cd dir && cmd` work, as in a shell.
                args: vec!["-c".into(), self.command.clone().into()],
                scratch: scratch.path(),
                writable: &[],
                cwd: &cwd,
                env,
                own_network: self.limits.network == Network::None,
            })
            .map_err(|e| spawn_error(e.to_string()))?;
        // Under bubblewrap the network namespace is its own; else the fence makes it.
        let network = if jail.wrapped {
            Network::Host
        } else {
            self.limits.network
        };
        let cmd = &mut jail.command;
        // Its own process group: a crash or timeout kills the group, children included.
        cmd.process_group(0)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        self.limits.apply(cmd, network);
        let mut child = jail.spawn().map_err(|e| spawn_error(e.to_string()))?;
        let tree = Tree::of(&child, jail);
        let mut stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let mut err = child.stderr.take().expect("piped");
        let (requests, queue) = channel::<Vec<u8>>();
        let (failed, write_failed) = channel();
        let threads = |name: &str| {
            std::thread::Builder::new()
                .name(format!("testee {name}"))
                .stack_size(HELPER_STACK)
        };
        let started = threads("stdin").spawn(move || {
            for line in queue {
                if stdin.write_all(&line).and_then(|_| stdin.flush()).is_err() {
                    let _ = failed.send(());
                    break;
                }
            }
        });
        // A line is handed over only when the runner takes it: a testee that writes unasked
        // has one line read ahead at most, and cannot fill the runner's memory.
        let (tx, lines) = sync_channel(0);
        let started = started.and_then(|_| {
            threads("stdout").spawn(move || {
                let mut reader =
                    LineReader::new(BufReader::with_capacity(1 << 16, stdout), MAX_ANSWER_LINE);
                loop {
                    let line = reader.next_line();
                    let end = line == Line::End;
                    if tx.send(line).is_err() || end {
                        break;
                    }
                }
            })
        });
        let stderr = Arc::new(Mutex::new(StderrExcerpt::default()));
        let sink = stderr.clone();
        let (done, stderr_done) = channel();
        let started = started.and_then(|_| {
            threads("stderr").spawn(move || {
                let mut buf = [0u8; 8192];
                loop {
                    match err.read(&mut buf) {
                        Ok(0) => break,
                        Ok(n) => {
                            if let Ok(mut e) = sink.lock() {
                                e.feed(&buf[..n]);
                            }
                        }
                        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                        Err(_) => break,
                    }
                }
                let _ = done.send(());
            })
        });
        if let Err(e) = started {
            tree.kill(&mut child);
            let _ = child.wait();
            return Err(TesteeError::Spawn {
                command: self.command.clone(),
                message: format!("cannot start a thread: {e}"),
            });
        }
        Ok(Process {
            child,
            requests: Some(requests),
            write_failed,
            lines,
            stderr,
            stderr_done,
            killed: false,
            tree,
            _scratch: scratch,
        })
    }

    fn ensure_started(&mut self) -> Result<(), TesteeError> {
        if self.process.is_some() {
            return Ok(());
        }
        let started = self.spawn().and_then(|p| {
            self.process = Some(p);
            self.starts += 1;
            let hello = json!({"op": "hello", "protocol": PROTOCOL});
            let answer = self.exchange(&hello, true, |t, text| {
                t.hold_for(text.len());
                parse_answer::<Value>(&text)
            });
            let answer = answer.map_err(TesteeError::Handshake)?;
            Hello::parse(&answer).map_err(TesteeError::Hello)
        });
        match started {
            Ok(h) => {
                self.hello.get_or_insert(h);
                Ok(())
            }
            Err(e) => {
                self.process = None;
                // A testee that cannot be (re)started is as good as one that crashes.
                self.in_a_row += 1;
                self.last_failure = Some(e.to_string());
                Err(e)
            }
        }
    }

    /// Waits for the answer line to the request just sent.
    fn wait_line(&mut self, timeout: Duration) -> Result<String, (Failure, String)> {
        let p = self.process.as_mut().expect("started");
        let deadline = Instant::now() + timeout;
        let mut exited: Option<Instant> = None;
        loop {
            let now = Instant::now();
            let wait = match exited {
                Some(grace_ends) => grace_ends.saturating_duration_since(now),
                None => deadline
                    .saturating_duration_since(now)
                    .min(Duration::from_millis(EXIT_POLL_MS)),
            };
            match p.lines.recv_timeout(wait) {
                Ok(Line::Text(text)) => return Ok(text),
                Ok(Line::TooLong(start)) => {
                    return Err((
                        Failure::Protocol,
                        format!(
                            "testee broke the protocol: its answer is longer than {} MiB (the limit), it begins: {}",
                            MAX_ANSWER_LINE >> 20,
                            line_start(&start, None)
                        ),
                    ));
                }
                Ok(Line::NotUtf8(start, at, len)) => {
                    return Err((
                        Failure::Protocol,
                        format!(
                            "testee broke the protocol: its answer is not UTF-8 (byte {at}), it begins: {}",
                            line_start(&start, Some(len))
                        ),
                    ));
                }
                Ok(Line::End) | Err(RecvTimeoutError::Disconnected) => {
                    // Its output is closed: give the process a moment to finish dying, to
                    // report its status.
                    return Err((Failure::Crashed, p.crash("output")));
                }
                Err(RecvTimeoutError::Timeout) => {
                    if p.write_failed.try_recv().is_ok() {
                        // It closed its stdin: it cannot take the request.
                        return Err((Failure::Crashed, p.crash("input")));
                    }
                    if exited.is_some() {
                        // Its main process has ended and no answer came: whatever it left
                        // running still holds its output, but it has crashed all the same.
                        return Err((Failure::Crashed, p.crash("output")));
                    }
                    if Instant::now() >= deadline {
                        return Err((
                            Failure::Hung,
                            format!(
                                "testee hung: no answer within {:.1} s",
                                timeout.as_secs_f64()
                            ),
                        ));
                    }
                    if crate::group::has_exited(&mut p.child) {
                        // An answer it wrote before exiting may still be on its way.
                        exited = Some(Instant::now() + Duration::from_millis(EXIT_GRACE_MS));
                    }
                }
            }
        }
    }

    /// Sends one request and reads its answer with `parse`; on any failure the process is gone
    /// afterwards, its whole process group killed.
    fn exchange<T>(
        &mut self,
        request: &impl serde::Serialize,
        handshake: bool,
        parse: Parse<T>,
    ) -> Result<T, NoAnswer> {
        let timeout = if handshake {
            self.handshake_timeout
        } else {
            self.timeout
        };
        let p = self.process.as_mut().expect("started");
        if let Ok(mut e) = p.stderr.lock() {
            e.mark();
        }
        let mut line = serde_json::to_string(request).expect("requests serialize");
        line.push('\n');
        let timeout = scaled(timeout, line.len());
        let sent = match &p.requests {
            Some(requests) => requests.send(line.into_bytes()).map_err(|_| ()),
            None => Err(()),
        };
        let result = match sent {
            Err(_) => Err((Failure::Crashed, p.crash("input"))),
            Ok(()) => self.wait_line(timeout),
        };
        let result = result.and_then(|text| parse(self, text));
        match result {
            Ok(v) => {
                if !handshake {
                    self.in_a_row = 0;
                }
                Ok(v)
            }
            Err((kind, why)) => {
                let mut p = self.process.take().expect("started");
                p.kill();
                // What it printed before dying is the best clue: wait for the last of it.
                let _ = p.stderr_done.recv_timeout(Duration::from_secs(2));
                // A slow start (a testee that compiles first: `go run`, `dotnet run`) or a slow
                // answer is fixed by a flag: name it.
                let flag = match (kind, handshake) {
                    (Failure::Hung, true) => " (--handshake-timeout SECS gives it longer)",
                    (Failure::Hung, false) => " (--timeout SECS gives it longer)",
                    _ => "",
                };
                let why = format!("{why}{flag}{}", p.stderr_excerpt());
                if !handshake {
                    match kind {
                        Failure::Crashed | Failure::Hung | Failure::NotStarted => {
                            self.in_a_row += 1;
                            self.last_failure = Some(why.clone());
                        }
                        Failure::Protocol => self.in_a_row = 0,
                    }
                }
                Err(NoAnswer::new(kind, why))
            }
        }
    }

    /// One request: `Ok(answer)` with a matching id, or the reason there is no answer.
    pub(super) fn request(&mut self, mut request: Request<'_>) -> Result<Reply, NoAnswer> {
        self.ensure_started()
            .map_err(|e| NoAnswer::new(Failure::NotStarted, e.to_string()))?;
        let id = self.next_id;
        self.next_id += 1;
        request.id = id;
        let answer = self.exchange(&request, false, |_, text| parse_reply(&text))?;
        if answer.id.raw().and_then(whole) != Some(id) {
            // Out of step: the next answers cannot be trusted either.
            self.process = None;
            let got = answer
                .id
                .raw()
                .map(|v| truncate(v.get(), SHOWN_LINE_START))
                .unwrap_or("(none)".into());
            return Err(NoAnswer::new(
                Failure::Protocol,
                format!("testee broke the protocol: answered id {got} to request {id}"),
            ));
        }
        Ok(answer)
    }
}

/// The time a testee has for a request of `len` bytes: `timeout` once more per mebibyte, so that
/// a stress case (a request of up to a few MiB, and an answer as large) is not taken for a hang.
fn scaled(timeout: Duration, len: usize) -> Duration {
    timeout.mul_f64(1.0 + len as f64 / f64::from(1u32 << 20))
}

/// How [`Testee::exchange`] reads an answer line: what it is, or why it breaks the protocol.
type Parse<T> = fn(&mut Testee, String) -> Result<T, (Failure, String)>;

/// An answer line as [`Reply`], within the nesting limit: only the members the runner reads are
/// kept, as written.
fn parse_reply(text: &str) -> Result<Reply, (Failure, String)> {
    within_depth(text)?;
    Reply::parse(text).map_err(|e| {
        let e = format!("not a JSON object of the protocol ({e})");
        (Failure::Protocol, protocol_broken(text, &e))
    })
}

/// Refuses an answer that nests deeper than [`MAX_ANSWER_DEPTH`].
fn within_depth(text: &str) -> Result<(), (Failure, String)> {
    if let Some(at) = too_deep(text.as_bytes(), MAX_ANSWER_DEPTH) {
        return Err((
            Failure::Protocol,
            format!(
                "testee broke the protocol: its answer nests deeper than {MAX_ANSWER_DEPTH} levels (the limit) at byte {at}, it begins: {}",
                line_start(text.as_bytes(), Some(text.len()))
            ),
        ));
    }
    Ok(())
}

/// Why an answer line that does not parse breaks the protocol, with the line's start.
fn protocol_broken(text: &str, e: &dyn std::fmt::Display) -> String {
    format!(
        "testee broke the protocol: its answer is {e}: {}",
        line_start(text.as_bytes(), Some(text.len()))
    )
}

/// An answer line as a JSON tree, within the nesting limit.
fn parse_answer<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, (Failure, String)> {
    within_depth(text)?;
    gdmarshal::json::parse_deep::<T>(text).map_err(|e| {
        let e = format!("not JSON ({e})");
        (Failure::Protocol, protocol_broken(text, &e))
    })
}
