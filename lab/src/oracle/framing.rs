//! Requests about the framing around an encoded value: the bytes `store_var` (files) and
//! `put_var` (stream and packet peers) write, what `get_var` reads back from given bytes, and
//! the engine's own Basis axes (to settle the wire's component order).

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD as BASE64;
use serde_json::{Value, json};

use super::engine::Engine;
use super::requests::open;
use super::result::EngineVerdict;
use gdmarshal::float::FloatStyle;
use gdmarshal::json::to_json;
use gdmarshal::value::Variant;

/// Which engine API writes or reads the framed value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Via {
    /// `FileAccess.store_var` / `get_var` (3.x `File`), through a file in `user://`.
    File,
    /// `StreamPeer.put_var` / `get_var`, on a `StreamPeerBuffer`.
    Stream,
    /// `PacketPeer.put_var` / `get_var`, on a `PacketPeerStream` over a `StreamPeerBuffer`.
    Packet,
    /// `PacketPeer.put_var` / `get_var`, on a `PacketPeerStream` over a `StreamPeerTCP` on
    /// loopback.
    Tcp,
    /// `PacketPeerUDP.put_var` / `get_var`, one datagram on loopback.
    Udp,
}

impl Via {
    /// The APIs on in-memory buffers and files, in report order.
    pub(crate) const ALL: [Via; 3] = [Via::File, Via::Stream, Via::Packet];
    /// The APIs over loopback sockets, in report order.
    pub const NET: [Via; 2] = [Via::Tcp, Via::Udp];

    /// The name on the wire and in the corpus.
    pub fn name(self) -> &'static str {
        match self {
            Via::File => "file",
            Via::Stream => "stream",
            Via::Packet => "packet",
            Via::Tcp => "tcp",
            Via::Udp => "udp",
        }
    }

    /// The oracle's ops for writing and reading through this API.
    fn ops(self) -> (&'static str, &'static str) {
        match self {
            Via::Tcp | Via::Udp => ("frame_net", "unframe_net"),
            _ => ("frame", "unframe"),
        }
    }
}

/// Why a framing request got no usable answer.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum AskError {
    /// The engine gave no reply.
    #[error("no answer to the request")]
    NoAnswer,
    /// The reply is a verdict (crashed, hung, rejected, …), not an answer.
    #[error("{0:?}")]
    Verdict(EngineVerdict),
    /// The reply holds no `bytes`.
    #[error("the engine wrote nothing: {0}")]
    NoBytes(Value),
    /// Its `bytes` are not base64.
    #[error("{0}")]
    Base64(#[from] base64::DecodeError),
    /// The reply to a `classes` request holds no list of `[name, parent, instantiable]`.
    #[error("the engine's answer is no class list: {0}")]
    NoClasses(Value),
    /// The reply to a `class_defaults` request holds something other than each class's bytes
    /// (a full object of that class, as the codec reads it) and the names of its other
    /// properties.
    #[error("the engine's answer is no list of class defaults: {0}")]
    NoDefaults(Value),
}

/// What `get_var` read from given bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct Unframed {
    /// The value read, as the engine's tagged-JSON tree (Nil when `get_var` failed).
    pub tree: Value,
    /// How many bytes the reader advanced.
    pub position: u64,
}

impl Engine {
    pub(super) fn ask_one(&mut self, line: String) -> Result<Value, AskError> {
        let reply = self.exchange(&[line]).pop().ok_or(AskError::NoAnswer)?;
        open(reply, &mut String::new(), &mut Vec::new()).map_err(AskError::Verdict)
    }

    /// The bytes the engine writes for `value` through `via` (`full_objects` as given).
    pub fn frame(&mut self, value: &Variant, via: Via, objects: bool) -> Result<Vec<u8>, AskError> {
        let profile = self.info().profile;
        let line = json!({
            "op": via.ops().0,
            "via": via.name(),
            "objects": objects,
            "tree": to_json(value, profile, FloatStyle::Bits),
        })
        .to_string();
        let j = self.ask_one(line)?;
        let Some(b) = j.get("bytes").and_then(Value::as_str) else {
            return Err(AskError::NoBytes(j));
        };
        Ok(BASE64.decode(b)?)
    }

    /// What the engine's `get_var` reads from `bytes` through `via`.
    pub fn unframe(&mut self, bytes: &[u8], via: Via, objects: bool) -> Result<Unframed, AskError> {
        let line = json!({
            "op": via.ops().1,
            "via": via.name(),
            "objects": objects,
            "bytes": BASE64.encode(bytes),
        })
        .to_string();
        let j = self.ask_one(line)?;
        Ok(Unframed {
            tree: j.get("value").cloned().unwrap_or(Value::Null),
            position: j.get("position").and_then(Value::as_u64).unwrap_or(0),
        })
    }

    /// A Basis built from the axes (1,2,3), (4,5,6), (7,8,9): its `x`, `y`, `z` and `[0]` as the
    /// engine reports them, and the bytes of it and of a Transform3D with origin (10,11,12).
    pub fn axes(&mut self) -> Result<Value, AskError> {
        self.ask_one(r#"{"op":"axes"}"#.to_string())
    }
}
