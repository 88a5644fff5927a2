//! Every file the lab reads whole is read within its cap (lab/src/bounded.rs): an endless one
//! (/dev/zero, a FIFO fed without end) and an oversized line are refused with the file's name,
//! and the line's number where there is one, instead of filling the memory.
#![cfg(target_os = "linux")]

use std::io::Write;
use std::path::{Path, PathBuf};

use gdmarshal_lab::bounded::{MAX_FILE, MAX_LINE};
use gdmarshal_lab::campaign::{load_finding, log};
use gdmarshal_lab::corpus::{Source, known, load_from};

const ENDLESS: &str = "longer than 32 MiB (the limit for a file read whole); read no further";

/// A FIFO in `dir` fed with `byte` until its reader is gone.
fn endless_fifo(dir: &Path, name: &str, byte: u8) -> (PathBuf, std::thread::JoinHandle<()>) {
    let path = dir.join(name);
    rustix::fs::mknodat(
        rustix::fs::CWD,
        &path,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o600),
        0,
    )
    .expect("mkfifo");
    let fed = path.clone();
    let writer = std::thread::spawn(move || {
        let mut f = std::fs::File::options()
            .write(true)
            .open(fed)
            .expect("fifo");
        let chunk = vec![byte; 1 << 16];
        while f.write_all(&chunk).is_ok() {}
    });
    (path, writer)
}

#[test]
fn endless_files_are_refused_at_the_cap_with_their_name() {
    let zero = Path::new("/dev/zero");
    assert_eq!(MAX_FILE, 32 << 20);
    let e = known::read(zero).unwrap_err().to_string();
    assert_eq!(e, format!("/dev/zero: {ENDLESS}"));
    let e = log::read(zero).unwrap_err().to_string();
    assert_eq!(e, format!("/dev/zero: {ENDLESS}"));
    let e = load_finding(zero).unwrap_err().to_string();
    assert_eq!(e, format!("/dev/zero: {ENDLESS}"));
    let e = Source::Dir("/dev".into())
        .read("zero")
        .unwrap_err()
        .to_string();
    assert!(e.starts_with("/dev/zero") && e.ends_with(ENDLESS), "{e}");
}

#[test]
fn a_corpus_whose_manifest_never_ends_is_refused() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (_, writer) = endless_fifo(dir.path(), "manifest.json", b' ');
    let e = load_from(&Source::Dir(dir.path().into()))
        .unwrap_err()
        .to_string();
    writer.join().expect("writer");
    let want = format!("{}: {ENDLESS}", dir.path().join("manifest.json").display());
    assert!(e.starts_with(&want), "{e}");
}

#[test]
fn a_line_past_the_cap_is_refused_with_its_number() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("campaigns.jsonl");
    let long = format!("\n\"{}\"\n", "x".repeat(MAX_LINE));
    std::fs::write(&path, long).expect("written");
    let e = log::read(&path).unwrap_err().to_string();
    let want = format!(
        "{}:2: a line of 4194306 bytes, longer than 4 MiB (the limit)",
        path.display()
    );
    assert_eq!(e, want);
    let list = dir.path().join("expect-fail.txt");
    std::fs::write(&list, format!("4.6 a/b ok\n{}\n", "y".repeat(MAX_LINE + 1))).expect("written");
    let e = known::read(&list).unwrap_err().to_string();
    assert!(
        e.starts_with(&format!("{}:2: a line of 4194305 bytes", list.display())),
        "{e}"
    );
}

#[test]
fn a_long_word_of_a_list_is_echoed_cut_with_its_length() {
    let dir = tempfile::tempdir().expect("temp dir");
    let list = dir.path().join("expect-fail.txt");
    let name = "z".repeat(10_000);
    std::fs::write(&list, format!("4.6 a/b when:{name} reason\n")).expect("written");
    let e = known::read(&list).unwrap_err().to_string();
    let want = format!(
        "{}:1: unknown condition when:{}… (cut: 10000 bytes in all) (known: ",
        list.display(),
        &name[..200]
    );
    assert!(e.starts_with(&want), "{e}");
    assert!(e.len() < 1000, "{e}");
}
