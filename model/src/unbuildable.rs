//! Why an engine cannot be asked an encode case: the oracle cannot build the value inside the
//! engine from a script. The oracle names each reason with a code (`reason` beside its words in
//! `godot_project/oracle/oracle4.gd` and `oracle3.gd`); this is the list of those codes.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The oracle's code for a value it cannot build (kebab-case, as the oracle writes it).
#[derive(
    Clone,
    Copy,
    Debug,
    PartialEq,
    Eq,
    Hash,
    Serialize,
    Deserialize,
    strum::EnumIter,
    strum::EnumString,
    strum::IntoStaticStr,
)]
#[serde(rename_all = "kebab-case")]
#[strum(serialize_all = "kebab-case")]
// Exhaustive on purpose: the lab matches it whole, so that a new code has to be given its
// campaign reason.
pub enum Unbuildable {
    /// An Object that exists only by its instance id (no object has that id in the engine).
    ObjectById,
    /// A Signal whose object exists only by its id.
    SignalOfObjectById,
    /// A NodePath name that path text cannot spell (`/`, `:`, `@`, empty, ...).
    NodepathNameNotText,
    /// NodePath text that does not parse back to the same path.
    NodepathTextReparses,
    /// A full object of a class the engine cannot instantiate.
    ClassNotInstantiable,
    /// A full object whose `script` cannot be loaded.
    ScriptNotLoadable,
    /// float32 components that would pass through a GDScript float (f64), quieting a signalling
    /// NaN.
    SignallingNanThroughDouble,
    /// A 4.x String of code units that are not Unicode scalar values.
    NonScalarString,
    /// A 3.x String holding a NUL code unit.
    NulInString,
    /// A 3.x RID with a given id.
    RidById,
    /// A type (or typed container) the engine version does not have.
    TypeNotInVersion,
    /// A number past GDScript's 64-bit signed int (an unsigned 64-bit object id, RID or Signal
    /// object past 2^63 - 1): the oracle refuses to read it.
    BeyondSignedInt,
    /// The oracle refused the request for another reason (one it could not read).
    OracleRefused,
}

impl Unbuildable {
    /// Every code.
    pub fn all() -> impl Iterator<Item = Unbuildable> {
        <Unbuildable as strum::IntoEnumIterator>::iter()
    }

    /// The code as the oracle writes it.
    pub fn code(self) -> &'static str {
        self.into()
    }

    /// The reason the oracle's `code` names; `None` for a code this list lacks.
    pub fn from_code(code: &str) -> Option<Unbuildable> {
        code.parse().ok()
    }
}

/// An encode case the engine cannot be asked: the oracle's code (`None` in records written
/// before the oracle gave codes) and its words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported {
    /// Why, as a code.
    pub why: Option<Unbuildable>,
    /// Why, in the oracle's words.
    pub text: String,
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The codes in the oracle scripts: the first argument of `cannot_build` and
    /// `cannot_write_in_full`, the last of a `fail` that gives one, and `fail`'s default.
    fn oracle_codes() -> Vec<String> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../godot_project/oracle");
        let quoted = |s: &str| s.split('"').nth(1).map(str::to_string);
        let mut out = Vec::new();
        for file in ["oracle4.gd", "oracle3.gd"] {
            let text = std::fs::read_to_string(dir.join(file)).unwrap();
            for line in text.lines().map(str::trim) {
                for call in ["cannot_build(", "cannot_write_in_full("] {
                    if let Some(rest) = line.strip_prefix(call) {
                        out.extend(quoted(rest));
                    }
                }
                // `fail(WORDS, "CODE")`: a second argument.
                if line.contains("fail(") {
                    let second = line.rsplit_once(", \"").map(|(_, code)| code);
                    out.extend(
                        second
                            .and_then(|c| c.strip_suffix("\")"))
                            .map(str::to_string),
                    );
                }
                if line.starts_with("func fail(") {
                    out.extend(line.split("code").nth(1).and_then(quoted));
                }
            }
        }
        out
    }

    #[test]
    fn every_code_the_oracles_give_is_one_of_these_and_each_of_these_is_given() {
        let codes = oracle_codes();
        assert!(codes.len() >= 26, "{codes:?}");
        for code in &codes {
            assert!(Unbuildable::from_code(code).is_some(), "{code}");
        }
        for u in Unbuildable::all() {
            assert!(codes.iter().any(|c| c == u.code()), "{} unused", u.code());
        }
        assert_eq!(Unbuildable::from_code("something new"), None);
        assert_eq!(
            Unbuildable::from_code("beyond-signed-int"),
            Some(Unbuildable::BeyondSignedInt)
        );
    }
}
