//! A testee process as an [`Answerer`]: each case becomes a protocol request, each reply an
//! [`Answer`]. A decode the testee accepts is followed by an encode request for the tree it
//! answered, whose reply is the answer's re-encoding.
//!
//! The testee's words are free text, cut to [`MAX_TESTEE_TEXT`] bytes; a refusal may state its
//! kind from the small vocabulary of [`RejectionKind`], and a reply that breaks the protocol is
//! [`Answer::Unanswered`]. A testee that does not claim to re-encode is not asked to.

use serde_json::Value;
use serde_json::value::RawValue;

use gdmarshal::float::FloatStyle;
use gdmarshal::hex::{hex, unhex};
use gdmarshal::json::to_json;
use gdmarshal::profile::Profile;

use super::limits::MAX_TESTEE_TEXT;
use super::reply::{Reply, Request, string, whole};
use super::testee::Testee;
use crate::model::answer::{Answer, Reencoded};
use crate::model::answerer::Answerer;
use crate::model::case::Case;
use crate::model::{RejectKind, Rejection, RejectionKind};
use crate::shown::truncate;

const NEITHER: &str = "testee broke the protocol: the answer has neither \"ok\" nor \"skipped\"";

/// What a protocol request came to when it is not `"ok": true`.
enum NotOk {
    /// `"ok": false`, with the testee's reason.
    Refused(Rejection),
    /// `"skipped"`, with the reason.
    Skipped(String),
    /// No answer, or one that breaks the protocol.
    Unanswered(String),
}

/// A testee's free text (a string, or any other JSON as written), cut to
/// [`MAX_TESTEE_TEXT`].
fn text(v: &RawValue) -> String {
    match string(v) {
        Some(s) => truncate(&s, MAX_TESTEE_TEXT),
        None => truncate(v.get(), MAX_TESTEE_TEXT),
    }
}

/// A refusal: its text, and the kind it states (`"kind"`), when that is one of the vocabulary's.
/// A kind outside the vocabulary is kept in the text, so that the report shows it.
fn refusal(answer: &Reply) -> Rejection {
    let mut r = Rejection::text(error_text(answer));
    match answer
        .kind
        .raw()
        .map(|k| string(k).map(|k| k.parse::<RejectionKind>()))
    {
        Some(Some(Ok(k))) => r.kind = Some(RejectKind::Stated(k)),
        Some(Some(Err(e))) => {
            r.message = truncate(&format!("{} ({e})", r.message), MAX_TESTEE_TEXT)
        }
        Some(None) => {
            r.message = format!("{} (\"kind\" is not a string)", r.message);
        }
        None => {}
    }
    r
}

fn error_text(answer: &Reply) -> String {
    answer
        .error
        .raw()
        .map(text)
        .unwrap_or_else(|| "(no message)".into())
}

impl Testee {
    /// A request of `op` for this testee's profile.
    fn request_of<'a>(&self, op: &'static str, objects: bool) -> Request<'a> {
        Request {
            id: 0,
            op,
            godot: self.profile.to_string(),
            objects,
            input: None,
            value: None,
        }
    }

    /// The whole reply when it is `"ok": true`.
    fn ask(&mut self, request: Request<'_>) -> Result<Reply, NotOk> {
        let answer = self
            .request(request)
            .map_err(|e| NotOk::Unanswered(e.to_string()))?;
        if let Some(why) = answer.skipped.raw().map(text) {
            return Err(NotOk::Skipped(why));
        }
        match answer.ok.raw().map(RawValue::get) {
            Some("true") => Ok(answer),
            Some("false") => Err(NotOk::Refused(refusal(&answer))),
            _ => Err(NotOk::Unanswered(NEITHER.into())),
        }
    }

    /// The encoding of a tagged-JSON value: `Ok(bytes)` or the answer that stands instead.
    fn encode_tree(&mut self, value: &Value, objects: bool) -> Result<Vec<u8>, NotOk> {
        let request = Request {
            value: Some(value),
            ..self.request_of("encode", objects)
        };
        let answer = self.ask(request)?;
        match answer.output.raw().and_then(string).map(|h| unhex(&h)) {
            Some(Ok(b)) => Ok(b),
            _ => Err(NotOk::Unanswered(
                "testee broke the protocol: \"ok\":true without an \"output\" hex string".into(),
            )),
        }
    }

    fn decode(&mut self, input: &[u8], objects: bool) -> Answer {
        let request = Request {
            input: Some(hex(input)),
            ..self.request_of("decode", objects)
        };
        let answer = match self.ask(request) {
            Ok(a) => a,
            Err(other) => return not_ok(other),
        };
        let consumed = answer.consumed.raw().and_then(whole).map(|c| c as usize);
        // The one member read as a tree, once the rest of the answer is known to be sound.
        let Some(tree) = answer.value.raw().and_then(|v| self.tree(v)) else {
            return Answer::Unanswered(
                "testee broke the protocol: \"ok\":true without a \"value\" object".into(),
            );
        };
        drop(answer);
        if !self.hello().capabilities.reencode {
            return Answer::Decoded {
                tree: Some(tree),
                consumed,
                reencoded: Reencoded::NotClaimed,
                log: String::new(),
            };
        }
        let reencoded = match self.encode_tree(&tree, objects) {
            Ok(b) => Reencoded::Bytes(b),
            Err(NotOk::Refused(r)) => Reencoded::Refused(r),
            Err(NotOk::Skipped(why)) => Reencoded::Skipped(why),
            Err(NotOk::Unanswered(why)) => Reencoded::Unanswered(why),
        };
        Answer::Decoded {
            tree: Some(tree),
            consumed,
            reencoded,
            log: String::new(),
        }
    }

    /// A decoded value as a JSON tree, when it is an object.
    fn tree(&mut self, value: &RawValue) -> Option<Value> {
        if !value.get().starts_with('{') {
            return None;
        }
        self.hold_for(value.get().len());
        gdmarshal::json::parse_deep::<Value>(value.get()).ok()
    }

    fn encode(&mut self, value: &Value, objects: bool) -> Answer {
        match self.encode_tree(value, objects) {
            Ok(bytes) => Answer::Encoded {
                bytes,
                tree: None,
                log: String::new(),
            },
            Err(other) => not_ok(other),
        }
    }
}

/// The answer for a reply that is not `"ok": true`.
fn not_ok(reply: NotOk) -> Answer {
    match reply {
        NotOk::Refused(r) => Answer::Rejected(r),
        NotOk::Skipped(why) => Answer::Skipped(why),
        NotOk::Unanswered(why) => Answer::Unanswered(why),
    }
}

impl Answerer for Testee {
    fn name(&self) -> &str {
        &self.hello().name
    }

    fn version(&self) -> &str {
        &self.hello().name
    }

    fn profile(&self) -> Profile {
        self.profile
    }

    fn answer(&mut self, cases: &[Case]) -> Vec<Answer> {
        cases
            .iter()
            .map(|c| match c {
                Case::Decode {
                    input,
                    allow_objects,
                    ..
                } => self.decode(input, *allow_objects),
                Case::Encode {
                    value,
                    full_objects,
                    ..
                } => {
                    let tree = to_json(value, self.profile, FloatStyle::Shortest);
                    self.encode(&tree, *full_objects)
                }
            })
            .collect()
    }
}
