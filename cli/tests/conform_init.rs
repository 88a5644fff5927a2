//! `gdmarshal conform init`: each kit written from the binary is its source in testees/, ready
//! to run (the Python and Go kits are run here against 4.6), and no file is overwritten without
//! --force.

mod common;

use std::path::Path;

use common::{Group, gdmarshal_command};

fn run_in(dir: &Path, program: &str, args: &[&str]) -> (i32, String) {
    let mut cmd = if program == "gdmarshal" {
        gdmarshal_command()
    } else {
        common::command(program)
    };
    let out = Group::spawn(
        cmd.current_dir(dir)
            .args(args)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped()),
    )
    .wait_with_output();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap_or(-1), text)
}

fn testees() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../testees")
}

#[test]
fn every_kit_is_written_as_its_source() {
    for kit in gdmarshal_kits::KITS {
        let dir = tempfile::tempdir().unwrap();
        let (code, out) = run_in(
            dir.path(),
            "gdmarshal",
            &["conform", "init", "--lang", kit.lang, "k"],
        );
        assert_eq!(code, 0, "{}: {out}", kit.lang);
        for (path, text) in kit.files() {
            let written = std::fs::read_to_string(dir.path().join("k").join(&path)).unwrap();
            assert_eq!(written, text, "{} {path}", kit.lang);
            let source = match kit.lang {
                "rust" => testees().join("rust").join(&path),
                lang => testees().join(lang).join(&path),
            };
            if path != "Cargo.toml" {
                assert_eq!(
                    written,
                    std::fs::read_to_string(source).unwrap(),
                    "{} {path}",
                    kit.lang
                );
            }
        }
        assert!(out.contains("gdmarshal conform --testee "), "{out}");
    }
}

#[test]
fn an_existing_file_is_not_overwritten_without_force() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("k")).unwrap();
    std::fs::write(dir.path().join("k/main.go"), "mine").unwrap();
    let (code, out) = run_in(
        dir.path(),
        "gdmarshal",
        &["conform", "init", "--lang", "go", "k"],
    );
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("main.go: already exists; nothing was written"),
        "{out}"
    );
    assert_eq!(
        std::fs::read_to_string(dir.path().join("k/main.go")).unwrap(),
        "mine"
    );
    assert!(!dir.path().join("k/go.mod").exists(), "nothing was written");
    let (code, out) = run_in(
        dir.path(),
        "gdmarshal",
        &["conform", "init", "--lang", "go", "k", "--force"],
    );
    assert_eq!(code, 0, "{out}");
    assert_ne!(
        std::fs::read_to_string(dir.path().join("k/main.go")).unwrap(),
        "mine"
    );
}

#[test]
fn the_written_python_and_go_kits_pass_against_4_6() {
    let dir = tempfile::tempdir().unwrap();
    for lang in ["python", "go"] {
        let (code, out) = run_in(
            dir.path(),
            "gdmarshal",
            &["conform", "init", "--lang", lang, lang],
        );
        assert_eq!(code, 0, "{out}");
    }
    // scripts/install-kit-toolchains.sh installs Go for the tests.
    let (code, out) = run_in(
        &dir.path().join("go"),
        "go",
        &["build", "-o", "gdmarshal-testee-go", "."],
    );
    assert_eq!(code, 0, "go build: {out}");
    for testee in [
        "python3 python/gdmarshal_testee.py",
        "go/gdmarshal-testee-go",
    ] {
        let (code, out) = run_in(
            dir.path(),
            "gdmarshal",
            &[
                "conform",
                "--testee",
                testee,
                "--godot",
                "4.6",
                "--skip",
                "*/stress/**",
                "--output",
                "/dev/null",
            ],
        );
        assert_eq!(code, 0, "{testee}: {out}");
        assert!(out.contains("\nok: "), "{testee}: {out}");
    }
}

/// `conform init` prints the steps for the toolchain that is installed: for the C# kit, Mono's
/// when only `mcs` is on the `PATH`, .NET's when only `dotnet` is, and both when neither is.
#[test]
fn init_prints_the_steps_for_the_toolchain_installed() {
    let init = |tools: &[&str]| {
        let bin = tempfile::tempdir().unwrap();
        for tool in tools {
            let path = bin.path().join(tool);
            std::fs::write(&path, "#!/bin/sh\n").unwrap();
            let mut p = std::fs::metadata(&path).unwrap().permissions();
            std::os::unix::fs::PermissionsExt::set_mode(&mut p, 0o755);
            std::fs::set_permissions(&path, p).unwrap();
        }
        let dir = tempfile::tempdir().unwrap();
        let out = Group::spawn(
            gdmarshal_command()
                .current_dir(dir.path())
                .env("PATH", bin.path())
                .args(["conform", "init", "--lang", "csharp", "k"])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped()),
        )
        .wait_with_output();
        assert_eq!(out.status.code(), Some(0));
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let mono = init(&["mcs"]);
    assert!(mono.contains("\nNext:\n  (cd k && mcs "), "{mono}");
    assert!(
        mono.contains("--testee 'mono k/GdmarshalTestee.exe'"),
        "{mono}"
    );
    assert!(!mono.contains("dotnet build"), "{mono}");
    let dotnet = init(&["dotnet"]);
    assert!(
        dotnet.contains("\nNext:\n  (cd k && dotnet build -c Release)"),
        "{dotnet}"
    );
    assert!(!dotnet.contains("(cd k && mcs"), "{dotnet}");
    let neither = init(&[]);
    assert!(
        neither.contains("None of dotnet, mcs is on the PATH; once one is:\nNext, with dotnet:"),
        "{neither}"
    );
    assert!(neither.contains("\nOr, with mcs:\n"), "{neither}");
}
