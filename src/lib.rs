//! # gdmarshal
//!
//! The reference implementation of Godot's binary Variant format: what `var_to_bytes` /
//! `bytes_to_var` (Godot 4) and `var2bytes` / `bytes2var` (Godot 3) write and accept, also used by
//! `FileAccess.store_var` and `PacketPeer.put_var`. Checked byte for byte against real engines.
//!
//! ## Encoding and decoding
//!
//! [`encode`](fn@encode) writes a [`Variant`] as a [`Profile`]'s engine does; [`decode`](fn@decode)
//! reads one back, as the engine does, and says how many bytes it took.
//!
//! ```
//! use gdmarshal::{decode, encode, DecodeOptions, EncodeOptions, Profile, Variant};
//!
//! let godot46: Profile = "4.6".parse().unwrap();
//! let bytes = encode(&Variant::Int(1), godot46, EncodeOptions::default()).unwrap();
//! assert_eq!(bytes, [2, 0, 0, 0, 1, 0, 0, 0]);
//! let back = decode(&bytes, godot46, DecodeOptions::default()).unwrap();
//! assert_eq!(back.value, Variant::Int(1));
//! assert_eq!(back.consumed, 8);
//! ```
//!
//! Bytes the engine refuses are a [`DecodeError`]: the offset of the problem and what it is. The
//! kinds of error are `#[non_exhaustive]` (a new engine version can bring a new one), so a match
//! on them ends with a wildcard arm:
//!
//! ```
//! use gdmarshal::error::DecodeErrorKind;
//! use gdmarshal::{decode, DecodeOptions, Profile};
//!
//! let godot46: Profile = "4.6".parse().unwrap();
//! // An int whose 4-byte payload is cut after one byte.
//! let e = decode(&[2, 0, 0, 0, 1], godot46, DecodeOptions::default()).unwrap_err();
//! assert_eq!(e.offset, 4);
//! let missing = match e.kind {
//!     DecodeErrorKind::Truncated { needed, left, .. } => Some(needed - left),
//!     _ => None,
//! };
//! assert_eq!(missing, Some(3));
//! ```
//!
//! ## Tagged JSON
//!
//! [`json::to_json`] and [`json::from_json`] turn a value into the tagged JSON of
//! docs/tagged-json.md and back, exactly (64-bit ints as strings, float bits kept);
//! [`json::write_json`] and [`json::read_json`] do the same with JSON text, without a tree.
//!
//! ```
//! use gdmarshal::float::FloatStyle;
//! use gdmarshal::json::{from_json, to_json};
//! use gdmarshal::value::Array;
//! use gdmarshal::{Profile, Variant};
//!
//! let godot46: Profile = "4.6".parse().unwrap();
//! let value = Variant::Array(Array::new(vec![Variant::Int(1), Variant::String("hi".into())]));
//! let tree = to_json(&value, godot46, FloatStyle::Shortest);
//! assert_eq!(
//!     tree.to_string(),
//!     r#"{"type":"Array","value":[{"type":"int","value":"1"},{"type":"String","value":"hi"}]}"#
//! );
//! assert_eq!(from_json(&tree, godot46).unwrap(), value);
//! ```
//!
//! ## The rest
//!
//! [`types`] is the one table of types and layouts, and [`profile`] holds what differs between
//! versions; [`value`] has the types a [`Variant`] holds, and [`float`] the float tokens of the
//! tagged JSON. [`framing`] adds and reads the length that `store_var` and `put_var` write before
//! a value; [`pool`] recycles the buffers of decoded values for the next decode; [`inspect`] prints
//! an annotated dump of bytes, built on the decoder's [`trace`]; [`header`] has the bits of the
//! 4-byte header that starts every value; [`error`] has the errors of decoding and encoding;
//! [`classes`] holds a value against an engine's classes, for callers who know them.
//!
//! This crate is the codec alone: it depends on serde, thiserror and small data crates, never on
//! process, command-line or file-system machinery. The engines, corpus, campaigns and conformance
//! runner that prove it against real Godot are the `gdmarshal-lab` crate (`lab/`), and the
//! `gdmarshal` binary is `gdmarshal-cli` (`cli/`).

#![deny(missing_docs)]
// A public signature must not use a type of the private modules below, which users cannot name.
#![warn(unnameable_types)]

// The public modules are what a user of the codec reaches for; the rest are the codec's own
// helpers (byte reading, string storage and UTF-8 rules, key equality, typed-container
// conversions), whose items reach users through the public modules where a signature needs them.
pub mod classes;
mod convert;
pub mod decode;
pub mod encode;
pub mod error;
pub mod excerpt;
pub mod float;
pub mod framing;
#[cfg(feature = "generate")]
pub mod generate;
pub mod header;
pub mod hex;
pub mod inspect;
#[cfg(feature = "json")]
pub mod json;
mod keys;
mod packed;
pub mod pool;
pub mod profile;
mod reader;
mod rotation;
mod stack;
mod string;
mod stringify;
mod text;
mod to_float;
pub mod trace;
pub mod typed;
pub mod types;
mod utf8;
pub mod value;

pub use decode::{DecodeOptions, Decoded, decode};
pub use encode::{EncodeOptions, encode};
pub use error::{DecodeError, EncodeError};
pub use profile::Profile;
pub use types::VariantType;
pub use value::Variant;
