//! The claims of the documented spec that the engines are asked about ([`CLAIMS`]): each claim
//! with the pages that make it, its vector builder and its test. `super::ask_claims` asks them of
//! live engines; the report's §3 and the spec pages' list of changes are made from the answers.

use serde_json::Value;

use gdmarshal::profile::Profile;
use gdmarshal::types::VariantType;
use gdmarshal::value::{Object, Variant};

use crate::model::{Record, Verdict};

/// A vector for the engines: bytes to decode or a value to encode.
#[derive(Clone, Debug)]
pub enum Probe {
    /// Decode these bytes (objects not allowed).
    Decode(Vec<u8>),
    /// Build and encode this value (objects as ids).
    Encode(Variant),
}

/// One claim of the documented spec, and how to test it on an engine.
pub struct Claim {
    /// Which pages make the claim.
    pub pages: &'static str,
    /// What the pages say.
    pub says: &'static str,
    /// What an engine that contradicts the claim does (shown with its actual answer).
    pub instead: &'static str,
    /// Engine major versions the claim is about.
    pub majors: &'static [u32],
    /// The vector for an engine of this profile.
    pub vector: fn(Profile) -> Probe,
    /// Whether the engine's answer contradicts the claim.
    pub contradicts: fn(&Record) -> bool,
    /// The upstream revision the claim is from: `None` for the pages the generated ones start
    /// from, else the godot-docs commit ([`CURRENT`], [`BASE_3X`]).
    pub upstream: Option<&'static str>,
}

/// The godot-docs commit of the 4.x page the corrected pages start from
/// (`tutorials/io/binary_serialization_api.rst`).
pub(crate) const PUBLISHED: &str = "1935d0678734066558c411aa007793e2ef897312";

/// The godot-docs commit of the 3.x page the corrected 3.x page replaces
/// (`tutorials/misc/binary_serialization_api.rst`, the newest 3.x revision of the page).
pub(crate) const BASE_3X: &str = "48faee9f73d48982e3ae2173c37315ab7e93ff2a";

/// The godot-docs commit of the current upstream page whose claims §3 adds
/// (`tutorials/io/binary_serialization_api.rst`).
pub(crate) const CURRENT: &str = "00eaffdace3507a489eba36dd4628e378841fa75";

fn id(p: Profile, t: VariantType) -> u8 {
    p.id_of(t).expect("type exists in the profile") as u8
}

fn word(v: u32) -> [u8; 4] {
    v.to_le_bytes()
}

fn with_header(head: u32, payload: &[u8]) -> Vec<u8> {
    let mut b = word(head).to_vec();
    b.extend_from_slice(payload);
    b
}

fn accepted(r: &Record) -> bool {
    r.verdict == Verdict::Accepted
}

fn tree_type(r: &Record) -> Option<&str> {
    r.tree.as_ref()?.get("type")?.as_str()
}

fn output_bytes(r: &Record) -> Vec<u8> {
    r.output
        .as_deref()
        .and_then(|h| gdmarshal::hex::unhex(h).ok())
        .unwrap_or_default()
}

