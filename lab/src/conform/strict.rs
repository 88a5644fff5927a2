//! `--strict-errors`: a rejection passes a rejected case only with the kind of reason the case
//! expects.

use crate::corpus::known::Entry;
use crate::corpus::run::{CaseResult, Settled};
use crate::model::answer::Answer;
use crate::model::case::Direction;
use crate::model::{Mismatch, Record, RejectKind, RejectionKind};
use gdmarshal::profile::Profile;

/// With `--strict-errors`: a rejection that passed a rejected decode case, held to the kind the
/// case expects (this crate's codec's kind for the input; none where the codec accepts it).
pub(super) fn strict_kind(result: &mut CaseResult, profile: Profile, known: &[Entry]) {
    let (Settled::Pass, Some(Answer::Rejected(rejection))) = (&result.settled, &result.answer)
    else {
        return;
    };
    let Some(expected) = expected_kind(&result.record, profile) else {
        return;
    };
    let got = match rejection.kind {
        Some(RejectKind::Stated(k)) => Some(k),
        _ => None,
    };
    if got == Some(expected) {
        return;
    }
    let version = &result.engine;
    result.settled = match known.iter().find(|k| k.matches(version, &result.name)) {
        Some(k) => Settled::ExpectedFail(format!("{}: {}", k.origin, k.reason)),
        None => Settled::Fail(Mismatch::RejectionKind {
            expected,
            got,
            rejection: rejection.clone(),
        }),
    };
}

/// The kind of rejection a rejected decode case expects: the kind of this crate's codec's
/// refusal of its input.
pub(crate) fn expected_kind(r: &Record, profile: Profile) -> Option<RejectionKind> {
    if r.direction != Direction::Decode || r.verdict != crate::model::Verdict::Rejected {
        return None;
    }
    let input = gdmarshal::hex::unhex(r.input.as_deref()?).ok()?;
    let options = gdmarshal::decode::DecodeOptions::new().allow_objects(r.objects);
    match gdmarshal::decode::decode(&input, profile, options) {
        Err(e) => RejectionKind::of_decode(&e.kind),
        Ok(_) => None,
    }
}
