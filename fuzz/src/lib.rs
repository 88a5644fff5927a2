//! The fuzz targets' checks live in the library (`gdmarshal::properties`), where the quickcheck
//! tests and `tests/fuzz_replay.rs` call them too.

pub use gdmarshal::properties::*;
