//! The Godot versions whose engines gdmarshal runs, from `lab/godot-versions.tsv`: the one table
//! that says which format profiles are verified against a real engine and how each engine is had.
//! Discovery, the command line's help and the reports read it here; `scripts/install-engines.sh`
//! reads the same file. A profile no line names is *derived*: it follows Godot's source history
//! (`gdmarshal::profile`), and no engine has checked it.

use std::sync::LazyLock;

use gdmarshal::profile::{Profile, all_profiles};

/// How an engine is had.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineSource {
    /// A Debian package of that suite, unpacked into the engine cache by
    /// `scripts/install-engines.sh`.
    Debian {
        /// The suite (`bookworm`, `sid`).
        suite: String,
        /// The package (`godot3-server`, `godot`).
        package: String,
    },
    /// Built from Debian's source package by `scripts/build-engine.sh` with these SCons options.
    Build {
        /// The options (`precision=double`).
        options: String,
    },
    /// Godot's official release build of this tag, fetched and checked against the release's
    /// SHA512-SUMS.txt by `gdmarshal engines install` (`scripts/install-engines.sh --only NAME`).
    Official {
        /// The release tag (`4.3-stable`).
        tag: String,
    },
}

/// One line of the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GodotVersion {
    /// The engine's short name, which is its format profile (`4.6`, `4.6-double`).
    pub name: String,
    /// That profile.
    pub profile: Profile,
    /// How the engine is had.
    pub source: EngineSource,
    /// The engine binary inside the unpacked packages, for a Debian package.
    pub binary: Option<String>,
    /// Flags every run passes to the engine.
    pub flags: Vec<String>,
    /// Whether every CI run needs the engine installed.
    pub ci: bool,
}

/// The table's text.
pub(crate) const TABLE: &str = include_str!("../godot-versions.tsv");

/// Why the table cannot be read: its line and what is wrong there.
#[derive(Debug, thiserror::Error)]
#[error("lab/godot-versions.tsv:{line}: {problem}")]
pub struct TableError {
    /// 1-based line.
    pub line: usize,
    /// What is wrong.
    pub problem: String,
}

/// Parses the table's text (`#` comment lines, a header line, then one version a line).
pub fn parse(text: &str) -> Result<Vec<GodotVersion>, TableError> {
    let mut out: Vec<GodotVersion> = Vec::new();
    let mut header = false;
    for (i, line) in text.lines().enumerate() {
        let err = |problem: String| TableError {
            line: i + 1,
            problem,
        };
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let cols: Vec<&str> = line.split('\t').collect();
        if !header {
            if cols != ["name", "source", "binary", "flags", "ci"] {
                return Err(err(format!(
                    "expected the header name, source, binary, flags, ci; got {line:?}"
                )));
            }
            header = true;
            continue;
        }
        let [name, source, binary, flags, ci] = cols[..] else {
            return Err(err(format!(
                "expected 5 tab-separated columns, got {}",
                cols.len()
            )));
        };
        let profile: Profile = name
            .parse()
            .map_err(|e| err(format!("{name:?} is no format profile: {e}")))?;
        let source = match source.split(':').collect::<Vec<_>>()[..] {
            ["debian", suite, package] => EngineSource::Debian {
                suite: suite.into(),
                package: package.into(),
            },
            ["build", options] => EngineSource::Build {
                options: options.into(),
            },
            ["official", tag] if crate::oracle::install::Release::parse(tag).is_ok() => {
                EngineSource::Official { tag: tag.into() }
            }
            _ => {
                return Err(err(format!(
                    "source {source:?}: expected debian:SUITE:PACKAGE, build:OPTIONS or \
                     official:TAG (a release tag such as 4.3-stable)"
                )));
            }
        };
        let binary = match (binary, &source) {
            ("-", EngineSource::Build { .. } | EngineSource::Official { .. }) => None,
            (b, EngineSource::Debian { .. }) if b.starts_with('/') => Some(b.to_string()),
            (b, _) => {
                return Err(err(format!(
                    "binary {b:?}: an absolute path for a Debian package, - for the others"
                )));
            }
        };
        let ci = match ci {
            "yes" => true,
            "no" => false,
            other => return Err(err(format!("ci {other:?}: yes or no"))),
        };
        if out.iter().any(|v| v.name == name) {
            return Err(err(format!("{name} is listed twice")));
        }
        out.push(GodotVersion {
            name: name.to_string(),
            profile,
            source,
            binary,
            flags: if flags == "-" {
                Vec::new()
            } else {
                flags.split(' ').map(str::to_string).collect()
            },
            ci,
        });
    }
    Ok(out)
}

