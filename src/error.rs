//! Errors of the codec. Every decode error carries the byte offset where the problem is.

use std::fmt;

use crate::excerpt::Quoted;
use crate::types::VariantType;

/// Why some bytes are not a value that the engine would accept.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("at byte {offset}: {kind}")]
pub struct DecodeError {
    /// Offset from the start of the input where the problem was found.
    pub offset: usize,
    /// What is wrong.
    pub kind: DecodeErrorKind,
}

/// What is wrong with the bytes.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// The input ends before a field that must be there.
    Truncated {
        /// What was being read.
        what: &'static str,
        /// Bytes it needs.
        needed: usize,
        /// Bytes left.
        left: usize,
    },
    /// The header names a type id this version does not have.
    UnknownType {
        /// The id (the header's low byte).
        id: u32,
    },
    /// A length or count that cannot fit in the bytes left, or is negative as an i32.
    BadLength {
        /// What was being read.
        what: &'static str,
        /// The value read.
        value: u32,
        /// Bytes left after the count.
        left: usize,
    },
    /// String bytes that are not UTF-8 the engine accepts.
    BadUtf8 {
        /// Offset of the first bad byte, relative to the start of the string's bytes.
        at: usize,
    },
    /// A full object where objects are not allowed (`bytes_to_var` without objects).
    ObjectsNotAllowed,
    /// A typed container whose type field is out of range.
    BadContainerType {
        /// What was read.
        value: u32,
    },
    /// A container nested deeper than the engine decodes.
    TooDeep {
        /// The limit.
        limit: usize,
    },
    /// A NodePath in the pre-3.0 format, which the engine no longer reads.
    OldNodePath,
    /// A typed container element that the engine keeps converted to the container's type in a way
    /// this codec does not reproduce (the repository's `corpus/known-differences.txt` lists them):
    /// the input is valid, but the value the engine makes of it is not known here.
    UnmodelledConversion {
        /// The element's type.
        from: VariantType,
        /// The container's element type.
        to: VariantType,
        /// What the engine's conversion depends on.
        why: &'static str,
    },
    /// A string that names something (a class, a property, a script path) and is not Unicode
    /// text. Only a 3.x engine reads such a string, and no class, property or resource has such
    /// a name, so the value it makes cannot be written back as read.
    NameNotText {
        /// What the string names.
        what: &'static str,
    },
    /// A full object's `script` property that is not a `res://` path, which 4.3 and later refuse
    /// (`Invalid value for "script" property`).
    ScriptPropertyNotPath,
    /// A container typed by a script whose path is not under `res://`, which the engine refuses
    /// when it reads objects (`Invalid script path`).
    ScriptPathNotResource {
        /// The path.
        path: String,
    },
    /// A decoded object that the engine's classes rule out: found by
    /// [`ClassList::check_decoded`](crate::classes::ClassList::check_decoded), which a caller that
    /// knows an engine's classes runs after decoding.
    Class(Box<crate::classes::ClassError>),
}

impl DecodeErrorKind {
    /// The kind's name, stable across releases, for callers that report it as data (the Python
    /// and npm packages' `kind`): `truncated`, `unknown-type`, `bad-length`, `bad-utf8`,
    /// `objects-not-allowed`, `bad-container-type`, `too-deep`, `old-node-path`,
    /// `unmodelled-conversion`, `name-not-text`, `script-property-not-path`,
    /// `script-path-not-resource`, `class`.
    ///
    /// ```
    /// use gdmarshal::{DecodeOptions, Profile, decode};
    ///
    /// let cut = decode(&[2, 0, 0, 0, 7], "4.6".parse().unwrap(), DecodeOptions::default());
    /// assert_eq!(cut.unwrap_err().kind.name(), "truncated");
    /// ```
    pub fn name(&self) -> &'static str {
        match self {
            DecodeErrorKind::Truncated { .. } => "truncated",
            DecodeErrorKind::UnknownType { .. } => "unknown-type",
            DecodeErrorKind::BadLength { .. } => "bad-length",
            DecodeErrorKind::BadUtf8 { .. } => "bad-utf8",
            DecodeErrorKind::ObjectsNotAllowed => "objects-not-allowed",
            DecodeErrorKind::BadContainerType { .. } => "bad-container-type",
            DecodeErrorKind::TooDeep { .. } => "too-deep",
            DecodeErrorKind::OldNodePath => "old-node-path",
            DecodeErrorKind::UnmodelledConversion { .. } => "unmodelled-conversion",
            DecodeErrorKind::NameNotText { .. } => "name-not-text",
            DecodeErrorKind::ScriptPropertyNotPath => "script-property-not-path",
            DecodeErrorKind::ScriptPathNotResource { .. } => "script-path-not-resource",
            DecodeErrorKind::Class(_) => "class",
        }
    }

    /// Whether more bytes after the end of the input could change the outcome: the input ended
    /// inside a field, or a length or count did not fit in what was left. Every other error
    /// stands whatever follows, so a reader of a stream that decodes what it has so far can stop
    /// at it, and decode again after reading more only for these.
    ///
    /// ```
    /// use gdmarshal::{DecodeOptions, Profile, decode};
    ///
    /// let godot46: Profile = "4.6".parse().unwrap();
    /// let cut = decode(&[2, 0, 0, 0, 7], godot46, DecodeOptions::default()).unwrap_err();
    /// assert!(cut.kind.wants_more_input());
    /// let unknown = decode(&[200, 0, 0, 0], godot46, DecodeOptions::default()).unwrap_err();
    /// assert!(!unknown.kind.wants_more_input());
    /// ```
    pub fn wants_more_input(&self) -> bool {
        matches!(
            self,
            DecodeErrorKind::Truncated { .. } | DecodeErrorKind::BadLength { .. }
        )
    }
}

