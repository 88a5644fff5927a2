//! Writing to stdout without panicking: a closed pipe (`gdmarshal corpus check | head`) ends the
//! program quietly with status 141, as a process killed by SIGPIPE does in a shell; any other
//! write error (a full disk, a closed stdout) is one message on stderr and status 2 (could not
//! finish).

use std::fmt;
use std::io::{self, Write};

/// The status of a program whose reader went away (128 + SIGPIPE).
pub const EXIT_BROKEN_PIPE: i32 = 141;

/// Writes formatted text to stdout, or ends the program as the module says.
pub fn write(args: fmt::Arguments<'_>) {
    let mut out = io::stdout().lock();
    if let Err(e) = out.write_fmt(args) {
        fail(e);
    }
}

/// Ends the program after a failed write to stdout.
pub fn fail(e: io::Error) -> ! {
    if e.kind() == io::ErrorKind::BrokenPipe {
        std::process::exit(EXIT_BROKEN_PIPE);
    }
    eprintln!("gdmarshal: cannot write to stdout: {e}");
    std::process::exit(i32::from(crate::EXIT_TROUBLE));
}

/// `println!` that never panics (see the module).
macro_rules! outln {
    () => { $crate::output::write(format_args!("\n")) };
    ($($arg:tt)*) => { $crate::output::write(format_args!("{}\n", format_args!($($arg)*))) };
}

/// `print!` that never panics (see the module).
macro_rules! out {
    ($($arg:tt)*) => { $crate::output::write(format_args!($($arg)*)) };
}
