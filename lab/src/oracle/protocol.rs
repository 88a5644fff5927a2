//! The wire between host and engine script (godot_project/README.md): length-prefixed frames of
//! JSON lines over TCP, and marker lines on the engine's stderr.

use std::borrow::Cow;
use std::io::{self, Read, Write};

use gdmarshal::json::parse_deep;

/// The largest frame accepted from an engine.
const MAX_FRAME: usize = 1 << 30;

/// Writes one frame (a little-endian u32 length, then the body) in a single write.
pub(crate) fn write_frame(w: &mut impl Write, body: &[u8]) -> io::Result<()> {
    let len = u32::try_from(body.len())
        .map_err(|_| io::Error::new(io::ErrorKind::InvalidInput, "frame over 4 GiB"))?;
    let mut frame = Vec::with_capacity(4 + body.len());
    frame.extend_from_slice(&len.to_le_bytes());
    frame.extend_from_slice(body);
    w.write_all(&frame)?;
    w.flush()
}

/// Reads one frame's body.
pub(crate) fn read_frame(r: &mut impl Read) -> io::Result<Vec<u8>> {
    read_frame_capped(r, MAX_FRAME)
}

/// Reads one frame's body, refusing one longer than `max` bytes before allocating for it.
pub(crate) fn read_frame_capped(r: &mut impl Read, max: usize) -> io::Result<Vec<u8>> {
    let mut len = [0u8; 4];
    r.read_exact(&mut len)?;
    let len = u32::from_le_bytes(len) as usize;
    if len > max {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!("frame of {len} bytes"),
        ));
    }
    let mut body = vec![0u8; len];
    r.read_exact(&mut body)?;
    Ok(body)
}

/// A request frame: the header line, then one request per line.
pub(crate) fn request_body(seq: u64, requests: &[&str]) -> Vec<u8> {
    let mut body = format!("{{\"seq\":{seq}}}").into_bytes();
    for r in requests {
        debug_assert!(!r.contains('\n'), "a request line must be one line");
        body.push(b'\n');
        body.extend_from_slice(r.as_bytes());
    }
    body
}

/// One result line of a response frame, parsed.
#[derive(Debug)]
pub(crate) struct Line {
    /// The JSON document, or why it could not be read.
    pub json: Result<serde_json::Value, serde_json::Error>,
    /// Whether invalid UTF-8 (a string the engine holds with a lone surrogate) was replaced.
    pub lossy: bool,
    /// Whether it nests deeper than serde_json reads (so that reading it on needs a big stack).
    pub deep: bool,
}

/// Splits a response frame into its sequence number and result lines.
pub(crate) fn split_response(body: &[u8]) -> (Option<u64>, Vec<Line>) {
    let mut lines = body.split(|&b| b == b'\n');
    let seq = lines
        .next()
        .and_then(|h| serde_json::from_slice::<serde_json::Value>(h).ok())
        .and_then(|h| h.get("seq").and_then(|s| s.as_u64()));
    (seq, lines.map(parse_line).collect())
}

fn parse_line(raw: &[u8]) -> Line {
    let fixed = sanitize(raw);
    let (text, lossy) = match String::from_utf8_lossy(&fixed) {
        Cow::Borrowed(s) => (Cow::Borrowed(s), false),
        Cow::Owned(s) => (Cow::Owned(s), true),
    };
    let (json, deep) = match serde_json::from_str(&text) {
        Ok(v) => (Ok(v), false),
        // A deep value: read it again without the nesting limit (slower, so only then).
        Err(e) if e.to_string().starts_with("recursion limit exceeded") => {
            (parse_deep(&text), true)
        }
        Err(e) => (Err(e), false),
    };
    Line { json, lossy, deep }
}

