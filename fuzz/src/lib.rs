//! The fuzz targets' checks live in the library (`gdmarshal_testkit::properties`), where the quickcheck
//! tests and `tests/fuzz_replay.rs` call them too.

pub use gdmarshal_testkit::properties::*;
