//! The small vocabulary of why an input is rejected, which a testee may state in its refusals
//! (`"kind"`, docs/conformance.md) and `gdmarshal conform --strict-errors` compares.
//!
//! The kind a rejected corpus case expects is not asked of the engines (their error output is
//! free text, and 3.x prints none for most refusals): it is the kind of this crate's codec's
//! typed [`DecodeErrorKind`] for the input, and the codec refuses every input the engines refuse
//! but where `corpus/known-differences.txt` says otherwise.

use std::fmt;
use std::str::FromStr;

use gdmarshal::error::DecodeErrorKind;

/// Why an input is rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RejectionKind {
    /// `truncated`: the input ends inside a field of fixed size (a header, a number, padding).
    Truncated,
    /// `bad-type`: a type id the version does not have, in a header or as a typed container's
    /// element type.
    BadType,
    /// `bad-count`: a length or element count that is negative or larger than the bytes left.
    BadCount,
    /// `bad-utf8`: string bytes that are not UTF-8 the engine accepts.
    BadUtf8,
    /// `too-deep`: containers nested deeper than the engine decodes.
    TooDeep,
    /// `not-allowed-object`: a full object where objects are not allowed.
    NotAllowedObject,
    /// `bad-value`: any other field the engine refuses (an old-format NodePath, a bad flag).
    BadValue,
}

/// Every kind, in the order docs/conformance.md lists them.
const ALL: [RejectionKind; 7] = [
    RejectionKind::Truncated,
    RejectionKind::BadType,
    RejectionKind::BadCount,
    RejectionKind::BadUtf8,
    RejectionKind::TooDeep,
    RejectionKind::NotAllowedObject,
    RejectionKind::BadValue,
];

impl RejectionKind {
    /// Its name on the wire, e.g. `bad-utf8`.
    pub fn name(self) -> &'static str {
        match self {
            RejectionKind::Truncated => "truncated",
            RejectionKind::BadType => "bad-type",
            RejectionKind::BadCount => "bad-count",
            RejectionKind::BadUtf8 => "bad-utf8",
            RejectionKind::TooDeep => "too-deep",
            RejectionKind::NotAllowedObject => "not-allowed-object",
            RejectionKind::BadValue => "bad-value",
        }
    }

    /// The kind of a decode error of this crate's codec; `None` for an input the codec cannot
    /// judge (a conversion it does not model), which is no rejection.
    pub fn of_decode(kind: &DecodeErrorKind) -> Option<RejectionKind> {
        Some(match kind {
            DecodeErrorKind::Truncated { .. } => RejectionKind::Truncated,
            DecodeErrorKind::UnknownType { .. } | DecodeErrorKind::BadContainerType { .. } => {
                RejectionKind::BadType
            }
            DecodeErrorKind::BadLength { .. } => RejectionKind::BadCount,
            DecodeErrorKind::BadUtf8 { .. } => RejectionKind::BadUtf8,
            DecodeErrorKind::TooDeep { .. } => RejectionKind::TooDeep,
            DecodeErrorKind::ObjectsNotAllowed => RejectionKind::NotAllowedObject,
            DecodeErrorKind::OldNodePath
            | DecodeErrorKind::NameNotText { .. }
            | DecodeErrorKind::ScriptPropertyNotPath
            | DecodeErrorKind::ScriptPathNotResource { .. }
            | DecodeErrorKind::Class(_) => RejectionKind::BadValue,
            DecodeErrorKind::UnmodelledConversion { .. } => return None,
            // A kind added to the codec after this list: it refuses the input, and no more is known.
            _ => RejectionKind::BadValue,
        })
    }
}

impl fmt::Display for RejectionKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A name that is not in the vocabulary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownKind(pub String);

impl fmt::Display for UnknownKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = ALL.iter().map(|k| k.name()).collect();
        write!(
            f,
            "unknown rejection kind {:?} (the kinds are {})",
            self.0,
            names.join(", ")
        )
    }
}

impl FromStr for RejectionKind {
    type Err = UnknownKind;

    fn from_str(s: &str) -> Result<RejectionKind, UnknownKind> {
        ALL.into_iter()
            .find(|k| k.name() == s)
            .ok_or_else(|| UnknownKind(s.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_and_unknown_ones_are_named() {
        for k in ALL {
            assert_eq!(k.name().parse::<RejectionKind>(), Ok(k));
        }
        let e = "short".parse::<RejectionKind>().unwrap_err();
        assert!(e.to_string().contains("\"short\""), "{e}");
        assert_eq!(
            RejectionKind::of_decode(&DecodeErrorKind::BadUtf8 { at: 1 }),
            Some(RejectionKind::BadUtf8)
        );
    }
}
