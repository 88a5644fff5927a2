//! # gdmarshal-fake-engine
//!
//! A scripted stand-in for a headless Godot engine running the oracle project. It speaks the
//! oracle protocol of `godot_project/README.md` ("Transport", "Requests and results", "Error
//! text") exactly as `godot_project/oracle/oracle4.gd` does, but answers every request with this
//! project's own codec, so its answers agree with the codec by construction. A fault script
//! makes it crash, hang, exit or stall on chosen requests. With it the lab's real
//! `oracle::Engine` (start, handshake, restarts, timeouts, incidents), corpus generation and
//! campaigns run without Godot, in milliseconds.
//!
//! ## Command line
//!
//! The host starts an engine as `LAUNCHER ARGS... --path PROJECT -s ENTRY` with the port and a
//! secret in the environment (`GDM_PORT`, `GDM_SECRET`); the engine presents the secret in its
//! first frame, `{"auth":"SECRET"}`. So
//! an `EngineSpec` with this binary as its launcher puts the fake engine's own options in its
//! `args`:
//!
//! - `--version=MAJOR.MINOR[.PATCH]`: the Godot version to report and whose format profile to
//!   answer with (default `4.6.3`; status `stable`, `double_reals` false). A version whose minor
//!   the codec does not know answers with the newest minor of its major; an unknown major with
//!   the 4.x profile (the host then refuses it in the handshake, which is the point).
//! - `--script=FILE`: the fault script (below). Give an absolute path: the host starts engines
//!   in a scratch directory.
//!
//! `--path X`, `-s X` and `--headless` are accepted and ignored; `--gdm-port=N` overrides the
//! port of the environment, and `--no-auth` leaves the secret out (to play an impostor). Anything else, an unreadable script or a script with a bad line is fatal: the
//! engine prints `@gdm:fatal:WHY` on stderr and exits with status 2 before connecting.
//!
//! ## Fault script
//!
//! Plain text, one rule per line, `TRIGGER ACTION`; `#` starts a comment; blank lines are
//! ignored. Every rule whose trigger matches a request fires, in file order, right after the
//! request's `@gdm:b` marker (so the host knows which request was running, as with a real
//! crash inside the decoder).
//!
//! Triggers:
//!
//! - `input:HEX`: a decode request whose bytes start with these bytes (`input:` alone: every
//!   decode request).
//! - `op:NAME`: every request of this op (`hello`, `decode`, `encode`, `sleep`).
//! - `any`: every request, the handshake's `hello` included.
//! - `start`: at process start, before connecting.
//!
//! Actions:
//!
//! - `segv`, `abort`, `kill`, `stop`: the process raises SIGSEGV, SIGABRT, SIGKILL or SIGSTOP on
//!   itself (`segv` and `abort` first print a crash-handler line on stderr, as Godot does).
//! - `hang`: sleeps forever, printing nothing more.
//! - `exit:CODE`: exits with this status.
//! - `slow:MS`: sleeps MS milliseconds, then answers normally.
//! - `flood:MB`: prints one stderr line of MB megabytes, then MB×1024 short ones, then answers.
//! - `alloc:MB`: allocates and touches MB megabytes, then answers normally (or dies, as a
//!   decoder that runs out of memory does, when the engine's address-space limit is lower).
//! - `refuse-start` (trigger `start` only): prints a line on stderr and exits with status 1
//!   without connecting.
//!
//! `segv`, `abort`, `kill`, `stop` and `hang` fire every time unless suffixed `-once` (only the
//! first time the rule fires across all processes started with this script) or `-times:N` (the
//! first N times); later occurrences answer normally. The count is kept in marker files
//! `FILE.state/LINE.K` (LINE: the rule's line number, K: the occurrence), each created with
//! `O_EXCL`, so concurrent engines never both take the same occurrence. Delete `FILE.state/` to
//! start counting again.
//!
//! ```text
//! # a crash this input causes, every time
//! input:1c000000 segv
//! # an engine killed once by something outside (the retry succeeds)
//! op:decode kill-once
//! # every request takes 50 ms
//! any slow:50
//! ```
//!
//! Without a script every request is answered normally.

