//! The classes a campaign case can end in.

use std::fmt;

use serde::{Deserialize, Serialize};

/// How one case went on one engine. Named in kebab-case (`codec-differs`) in the run log, the
/// findings folders and on the command line, in declaration order in reports.
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
    strum::EnumString,
    strum::VariantNames,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
pub enum Class {
    /// The codec answered as the engine did.
    Agree,
    /// The codec differs where a documented expected difference applies.
    KnownDifference,
    /// The engine cannot build the value from a script: nothing to compare.
    Unsupported,
    /// The codec answered otherwise than the engine, and the engine answers the same each time.
    CodecDiffers,
    /// The engine answered the same case differently on two runs.
    EngineNondeterministic,
    /// The engine refuses to decode bytes it wrote itself.
    EngineRejectsOwnOutput,
    /// The case killed the engine.
    EngineCrash,
    /// The engine stopped answering on the case.
    EngineHang,
    /// Nobody could answer the case (the engine would not start, or died in ways the case did
    /// not cause, as often as it was retried): not a finding, but it fails the run.
    Unanswered,
}

impl Class {
    /// Every class, in report order.
    pub fn all() -> impl Iterator<Item = Class> {
        <Class as strum::IntoEnumIterator>::iter()
    }

    /// Every class's name, in report order.
    pub fn names() -> &'static [&'static str] {
        <Class as strum::VariantNames>::VARIANTS
    }

    /// The kebab-case name (also the findings folder).
    pub fn name(self) -> &'static str {
        self.into()
    }

    /// Whether a case of this class is a finding worth a reproducer.
    pub fn is_finding(self) -> bool {
        !matches!(
            self,
            Class::Agree | Class::KnownDifference | Class::Unsupported | Class::Unanswered
        )
    }
}

impl fmt::Display for Class {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}
