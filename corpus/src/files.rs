// Which files make up a corpus folder, and its digest. Included by build.rs (to embed the files)
// and by lib.rs (to compute the same digest for a folder on disk), so both agree by construction.

/// Whether `name`, a path relative to the corpus folder with `/` separators, is a corpus file:
/// the manifest, the engines' answer files, the stress recipes, the known differences, the
/// framing corpus and the engines' classes. The crate's own sources (Cargo.toml, build.rs, src/)
/// and licences are not.
pub fn is_corpus_file(name: &str) -> bool {
    let top = |n: &str| !n.contains('/') && (n.ends_with(".jsonl") || n.ends_with(".json"));
    let sub = |prefix: &str, ext: &str| {
        name.strip_prefix(prefix)
            .is_some_and(|n| !n.contains('/') && (n.ends_with(ext) || n == "SHA256SUMS"))
    };
    top(name)
        || name == "known-differences.txt"
        || sub("framing/", ".jsonl")
        || sub("classes/", ".json")
}

/// The corpus files under `dir`, sorted by name.
pub fn list(dir: &std::path::Path) -> std::io::Result<Vec<String>> {
    let mut names = Vec::new();
    let subs = [
        ("", dir.to_path_buf()),
        ("framing/", dir.join("framing")),
        ("classes/", dir.join("classes")),
    ];
    for (prefix, sub) in subs {
        let entries = match std::fs::read_dir(&sub) {
            Ok(e) => e,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && !prefix.is_empty() => continue,
            Err(e) => return Err(e),
        };
        for entry in entries {
            let entry = entry?;
            if !entry.file_type()?.is_file() && !std::fs::metadata(entry.path())?.is_file() {
                continue;
            }
            let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
            if is_corpus_file(&name) {
                names.push(name);
            }
        }
    }
    names.sort();
    Ok(names)
}

/// The digest of a corpus: SHA-256 over each file's name, a NUL, its length (8 bytes, little
/// endian) and its bytes, in name order; lowercase hex.
pub fn digest<'a>(files: impl IntoIterator<Item = (&'a str, &'a [u8])>) -> String {
    use sha2::Digest as _;
    let mut h = sha2::Sha256::new();
    for (name, bytes) in files {
        h.update(name.as_bytes());
        h.update([0]);
        h.update((bytes.len() as u64).to_le_bytes());
        h.update(bytes);
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}