use std::ffi::OsString;
use std::fs::OpenOptions;
use std::io::{self, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::thread;
use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use gdmarshal::error::EncodeErrorKind;
use gdmarshal::float::FloatStyle;
use gdmarshal::hex::unhex;
use gdmarshal::json::{from_json, parse_deep, to_json};
use gdmarshal::{DecodeOptions, EncodeOptions, Profile, decode, encode};
use serde_json::{Map, Value, json};

/// The prefix of every protocol line on stderr.
const MARK: &str = "@gdm:";

/// The stack the engine serves on: deep values recurse through the codec and serde_json.
const STACK: usize = 512 << 20;

/// The largest request frame read.
const MAX_FRAME: usize = 1 << 30;

/// The exit status for bad arguments or a bad script.
const FATAL: i32 = 2;

fn main() {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let code = match thread::Builder::new()
        .name("gdmarshal-fake-engine".into())
        .stack_size(STACK)
        .spawn(move || run(args))
    {
        Ok(handle) => handle.join().unwrap_or(101),
        Err(_) => 101,
    };
    std::process::exit(code);
}

/// The whole life of the engine; the exit status.
fn run(args: Vec<OsString>) -> i32 {
    let options = match Options::parse(args) {
        Ok(o) => o,
        Err(why) => return fatal(&why.to_string()),
    };
    let script = match &options.script {
        Some(path) => match Script::load(path) {
            Ok(s) => s,
            Err(why) => return fatal(&why.to_string()),
        },
        None => Script::default(),
    };
    let engine = Fake {
        profile: options.version.profile(),
        version: options.version,
        script,
    };
    engine.script.at_start();
    let stream = match TcpStream::connect(("127.0.0.1", options.port)) {
        Ok(s) => s,
        Err(e) => {
            text(&format!(
                "{MARK}fatal:cannot connect to port {}: {e}",
                options.port
            ));
            return 1;
        }
    };
    let _ = stream.set_nodelay(true);
    if let Some(secret) = &options.secret {
        let body = json!({ "auth": secret }).to_string();
        let mut frame = (body.len() as u32).to_le_bytes().to_vec();
        frame.extend_from_slice(body.as_bytes());
        if (&stream).write_all(&frame).is_err() {
            return fatal("cannot send the secret");
        }
    }
    match engine.serve(stream) {
        Ok(()) => 0,
        Err(why) => fatal(&why.to_string()),
    }
}

/// Prints `@gdm:fatal:WHY` and gives the fatal exit status.
fn fatal(why: &str) -> i32 {
    text(&format!("{MARK}fatal:{why}"));
    FATAL
}

/// Writes one line to stderr and flushes it (errors ignored: a host that is gone closes the
/// socket too, which ends the engine).
fn text(line: &str) {
    let mut err = io::stderr().lock();
    let _ = writeln!(err, "{line}");
    let _ = err.flush();
}

/// A protocol marker line, e.g. `@gdm:b:3:0`.
fn marker(kind: &str, seq: i64, index: Option<usize>) {
    match index {
        Some(i) => text(&format!("{MARK}{kind}:{seq}:{i}")),
        None => text(&format!("{MARK}{kind}:{seq}")),
    }
}

// ---------------------------------------------------------------- command line

/// Why the fake engine cannot run: printed as `@gdm:fatal:WHY` before it exits with status 2.
#[derive(Debug, thiserror::Error)]
enum Fatal {
    #[error("--version={0}: expected MAJOR.MINOR or MAJOR.MINOR.PATCH")]
    Version(String),
    #[error("unknown argument {0:?}")]
    Argument(OsString),
    #[error("bad port {0:?}")]
    Port(String),
    #[error("bad GDM_PORT {0:?}")]
    EnvPort(String),
    #[error("no GDM_PORT in the environment (or --gdm-port=PORT)")]
    NoPort,
    #[error("cannot read script {}: {source}", path.display())]
    ReadScript { path: PathBuf, source: io::Error },
    #[error("script {}: line {line}: {why}", path.display())]
    Script {
        path: PathBuf,
        line: usize,
        why: RuleError,
    },
    #[error("cannot make {}: {source}", path.display())]
    State { path: PathBuf, source: io::Error },
    #[error("socket error: {0}")]
    Socket(io::Error),
    #[error("request frame of {0} bytes")]
    Frame(usize),
}

/// Why a line of a fault script is not a rule.
#[derive(Debug, thiserror::Error)]
enum RuleError {
    #[error("expected TRIGGER ACTION, got {0:?}")]
    Words(String),
    #[error("unknown op {0:?} (hello, decode, encode, sleep)")]
    Op(String),
    #[error("input:{hex}: {why}")]
    Input {
        hex: String,
        why: gdmarshal::hex::HexError,
    },
    #[error("unknown trigger {0:?} (input:HEX, op:NAME, any, start)")]
    Trigger(String),
    #[error("{word}: {number:?} is not a number")]
    Number { word: String, number: String },
    #[error("{word}: {code:?} is not an exit status")]
    ExitStatus { word: String, code: String },
    #[error("{0}: the count must be from 1 to {max}", max = u32::MAX)]
    Count(String),
    #[error(
        "unknown action {0:?} (segv, abort, kill, stop, hang, each optionally -once or \
         -times:N; exit:CODE, slow:MS, refuse-start)"
    )]
    Action(String),
    #[error("refuse-start needs the trigger start")]
    RefuseStart,
}

