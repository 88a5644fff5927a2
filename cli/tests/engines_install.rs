//! `gdmarshal engines install` end to end against a release folder served on loopback: the
//! release's archive holds a "binary" that runs this machine's Godot 4.6.3 engine, so the
//! installed engine really answers; a corrupted checksum file, an archive missing from it, a
//! truncated archive and a binary of another version are each refused with the cache left as it
//! was. Then `engines add` registers a build and `corpus check --engine` reports on it.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::{Arc, Mutex};

use sha2::{Digest, Sha512};

mod common;

use common::{Group, gdmarshal_command};

/// The launcher of the installed engine that reports `version`; in CI a missing engine fails
/// the test.
fn engine(version: &str) -> Option<PathBuf> {
    gdmarshal_testkit::engines::of_version(version).map(|s| s.launcher)
}

/// Runs `gdmarshal ARGS` with the engine cache `cache`: exit code, stdout, stderr.
fn run(cache: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Group::spawn(
        gdmarshal_command()
            .env("GDMARSHAL_ENGINE_CACHE", cache)
            .env_remove("GDMARSHAL_RELEASES_URL")
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped()),
    )
    .wait_with_output();
    common::outcome(out)
}

/// Runs the install script `script` with `args`, the engine cache `cache` and releases served
/// from `served`, through this build of gdmarshal; asserts it succeeds and returns its stdout.
fn install_script(script: &Path, args: &[&str], cache: &Path, served: &Path) -> String {
    let (code, out, err) = common::outcome(
        Group::spawn(
            common::command("bash")
                .arg(script)
                .args(args)
                .env("GDMARSHAL_BIN", common::BIN)
                .env("GDMARSHAL_ENGINE_CACHE", cache)
                .env("GDMARSHAL_RELEASES_URL", served)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped()),
        )
        .wait_with_output(),
    );
    assert_eq!(code, 0, "{out}{err}");
    out
}

/// A shell script that runs `launcher` with its arguments: the stand-in for Godot's binary.
fn wrapper(launcher: &Path) -> Vec<u8> {
    format!("#!/bin/sh\nexec '{}' \"$@\"\n", launcher.display()).into_bytes()
}

/// A zip holding `name` with `contents`, executable.
fn zip_of(name: &str, contents: &[u8]) -> Vec<u8> {
    let mut out = std::io::Cursor::new(Vec::new());
    let mut z = zip::ZipWriter::new(&mut out);
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .unix_permissions(0o755);
    z.start_file(name, opts).unwrap();
    z.write_all(contents).unwrap();
    z.finish().unwrap();
    out.into_inner()
}

fn sha512_hex(bytes: &[u8]) -> String {
    Sha512::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Writes release `tag` under `base`: the archive `file` and a SHA512-SUMS.txt with `sums`.
fn release(base: &Path, tag: &str, file: &str, archive: &[u8], sums: &str) {
    let dir = base.join(tag);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join(file), archive).unwrap();
    std::fs::write(dir.join("SHA512-SUMS.txt"), sums).unwrap();
}

const TAG: &str = "4.6.3-stable";
const FILE: &str = "Godot_v4.6.3-stable_linux.x86_64.zip";
const BINARY: &str = "Godot_v4.6.3-stable_linux.x86_64";

/// A loopback HTTP server of the files under a folder, answering `Range: bytes=N-` with 206;
/// The release `TAG` served from `DIR/served`: an archive whose binary runs `godot`, and its
/// right checksum; returns the folder and the archive.
fn good_release(dir: &Path, godot: &Path) -> (PathBuf, Vec<u8>) {
    let archive = zip_of(BINARY, &wrapper(godot));
    let served = dir.join("served");
    let sums = format!("{}  {FILE}\n", sha512_hex(&archive));
    release(&served, TAG, FILE, &archive, &sums);
    (served, archive)
}

