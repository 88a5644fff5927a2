//! The codec's public API changes only on purpose: every public item of the `gdmarshal` crate, as
//! rustdoc (nightly, JSON) describes it, is listed in docs/codec-api.txt, and this test fails when
//! the crate's API and that list differ, naming the items added and removed. A change that means
//! to change the API writes the list again (`GDMARSHAL_WRITE_API=1 cargo test -p
//! gdmarshal-testkit --test codec_api`) and shows the change in the same commit.

use std::collections::BTreeSet;
use std::path::Path;

#[test]
fn the_codec_api_is_the_listed_one() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let json = rustdoc_json::Builder::default()
        .toolchain("nightly")
        .manifest_path(root.join("Cargo.toml"))
        .package("gdmarshal")
        .all_features(false)
        .silent(true)
        .build()
        .expect("rustdoc writes the codec's JSON (the nightly toolchain is installed)");
    let api = public_api::Builder::from_rustdoc_json(json)
        .omit_blanket_impls(true)
        .omit_auto_trait_impls(true)
        .omit_auto_derived_impls(false)
        .build()
        .expect("the JSON reads as an API");
    let now = format!("{api}");
    let listed_path = root.join("docs/codec-api.txt");
    if std::env::var_os("GDMARSHAL_WRITE_API").is_some() {
        std::fs::write(&listed_path, &now).expect("docs/codec-api.txt is written");
    }
    let listed = std::fs::read_to_string(&listed_path).expect("docs/codec-api.txt reads");
    let lines = |s: &str| s.lines().map(String::from).collect::<BTreeSet<_>>();
    let (now_lines, listed_lines) = (lines(&now), lines(&listed));
    let added: Vec<_> = now_lines.difference(&listed_lines).collect();
    let removed: Vec<_> = listed_lines.difference(&now_lines).collect();
    assert!(
        added.is_empty() && removed.is_empty(),
        "the codec's public API is not docs/codec-api.txt (write it again with \
         GDMARSHAL_WRITE_API=1 if the change is meant):\nadded:\n  {}\nremoved:\n  {}",
        added
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n  "),
        removed
            .iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n  ")
    );
    // The list is the whole API, not an empty or cut file that agrees with a broken build.
    assert!(now_lines.contains("pub fn gdmarshal::decode(&[u8], gdmarshal::profile::Profile, gdmarshal::decode::DecodeOptions) -> core::result::Result<gdmarshal::decode::Decoded, gdmarshal::error::DecodeError>"));
}
