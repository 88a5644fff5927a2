//! Every engine-written vector (tests/vectors) through tagged JSON every way: the tree writer, the
//! text writer (compact and pretty, floats shortest and as bits) and both readers agree, and each
//! reads back the value the engine's bytes decode to.

use gdmarshal::float::FloatStyle;
use gdmarshal::json::{from_json, read_json, read_json_from, to_json, write_json};
use gdmarshal::{DecodeOptions, Profile, Variant, decode};

/// Writes `v` every way and reads each back every way: all must agree with the tree writer.
fn round_trip(v: &Variant, profile: Profile, origin: &str) {
    for style in [FloatStyle::Shortest, FloatStyle::Bits] {
        let tree = to_json(v, profile, style);
        for pretty in [false, true] {
            let mut text = Vec::new();
            write_json(&mut text, v, style, pretty).unwrap();
            let want = if pretty {
                serde_json::to_vec_pretty(&tree)
            } else {
                serde_json::to_vec(&tree)
            }
            .unwrap();
            assert!(text == want, "{origin}: text differs from the tree's");
            assert_eq!(read_json(&text, profile).as_ref(), Ok(v), "{origin}");
            assert_eq!(
                read_json_from(&text[..], profile).as_ref(),
                Ok(v),
                "{origin}"
            );
        }
        assert_eq!(from_json(&tree, profile).as_ref(), Ok(v), "{origin}");
    }
}

#[test]
fn engine_vectors_round_trip_identically_every_way() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors");
    let mut n = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let file = gdmarshal_vectors::read(&entry.unwrap().path()).unwrap();
        for vector in &file.vectors {
            let opts = DecodeOptions::new().allow_objects(vector.full_objects);
            let v = decode(&vector.bytes, file.profile, opts).unwrap().value;
            round_trip(&v, file.profile, &vector.origin);
            n += 1;
        }
    }
    assert!(n > 200, "only {n} vectors");
}