/// it logs every request (path and range) and stops when dropped.
struct Server {
    url: String,
    log: Arc<Mutex<Vec<String>>>,
    server: Arc<tiny_http::Server>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Server {
    fn new(root: &Path) -> Server {
        Server::with_ranges(root, true)
    }

    /// A server that answers every request whole when `ranges` is false, as one that cannot
    /// resume does.
    fn with_ranges(root: &Path, ranges: bool) -> Server {
        let server = Arc::new(tiny_http::Server::http("127.0.0.1:0").unwrap());
        let port = server.server_addr().to_ip().unwrap().port();
        let log = Arc::new(Mutex::new(Vec::new()));
        let (s, l, root) = (server.clone(), log.clone(), root.to_path_buf());
        let thread = std::thread::spawn(move || {
            for req in s.incoming_requests() {
                let range = req
                    .headers()
                    .iter()
                    .find(|h| h.field.equiv("Range"))
                    .map(|h| h.value.as_str().to_string());
                l.lock().unwrap().push(format!(
                    "{} {}",
                    req.url(),
                    range.clone().unwrap_or_default()
                ));
                let Ok(bytes) = std::fs::read(root.join(req.url().trim_start_matches('/'))) else {
                    let _ = req.respond(tiny_http::Response::empty(404));
                    continue;
                };
                let from = range
                    .as_deref()
                    .and_then(|r| r.strip_prefix("bytes=")?.strip_suffix('-')?.parse().ok())
                    .filter(|&n: &usize| ranges && n < bytes.len());
                let _ = match from {
                    Some(n) => req.respond(
                        tiny_http::Response::from_data(bytes[n..].to_vec())
                            .with_status_code(206)
                            .with_header(
                                tiny_http::Header::from_bytes(
                                    "Content-Range",
                                    format!("bytes {n}-{}/{}", bytes.len() - 1, bytes.len()),
                                )
                                .unwrap(),
                            ),
                    ),
                    None => req.respond(tiny_http::Response::from_data(bytes)),
                };
            }
        });
        Server {
            url: format!("http://127.0.0.1:{port}"),
            log,
            server,
            thread: Some(thread),
        }
    }

    fn requests(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.server.unblock();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Every file and folder under `dir` with its contents: what "left as it was" compares.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, Option<Vec<u8>>> {
    let mut out = BTreeMap::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                out.insert(p.clone(), None);
                stack.push(p);
            } else {
                out.insert(p.clone(), Some(std::fs::read(&p).unwrap()));
            }
        }
    }
    out
}

/// How many cases the committed corpus holds for the engine version `version`.
fn recorded_cases(version: &str) -> u64 {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus/manifest.json");
    let m: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    m["engines"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["version"] == version)
        .and_then(|e| e["cases"].as_u64())
        .unwrap_or_else(|| panic!("no {version} in corpus/manifest.json"))
}

fn manifest(cache: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(cache.join("manifest.json")).unwrap()).unwrap()
}