impl fmt::Display for DecodeErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DecodeErrorKind::Truncated { what, needed, left } => {
                write!(
                    f,
                    "input ends inside {what}: needs {needed} bytes, {left} left"
                )
            }
            DecodeErrorKind::UnknownType { id } => write!(f, "unknown type id {id}"),
            DecodeErrorKind::BadLength { what, value, left } => {
                write!(f, "{what} {value} does not fit in the {left} bytes left")
            }
            DecodeErrorKind::BadUtf8 { at } => write!(f, "invalid UTF-8 at string byte {at}"),
            DecodeErrorKind::ObjectsNotAllowed => {
                f.write_str("full object, but objects are not allowed (decode with objects)")
            }
            DecodeErrorKind::BadContainerType { value } => {
                write!(f, "container element type {value} is not a type id")
            }
            DecodeErrorKind::TooDeep { limit } => write!(f, "nesting deeper than {limit}"),
            DecodeErrorKind::OldNodePath => {
                f.write_str("NodePath in the old string format, which the engine rejects")
            }
            DecodeErrorKind::UnmodelledConversion { from, to, why } => write!(
                f,
                "the engine keeps this {from} converted to the container's {to}, which the codec \
                 does not reproduce (it depends on {why})"
            ),
            DecodeErrorKind::NameNotText { what } => write!(
                f,
                "invalid {what}: not Unicode text: no class, property or resource has such a name"
            ),
            DecodeErrorKind::ScriptPropertyNotPath => {
                f.write_str("invalid script property: a full object's script must be a res:// path")
            }
            DecodeErrorKind::ScriptPathNotResource { path } => {
                write!(
                    f,
                    "invalid script path: {} is not a res:// path",
                    Quoted(path)
                )
            }
            DecodeErrorKind::Class(e) => write!(f, "invalid object class: {e}"),
        }
    }
}

/// Why a value cannot be encoded for a profile.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("at {}: {kind}", crate::excerpt::cut(path, crate::excerpt::MAX_QUOTE))]
pub struct EncodeError {
    /// Where in the value, as a path like `$[3].key`.
    pub path: String,
    /// What is wrong.
    pub kind: EncodeErrorKind,
}

/// What is wrong with the value.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum EncodeErrorKind {
    /// The profile's engine has no such type.
    TypeNotInVersion {
        /// The type.
        ty: VariantType,
        /// The profile, e.g. `3.6`.
        version: String,
    },
    /// A fixed-size type with the wrong number of components.
    WrongArity {
        /// The type.
        ty: VariantType,
        /// Components it needs.
        expected: usize,
        /// Components it has.
        found: usize,
    },
    /// real_t components of the wrong width for the profile.
    WrongRealWidth {
        /// The type.
        ty: VariantType,
        /// Bits the profile's real_t has.
        expected: u32,
    },
    /// The value cannot be written in this version at all (e.g. a typed dictionary before 4.4).
    Unsupported {
        /// What cannot be written.
        what: String,
    },
    /// Nested deeper than the engine encodes.
    TooDeep {
        /// The limit.
        limit: usize,
    },
    /// A count or length past what the format's 31-bit fields hold.
    TooLong {
        /// The length.
        len: usize,
    },
}

impl fmt::Display for EncodeErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeErrorKind::TypeNotInVersion { ty, version } => {
                write!(f, "Godot {version} has no type {ty}")
            }
            EncodeErrorKind::WrongArity {
                ty,
                expected,
                found,
            } => {
                write!(f, "{ty} has {expected} components, not {found}")
            }
            EncodeErrorKind::WrongRealWidth { ty, expected } => {
                write!(
                    f,
                    "{ty} components must be {expected}-bit floats in this build"
                )
            }
            EncodeErrorKind::Unsupported { what } => write!(f, "{what}"),
            EncodeErrorKind::TooDeep { limit } => write!(f, "nesting deeper than {limit}"),
            EncodeErrorKind::TooLong { len } => write!(f, "length {len} exceeds 2^31 - 1"),
        }
    }
}