/// The Godot version to play.
#[derive(Clone, Copy, Debug)]
struct Version {
    major: u32,
    minor: u32,
    patch: u32,
}

impl Version {
    fn parse(s: &str) -> Result<Version, Fatal> {
        let parts: Vec<&str> = s.split('.').collect();
        let num = |p: &str| p.parse::<u32>().ok();
        match parts[..] {
            [major, minor] => Some((num(major), num(minor), Some(0))),
            [major, minor, patch] => Some((num(major), num(minor), num(patch))),
            _ => None,
        }
        .and_then(|v| match v {
            (Some(major), Some(minor), Some(patch)) => Some(Version {
                major,
                minor,
                patch,
            }),
            _ => None,
        })
        .ok_or_else(|| Fatal::Version(s.to_string()))
    }

    /// The codec profile to answer with: this minor's, else the newest of the major, else 4.x.
    fn profile(&self) -> Profile {
        format!("{}.{}", self.major, self.minor)
            .parse()
            .or_else(|_| self.major.to_string().parse())
            .or_else(|_| "4".parse())
            .expect("4 is a known major version")
    }

    /// What `Engine.get_version_info()` answers.
    fn info(&self) -> Value {
        let Version {
            major,
            minor,
            patch,
        } = *self;
        json!({
            "major": major,
            "minor": minor,
            "patch": patch,
            "hex": (major << 16) | (minor << 8) | patch,
            "status": "stable",
            "build": "gdmarshal_fake",
            "hash": "",
            "timestamp": 0,
            "string": format!("{major}.{minor}.{patch}-stable (gdmarshal fake engine)"),
        })
    }
}

/// The fake engine's command line.
struct Options {
    port: u16,
    version: Version,
    script: Option<PathBuf>,
    /// The secret to present in the first frame (none with `--no-auth`).
    secret: Option<String>,
}

impl Options {
    fn parse(args: Vec<OsString>) -> Result<Options, Fatal> {
        let mut port = None;
        let mut version = Version {
            major: 4,
            minor: 6,
            patch: 3,
        };
        let mut script = None;
        let mut auth = true;
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            let Some(a) = arg.to_str() else {
                return Err(Fatal::Argument(arg));
            };
            if a == "--path" || a == "-s" {
                args.next();
            } else if a == "--headless" {
            } else if let Some(p) = a.strip_prefix("--gdm-port=") {
                port = Some(p.parse::<u16>().map_err(|_| Fatal::Port(p.to_string()))?);
            } else if a == "--no-auth" {
                auth = false;
            } else if let Some(v) = a.strip_prefix("--version=") {
                version = Version::parse(v)?;
            } else if let Some(s) = a.strip_prefix("--script=") {
                script = Some(PathBuf::from(s));
            } else {
                return Err(Fatal::Argument(arg));
            }
        }
        if port.is_none()
            && let Ok(p) = std::env::var("GDM_PORT")
        {
            port = Some(p.parse::<u16>().map_err(|_| Fatal::EnvPort(p.clone()))?);
        }
        let secret = std::env::var("GDM_SECRET").unwrap_or_default();
        Ok(Options {
            port: port.ok_or(Fatal::NoPort)?,
            version,
            script,
            secret: auth.then_some(secret),
        })
    }
}