#[test]
fn a_served_release_is_installed_checked_and_answers() {
    let Some(godot) = engine("4.6.3.stable") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let (served, archive) = good_release(tmp.path(), &godot);
    let sha = sha512_hex(&archive);
    let server = Server::new(&served);
    let cache = tmp.path().join("cache");

    let (code, out, err) = run(
        &cache,
        &["engines", "install", "4.6.3", "--from", &server.url],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("4.6.3: installed: Godot 4.6.3.stable"),
        "{out}"
    );
    let entry = &manifest(&cache)["engines"][0];
    assert_eq!(entry["name"], "4.6.3");
    assert_eq!(entry["version"], "4.6.3.stable");
    assert_eq!(
        entry["source"]["url"],
        format!("{}/{TAG}/{FILE}", server.url)
    );
    assert_eq!(entry["source"]["sha512"], sha.as_str());

    // Installed once: a second run fetches the checksums again, not the archive.
    let before = server.requests().len();
    let (code, out, _) = run(
        &cache,
        &["engines", "install", "4.6.3", "--from", &server.url],
    );
    assert_eq!(code, 0);
    assert!(out.contains("4.6.3: installed already"), "{out}");
    assert_eq!(
        server.requests()[before..],
        [format!("/{TAG}/SHA512-SUMS.txt ")]
    );

    // The installed engine answers the whole recorded corpus of its version.
    let (code, out, err) = run(&cache, &["corpus", "check", "--engine", "4.6.3"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains(&format!(
            "{} cases asked, 0 answered differently, 0 unanswered",
            recorded_cases("4.6.3.stable")
        )),
        "{out}"
    );

    // Its answers recorded into a corpus folder of their own, which conform then judges with.
    let recorded = tmp.path().join("recorded");
    let dir = recorded.to_str().unwrap();
    let (code, out, err) = run(
        &cache,
        &["corpus", "generate", "--engine", "4.6.3", "--corpus", dir],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(recorded.join("godot-4.6.3.stable.jsonl").is_file());

    // Asked again keeping what is recorded: nothing is asked and the file stays byte for byte;
    // a file that fails its checks is refused, not regenerated.
    let file = recorded.join("godot-4.6.3.stable.jsonl");
    let before = std::fs::read(&file).unwrap();
    let keep = [
        "corpus",
        "generate",
        "--engine",
        "4.6.3",
        "--corpus",
        dir,
        "--keep-recorded",
    ];
    let (code, out, err) = run(&cache, &keep);
    assert_eq!(code, 0, "{out}{err}");
    let n = recorded_cases("4.6.3.stable");
    assert!(
        out.contains(&format!("{n} cases ({n} kept as recorded, 0 asked)")),
        "{out}"
    );
    assert_eq!(std::fs::read(&file).unwrap(), before);
    std::fs::write(&file, [&before[..], b"\n"].concat()).unwrap();
    let (code, out, err) = run(&cache, &keep);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("--keep-recorded: "), "{err}");
    std::fs::write(&file, &before).unwrap();
    let testee = format!("{} testee", common::BIN);
    let (code, out, err) = run(
        &cache,
        &[
            "conform", "--testee", &testee, "--godot", "4.6", "--corpus", dir,
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("against Godot 4.6.3.stable (format 4.6, corpus"),
        "{out}"
    );
}

#[test]
fn refused_releases_leave_the_cache_as_it_was() {
    let Some(godot) = engine("4.6.3.stable") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let archive = zip_of(BINARY, &wrapper(&godot));
    let sha = sha512_hex(&archive);
    let served = tmp.path().join("served");
    // A local folder as the base: the cache holds an engine before the refusals.
    release(
        &served.join("good"),
        TAG,
        FILE,
        &archive,
        &format!("{sha}  {FILE}\n"),
    );
    let cache = tmp.path().join("cache");
    let good = served.join("good");
    let (code, out, err) = run(
        &cache,
        &[
            "engines",
            "install",
            "4.6.3",
            "--name",
            "good",
            "--from",
            good.to_str().unwrap(),
        ],
    );
    assert_eq!(code, 0, "{out}{err}");

    let other = sha512_hex(b"another archive");
    release(
        &served.join("corrupt"),
        TAG,
        FILE,
        &archive,
        &format!("{other}  {FILE}\n"),
    );
    release(
        &served.join("missing"),
        TAG,
        FILE,
        &archive,
        &format!("{sha}  Godot_v4.6.3-stable_win64.exe.zip\n"),
    );
    let cut = &archive[..archive.len() / 2];
    release(
        &served.join("truncated"),
        TAG,
        FILE,
        cut,
        &format!("{}  {FILE}\n", sha512_hex(cut)),
    );
    let file_43 = "Godot_v4.3-stable_linux.x86_64.zip";
    let zip_43 = zip_of("Godot_v4.3-stable_linux.x86_64", &wrapper(&godot));
    release(
        &served.join("other"),
        "4.3-stable",
        file_43,
        &zip_43,
        &format!("{}  {file_43}\n", sha512_hex(&zip_43)),
    );
    let server = Server::new(&served);

    let cases = [
        ("corrupt", "4.6.3", "is not the"),
        (
            "missing",
            "4.6.3",
            "SHA512-SUMS.txt of 4.6.3-stable lists none of Godot_v4.6.3-stable_linux.x86_64.zip",
        ),
        ("truncated", "4.6.3", "is not a complete zip archive"),
        (
            "other",
            "4.3",
            "the engine reports Godot 4.6.3.stable, not the 4.3.0.stable asked for",
        ),
    ];
    for (folder, version, says) in cases {
        let before = snapshot(&cache);
        let base = format!("{}/{folder}", server.url);
        let (code, out, err) = run(&cache, &["engines", "install", version, "--from", &base]);
        assert_eq!(code, 2, "{folder}: {out}{err}");
        assert_eq!(err.lines().count(), 1, "{folder}: one line: {err}");
        assert!(err.contains(says), "{folder}: {err}");
        assert!(snapshot(&cache) == before, "{folder}: the cache changed");
    }
    // Each archive but the one missing from the sums was really fetched.
    let fetched = server
        .requests()
        .iter()
        .filter(|r| r.contains(".zip"))
        .count();
    assert_eq!(fetched, 3, "{:?}", server.requests());
}

#[test]
fn an_interrupted_download_is_resumed() {
    let Some(godot) = engine("4.6.3.stable") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let (served, archive) = good_release(tmp.path(), &godot);
    let server = Server::new(&served);
    let cache = tmp.path().join("cache");
    let downloads = cache.join(".downloads").join(TAG);
    std::fs::create_dir_all(&downloads).unwrap();
    std::fs::write(downloads.join(format!("{FILE}.part")), &archive[..100]).unwrap();

    let (code, out, err) = run(
        &cache,
        &["engines", "install", "4.6.3", "--from", &server.url],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        server
            .requests()
            .contains(&format!("/{TAG}/{FILE} bytes=100-")),
        "{:?}",
        server.requests()
    );
    assert_eq!(std::fs::read(downloads.join(FILE)).unwrap(), archive);
    assert!(!downloads.join(format!("{FILE}.part")).exists());
}

#[test]
fn a_server_that_cannot_resume_gets_the_whole_archive_again() {
    let Some(godot) = engine("4.6.3.stable") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let (served, archive) = good_release(tmp.path(), &godot);
    let server = Server::with_ranges(&served, false);
    let cache = tmp.path().join("cache");
    let downloads = cache.join(".downloads").join(TAG);
    std::fs::create_dir_all(&downloads).unwrap();
    // What an earlier try left: the archive's first bytes, and then some that are not its own.
    let mut part = archive[..100].to_vec();
    part.extend_from_slice(b"not the archive");
    std::fs::write(downloads.join(format!("{FILE}.part")), &part).unwrap();

    let (code, out, err) = run(
        &cache,
        &["engines", "install", "4.6.3", "--from", &server.url],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        server
            .requests()
            .contains(&format!("/{TAG}/{FILE} bytes=115-"))
    );
    assert_eq!(std::fs::read(downloads.join(FILE)).unwrap(), archive);

    // A release the server does not have: one line with the URL and the status.
    let (code, _, err) = run(
        &cache,
        &["engines", "install", "4.2", "--from", &server.url],
    );
    assert_eq!(code, 2);
    assert_eq!(
        err.trim_end(),
        format!(
            "gdmarshal: 4.2: {}/4.2-stable/SHA512-SUMS.txt: HTTP status 404",
            server.url
        )
    );
    // A name another engine holds is not taken over without --force.
    let binary = tmp.path().join("custom");
    std::fs::write(&binary, wrapper(&godot)).unwrap();
    std::fs::set_permissions(&binary, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let (code, _, err) = run(
        &cache,
        &["engines", "add", "4.6.3", binary.to_str().unwrap()],
    );
    assert_eq!(code, 2);
    assert!(
        err.contains("an engine named 4.6.3 is installed already from elsewhere"),
        "{err}"
    );
}

#[test]
fn a_registered_build_gets_a_regression_report() {
    let (Some(godot_46), Some(godot_36)) = (engine("4.6.3.stable"), engine("3.6.2.stable")) else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let cache = tmp.path().join("cache");
    // A binary that does not run as Godot is refused before the cache is made.
    let (code, _, err) = run(&cache, &["engines", "add", "broken", "/bin/false"]);
    assert_eq!(code, 2);
    assert!(
        err.starts_with("gdmarshal: broken: the engine does not run: "),
        "{err}"
    );
    assert!(!cache.exists());
    // The builds lie where a build folder would, outside /tmp, which the sandbox makes private
    // (only the engine cache, the working folder and the program's folder stay in view there).
    let builds = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
    for (name, launcher) in [("same", &godot_46), ("pr-build", &godot_36)] {
        let binary = builds.path().join(name);
        std::fs::write(&binary, wrapper(launcher)).unwrap();
        std::fs::set_permissions(&binary, std::os::unix::fs::PermissionsExt::from_mode(0o755))
            .unwrap();
        let (code, out, err) = run(&cache, &["engines", "add", name, binary.to_str().unwrap()]);
        assert_eq!(code, 0, "{out}{err}");
    }
    let names: Vec<_> = manifest(&cache)["engines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["name"].clone(), e["in_all"].clone()))
        .collect();
    assert_eq!(
        names,
        [
            ("pr-build".into(), false.into()),
            ("same".into(), false.into())
        ]
    );

    // The same engine as the recorded one: nothing changed.
    let (code, out, err) = run(
        &cache,
        &[
            "corpus",
            "check",
            "--engine",
            "same",
            "--against",
            "4.6.3",
            "--format",
            "markdown",
        ],
    );
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains(&format!(
            "No change: every case is answered as recorded. {} cases asked",
            recorded_cases("4.6.3.stable")
        )),
        "{out}"
    );

    // Godot 3.6.2 held against the answers recorded from 3.2.3: the report lists each case the
    // engines answer differently, the same in text and in Markdown.
    let (code, text, err) = run(
        &cache,
        &[
            "corpus",
            "check",
            "--engine",
            "pr-build",
            "--against",
            "3.2.3",
        ],
    );
    assert_eq!(code, 1, "{text}{err}");
    let changed = text.lines().filter(|l| l.starts_with("CHANGED ")).count();
    assert!(changed > 0);
    assert!(
        text.contains(&format!(
            "{} cases asked, {changed} answered differently",
            recorded_cases("3.2.3.stable")
        )),
        "{text}"
    );
    let (code, md, _) = run(
        &cache,
        &[
            "corpus",
            "check",
            "--engine",
            "pr-build",
            "--against",
            "3.2.3",
            "--format",
            "markdown",
        ],
    );
    assert_eq!(code, 1);
    assert!(
        md.contains(&format!(
            "**The build answers differently.** {} cases asked, {changed} answered differently",
            recorded_cases("3.2.3.stable")
        )),
        "{md}"
    );
    assert_eq!(md.matches("<details>").count(), changed.min(60));
    // docs/regression-example.md is this report, as the engines answer now.
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/regression-example.md");
    let example = std::fs::read_to_string(example).unwrap();
    let (_, shown) = example.split_once("\n---\n\n").unwrap();
    // 3.x engines leave NodePath padding uninitialised (docs/report.md §4), so the bytes an
    // `output` row shows for the build change from run to run; every other line must be as
    // committed, the recorded bytes of the output rows included.
    let steady = |report: &str| -> Vec<String> {
        report
            .lines()
            .map(|l| {
                // `| output | recorded | this build |`: the recorded bytes stay.
                match l.strip_prefix("| output | ") {
                    Some(rest) => rest.split(" | ").next().unwrap_or("").to_string(),
                    None => l.to_string(),
                }
            })
            .collect()
    };
    assert!(
        steady(shown) == steady(&md),
        "docs/regression-example.md differs from the engines' report now:\n{md}"
    );

    // An unknown recorded version: could not run, with the versions there are.
    let (code, _, err) = run(
        &cache,
        &["corpus", "check", "--engine", "same", "--against", "4.3"],
    );
    assert_eq!(code, 2);
    assert!(err.contains("no recorded corpus of Godot 4.3 (recorded: 3.2.3.stable, 3.6.2.stable, 4.6.3.stable, 4.6.3.stable-double)"), "{err}");
}

#[test]
fn the_install_script_installs_official_releases_with_the_command_line() {
    let Some(godot) = engine("4.6.3.stable") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let (served, _) = good_release(tmp.path(), &godot);
    let cache = tmp.path().join("cache");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/install-engines.sh");
    let text = install_script(&script, &["--official", "4.6.3"], &cache, &served);
    assert!(
        text.contains("4.6.3: installed: Godot 4.6.3.stable"),
        "{text}"
    );
    assert_eq!(manifest(&cache)["engines"][0]["source"]["kind"], "official");
}

#[test]
fn the_install_script_installs_an_official_line_of_the_versions_table() {
    let Some(godot) = engine("4.6.3.stable") else {
        return;
    };
    let tmp = tempfile::tempdir().unwrap();
    let (served, _) = good_release(tmp.path(), &godot);
    // The script reads the table beside it: a copy of the scripts with a table that has an
    // official:TAG line as well as the real ones.
    let repo = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let copy = tmp.path().join("repo");
    std::fs::create_dir_all(copy.join("scripts/lib")).unwrap();
    std::fs::create_dir_all(copy.join("lab")).unwrap();
    for f in ["scripts/install-engines.sh", "scripts/lib/engine-cache.sh"] {
        std::fs::copy(repo.join(f), copy.join(f)).unwrap();
    }
    let mut table = std::fs::read_to_string(repo.join("lab/godot-versions.tsv")).unwrap();
    table.push_str("4.6-official\tofficial:4.6.3-stable\t-\t--headless\tno\n");
    std::fs::write(copy.join("lab/godot-versions.tsv"), table).unwrap();
    let cache = tmp.path().join("cache");
    install_script(
        &copy.join("scripts/install-engines.sh"),
        &["--only", "4.6-official"],
        &cache,
        &served,
    );
    let entry = &manifest(&cache)["engines"][0];
    assert_eq!(entry["name"], "4.6-official");
    assert_eq!(entry["source"]["tag"], "4.6.3-stable");
}
