//! The sandbox as engines get it (`oracle/process.rs`): the host's network namespace with the
//! oracle's listener entered before `exec`, the engine limits, then [`Sandbox::prepare`] under
//! `--sandbox strict` (every layer is granted on the project's machines). The attacks are
//! tests/testees/hostile.py's, spoken to over its protocol: each must fail inside.

#[path = "../../tests/testees/escape_targets.rs"]
mod escape_targets;

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::Stdio;

use gdmarshal_lab::fence::NetNamespace;
use gdmarshal_lab::oracle::EngineLimits;
use gdmarshal_lab::sandbox::{Mode, Plan, Sandbox, Tree, TreeLimits, env};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("lab/ sits inside the repository")
}

/// Runs `hostile.py ARGS` as an engine is run, its tree limited to `memory` MiB, asks the
/// handshake and `requests` cases, and returns what it answered (the handshake's name, then each
/// error), with its tree (still running until dropped).
fn as_engine(
    args: &[&str],
    memory: u64,
    requests: usize,
) -> (Vec<String>, Tree, std::process::Child) {
    let (ns, _listener) = NetNamespace::with_listener().expect("a network namespace");
    let scratch = gdmarshal_lab::sandbox::scratch("gdmarshal-test-").unwrap();
    let sandbox = Sandbox {
        mode: Mode::Strict,
        tree: TreeLimits {
            memory: memory << 20,
            processes: Sandbox::PROCESSES,
        },
    };
    let mut script = vec!["tests/testees/hostile.py".into()];
    script.extend(args.iter().map(Into::into));
    let mut jail = sandbox
        .prepare(Plan {
            program: "python3".as_ref(),
            args: script,
            scratch: scratch.path(),
            writable: &[],
            cwd: root(),
            env: env::passed(&[]),
            own_network: false,
        })
        .expect("every layer (docs/security.md)");
    let cmd = &mut jail.command;
    EngineLimits::default().apply(cmd);
    ns.enter_on(cmd);
    use std::os::unix::process::CommandExt;
    cmd.process_group(0)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped());
    let mut child = jail.spawn().expect("python3 starts");
    let tree = Tree::of(&child, jail);
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    let mut said = Vec::new();
    for id in 0..=requests {
        let line = match id {
            0 => r#"{"op":"hello"}"#.to_string(),
            n => format!(r#"{{"op":"encode","id":{n}}}"#),
        };
        writeln!(stdin, "{line}").unwrap();
        let mut answer = String::new();
        stdout.read_line(&mut answer).unwrap();
        said.push(answer);
    }
    (said, tree, child)
}

#[test]
fn a_root_process_run_as_an_engine_cannot_reach_the_host_or_write_engines() {
    let targets = escape_targets::Targets::new(env!("CARGO_TARGET_TMPDIR"));
    // SAFETY: set before any thread of this test reads the environment; the test binary's other
    // tests do not read it.
    unsafe { std::env::set_var("GDMARSHAL_TEST_SECRET", "s3cr3t") };
    // The file stands for the engine binary too.
    let file = targets.file.display().to_string();
    let args = targets.args(std::process::id(), &file, "GDMARSHAL_TEST_SECRET");
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (said, tree, mut child) = as_engine(&args, 4096, 0);
    targets.assert_all_refused(&said[0]);
    tree.kill(&mut child);
}

#[test]
fn an_engine_tree_holds_no_more_memory_or_processes_than_its_cgroup() {
    let (said, tree, mut child) = as_engine(&["children", "3", "150"], 256, 1);
    assert!(!said[1].contains("held 450 MiB"), "{said:?}");
    let kills = tree.cgroup().expect("a cgroup").oom_kills();
    assert!(kills > 0, "{said:?}");
    tree.kill(&mut child);
    let (said, tree, mut child) = as_engine(&["fork-loop", "1100"], 4096, 1);
    let started: usize = said[1]
        .split("started ")
        .nth(1)
        .and_then(|s| s.split(' ').next()?.parse().ok())
        .unwrap_or_else(|| panic!("{said:?}"));
    assert!((900..1024).contains(&started), "{said:?}");
    tree.kill(&mut child);
}

#[test]
fn a_setsid_survivor_of_an_engine_goes_with_its_tree() {
    let (said, tree, mut child) = as_engine(&["setsid", "613.25"], 4096, 1);
    assert!(said[1].contains("left sleep 613.25"), "{said:?}");
    let cgroup = tree.cgroup().expect("a cgroup");
    let members = |d: &Path| std::fs::read_to_string(d.join("cgroup.procs")).unwrap_or_default();
    let dirs = cgroup.dirs().to_vec();
    // The survivor is in the tree's cgroup, outside the main process's group and session.
    assert!(dirs.iter().any(|d| members(d).lines().count() >= 2));
    tree.kill(&mut child);
    assert!(dirs.iter().all(|d| members(d).trim().is_empty()));
}