// ---------------------------------------------------------------- fault script

/// Which requests a rule applies to.
#[derive(Debug, PartialEq)]
enum Trigger {
    /// Process start, before connecting.
    Start,
    /// Every request.
    Any,
    /// Every request of this op.
    Op(String),
    /// Decode requests whose bytes start with these.
    Input(Vec<u8>),
}

/// What a rule does when it fires.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Action {
    Segv,
    Abort,
    Kill,
    Stop,
    Hang,
    Exit(i32),
    Slow(u64),
    Alloc(u64),
    Flood(u64),
    RefuseStart,
}

/// One line of the script.
#[derive(Debug, PartialEq)]
struct Rule {
    /// Its line number (1-based), which also names its marker files.
    line: usize,
    trigger: Trigger,
    action: Action,
    /// Fires only the first N times across all processes (`None`: every time).
    times: Option<u32>,
}

/// The fault script: its rules and where counted rules keep their marker files.
#[derive(Debug, Default)]
struct Script {
    rules: Vec<Rule>,
    state: PathBuf,
}

impl Script {
    /// Reads and checks a script; makes its state directory if a rule counts occurrences.
    fn load(path: &Path) -> Result<Script, Fatal> {
        let text = std::fs::read_to_string(path).map_err(|source| Fatal::ReadScript {
            path: path.into(),
            source,
        })?;
        let rules = parse_script(&text).map_err(|(line, why)| Fatal::Script {
            path: path.into(),
            line,
            why,
        })?;
        let mut state = path.as_os_str().to_owned();
        state.push(".state");
        let state = PathBuf::from(state);
        if rules.iter().any(|r| r.times.is_some()) {
            std::fs::create_dir_all(&state).map_err(|source| Fatal::State {
                path: state.clone(),
                source,
            })?;
        }
        Ok(Script { rules, state })
    }

    /// Fires the `start` rules.
    fn at_start(&self) {
        self.fire(|t| *t == Trigger::Start);
    }

    /// Fires the rules that match a request (`None`: a line that is not a JSON object).
    fn at_request(&self, req: Option<&Map<String, Value>>) {
        if self.rules.is_empty() {
            return;
        }
        let op = req.and_then(|r| r.get("op")).and_then(Value::as_str);
        let input = match (op, req.and_then(|r| r.get("bytes"))) {
            (Some("decode"), Some(Value::String(b))) => BASE64.decode(b).ok(),
            _ => None,
        };
        self.fire(|t| match t {
            Trigger::Start => false,
            Trigger::Any => true,
            Trigger::Op(name) => op == Some(name.as_str()),
            Trigger::Input(prefix) => input.as_ref().is_some_and(|b| b.starts_with(prefix)),
        });
    }

    /// Fires every matching rule that has occurrences left, in order.
    fn fire(&self, matches: impl Fn(&Trigger) -> bool) {
        for rule in self.rules.iter().filter(|r| matches(&r.trigger)) {
            if self.take_occurrence(rule) {
                act(rule);
            }
        }
    }

    /// Whether this occurrence of the rule fires: always for uncounted rules; for counted ones,
    /// if one of its first N marker files could still be created.
    fn take_occurrence(&self, rule: &Rule) -> bool {
        let Some(n) = rule.times else {
            return true;
        };
        for k in 0..n {
            let marker = self.state.join(format!("{}.{k}", rule.line));
            match OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&marker)
            {
                Ok(_) => return true,
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => {
                    std::process::exit(fatal(&format!("cannot create {}: {e}", marker.display())));
                }
            }
        }
        false
    }
}

