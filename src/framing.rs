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

impl Framing {
    /// Every framing with its name, as `gdmarshal --framing` and the bindings' `framing` option
    /// spell it.
    pub const NAMED: [(&'static str, Framing); 4] = [
        ("none", Framing::None),
        ("store-var", Framing::StoreVar),
        ("stream", Framing::Stream),
        ("packet", Framing::Packet),
    ];

    /// The framing of this name (`"store-var"`), if there is one.
    ///
    /// ```
    /// use gdmarshal::framing::Framing;
    ///
    /// assert_eq!(Framing::from_name("store-var"), Some(Framing::StoreVar));
    /// assert_eq!(Framing::from_name("store_var"), None);
    /// ```
    pub fn from_name(name: &str) -> Option<Framing> {
        Framing::NAMED
            .iter()
            .find(|(n, _)| *n == name)
            .map(|&(_, f)| f)
    }
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
    fn every_framing_is_found_by_its_name_and_only_by_it() {
        for (name, framing) in Framing::NAMED {
            assert_eq!(Framing::from_name(name), Some(framing), "{name}");
        }
        assert_eq!(Framing::from_name("store_var"), None);
    }

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

    fn profile(version: &str) -> Profile {
        version.parse().unwrap()
    }

    fn int_in(payload: &[u8], p: Profile) -> Option<i64> {
        match crate::decode(payload, p, crate::DecodeOptions::default()) {
            Ok(d) => match d.value {
                crate::Variant::Int(i) => Some(i),
                _ => None,
            },
            Err(_) => None,
        }
    }

    #[test]
    fn a_bare_value_is_written_and_read_as_it_is() {
        // The `write/udp/String_ab` and `read/udp/bare` records of
        // corpus/framing/godot-4.6.3.stable.jsonl: a packet peer sends and reads the bare value.
        let string_ab = [4, 0, 0, 0, 2, 0, 0, 0, 0x61, 0x62, 0, 0];
        assert_eq!(frame(&string_ab, Framing::None), string_ab);
        let seven = [2, 0, 0, 0, 7, 0, 0, 0];
        let u = unframe(&seven, Framing::None, profile("4.6")).unwrap();
        assert_eq!((u.payload, u.consumed), (&seven[..], 8));
        // `write/file/String_ab`: the 12 bytes of the value after their length.
        let mut framed = vec![12, 0, 0, 0];
        framed.extend_from_slice(&string_ab);
        assert_eq!(frame(&string_ab, Framing::StoreVar), framed);
        assert_eq!(frame(&string_ab, Framing::Stream), framed);
    }

    #[test]
    fn every_engine_reads_from_the_start_and_moves_past_the_length_it_is_given() {
        // The `read/{file,stream,packet}/*` records of corpus/framing/godot-{3.2.3,3.6.2,4.6.3}
        // .stable.jsonl, the same on all three engines: the tree and the position each engine
        // answered.
        for version in ["3.2", "3.6", "4.6"] {
            let p = profile(version);
            for framing in [Framing::StoreVar, Framing::Stream, Framing::Packet] {
                // exact: int 7, position 12.
                let exact = [8, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0];
                let u = unframe(&exact, framing, p).unwrap();
                assert_eq!((u.payload, u.consumed), (&exact[4..], 12));
                assert_eq!(int_in(u.payload, p), Some(7));
                // length_long_bytes_present: int 7 read from the start, position 16.
                let long = [12, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0, 0xff, 0xff, 0xff, 0xff];
                let u = unframe(&long, framing, p).unwrap();
                assert_eq!((u.payload, u.consumed), (&long[4..], 16));
                assert_eq!(int_in(u.payload, p), Some(7));
                // length_zero: no value (Nil), position 4.
                let u = unframe(&[0, 0, 0, 0], framing, p).unwrap();
                assert_eq!((u.payload, u.consumed), (&[][..], 4));
                // no_length: no value.
                assert_eq!(
                    unframe(&[8, 0], framing, p),
                    Err(FramingError::NoLength { len: 2 })
                );
            }
            // length_short: a file or stream peer moves past the 4 bytes named (position 8) and
            // reads no value from them (Nil).
            let short = [4, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0];
            let u = unframe(&short, Framing::StoreVar, p).unwrap();
            assert_eq!((u.payload, u.consumed), (&short[4..8], 8));
            assert_eq!(int_in(u.payload, p), None);
        }
    }

    #[test]
    fn only_3_2_files_read_a_length_past_the_end() {
        // `read/*/length_past_end` (a length of 100 before 8 bytes): 3.2.3's file reads int 7
        // from the bytes there are (position 12); its stream and packet peers, and every reader
        // of 3.6.2 and 4.6.3, read nothing (Nil).
        let input = [100, 0, 0, 0, 2, 0, 0, 0, 7, 0, 0, 0];
        let u = unframe(&input, Framing::StoreVar, profile("3.2")).unwrap();
        assert_eq!((u.payload, u.consumed), (&input[4..], 12));
        assert_eq!(int_in(u.payload, profile("3.2")), Some(7));
        let refused = Err(FramingError::PastEnd {
            length: 100,
            left: 8,
        });
        for (version, framing) in [
            ("3.2", Framing::Stream),
            ("3.2", Framing::Packet),
            ("3.6", Framing::StoreVar),
            ("3.6", Framing::Stream),
            ("4.6", Framing::StoreVar),
            ("4.6", Framing::Packet),
        ] {
            assert_eq!(
                unframe(&input, framing, profile(version)),
                refused,
                "{version}"
            );
        }
    }
}
