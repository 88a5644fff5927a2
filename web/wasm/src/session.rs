//! The last decode, kept by the module for the page to ask about: its rows in view
//! ([`Session::rows`]), a value's nested values ([`Session::kids`]) and the value's tagged JSON
//! ([`Session::json`]). Nothing is written as text until asked for, so the module holds the input,
//! 12 bytes per field read and 28 per value (`docs/web.md`).

use std::io;

use gdmarshal::decode::{DecodeOptions, decode};
use gdmarshal::float::FloatStyle;
use gdmarshal::json::write_json;
use gdmarshal::{Profile, Variant};
use serde::Serialize;
use serde_json::json;

use crate::framed::{self, Failure};
use crate::rows::Collect;
use crate::view::{parse, refused};
use crate::window::Source;

/// Bytes of tagged JSON a decode answers with; the rest is written when asked for.
pub const JSON_SHOWN: usize = 1 << 18;
/// Rows or nested values answered by one call at most.
pub const MOST: usize = 1000;

/// A decode's input, settings and rows.
pub struct Session {
    bytes: Box<[u8]>,
    profile: Profile,
    opts: DecodeOptions,
    payload: (usize, usize),
    rows: Collect,
}

/// A decode's answer.
#[derive(Serialize, Debug)]
struct Decoded {
    profile: String,
    verified: bool,
    /// Bytes the engine's reader moves past (framing and value), on success.
    consumed: Option<usize>,
    error: Option<Failure>,
    /// How many values and rows were read.
    nodes: usize,
    rows: usize,
    /// The start of the value's tagged JSON, and whether there is more.
    json: String,
    json_more: bool,
}

/// Writes up to `limit` bytes, then refuses: a long value's JSON is cut short, not written.
pub struct Limited {
    out: Vec<u8>,
    limit: usize,
    more: bool,
}

impl io::Write for Limited {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let room = self.limit - self.out.len();
        if buf.len() > room {
            self.out.extend_from_slice(&buf[..room]);
            self.more = true;
            return Err(io::Error::other("enough"));
        }
        self.out.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The first `limit` bytes of `v`'s tagged JSON (whole characters), and whether there is more.
pub fn json_start(v: &Variant, limit: usize) -> (String, bool) {
    let mut w = Limited {
        out: Vec::new(),
        limit,
        more: false,
    };
    // An error is the limit reached, which `more` says.
    let _ = write_json(&mut w, v, FloatStyle::Shortest, false);
    let mut out = w.out;
    if let Err(e) = std::str::from_utf8(&out) {
        out.truncate(e.valid_up_to());
    }
    (String::from_utf8(out).unwrap_or_default(), w.more)
}

/// One value of the tree: its index, label, bytes, first row and how many values it holds.
fn info(rows: &Collect, i: usize, kids: usize) -> serde_json::Value {
    let n = rows.node(i);
    json!({
        "id": i,
        "label": rows.label(i),
        "start": n.map_or(0, |n| n.start),
        "end": n.map_or(0, |n| n.end),
        "row": n.map_or(0, |n| n.first_row),
        "kids": kids,
    })
}

/// The values nested directly in node `i`, in order.
fn children(rows: &Collect, i: usize) -> impl Iterator<Item = usize> + '_ {
    let end = rows.node(i).map_or(0, |n| n.next as usize);
    let mut at = i + 1;
    std::iter::from_fn(move || {
        let next = rows.node(at).filter(|_| at < end)?.next as usize;
        let this = at;
        // A subtree always ends past its own node; anything else would loop.
        at = if next > at { next } else { end };
        Some(this)
    })
}

