//! One request frame's trip: send it, follow the engine's progress through its stderr
//! markers, and collect the answers, or tell which request the engine died or hung on.

use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

use super::process::{Event, Process};
use super::protocol::{Stderr, classify, request_body, split_response};
use super::requests::Reply;
use super::result::EngineVerdict;
use crate::model::Incident;

/// How long to wait for the end-of-batch marker once the response frame is in, and for the
/// last stderr lines of an engine that died.
const GRACE: Duration = Duration::from_secs(2);

/// How one request frame went.
pub(crate) enum Round {
    /// The engine answered every line.
    Done(Vec<Reply>),
    /// The engine crashed or hung while serving line `index` (`None`: before starting any).
    Incident {
        index: Option<usize>,
        verdict: EngineVerdict,
    },
}

/// Sends one frame and follows the engine's progress through its stderr markers until the
/// response arrives, the engine dies, or a request runs past `timeout`.
pub fn round(p: &mut Process, seq: u64, lines: &[&str], timeout: Duration) -> Round {
    let n = lines.len();
    let mut texts = vec![String::new(); n];
    let mut current: Option<usize> = None;
    let mut open = false; // between the current request's `b` and `m` markers
    let mut began = Instant::now();
    let mut tail = String::new(); // everything on stderr since `current` began
    let mut frame: Option<Vec<u8>> = None;
    let mut ended = false;
    let mut hung = false;
    // A failed send means a dead engine, whose end the events below show.
    let mut dead = p.send(&request_body(seq, lines)).is_err();
    while !dead {
        let wait = if frame.is_some() {
            GRACE
        } else {
            timeout.saturating_sub(began.elapsed())
        };
        match p.events.recv_timeout(wait) {
            Ok(Event::Stderr(line)) => match classify(&line) {
                Stderr::Begin(s, i) if s == seq && i < n => {
                    (current, open, began) = (Some(i), true, Instant::now());
                    tail.clear();
                }
                Stderr::Mid(s, i) if s == seq && current == Some(i) => open = false,
                Stderr::End(s) if s == seq => {
                    ended = true;
                    if frame.is_some() {
                        break;
                    }
                }
                Stderr::Text(t) | Stderr::Fatal(t) => {
                    if let (Some(i), true) = (current, open) {
                        push_capped(&mut texts[i], t);
                    }
                    push_capped(&mut tail, t);
                }
                _ => {}
            },
            Ok(Event::Frame(f)) => {
                frame = Some(f);
                if ended {
                    break;
                }
            }
            Ok(Event::SocketClosed | Event::StderrClosed) | Err(RecvTimeoutError::Disconnected) => {
                dead = true
            }
            Err(RecvTimeoutError::Timeout) => {
                // With the frame in, only the end marker is late: take the frame.
                hung = frame.is_none();
                break;
            }
        }
    }
    if let Some(body) = frame {
        return Round::Done(answers(seq, &body, texts));
    }
    let after = began.elapsed();
    if hung {
        p.finish(Duration::ZERO);
    }
    // The last words of a dying engine (its crash handler) arrive after the socket closes.
    let deadline = Instant::now() + GRACE;
    while let Ok(event) = p
        .events
        .recv_timeout(deadline.saturating_duration_since(Instant::now()))
    {
        match event {
            Event::Stderr(line) => match classify(&line) {
                Stderr::Begin(s, i) if s == seq && i < n => {
                    current = Some(i);
                    tail.clear();
                }
                Stderr::Text(t) | Stderr::Fatal(t) => push_capped(&mut tail, t),
                _ => {}
            },
            Event::StderrClosed => break,
            _ => {}
        }
    }
    let (status, signal) = p.finish(GRACE);
    let incident = Incident {
        status,
        signal,
        stderr: tail,
        after,
    };
    let verdict = if hung {
        EngineVerdict::Hung(incident)
    } else {
        EngineVerdict::Crashed(incident)
    };
    Round::Incident {
        index: current,
        verdict,
    }
}

/// The most stderr text kept per request (and of a dying engine's last words).
pub(crate) const MAX_TEXT: usize = 64 << 10;

/// Appends a line to a request's stderr text unless the text is full; a full text ends with one
/// line saying so.
fn push_capped(text: &mut String, line: &str) {
    const FULL: &str = "[gdmarshal: more stderr output dropped]\n";
    if text.ends_with(FULL) {
        return;
    }
    if text.len() + line.len() + 1 > MAX_TEXT {
        text.push_str(FULL);
        return;
    }
    text.push_str(line);
    text.push('\n');
}

/// The answers in a response frame, one per request line.
fn answers(seq: u64, body: &[u8], texts: Vec<String>) -> Vec<Reply> {
    let (got_seq, lines) = split_response(body);
    let n = texts.len();
    if got_seq != Some(seq) {
        let why = format!("response to batch {got_seq:?} where {seq} was expected");
        return (0..n)
            .map(|_| Reply::Verdict(EngineVerdict::Unanswered(why.clone())))
            .collect();
    }
    let mut lines = lines.into_iter();
    texts
        .into_iter()
        .map(|stderr| match lines.next() {
            Some(line) => Reply::Line {
                json: line.json,
                lossy: line.lossy,
                deep: line.deep,
                stderr,
            },
            None => Reply::Verdict(EngineVerdict::Unanswered(
                "the response has no line for this request".into(),
            )),
        })
        .collect()
}