/// The claims of the documented spec (the 4.x English page at [`PUBLISHED`] and at [`CURRENT`],
/// and the 3.x pages) that the engines are asked about. docs/format-notes.md §7 gives the source for each.
pub(crate) const CLAIMS: &[Claim] = &[
    Claim {
        pages: "4.x en, 3.x fr, 3.x uk",
        says: "`base_type = val & 0xFFFF`: the type is the low two bytes of the header",
        instead: "the type is the low byte only; byte 1 is ignored (a header 0x0102 reads as int)",
        majors: &[3, 4],
        vector: |p| with_header(id(p, VariantType::Int) as u32 | 0x0100, &word(5)).into(),
        upstream: None,
        contradicts: |r| accepted(r) && tree_type(r) == Some("int"),
    },
    Claim {
        pages: "4.x en",
        says: "type 18 is Dictionary (the page's table is the 3.x numbering)",
        instead: "4.x id 18 is Transform3D: an empty Dictionary in the page's numbering is not read as a Dictionary",
        majors: &[4],
        vector: |_| with_header(18, &word(0)).into(),
        upstream: None,
        contradicts: |r| tree_type(r) != Some("Dictionary"),
    },
    Claim {
        pages: "4.x en",
        says: "type 20 is PackedByteArray (\"20: PackedByteArray\" heading, 3.x numbering)",
        instead: "4.x id 20 is Color: a one-byte PackedByteArray in the page's numbering is not read as one",
        majors: &[4],
        vector: |_| with_header(20, &[1, 0, 0, 0, 7, 0, 0, 0]).into(),
        upstream: None,
        contradicts: |r| tree_type(r) != Some("PackedByteArray"),
    },
    Claim {
        pages: "4.x en, 4.x en (current), 3.x fr, 3.x en (48faee9)",
        says: "\"The 'float' type itself always uses double precision\"",
        instead: "a float that is exact in 32 bits is written with a 4-byte payload and no 64-bit flag",
        majors: &[3, 4],
        vector: |_| Probe::Encode(Variant::Float(0.15625)),
        upstream: None,
        contradicts: |r| accepted(r) && output_bytes(r).len() == 8,
    },
    Claim {
        pages: "4.x en, 4.x en (current), 3.x old en, 3.x fr, 3.x uk, 3.x en (48faee9)",
        says: "bool: \"0 for False, 1 for True\"",
        instead: "any non-zero word reads as true (2 is accepted as true)",
        majors: &[3, 4],
        vector: |p| with_header(id(p, VariantType::Bool) as u32, &word(2)).into(),
        upstream: None,
        contradicts: |r| {
            accepted(r) && r.tree.as_ref().and_then(|t| t.get("value")) == Some(&Value::Bool(true))
        },
    },
    Claim {
        pages: "4.x en, 3.x old en, 3.x fr, 3.x uk, 3.x en (48faee9)",
        says: "NodePath \"old format\": bit 31 clear means a string length followed by the path string",
        instead: "the old format is rejected",
        majors: &[3, 4],
        vector: |p| {
            with_header(
                id(p, VariantType::NodePath) as u32,
                &[1, 0, 0, 0, b'a', 0, 0, 0],
            )
            .into()
        },
        upstream: None,
        contradicts: |r| r.verdict == Verdict::Rejected,
    },
    Claim {
        pages: "4.x en",
        says: "\"16: RID (unsupported)\"",
        instead: "4.x reads and writes a RID as a 64-bit id (12 bytes in all)",
        majors: &[4],
        vector: |p| with_header(id(p, VariantType::Rid) as u32, &[42, 0, 0, 0, 0, 0, 0, 0]).into(),
        upstream: None,
        contradicts: |r| accepted(r) && tree_type(r) == Some("RID") && r.consumed == Some(12),
    },
    Claim {
        pages: "4.x en, 4.x en (current)",
        says: "a null Object is the Object header followed by a 4-byte zero",
        instead: "a null Object is written as a bare Nil header (`00000000`)",
        majors: &[3, 4],
        vector: |_| Probe::Encode(Variant::object(Object::Null)),
        upstream: None,
        contradicts: |r| accepted(r) && output_bytes(r) == [0, 0, 0, 0],
    },
    Claim {
        pages: "3.x old en, 3.x fr, 3.x uk, 3.x en (48faee9)",
        says: "\"17: Object (unsupported)\"",
        instead: "3.x reads an Object as an instance id (header flag bit 16 + 64-bit id)",
        majors: &[3],
        vector: |p| {
            with_header(
                id(p, VariantType::Object) as u32 | 1 << 16,
                &[42, 0, 0, 0, 0, 0, 0, 0],
            )
            .into()
        },
        upstream: None,
        contradicts: |r| accepted(r) && tree_type(r) == Some("Object"),
    },
    Claim {
        pages: "3.x old en, 3.x uk",
        says: "int is a 32-bit signed integer (no 64-bit form shown)",
        instead: "with header bit 16 an int is 64-bit",
        majors: &[3],
        vector: |p| {
            with_header(
                id(p, VariantType::Int) as u32 | 1 << 16,
                &[0, 0, 0, 0, 1, 0, 0, 0],
            )
            .into()
        },
        upstream: None,
        contradicts: |r| {
            accepted(r)
                && r.tree.as_ref().and_then(|t| t.get("value"))
                    == Some(&Value::String("4294967296".into()))
        },
    },
    Claim {
        pages: "4.x en",
        says: "PackedInt64Array: \"Array length\" is 8 bytes",
        instead: "the count is 4 bytes (a one-element array is 16 bytes, not 20)",
        majors: &[4],
        vector: |_| Probe::Encode(Variant::PackedInt64Array(vec![5])),
        upstream: None,
        contradicts: |r| accepted(r) && output_bytes(r).len() == 16,
    },
    Claim {
        pages: "4.x en, 3.x old en, 3.x fr, 3.x uk, 3.x en (48faee9)",
        says: "PackedStringArray: each string is its length and UTF-8 bytes, padded (as String)",
        instead: "each string's length counts a NUL terminator that is written after the bytes (\"abc\" has length 4)",
        majors: &[3, 4],
        vector: |_| Probe::Encode(Variant::PackedStringArray(vec!["abc".into()])),
        upstream: None,
        contradicts: |r| accepted(r) && output_bytes(r).get(8..12) == Some(&[4, 0, 0, 0][..]),
    },
    Claim {
        pages: "4.x en, 4.x en (current), 3.x old en, 3.x fr, 3.x uk, 3.x en (48faee9)",
        says: "String: length, then that many UTF-8 bytes make the string",
        instead: "a NUL byte ends the string early: \"a\\0b\" reads as \"a\"",
        majors: &[3, 4],
        vector: |p| {
            with_header(
                id(p, VariantType::String) as u32,
                &[3, 0, 0, 0, b'a', 0, b'b', 0],
            )
            .into()
        },
        upstream: None,
        contradicts: |r| {
            accepted(r)
                && r.tree.as_ref().and_then(|t| t.get("value")) == Some(&Value::String("a".into()))
        },
    },
    Claim {
        pages: "4.x en",
        says: "Array: the word after the header is the element count (header flags only carry the 64-bit flag)",
        instead: "4.3+ header bits 16-17 mark a typed Array whose element type word comes before the count",
        majors: &[4],
        vector: |p| {
            with_header(
                id(p, VariantType::Array) as u32 | 1 << 16,
                &[2, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 5, 0, 0, 0],
            )
            .into()
        },
        upstream: None,
        contradicts: |r| accepted(r) && r.consumed == Some(20),
    },
    Claim {
        pages: "4.x en, 4.x en (current)",
        says: "PackedVector2Array elements are two 32-bit floats",
        instead: "with header bit 16 the elements are two 64-bit floats (24 bytes for one element)",
        majors: &[4],
        vector: |p| {
            let mut payload = vec![1, 0, 0, 0];
            payload.extend_from_slice(&1.0f64.to_le_bytes());
            payload.extend_from_slice(&2.0f64.to_le_bytes());
            with_header(
                id(p, VariantType::PackedVector2Array) as u32 | 1 << 16,
                &payload,
            )
            .into()
        },
        upstream: None,
        contradicts: |r| accepted(r) && r.consumed == Some(24),
    },
    Claim {
        pages: "4.x en",
        says: "type 25 is PackedStringArray (3.x numbering; Callable and Signal are not documented)",
        instead: "4.x id 25 is Callable, a bare header (4 bytes) that decodes to an empty Callable",
        majors: &[4],
        vector: |_| with_header(25, &[]).into(),
        upstream: None,
        contradicts: |r| accepted(r) && tree_type(r) == Some("Callable"),
    },
    Claim {
        pages: "4.x en",
        says: "no container type data: a Dictionary's header is followed by its count",
        instead: "4.4+ header bits 16-19 mark a typed Dictionary: key and value type words come before the count",
        majors: &[4],
        vector: |p| {
            with_header(
                id(p, VariantType::Dictionary) as u32 | 5 << 16,
                &[2, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0],
            )
            .into()
        },
        upstream: None,
        contradicts: |r| accepted(r) && r.consumed == Some(16),
    },
    // The current upstream page (godot-docs commit CURRENT): claims it makes anew.
    Claim {
        pages: "4.x en (current)",
        says: "the header's byte 1 (bits 8-15) is unused; the type is `header & 0xFF`",
        instead: "agreed: a header 0x0102 reads as int",
        majors: &[4],
        vector: |p| with_header(id(p, VariantType::Int) as u32 | 0x0100, &word(5)).into(),
        contradicts: |r| !(accepted(r) && tree_type(r) == Some("int")),
        upstream: Some(CURRENT),
    },
    Claim {
        pages: "4.x en (current)",
        says: "int: only the 32-bit payload is shown (\"flags == 0\"); the 64-bit form has no layout",
        instead: "an int beyond 32 bits is written with ENCODE_FLAG_64 and an 8-byte payload (12 bytes in all)",
        majors: &[4],
        vector: |_| Probe::Encode(Variant::Int(1 << 32)),
        contradicts: |r| accepted(r) && output_bytes(r).len() == 12,
        upstream: Some(CURRENT),
    },
    Claim {
        pages: "4.x en (current)",
        says: "float: only the single-precision payload is shown",
        instead: "a float not exact in 32 bits is written with ENCODE_FLAG_64 and an 8-byte payload (12 bytes in all)",
        majors: &[4],
        vector: |_| Probe::Encode(Variant::Float(0.1)),
        contradicts: |r| accepted(r) && output_bytes(r).len() == 12,
        upstream: Some(CURRENT),
    },
    Claim {
        pages: "4.x en (current)",
        says: "Array and Dictionary count: `val & 0x80000000 = shared (bool)`",
        instead: "bit 31 is ignored: an Array whose count has it reads as a plain Array and is written back without it",
        majors: &[4],
        vector: |p| with_header(id(p, VariantType::Array) as u32, &word(0x8000_0000)).into(),
        contradicts: |r| accepted(r) && output_bytes(r).get(4..8) == Some(&[0, 0, 0, 0][..]),
        upstream: Some(CURRENT),
    },
    Claim {
        pages: "4.x en (current)",
        says: "NodePath flags bit 1 (property): the sub-name count is one more than written",
        instead: "agreed: with flags 2 and a sub-name count of 0, one sub-name is read",
        majors: &[4],
        vector: |p| {
            let payload = [
                word(0x8000_0001),
                word(0),
                word(2),
                word(1),
                *b"a\0\0\0",
                word(1),
                *b"b\0\0\0",
            ]
            .concat();
            with_header(id(p, VariantType::NodePath) as u32, &payload).into()
        },
        contradicts: |r| !(accepted(r) && r.consumed == Some(32)),
        upstream: Some(CURRENT),
    },
    Claim {
        pages: "4.x en (current)",
        says: "an Object with ENCODE_FLAG_OBJECT_AS_ID and instance id 0 is a null object",
        instead: "agreed: it decodes to a null Object",
        majors: &[4],
        vector: |p| with_header(id(p, VariantType::Object) as u32 | 1 << 16, &[0; 8]).into(),
        contradicts: |r| {
            !(accepted(r)
                && tree_type(r) == Some("Object")
                && r.tree.as_ref().and_then(|t| t.get("id")).is_none())
        },
        upstream: Some(CURRENT),
    },
    Claim {
        pages: "4.x en (current)",
        says: "a full Object (no ENCODE_FLAG_OBJECT_AS_ID) needs full_objects when decoding, else an error",
        instead: "agreed: without objects allowed it is refused",
        majors: &[4],
        vector: |p| with_header(id(p, VariantType::Object) as u32, &word(0)).into(),
        contradicts: accepted,
        upstream: Some(CURRENT),
    },
    Claim {
        pages: "4.x en (current)",
        says: "StringName is serialized as String",
        instead: "agreed: the String layout under the StringName id",
        majors: &[4],
        vector: |_| Probe::Encode(Variant::StringName("ab".into())),
        contradicts: |r| {
            !(accepted(r) && output_bytes(r).get(4..) == Some(&[2, 0, 0, 0, b'a', b'b', 0, 0][..]))
        },
        upstream: Some(CURRENT),
    },
    Claim {
        pages: "4.x en (current)",
        says: "typed containers: a class-name element type (kind 0b10) is the class name as a String",
        instead: "without full objects the class name written is `EncodedObjectAsID`, whatever the class",
        majors: &[4],
        vector: |p| {
            let tree = serde_json::json!({"type": "Array", "element_type": {"class": "Resource"}, "value": []});
            Probe::Encode(gdmarshal::json::from_json(&tree, p).expect("a typed Array tree reads"))
        },
        contradicts: |r| {
            accepted(r)
                && output_bytes(r)
                    .windows(17)
                    .any(|w| w == b"EncodedObjectAsID")
        },
        upstream: Some(CURRENT),
    },
    Claim {
        pages: "4.x en (current)",
        says: "PackedVector3Array elements are three 4-byte floats (no 64-bit form)",
        instead: "with header bit 16 the elements are three 8-byte floats (32 bytes for one element)",
        majors: &[4],
        vector: |p| {
            let mut payload = word(1).to_vec();
            for x in [1.0f64, 2.0, 3.0] {
                payload.extend_from_slice(&x.to_le_bytes());
            }
            with_header(
                id(p, VariantType::PackedVector3Array) as u32 | 1 << 16,
                &payload,
            )
            .into()
        },
        contradicts: |r| accepted(r) && r.consumed == Some(32),
        upstream: Some(CURRENT),
    },
    Claim {
        pages: "4.x en (current)",
        says: "NodePath: the old format (bit 31 of the name count clear) is no longer supported and returns an error",
        instead: "agreed: it is refused",
        majors: &[4],
        vector: |p| {
            with_header(
                id(p, VariantType::NodePath) as u32,
                &[1, 0, 0, 0, b'a', 0, 0, 0],
            )
            .into()
        },
        contradicts: |r| r.verdict != Verdict::Rejected,
        upstream: Some(CURRENT),
    },
    Claim {
        pages: "4.x en (current)",
        says: "RID: a 64-bit id",
        instead: "agreed: 12 bytes in all",
        majors: &[4],
        vector: |p| with_header(id(p, VariantType::Rid) as u32, &[42, 0, 0, 0, 0, 0, 0, 0]).into(),
        contradicts: |r| !(accepted(r) && tree_type(r) == Some("RID") && r.consumed == Some(12)),
        upstream: Some(CURRENT),
    },
    Claim {
        pages: "4.x en (current)",
        says: "PackedInt64Array: a 4-byte count, then 8 bytes per element",
        instead: "agreed: a one-element array is 16 bytes",
        majors: &[4],
        vector: |_| Probe::Encode(Variant::PackedInt64Array(vec![5])),
        contradicts: |r| !(accepted(r) && output_bytes(r).len() == 16),
        upstream: Some(CURRENT),
    },
    Claim {
        pages: "4.x en (current)",
        says: "PackedStringArray: each string's length includes its NUL terminator",
        instead: "agreed: \"abc\" has length 4",
        majors: &[4],
        vector: |_| Probe::Encode(Variant::PackedStringArray(vec!["abc".into()])),
        contradicts: |r| !(accepted(r) && output_bytes(r).get(8..12) == Some(&[4, 0, 0, 0][..])),
        upstream: Some(CURRENT),
    },
    Claim {
        pages: "4.x en (current)",
        says: "Callable: no data follows the header; decoding gives an empty Callable",
        instead: "agreed: a bare header (4 bytes) reads as a Callable",
        majors: &[4],
        vector: |_| with_header(25, &[]).into(),
        contradicts: |r| {
            !(accepted(r) && tree_type(r) == Some("Callable") && r.consumed == Some(4))
        },
        upstream: Some(CURRENT),
    },
    Claim {
        pages: "4.x en (current)",
        says: "Colors are always encoded in single precision",
        instead: "agreed: a Color header with bit 16 is still read as four 4-byte floats (20 bytes)",
        majors: &[4],
        vector: |p| {
            let payload = [1.0f32, 0.5, 0.25, 1.0].map(f32::to_le_bytes).concat();
            with_header(id(p, VariantType::Color) as u32 | 1 << 16, &payload).into()
        },
        contradicts: |r| !(accepted(r) && r.consumed == Some(20)),
        upstream: Some(CURRENT),
    },
    Claim {
        pages: "4.x en (current)",
        says: "the type table: 11 = Vector4, 12 = Vector4i, 13 = Transform2D",
        instead: "Transform2D is id 11 (0x0b), Vector4 12 and Vector4i 13",
        majors: &[4],
        vector: |_| {
            Probe::Encode(Variant::Transform2D(
                [1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0].into(),
            ))
        },
        contradicts: |r| accepted(r) && output_bytes(r).first() == Some(&11),
        upstream: Some(CURRENT),
    },
    // The 3.x base (godot-docs commit BASE_3X): claims the earlier 3.x pages do not make.
    Claim {
        pages: "3.x en (48faee9)",
        says: "int: the payload is a 64-bit integer (8 bytes)",
        instead: "an int that fits in 32 bits has a 4-byte payload and no flag (8 bytes in all)",
        majors: &[3],
        vector: |_| Probe::Encode(Variant::Int(1)),
        contradicts: |r| accepted(r) && output_bytes(r).len() == 8,
        upstream: Some(BASE_3X),
    },
    Claim {
        pages: "3.x en (48faee9)",
        says: "float: a 32-bit payload (no 64-bit form shown)",
        instead: "a float not exact in 32 bits is written with ENCODE_FLAG_64 and an 8-byte payload (12 bytes in all)",
        majors: &[3],
        vector: |_| Probe::Encode(Variant::Float(0.1)),
        contradicts: |r| accepted(r) && output_bytes(r).len() == 12,
        upstream: Some(BASE_3X),
    },
    Claim {
        pages: "3.x en (48faee9)",
        says: "\"16: RID (unsupported)\"",
        instead: "a RID is read and written as its header alone (4 bytes)",
        majors: &[3],
        vector: |p| with_header(id(p, VariantType::Rid) as u32, &[]).into(),
        contradicts: |r| accepted(r) && tree_type(r) == Some("RID") && r.consumed == Some(4),
        upstream: Some(BASE_3X),
    },
];

