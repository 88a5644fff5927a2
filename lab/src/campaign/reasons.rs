//! Why a campaign case was not compared byte for byte: every *unsupported*, *known difference*
//! and *engine-nondeterministic* case gets a [`Reason`], and the run counts them per reason and
//! per the case's top-level type ([`Uncompared`]), so that the run log, the progress line, the
//! summary and the report show what share of which type goes unchecked, and why.
//!
//! The oracle says why it cannot build a value with a code ([`Unbuildable`], beside its words);
//! [`Reason::of_unbuildable`] gives each code the reason of the same name.

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use super::causes::{Cause, Kind};
use super::class::Class;
use crate::corpus::condition::Condition;
use crate::model::{Case, SkipReason, Unbuildable};
use gdmarshal::profile::Profile;

/// Why a case was not compared. Named in kebab-case in the run log.
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    Serialize,
    Deserialize,
    strum::EnumIter,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
#[non_exhaustive]
pub enum Reason {
    // Unsupported: the oracle cannot build the value from a script; one reason per code.
    /// [`Unbuildable::ObjectById`].
    ObjectById,
    /// [`Unbuildable::SignalOfObjectById`].
    SignalOfObjectById,
    /// [`Unbuildable::NodepathNameNotText`].
    NodepathNameNotText,
    /// [`Unbuildable::NodepathTextReparses`].
    NodepathTextReparses,
    /// [`Unbuildable::ClassNotInstantiable`].
    ClassNotInstantiable,
    /// [`Unbuildable::ScriptNotLoadable`].
    ScriptNotLoadable,
    /// [`Unbuildable::SignallingNanThroughDouble`].
    SignallingNanThroughDouble,
    /// [`Unbuildable::NonScalarString`].
    NonScalarString,
    /// [`Unbuildable::NulInString`].
    NulInString,
    /// [`Unbuildable::RidById`].
    RidById,
    /// [`Unbuildable::TypeNotInVersion`].
    TypeNotInVersion,
    /// [`Unbuildable::BeyondSignedInt`].
    BeyondSignedInt,
    /// [`Unbuildable::OracleRefused`].
    OracleRefused,
    /// The codec skipped the case or its re-encoding.
    CodecSkipped,
    /// An unsupported case without a code this lab knows (a record written before the oracle
    /// gave codes).
    OtherUnsupported,
    // Known difference: the condition of the entry of corpus/known-differences.txt that covers it.
    /// `too-deep`: the codec stops at a depth the engine decodes.
    TooDeep,
    /// `unknown-class`: a full object of a class the engine does not have.
    UnknownClass,
    /// `full-object`: the engine writes every stored property of the class.
    FullObject,
    /// `nodepath-padding`: the engine leaves NodePath padding uninitialised (also a cause of
    /// nondeterminism).
    NodepathPadding,
    /// `object-id`: the engine re-encodes its placeholder object's own id.
    ObjectId,
    /// `script-not-in-project`: the engine's project has no Script at the path.
    ScriptNotInProject,
    /// `unmodelled-conversion`: a typed-container conversion the codec does not reproduce.
    UnmodelledConversion,
    /// An entry that names its cases, without a condition.
    NamedCase,
    // Engine-nondeterministic: the cause (`causes::Cause`).
    /// Decoding an object id made a placeholder whose own id is fresh on every run.
    FreshObjectId,
    /// A full object converted to a RID: the object, and its RID, are fresh on every run.
    FreshObjectRid,
    /// No known cause of nondeterminism fits.
    Unexplained,
}

impl Reason {
    /// Every reason, in report order.
    pub fn all() -> impl Iterator<Item = Reason> {
        <Reason as strum::IntoEnumIterator>::iter()
    }

    /// The kebab-case name (the run log's key).
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// The reason of the oracle's code for a value it cannot build.
    pub(crate) fn of_unbuildable(why: Unbuildable) -> Reason {
        match why {
            Unbuildable::ObjectById => Reason::ObjectById,
            Unbuildable::SignalOfObjectById => Reason::SignalOfObjectById,
            Unbuildable::NodepathNameNotText => Reason::NodepathNameNotText,
            Unbuildable::NodepathTextReparses => Reason::NodepathTextReparses,
            Unbuildable::ClassNotInstantiable => Reason::ClassNotInstantiable,
            Unbuildable::ScriptNotLoadable => Reason::ScriptNotLoadable,
            Unbuildable::SignallingNanThroughDouble => Reason::SignallingNanThroughDouble,
            Unbuildable::NonScalarString => Reason::NonScalarString,
            Unbuildable::NulInString => Reason::NulInString,
            Unbuildable::RidById => Reason::RidById,
            Unbuildable::TypeNotInVersion => Reason::TypeNotInVersion,
            Unbuildable::BeyondSignedInt => Reason::BeyondSignedInt,
            Unbuildable::OracleRefused => Reason::OracleRefused,
        }
    }

    /// The reason of a skipped comparison (`unbuildable`: the engine record's code, where the
    /// oracle says why it could not build the value).
    pub(crate) fn of_skip(why: &SkipReason, unbuildable: Option<Unbuildable>) -> Reason {
        match why {
            SkipReason::EngineUnsupported => {
                unbuildable.map_or(Reason::OtherUnsupported, Reason::of_unbuildable)
            }
            SkipReason::Implementation(_) | SkipReason::Reencoding(_) => Reason::CodecSkipped,
            _ => Reason::OtherUnsupported,
        }
    }

