//! # gdmarshal-lab
//!
//! Everything that proves the `gdmarshal` codec against real Godot engines: the [`oracle`]
//! (headless engines answering requests), the [`corpus`] of their recorded answers, differential
//! [`campaign`]s and the one-input [`differential`] check the fuzz target runs, and the
//! [`conform`]ance runner for third-party implementations; and the [`report`] made from them
//! (docs/report.md and the corrected spec pages). It prints nothing and parses no command line;
//! the `gdmarshal` binary (`cli/`) does both.
//!
//! One [`model`] runs through all of them: a [`Case`] is asked of an [`Answerer`] (a live engine,
//! [`ThisCodec`], a testee), which gives an [`Answer`]; [`judge()`] compares an answer with an
//! engine's recorded one and returns an [`Outcome`].
//!
//! The modules are layered, each using only those below it (`tests/layers.rs` fails on an import
//! cycle): at the bottom the helpers (`bounded`, `error`, `shown`, `paths`, `group`, `fence`) and
//! the `model`; then `this_codec`, `sandbox`, `oracle` and `versions`; the `corpus` (which asks
//! the oracle for new records); `framing_corpus`, `campaign`, `differential` and `conform`; at the top
//! `matrix` and `report`, which nothing in the lab imports.

#![warn(missing_docs)]
// Items other crates do not use are pub(crate), and the docs of public ones still point at them:
// contributors read the lab's docs built with --document-private-items.
#![allow(rustdoc::private_intra_doc_links)]

pub mod bounded;
pub mod campaign;
pub mod conform;
pub mod corpus;
pub mod differential;
pub mod error;
pub mod fence;
pub mod framing_corpus;
pub mod group;
pub mod matrix;
/// The model every room shares (the `gdmarshal-model` crate, below the lab).
pub use gdmarshal_model as model;
pub mod oracle;
pub mod paths;
pub mod report;
pub mod sandbox;
pub mod shown;
pub(crate) mod this_codec;
pub mod versions;

pub use model::{Answer, Answerer, Case, Direction, EngineAnswerer, Outcome, judge};

pub use model::Reencoded;
pub use this_codec::ThisCodec;

use std::path::{Path, PathBuf};

/// The repository's root folder (the corpus, the oracle's Godot project and the findings live
/// there), as built from this source tree.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("lab/ sits inside the repository")
        .to_path_buf()
}
