//! A testee process: the runner's side of the testee protocol (docs/conformance.md). It answers
//! cases as an [`Answerer`](crate::answerer::Answerer) (see `answers.rs`).
//!
//! The process is started once and answers one JSON line per request. If it dies, stops
//! answering within the timeout or breaks the protocol, the case in progress is
//! [`Answer::Unanswered`](crate::answer::Answer::Unanswered) (always a failure), the process is
//! killed and the next request starts a fresh one.

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value, json};

use gdmarshal::profile::Profile;

/// The protocol version this runner speaks.
pub const PROTOCOL: u64 = 1;

/// What a testee may declare: everything, or a list.
#[derive(Clone, Debug, PartialEq)]
pub enum Declared {
    /// `"all"`.
    All,
    /// A list of names.
    Some(Vec<String>),
}

impl Declared {
    fn parse(v: Option<&Value>, what: &str) -> Result<Declared, String> {
        match v {
            None => Ok(Declared::All),
            Some(Value::String(s)) if s == "all" => Ok(Declared::All),
            Some(Value::Array(items)) => items
                .iter()
                .map(|i| {
                    i.as_str()
                        .map(str::to_string)
                        .ok_or_else(|| format!("hello: {what} must hold strings"))
                })
                .collect::<Result<_, _>>()
                .map(Declared::Some),
            Some(_) => Err(format!(
                "hello: {what} must be \"all\" or an array of strings"
            )),
        }
    }

    /// Whether `name` is declared; `also` are further names that count as a match (e.g. the
    /// major version for a minor).
    pub fn covers(&self, name: &str, also: &[&str]) -> bool {
        match self {
            Declared::All => true,
            Declared::Some(list) => list
                .iter()
                .any(|d| d == name || also.iter().any(|a| d == a)),
        }
    }
}

/// The testee's answer to the handshake.
#[derive(Clone, Debug)]
pub struct Hello {
    /// The name the testee gives itself.
    pub name: String,
    /// Engine versions (format profiles such as `4.6`, or a major such as `4`).
    pub versions: Declared,
    /// `decode`, `encode`.
    pub directions: Declared,
    /// Type names (Godot 4 names, as in tagged JSON).
    pub types: Declared,
    /// The testee's own expected failures, `ENGINE-GLOB CASE-GLOB REASON` lines (optional).
    pub expect_fail: Vec<crate::corpus::known::Entry>,
}

impl Hello {
    fn parse(v: &Value) -> Result<Hello, String> {
        let name = v
            .get("name")
            .and_then(Value::as_str)
            .ok_or("hello: the answer has no \"name\" string")?
            .to_string();
        if let Some(p) = v.get("protocol").and_then(Value::as_u64)
            && p != PROTOCOL
        {
            return Err(format!(
                "hello: the testee speaks protocol {p}, this runner {PROTOCOL}"
            ));
        }
        Ok(Hello {
            name,
            versions: Declared::parse(v.get("versions"), "versions")?,
            directions: Declared::parse(v.get("directions"), "directions")?,
            types: Declared::parse(v.get("types"), "types")?,
            expect_fail: match v.get("expect_fail") {
                None => Vec::new(),
                Some(Value::Array(lines)) => {
                    let mut text = String::new();
                    for l in lines {
                        text.push_str(l.as_str().ok_or("hello: expect_fail must hold strings")?);
                        text.push('\n');
                    }
                    crate::corpus::known::parse(&text, "testee expect_fail")?
                }
                Some(_) => return Err("hello: expect_fail must be an array of strings".into()),
            },
        })
    }
}

struct Process {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<std::io::Result<String>>,
    stderr: Arc<Mutex<String>>,
    stderr_done: Receiver<()>,
}

impl Process {
    fn stderr_tail(&self) -> String {
        let s = self.stderr.lock().map(|s| s.clone()).unwrap_or_default();
        let s = s.trim();
        if s.is_empty() {
            String::new()
        } else {
            let lines: Vec<&str> = s.lines().collect();
            let tail = lines[lines.len().saturating_sub(3)..].join(" | ");
            format!("; its last stderr: {tail}")
        }
    }
}

impl Drop for Process {
    /// Closes the testee's stdin, which asks it to exit; kills it if it has not within a second.
    fn drop(&mut self) {
        drop(self.stdin.take());
        for _ in 0..100 {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        crate::group::kill_group(&mut self.child);
        let _ = self.child.wait();
    }
}

/// A testee command, run as a persistent child process, asked about one format profile.
pub struct Testee {
    command: String,
    pub(super) profile: Profile,
    timeout: Duration,
    start_timeout: Duration,
    process: Option<Process>,
    hello: Option<Hello>,
    next_id: u64,
    /// How many times the process was (re)started.
    pub starts: usize,
}

impl Testee {
    /// Starts `command` (run by `sh -c`) and does the handshake; its cases will be asked as
    /// engines of `profile` answer them.
    pub fn start(command: &str, timeout: Duration, profile: Profile) -> Result<Testee, String> {
        let mut t = Testee {
            command: command.to_string(),
            profile,
            timeout,
            start_timeout: timeout.max(Duration::from_secs(30)),
            process: None,
            hello: None,
            next_id: 1,
            starts: 0,
        };
        t.ensure_started()?;
        Ok(t)
    }

