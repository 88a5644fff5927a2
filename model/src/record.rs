//! One corpus line: a case and one engine's answer to it, as plain JSON (docs/corpus.md).
//!
//! A record is the on-disk form of a [`Case`] and an [`Answer`]: [`Record::of`] writes one,
//! [`Record::case`] and [`Record::answer`] read them back.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use gdmarshal::float::FloatStyle;
use gdmarshal::hex::{hex, unhex};
use gdmarshal::json::{from_json, to_json};
use gdmarshal::profile::Profile;

use super::mismatch::{RecordDefect, RejectKind, Rejection};
use crate::answer::{Answer, Reencoded};
use crate::case::{Case, Direction};
use crate::{Incident, Unbuildable, Unsupported, engine_rejection};

/// Longest error text kept per record.
const ERROR_CHARS: usize = 600;

/// How the engine answered.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    /// Decoded the bytes / built and encoded the value.
    Accepted,
    /// Refused the bytes.
    Rejected,
    /// Cannot build the value from a script (encode only).
    Unsupported,
    /// The engine died on this input.
    Crashed,
    /// The engine stopped answering on this input.
    Hung,
}

/// A part of a record that two runs of the same case can disagree on (a record lists those that
/// did in [`Record::nondeterministic`]).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "lowercase")]
#[strum(serialize_all = "lowercase")]
pub enum Field {
    /// How the engine answered ([`Verdict`]).
    Verdict,
    /// Decode: how many bytes the engine read.
    Consumed,
    /// The value, as the engine decoded or built it.
    Tree,
    /// The bytes the engine wrote.
    Output,
}

impl Field {
    /// The field's name in a record: `verdict`, `consumed`, `tree` or `output`.
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// Fields by name, between commas (`tree, output`).
    pub fn names(fields: &[Field]) -> String {
        let names: Vec<&str> = fields.iter().map(|f| f.name()).collect();
        names.join(", ")
    }
}

impl std::fmt::Display for Field {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.name())
    }
}

/// One case and one engine's answer: one line of `corpus/godot-VERSION.jsonl`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// Stable hierarchical name, e.g. `decode/truncated/int/1/at_3`.
    pub name: String,
    /// `decode` or `encode`.
    pub direction: Direction,
    /// Decode: the input bytes as hex.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub input: Option<String>,
    /// Encode: the value to build, as tagged JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<Value>,
    /// Decode with objects allowed / encode with full objects.
    pub objects: bool,
    /// The engine's answer.
    pub verdict: Verdict,
    /// Decode: bytes consumed (absent when the engine gives no way to tell).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub consumed: Option<usize>,
    /// Decode: the decoded value. Encode: the value as the engine built it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tree: Option<Value>,
    /// Decode: the engine's re-encoding of the decoded value (hex; full objects when `objects`).
    /// Encode: the engine's encoding (hex).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output: Option<String>,
    /// Fields whose content differed between two runs of the same case, so they are not compared.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub nondeterministic: Vec<Field>,
    /// Unsupported: the oracle's code for why it could not build the value (absent in records
    /// written before the oracle gave codes; not compared).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unbuildable: Option<Unbuildable>,
    /// What the engine printed while answering (error messages; not compared).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub error: String,
}

impl Record {
    /// The fields that must match between two answers to the same case: everything but the error
    /// text and the fields either answer marks nondeterministic. Returns the differing field names.
    pub fn differences(&self, other: &Record) -> Vec<Field> {
        let skip = |f: Field| {
            self.nondeterministic
                .iter()
                .chain(&other.nondeterministic)
                .any(|&n| n == f)
        };
        let mut out = Vec::new();
        if self.verdict != other.verdict {
            out.push(Field::Verdict);
        }
        if self.consumed != other.consumed && !skip(Field::Consumed) {
            out.push(Field::Consumed);
        }
        if self.tree != other.tree && !skip(Field::Tree) {
            out.push(Field::Tree);
        }
        if self.output != other.output && !skip(Field::Output) {
            out.push(Field::Output);
        }
        out
    }

