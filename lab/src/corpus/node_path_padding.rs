//! The bytes a 3.x engine leaves uninitialised: the padding after each NodePath name and
//! subname. `encode_variant` (core/io/marshalls.cpp, NODE_PATH) steps over that padding without
//! writing it, and 3.x does not clear its buffer first (godotengine/godot#44999), so the engine's
//! bytes there are whatever memory held. Comparisons mask exactly those bytes, found by tracing
//! the codec's own encoding, and compare every other byte.

use std::fmt;
use std::ops::Range;

use gdmarshal::decode::{DecodeOptions, decode_traced};
use gdmarshal::encode::{EncodeOptions, encode};
use gdmarshal::hex::unhex;
use gdmarshal::json::from_json;
use gdmarshal::profile::Profile;
use gdmarshal::trace::Trace;
use gdmarshal::types::VariantType;

use crate::model::Record;

/// Where NodePath padding lies in `bytes` (an encoding, decoded with objects as `objects`
/// says), or `None` when the bytes do not decode.
pub(crate) fn spans(bytes: &[u8], profile: Profile, objects: bool) -> Option<Vec<Range<usize>>> {
    let mut trace = Spans {
        bytes,
        in_node_path: false,
        spans: Vec::new(),
    };
    let opts = DecodeOptions::new().allow_objects(objects);
    decode_traced(bytes, profile, opts, &mut trace).ok()?;
    Some(trace.spans)
}

/// Whether the engine's bytes equal `ours` (the codec's) everywhere but in the NodePath padding
/// of `ours`: the same length, and every other byte the same.
pub(crate) fn equal_but_padding(
    engine: &[u8],
    ours: &[u8],
    profile: Profile,
    objects: bool,
) -> bool {
    if engine.len() != ours.len() {
        return false;
    }
    let Some(spans) = spans(ours, profile, objects) else {
        return false;
    };
    let mut masked = vec![false; ours.len()];
    for s in spans {
        masked[s].iter_mut().for_each(|m| *m = true);
    }
    engine
        .iter()
        .zip(ours)
        .zip(masked)
        .all(|((a, b), m)| m || a == b)
}

/// Whether the engine's output in `r` equals the codec's encoding of the engine's value (its
/// tree, or the value asked) but for NodePath padding.
pub(crate) fn record_equal_but_padding(r: &Record, profile: Profile) -> bool {
    let (Some(out), Some(tree)) = (&r.output, r.tree.as_ref().or(r.value.as_ref())) else {
        return false;
    };
    let Ok(engine) = unhex(out) else { return false };
    let Ok(value) = from_json(tree, profile) else {
        return false;
    };
    let opts = EncodeOptions::new().full_objects(r.objects);
    let Ok(ours) = encode(&value, profile, opts) else {
        return false;
    };
    equal_but_padding(&engine, &ours, profile, r.objects)
}

/// A trace that keeps the padding of the names and subnames of every NodePath.
struct Spans<'a> {
    bytes: &'a [u8],
    /// Whether the last header read was a NodePath's (a NodePath holds no nested value, so its
    /// strings follow its header before any other).
    in_node_path: bool,
    spans: Vec<Range<usize>>,
}

impl Trace for Spans<'_> {
    const ACTIVE: bool = true;

    fn open(&mut self, _: usize, _: fmt::Arguments<'_>) {}

    fn field(&mut self, _: usize, _: usize, _: &str, _: fmt::Arguments<'_>) {}

    fn close(&mut self, _: usize) {}

    fn header(&mut self, _: usize, ty: VariantType, _: u32, _: u32) {
        self.in_node_path = ty == VariantType::NodePath;
    }

    fn text(&mut self, start: usize, end: usize, _: &str, _: &gdmarshal::value::Text) {
        // The string's length is the 4 bytes before it; what follows its bytes is padding.
        if !self.in_node_path || start < 4 {
            return;
        }
        let length = self.bytes[start - 4..start]
            .try_into()
            .map(u32::from_le_bytes);
        if let Ok(n) = length {
            let padding_start = start.saturating_add(n as usize).min(end);
            if padding_start < end {
                self.spans.push(padding_start..end);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The input of corpus case decode/valid/NodePath/padded_names (3.6.2 accepts it): the names
    /// "a", "bc" and "def" and the subname "é", each padded with zeros to 4 bytes.
    fn node_path_3x() -> Vec<u8> {
        gdmarshal::hex::unhex(
            "0f00000003000080010000000100000001000000610000000200000062630000\
             030000006465660002000000c3a90000",
        )
        .unwrap()
    }

    #[test]
    fn the_padding_of_each_name_is_masked_and_nothing_else() {
        let p = "3.6".parse::<Profile>().unwrap();
        let ours = node_path_3x();
        assert_eq!(
            spans(&ours, p, false),
            Some(vec![21..24, 30..32, 39..40, 46..48])
        );
        let mut engine = ours.clone();
        // Uninitialised padding: equal.
        engine[21] = 0x5a;
        engine[31] = 0xff;
        assert!(equal_but_padding(&engine, &ours, p, false));
        // A name's byte, a count, a header: not padding.
        for at in [20, 28, 0, 16] {
            let mut other = engine.clone();
            other[at] ^= 1;
            assert!(!equal_but_padding(&other, &ours, p, false), "byte {at}");
        }
        // Another length.
        assert!(!equal_but_padding(&engine[..30], &ours, p, false));
    }

    #[test]
    fn strings_outside_a_node_path_keep_their_padding() {
        let p = "3.6".parse::<Profile>().unwrap();
        // A String "a" (type 4): its padding is compared.
        let mut ours = Vec::new();
        for w in [4u32, 1] {
            ours.extend(w.to_le_bytes());
        }
        ours.extend(b"a\0\0\0");
        assert_eq!(spans(&ours, p, false), Some(vec![]));
        let mut engine = ours.clone();
        engine[9] = 1;
        assert!(!equal_but_padding(&engine, &ours, p, false));
    }
}
