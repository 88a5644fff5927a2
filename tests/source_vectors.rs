//! The expected bytes that Godot's own unit tests assert, in `tests/core/io/test_marshalls.h`
//! (godotengine/godot, 4.5+ and 4.6; the test names are quoted). Each is checked in both
//! directions under the 4.6 profile.

use gdmarshal::value::{Array, ContainerType, Dictionary};
use gdmarshal::{DecodeOptions, EncodeOptions, Profile, Variant, VariantType, decode, encode};

fn godot46() -> Profile {
    "4.6".parse().unwrap()
}

fn both_ways(value: Variant, bytes: &[u8]) {
    let p = godot46();
    assert_eq!(
        encode(&value, p, EncodeOptions::default()).unwrap(),
        bytes,
        "encoding {value:?}"
    );
    let d = decode(bytes, p, DecodeOptions::default()).unwrap();
    assert_eq!(d.value, value);
    assert_eq!(d.consumed, bytes.len(), "r_len");
}

/// 0x0f123456789abcdef as Godot's tests write it: a uint64 stored in an int64 Variant.
const BIG: i64 = 0xf123_4567_89ab_cdef_u64 as i64;

#[test]
fn nil_variant_encoding() {
    both_ways(Variant::Nil, &[0, 0, 0, 0]);
}

#[test]
fn int_32_bit_variant_encoding() {
    both_ways(
        Variant::Int(0x12345678),
        &[0x02, 0, 0, 0, 0x78, 0x56, 0x34, 0x12],
    );
}

#[test]
fn int_64_bit_variant_encoding() {
    both_ways(
        Variant::Int(BIG),
        &[
            0x02, 0, 0x01, 0, 0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0xf1,
        ],
    );
}

#[test]
fn float_single_precision_variant_encoding() {
    both_ways(Variant::Float(0.15625), &[0x03, 0, 0, 0, 0, 0, 0x20, 0x3e]);
}

#[test]
fn float_double_precision_variant_encoding() {
    both_ways(
        Variant::Float(0.333_333_333_333_333_3),
        &[
            0x03, 0, 0x01, 0, 0x55, 0x55, 0x55, 0x55, 0x55, 0x55, 0xd5, 0x3f,
        ],
    );
}

#[test]
fn invalid_data_variant_decoding() {
    // "Invalid data Variant decoding": one byte, and an unknown type id 0xff.
    assert!(decode(&[0], godot46(), DecodeOptions::default()).is_err());
    let e = decode(&[0xff, 0, 0, 0], godot46(), DecodeOptions::default()).unwrap_err();
    assert_eq!(e.offset, 0);
}

#[test]
fn typed_array_encoding() {
    let a = Array::typed(
        ContainerType::Builtin(VariantType::Int),
        vec![Variant::Int(BIG)],
    );
    both_ways(
        Variant::Array(a),
        &[
            0x1c, 0, 0x01, 0, // Array, builtin element type
            0x02, 0, 0, 0, // int
            0x01, 0, 0, 0, // one element
            0x02, 0, 0x01, 0, 0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0xf1,
        ],
    );
}

#[test]
fn typed_dictionary_encoding() {
    let d = Dictionary::typed(
        ContainerType::Builtin(VariantType::Int),
        ContainerType::Builtin(VariantType::Int),
        vec![(Variant::Int(BIG), Variant::Int(BIG))],
    );
    both_ways(
        Variant::Dictionary(d),
        &[
            0x1b, 0, 0x05, 0, // Dictionary, builtin key and value types
            0x02, 0, 0, 0, // int keys
            0x02, 0, 0, 0, // int values
            0x01, 0, 0, 0, // one entry
            0x02, 0, 0x01, 0, 0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0xf1, // key
            0x02, 0, 0x01, 0, 0xef, 0xcd, 0xab, 0x89, 0x67, 0x45, 0x23, 0xf1, // value
        ],
    );
}
