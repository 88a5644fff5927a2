//! How each case counts in a conformance report: a pass of a case the engine accepts is not the
//! same achievement as a pass of one it rejects (a testee that rejects everything passes every
//! rejected case), so they are counted apart.

use crate::corpus::run::Settled;
use crate::model::{Mismatch, Record, Verdict};

/// How one case counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Score {
    /// The engine accepted the case, and the testee gave the same value or bytes.
    AcceptedEqual,
    /// The engine rejected the input, and so did the testee (with `--strict-errors`, for the
    /// same kind of reason).
    RejectedAsExpected,
    /// The testee answered, but not as the engine did (or passes a case an expected-failure
    /// entry names).
    Wrong,
    /// The testee gave no answer: it crashed, hung or broke the protocol, or the run stopped
    /// before the case.
    Error,
    /// Failed as an expected-failure entry says.
    ExpectedFail,
    /// Not compared: skipped by the testee, or no engine answer to compare with.
    Skipped,
    /// Outside what the testee's handshake claims, and not sent.
    Unclaimed,
}

impl Score {
    /// How a settled case of `record` counts.
    pub fn of(settled: &Settled, record: &Record) -> Score {
        match settled {
            Settled::Pass if record.verdict == Verdict::Rejected => Score::RejectedAsExpected,
            Settled::Pass => Score::AcceptedEqual,
            Settled::Fail(m) if is_error(m) => Score::Error,
            Settled::Fail(_) | Settled::UnexpectedPass(_) => Score::Wrong,
            Settled::ExpectedFail(_) => Score::ExpectedFail,
            Settled::Skip(crate::model::SkipReason::Undeclared(_)) => Score::Unclaimed,
            Settled::Skip(_) => Score::Skipped,
        }
    }

    /// Its name in the JSON report.
    pub fn name(self) -> &'static str {
        match self {
            Score::AcceptedEqual => "accepted_equal",
            Score::RejectedAsExpected => "rejected_as_expected",
            Score::Wrong => "wrong",
            Score::Error => "error",
            Score::ExpectedFail => "expected_fail",
            Score::Skipped => "skipped",
            Score::Unclaimed => "unclaimed",
        }
    }

    /// Whether the case makes the run fail (when it is claimed).
    pub fn fails(self) -> bool {
        matches!(self, Score::Wrong | Score::Error)
    }
}

/// Whether a mismatch is no answer at all (a crash, a hang, a protocol error, a case not run):
/// a JUnit `<error>`, not a `<failure>`.
pub(crate) fn is_error(m: &Mismatch) -> bool {
    matches!(
        m,
        Mismatch::NoAnswer { .. } | Mismatch::ReencodeNoAnswer { .. }
    )
}
