//! # gdmarshal-kits
//!
//! The adapter kits of `gdmarshal conform`: for each language, a complete testee (the protocol
//! done, a small Variant codec in place of yours) that a user copies into a project and wires to
//! an implementation. `gdmarshal conform init --lang LANG DIR` writes one from this crate. Each
//! kit passes every verified engine version in the repository's CI (`scripts/kits.sh`).
//!
//! ```
//! let go = gdmarshal_kits::find("go").unwrap();
//! assert!(go.files().iter().any(|(path, _)| path == "main.go"));
//! ```
//!
//! Licensed under MIT OR Apache-2.0; the kits' files may be copied and changed freely.

#![deny(missing_docs)]

/// One kit: a language's testee and how to build and run it.
#[derive(Debug)]
pub struct Kit {
    /// The name `--lang` takes: `python`, `node`, `go`, `csharp`, `rust`.
    pub lang: &'static str,
    /// The toolchain it needs, for people.
    pub needs: &'static str,
    /// The ways to build and run it, each with the toolchain it takes.
    pub ways: &'static [Way],
    files: &'static [(&'static str, &'static str)],
}

/// One way to build and run a kit.
#[derive(Debug)]
pub struct Way {
    /// The program this way needs on the `PATH` (`dotnet`, `mcs`, `go`, ...).
    pub tool: &'static str,
    /// Commands that build it, run in the folder it was written to (none for scripts).
    pub build: &'static [&'static str],
    /// The testee command, relative to the folder it was written to.
    pub testee: &'static str,
}

/// The line of the Rust kit's manifest that points at this repository's codec, which stands in
/// for the user's library; written out, it names the published codec instead.
const RUST_KIT_CODEC_IN_TREE: &str = "gdmarshal = { path = \"../..\" }";
const RUST_KIT_CODEC_PUBLISHED: &str = concat!("gdmarshal = \"", env!("CARGO_PKG_VERSION"), "\"");

impl Kit {
    /// The kit's files: each path (relative to the folder it is written to, `/`-separated) and
    /// text.
    pub fn files(&self) -> Vec<(String, String)> {
        self.files
            .iter()
            .map(|(path, text)| {
                let text = if *path == "Cargo.toml" {
                    text.replace(RUST_KIT_CODEC_IN_TREE, RUST_KIT_CODEC_PUBLISHED)
                } else {
                    text.to_string()
                };
                (path.to_string(), text)
            })
            .collect()
    }
}

/// Every kit, in the order `--help` lists them.
pub const KITS: &[Kit] = &[
    Kit {
        lang: "python",
        needs: "Python 3.8 or later",
        ways: &[Way {
            tool: "python3",
            build: &[],
            testee: "python3 gdmarshal_testee.py",
        }],
        files: &[(
            "gdmarshal_testee.py",
            include_str!("../python/gdmarshal_testee.py"),
        )],
    },
    Kit {
        lang: "node",
        needs: "Node.js 18 or later",
        ways: &[Way {
            tool: "node",
            build: &[],
            testee: "node gdmarshal_testee.js",
        }],
        files: &[(
            "gdmarshal_testee.js",
            include_str!("../node/gdmarshal_testee.js"),
        )],
    },
    Kit {
        lang: "go",
        needs: "Go 1.19 or later",
        ways: &[Way {
            tool: "go",
            build: &["go build -o gdmarshal-testee-go ."],
            testee: "gdmarshal-testee-go",
        }],
        files: &[
            ("go.mod", include_str!("../go/go.mod")),
            ("main.go", include_str!("../go/main.go")),
            ("protocol.go", include_str!("../go/protocol.go")),
            ("bugs.go", include_str!("../go/bugs.go")),
            ("README.md", include_str!("../go/README.md")),
        ],
    },
    Kit {
        lang: "csharp",
        needs: ".NET 8 SDK, or Mono's mcs (README.md gives both ways)",
        ways: &[
            Way {
                tool: "dotnet",
                build: &["dotnet build -c Release"],
                testee: "dotnet bin/Release/net8.0/GdmarshalTestee.dll",
            },
            Way {
                tool: "mcs",
                build: &["mcs -r:System.Numerics.dll -optimize+ -out:GdmarshalTestee.exe *.cs"],
                testee: "mono GdmarshalTestee.exe",
            },
        ],
        files: &[
            (
                "GdmarshalTestee.cs",
                include_str!("../csharp/GdmarshalTestee.cs"),
            ),
            ("Json.cs", include_str!("../csharp/Json.cs")),
            (
                "GdmarshalTestee.csproj",
                include_str!("../csharp/GdmarshalTestee.csproj"),
            ),
            (".gitignore", include_str!("../csharp/.gitignore")),
            ("README.md", include_str!("../csharp/README.md")),
        ],
    },
    Kit {
        lang: "rust",
        needs: "Rust 1.88 or later",
        ways: &[Way {
            tool: "cargo",
            build: &["cargo build --release"],
            testee: "target/release/gdmarshal-testee-kit",
        }],
        files: &[
            ("Cargo.toml", include_str!("../kit-rust/Cargo.toml.in")),
            ("src/main.rs", include_str!("../kit-rust/main.rs")),
            ("src/protocol.rs", include_str!("../kit-rust/protocol.rs")),
            (
                "expect-fail.txt",
                include_str!("../kit-rust/expect-fail.txt"),
            ),
        ],
    },
];

/// The kit for `lang`, if there is one.
pub fn find(lang: &str) -> Option<&'static Kit> {
    KITS.iter().find(|k| k.lang == lang)
}

/// The names `--lang` takes.
pub fn langs() -> Vec<&'static str> {
    KITS.iter().map(|k| k.lang).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rust_kit_names_the_published_codec_not_the_tree() {
        let files = find("rust").unwrap().files();
        let manifest = &files.iter().find(|(p, _)| p == "Cargo.toml").unwrap().1;
        // The replacement must find its line: a changed kit manifest fails here, not for users.
        assert!(include_str!("../rust/Cargo.toml").contains(RUST_KIT_CODEC_IN_TREE));
        assert!(!manifest.contains("path = \"../..\""), "{manifest}");
        assert!(manifest.contains(RUST_KIT_CODEC_PUBLISHED), "{manifest}");
    }

    #[test]
    fn every_kit_file_is_its_source_file() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let source = |lang: &str, path: &str| match lang {
            "rust" => root.join("rust").join(path),
            _ => root.join(lang).join(path),
        };
        for kit in KITS {
            for (path, text) in kit.files {
                let on_disk = std::fs::read_to_string(source(kit.lang, path)).unwrap();
                assert_eq!(*text, on_disk, "{} {path}", kit.lang);
            }
        }
    }

    #[test]
    fn every_kit_is_licensed_to_be_copied() {
        for kit in KITS {
            // The source a user edits says it, at the top.
            let (path, text) = kit
                .files
                .iter()
                .find(|(p, _)| {
                    p.ends_with(".py")
                        || p.ends_with(".js")
                        || p.ends_with("main.go")
                        || p.ends_with("Testee.cs")
                        || p.ends_with("main.rs")
                })
                .unwrap();
            let header: String = text.lines().take(40).collect::<Vec<_>>().join("\n");
            assert!(
                header.contains("MIT OR Apache-2.0"),
                "{} {path} does not say its licence at the top",
                kit.lang
            );
        }
    }
}