impl From<Vec<u8>> for Probe {
    fn from(b: Vec<u8>) -> Probe {
        Probe::Decode(b)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Direction;

    #[test]
    fn every_claim_has_a_vector_for_its_versions() {
        for c in CLAIMS {
            for p in ["3.2", "3.6", "4.6"] {
                let p: Profile = p.parse().unwrap();
                if c.majors.contains(&p.major()) {
                    match (c.vector)(p) {
                        Probe::Decode(b) => assert!(b.len() >= 4, "{}", c.says),
                        Probe::Encode(_) => {}
                    }
                }
            }
        }
    }

    #[test]
    fn a_rejection_contradicts_only_the_claims_that_expect_one() {
        let r = Record {
            name: "x".into(),
            direction: Direction::Decode,
            input: Some("00".into()),
            value: None,
            objects: false,
            verdict: Verdict::Rejected,
            consumed: None,
            tree: None,
            output: None,
            nondeterministic: Vec::new(),
            unbuildable: None,
            error: String::new(),
        };
        let hits: Vec<&str> = CLAIMS
            .iter()
            .filter(|c| c.upstream.is_none() && (c.contradicts)(&r))
            .map(|c| c.says)
            .collect();
        // The old NodePath format and the 4.x page's 3.x ids (a rejection is not the documented type).
        assert_eq!(hits.len(), 3, "{hits:?}");
    }
}