    /// The command line.
    pub fn command(&self) -> &str {
        &self.command
    }

    /// The handshake answer.
    pub fn hello(&self) -> &Hello {
        self.hello.as_ref().expect("started")
    }

    fn spawn(&self) -> Result<Process, String> {
        let mut child = crate::group::own_group(&mut Command::new("sh"))
            .arg("-c")
            .arg(format!("exec {}", self.command))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start testee {:?}: {e}", self.command))?;
        let stdin = child.stdin.take().expect("piped");
        let stdout = child.stdout.take().expect("piped");
        let mut err = child.stderr.take().expect("piped");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let end = line.is_err();
                if tx.send(line).is_err() || end {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let sink = stderr.clone();
        let (done, stderr_done) = channel();
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err.read(&mut buf) {
                if n == 0 {
                    break;
                }
                if let Ok(mut s) = sink.lock() {
                    s.push_str(&String::from_utf8_lossy(&buf[..n]));
                    if s.len() > 8192 {
                        let cut = s.len() - 4096;
                        let cut = (cut..s.len()).find(|&i| s.is_char_boundary(i)).unwrap_or(0);
                        s.drain(..cut);
                    }
                }
            }
            let _ = done.send(());
        });
        Ok(Process {
            child,
            stdin: Some(stdin),
            lines,
            stderr,
            stderr_done,
        })
    }

    fn ensure_started(&mut self) -> Result<(), String> {
        if self.process.is_some() {
            return Ok(());
        }
        self.process = Some(self.spawn()?);
        self.starts += 1;
        let answer = self.exchange(&json!({"op": "hello", "protocol": PROTOCOL}), true);
        let answer = answer.map_err(|e| format!("handshake: {e}"))?;
        let hello = Hello::parse(&answer);
        match hello {
            Ok(h) => {
                self.hello.get_or_insert(h);
                Ok(())
            }
            Err(e) => {
                self.process = None;
                Err(e)
            }
        }
    }

    /// Sends one request and reads its answer; on any failure the process is gone afterwards.
    fn exchange(&mut self, request: &Value, handshake: bool) -> Result<Value, String> {
        let timeout = if handshake {
            self.start_timeout
        } else {
            self.timeout
        };
        let p = self.process.as_mut().expect("started");
        let mut line = serde_json::to_string(request).expect("requests serialize");
        line.push('\n');
        let sent = match p.stdin.as_mut() {
            Some(stdin) => stdin.write_all(line.as_bytes()).and_then(|_| stdin.flush()),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        };
        let result = match sent {
            Err(_) => Err(None),
            Ok(()) => match p.lines.recv_timeout(timeout) {
                Ok(Ok(text)) => gdmarshal::json::parse_deep::<Value>(&text).map_err(|e| {
                    let shown: String = text.chars().take(200).collect();
                    Some(format!(
                        "testee broke the protocol: its answer is not JSON ({e}): {shown}"
                    ))
                }),
                Ok(Err(_)) | Err(RecvTimeoutError::Disconnected) => Err(None),
                Err(RecvTimeoutError::Timeout) => Err(Some(format!(
                    "testee hung: no answer within {:.1} s",
                    timeout.as_secs_f64()
                ))),
            },
        };
        match result {
            Ok(v) => Ok(v),
            Err(why) => {
                let mut p = self.process.take().expect("started");
                let why = why.unwrap_or_else(|| {
                    // Give the process a moment to finish dying, to report its status.
                    let mut status = None;
                    for _ in 0..200 {
                        if let Ok(Some(s)) = p.child.try_wait() {
                            status = Some(s);
                            break;
                        }
                        std::thread::sleep(Duration::from_millis(10));
                    }
                    match status {
                        Some(s) => format!("testee crashed ({s})"),
                        None => "testee crashed (closed its output)".to_string(),
                    }
                });
                crate::group::kill_group(&mut p.child);
                // What it printed before dying is the best clue: wait for the last of it.
                let _ = p.stderr_done.recv_timeout(Duration::from_secs(2));
                let tail = p.stderr_tail();
                Err(format!("{why}{tail}"))
            }
        }
    }

    /// One request: `Ok(answer)` with a matching id, or the reason there is no answer.
    pub(super) fn request(&mut self, mut request: Value) -> Result<Value, String> {
        self.ensure_started()?;
        let id = self.next_id;
        self.next_id += 1;
        request["id"] = json!(id);
        let answer = self.exchange(&request, false)?;
        if answer.get("id").and_then(Value::as_u64) != Some(id) {
            // Out of step: the next answers cannot be trusted either.
            self.process = None;
            return Err(format!(
                "testee broke the protocol: answered id {} to request {id}",
                answer
                    .get("id")
                    .map(|v| v.to_string())
                    .unwrap_or("(none)".into())
            ));
        }
        Ok(answer)
    }
}