static VERSIONS: LazyLock<Vec<GodotVersion>> =
    LazyLock::new(|| parse(TABLE).expect("lab/godot-versions.tsv parses (a test checks it)"));

/// Every version of the table, in its order.
pub fn all() -> &'static [GodotVersion] {
    &VERSIONS
}

/// The names of the engines every CI run needs (`scripts/install-engines.sh` installs them).
pub fn ci_engines() -> Vec<&'static str> {
    all()
        .iter()
        .filter(|v| v.ci)
        .map(|v| v.name.as_str())
        .collect()
}

/// Whether a real engine verifies `profile`.
pub fn is_verified(profile: Profile) -> bool {
    all().iter().any(|v| v.profile == profile)
}

/// The newest single-precision profile of `major` that an engine verifies: what the corrected
/// documentation page of that major describes.
pub(crate) fn newest_verified(major: u32) -> Option<Profile> {
    all()
        .iter()
        .map(|v| v.profile)
        .filter(|p| p.major() == major && !p.double_reals())
        .max_by_key(|p| p.minor())
}

/// The profiles no engine verifies: derived from Godot's source history.
pub fn derived() -> Vec<Profile> {
    all_profiles()
        .iter()
        .copied()
        .filter(|p| !is_verified(*p))
        .collect()
}

/// The version numbers `--godot` takes, from the codec's profiles: `3, 3.0 to 3.6, 4, 4.0 to
/// 4.6` (a bare major means its newest minor).
pub fn accepted_list() -> String {
    let mut parts = Vec::new();
    for major in [3, 4] {
        let minors: Vec<u32> = all_profiles()
            .iter()
            .filter(|p| p.major() == major && !p.double_reals())
            .map(|p| p.minor())
            .collect();
        if let (Some(first), Some(last)) = (minors.iter().min(), minors.iter().max()) {
            parts.push(format!("{major}, {major}.{first} to {major}.{last}"));
        }
    }
    parts.join(", ")
}

/// The verified names as a sentence: `3.2, 3.6, 4.6 and 4.6-double`.
pub fn verified_list() -> String {
    let names: Vec<&str> = all().iter().map(|v| v.name.as_str()).collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => last.to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

/// What a profile's format rests on, as `--help`, `gdmarshal engines`, the README and the report
/// say it: `verified` when a real engine's answers are recorded for it, else derived.
pub fn status(profile: Profile) -> &'static str {
    if is_verified(profile) {
        "verified"
    } else {
        "derived from source, not checked by an engine"
    }
}

/// The two commands that record the answers of `version` (as `gdmarshal engines install`
/// takes it) into the corpus folder `dir`: install Godot's official build, ask it every case.
pub(crate) fn record_commands(version: &str, dir: &str) -> [String; 2] {
    let name = version.strip_suffix("-stable").unwrap_or(version);
    [
        format!("gdmarshal engines install {version}"),
        format!("gdmarshal corpus generate --engine {name} --corpus {dir}"),
    ]
}

