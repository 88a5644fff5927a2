//! The engine oracle: real headless Godot engines answering decode and encode requests, so that
//! the codec can be checked against them byte for byte.
//!
//! An [`Engine`] owns one engine process running `godot_project/` (see its README for the
//! protocol), which serves many requests per frame over loopback TCP. The engine reports its own
//! version in a handshake, which picks the format [`Profile`]. A request that crashes or hangs
//! the engine is answered [`Verdict::Crashed`] or [`Verdict::Hung`] and kept as a [`Finding`];
//! the engine is restarted and every other request of the batch is still answered.
//!
//! ```no_run
//! use gdmarshal_lab::oracle::{self, Oracle, Verdict};
//!
//! for spec in oracle::discover() {
//!     let mut engine = oracle::Engine::start(spec, oracle::EngineConfig::default()).unwrap();
//!     let r = engine.decode(&[2, 0, 0, 0, 1, 0, 0, 0], false);
//!     assert_eq!(r.verdict, Verdict::Accepted);
//!     assert_eq!(r.value, Some(gdmarshal::Variant::Int(1)));
//! }
//! ```

mod auth;
mod discover;
mod engine;
mod error;
mod limits;
mod process;
mod protocol;
mod rejection;
mod requests;
mod result;
mod round;
mod scratch;

use std::time::Duration;

pub use discover::{
    EngineSpec, MANIFEST_ENGINES, Source, discover, engine_cache, from_env, from_manifest,
    from_path, manifest_path,
};
pub use engine::{Engine, EngineConfig, EngineInfo, START_TRIES, SUSPECT_TRIES, default_project};
pub use error::OracleError;
pub use limits::EngineLimits;
pub use rejection::{EngineRejection, engine_rejection};
pub use result::{
    DecodeResult, EncodeResult, Finding, Incident, IncidentRecord, IncidentSummary, Resolution,
    Verdict,
};

use gdmarshal::profile::Profile;
use gdmarshal::value::Variant;
use requests::{
    Answer, decode_line, decode_result, encode_line, encode_result, plain_verdict, sleep_line,
};

/// Bytes for the engine to decode.
#[derive(Clone, Copy, Debug)]
pub struct DecodeRequest<'a> {
    /// The input.
    pub bytes: &'a [u8],
    /// Decode with objects allowed (`bytes_to_var_with_objects`, 3.x `bytes2var(b, true)`).
    pub allow_objects: bool,
}

/// A value for the engine to build and encode.
#[derive(Clone, Copy, Debug)]
pub struct EncodeRequest<'a> {
    /// The value.
    pub value: &'a Variant,
    /// Which encoding [`EncodeResult::bytes`] returns (both are always made).
    pub full_objects: bool,
}

