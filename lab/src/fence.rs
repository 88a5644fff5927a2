//! Fences for the processes the lab feeds hostile input (engines, testees): resource limits set
//! in the child before `exec`, core dumps off, and optionally a network namespace of its own, in
//! which the process has only a loopback device that is down (no network at all).

use std::process::Command;

use rustix::process::{Resource, Rlimit, setrlimit};

/// What network a fenced process sees.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum Network {
    /// The host's network, as any process.
    #[default]
    Host,
    /// A network namespace of its own: nothing to connect to, not even the host's loopback.
    /// Needs root or unprivileged user namespaces; the process fails to start without.
    None,
}

impl Network {
    /// The name on the command line (`host`, `none`).
    pub fn name(self) -> &'static str {
        match self {
            Network::Host => "host",
            Network::None => "none",
        }
    }
}

/// A resource limit to set: which, and its value (soft and hard alike).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limit {
    /// The resource.
    pub resource: Resource,
    /// Its value.
    pub value: u64,
}

/// Makes the command's process start under `limits` and with core dumps off, in the network
/// `network` says.
pub fn apply(cmd: &mut Command, limits: &[Limit], network: Network) {
    use std::os::unix::process::CommandExt;
    let mut all: Vec<Limit> = limits.to_vec();
    all.push(Limit {
        resource: Resource::Core,
        value: 0,
    });
    // SAFETY: the closure runs in the forked child before exec and makes only the setrlimit and
    // unshare system calls (async-signal-safe); `all` was built before the fork and is only read.
    // unshare(NEWNET) touches no file descriptors, which unshare_unsafe's contract is about.
    unsafe {
        cmd.pre_exec(move || {
            for l in &all {
                let value = Some(l.value);
                setrlimit(
                    l.resource,
                    Rlimit {
                        current: value,
                        maximum: value,
                    },
                )?;
            }
            if network == Network::None {
                rustix::thread::unshare_unsafe(rustix::thread::UnshareFlags::NEWNET)?;
            }
            Ok(())
        });
    }
}

/// A network namespace of the host's making for one engine, holding only its own loopback: the
/// host binds the engine's listener inside it ([`NetNamespace::with_listener`]) and starts the
/// engine in it ([`NetNamespace::enter_on`]). The engine reaches that listener and nothing else;
/// the host, in its own namespace, still accepts on the listener (a socket keeps the namespace it
/// was made in).
#[derive(Debug)]
pub struct NetNamespace {
    ns: std::fs::File,
}

impl NetNamespace {
    /// Makes the namespace on a thread of its own (a network namespace belongs to a thread; this
    /// one ends once the namespace is made), brings its loopback up and binds a TCP listener on
    /// `127.0.0.1:0` there. Fails where namespaces cannot be made (no root, no user namespaces).
    pub fn with_listener() -> std::io::Result<(NetNamespace, std::net::TcpListener)> {
        std::thread::Builder::new()
            .name("gdmarshal-netns".into())
            .spawn(|| {
                // SAFETY: NEWNET alone: the thread's file descriptor table stays shared, which is
                // what unshare_unsafe's contract is about.
                unsafe {
                    rustix::thread::unshare_unsafe(rustix::thread::UnshareFlags::NEWNET)?;
                }
                loopback_up()?;
                let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
                let ns = std::fs::File::open("/proc/thread-self/ns/net")?;
                Ok((NetNamespace { ns }, listener))
            })?
            .join()
            .map_err(|_| std::io::Error::other("the namespace's thread panicked"))?
    }

    /// Makes the command's process start inside this namespace.
    pub fn enter_on(&self, cmd: &mut Command) {
        use std::os::fd::{AsRawFd, BorrowedFd};
        use std::os::unix::process::CommandExt;
        let raw = self.ns.as_raw_fd();
        // SAFETY: the closure runs in the forked child before exec and makes one setns system
        // call on a descriptor this value keeps open until the command has been spawned.
        unsafe {
            cmd.pre_exec(move || {
                let fd = BorrowedFd::borrow_raw(raw);
                rustix::thread::move_into_link_name_space(
                    fd,
                    Some(rustix::thread::LinkNameSpaceType::Network),
                )?;
                Ok(())
            });
        }
    }
}

/// Brings the calling thread's loopback device up (a new network namespace has it down).
fn loopback_up() -> std::io::Result<()> {
    use std::os::fd::AsRawFd;
    let socket = std::net::UdpSocket::bind("0.0.0.0:0")?;
    // SAFETY: ifreq is plain data, valid zeroed; both ioctls read and write only `request`, which
    // outlives them, on a socket this function owns. (rustix has no SIOCSIFFLAGS.)
    unsafe {
        let mut request: libc::ifreq = std::mem::zeroed();
        for (to, from) in request.ifr_name.iter_mut().zip(b"lo") {
            *to = *from as libc::c_char;
        }
        if libc::ioctl(socket.as_raw_fd(), libc::SIOCGIFFLAGS as _, &mut request) < 0 {
            return Err(std::io::Error::last_os_error());
        }
        request.ifr_ifru.ifru_flags |= libc::IFF_UP as libc::c_short;
        if libc::ioctl(socket.as_raw_fd(), libc::SIOCSIFFLAGS as _, &request) < 0 {
            return Err(std::io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Says once per process, on stderr, that engines run with the host's network and why: where
/// namespaces cannot be made, a run goes on unfenced rather than not at all.
pub(crate) fn note_unfenced(why: &std::io::Error) {
    static SAID: std::sync::Once = std::sync::Once::new();
    SAID.call_once(|| {
        eprintln!(
            "gdmarshal: note: engines run with the host's network: cannot make a network namespace ({why}); --engine-network host says so without this note"
        );
    });
}