    /// The reason of a known difference: the condition of the entry that covers it.
    pub(crate) fn of_condition(when: Option<Condition>) -> Reason {
        match when {
            None => Reason::NamedCase,
            Some(Condition::TooDeep) => Reason::TooDeep,
            Some(Condition::UnknownClass) => Reason::UnknownClass,
            Some(Condition::FullObject) => Reason::FullObject,
            Some(Condition::NodePathPadding) => Reason::NodepathPadding,
            Some(Condition::ObjectId) => Reason::ObjectId,
            Some(Condition::ScriptNotInProject) => Reason::ScriptNotInProject,
            Some(Condition::UnmodelledConversion) => Reason::UnmodelledConversion,
        }
    }

    /// The reason of an engine-nondeterministic case: its cause.
    pub(crate) fn of_cause(cause: Cause) -> Reason {
        match cause {
            Cause::NodePathPadding => Reason::NodepathPadding,
            Cause::FreshObjectId => Reason::FreshObjectId,
            Cause::FreshObjectRid => Reason::FreshObjectRid,
            _ => Reason::Unexplained,
        }
    }

    /// What the reason is at bottom: an engine defect, an oracle artefact (the oracle cannot build
    /// or re-read the value), or a codec gap (the codec does not model what the engine does).
    pub fn kind(self) -> Kind {
        match self {
            Reason::TooDeep | Reason::NodepathPadding | Reason::Unexplained => Kind::EngineDefect,
            Reason::UnknownClass
            | Reason::FullObject
            | Reason::ScriptNotInProject
            | Reason::UnmodelledConversion
            | Reason::NamedCase
            | Reason::CodecSkipped => Kind::CodecDifference,
            _ => Kind::OracleArtefact,
        }
    }
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The classes whose cases are not compared byte for byte, each counted by [`Reason`].
pub const UNCOMPARED: [Class; 3] = [
    Class::Unsupported,
    Class::KnownDifference,
    Class::EngineNondeterministic,
];

/// The uncompared cases of one class: how many per reason, and per top-level type.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Uncompared {
    /// Cases per reason.
    pub reasons: BTreeMap<Reason, u64>,
    /// Cases per top-level type of the case ([`case_type`]).
    pub types: BTreeMap<String, u64>,
}

impl Uncompared {
    /// Counts one case.
    pub fn add(&mut self, reason: Reason, ty: &str) {
        *self.reasons.entry(reason).or_default() += 1;
        match self.types.get_mut(ty) {
            Some(n) => *n += 1,
            None => {
                self.types.insert(ty.to_string(), 1);
            }
        }
    }

    /// Adds another tally to this one.
    pub fn merge(&mut self, other: &Uncompared) {
        for (r, n) in &other.reasons {
            *self.reasons.entry(*r).or_default() += n;
        }
        for (t, n) in &other.types {
            *self.types.entry(t.clone()).or_default() += n;
        }
    }

    /// The reasons, most cases first (ties in report order).
    pub fn largest_reasons(&self) -> Vec<(Reason, u64)> {
        let mut v: Vec<(Reason, u64)> = self.reasons.iter().map(|(r, n)| (*r, *n)).collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        v
    }
}

/// The top-level type of a case: the value's type to encode, the type the header names to
/// decode (`type id N` for one the profile does not have, `short` for fewer than 4 bytes).
pub(crate) fn case_type(case: &Case, profile: Profile) -> String {
    match case {
        Case::Encode { value, .. } => value.get_type().name().to_string(),
        Case::Decode { input, .. } => match input.first_chunk::<4>() {
            None => "short".to_string(),
            Some(h) => {
                let id = u32::from_le_bytes(*h) & 0xff;
                profile
                    .type_of(id)
                    .map_or_else(|| format!("type id {id}"), |t| t.name().to_string())
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_oracle_code_has_a_reason_of_the_same_name() {
        for why in Unbuildable::all() {
            let r = Reason::of_unbuildable(why);
            assert_eq!(r.name(), why.code());
            assert_eq!(r.kind(), Kind::OracleArtefact, "{r}");
            assert_eq!(
                Reason::of_skip(&SkipReason::EngineUnsupported, Some(why)),
                r
            );
        }
        // A record written before the oracle gave codes.
        assert_eq!(
            Reason::of_skip(&SkipReason::EngineUnsupported, None),
            Reason::OtherUnsupported
        );
    }

    #[test]
    fn reasons_are_kebab_case_keys_in_the_log() {
        let mut u = Uncompared::default();
        u.add(Reason::ObjectById, "Array");
        u.add(Reason::ObjectById, "Object");
        u.add(Reason::NodepathNameNotText, "Array");
        let json = serde_json::to_string(&u).unwrap();
        assert_eq!(
            json,
            r#"{"reasons":{"object-by-id":2,"nodepath-name-not-text":1},"types":{"Array":2,"Object":1}}"#
        );
        assert_eq!(serde_json::from_str::<Uncompared>(&json).unwrap(), u);
        assert_eq!(u.largest_reasons()[0], (Reason::ObjectById, 2));
    }

    #[test]
    fn cases_are_typed_by_their_header() {
        let p: Profile = "4.6".parse().unwrap();
        let decode = |input: Vec<u8>| Case::Decode {
            name: String::new(),
            input,
            allow_objects: false,
        };
        assert_eq!(case_type(&decode(vec![28, 0, 0, 0]), p), "Array");
        assert_eq!(case_type(&decode(vec![2, 0, 1, 0, 5]), p), "int");
        assert_eq!(case_type(&decode(vec![250, 0, 0, 0]), p), "type id 250");
        assert_eq!(case_type(&decode(vec![2]), p), "short");
    }
}
