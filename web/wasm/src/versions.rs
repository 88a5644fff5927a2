//! The same bytes read by every version: where each parts from the selected one, at the first
//! field it reads differently (another offset, name or meaning) or where one of them stops. The
//! selected version's rows are kept as one hash each; the others are compared as they are read.

use std::collections::hash_map::DefaultHasher;
use std::fmt::{self, Write};
use std::hash::Hasher;

use gdmarshal::decode::DecodeOptions;
use gdmarshal::profile::all_profiles;
use serde::Serialize;

use crate::framed::{Failure, Rows, read};
use crate::session::json_start;
use crate::view::{parse, refused};

/// Bytes of each version's tagged JSON shown.
const VALUE_SHOWN: usize = 300;

/// A row's hash: its offsets, name and meaning.
fn hash(start: usize, end: usize, name: &str, meaning: fmt::Arguments<'_>) -> u64 {
    struct W(DefaultHasher);
    impl Write for W {
        fn write_str(&mut self, s: &str) -> fmt::Result {
            self.0.write(s.as_bytes());
            Ok(())
        }
    }
    let mut w = W(DefaultHasher::new());
    w.0.write_usize(start);
    w.0.write_usize(end);
    w.0.write(name.as_bytes());
    // Not UTF-8: no name ends where another's meaning starts.
    w.0.write_u8(0xff);
    // Writing to a hasher cannot fail.
    let _ = w.write_fmt(meaning);
    w.0.finish()
}

/// The selected version's rows, one hash each.
struct Hashes(Vec<u64>);

impl Rows for Hashes {
    fn row(&mut self, start: usize, end: usize, name: &str, meaning: fmt::Arguments<'_>) {
        self.0.push(hash(start, end, name, meaning));
    }
}

/// A row's start, name and meaning.
type Text = (usize, String, String);

/// Another version's rows against the selected one's: the first that differs, and how many.
struct Compare<'a> {
    base: &'a [u64],
    count: usize,
    differs: Option<(usize, Text)>,
}

impl Rows for Compare<'_> {
    fn row(&mut self, start: usize, end: usize, name: &str, meaning: fmt::Arguments<'_>) {
        let k = self.count;
        self.count += 1;
        if self.differs.is_none()
            && self
                .base
                .get(k)
                .is_some_and(|&h| h != hash(start, end, name, meaning))
        {
            self.differs = Some((k, (start, name.to_string(), meaning.to_string())));
        }
    }
}

/// Row `k`'s text.
struct Pick {
    k: usize,
    count: usize,
    got: Option<Text>,
}

impl Rows for Pick {
    fn row(&mut self, start: usize, _: usize, name: &str, meaning: fmt::Arguments<'_>) {
        if self.count == self.k {
            self.got = Some((start, name.to_string(), meaning.to_string()));
        }
        self.count += 1;
    }
}

/// One version's reading.
#[derive(Serialize, Debug)]
struct Reading {
    name: String,
    verified: bool,
    selected: bool,
    consumed: Option<usize>,
    error: Option<Failure>,
    /// The start of its tagged JSON.
    value: String,
    /// Where it parts from the selected version, if it does.
    part: Option<String>,
}

/// The message without its first `Godot <version>`: what two versions' errors share.
fn unversioned(m: &str) -> String {
    match m.find("Godot ") {
        Some(at) => {
            let rest = &m[at + 6..];
            let end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            format!("{}{}", &m[..at + 6], &rest[end..])
        }
        None => m.to_string(),
    }
}

/// Where errors `a` (the selected version's) and `b` part, if they do.
fn errors_part(a: &Option<Failure>, b: &Option<Failure>) -> Option<String> {
    let (ea, eb) = (a.as_ref().map(|e| e.offset), b.as_ref().map(|e| e.offset));
    let messages_differ = match (a, b) {
        (Some(a), Some(b)) => unversioned(&a.message) != unversioned(&b.message),
        _ => false,
    };
    if ea == eb && !messages_differ {
        return None;
    }
    let at = ea.unwrap_or(usize::MAX).min(eb.unwrap_or(usize::MAX));
    let says = |e: &Option<Failure>| e.as_ref().map_or("reads on".into(), |e| e.message.clone());
    Some(format!("at byte {at}: {} there, {} here", says(b), says(a)))
}

