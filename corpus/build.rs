//! Compresses every corpus file of this folder into OUT_DIR and writes `files.rs`, the table
//! lib.rs includes: each file's name and its gzip stream, and the corpus's digest.

use std::io::Write as _;
use std::path::Path;

include!("src/files.rs");

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = std::path::PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let names = list(dir).expect("the corpus folder lists");
    println!("cargo::rerun-if-changed={}", dir.join("framing").display());
    println!("cargo::rerun-if-changed={}", dir.join("classes").display());
    println!("cargo::rerun-if-changed={}", dir.display());
    let mut table = String::from("&[\n");
    let mut contents = Vec::new();
    for name in &names {
        let path = dir.join(name);
        println!("cargo::rerun-if-changed={}", path.display());
        let bytes = std::fs::read(&path).expect("a corpus file reads");
        let gz_name = format!("{}.gz", name.replace('/', "__"));
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        gz.write_all(&bytes).expect("compression into memory");
        std::fs::write(
            out.join(&gz_name),
            gz.finish().expect("compression into memory"),
        )
        .expect("OUT_DIR is writable");
        table.push_str(&format!(
            "    Packed {{ name: {name:?}, len: {}, gzip: include_bytes!(concat!(env!(\"OUT_DIR\"), \"/{gz_name}\")) }},\n",
            bytes.len()
        ));
        contents.push((name.as_str(), bytes));
    }
    table.push(']');
    let id = digest(contents.iter().map(|(n, b)| (*n, b.as_slice())));
    std::fs::write(out.join("files.rs"), table).expect("OUT_DIR is writable");
    std::fs::write(out.join("digest.txt"), id).expect("OUT_DIR is writable");
}
