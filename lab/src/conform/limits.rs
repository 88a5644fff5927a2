//! What the runner accepts from a testee, in one place (docs/conformance.md, "Limits"): every
//! cap on what a testee sends, and the helpers that hold it to them. Past a cap the case in
//! progress fails (a protocol error, restarting the testee) or the text is cut with a marker;
//! nothing a testee writes aborts the run or grows the runner's memory past these bounds.
//!
//! Apart from the stress cases (sized to fit the answer line: their largest answer, a Dictionary of
//! 65,536 keys, is 3.5 MB as the Python example writes it), the corpus's largest legitimate answer
//! is 123 KB (Godot 3.2's `decode/depth/arrays_4096`, a
//! value nested 4,096 levels, as the Python example writes it), and its deepest is 8,194 JSON
//! levels (the same answer: two levels per Array, one for the answer object); live mode draws its
//! values from 4 KiB of random bytes, far smaller.

use std::io::{self, BufRead};

use crate::shown::SHOWN_LINE_START;

/// The longest answer line read, in bytes (without its `\n`): 4 MiB, 33 times the corpus's
/// largest legitimate answer (123 KB). With the slots of [`super::budget`] it bounds the
/// runner's memory: an answer is parsed, compared, sent back for re-encoding and judged, which for
/// the widest JSON a 4 MiB line can hold (279,000 one-member objects) peaks at about 390 MiB in
/// one testee process (16 MiB lines: 1.3 GB). A longer line is a protocol error, read no further
/// than the cap. The same cap as a line of a file the lab reads whole.
pub(crate) const MAX_ANSWER_LINE: usize = crate::bounded::MAX_LINE;

/// The longest request line `gdmarshal testee` reads, in bytes (without its `\n`): 8 MiB, twice
/// [`MAX_ANSWER_LINE`], so that it takes every request this runner sends (the largest, a stress
/// case's value or an answer sent back for re-encoding, is within one answer line). A longer line
/// is refused, read no further than the cap, and the testee exits.
pub(crate) const MAX_REQUEST_LINE: usize = 8 << 20;

/// The most testee processes a run starts (`--jobs`): each holds up to two answer lines and
/// their raw members (about 12 MiB at the widest) besides the slots of [`super::budget`], so 16
/// keeps a run within the budget docs/conformance.md states (under 1 GiB at 16, whatever the
/// testee answers: 776 MiB measured).
pub const MAX_JOBS: usize = 16;

/// The deepest JSON nesting accepted in an answer: 16,384 levels, twice the corpus's deepest
/// legitimate answer (8,194). Deeper answers are refused before they are parsed.
pub(crate) const MAX_ANSWER_DEPTH: usize = 16_384;

/// The part of a testee's free text (an `error`, a `skipped` reason, a handshake problem) that is
/// kept: 4 KiB; the rest is cut with a marker saying how long the text was.
pub(crate) const MAX_TESTEE_TEXT: usize = 4 << 10;

/// The part of a testee's `name` that is kept.
pub(crate) const MAX_NAME: usize = 256;

/// The testee's stderr kept for a failure: the first lines that look like the cause of a crash
/// (from a `panicked at`, `Traceback`, `Error` or `abort` line on) and the last lines, each part
/// at most half of this: 8 KiB in all.
pub(crate) const MAX_STDERR_EXCERPT: usize = 8 << 10;

/// The longest stderr line kept; the rest of the line is cut with a marker.
pub(crate) const MAX_STDERR_LINE: usize = 1 << 10;

/// The longest line of a case's message or details kept in a report; the rest is cut with a
/// marker (a tree or an error text rarely needs more to be recognised).
pub(crate) const MAX_REPORT_LINE: usize = 8 << 10;

/// The largest tree of a testee's answer kept after its case is judged (as JSON text); a larger
/// one is replaced by a note, the report keeping the first part of it in the case's message.
pub(crate) const MAX_KEPT_TREE: usize = 64 << 10;

/// How long a testee whose main process has exited has to deliver an answer it wrote before
/// exiting.
pub(crate) const EXIT_GRACE_MS: u64 = 100;

/// How often the runner looks whether a testee that has not answered yet has exited.
pub(crate) const EXIT_POLL_MS: u64 = 10;

/// `--max-failures-in-a-row` when not given: after this many crashes or hangs in a row the run
/// stops.
pub const DEFAULT_MAX_FAILURES_IN_A_ROW: usize = 10;