/// Any request, for mixed batches.
#[derive(Clone, Copy, Debug)]
pub enum Request<'a> {
    /// Decode bytes.
    Decode(DecodeRequest<'a>),
    /// Build and encode a value.
    Encode(EncodeRequest<'a>),
    /// Keep the engine busy this long (for testing timeouts).
    Sleep(Duration),
}

/// The answer to a [`Request`].
#[derive(Clone, Debug, PartialEq)]
pub enum Response {
    /// To a decode request.
    Decode(DecodeResult),
    /// To an encode request.
    Encode(EncodeResult),
    /// To a sleep request.
    Sleep(Verdict),
}

/// Something that answers decode and encode requests the way one Godot version does.
pub trait Oracle {
    /// A short name (e.g. `4.6`).
    fn name(&self) -> &str;

    /// The format profile of the engine.
    fn profile(&self) -> Profile;

    /// The version the engine reports, e.g. `4.6.3.stable` (what known-difference entries'
    /// engine globs match).
    fn version(&self) -> &str;

    /// Decodes many inputs; one result per request, in order.
    fn decode_batch(&mut self, requests: &[DecodeRequest<'_>]) -> Vec<DecodeResult>;

    /// Builds and encodes many values; one result per request, in order.
    fn encode_batch(&mut self, requests: &[EncodeRequest<'_>]) -> Vec<EncodeResult>;

    /// Serves a mixed batch; one response per request, in order.
    fn run(&mut self, requests: &[Request<'_>]) -> Vec<Response>;

    /// Takes the crashes and hangs seen since the last call, each with what became of the
    /// request that was running (an answerer that runs no process has none).
    fn take_incidents(&mut self) -> Vec<IncidentRecord> {
        Vec::new()
    }

    /// Connections refused so far because they did not prove to be this answerer's engine
    /// (see [`Engine::refused`]); none for an answerer that listens on nothing.
    fn refused(&self) -> usize {
        0
    }

    /// Decodes one input.
    fn decode(&mut self, bytes: &[u8], allow_objects: bool) -> DecodeResult {
        let mut r = self.decode_batch(&[DecodeRequest {
            bytes,
            allow_objects,
        }]);
        r.pop().expect("one result per request")
    }

    /// Builds and encodes one value.
    fn encode(&mut self, value: &Variant, full_objects: bool) -> EncodeResult {
        let mut r = self.encode_batch(&[EncodeRequest {
            value,
            full_objects,
        }]);
        r.pop().expect("one result per request")
    }
}

impl Oracle for Engine {
    /// Serves a mixed batch; one response per request, in order.
    fn run(&mut self, requests: &[Request<'_>]) -> Vec<Response> {
        let profile = self.info().profile;
        let lines: Vec<String> = requests
            .iter()
            .map(|r| match r {
                Request::Decode(d) => decode_line(d.bytes, d.allow_objects),
                Request::Encode(e) => encode_line(e.value, profile),
                Request::Sleep(t) => sleep_line(t.as_millis()),
            })
            .collect();
        let answers = self.exchange(&lines);
        requests
            .iter()
            .zip(answers)
            .map(|(r, a): (&Request, Answer)| match r {
                Request::Decode(_) => Response::Decode(decode_result(a, profile)),
                Request::Encode(e) => Response::Encode(encode_result(a, profile, e.full_objects)),
                Request::Sleep(_) => Response::Sleep(plain_verdict(a)),
            })
            .collect()
    }

    fn name(&self) -> &str {
        &self.spec().name
    }

    fn take_incidents(&mut self) -> Vec<IncidentRecord> {
        Engine::take_incidents(self)
    }

    fn version(&self) -> &str {
        &self.info().version
    }

    fn refused(&self) -> usize {
        Engine::refused(self)
    }

    fn profile(&self) -> Profile {
        self.info().profile
    }

    fn decode_batch(&mut self, requests: &[DecodeRequest<'_>]) -> Vec<DecodeResult> {
        let lines: Vec<String> = requests
            .iter()
            .map(|d| decode_line(d.bytes, d.allow_objects))
            .collect();
        let profile = self.profile();
        self.exchange(&lines)
            .into_iter()
            .map(|a| decode_result(a, profile))
            .collect()
    }

    fn encode_batch(&mut self, requests: &[EncodeRequest<'_>]) -> Vec<EncodeResult> {
        let profile = self.profile();
        let lines: Vec<String> = requests
            .iter()
            .map(|e| encode_line(e.value, profile))
            .collect();
        let answers = self.exchange(&lines);
        answers
            .into_iter()
            .zip(requests)
            .map(|(a, e)| encode_result(a, profile, e.full_objects))
            .collect()
    }
}

/// Starts engines in parallel (4.x takes most of a second to start), e.g. all of
/// [`discover`]'s: each spec with its started engine or why it did not start, in order.
pub fn start_all(
    specs: Vec<EngineSpec>,
    config: &EngineConfig,
) -> Vec<(EngineSpec, Result<Engine, OracleError>)> {
    let handles: Vec<_> = specs
        .into_iter()
        .map(|spec| {
            let config = config.clone();
            std::thread::spawn(move || (spec.clone(), Engine::start(spec, config)))
        })
        .collect();
    handles
        .into_iter()
        .map(|h| h.join().expect("engine start panicked"))
        .collect()
}

/// Starts the discovered engines named in `names` (all of them when `names` is empty), in
/// parallel; fails if none is found or any does not start.
pub fn start_named(names: &[String], config: &EngineConfig) -> Result<Vec<Engine>, String> {
    let specs: Vec<_> = discover()
        .into_iter()
        .filter(|s| names.is_empty() || names.contains(&s.name))
        .collect();
    if specs.is_empty() {
        return Err(
            "no engines found: run scripts/install-engines.sh or see `gdmarshal engines`".into(),
        );
    }
    start_all(specs, config)
        .into_iter()
        .map(|(spec, r)| r.map_err(|e| format!("engine {} did not start: {e}", spec.name)))
        .collect()
}
