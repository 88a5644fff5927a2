//! This crate's codec as an [`Answerer`], in process.

use std::sync::Arc;

use serde_json::Value;

use gdmarshal::Variant;
use gdmarshal::classes::ClassList;
use gdmarshal::decode::{DecodeOptions, decode};
use gdmarshal::encode::{EncodeOptions, encode};
use gdmarshal::error::{DecodeErrorKind, EncodeErrorKind};
use gdmarshal::float::FloatStyle;
use gdmarshal::json::{from_json, to_json};
use gdmarshal::profile::Profile;

use crate::model::answer::{Answer, Reencoded};
use crate::model::answerer::Answerer;
use crate::model::case::Case;
use crate::model::{RejectKind, Rejection};

/// This crate's codec, answering in one profile, and with an engine's classes where it is set
/// against one that told them.
#[derive(Clone, Debug)]
pub struct ThisCodec {
    profile: Profile,
    classes: Option<Arc<ClassList>>,
}

impl ThisCodec {
    /// The codec answering as engines of `profile` do, objects of any class.
    pub fn new(profile: Profile) -> ThisCodec {
        ThisCodec {
            profile,
            classes: None,
        }
    }

    /// The same, refusing what an engine with these classes cannot hold
    /// ([`gdmarshal::classes`]).
    pub fn with_classes(self, classes: Option<Arc<ClassList>>) -> ThisCodec {
        ThisCodec { classes, ..self }
    }

    /// The refusal of a decoded value the engine's decoder would not make.
    fn check_decoded(&self, v: &Variant) -> Result<(), Rejection> {
        let Some(c) = &self.classes else {
            return Ok(());
        };
        c.check_decoded(v).map_err(|e| Rejection {
            message: e.to_string(),
            kind: Some(RejectKind::Decode(DecodeErrorKind::Class(Box::new(e)))),
        })
    }

    /// `v` with its full objects as the engine holds them, where the classes tell it for
    /// certain ([`ClassList::fill_stored`]); `None` where they do not.
    fn as_engine_holds(&self, v: &Variant) -> Option<Variant> {
        let mut filled = v.clone();
        self.classes.as_ref()?.fill_stored(&mut filled).ok()?;
        Some(filled)
    }

    /// Encodes `value`, refusing one the engine cannot hold.
    fn encode_value(&self, value: &Variant, options: EncodeOptions) -> Result<Vec<u8>, Rejection> {
        if let Some(c) = &self.classes
            && let Err(e) = c.check_encodable(value)
        {
            return Err(Rejection {
                kind: Some(RejectKind::Encode(EncodeErrorKind::Unsupported {
                    what: e.to_string(),
                })),
                message: e.to_string(),
            });
        }
        let held = options
            .full_objects
            .then(|| self.as_engine_holds(value))
            .flatten();
        encode(held.as_ref().unwrap_or(value), self.profile, options)
            .map_err(|e| Rejection::from(&e))
    }

    /// Decodes `input` to tagged JSON and the bytes consumed, or says why not.
    pub(crate) fn decode_tree(
        &self,
        input: &[u8],
        objects: bool,
    ) -> Result<(Value, usize), Rejection> {
        let options = DecodeOptions::new().allow_objects(objects);
        match decode(input, self.profile, options) {
            Ok(d) => {
                // The engine instantiated the objects of dropped elements too.
                for v in d.dropped.iter().chain([&d.value]) {
                    self.check_decoded(v)?;
                }
                let held = objects.then(|| self.as_engine_holds(&d.value)).flatten();
                let value = held.as_ref().unwrap_or(&d.value);
                Ok((
                    to_json(value, self.profile, FloatStyle::Shortest),
                    d.consumed,
                ))
            }
            Err(e) => Err(Rejection::from(&e)),
        }
    }

    /// Encodes a tagged-JSON value, or says why not.
    pub(crate) fn encode_tree(&self, tree: &Value, objects: bool) -> Result<Vec<u8>, Rejection> {
        let value = from_json(tree, self.profile).map_err(|e| Rejection::from(&e))?;
        let options = EncodeOptions::new().full_objects(objects);
        self.encode_value(&value, options)
    }

