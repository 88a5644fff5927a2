//! `--engine-memory`, `--engine-file-size`, `--engine-open-files`: the resource limits every
//! engine this run starts is fenced with (defaults: `oracle::EngineLimits`, docs/security.md).

use std::sync::OnceLock;

use gdmarshal_lab::oracle::{EngineConfig, EngineLimits};

/// The engine limits, as flags every subcommand that starts engines takes (and only those:
/// `decode`, `encode` and `inspect` start none).
#[derive(clap::Args, Debug, Clone)]
pub struct LimitArgs {
    /// Address space of each engine process, in MiB (default 4096).
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(64..=1 << 30))]
    engine_memory: Option<u64>,
    /// Largest file an engine may write, in MiB (default 64).
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..=1 << 30))]
    engine_file_size: Option<u64>,
    /// Open files of each engine process (default 256).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(16..=1 << 20))]
    engine_open_files: Option<u64>,
}

static LIMITS: OnceLock<EngineLimits> = OnceLock::new();

impl LimitArgs {
    /// Records the limits for the engines this run starts.
    pub fn install(&self) {
        let d = EngineLimits::default();
        let limits = EngineLimits {
            address_space: self.engine_memory.map_or(d.address_space, |m| m << 20),
            file_size: self.engine_file_size.map_or(d.file_size, |m| m << 20),
            open_files: self.engine_open_files.unwrap_or(d.open_files),
        };
        let _ = LIMITS.set(limits);
    }
}

/// The engine configuration of this run: the defaults, with the limits from the flags.
pub fn engine_config() -> EngineConfig {
    EngineConfig {
        limits: LIMITS.get().copied().unwrap_or_default(),
        ..EngineConfig::default()
    }
}
