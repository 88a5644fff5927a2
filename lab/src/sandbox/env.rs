//! The environment a sandboxed process gets: a documented list of the host's variables
//! (docs/security.md, "The environment"), the ones its starter sets, and the names asked for
//! (`--testee-env NAME`). Nothing else: CI secrets and tokens stay with the runner.

use std::ffi::OsString;

/// The host's variables passed on when set: where programs are, and how text is read and shown.
pub(crate) const PASSED: &[&str] = &["PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ", "TERM"];

/// The host's values of [`PASSED`] and of `extra`, where set.
pub fn passed(extra: &[String]) -> Vec<(OsString, OsString)> {
    PASSED
        .iter()
        .map(|n| n.to_string())
        .chain(extra.iter().cloned())
        .filter_map(|name| std::env::var_os(&name).map(|v| (OsString::from(name), v)))
        .collect()
}
