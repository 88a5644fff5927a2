//! Helpers shared by the integration tests.

use std::io::Write;
use std::process::{Command, Output, Stdio};

/// Runs the `gdmarshal` binary with `args`, feeding `input` on stdin.
pub fn gdmarshal(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gdmarshal"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gdmarshal runs");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(input)
        .expect("stdin takes the input");
    child.wait_with_output().expect("gdmarshal finishes")
}
