//! The framing around an encoded value that `FileAccess.store_var` (3.x `File.store_var`),
//! `StreamPeer.put_var` and `PacketPeerStream.put_var` write, and their `get_var` read: a 4-byte
//! little-endian length of the encoded value, then the value as [`encode`](crate::encode())
//! writes it. The three write the same bytes (`corpus/framing/` holds each engine's own, also for
//! a `PacketPeerStream` over a `StreamPeerTCP`); they differ only in what a wrong length does,
//! which [`unframe`] follows per engine version. Other packet peers (`PacketPeerUDP`, ENet,
//! WebSocket) send the bare value with no length: [`Framing::None`].
//!
//! - a length shorter than the value: the value is decoded from that many bytes only, so the
//!   read fails on every engine; the reader has still moved past the length and that many bytes;
//! - a length past the end of the input: 3.2's `File.get_var` reads the bytes there are and
//!   decodes them; 3.6 and 4.6 refuse (`buff.size() != len`); a stream peer's `get_var` refuses
//!   on every engine, and a packet peer has no packet until all of it has arrived;
//! - a length longer than the value, with the bytes present: the value is decoded from the
//!   start and the reader moves past all `length` bytes (the rest is skipped).
//!
//! ```
//! use gdmarshal::framing::{Framing, frame, unframe};
//! use gdmarshal::{decode, encode, DecodeOptions, EncodeOptions, Profile, Variant};
//!
//! let godot46: Profile = "4.6".parse().unwrap();
//! let bytes = encode(&Variant::Int(7), godot46, EncodeOptions::default()).unwrap();
//! let file = frame(&bytes, Framing::StoreVar);
//! assert_eq!(file, [8, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0]);
//!
//! let unframed = unframe(&file, Framing::StoreVar, godot46).unwrap();
//! assert_eq!(unframed.consumed, 12);
//! let value = decode(unframed.payload, godot46, DecodeOptions::default()).unwrap().value;
//! assert_eq!(value, Variant::Int(7));
//! ```

use crate::profile::{Family, Profile};

/// Which framing surrounds the encoded value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Framing {
    /// The bare value, as `var_to_bytes` writes it; also a `PacketPeerUDP` datagram (and an ENet
    /// or WebSocket packet), which `put_var` sends without a length.
    None,
    /// A file written by `store_var`: length, then the value.
    StoreVar,
    /// `StreamPeer.put_var`: the same bytes as [`Framing::StoreVar`], but `get_var` refuses a
    /// length past the end on every engine.
    Stream,
    /// `PacketPeerStream.put_var` (a packet peer over a stream peer): the same bytes as
    /// [`Framing::StoreVar`], but a packet is only read once all of it has arrived.
    Packet,
}

/// Why framed bytes cannot be read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FramingError {
    /// Fewer than the 4 bytes of the length.
    #[error("the input has {len} bytes, fewer than the 4-byte length")]
    NoLength {
        /// Bytes there are.
        len: usize,
    },
    /// The length names more bytes than follow it, and this reader refuses that.
    #[error("the length says {length} bytes, only {left} follow")]
    PastEnd {
        /// The length read.
        length: u32,
        /// Bytes after the length.
        left: usize,
    },
}

/// The framed value's bytes and how far a reader moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unframed<'a> {
    /// The bytes to decode as the value.
    pub payload: &'a [u8],
    /// Bytes the reader moves past: the length and the `length` bytes (or what there was).
    pub consumed: usize,
}

/// `encoded` with its framing: unchanged for [`Framing::None`], else the 4-byte length first.
pub fn frame(encoded: &[u8], framing: Framing) -> Vec<u8> {
    if framing == Framing::None {
        return encoded.to_vec();
    }
    let mut out = Vec::with_capacity(encoded.len() + 4);
    out.extend_from_slice(&(encoded.len() as u32).to_le_bytes());
    out.extend_from_slice(encoded);
    out
}

/// Whether this engine's file reader accepts a length past the end of the file (3.2 reads the
/// bytes there are; 3.6 and 4.x check the size; 3.3 to 3.5 are not verified).
fn file_reads_short(profile: Profile) -> bool {
    profile.family == Family::Godot3 && profile.minor < 6
}

/// The value's bytes inside `input` framed as `framing`, as the engine's `get_var` finds them.
pub fn unframe(
    input: &[u8],
    framing: Framing,
    profile: Profile,
) -> Result<Unframed<'_>, FramingError> {
    if framing == Framing::None {
        return Ok(Unframed {
            payload: input,
            consumed: input.len(),
        });
    }
    let Some(head) = input.get(..4) else {
        return Err(FramingError::NoLength { len: input.len() });
    };
    let length = u32::from_le_bytes([head[0], head[1], head[2], head[3]]);
    let rest = &input[4..];
    match rest.get(..length as usize) {
        Some(payload) => Ok(Unframed {
            payload,
            consumed: 4 + payload.len(),
        }),
        None if framing == Framing::StoreVar && file_reads_short(profile) => Ok(Unframed {
            payload: rest,
            consumed: input.len(),
        }),
        None => Err(FramingError::PastEnd {
            length,
            left: rest.len(),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_length_comes_first() {
        // What 4.6.3's store_var(7) writes (corpus/framing/godot-4.6.3.stable.jsonl).
        assert_eq!(
            frame(&[2, 0, 0, 0, 7, 0, 0, 0], Framing::StoreVar),
            [8, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0]
        );
    }

    #[test]
    fn a_length_past_the_end_is_read_short_by_3_2_files_only() {
        let input = [100, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0];
        let p32: Profile = "3.2".parse().unwrap();
        let p46: Profile = "4.6".parse().unwrap();
        assert_eq!(
            unframe(&input, Framing::StoreVar, p32).unwrap().consumed,
            12
        );
        assert!(unframe(&input, Framing::StoreVar, p46).is_err());
        assert!(unframe(&input, Framing::Packet, p32).is_err());
        assert_eq!(
            unframe(&[1, 0], Framing::Packet, p46),
            Err(FramingError::NoLength { len: 2 })
        );
    }
}
