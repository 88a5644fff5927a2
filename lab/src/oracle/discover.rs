//! Finding Godot engines: the install manifest of `scripts/install-engines.sh`, environment
//! variables, and `PATH`.

use std::collections::HashSet;
use std::fmt;
use std::path::{Path, PathBuf};

use crate::paths::engine_cache;

/// Binary names looked up on `PATH`.
const PATH_NAMES: &[&str] = &["godot", "godot4", "godot3", "godot3-server"];

/// Where an engine was found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// An entry of the install manifest (this file).
    Manifest(PathBuf),
    /// An environment variable (this one).
    Env(String),
    /// A binary of this name on `PATH`.
    Path(String),
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Source::Manifest(p) => write!(f, "manifest {}", p.display()),
            Source::Env(var) => write!(f, "env {var}"),
            Source::Path(name) => write!(f, "PATH ({name})"),
        }
    }
}

/// An engine binary (or launcher script) to run, before it has been started.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    /// A short name: the manifest's (`4.6`), the variable's (`GDMARSHAL_GODOT4_6` gives `4.6`),
    /// or the binary's file name.
    pub name: String,
    /// The program to run.
    pub launcher: PathBuf,
    /// Arguments to put before the oracle's own (`--headless` for binaries that are not
    /// manifest launchers, which add it themselves where needed).
    pub args: Vec<String>,
    /// Where it was found.
    pub source: Source,
    /// The version the manifest recorded at install time, if any (the engine's own report in
    /// the handshake is what counts).
    pub recorded_version: Option<String>,
    /// Whether "every engine" (no names given) includes it: false for builds made to measure
    /// rather than to answer (the manifest's `"in_all": false`, e.g. the coverage build).
    pub in_all: bool,
    /// The source tarball it was built from, for engines `scripts/build-engine.sh` built (the
    /// manifest's `built_from`); none for packaged engines.
    pub built_from: Option<String>,
    /// How long an engine whose work is done may take to exit on its own once its connection is
    /// closed, before it is killed (the manifest's `exit_grace_secs`; zero: killed at once). A
    /// coverage build needs it: it writes its counters on a normal exit only.
    pub exit_grace: std::time::Duration,
}

/// The install manifest's path (`manifest.json` in [`engine_cache`]).
pub fn manifest_path() -> Option<PathBuf> {
    engine_cache().map(|c| c.join("manifest.json"))
}

/// Every engine that can be found, in order: manifest, environment, `PATH`. The same program
/// found twice is listed once.
pub fn discover() -> Vec<EngineSpec> {
    let mut found = Vec::new();
    if let Some(path) = manifest_path() {
        found.extend(from_manifest(&path));
    }
    found.extend(from_env(std::env::vars()));
    found.extend(from_path());
    let mut seen = HashSet::new();
    found.retain(|e| seen.insert(std::fs::canonicalize(&e.launcher).unwrap_or(e.launcher.clone())));
    found
}

/// The engines listed in an install manifest; none if it is missing or unreadable.
pub fn from_manifest(path: &Path) -> Vec<EngineSpec> {
    let Ok(text) = crate::bounded::read_text(path) else {
        return Vec::new();
    };
    let Ok(json) = serde_json::from_str::<serde_json::Value>(&text) else {
        return Vec::new();
    };
    let engines = json
        .get("engines")
        .and_then(|e| e.as_array())
        .cloned()
        .unwrap_or_default();
    engines
        .iter()
        .filter_map(|e| {
            Some(EngineSpec {
                name: e.get("name")?.as_str()?.to_string(),
                launcher: PathBuf::from(e.get("launcher")?.as_str()?),
                args: Vec::new(),
                source: Source::Manifest(path.to_path_buf()),
                recorded_version: e.get("version").and_then(|v| v.as_str()).map(String::from),
                in_all: e.get("in_all").and_then(|v| v.as_bool()).unwrap_or(true),
                built_from: e
                    .get("built_from")
                    .and_then(|v| v.as_str())
                    .map(String::from),
                exit_grace: std::time::Duration::from_secs(
                    e.get("exit_grace_secs")
                        .and_then(|v| v.as_u64())
                        .unwrap_or(0),
                ),
            })
        })
        .collect()
}