/// Reads `bytes` with every version; `[{"name", "verified", "selected", "consumed", "error",
/// "value", "part"}, ...]` or `{"refused"}`.
pub fn versions(req: &[u8], bytes: &[u8]) -> Vec<u8> {
    let (r, selected, framing) = match parse(req) {
        Ok(p) => p,
        Err(e) => return refused(e.to_string()),
    };
    let opts = DecodeOptions::new().allow_objects(r.objects);
    let mut hashes = Hashes(Vec::new());
    let base_out = read(bytes, selected, framing, opts, &mut hashes);
    let base = hashes.0;
    let base_error = base_out.error.clone();
    let mut base_out = Some(base_out);
    let mut list = Vec::new();
    for p in all_profiles() {
        let p = *p;
        let mut rows = Compare {
            base: &base,
            count: 0,
            differs: None,
        };
        // The selected version's own reading is the one already made.
        let out = match base_out.take_if(|_| p == selected) {
            Some(o) => {
                rows.count = base.len();
                o
            }
            None => read(bytes, p, framing, opts, &mut rows),
        };
        let part = match rows.differs {
            Some((k, (_, n2, t2))) => {
                let mut pick = Pick {
                    k,
                    count: 0,
                    got: None,
                };
                read(bytes, selected, framing, opts, &mut pick);
                let (s1, n1, t1) = pick.got.unwrap_or_default();
                Some(format!("at byte {s1}: {n1} “{t1}” here, {n2} “{t2}” there"))
            }
            None => errors_part(&base_error, &out.error).or_else(|| {
                (rows.count != base.len())
                    .then(|| format!("at field {}", rows.count.min(base.len())))
            }),
        };
        list.push(Reading {
            name: p.to_string(),
            verified: p.is_verified(),
            selected: p == selected,
            consumed: out.consumed,
            error: out.error,
            value: out
                .value
                .map(|v| json_start(&v, VALUE_SHOWN).0)
                .unwrap_or_default(),
            part,
        });
    }
    serde_json::to_vec(&list).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn three_x_parts_from_four_x_on_a_dictionary() {
        // An empty Dictionary as 4.6 writes it: id 27, which 3.x reads as no type.
        let list: Value =
            serde_json::from_slice(&versions(br#"{"godot":"4.6"}"#, &[27, 0, 0, 0, 0, 0, 0, 0]))
                .unwrap();
        let list = list.as_array().unwrap();
        assert!(list.len() > 8);
        for v in list {
            let name = v["name"].as_str().unwrap();
            assert_eq!(v["selected"], name == "4.6", "{name}");
            assert_eq!(v["part"].is_string(), name.starts_with("3."), "{name}: {v}");
            if name.starts_with("3.") {
                assert_eq!(v["error"]["offset"], 0, "{name}");
            } else {
                assert_eq!(v["value"], r#"{"type":"Dictionary","value":[]}"#, "{name}");
            }
        }
        assert!(versions(br#"{"godot":"4.6","framing":"x"}"#, &[]).starts_with(b"{\"refused\""));
    }

    #[test]
    fn versions_that_read_alike_do_not_part() {
        // 4.6's Dictionary of one entry, int 1 -> int 2: 4.6-double reads it alike.
        let bytes = [
            27, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0,
        ];
        let list: Value = serde_json::from_slice(&versions(br#"{"godot":"4.6"}"#, &bytes)).unwrap();
        let double = list
            .as_array()
            .unwrap()
            .iter()
            .find(|v| v["name"] == "4.6-double")
            .unwrap();
        assert!(double["part"].is_null(), "{double}");
        assert_eq!(
            errors_part(
                &Some(Failure {
                    offset: 4,
                    message: "Godot 4.6 rejects: x".into(),
                    at: String::new(),
                    ..Failure::default()
                }),
                &Some(Failure {
                    offset: 4,
                    message: "Godot 3.6 rejects: x".into(),
                    at: String::new(),
                    ..Failure::default()
                }),
            ),
            None
        );
        assert_eq!(
            errors_part(
                &None,
                &Some(Failure {
                    offset: 9,
                    message: "m".into(),
                    at: String::new(),
                    ..Failure::default()
                })
            ),
            Some("at byte 9: m there, reads on here".into())
        );
        assert_eq!(unversioned("Godot 4.6-double rejects"), "Godot  rejects");
    }
}