    /// Whether the record holds an answer an implementation can be compared with: not a case
    /// the engine crashed or hung on or could not build, nor one whose verdict changed between
    /// runs.
    pub fn comparable(&self) -> bool {
        !matches!(
            self.verdict,
            Verdict::Crashed | Verdict::Hung | Verdict::Unsupported
        ) && !self.unsteady(Field::Verdict)
    }

    /// Whether the case is an invalid input (the engine refused, crashed or hung on it).
    pub fn is_invalid(&self) -> bool {
        matches!(
            self.verdict,
            Verdict::Rejected | Verdict::Crashed | Verdict::Hung
        )
    }
}

/// Why an answer makes no record: it is none a corpus holds.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum NoRecord {
    /// The answer is to the other direction (`decoded` to an encode case, or `encoded` to a
    /// decode case).
    #[error("the answer is to the other direction: {0}")]
    OtherDirection(&'static str),
    /// Nobody answered, or the answerer declined; the reason as given.
    #[error("{0}")]
    NoAnswer(String),
}

/// What a record keeps of the case it answers: the input (hex) of a decode case, the value
/// (tagged JSON) of an encode case.
fn question(case: &Case, profile: Profile) -> (Option<String>, Option<Value>) {
    match case {
        Case::Decode { input, .. } => (Some(hex(input)), None),
        Case::Encode { value, .. } => (None, Some(to_json(value, profile, FloatStyle::Shortest))),
    }
}

impl Record {
    /// Whether this record answers `case` as it is asked now: the same name, direction and
    /// objects, and the same input or value.
    pub fn answers(&self, case: &Case, profile: Profile) -> bool {
        self.name == case.name()
            && self.direction == case.direction()
            && self.objects == case.objects()
            && (self.input.clone(), self.value.clone()) == question(case, profile)
    }

    /// The record of an engine's answer to a case, or why the answer makes none.
    pub fn of(case: &Case, answer: &Answer, profile: Profile) -> Result<Record, NoRecord> {
        let mut r = Record {
            name: case.name().to_string(),
            direction: case.direction(),
            input: None,
            value: None,
            objects: case.objects(),
            verdict: Verdict::Accepted,
            consumed: None,
            tree: None,
            output: None,
            nondeterministic: Vec::new(),
            unbuildable: None,
            error: String::new(),
        };
        (r.input, r.value) = question(case, profile);
        let words = match (answer, r.direction) {
            (
                Answer::Decoded {
                    tree,
                    consumed,
                    reencoded,
                    log,
                },
                Direction::Decode,
            ) => {
                r.consumed = *consumed;
                r.tree = tree.clone();
                r.output = reencoded.bytes().map(hex);
                log.clone()
            }
            (Answer::Encoded { bytes, tree, log }, Direction::Encode) => {
                r.tree = tree.clone();
                r.output = Some(hex(bytes));
                log.clone()
            }
            (Answer::Decoded { .. } | Answer::Encoded { .. }, _) => {
                return Err(NoRecord::OtherDirection(answer_kind(answer)));
            }
            (Answer::Rejected(why), _) => {
                r.verdict = Verdict::Rejected;
                why.message.clone()
            }
            // A value the oracle could not hand to the engine (e.g. a u64 beyond GDScript's
            // int) is as unbuildable as one the engine refuses to build; the reason is kept.
            (Answer::Unsupported(why), _) => {
                r.verdict = Verdict::Unsupported;
                r.unbuildable = why.why;
                why.text.clone()
            }
            (Answer::Crashed(i), _) => {
                r.verdict = Verdict::Crashed;
                format!("{}: {}", i.status, i.stderr)
            }
            (Answer::Hung(i), _) => {
                r.verdict = Verdict::Hung;
                format!("{}: {}", i.status, i.stderr)
            }
            (Answer::Skipped(why) | Answer::Unanswered(why), _) => {
                return Err(NoRecord::NoAnswer(why.clone()));
            }
        };
        r.error = words.trim().chars().take(ERROR_CHARS).collect();
        Ok(r)
    }

