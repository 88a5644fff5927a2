//! The network fence of engines: a process started in an engine's namespace reaches the
//! listener made for it there and nothing on the host's loopback.

use std::net::TcpListener;
use std::os::unix::process::CommandExt;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use gdmarshal_lab::fence::NetNamespace;

/// Runs `cmd` in a process group of its own, killed whole if it has not ended within 30 s.
fn output_within(cmd: &mut Command) -> Output {
    use gdmarshal_lab::group::{has_exited, kill_group};
    cmd.process_group(0)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("python3 runs");
    let deadline = Instant::now() + Duration::from_secs(30);
    while !has_exited(&mut child) {
        if Instant::now() > deadline {
            kill_group(&mut child);
            panic!("{cmd:?} did not end within 30 s");
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    child.wait_with_output().expect("its output")
}

/// Connects to each port from inside `ns` and prints, per port, `ok` or the error.
fn connect_from(ns: &NetNamespace, ports: &[u16]) -> String {
    let script = "import socket, sys\n\
        for p in sys.argv[1:]:\n\
        \x20   s = socket.socket(); s.settimeout(5)\n\
        \x20   try:\n\
        \x20       s.connect(('127.0.0.1', int(p))); print(p, 'ok')\n\
        \x20   except OSError as e:\n\
        \x20       print(p, e.__class__.__name__)\n";
    let mut cmd = Command::new("python3");
    cmd.arg("-c")
        .arg(script)
        .args(ports.iter().map(u16::to_string));
    ns.enter_on(&mut cmd);
    let out = output_within(&mut cmd);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

#[test]
fn a_process_in_an_engine_namespace_reaches_its_listener_and_not_the_host() {
    let host = TcpListener::bind("127.0.0.1:0").expect("a host port");
    host.set_nonblocking(true).expect("nonblocking");
    let host_port = host.local_addr().expect("address").port();
    let (ns, inside) = NetNamespace::with_listener().expect(
        "a network namespace (this machine runs as root; see docs/security.md where it cannot)",
    );
    inside.set_nonblocking(true).expect("nonblocking");
    let inside_port = inside.local_addr().expect("address").port();

    let said = connect_from(&ns, &[inside_port, host_port]);
    let lines: Vec<&str> = said.lines().collect();
    assert_eq!(lines[0], format!("{inside_port} ok"), "{said}");
    assert!(lines[1].starts_with(&format!("{host_port} ")), "{said}");
    assert_ne!(lines[1], format!("{host_port} ok"), "{said}");
    assert!(
        inside.accept().is_ok(),
        "the namespace's listener was reached"
    );
    assert!(
        host.accept().is_err(),
        "the host's listener was reached from the namespace"
    );

    // The same process outside the namespace does reach the host: the fence made the difference.
    let out = output_within(Command::new("python3").args([
        "-c",
        "import socket,sys; socket.create_connection(('127.0.0.1', int(sys.argv[1])), 5)",
        &host_port.to_string(),
    ]));
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(host.accept().is_ok());
}

#[test]
fn every_engine_answers_alike_from_its_namespace_and_sandbox_and_from_the_host() {
    use gdmarshal_lab::Answerer;
    use gdmarshal_lab::corpus::all_cases;
    use gdmarshal_lab::fence::Network;
    use gdmarshal_lab::model::Case;
    use gdmarshal_lab::oracle::{Engine, EngineConfig};
    use gdmarshal_lab::sandbox::Mode;

    // Namespaces can be made here, so a fenced engine that answers is one inside its namespace:
    // its listener exists only there.
    NetNamespace::with_listener().expect("a network namespace");
    for name in gdmarshal_lab::versions::ci_engines() {
        let Some(spec) = gdmarshal_testkit::engines::named(name) else {
            continue;
        };
        let answers = |network: Network, sandbox: Mode| {
            let config = EngineConfig {
                network,
                sandbox,
                ..EngineConfig::default()
            };
            let mut engine = Engine::start(spec.clone(), config).expect("the engine starts");
            let cases: Vec<Case> = all_cases(engine.profile()).into_iter().take(40).collect();
            format!("{:?}", engine.answer(&cases))
        };
        // Fenced and sandboxed (every layer, or no start), as by default, against neither.
        let fenced = answers(Network::None, Mode::Strict);
        assert_eq!(fenced, answers(Network::Host, Mode::Off), "engine {name}");
        assert_eq!(fenced, answers(Network::None, Mode::Off), "engine {name}");
    }
}