/// Reads a script's rules; the error names the bad line (1-based).
fn parse_script(text: &str) -> Result<Vec<Rule>, (usize, RuleError)> {
    let mut rules = Vec::new();
    for (k, raw) in text.lines().enumerate() {
        let line = k + 1;
        let content = raw.split('#').next().unwrap_or("").trim();
        if content.is_empty() {
            continue;
        }
        let words: Vec<&str> = content.split_whitespace().collect();
        let [trigger, action] = words[..] else {
            return Err((line, RuleError::Words(content.to_string())));
        };
        let trigger = parse_trigger(trigger).map_err(|e| (line, e))?;
        let (action, times) = parse_action(action).map_err(|e| (line, e))?;
        if action == Action::RefuseStart && trigger != Trigger::Start {
            return Err((line, RuleError::RefuseStart));
        }
        rules.push(Rule {
            line,
            trigger,
            action,
            times,
        });
    }
    Ok(rules)
}

fn parse_trigger(word: &str) -> Result<Trigger, RuleError> {
    match word {
        "start" => return Ok(Trigger::Start),
        "any" => return Ok(Trigger::Any),
        _ => {}
    }
    if let Some(op) = word.strip_prefix("op:") {
        return match op {
            "hello" | "decode" | "encode" | "sleep" => Ok(Trigger::Op(op.to_string())),
            _ => Err(RuleError::Op(op.to_string())),
        };
    }
    if let Some(hex) = word.strip_prefix("input:") {
        return unhex(hex)
            .map(Trigger::Input)
            .map_err(|why| RuleError::Input {
                hex: hex.to_string(),
                why,
            });
    }
    Err(RuleError::Trigger(word.to_string()))
}

fn parse_action(word: &str) -> Result<(Action, Option<u32>), RuleError> {
    let number = |n: &str| {
        n.parse::<u64>().map_err(|_| RuleError::Number {
            word: word.to_string(),
            number: n.to_string(),
        })
    };
    if let Some(ms) = word.strip_prefix("slow:") {
        return Ok((Action::Slow(number(ms)?), None));
    }
    if let Some(mb) = word.strip_prefix("alloc:") {
        return Ok((Action::Alloc(number(mb)?), None));
    }
    if let Some(mb) = word.strip_prefix("flood:") {
        return Ok((Action::Flood(number(mb)?), None));
    }
    if let Some(code) = word.strip_prefix("exit:") {
        let code = code.parse::<i32>().map_err(|_| RuleError::ExitStatus {
            word: word.to_string(),
            code: code.to_string(),
        })?;
        return Ok((Action::Exit(code), None));
    }
    if word == "refuse-start" {
        return Ok((Action::RefuseStart, None));
    }
    let (base, times) = if let Some(base) = word.strip_suffix("-once") {
        (base, Some(1))
    } else if let Some((base, n)) = word.split_once("-times:") {
        let n = u32::try_from(number(n)?)
            .ok()
            .filter(|n| *n > 0)
            .ok_or_else(|| RuleError::Count(word.to_string()))?;
        (base, Some(n))
    } else {
        (word, None)
    };
    let action = match base {
        "segv" => Action::Segv,
        "abort" => Action::Abort,
        "kill" => Action::Kill,
        "stop" => Action::Stop,
        "hang" => Action::Hang,
        _ => {
            return Err(RuleError::Action(word.to_string()));
        }
    };
    Ok((action, times))
}

