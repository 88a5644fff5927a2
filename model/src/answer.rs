//! The answer model: what anything that answers a [`Case`](crate::case::Case) says back, as one
//! type passed between the engines, this codec, testees, the judge and the corpus.
//!
//! The verdict is the variant (as in protobuf's `ConformanceResponse`): a decoded value, encoded
//! bytes, a refusal, a case the answerer cannot pose or declines, an engine defect, or no answer
//! at all. A corpus [`Record`](crate::Record) is an engine's answer written to disk; the
//! two convert into each other (`Record::of`, `Record::answer`).

use serde_json::Value;

use crate::Incident;
use crate::Rejection;
use crate::Unsupported;

/// One answer to one case.
#[derive(Clone, Debug, PartialEq)]
pub enum Answer {
    /// A decode case: the bytes decoded to this value.
    Decoded {
        /// The value as tagged JSON; `None` when the answerer gave no tree (an engine answer
        /// that lacks one).
        tree: Option<Value>,
        /// Bytes consumed; `None` when the answerer gives no way to tell (3.x engines).
        consumed: Option<usize>,
        /// The answerer's encoding of the value it decoded (with full objects when the case
        /// allows objects), or why there is none.
        reencoded: Reencoded,
        /// What the answerer printed while answering (an engine's stderr); kept, never compared.
        log: String,
    },
    /// An encode case: the value encoded to these bytes.
    Encoded {
        /// The encoding asked for (with or without full objects).
        bytes: Vec<u8>,
        /// The value as the answerer built it, when it says (an engine: a dictionary with
        /// duplicate keys comes back with one entry per key).
        tree: Option<Value>,
        /// What the answerer printed while answering; kept, never compared.
        log: String,
    },
    /// The answerer refused the input or the value, and why.
    Rejected(Rejection),
    /// The case cannot be posed to the answerer (an engine cannot build the value from a
    /// script); the reason says why.
    Unsupported(Unsupported),
    /// The answerer declines the case (a testee that does not handle it); the reason says why.
    Skipped(String),
    /// The case crashed the engine, and a fresh engine again: an engine defect.
    Crashed(Incident),
    /// The case hung the engine, and a fresh engine again: an engine defect.
    Hung(Incident),
    /// Nobody answered: the process would not start, died in ways the case did not cause,
    /// stopped answering or broke its protocol. Never a verdict about the case.
    Unanswered(String),
}

/// A decoding answerer's encoding of the value it decoded.
#[derive(Clone, Debug, PartialEq)]
pub enum Reencoded {
    /// The bytes.
    Bytes(Vec<u8>),
    /// It refused to encode the value it decoded.
    Refused(Rejection),
    /// It declines to encode (a testee that does not encode, or not this value).
    Skipped(String),
    /// It gave no answer when asked.
    Unanswered(String),
    /// It was not asked: the answerer does not claim to re-encode (a decode-only testee), and
    /// the decode is judged on the decoded value alone.
    NotClaimed,
    /// None was given: an engine answer without its re-encoding, or a record whose re-encoding
    /// differs between runs.
    Absent,
}

impl Reencoded {
    /// The bytes, if there are any.
    pub fn bytes(&self) -> Option<&[u8]> {
        match self {
            Reencoded::Bytes(b) => Some(b),
            _ => None,
        }
    }
}

impl Answer {
    /// The decoded tree, for a decode answer that has one.
    pub fn tree(&self) -> Option<&Value> {
        match self {
            Answer::Decoded { tree, .. } => tree.as_ref(),
            _ => None,
        }
    }

    /// The bytes an answer holds: the encoding of an encode answer, the re-encoding of a decode
    /// answer.
    pub fn bytes(&self) -> Option<&[u8]> {
        match self {
            Answer::Encoded { bytes, .. } => Some(bytes),
            Answer::Decoded { reencoded, .. } => reencoded.bytes(),
            _ => None,
        }
    }

    /// Whether the case (reproducibly) crashed or hung the engine.
    pub fn is_incident(&self) -> bool {
        matches!(self, Answer::Crashed(_) | Answer::Hung(_))
    }
}
