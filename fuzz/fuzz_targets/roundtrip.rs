#![no_main]
//! See `check_roundtrip` in src/properties.rs for the property.

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Err(e) = gdmarshal_fuzz::check_roundtrip(data) {
        panic!("{e}");
    }
});
