//! Test support for gdmarshal's own crates; not published, not shipped.
//!
//! - [`properties`]: the codec's properties as plain functions, which the fuzz targets, the
//!   quickcheck tests and the replay of saved crash inputs share.
//! - [`process`]: every process a test starts leads its own process group and dies with the
//!   test, so that a failed assertion or a hang leaves nothing running.
//! - [`engines`] (feature `engines`): the one policy for a test that needs a Godot engine. An
//!   engine that is not installed is a note and a skip on a developer's machine, and a failure
//!   where the `CI` variable is set, because CI installs every engine it tests against
//!   (scripts/install-engines.sh) and a skip there would hide that it did not.
#![cfg(unix)]

#[cfg(feature = "engines")]
pub mod engines;
pub mod process;
pub mod properties;

pub use process::{Group, command, signal};
