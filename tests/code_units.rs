//! 3.x strings that are not Unicode text: the codec reads and writes them as the engines do, tagged
//! JSON carries them losslessly as `{"code_units": [...]}`, and malformed or hostile forms are
//! refused with their JSON path. Expected bytes are the engines' (corpus/godot-3.2.3.stable.jsonl
//! and godot-3.6.2.stable.jsonl, the cases named beside each).

use gdmarshal::float::FloatStyle;
use gdmarshal::hex::unhex;
use gdmarshal::json::{ReadError, from_json, read_json, to_json};
use gdmarshal::value::{NodePath, Text};
use gdmarshal::{DecodeOptions, EncodeOptions, Profile, Variant, decode, encode};
use serde_json::json;

fn p(v: &str) -> Profile {
    v.parse().unwrap()
}

fn units(u: &[u32]) -> Text {
    Text::from_units(u.iter().copied())
}

/// Decodes `hex` under `version`, checks the value and that it re-encodes to `back`.
fn reads(version: &str, hex: &str, want: &Variant, back: &str) {
    let d = decode(&unhex(hex).unwrap(), p(version), DecodeOptions::default()).unwrap();
    assert_eq!(&d.value, want, "{version} {hex}");
    let again = encode(&d.value, p(version), EncodeOptions::default()).unwrap();
    assert_eq!(again, unhex(back).unwrap(), "{version} {hex}");
}

#[test]
fn each_engine_reads_and_writes_its_strings() {
    let s = |u: &[u32]| Variant::String(units(u));
    // decode/string_bytes/surrogate_high
    reads(
        "3.2",
        "0400000003000000eda08000",
        &s(&[0xD800]),
        "0400000003000000eda08000",
    );
    reads(
        "3.6",
        "0400000003000000eda08000",
        &s(&[0xD800]),
        "040000000100000020000000",
    );
    // decode/string_bytes/surrogate_pair_cesu: two units on both; 3.6 writes them joined.
    let cesu = "0400000006000000eda0bdedb2a90000";
    reads("3.2", cesu, &s(&[0xD83D, 0xDCA9]), cesu);
    reads(
        "3.6",
        cesu,
        &s(&[0xD83D, 0xDCA9]),
        "0400000004000000f09f92a9",
    );
    for v in ["3.2", "3.6"] {
        // decode/string_bytes/beyond_10ffff, five_byte, six_byte, six_byte_max
        for (hex, u) in [
            ("0400000004000000f4908080", 0x11_0000),
            ("0400000005000000f888808080000000", 0x20_0000),
            ("0400000006000000fc84808080800000", 0x400_0000),
            ("0400000006000000fdbfbfbfbfbf0000", 0x7FFF_FFFF),
        ] {
            reads(v, hex, &s(&[u]), hex);
        }
        // decode/string_bytes/overlong_slash and overlong6_80000: ordinary text, shortest form.
        reads(
            v,
            "0400000003000000e080af00",
            &s(&[0x2F]),
            "04000000010000002f000000",
        );
        reads(
            v,
            "0400000006000000fc80828080800000",
            &s(&[0x8_0000]),
            "0400000004000000f2808080",
        );
        // decode/string_bytes/overlong6_7ffff, truncated_five_byte: refused.
        for bad in [
            "0400000006000000fc8081bfbfbf0000",
            "040000000500000061 62f8888000000000",
        ] {
            let bytes = unhex(&bad.replace(' ', "")).unwrap();
            assert!(
                decode(&bytes, p(v), DecodeOptions::default()).is_err(),
                "{v} {bad}"
            );
        }
    }
    // 4.6 refuses all of these (same cases in corpus/godot-4.6.3.stable.jsonl).
    assert!(decode(&unhex(cesu).unwrap(), p("4.6"), DecodeOptions::default()).is_err());
}

#[test]
fn strings_in_arrays_paths_and_keys() {
    // decode/string_bytes/in_packed_string_array
    let psa = Variant::PackedStringArray(vec![units(&[0xD800])]);
    reads(
        "3.2",
        "170000000100000004000000eda08000",
        &psa,
        "170000000100000004000000eda08000",
    );
    reads(
        "3.6",
        "170000000100000004000000eda08000",
        &psa,
        "17000000010000000200000020000000",
    );
    // encode/NodePath/units_names on 3.2.3
    let np = Variant::node_path(NodePath {
        names: vec![units(&[0x61, 0xD800])],
        subnames: vec![units(&[0x11_0000])],
        absolute: false,
    });
    let written = "0f0000000100008001000000000000000400000061eda08004000000f4908080";
    assert_eq!(
        encode(&np, p("3.2"), EncodeOptions::default()).unwrap(),
        unhex(written).unwrap()
    );
    reads("3.2", written, &np, written);
}

