//! The page's section on files and packets: what `store_var` and `put_var` put around a value on
//! each transport, and what `get_var` does with a length that does not fit, as the framing corpus
//! recorded them (corpus/framing/).

use std::fmt::Write as _;

use gdmarshal::profile::Profile;

use super::rst::{grid, heading};
use crate::framing_corpus::FramingRecord;

/// One transport the section states: the engine API, whether a 4-byte length comes before the
/// value, and the framing corpus's name for it (`via`).
pub struct Transport {
    /// The API on a 4.x page.
    pub api4: &'static str,
    /// The API on a 3.x page.
    pub api3: &'static str,
    /// Whether the bytes start with the 4-byte length.
    pub length: bool,
    /// The framing corpus's `via` for it.
    pub via: Option<&'static str>,
}

/// The transports of the section, in page order.
pub const TRANSPORTS: &[Transport] = &[
    Transport {
        api4: "``FileAccess.store_var``",
        api3: "``File.store_var``",
        length: true,
        via: Some("file"),
    },
    Transport {
        api4: "``StreamPeer.put_var`` on a ``StreamPeerBuffer``",
        api3: "``StreamPeer.put_var`` on a ``StreamPeerBuffer``",
        length: true,
        via: Some("stream"),
    },
    Transport {
        api4: "``PacketPeerStream.put_var`` over a ``StreamPeerBuffer``",
        api3: "``PacketPeerStream.put_var`` over a ``StreamPeerBuffer``",
        length: true,
        via: Some("packet"),
    },
    Transport {
        api4: "``PacketPeerStream.put_var`` over a ``StreamPeerTCP``",
        api3: "``PacketPeerStream.put_var`` over a ``StreamPeerTCP``",
        length: true,
        via: Some("tcp"),
    },
    Transport {
        api4: "``PacketPeerUDP.put_var``",
        api3: "``PacketPeerUDP.put_var``",
        length: false,
        via: Some("udp"),
    },
];

/// The words a transport's line uses for bytes with a length before the value.
pub const WITH_LENGTH: &str = "length, then value";
/// The words a transport's line uses for the bare value.
pub const BARE: &str = "value only";

/// The bytes an engine of this page's version recorded for `put_var(7)` through `via`.
pub(crate) fn recorded_seven<'a>(
    framing: &'a [(String, Vec<FramingRecord>)],
    p: Profile,
    via: &str,
) -> Option<&'a str> {
    let name = format!("write/{via}/int_7");
    framing
        .iter()
        .rev()
        .find(|(v, _)| v.starts_with(&format!("{p}.")))
        .and_then(|(_, rs)| rs.iter().find(|r| r.name == name))
        .and_then(|r| r.output.as_deref())
}

/// The section.
pub fn section(md: &mut String, p: Profile, framing: &[(String, Vec<FramingRecord>)]) {
    md.push_str(&heading("Files and packets", '-'));
    let (to, from) = if p.major() == 3 {
        ("var2bytes", "bytes2var")
    } else {
        ("var_to_bytes", "bytes_to_var")
    };
    writeln!(
        md,
        "``store_var`` on a file and ``put_var`` on a stream peer put a u32 before the value: the number\n\
         of bytes of the encoded value, padding included. ``get_var`` reads that number, then decodes the\n\
         value from that many bytes. A packet peer's ``put_var`` sends the encoded value as one packet.\n\
         Of the packet peers, only ``PacketPeerStream`` puts the number before each packet, as it has to\n\
         cut a stream into packets; on ``PacketPeerUDP``, ENet and WebSocket a packet is exactly what\n\
         ``{to}`` returns, and ``{from}`` reads it. The length is little-endian like the value, except\n\
         on {swapped}: there the length alone is big-endian (``PacketPeerStream`` always writes it\n\
         little-endian). The bytes each transport carries for the int 7:\n",
        swapped = if p.major() == 3 {
            "a file whose ``endian_swap`` property is set or a stream peer whose ``big_endian`` is"
        } else {
            "a file or stream peer whose ``big_endian`` property is set"
        }
    )
    .ok();
    for t in TRANSPORTS {
        let api = if p.major() == 3 { t.api3 } else { t.api4 };
        let what = if t.length { WITH_LENGTH } else { BARE };
        let seen = t
            .via
            .and_then(|v| recorded_seven(framing, p, v))
            .map(|b| format!(": ``{b}``"))
            .unwrap_or_default();
        writeln!(md, "- {api}: {what}{seen}").ok();
    }
    md.push('\n');
    let rows = vec![
        vec![
            "0".into(),
            "4".into(),
            "u32".into(),
            "n, the size of the encoded value".into(),
        ],
        vec![
            "4".into(),
            "n".into(),
            "bytes".into(),
            "the encoded value, header and padding included".into(),
        ],
    ];
    md.push_str("With the length in front:\n\n");
    md.push_str(&grid(&["Offset", "Size", "Encoding", "Field"], &rows));
    md.push_str(&length_rules(p));
    writeln!(
        md,
        "- Objects: ``full_objects`` and ``allow_objects`` work as the same arguments of ``{to}`` and\n  ``{from}``.\n"
    )
    .ok();
    md.push_str(
        "A packet peer refuses to send a value longer than its ``encode_buffer_max_size``, and\n\
         ``PacketPeerStream`` refuses packets that do not fit its buffers, whose size is set by the project\n\
         setting ``network/limits/packet_peer_stream/max_buffer_po2``.\n\n",
    );
}

/// What `get_var` does with a length that does not match the value (checked against the framing
/// corpus by lab/tests/spec_page.rs, sentence by sentence).
pub(crate) fn length_rules(p: Profile) -> String {
    let mut s = String::new();
    s.push_str("What ``get_var`` does when the length and the value disagree:\n\n");
    s.push_str(SHORT);
    s.push_str(LONG);
    s.push_str(if p.major() == 3 {
        PAST_END_3
    } else {
        PAST_END_4
    });
    s.push_str(PEERS);
    s
}

/// A length shorter than the value.
pub const SHORT: &str = "- Less than the value needs: the read fails, and the file or stream has moved past the length\n  and the bytes it counted.\n";
/// A length longer than the value.
pub const LONG: &str = "- More than the value needs, with all those bytes present: the value is read, and the extra\n  bytes are skipped.\n";
/// A file length past the end, 3.x.
pub const PAST_END_3: &str = "- Beyond the end of the file: 3.2 decodes the bytes there followed by whatever its buffer held\n  up to the length; 3.6 fails.\n";
/// A file length past the end, 4.x.
pub const PAST_END_4: &str = "- Beyond the end of the file: the read fails.\n";
/// Peers and a length past the end of the data.
pub const PEERS: &str = "- 2^31 or more: the read fails.\n- Beyond the data a ``StreamPeerBuffer`` holds: the read fails. A ``StreamPeerTCP`` waits for\n  the bytes instead, and ``PacketPeerStream`` hands a packet over only once all of it has\n  arrived.\n";
