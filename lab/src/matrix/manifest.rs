//! What each adapter folder says of the library it measures: `implementations/NAME/
//! implementation.json`.

use std::cmp::Ordering;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

/// The file each adapter folder holds.
pub(crate) const MANIFEST: &str = "implementation.json";

/// Where a library is published.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
#[non_exhaustive]
pub enum Registry {
    /// The npm registry.
    Npm,
    /// crates.io.
    Crates,
    /// The Python Package Index.
    Pypi,
}

impl Registry {
    /// How the page names it.
    pub(crate) fn title(self) -> &'static str {
        match self {
            Registry::Npm => "npm",
            Registry::Crates => "crates.io",
            Registry::Pypi => "PyPI",
        }
    }
}

/// One library at one version, as its adapter folder describes it.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Implementation {
    /// The adapter's folder name (`gd-com-utils-5`); not in the file.
    #[serde(skip_deserializing)]
    pub id: String,
    /// The package's name in its registry.
    pub package: String,
    /// Its registry.
    pub registry: Registry,
    /// The version the adapter pins.
    pub version: String,
    /// The language it is written for.
    pub language: String,
    /// Its license, as the package states it.
    pub license: String,
    /// Where its source is published.
    pub repository: String,
    /// What its own documentation claims (Godot versions, types, directions), in a sentence.
    pub claims: String,
    /// The testee command, run in the adapter's folder.
    pub testee: String,
    /// Cases whose answer from this library differs from run to run: counted apart, as neither
    /// passed nor wrong, so that the page is the same on every run.
    #[serde(default)]
    pub unstable: Vec<Unstable>,
    /// [`Implementation::unstable`]'s globs, compiled once ([`Implementation::compile`]).
    #[serde(skip)]
    unstable_set: globset::GlobSet,
}

/// Cases a library answers differently from run to run.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Unstable {
    /// A glob of case names (as `conform --run` takes).
    pub cases: String,
    /// Why its answers vary (a defect of the library: the page shows it).
    pub why: String,
}

impl Implementation {
    /// Whether the library's answer to the case `name` varies from run to run.
    pub(crate) fn is_unstable(&self, name: &str) -> bool {
        self.unstable_set.is_match(name)
    }

    /// Compiles the `unstable` globs once; else the first that does not parse, and why.
    pub fn compile(&mut self) -> Result<(), (String, String)> {
        let mut set = globset::GlobSetBuilder::new();
        for u in &self.unstable {
            let glob = globset::Glob::new(&u.cases)
                .map_err(|e| (u.cases.clone(), e.kind().to_string()))?;
            set.add(glob);
        }
        self.unstable_set = set
            .build()
            .map_err(|e| (String::new(), e.kind().to_string()))?;
        Ok(())
    }

    /// The testee command as `conform` runs it from the folder holding `implementations/`.
    pub fn command(&self, folder: &str) -> String {
        format!("cd {folder}/{} && {}", self.id, self.testee)
    }

    /// Whether `other` is the same package (another version of it, or this one).
    pub(crate) fn same_package(&self, other: &Implementation) -> bool {
        self.registry == other.registry && self.package == other.package
    }
}

/// Compares two versions as dotted numbers (`0.1.10` after `0.1.9`); a part that is not a
/// number compares as text after the numbers.
pub(crate) fn compare_versions(a: &str, b: &str) -> Ordering {
    let parts = |v: &str| -> Vec<(u64, String)> {
        v.split(['.', '-', '+'])
            .map(|p| (p.parse().unwrap_or(u64::MAX), p.to_string()))
            .collect()
    };
    parts(a).cmp(&parts(b))
}

/// The newest version of `imp`'s package among `all`.
pub fn newest<'a>(imp: &'a Implementation, all: &'a [Implementation]) -> &'a Implementation {
    all.iter()
        .filter(|o| o.same_package(imp))
        .max_by(|a, b| compare_versions(&a.version, &b.version))
        .unwrap_or(imp)
}

/// Why the adapters could not be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ManifestError {
    /// A folder or file could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// Which.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// A manifest is not what [`Implementation`] states (the error names line and column).
    #[error("{}: {source}", path.display())]
    Json {
        /// Which.
        path: PathBuf,
        /// Why and where.
        source: serde_json::Error,
    },
    /// Two folders measure the same package at the same version.
    #[error("{first} and {second} both pin {package} {version}")]
    Twice {
        /// The package.
        package: String,
        /// The version.
        version: String,
        /// One folder.
        first: String,
        /// The other.
        second: String,
    },
    /// An `unstable` glob does not parse.
    #[error("{}: unstable cases {pattern:?}: {message}", path.display())]
    Glob {
        /// Which manifest.
        path: PathBuf,
        /// The glob.
        pattern: String,
        /// Why it does not parse.
        message: String,
    },
    /// The folder holds no adapter.
    #[error("{}: no adapter folder holds {MANIFEST}", path.display())]
    Empty {
        /// The folder.
        path: PathBuf,
    },
}

