//! # gdmarshal-lab
//!
//! Everything that proves the `gdmarshal` codec against real Godot engines: the [`oracle`]
//! (headless engines answering requests), the [`corpus`] of their recorded answers, differential
//! [`campaign`]s and the one-input [`differential`] check the fuzz target runs, and the
//! [`conform`]ance runner for third-party implementations. It prints nothing and parses no
//! command line; the `gdmarshal` binary (`cli/`) does both.

#![warn(missing_docs)]

pub mod campaign;
pub mod conform;
pub mod corpus;
pub mod differential;
pub mod group;
pub mod oracle;

use std::path::{Path, PathBuf};

/// The repository's root folder (the corpus, the oracle's Godot project and the findings live
/// there), as built from this source tree.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("lab/ sits inside the repository")
        .to_path_buf()
}
