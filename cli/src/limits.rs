//! `--engine-memory`, `--engine-file-size`, `--engine-open-files`: the resource limits every
//! engine this run starts is fenced with (defaults: `oracle::EngineLimits`, docs/security.md);
//! `--sandbox`: how much of the sandbox engines and testees must run in;
//! `--testee-memory`, `--testee-file-size`, `--testee-open-files`, `--testee-network`,
//! `--testee-env`: the fence of `conform`'s testees (defaults: `conform::TesteeLimits`).

use std::sync::OnceLock;

use gdmarshal_lab::conform::TesteeLimits;
use gdmarshal_lab::fence::Network;
use gdmarshal_lab::oracle::{EngineConfig, EngineLimits};
use gdmarshal_lab::sandbox::Mode;

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
    /// The network an engine sees: `none` (default), a network namespace of its own whose only
    /// link is the oracle's connection (where namespaces cannot be made, engines run with the
    /// host's network and the run says so once), or `host`.
    #[arg(long, value_name = "NET", value_enum, default_value = "none")]
    engine_network: NetworkArg,
    /// The sandbox engines and testees run in (docs/security.md): `auto` (default) every layer
    /// the kernel grants, naming once any it refuses; `strict` every layer or nothing starts;
    /// `off` none.
    #[arg(long, value_name = "MODE", value_enum, default_value = "auto")]
    sandbox: SandboxArg,
}

/// `--sandbox`.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum SandboxArg {
    /// Every layer the kernel grants; a missing one is named once.
    Auto,
    /// Every layer, or the engine or testee does not start.
    Strict,
    /// No sandbox.
    Off,
}

impl From<SandboxArg> for Mode {
    fn from(s: SandboxArg) -> Mode {
        match s {
            SandboxArg::Auto => Mode::Auto,
            SandboxArg::Strict => Mode::Strict,
            SandboxArg::Off => Mode::Off,
        }
    }
}

static LIMITS: OnceLock<(EngineLimits, Network, Mode)> = OnceLock::new();

impl LimitArgs {
    /// Records the limits for the engines this run starts.
    pub fn install(&self) {
        let d = EngineLimits::default();
        let limits = EngineLimits {
            address_space: self.engine_memory.map_or(d.address_space, |m| m << 20),
            file_size: self.engine_file_size.map_or(d.file_size, |m| m << 20),
            open_files: self.engine_open_files.unwrap_or(d.open_files),
        };
        let _ = LIMITS.set((limits, self.engine_network.into(), self.sandbox.into()));
    }
}

/// The engine configuration of this run: the defaults, with the limits from the flags.
pub fn engine_config() -> EngineConfig {
    let d = EngineConfig::default();
    let (limits, network, sandbox) = LIMITS
        .get()
        .copied()
        .unwrap_or((d.limits, d.network, d.sandbox));
    EngineConfig {
        limits,
        network,
        sandbox,
        ..d
    }
}

/// The network an engine or testee sees (`--engine-network`, `--testee-network`).
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum NetworkArg {
    /// The host's network.
    Host,
    /// None: a network namespace of its own (needs root or user namespaces).
    None,
}

impl From<NetworkArg> for Network {
    fn from(n: NetworkArg) -> Network {
        match n {
            NetworkArg::Host => Network::Host,
            NetworkArg::None => Network::None,
        }
    }
}

/// The testee's fence, as `conform`'s flags.
#[derive(clap::Args, Debug, Clone)]
pub struct TesteeLimitArgs {
    /// Private writable memory of each testee process, in MiB (default 4096); past it the
    /// testee's allocations fail, which makes that case an error.
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(16..=1 << 30))]
    testee_memory: Option<u64>,
    /// Largest file a testee may write, in MiB (default 1024).
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..=1 << 30))]
    testee_file_size: Option<u64>,
    /// Open files of each testee process (default 1024).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(16..=1 << 20))]
    testee_open_files: Option<u64>,
    /// The network a testee sees: `host`, or `none` (a network namespace of its own: no
    /// connection anywhere, the host's loopback included).
    #[arg(long, value_name = "NET", value_enum, default_value = "host")]
    testee_network: NetworkArg,
    /// A variable of the runner's environment the testee gets too (repeatable); it gets only
    /// PATH, LANG, LC_ALL, LC_CTYPE, TZ and TERM otherwise, and HOME and TMPDIR in its scratch
    /// folder.
    #[arg(long, value_name = "NAME")]
    testee_env: Vec<String>,
}

static TESTEE_LIMITS: OnceLock<TesteeLimits> = OnceLock::new();

impl TesteeLimitArgs {
    /// Records the fence for the testees this run starts.
    pub fn install(&self) {
        let _ = TESTEE_LIMITS.set(self.limits());
    }

    fn limits(&self) -> TesteeLimits {
        let d = TesteeLimits::default();
        TesteeLimits {
            memory: self.testee_memory.map_or(d.memory, |m| m << 20),
            file_size: self.testee_file_size.map_or(d.file_size, |m| m << 20),
            open_files: self.testee_open_files.unwrap_or(d.open_files),
            network: self.testee_network.into(),
            sandbox: LIMITS.get().map_or(d.sandbox, |l| l.2),
            env: self.testee_env.clone(),
            ..d
        }
    }
}

/// The fence of this run's testees: the defaults, with the limits from the flags.
pub fn testee_limits() -> TesteeLimits {
    TESTEE_LIMITS.get().cloned().unwrap_or_default()
}