/// Engines named by environment variables: `GDMARSHAL_GODOT<MAJOR>_<MINOR>=path` (named
/// `MAJOR.MINOR`) and `GDMARSHAL_GODOT=path[,path...]` (named by file name).
pub(crate) fn from_env(vars: impl Iterator<Item = (String, String)>) -> Vec<EngineSpec> {
    let mut vars: Vec<(String, String)> = vars
        .filter(|(k, _)| k.starts_with("GDMARSHAL_GODOT"))
        .collect();
    vars.sort();
    let mut out = Vec::new();
    for (key, value) in vars {
        let suffix = &key["GDMARSHAL_GODOT".len()..];
        let named = suffix.split_once('_').filter(|(major, minor)| {
            !major.is_empty()
                && !minor.is_empty()
                && (major.to_string() + minor)
                    .bytes()
                    .all(|b| b.is_ascii_digit())
        });
        let paths: Vec<&str> = value
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .collect();
        match (suffix.is_empty(), named) {
            (true, _) => out.extend(paths.iter().map(|p| user_spec(file_name(p), p, &key))),
            (false, Some((major, minor))) => out.extend(
                paths
                    .iter()
                    .map(|p| user_spec(format!("{major}.{minor}"), p, &key)),
            ),
            _ => {}
        }
    }
    out
}

/// `godot`, `godot4`, `godot3` and `godot3-server` found on `PATH`.
pub(crate) fn from_path() -> Vec<EngineSpec> {
    PATH_NAMES
        .iter()
        .filter_map(|name| {
            let launcher = which::which(name).ok()?;
            Some(EngineSpec {
                name: name.to_string(),
                launcher,
                args: vec!["--headless".into()],
                source: Source::Path(name.to_string()),
                recorded_version: None,
                in_all: true,
                built_from: None,
                exit_grace: std::time::Duration::ZERO,
            })
        })
        .collect()
}

fn user_spec(name: String, path: &str, var: &str) -> EngineSpec {
    EngineSpec {
        name,
        launcher: PathBuf::from(path),
        // 4.x editor builds need it to run without a display; 3.x takes it as a script argument.
        args: vec!["--headless".into()],
        source: Source::Env(var.to_string()),
        recorded_version: None,
        in_all: true,
        built_from: None,
        exit_grace: std::time::Duration::ZERO,
    }
}

fn file_name(path: &str) -> String {
    Path::new(path)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars(pairs: &[(&str, &str)]) -> impl Iterator<Item = (String, String)> {
        pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect::<Vec<_>>()
            .into_iter()
    }

    #[test]
    fn env_names_engines() {
        let found = from_env(vars(&[
            ("GDMARSHAL_GODOT4_6", "/opt/godot46"),
            ("GDMARSHAL_GODOT", "/a/godot-x, /b/godot-y"),
            ("GDMARSHAL_GODOT_PROJECT", "/ignored"),
            ("GDMARSHAL_GODOTX_6", "/ignored"),
            ("PATH", "/usr/bin"),
        ]));
        let names: Vec<(&str, &str)> = found
            .iter()
            .map(|e| (e.name.as_str(), e.launcher.to_str().unwrap()))
            .collect();
        assert_eq!(
            names,
            [
                ("godot-x", "/a/godot-x"),
                ("godot-y", "/b/godot-y"),
                ("4.6", "/opt/godot46")
            ]
        );
        assert_eq!(found[2].source, Source::Env("GDMARSHAL_GODOT4_6".into()));
    }

    #[test]
    fn manifest_lists_engines() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("manifest.json");
        std::fs::write(
            &path,
            r#"{"engines":[{"name":"3.2","version":"3.2.3.stable","launcher":"/c/bin/godot-3.2"},{"name":"bad"}]}"#,
        )
        .unwrap();
        let found = from_manifest(&path);
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].name, "3.2");
        assert_eq!(found[0].recorded_version.as_deref(), Some("3.2.3.stable"));
        assert!(from_manifest(&dir.path().join("missing.json")).is_empty());
    }
}
