//! The differential fuzz target's inputs: a mode byte and a body ([`DiffInput::parse`]). In
//! decode mode the body is bytes for both the engine and the codec to decode; in encode mode the
//! body drives [`canonical_value`] and the value is encoded by both.
//!
//! An input becomes an ordinary [`Case`] and goes through the campaigns' one pipeline: the same
//! classifier ([`classify_batch`], with the known differences of `corpus/known-differences.txt`),
//! the same reproducers and folders ([`keep_finding`], `findings/<class>/`), and the same replay
//! (`gdmarshal diff --replay FILE`).

use arbitrary::Unstructured;

use crate::campaign::{Judged, classify_batch};
use crate::corpus::known::Entry;
use crate::model::Case;
use crate::model::answerer::EngineAnswerer;
use gdmarshal::generate::{GenOptions, canonical_value};
use gdmarshal::profile::Profile;
use gdmarshal::value::Variant;

#[cfg(doc)]
use crate::campaign::keep_finding;

/// Mode byte bit 7: encode a generated value instead of decoding the body. Bit 0: objects.
/// The decode seeds' selector bytes (below 64) are decode mode, so they seed this target as is.
pub(crate) const ENCODE_BIT: u8 = 0x80;

/// One differential case.
#[derive(Clone, Debug, PartialEq)]
pub enum DiffInput {
    /// Decode these bytes (with objects allowed or not).
    Decode {
        /// The bytes.
        bytes: Vec<u8>,
        /// `bytes_to_var_with_objects` instead of `bytes_to_var`.
        objects: bool,
    },
    /// Encode this value (with full objects or not).
    Encode {
        /// The value.
        value: Variant,
        /// `var_to_bytes_with_objects` instead of `var_to_bytes`.
        objects: bool,
    },
}

impl DiffInput {
    /// Reads a fuzz input for an engine of `profile`; `None` when it is empty or too short to
    /// draw a value from.
    pub fn parse(data: &[u8], profile: Profile) -> Option<DiffInput> {
        let (&mode, body) = data.split_first()?;
        let objects = mode & 1 == 1;
        if mode & ENCODE_BIT == 0 {
            return Some(DiffInput::Decode {
                bytes: body.to_vec(),
                objects,
            });
        }
        let o = GenOptions {
            full_objects: objects,
            ..GenOptions::new(profile)
        };
        let value = canonical_value(&mut Unstructured::new(body), &o).ok()?;
        Some(DiffInput::Encode { value, objects })
    }
}

impl DiffInput {
    /// The input as a case of the one pipeline, named `fuzz/decode` or `fuzz/encode`.
    pub fn case(&self) -> Case {
        match self {
            DiffInput::Decode { bytes, objects } => Case::Decode {
                name: "fuzz/decode".into(),
                input: bytes.clone(),
                allow_objects: *objects,
            },
            DiffInput::Encode { value, objects } => Case::Encode {
                name: "fuzz/encode".into(),
                value: value.clone(),
                full_objects: *objects,
            },
        }
    }
}

/// Asks the engine and classifies its answer against the codec's, as a campaign does (an
/// engine that cannot answer gives the class `unanswered`).
pub fn judge_input(oracle: &mut dyn EngineAnswerer, input: &DiffInput, known: &[Entry]) -> Judged {
    classify_batch(oracle, &[input.case()], known)
        .pop()
        .expect("one judged case per case")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decode_seeds_are_decode_mode() {
        let p: Profile = "4.6".parse().unwrap();
        // 4.6 seeds start with selector 26 or 27.
        assert_eq!(
            DiffInput::parse(&[27, 2, 0, 0, 0], p),
            Some(DiffInput::Decode {
                bytes: vec![2, 0, 0, 0],
                objects: true
            })
        );
        assert!(matches!(
            DiffInput::parse(&[ENCODE_BIT, 3, 1, 4, 1, 5, 9, 2, 6], p),
            Some(DiffInput::Encode { objects: false, .. })
        ));
        assert_eq!(DiffInput::parse(&[], p), None);
    }

    #[test]
    fn inputs_become_cases() {
        let p: Profile = "4.6".parse().unwrap();
        let decode = DiffInput::parse(&[1, 2, 0, 0, 0], p).unwrap().case();
        assert_eq!(
            decode,
            Case::Decode {
                name: "fuzz/decode".into(),
                input: vec![2, 0, 0, 0],
                allow_objects: true
            }
        );
    }
}