/// Seconds a testee has for the handshake by default (`--handshake-timeout`): room for one that
/// compiles before it starts (`go run`, `dotnet run`, `cargo run`), which takes far longer than
/// any answer should.
pub(crate) const DEFAULT_HANDSHAKE_TIMEOUT_SECS: u64 = 30;

/// Seconds a testee has for one answer by default (`--timeout`).
pub(crate) const DEFAULT_TIMEOUT_SECS: u64 = 5;

/// `text` with every control character but the tab written as `\u{..}`, so that a testee's words
/// cannot move a terminal's cursor, change its colours or end a report line.
pub fn escape_control(text: &str) -> String {
    if !text.chars().any(needs_escape) {
        return text.to_string();
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if needs_escape(c) {
            out.push_str(&format!("\\u{{{:x}}}", c as u32));
        } else {
            out.push(c);
        }
    }
    out
}

fn needs_escape(c: char) -> bool {
    c.is_control() && c != '\t'
}

/// The first bytes of a line (of `whole` bytes in all), as readable text: invalid UTF-8
/// replaced, control characters escaped, and when it is cut, a marker saying how long the line
/// is, as [`truncate`](crate::shown::truncate) says it. `whole` is `None` for a line read no further than a cap, whose
/// message says the cap: the marker is then `…` alone.
pub(crate) fn line_start(bytes: &[u8], whole: Option<usize>) -> String {
    let shown = &bytes[..bytes.len().min(SHOWN_LINE_START)];
    let mut s = escape_control(&String::from_utf8_lossy(shown));
    // Escapes make a control character five or more bytes: the text shown is bounded as well,
    // at twice the bytes taken.
    let escapes_cut = s.len() > 2 * SHOWN_LINE_START;
    if escapes_cut {
        let at = (0..=2 * SHOWN_LINE_START)
            .rev()
            .find(|&i| s.is_char_boundary(i))
            .unwrap_or(0);
        s.truncate(at);
    }
    match whole {
        None => s.push('…'),
        Some(n) if n > shown.len() || escapes_cut => {
            s.push_str(&format!("… (cut: {n} bytes in all)"))
        }
        Some(_) => {}
    }
    s
}