    fn answer_one(&self, case: &Case) -> Answer {
        match case {
            Case::Decode {
                input,
                allow_objects,
                ..
            } => match self.decode_tree(input, *allow_objects) {
                Ok((tree, consumed)) => {
                    // The re-encoding is of the tree answered, as a testee's is.
                    let reencoded = match self.encode_tree(&tree, *allow_objects) {
                        Ok(b) => Reencoded::Bytes(b),
                        Err(r) => Reencoded::Refused(r),
                    };
                    Answer::Decoded {
                        tree: Some(tree),
                        consumed: Some(consumed),
                        reencoded,
                        log: String::new(),
                    }
                }
                Err(r) => Answer::Rejected(r),
            },
            Case::Encode {
                value,
                full_objects,
                ..
            } => {
                let options = EncodeOptions::new().full_objects(*full_objects);
                match self.encode_value(value, options) {
                    Ok(bytes) => Answer::Encoded {
                        bytes,
                        tree: None,
                        log: String::new(),
                    },
                    Err(r) => Answer::Rejected(r),
                }
            }
        }
    }
}

impl Answerer for ThisCodec {
    fn name(&self) -> &str {
        "gdmarshal"
    }

    fn version(&self) -> &str {
        env!("CARGO_PKG_VERSION")
    }

    fn profile(&self) -> Profile {
        self.profile
    }

    fn answer(&mut self, cases: &[Case]) -> Vec<Answer> {
        cases.iter().map(|c| self.answer_one(c)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gdmarshal::Variant;

    #[test]
    fn a_decode_answer_carries_its_re_encoding() {
        let mut codec = ThisCodec::new("4.6".parse().unwrap());
        let cases = [
            Case::Decode {
                name: "d".into(),
                input: vec![2, 0, 0, 0, 7, 0, 0, 0, 0xff],
                allow_objects: false,
            },
            Case::Encode {
                name: "e".into(),
                value: Variant::Int(7),
                full_objects: false,
            },
            Case::Decode {
                name: "short".into(),
                input: vec![2, 0],
                allow_objects: false,
            },
        ];
        let answers = codec.answer(&cases);
        match &answers[0] {
            Answer::Decoded {
                consumed,
                reencoded,
                ..
            } => {
                assert_eq!(*consumed, Some(8));
                assert_eq!(reencoded.bytes(), Some(&[2, 0, 0, 0, 7, 0, 0, 0][..]));
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(answers[1].bytes(), Some(&[2, 0, 0, 0, 7, 0, 0, 0][..]));
        assert!(matches!(&answers[2], Answer::Rejected(r) if r.kind.is_some()));
    }

    /// Godot 4.6.3 decodes a Dictionary whose value type names a class it lacks ("\x1b"), holding
    /// an object id as its value (assigned unchecked), and writes back what it holds (corpus
    /// `decode/objects/typed_dictionary_value_class_missing`).
    #[test]
    fn what_the_engine_decoded_it_writes_back() {
        use gdmarshal::hex::{hex, unhex};
        let classes = gdmarshal::classes::ClassList::new(
            [
                ("Object", ""),
                ("RefCounted", "Object"),
                ("EncodedObjectAsID", "RefCounted"),
            ]
            .map(|(c, p)| (c.to_string(), p.to_string(), true)),
        );
        let mut codec =
            ThisCodec::new("4.6".parse().unwrap()).with_classes(Some(Arc::new(classes)));
        let input = "1b000800020000001b000000010000000200000001000000180001003930000000000000";
        let case = Case::Decode {
            name: "d".into(),
            input: unhex(input).unwrap(),
            allow_objects: true,
        };
        let Answer::Decoded {
            reencoded,
            tree: Some(tree),
            ..
        } = &codec.answer(&[case])[0]
        else {
            panic!("refused")
        };
        assert_eq!(
            reencoded.bytes().map(hex).as_deref(),
            Some(
                "1b000800010000001b0000000100000002000000010000001800000011000000456e636f6465644f626a6563744173494400000002000000090000006f626a6563745f6964000000020000003930000006000000736372697074000000000000"
            )
        );
        assert!(codec.encode_tree(tree, true).is_ok(), "{tree}");
    }
}
