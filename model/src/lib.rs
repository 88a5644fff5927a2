//! The one model every room of gdmarshal's lab shares, below all of them: a [`Case`] is asked of
//! an [`Answerer`] (a live engine, this codec, a testee), which gives an [`Answer`]; a corpus
//! [`Record`] is an engine's answer written down; [`judge()`] compares an answer with a record and
//! returns an [`Outcome`] ([`Mismatch`] when they differ). A crate of its own that depends on the
//! codec only: no process, file or engine code, so the oracle, the corpus, campaigns, conform and
//! the report all build on it and none of them on each other through it.

pub mod answer;
pub mod answerer;
pub mod case;
pub mod engine_rejection;
pub mod incident;
pub mod judge;
pub mod mismatch;
pub mod record;
pub mod rejection_kind;
pub mod skip;
pub mod tree_diff;
pub mod unbuildable;

pub use answer::Answer;

pub use answer::Reencoded;
pub use answerer::{Answerer, EngineAnswerer, Wanted};
pub use case::{Case, Direction};
pub use engine_rejection::{EngineRejection, engine_rejection};
pub use incident::Incident;
pub use incident::{IncidentRecord, Resolution};
pub use judge::{Outcome, judge};
pub use mismatch::{ByteDiff, Mismatch, RecordDefect, RejectKind, Rejection};
pub use record::{Field, Record, Verdict};
pub use rejection_kind::RejectionKind;
pub use skip::{SkipReason, Undeclared};
pub use unbuildable::{Unbuildable, Unsupported};