/// Does what a rule says; returns only for `slow` (and after a `stop` that is continued).
fn act(rule: &Rule) {
    let line = rule.line;
    match rule.action {
        Action::Slow(ms) => thread::sleep(Duration::from_millis(ms)),
        Action::Flood(mb) => {
            // One line of MB megabytes on stderr, then many short ones: an engine gone chatty.
            let mut err = std::io::stderr().lock();
            let chunk = vec![b'x'; 1 << 20];
            for _ in 0..mb {
                let _ = err.write_all(&chunk);
            }
            let _ = err.write_all(b"\n");
            for i in 0..(mb * 1024) {
                let _ = writeln!(err, "ERROR: flood line {i} of the fake engine's stderr");
            }
            let _ = err.flush();
        }
        Action::Alloc(mb) => {
            // Touch every page, as a decoder filling a huge container would; past the address
            // space limit the allocation fails and the process aborts.
            let block = vec![1u8; (mb as usize) << 20];
            std::hint::black_box(&block);
        }
        Action::Hang => loop {
            thread::sleep(Duration::from_secs(3600));
        },
        Action::Exit(code) => std::process::exit(code),
        Action::RefuseStart => {
            text(&format!(
                "fake engine: refusing to start (script line {line})"
            ));
            std::process::exit(1);
        }
        Action::Abort => {
            text(&format!(
                "handle_crash: Program crashed with signal 6 (fake engine, script line {line})"
            ));
            std::process::abort();
        }
        Action::Segv => {
            text(&format!(
                "handle_crash: Program crashed with signal 11 (fake engine, script line {line})"
            ));
            signal_self(Signal::Segv);
        }
        Action::Kill => signal_self(Signal::Kill),
        Action::Stop => signal_self(Signal::Stop),
    }
}

/// A signal the engine sends itself.
#[derive(Clone, Copy)]
enum Signal {
    Segv,
    Kill,
    Stop,
}

#[cfg(unix)]
fn signal_self(signal: Signal) {
    let sig = match signal {
        Signal::Segv => libc::SIGSEGV,
        Signal::Kill => libc::SIGKILL,
        Signal::Stop => libc::SIGSTOP,
    };
    // SAFETY: resetting a signal to its default action and signalling this process have no
    // memory-safety preconditions. Rust's runtime handles SIGSEGV itself (to report stack
    // overflows), so its default action is restored first: a crash is what is wanted.
    unsafe {
        if matches!(signal, Signal::Segv) {
            libc::signal(sig, libc::SIG_DFL);
        }
        // raise, not kill(getpid()): a signal sent to the whole process may be taken by another
        // thread while this one carries on and answers; raised on this thread, the stop or crash
        // happens before the call returns.
        libc::raise(sig);
    }

    if !matches!(signal, Signal::Stop) {
        // The signal is delivered asynchronously; wait for it rather than carry on.
        loop {
            thread::sleep(Duration::from_secs(3600));
        }
    }
}

#[cfg(not(unix))]
fn signal_self(signal: Signal) {
    match signal {
        Signal::Stop => loop {
            thread::sleep(Duration::from_secs(3600));
        },
        Signal::Segv | Signal::Kill => std::process::abort(),
    }
}

// ---------------------------------------------------------------- serving

/// The engine being played.
struct Fake {
    version: Version,
    profile: Profile,
    script: Script,
}

impl Fake {
    /// Answers request frames until the connection closes (`Ok`) or breaks the protocol.
    fn serve(&self, stream: TcpStream) -> Result<(), Fatal> {
        let mut writer = stream.try_clone().map_err(Fatal::Socket)?;
        let mut reader = BufReader::with_capacity(1 << 16, stream);
        loop {
            let mut len = [0u8; 4];
            if reader.read_exact(&mut len).is_err() {
                return Ok(());
            }
            let len = u32::from_le_bytes(len) as usize;
            if len > MAX_FRAME {
                return Err(Fatal::Frame(len));
            }
            let mut body = vec![0u8; len];
            if reader.read_exact(&mut body).is_err() {
                return Ok(());
            }
            let out = self.frame(&String::from_utf8_lossy(&body));
            let mut frame = Vec::with_capacity(4 + out.len());
            frame.extend_from_slice(&(out.len() as u32).to_le_bytes());
            frame.extend_from_slice(out.as_bytes());
            if writer
                .write_all(&frame)
                .and_then(|_| writer.flush())
                .is_err()
            {
                return Ok(());
            }
        }
    }

    /// One request frame's response frame, with the markers on stderr.
    fn frame(&self, body: &str) -> String {
        let mut lines = body.split('\n');
        let seq = lines
            .next()
            .and_then(|h| serde_json::from_str::<Value>(h).ok())
            .and_then(|h| h.get("seq").and_then(Value::as_i64))
            .unwrap_or(-1);
        let mut out = json!({ "seq": seq }).to_string();
        for (i, line) in lines.enumerate() {
            marker("b", seq, Some(i));
            let result = self.request(line, seq, i);
            out.push('\n');
            out.push_str(&result.to_string());
        }
        marker("e", seq, None);
        out
    }