    /// The record's case, to ask of an answerer of `profile`.
    pub fn case(&self, profile: Profile) -> Result<Case, RecordDefect> {
        let name = self.name.clone();
        match self.direction {
            Direction::Decode => match self.input.as_deref().map(unhex) {
                Some(Ok(input)) => Ok(Case::Decode {
                    name,
                    input,
                    allow_objects: self.objects,
                }),
                _ => Err(RecordDefect::NoInput),
            },
            Direction::Encode => {
                let value = self.value.as_ref().ok_or(RecordDefect::NoValueOrOutput)?;
                let value = from_json(value, profile)
                    .map_err(|e| RecordDefect::UnreadableValue(e.to_string()))?;
                Ok(Case::Encode {
                    name,
                    value,
                    full_objects: self.objects,
                })
            }
        }
    }

    /// The engine's answer as recorded. A crash or hang keeps only the engine's words (in the
    /// incident's status); an accepted encode without the engine's bytes is no answer.
    pub fn answer(&self) -> Answer {
        let bytes = |hex: &Option<String>| hex.as_deref().map(|h| unhex(h).unwrap_or_default());
        let incident = || Incident {
            status: self.error.clone(),
            signal: None,
            stderr: String::new(),
            after: std::time::Duration::ZERO,
        };
        match (&self.verdict, self.direction) {
            (Verdict::Accepted, Direction::Decode) => Answer::Decoded {
                tree: self.tree.clone(),
                consumed: self.consumed,
                reencoded: bytes(&self.output).map_or(Reencoded::Absent, Reencoded::Bytes),
                log: self.error.clone(),
            },
            (Verdict::Accepted, Direction::Encode) => match bytes(&self.output) {
                Some(bytes) => Answer::Encoded {
                    bytes,
                    tree: self.tree.clone(),
                    log: self.error.clone(),
                },
                None => Answer::Unanswered("the record lacks the engine's bytes".into()),
            },
            (Verdict::Rejected, _) => Answer::Rejected(Rejection {
                kind: engine_rejection(&self.error).map(RejectKind::Engine),
                message: self.error.clone(),
            }),
            (Verdict::Unsupported, _) => Answer::Unsupported(Unsupported {
                why: self.unbuildable,
                text: self.error.clone(),
            }),
            (Verdict::Crashed, _) => Answer::Crashed(incident()),
            (Verdict::Hung, _) => Answer::Hung(incident()),
        }
    }

    /// Whether a field's content differed between two runs of the engine.
    pub fn unsteady(&self, field: Field) -> bool {
        self.nondeterministic.contains(&field)
    }

    /// [`Record::answer`] without the fields that differed between runs: what an answer can be
    /// judged against.
    pub(crate) fn steady_answer(&self) -> Answer {
        let mut answer = self.answer();
        match &mut answer {
            Answer::Decoded {
                tree,
                consumed,
                reencoded,
                ..
            } => {
                if self.unsteady(Field::Tree) {
                    *tree = None;
                }
                if self.unsteady(Field::Consumed) {
                    *consumed = None;
                }
                if self.unsteady(Field::Output) {
                    *reencoded = Reencoded::Absent;
                }
            }
            Answer::Encoded { tree, .. } if self.unsteady(Field::Tree) => *tree = None,
            _ => {}
        }
        answer
    }
}

/// The kind of an answer, in a word, for messages.
fn answer_kind(answer: &Answer) -> &'static str {
    match answer {
        Answer::Decoded { .. } => "decoded",
        Answer::Encoded { .. } => "encoded",
        Answer::Rejected(_) => "rejected",
        Answer::Unsupported(_) => "unsupported",
        Answer::Skipped(_) => "skipped",
        Answer::Crashed(_) => "crashed",
        Answer::Hung(_) => "hung",
        Answer::Unanswered(_) => "unanswered",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_is_named_as_records_write_it() {
        for (field, name) in [
            (Field::Verdict, "verdict"),
            (Field::Consumed, "consumed"),
            (Field::Tree, "tree"),
            (Field::Output, "output"),
        ] {
            assert_eq!(field.name(), name);
            assert_eq!(serde_json::to_value(field).unwrap(), name);
        }
        assert_eq!(Field::names(&[Field::Tree, Field::Output]), "tree, output");
    }
}