#[test]
fn four_x_refuses_to_encode_what_its_strings_cannot_hold() {
    // encode/String/units_* are unsupported by 4.6.3: String.chr() makes U+FFFD of such a unit.
    for u in [0xD800, 0x11_0000] {
        let e = encode(
            &Variant::String(units(&[0x61, u])),
            p("4.6"),
            EncodeOptions::default(),
        )
        .unwrap_err();
        assert!(e.to_string().contains("scalar values only"), "{e}");
    }
    let e = encode(
        &Variant::PackedStringArray(vec![Text::from("a"), units(&[0xDC00])]),
        p("4.6"),
        EncodeOptions::default(),
    )
    .unwrap_err();
    assert_eq!(e.path, "$[1]");
}

#[test]
fn code_units_round_trip_through_tagged_json() {
    let v = Variant::Array(gdmarshal::value::Array::new(vec![
        Variant::String(units(&[0xD83D, 0xDCA9])),
        Variant::PackedStringArray(vec![Text::from("a"), units(&[0x7FFF_FFFF])]),
        Variant::node_path(NodePath {
            names: vec![units(&[0xDFFF])],
            subnames: vec![Text::from("x")],
            absolute: true,
        }),
    ]));
    let j = to_json(&v, p("3.2"), FloatStyle::Shortest);
    assert_eq!(
        j["value"][0],
        json!({"type": "String", "value": {"code_units": [55357, 56489]}})
    );
    assert_eq!(
        j["value"][1]["value"],
        json!(["a", {"code_units": [2147483647]}])
    );
    assert_eq!(j["value"][2]["names"], json!([{"code_units": [57343]}]));
    assert_eq!(from_json(&j, p("3.2")).unwrap(), v);
    assert_eq!(read_json(j.to_string().as_bytes(), p("3.2")).unwrap(), v);
}

#[test]
fn code_units_of_unicode_text_read_as_that_text() {
    let j = json!({"type": "String", "value": {"code_units": [104, 0x1F4A9]}});
    let v = from_json(&j, p("3.6")).unwrap();
    assert_eq!(v, Variant::String(Text::from("h💩")));
    assert_eq!(
        to_json(&v, p("3.6"), FloatStyle::Shortest),
        json!({"type": "String", "value": "h💩"})
    );
    let empty = json!({"type": "PackedStringArray", "value": [{"code_units": []}]});
    assert_eq!(
        from_json(&empty, p("4.6")).unwrap(),
        Variant::PackedStringArray(vec![Text::from("")])
    );
}

#[test]
fn malformed_code_units_are_refused_with_their_path() {
    let cases = [
        (json!({"code_units": [-1]}), "$.value.code_units[0]"),
        (
            json!({"code_units": [2147483648u64]}),
            "$.value.code_units[0]",
        ),
        (json!({"code_units": [1.5]}), "$.value.code_units[0]"),
        (json!({"code_units": ["a"]}), "$.value.code_units[0]"),
        (json!({"code_units": [[1]]}), "$.value.code_units[0]"),
        (json!({"code_units": "ab"}), "$.value.code_units"),
        (json!({"code_units": null}), "$.value.code_units"),
        (json!({"units": [1]}), "$.value.units"),
        (json!({"code_units": [1], "x": 2}), "$.value.x"),
        (json!({}), "$.value"),
    ];
    for (value, path) in cases {
        let j = json!({"type": "String", "value": value});
        let e = from_json(&j, p("3.2")).unwrap_err();
        assert_eq!(e.path, path, "{j}: {e:?}");
        match read_json(j.to_string().as_bytes(), p("3.2")) {
            Err(ReadError::Schema { error, .. }) => assert_eq!(error.path, path, "{j}"),
            other => panic!("{j}: {other:?}"),
        }
    }
}

#[test]
fn hostile_code_units_fail_fast() {
    // A long array with one bad unit at the end, and nesting far past any stack: refused, without
    // a panic; memory grows with the units actually read, never from a size claim.
    let mut text = String::from(r#"{"type":"String","value":{"code_units":["#);
    text.push_str(&"1,".repeat(1 << 20));
    text.push_str("-1]}}");
    let e = read_json(text.as_bytes(), p("3.2")).unwrap_err();
    assert!(e.to_string().contains("code_units[1048576]"), "{e}");
    let deep = format!(
        r#"{{"type":"String","value":{{"code_units":{}1{}}}}}"#,
        "[".repeat(200_000),
        "]".repeat(200_000)
    );
    let e = read_json(deep.as_bytes(), p("3.2")).unwrap_err();
    assert!(e.to_string().contains("code_units[0]"), "{e}");
    // A million good units read fine.
    let mut ok = String::from(r#"{"type":"String","value":{"code_units":["#);
    ok.push_str(&"55296,".repeat(1 << 20));
    ok.push_str("55296]}}");
    let v = read_json(ok.as_bytes(), p("3.2")).unwrap();
    let Variant::String(t) = v else { panic!() };
    assert_eq!(t.units().count(), (1 << 20) + 1);
}