    /// One request's result; prints its `m` marker (its `b` marker is printed already).
    fn request(&self, line: &str, seq: i64, i: usize) -> Value {
        let req = match read_line(line) {
            Ok(Value::Object(m)) => Some(m),
            _ => None,
        };
        self.script.at_request(req.as_ref());
        let Some(req) = req else {
            marker("m", seq, Some(i));
            return json!({"error": "request is not a JSON object"});
        };
        // A request with the own check has no `m` marker, as in the engine's script.
        let own = req.get("own").and_then(Value::as_bool).unwrap_or(false);
        let mid = || {
            if !own {
                marker("m", seq, Some(i))
            }
        };
        match req.get("op").and_then(Value::as_str) {
            Some("decode") => self.decode(&req, own, mid),
            Some("encode") => {
                let result = self.encode(&req, own);
                mid();
                result
            }
            Some("hello") => {
                mid();
                json!({"ok": true, "protocol": 3, "version": self.version.info(), "double_reals": false})
            }
            Some("sleep") => {
                mid();
                let ms = req.get("ms").and_then(Value::as_f64).unwrap_or(0.0);
                thread::sleep(Duration::from_secs_f64(ms.max(0.0) / 1000.0));
                json!({"ok": true})
            }
            _ => {
                mid();
                let op = req.get("op").cloned().unwrap_or(Value::Null);
                json!({"error": format!("unknown op {op}")})
            }
        }
    }

    fn decode(&self, req: &Map<String, Value>, own: bool, mid: impl Fn()) -> Value {
        let bytes = match req
            .get("bytes")
            .and_then(Value::as_str)
            .map(|b| BASE64.decode(b))
        {
            Some(Ok(bytes)) => bytes,
            _ => {
                mid();
                return json!({"error": "decode needs \"bytes\" (base64)"});
            }
        };
        let allow_objects = req.get("objects").and_then(Value::as_bool).unwrap_or(false);
        let decoded = decode(
            &bytes,
            self.profile,
            DecodeOptions::new().allow_objects(allow_objects),
        );
        if let Err(e) = &decoded {
            // Where the engine prints its own errors: between the request's b and m markers.
            text(&format!("ERROR: fake engine rejects: {e}"));
        }
        mid();
        let Ok(d) = decoded else {
            return json!({"ok": true, "accepted": false});
        };
        let mut out = json!({
            "ok": true,
            "accepted": true,
            "consumed": d.consumed,
            "tree": to_json(&d.value, self.profile, FloatStyle::Bits),
        });
        let plain = encode(&d.value, self.profile, EncodeOptions::default());
        if let Ok(b) = &plain {
            out["reencoded"] = Value::String(BASE64.encode(b));
        }
        // With the own check (not with objects), the engine decodes what it wrote and leaves out
        // the encoding with full objects (godot_project/README.md).
        if own && !allow_objects {
            if let Ok(b) = &plain {
                out["own_accepted"] = Value::Bool(self.accepts(b));
            }
        } else if let Ok(b) = encode(
            &d.value,
            self.profile,
            EncodeOptions::new().full_objects(true),
        ) {
            out["reencoded_full"] = Value::String(BASE64.encode(b));
        }
        out
    }

    /// Whether this engine decodes `bytes` (without objects).
    fn accepts(&self, bytes: &[u8]) -> bool {
        decode(bytes, self.profile, DecodeOptions::default()).is_ok()
    }