impl Session {
    /// Decodes and inspects `bytes` as the request says: the answer (JSON), and the session to
    /// ask about unless the request was refused.
    pub fn decode(req: &[u8], bytes: Box<[u8]>) -> (Vec<u8>, Option<Session>) {
        let (r, profile, framing) = match parse(req) {
            Ok(p) => p,
            Err(e) => return (refused(e.to_string()), None),
        };
        let opts = DecodeOptions::new().allow_objects(r.objects);
        let base = if framing == gdmarshal::framing::Framing::None {
            0
        } else {
            4
        };
        let mut rows = Collect::new(base, bytes.len(), "value");
        let out = framed::run(&bytes, profile, framing, opts, &mut rows);
        rows.finish();
        let (json, json_more) = match &out.value {
            Some(v) => json_start(v, JSON_SHOWN),
            None => (String::new(), false),
        };
        let answer = Decoded {
            profile: profile.to_string(),
            verified: profile.is_verified(),
            consumed: out.consumed,
            error: out.error,
            nodes: rows.nodes.len(),
            rows: rows.rows.len(),
            json,
            json_more,
        };
        let session = Session {
            bytes,
            profile,
            opts,
            payload: out.payload,
            rows,
        };
        let json = serde_json::to_vec(&answer).unwrap_or_else(|e| refused(format!("answer: {e}")));
        (json, Some(session))
    }

