//! The engine oracle: real headless Godot engines answering decode and encode requests, so that
//! the codec can be checked against them byte for byte.
//!
//! An [`Engine`] owns one engine process running `godot_project/` (see its README for the
//! protocol), which serves many requests per frame over loopback TCP. The engine reports its own
//! version in a handshake, which picks the format profile. A request that crashes or hangs
//! the engine is answered [`EngineVerdict::Crashed`] or [`EngineVerdict::Hung`] and kept as a [`Finding`];
//! the engine is restarted and every other request of the batch is still answered.
//!
//! An engine answers cases as an [`Answerer`](crate::model::answerer::Answerer), like this codec and
//! a testee; [`Engine::run`] and its siblings are the request-level API underneath.
//!
//! ```no_run
//! use gdmarshal_lab::oracle::{self, EngineVerdict};
//!
//! for spec in oracle::discover() {
//!     let mut engine = oracle::Engine::start(spec, oracle::EngineConfig::default()).unwrap();
//!     let r = engine.decode(&[2, 0, 0, 0, 1, 0, 0, 0], false);
//!     assert_eq!(r.verdict, EngineVerdict::Accepted);
//!     assert_eq!(r.value, Some(gdmarshal::Variant::Int(1)));
//! }
//! ```

mod answerer;
mod auth;
mod batch;
pub mod classes;
mod config;
mod discover;
mod engine;
mod engine_limits;
mod error;
mod exchange;
mod framing;
pub mod install;
mod node_bytes;
mod placeholders;
mod process;
mod protocol;
mod requests;
mod result;
mod round;
mod scratch;
mod widen;

use std::time::Duration;

pub use crate::paths::engine_cache;
pub use config::EngineConfig;
pub use discover::{EngineSpec, Source, discover, from_manifest, manifest_path};
pub use engine::Engine;
pub use engine::{DOUBLE_SUFFIX, EngineInfo};
pub use engine_limits::EngineLimits;
pub use error::OracleError;
pub use exchange::SUSPECT_TRIES;
pub use framing::{AskError, Unframed, Via};
pub use result::{DecodeResult, EncodeResult, Finding};
pub use result::{EngineVerdict, IncidentSummary};

use gdmarshal::value::Variant;

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
    Sleep(EngineVerdict),
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

/// Starts the discovered engines named in `names` (when `names` is empty, all of them that are
/// [`EngineSpec::in_all`]), in parallel; fails if none is found or any does not start.
pub fn start_named(names: &[String], config: &EngineConfig) -> Result<Vec<Engine>, StartError> {
    let specs: Vec<_> = discover()
        .into_iter()
        .filter(|s| {
            if names.is_empty() {
                s.in_all
            } else {
                names.contains(&s.name)
            }
        })
        .collect();
    if specs.is_empty() {
        return Err(StartError::NoEngines);
    }
    start_all(specs, config)
        .into_iter()
        .map(|(spec, r)| {
            r.map_err(|error| StartError::DidNotStart {
                engine: spec.name,
                error,
            })
        })
        .collect()
}

/// Why [`start_named`] could not start its engines.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum StartError {
    /// No engine was found.
    #[error("no engines found: run scripts/install-engines.sh or see `gdmarshal engines`")]
    NoEngines,
    /// An engine did not start.
    #[error("engine {engine} did not start: {error}")]
    DidNotStart {
        /// The engine's name.
        engine: String,
        /// Why.
        error: OracleError,
    },
}
