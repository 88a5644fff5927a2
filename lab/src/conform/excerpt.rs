//! A bounded excerpt of a testee's stderr, for the failure of a case it crashed or hung on: the
//! first lines since the request that look like the cause (a Rust panic, a Python traceback, an
//! error, an abort, and the lines after it) and the last lines, at most
//! [`super::limits::MAX_STDERR_EXCERPT`] bytes whatever the testee writes.

use std::collections::{BTreeMap, VecDeque};

use super::limits::{MAX_STDERR_EXCERPT, MAX_STDERR_LINE};

/// Bytes for each of the two parts, the cause and the last lines.
const PART: usize = MAX_STDERR_EXCERPT / 2;
/// Lines of the cause kept (its first line and those after it).
const CAUSE_LINES: usize = 24;
/// Last lines kept.
const TAIL_LINES: usize = 12;

/// Words that mark the line where a crash is explained.
const CAUSE_WORDS: [&str; 13] = [
    "panicked at",
    "Traceback",
    "Error",
    "error:",
    "ERROR",
    "abort",
    "Abort",
    "ABORT",
    "Exception",
    "fatal",
    "Fatal",
    "FATAL",
    "Segmentation fault",
];

/// What is kept of a stderr stream.
#[derive(Debug, Default)]
pub(crate) struct StderrExcerpt {
    /// The line being written (at most [`MAX_STDERR_LINE`] bytes of it).
    partial: Vec<u8>,
    /// Bytes of the line being written that were not kept.
    partial_cut: usize,
    /// Whole lines seen.
    lines: usize,
    /// The first line since the last [`StderrExcerpt::mark`] that looks like a cause, and the
    /// lines after it, numbered.
    cause: Vec<(usize, String)>,
    /// Bytes in `cause`.
    cause_bytes: usize,
    /// Whether lines are still added to `cause`.
    cause_open: bool,
    /// The last lines, numbered.
    tail: VecDeque<(usize, String)>,
    /// Bytes in `tail`.
    tail_bytes: usize,
}

fn looks_like_cause(line: &str) -> bool {
    CAUSE_WORDS.iter().any(|w| line.contains(w))
}

