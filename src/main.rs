//! The `gdmarshal` binary: see `gdmarshal --help`.

fn main() -> std::process::ExitCode {
    gdmarshal::cli::main()
}