/// Why there is nothing to judge a `profile` run against: no recorded answers, the verified
/// versions, and the commands that would record them.
pub fn no_corpus_message(profile: Profile) -> String {
    let [install, generate] = record_commands(&profile.to_string(), "DIR");
    format!(
        "no engine answers are recorded for Godot {profile} (its format is {}), and a run is never \
         judged with this crate's own answers; verified: {}. To record them: `{install}`, then \
         `{generate}`, and run again with --corpus DIR",
        status(profile),
        verified_list()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_parses_and_names_every_corpus_engine() {
        let versions = parse(TABLE).unwrap();
        assert!(versions.iter().filter(|v| v.ci).count() >= 3);
        // Every engine whose answers are in the corpus is a line of the table.
        for c in crate::corpus::load_from(&crate::corpus::Source::Embedded).unwrap() {
            assert!(
                is_verified(c.profile),
                "the corpus has {} but the table does not",
                c.profile
            );
        }
        assert!(!derived().is_empty() && derived().iter().all(|p| !is_verified(*p)));
    }

    #[test]
    fn a_bad_line_is_named() {
        let head = "# c\nname\tsource\tbinary\tflags\tci\n";
        let bad = |line: &str| parse(&format!("{head}{line}\n")).unwrap_err().to_string();
        assert!(
            bad("9.9\tdebian:sid:godot\t/usr/bin/godot\t-\tyes")
                .starts_with("lab/godot-versions.tsv:3: \"9.9\" is no format profile")
        );
        assert!(
            bad("4.6\tapt:godot\t/usr/bin/godot\t-\tyes").contains("expected debian:SUITE:PACKAGE")
        );
        assert!(bad("4.6\tdebian:sid:godot\tgodot\t-\tyes").contains("an absolute path"));
        assert!(
            bad("4.3\tofficial:4.3-stable\t/usr/bin/godot\t-\tno").contains("- for the others")
        );
        assert!(bad("4.3\tofficial:latest\t-\t-\tno").contains("official:TAG"));
        let ok = parse(&format!(
            "{head}4.3\tofficial:4.3-stable\t-\t--headless\tno\n"
        ))
        .unwrap();
        assert_eq!(
            ok[0].source,
            EngineSource::Official {
                tag: "4.3-stable".into()
            }
        );
        assert!(bad("4.6\tdebian:sid:godot\t/usr/bin/godot\t-\tmaybe").contains("yes or no"));
        assert!(bad("4.6\tdebian:sid:godot").contains("5 tab-separated columns"));
        let twice = "4.6\tdebian:sid:godot\t/usr/bin/godot\t-\tyes";
        assert!(bad(&format!("{twice}\n{twice}")).contains("listed twice"));
    }

    #[test]
    fn the_newest_verified_of_each_major_has_an_engine() {
        for major in [3, 4] {
            let p = newest_verified(major).unwrap();
            assert!(is_verified(p) && p.major() == major && !p.double_reals());
            assert!(all().iter().all(|v| v.profile.major() != major
                || v.profile.double_reals()
                || v.profile.minor() <= p.minor()));
        }
    }

    #[test]
    fn a_version_without_answers_is_told_how_to_record_them() {
        let p: Profile = "4.3".parse().unwrap();
        assert_eq!(status(p), "derived from source, not checked by an engine");
        assert_eq!(status(newest_verified(4).unwrap()), "verified");
        let m = no_corpus_message(p);
        assert!(
            m.contains(&format!("verified: {}.", verified_list())),
            "{m}"
        );
        assert!(m.contains("`gdmarshal engines install 4.3`, then `gdmarshal corpus generate --engine 4.3 --corpus DIR`"), "{m}");
    }

    #[test]
    fn the_readme_names_the_verified_versions_of_the_table() {
        let readme = include_str!("../../README.md").replace('\n', " ");
        let sentence = format!(
            "Verified (a real engine's answers are recorded): {}",
            verified_list()
        );
        assert!(
            readme.contains(&sentence),
            "README.md should say: {sentence}"
        );
        let derived = derived()
            .iter()
            .find(|p| !p.double_reals())
            .copied()
            .unwrap();
        assert!(readme.contains(&status(derived).replace('\n', " ")));
    }

    #[test]
    fn the_accepted_versions_are_the_codecs_profiles() {
        assert_eq!(accepted_list(), "3, 3.0 to 3.6, 4, 4.0 to 4.6");
    }

    #[test]
    fn the_verified_list_reads_as_a_sentence() {
        assert_eq!(verified_list(), "3.2, 3.6, 4.6 and 4.6-double");
    }
}
