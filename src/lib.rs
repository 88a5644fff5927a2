//! # gdmarshal
//!
//! The reference implementation of Godot's binary Variant format: what `var_to_bytes` /
//! `bytes_to_var` (Godot 4) and `var2bytes` / `bytes2var` (Godot 3) write and accept, also used by
//! `FileAccess.store_var` and `PacketPeer.put_var`. Checked byte for byte against real engines.
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
//! The pieces: [`types`] is the one table of types and layouts; [`profile`] holds what differs
//! between versions; [`decode`](mod@decode) and [`encode`](mod@encode) are the codec; [`json`] is the
//! tagged-JSON schema shared by the CLI, the corpus and the conformance runner; [`inspect`] prints an
//! annotated dump.
//!
//! This crate is the codec alone: it depends on serde, thiserror and small data crates, never on
//! process, command-line or file-system machinery. The engines, corpus, campaigns and conformance
//! runner that prove it against real Godot are the `gdmarshal-lab` crate (`lab/`), and the
//! `gdmarshal` binary is `gdmarshal-cli` (`cli/`).

#![warn(missing_docs)]

mod convert;
pub mod decode;
pub mod encode;
pub mod error;
pub mod float;
pub mod framing;
#[cfg(feature = "test-support")]
pub mod generate;
pub mod header;
pub mod inspect;
pub mod json;
pub mod keys;
mod packed;
pub mod pool;
pub mod profile;
#[cfg(feature = "test-support")]
pub mod properties;
pub mod reader;
mod stack;
pub mod string;
pub mod text;
pub mod trace;
pub mod typed;
pub mod types;
pub mod utf8;
pub mod value;
#[cfg(feature = "test-support")]
pub mod vectors;

pub use decode::{DecodeOptions, Decoded, decode};
pub use encode::{EncodeOptions, encode};
pub use error::{DecodeError, EncodeError};
pub use profile::Profile;
pub use types::VariantType;
pub use value::Variant;