    fn encode(&self, req: &Map<String, Value>, own: bool) -> Value {
        let Some(tree) = req.get("tree") else {
            return json!({"error": "encode needs \"tree\""});
        };
        let value = match from_json(tree, self.profile) {
            Ok(v) => v,
            Err(e) => return json!({"error": e.to_string()}),
        };
        // Nested past the limit, the engine builds the value and its encoder refuses it (with
        // full objects too, which can nest deeper than their ids); anything else the codec
        // refuses is a value the engine could not have built.
        let too_deep = |e: &gdmarshal::EncodeError| {
            let deep = matches!(e.kind, EncodeErrorKind::TooDeep { .. });
            if deep {
                text(&format!("ERROR: fake engine refuses to encode: {e}"));
            }
            deep
        };
        let plain = match encode(&value, self.profile, EncodeOptions::default()) {
            Ok(plain) => plain,
            Err(e) if too_deep(&e) => return json!({"ok": true, "refused": true}),
            Err(e) => return json!({"ok": false, "unsupported": e.to_string()}),
        };
        let tree = to_json(&value, self.profile, FloatStyle::Bits);
        // With the own check the engine leaves out the encoding with full objects.
        if own {
            return json!({
                "ok": true,
                "bytes": BASE64.encode(&plain),
                "own_accepted": self.accepts(&plain),
                "tree": tree,
            });
        }
        let mut out = json!({"ok": true, "bytes": BASE64.encode(&plain), "tree": tree});
        match encode(
            &value,
            self.profile,
            EncodeOptions::new().full_objects(true),
        ) {
            Ok(full) => out["bytes_full"] = Value::String(BASE64.encode(full)),
            Err(e) if too_deep(&e) => out["refused_full"] = Value::Bool(true),
            Err(e) => return json!({"ok": false, "unsupported": e.to_string()}),
        }
        out
    }
}

/// A request line as JSON, however deep it nests.
fn read_line(line: &str) -> Result<Value, serde_json::Error> {
    match serde_json::from_str(line) {
        Err(e) if e.to_string().starts_with("recursion limit exceeded") => parse_deep(line),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rules_are_read() {
        let rules = parse_script(
            "# comment\n\ninput:02000000 segv  # trailing\nany slow:5\nop:decode kill-times:3\n\
             start refuse-start\ninput: stop-once\n",
        )
        .unwrap();
        assert_eq!(rules.len(), 5);
        assert_eq!(rules[0].line, 3);
        assert_eq!(rules[0].trigger, Trigger::Input(vec![2, 0, 0, 0]));
        assert_eq!(rules[0].action, Action::Segv);
        assert_eq!(rules[1].action, Action::Slow(5));
        assert_eq!(rules[2].trigger, Trigger::Op("decode".into()));
        assert_eq!((rules[2].action, rules[2].times), (Action::Kill, Some(3)));
        assert_eq!(rules[3].action, Action::RefuseStart);
        assert_eq!(rules[4].trigger, Trigger::Input(vec![]));
        assert_eq!((rules[4].action, rules[4].times), (Action::Stop, Some(1)));
    }

    #[test]
    fn bad_rules_name_their_line() {
        for (bad, says) in [
            ("segv", "expected TRIGGER ACTION"),
            ("any explode", "unknown action \"explode\""),
            ("input:0 segv", "input:0: odd number of hex digits"),
            (
                "input:zz segv",
                "input:zz: character 0 ('z') is not a hex digit",
            ),
            ("op:frob segv", "unknown op \"frob\""),
            ("any refuse-start", "refuse-start needs the trigger start"),
            ("any kill-times:0", "kill-times:0: the count must be from 1"),
            ("any exit:x", "exit:x: \"x\" is not an exit status"),
            ("any slow:-1", "slow:-1: \"-1\" is not a number"),
            (
                "any segv extra",
                "expected TRIGGER ACTION, got \"any segv extra\"",
            ),
        ] {
            let (line, why) = parse_script(&format!("# x\n{bad}")).unwrap_err();
            assert_eq!(line, 2, "{bad}");
            assert!(why.to_string().starts_with(says), "{bad}: {why}");
        }
    }

    #[test]
    fn versions_pick_profiles() {
        let v = |s: &str| Version::parse(s).unwrap().profile().to_string();
        assert_eq!(v("4.6.3"), "4.6");
        assert_eq!(v("3.6.2"), "3.6");
        assert_eq!(v("3.2"), "3.2");
        assert_eq!(v("4.99.0"), "4.6");
        assert!(Version::parse("4").is_err());
        assert!(Version::parse("4.x.1").is_err());
    }
}
