//! The `gdmarshal` binary: see `gdmarshal --help`.

use std::process::ExitCode;

/// Values nest 1024 levels deep and their JSON twice that; generic recursion (clone, drop,
/// comparison, serialization) over such trees needs more than the main thread's 8 MiB in debug
/// builds. Only the pages actually touched are ever committed.
const STACK: usize = 1 << 30;

fn main() -> ExitCode {
    match std::thread::Builder::new()
        .name("gdmarshal".into())
        .stack_size(STACK)
        .spawn(gdmarshal::cli::main)
    {
        Ok(t) => t.join().unwrap_or(ExitCode::FAILURE),
        Err(e) => {
            eprintln!("gdmarshal: cannot start: {e}");
            ExitCode::FAILURE
        }
    }
}