/// Where JSON text first nests deeper than `max` levels of arrays and objects: the byte offset of
/// the bracket that goes past it. Strings are skipped; the text need not be valid JSON.
pub fn too_deep(text: &[u8], max: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut in_string = false;
    let mut escaped = false;
    for (i, &b) in text.iter().enumerate() {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        match b {
            b'"' => in_string = true,
            b'[' | b'{' => {
                depth += 1;
                if depth > max {
                    return Some(i);
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    None
}

/// One line read from a testee's stdout.
#[derive(Debug, PartialEq)]
pub(crate) enum Line {
    /// A whole line, without its `\n` (or `\r\n`).
    Text(String),
    /// A line longer than the cap: its first bytes. The rest of it is skipped.
    TooLong(Vec<u8>),
    /// A line that is not UTF-8: its first bytes, where the first invalid byte is, and its
    /// length.
    NotUtf8(Vec<u8>, usize, usize),
    /// The end of the output.
    End,
}

/// Reads lines of at most `cap` bytes: past it, nothing more of the line is kept, and the
/// rest of it is skipped on the next read. Memory stays within the cap and the reader's buffer
/// whatever the other side writes.
pub(crate) struct LineReader<R> {
    inner: R,
    cap: usize,
    skipping: bool,
    /// Bytes consumed so far.
    consumed: u64,
    /// Where the last line read begins.
    start: u64,
    /// Lines begun so far.
    lines: u64,
}

impl<R: BufRead> LineReader<R> {
    /// Lines of `inner`, each at most `cap` bytes.
    pub fn new(inner: R, cap: usize) -> LineReader<R> {
        LineReader {
            inner,
            cap,
            skipping: false,
            consumed: 0,
            start: 0,
            lines: 0,
        }
    }

    /// The next line; a read error ends the output as [`Line::End`] does.
    pub(crate) fn next_line(&mut self) -> Line {
        self.read().unwrap_or(Line::End)
    }

    /// The next line, or the read error.
    pub fn read_line(&mut self) -> io::Result<Line> {
        self.read()
    }

    /// The byte offset where the last line read begins, and its 1-based number.
    pub fn position(&self) -> (u64, u64) {
        (self.start, self.lines)
    }

    fn consume(&mut self, n: usize) {
        self.inner.consume(n);
        self.consumed += n as u64;
    }

    fn fill(&mut self) -> io::Result<&[u8]> {
        loop {
            match self.inner.fill_buf() {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
                Ok(_) => break,
            }
        }
        // Filled: this returns the buffer without reading again.
        self.inner.fill_buf()
    }

    fn read(&mut self) -> io::Result<Line> {
        while self.skipping {
            let buf = self.fill()?;
            if buf.is_empty() {
                return Ok(Line::End);
            }
            let (n, found) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (buf.len(), false),
            };
            self.consume(n);
            self.skipping = !found;
        }
        self.start = self.consumed;
        let mut line: Vec<u8> = Vec::new();
        loop {
            let cap = self.cap;
            let buf = self.fill()?;
            if buf.is_empty() {
                if line.is_empty() {
                    return Ok(Line::End);
                }
                break;
            }
            let (part, n, found) = match buf.iter().position(|&b| b == b'\n') {
                Some(i) => (&buf[..i], i + 1, true),
                None => (buf, buf.len(), false),
            };
            if line.len() + part.len() > cap {
                let shown = SHOWN_LINE_START.min(cap);
                let add = shown.saturating_sub(line.len()).min(part.len());
                line.extend_from_slice(&part[..add]);
                line.truncate(shown);
                self.consume(n);
                self.lines += 1;
                self.skipping = !found;
                return Ok(Line::TooLong(line));
            }
            // Grow by doubling, but never past the cap.
            let need = line.len() + part.len();
            if need > line.capacity() {
                let want = need.max(line.capacity() * 2).min(cap);
                line.reserve_exact(want - line.len());
            }
            line.extend_from_slice(part);
            self.consume(n);
            if found {
                break;
            }
        }
        self.lines += 1;
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        match String::from_utf8(line) {
            Ok(s) => Ok(Line::Text(s)),
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                let mut bytes = e.into_bytes();
                let len = bytes.len();
                bytes.truncate(SHOWN_LINE_START);
                Ok(Line::NotUtf8(bytes, at, len))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], cap: usize) -> Vec<Line> {
        let mut r = LineReader::new(io::BufReader::with_capacity(4, input), cap);
        let mut out = Vec::new();
        loop {
            let l = r.next_line();
            let end = l == Line::End;
            out.push(l);
            if end {
                return out;
            }
        }
    }

    #[test]
    fn lines_are_read_within_the_cap_and_the_rest_is_skipped() {
        assert_eq!(
            lines(b"ab\r\ncd\n\nlong line here\nef", 8),
            [
                Line::Text("ab".into()),
                Line::Text("cd".into()),
                Line::Text(String::new()),
                Line::TooLong(b"long lin".to_vec()),
                Line::Text("ef".into()),
                Line::End
            ]
        );
        assert_eq!(
            lines(b"\xff\xfeok\n", 100),
            [Line::NotUtf8(b"\xff\xfeok".to_vec(), 0, 4), Line::End]
        );
        let long = vec![b'x'; 1000];
        match &lines(&long, 500)[0] {
            Line::TooLong(start) => assert_eq!(start.len(), SHOWN_LINE_START),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn depth_is_measured_outside_strings() {
        assert_eq!(too_deep(b"[[[]]]", 3), None);
        assert_eq!(too_deep(b"[[[[]]]]", 3), Some(3));
        assert_eq!(too_deep(br#"{"a":"[[[[\"[["}"#, 1), None);
        assert_eq!(too_deep(br#"[{"a":[]}]"#, 2), Some(6));
    }

    #[test]
    fn text_is_escaped() {
        assert_eq!(
            escape_control("a\u{1b}[31m\tb\u{0}\u{85}\r"),
            "a\\u{1b}[31m\tb\\u{0}\\u{85}\\u{d}"
        );
        assert_eq!(line_start(b"ab\x07", Some(3)), "ab\\u{7}");
        // A start of control characters is shown within the same bound once escaped.
        assert_eq!(
            line_start(&[0; 100], Some(100)),
            format!("{}… (cut: 100 bytes in all)", "\\u{0}".repeat(80))
        );
        assert_eq!(line_start(b"ab", None), "ab…");
        let long = "x".repeat(300);
        let shown = format!("{}… (cut: 300 bytes in all)", &long[..SHOWN_LINE_START]);
        assert_eq!(line_start(long.as_bytes(), Some(300)), shown);
    }
}