/// Makes Godot's JSON strict: GDScript's JSON writer leaves control characters other than
/// `\b \t \n \f \r` raw inside strings and writes U+000B as `\v`, neither of which is JSON.
/// Its output is compact, so a raw control byte can only stand inside a string.
fn sanitize(raw: &[u8]) -> Cow<'_, [u8]> {
    let needs_fix = raw.iter().any(|&b| b < 0x20) || raw.windows(2).any(|w| w == b"\\v");
    if !needs_fix {
        return Cow::Borrowed(raw);
    }
    let mut out = Vec::with_capacity(raw.len() + 16);
    let mut escaped = false;
    for &b in raw {
        if escaped {
            escaped = false;
            if b == b'v' {
                out.extend_from_slice(b"u000b");
                continue;
            }
        } else if b == b'\\' {
            escaped = true;
        } else if b < 0x20 {
            out.extend_from_slice(format!("\\u{b:04x}").as_bytes());
            continue;
        }
        out.push(b);
    }
    Cow::Owned(out)
}

/// A line of the engine's stderr, classified.
#[derive(Debug, PartialEq, Eq)]
pub(crate) enum Stderr<'a> {
    /// `@gdm:b:SEQ:I`: request I of batch SEQ starts.
    Begin(u64, usize),
    /// `@gdm:m:SEQ:I`: request I has passed its decoding (or encoding) step.
    Mid(u64, usize),
    /// `@gdm:e:SEQ`: batch SEQ is done; its response frame follows.
    End(u64),
    /// `@gdm:fatal:...`: the script gives up (bad arguments, no connection).
    Fatal(&'a str),
    /// Anything else: the engine's own output.
    Text(&'a str),
}

/// Classifies one stderr line (without its newline).
pub fn classify(line: &str) -> Stderr<'_> {
    let Some(rest) = line.strip_prefix("@gdm:") else {
        return Stderr::Text(line);
    };
    let mut parts = rest.splitn(3, ':');
    let kind = parts.next().unwrap_or("");
    let seq = parts.next().and_then(|s| s.parse::<u64>().ok());
    let index = parts.next().and_then(|s| s.parse::<usize>().ok());
    match (kind, seq, index) {
        ("b", Some(s), Some(i)) => Stderr::Begin(s, i),
        ("m", Some(s), Some(i)) => Stderr::Mid(s, i),
        ("e", Some(s), None) => Stderr::End(s),
        ("fatal", _, _) => Stderr::Fatal(&rest[6..]),
        _ => Stderr::Text(line),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_round_trip() {
        let mut buf = Vec::new();
        write_frame(&mut buf, b"hello").unwrap();
        assert_eq!(&buf[..4], &[5, 0, 0, 0]);
        assert_eq!(read_frame(&mut &buf[..]).unwrap(), b"hello");
    }

    #[test]
    fn godot_json_is_made_strict() {
        // What JSON.stringify(["\u0001\v\\v\n"]) writes.
        let line = split_response(b"{\"seq\":3}\n[\"\x01\\v\\\\v\\n\"]").1;
        assert_eq!(
            line[0].json.as_ref().unwrap(),
            &serde_json::json!(["\u{1}\u{b}\\v\n"])
        );
        assert!(!line[0].lossy);
    }

    #[test]
    fn invalid_utf8_is_replaced_and_flagged() {
        // A lone surrogate as Godot 3.2 writes it (ED A0 80).
        let (seq, lines) = split_response(b"{\"seq\":1}\n\"\xed\xa0\x80\"");
        assert_eq!(seq, Some(1));
        assert!(lines[0].lossy);
        assert!(
            lines[0]
                .json
                .as_ref()
                .unwrap()
                .as_str()
                .unwrap()
                .contains('\u{fffd}')
        );
    }

    #[test]
    fn markers_are_classified() {
        assert_eq!(classify("@gdm:b:7:12"), Stderr::Begin(7, 12));
        assert_eq!(classify("@gdm:m:7:12"), Stderr::Mid(7, 12));
        assert_eq!(classify("@gdm:e:7"), Stderr::End(7));
        assert_eq!(classify("@gdm:fatal:no port"), Stderr::Fatal("no port"));
        assert_eq!(classify("ERROR: x"), Stderr::Text("ERROR: x"));
        assert_eq!(classify("@gdm:b:x"), Stderr::Text("@gdm:b:x"));
    }
}