/// Every adapter under `dir`, sorted by folder name.
pub fn read_all(dir: &Path) -> Result<Vec<Implementation>, ManifestError> {
    let io = |path: &Path| {
        let path = path.to_path_buf();
        move |source| ManifestError::Io { path, source }
    };
    let mut found = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(io(dir))? {
        let entry = entry.map_err(io(dir))?;
        let path = entry.path().join(MANIFEST);
        if !path.is_file() {
            continue;
        }
        let text = std::fs::read_to_string(&path).map_err(io(&path))?;
        let mut imp: Implementation =
            serde_json::from_str(&text).map_err(|source| ManifestError::Json {
                path: path.clone(),
                source,
            })?;
        imp.id = entry.file_name().to_string_lossy().into_owned();
        imp.compile()
            .map_err(|(pattern, message)| ManifestError::Glob {
                path: path.clone(),
                pattern,
                message,
            })?;
        found.push(imp);
    }
    if found.is_empty() {
        return Err(ManifestError::Empty {
            path: dir.to_path_buf(),
        });
    }
    found.sort_by(|a, b| a.id.cmp(&b.id));
    for (i, a) in found.iter().enumerate() {
        if let Some(b) = found[i + 1..]
            .iter()
            .find(|b| b.same_package(a) && b.version == a.version)
        {
            return Err(ManifestError::Twice {
                package: a.package.clone(),
                version: a.version.clone(),
                first: a.id.clone(),
                second: b.id.clone(),
            });
        }
    }
    Ok(found)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_compare_as_numbers() {
        assert_eq!(compare_versions("0.1.10", "0.1.9"), Ordering::Greater);
        assert_eq!(compare_versions("0.2.0", "0.1.6"), Ordering::Greater);
        assert_eq!(compare_versions("5.0.0", "5.0.0"), Ordering::Equal);
        assert_eq!(compare_versions("1.0.0-beta", "1.0.0"), Ordering::Greater);
    }

    fn write(dir: &Path, folder: &str, text: &str) {
        std::fs::create_dir_all(dir.join(folder)).unwrap();
        std::fs::write(dir.join(folder).join(MANIFEST), text).unwrap();
    }

    const LIB: &str = r#"{"package":"lib","registry":"npm","version":"VERSION","language":"JavaScript",
        "license":"MIT","repository":"https://example.org/lib","claims":"Godot 3","testee":"node a.mjs"}"#;

    #[test]
    fn reads_each_folder_and_finds_the_newest_version() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "lib-0.1", &LIB.replace("VERSION", "0.1.6"));
        write(dir.path(), "lib-0.2", &LIB.replace("VERSION", "0.2.0"));
        std::fs::create_dir(dir.path().join("not-an-adapter")).unwrap();
        let all = read_all(dir.path()).unwrap();
        assert_eq!(
            all.iter().map(|i| i.id.as_str()).collect::<Vec<_>>(),
            ["lib-0.1", "lib-0.2"]
        );
        assert_eq!(newest(&all[0], &all).version, "0.2.0");
        assert_eq!(
            all[0].command("implementations"),
            "cd implementations/lib-0.1 && node a.mjs"
        );
    }

    #[test]
    fn errors_say_which_file_and_where() {
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "bad", "{\"package\": \"lib\",\n \"colour\": 1}");
        let e = read_all(dir.path()).unwrap_err().to_string();
        assert!(
            e.contains("bad/implementation.json") && e.contains("line 2"),
            "{e}"
        );
        let dir = tempfile::tempdir().unwrap();
        write(dir.path(), "a", &LIB.replace("VERSION", "1.0.0"));
        write(dir.path(), "b", &LIB.replace("VERSION", "1.0.0"));
        assert!(matches!(
            read_all(dir.path()),
            Err(ManifestError::Twice { .. })
        ));
        let dir = tempfile::tempdir().unwrap();
        let glob = r#","unstable":[{"cases":"decode/[keys","why":"x"}]}"#;
        write(
            dir.path(),
            "a",
            &LIB.replace("VERSION", "1.0.0")
                .replace('}', "")
                .replace("node a.mjs\"", &format!("node a.mjs\"{glob}")),
        );
        assert!(matches!(
            read_all(dir.path()),
            Err(ManifestError::Glob { .. })
        ));
        // A glob that parses marks the cases it matches, and only those.
        let dir = tempfile::tempdir().unwrap();
        let glob = r#","unstable":[{"cases":"decode/keys/**/{a,b}_keys","why":"x"}]}"#;
        write(
            dir.path(),
            "a",
            &LIB.replace("VERSION", "1.0.0")
                .replace('}', "")
                .replace("node a.mjs\"", &format!("node a.mjs\"{glob}")),
        );
        let lib = &read_all(dir.path()).unwrap()[0];
        assert!(lib.is_unstable("decode/keys/a_keys") && lib.is_unstable("decode/keys/x/b_keys"));
        assert!(!lib.is_unstable("decode/keys/c_keys") && !lib.is_unstable("encode/keys/a_keys"));
        let empty = tempfile::tempdir().unwrap();
        assert!(matches!(
            read_all(empty.path()),
            Err(ManifestError::Empty { .. })
        ));
    }
}