impl StderrExcerpt {
    /// Takes the next bytes of the stream.
    pub fn feed(&mut self, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            let (part, rest, ended) = match bytes.iter().position(|&b| b == b'\n') {
                Some(i) => (&bytes[..i], &bytes[i + 1..], true),
                None => (bytes, &bytes[bytes.len()..], false),
            };
            let room = MAX_STDERR_LINE.saturating_sub(self.partial.len());
            let keep = room.min(part.len());
            self.partial.extend_from_slice(&part[..keep]);
            self.partial_cut += part.len() - keep;
            if ended {
                self.end_line();
            }
            bytes = rest;
        }
    }

    /// The line being written, as text.
    fn partial_text(&self) -> String {
        let mut bytes: &[u8] = &self.partial;
        if bytes.last() == Some(&b'\r') {
            bytes = &bytes[..bytes.len() - 1];
        }
        let mut text = String::from_utf8_lossy(bytes).into_owned();
        if self.partial_cut > 0 {
            text.push_str(&format!("… ({} more bytes)", self.partial_cut));
        }
        text
    }

    fn end_line(&mut self) {
        let text = self.partial_text();
        self.partial.clear();
        self.partial_cut = 0;
        let n = self.lines;
        self.lines += 1;
        if self.cause_open {
            if self.cause.len() < CAUSE_LINES && self.cause_bytes + text.len() <= PART {
                self.cause_bytes += text.len();
                self.cause.push((n, text.clone()));
            } else {
                self.cause_open = false;
            }
        } else if self.cause.is_empty() && looks_like_cause(&text) {
            self.cause_open = true;
            self.cause_bytes = text.len();
            self.cause.push((n, text.clone()));
        }
        self.tail_bytes += text.len();
        self.tail.push_back((n, text));
        while self.tail.len() > TAIL_LINES || (self.tail_bytes > PART && self.tail.len() > 1) {
            if let Some((_, old)) = self.tail.pop_front() {
                self.tail_bytes -= old.len();
            }
        }
    }

    /// A new request begins: the cause is looked for in the lines from here on.
    pub(crate) fn mark(&mut self) {
        self.cause.clear();
        self.cause_bytes = 0;
        self.cause_open = false;
    }

    /// The excerpt: the cause's lines, then the last lines (the line being written among them),
    /// each indented by two spaces, a gap shown as `… N lines left out`. `None` when the testee
    /// wrote nothing to stderr.
    pub fn render(&self) -> Option<String> {
        // Both parts by line number: the last lines may come before the cause, or overlap it.
        let mut lines: BTreeMap<usize, &str> =
            self.cause.iter().map(|(n, t)| (*n, t.as_str())).collect();
        let partial = (!self.partial.is_empty() || self.partial_cut > 0)
            .then(|| (self.lines, self.partial_text()));
        // The line being written counts as one of the last lines.
        let mut budget = self.tail_bytes + partial.as_ref().map_or(0, |(_, t)| t.len());
        let mut tail = self.tail.iter();
        while budget > PART && tail.len() > 0 {
            budget -= tail.next().map_or(0, |(_, t)| t.len());
        }
        for (n, text) in tail.chain(partial.as_ref()) {
            lines.insert(*n, text);
        }
        if lines.values().all(|t| t.trim().is_empty()) {
            return None;
        }
        let mut out = String::new();
        let mut next = 0;
        for (n, text) in lines {
            if n > next {
                let gap = n - next;
                out.push_str(&format!(
                    "  … {gap} line{} left out\n",
                    if gap == 1 { "" } else { "s" }
                ));
            }
            out.push_str("  ");
            out.push_str(text);
            out.push('\n');
            next = n + 1;
        }
        out.pop();
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_and_the_last_lines_are_kept() {
        let mut e = StderrExcerpt::default();
        e.feed(b"starting\nlog line\n");
        e.mark();
        let mut text =
            String::from("thread 'main' panicked at src/main.rs:3:5:\nboom\nstack backtrace:\n");
        for i in 0..100 {
            text.push_str(&format!("  {i}: frame::number_{i}\n"));
        }
        text.push_str("note: run with `RUST_BACKTRACE=full` for a verbose backtrace.");
        // Written in small pieces, as a pipe delivers it.
        for chunk in text.as_bytes().chunks(7) {
            e.feed(chunk);
        }
        let shown = e.render().unwrap();
        assert!(
            shown.starts_with("  … 2 lines left out\n  thread 'main' panicked at"),
            "{shown}"
        );
        assert!(shown.contains("\n  boom\n"), "{shown}");
        assert!(shown.contains("lines left out"), "{shown}");
        assert!(shown.ends_with("  note: run with `RUST_BACKTRACE=full` for a verbose backtrace."));
        assert!(shown.len() <= MAX_STDERR_EXCERPT + 200, "{}", shown.len());
    }

    #[test]
    fn the_excerpt_stays_bounded_whatever_is_written() {
        let mut e = StderrExcerpt::default();
        e.mark();
        let line = vec![b'E'; 100_000];
        for _ in 0..50 {
            e.feed(&line);
            e.feed(b"Error: \x1b[31m\n");
        }
        e.feed(&line);
        let shown = e.render().unwrap();
        assert!(shown.len() <= MAX_STDERR_EXCERPT + 200, "{}", shown.len());
        assert!(shown.contains("more bytes)"), "{shown}");
        assert_eq!(StderrExcerpt::default().render(), None);
    }

    #[test]
    fn last_lines_before_the_cause_are_shown_in_order() {
        let mut e = StderrExcerpt::default();
        e.mark();
        e.feed(b"starting\nTraceback (most recent call last):\n  File x\nValueError: bad\n");
        assert_eq!(
            e.render().unwrap(),
            "  starting\n  Traceback (most recent call last):\n    File x\n  ValueError: bad"
        );
    }
}