    fn source(&self) -> Source<'_> {
        Source {
            bytes: &self.bytes,
            profile: self.profile,
            opts: self.opts,
            payload: self.payload,
            rows: &self.rows,
        }
    }

    /// Rows `first..first + count` (at most [`MOST`]): `[[start, end, node, depth, field,
    /// meaning], ...]`.
    pub fn rows(&self, first: usize, count: usize) -> Vec<u8> {
        let shown = self.source().shown(first, count.min(MOST));
        let list: Vec<_> = shown
            .into_iter()
            .map(|s| {
                json!([
                    s.row.start,
                    s.row.end,
                    s.row.node,
                    s.depth,
                    s.field,
                    s.meaning
                ])
            })
            .collect();
        serde_json::to_vec(&list).unwrap_or_default()
    }

    /// Node `node` and its nested values `from..from + count` (at most [`MOST`]):
    /// `{"node": {...}, "count": n, "kids": [{...}, ...]}`, each value as `{"id", "label",
    /// "start", "end", "row", "kids"}`.
    pub fn kids(&self, node: usize, from: usize, count: usize) -> Vec<u8> {
        if self.rows.node(node).is_none() {
            return refused(format!("no value {node}"));
        }
        let kids: Vec<_> = children(&self.rows, node)
            .skip(from)
            .take(count.min(MOST))
            .map(|k| info(&self.rows, k, children(&self.rows, k).count()))
            .collect();
        let count = children(&self.rows, node).count();
        let answer = json!({
            "node": info(&self.rows, node, count),
            "count": count,
            "kids": kids,
        });
        serde_json::to_vec(&answer).unwrap_or_default()
    }

    /// The value's whole tagged JSON, as `gdmarshal decode` writes it (empty if it does not
    /// decode): decoded again, the session keeps no value.
    pub fn json(&self) -> Vec<u8> {
        let (at, len) = self.payload;
        let mut out = Vec::new();
        if let Some(Ok(d)) = self
            .bytes
            .get(at..at + len)
            .map(|b| decode(b, self.profile, self.opts))
        {
            // Writing into a Vec cannot fail.
            let _ = write_json(&mut out, &d.value, FloatStyle::Shortest, false);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::framed::{Rows, read};
    use crate::rows::Row;
    use gdmarshal::framing::Framing;
    use serde_json::Value;
    use std::fmt;

    /// The answer as JSON, of any depth (the corpus's values nest 1024 levels).
    fn answer(bytes: &[u8]) -> Value {
        let mut de = serde_json::Deserializer::from_slice(bytes);
        de.disable_recursion_limit();
        serde::Deserialize::deserialize(&mut de).unwrap()
    }

    fn session(req: &str, bytes: &[u8]) -> (Value, Session) {
        let (json, s) = Session::decode(req.as_bytes(), bytes.into());
        (answer(&json), s.unwrap())
    }

    /// Every row written as it is read: what the rows written again must equal.
    #[derive(Default)]
    struct Eager(Vec<(u32, u32, String, String)>);

    impl Rows for Eager {
        fn row(&mut self, start: usize, end: usize, name: &str, meaning: fmt::Arguments<'_>) {
            self.0
                .push((start as u32, end as u32, name.into(), meaning.to_string()));
        }
    }

    #[test]
    fn decode_answers_rows_and_values() {
        // [7, "a"] as 4.6 writes it: Array, count 2, int 7, String "a".
        let bytes = [
            28, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0, 97, 0, 0, 0,
        ];
        let (a, s) = session(r#"{"godot":"4.6"}"#, &bytes);
        assert_eq!(a["consumed"], 28);
        assert_eq!(
            a["json"],
            r#"{"type":"Array","value":[{"type":"int","value":"7"},{"type":"String","value":"a"}]}"#
        );
        assert_eq!(a["json_more"], false);
        assert_eq!(String::from_utf8(s.json()).unwrap(), a["json"]);
        let rows = answer(&s.rows(0, 3));
        assert_eq!(
            rows[0],
            json!([0, 4, 0, 0, "header", "Array (id 28), flags 0x0"])
        );
        assert_eq!(
            rows[2],
            json!([8, 12, 1, 1, "header", "int (id 2), flags 0x0"])
        );
        let kids = answer(&s.kids(0, 1, 5));
        assert_eq!(kids["count"], 2);
        assert_eq!(
            kids["kids"],
            json!([{"id": 2, "label": "[1]", "start": 16, "end": 28, "row": 4, "kids": 0}])
        );
        // The same bytes with a store_var length: every offset moves by 4.
        let mut framed = vec![28, 0, 0, 0];
        framed.extend_from_slice(&bytes);
        let (_, f) = session(r#"{"godot":"4.6","framing":"store_var"}"#, &framed);
        assert_eq!(
            answer(&f.rows(0, 1))[0],
            json!([0, 4, 0, 0, "length", "28 bytes of value follow"])
        );
        assert_eq!(answer(&f.kids(0, 1, 1))["kids"][0]["start"], 20);
    }

    #[test]
    fn the_path_of_a_deep_error_counts_its_middle() {
        // 20 Arrays of one element each, then a type id past the last.
        let mut deep: Vec<u8> = [28u32, 1]
            .repeat(20)
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        deep.extend(200u32.to_le_bytes());
        let (a, _) = session(r#"{"godot":"4.6"}"#, &deep);
        assert_eq!(
            a["error"]["where"],
            "value › [0] › [0] › [0] › … 13 more … › [0] › [0] › [0] › [0]"
        );
        assert_eq!(a["error"]["depth"], 20);
    }

    #[test]
    fn decode_errors_name_the_byte_and_the_value() {
        let cut = [28, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0, 4, 0, 0];
        let (a, s) = session(r#"{"godot":"4.6"}"#, &cut);
        assert_eq!(a["error"]["offset"], 16);
        assert_eq!(a["error"]["where"], "value › [1]");
        // The error belongs to element [1] (node 2, one level down), not to [0] read before it.
        assert_eq!(
            (&a["error"]["node"], &a["error"]["depth"]),
            (&json!(2), &json!(1))
        );
        assert_eq!(a["json"], "");
        assert!(s.json().is_empty());
        let (r, none) = Session::decode(br#"{"godot":"5.1"}"#, cut.into());
        assert!(answer(&r)["refused"].as_str().unwrap().contains("5.1"));
        assert!(none.is_none());
    }

    #[test]
    fn a_long_value_answers_the_start_of_its_json() {
        let n = 100_000u32;
        let mut nils = vec![28, 0, 0, 0];
        nils.extend_from_slice(&n.to_le_bytes());
        nils.resize(8 + 4 * n as usize, 0);
        let (a, s) = session(r#"{"godot":"4.6"}"#, &nils);
        let start = a["json"].as_str().unwrap();
        assert_eq!(a["json_more"], true);
        assert_eq!(start.len(), JSON_SHOWN);
        let whole = s.json();
        assert!(whole.len() > JSON_SHOWN && whole.starts_with(start.as_bytes()));
        // Nothing but offsets kept: every row is written again when shown.
        assert!(s.rows.kept.is_empty());
        let last = answer(&s.rows(n as usize + 1, 5));
        assert_eq!(
            last,
            json!([[
                8 + 4 * (n - 1),
                8 + 4 * n,
                n,
                1,
                "header",
                "Nil (id 0), flags 0x0"
            ]])
        );
        assert_eq!(
            answer(&s.kids(0, 0, 5000))["kids"]
                .as_array()
                .unwrap()
                .len(),
            MOST
        );
    }

    /// Rows `first..` of `s`, as the eager reading's rows.
    fn shown(s: &Session, first: usize, count: usize) -> Vec<(u32, u32, String, String)> {
        s.source()
            .shown(first, count)
            .into_iter()
            .map(|w| {
                let Row { start, end, .. } = w.row;
                (start, end, w.field, w.meaning)
            })
            .collect()
    }

    #[test]
    fn rows_written_again_are_those_first_read() {
        // Each recorded input of 4.6.3 (and of 3.6.2, objects allowed), unframed and behind a
        // store_var length: the rows in any window are the ones a reading that writes every
        // row's text makes, every row and value lies inside the input, rows come in the order
        // read. On a big stack: without the codec's stack growth (as on wasm32), the nesting
        // limits need one.
        let run = move || {
            let mut windows = 0;
            for (file, godot) in [("godot-4.6.3.stable", "4.6"), ("godot-3.6.2.stable", "3.6")] {
                let corpus = format!("{}/../../corpus/{file}.jsonl", env!("CARGO_MANIFEST_DIR"));
                let text = std::fs::read_to_string(corpus).unwrap();
                let inputs: Vec<Vec<u8>> = text
                    .lines()
                    .filter_map(|line| line.split_once(r#""input":""#))
                    .filter_map(|(_, rest)| gdmarshal::hex::unhex(rest.split('"').next()?).ok())
                    .collect();
                assert!(inputs.len() > 1000, "only {} inputs", inputs.len());
                let profile: Profile = godot.parse().unwrap();
                for bytes in &inputs {
                    let mut framed = (bytes.len() as u32).to_le_bytes().to_vec();
                    framed.extend_from_slice(bytes);
                    for (framing, name, input) in [
                        (Framing::None, "none", &bytes[..]),
                        (Framing::StoreVar, "store_var", &framed),
                    ] {
                        let req =
                            format!(r#"{{"godot":"{godot}","framing":"{name}","objects":true}}"#);
                        let opts = DecodeOptions::new().allow_objects(true);
                        let mut eager = Eager::default();
                        read(input, profile, framing, opts, &mut eager);
                        let (a, s) = session(&req, input);
                        let all = eager.0;
                        assert_eq!(
                            shown(&s, 0, all.len() + 1),
                            all,
                            "{req} {}",
                            gdmarshal::hex::hex(input)
                        );
                        // Windows from every row (a few hundred spread over long inputs).
                        let step = (all.len() / 300).max(1);
                        for first in (0..all.len()).step_by(step) {
                            let w = &all[first..(first + 7).min(all.len())];
                            assert_eq!(shown(&s, first, 7), w, "{req} from row {first}");
                            windows += 1;
                        }
                        let len = input.len() as u32;
                        for i in 0..s.rows.nodes.len() {
                            let n = s.rows.node(i).unwrap();
                            assert!(n.start <= n.end && n.end <= len, "value {i}: {n:?}");
                        }
                        if let Some(at) = a["error"]["offset"].as_u64() {
                            assert!(at <= len as u64);
                        }
                    }
                }
            }
            assert!(windows > 10_000, "{windows} windows");
        };
        std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn(run)
            .unwrap()
            .join()
            .unwrap();
    }
}
