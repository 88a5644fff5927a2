//! An official Godot release as the releases are published: its tag, the Linux x86_64 file to
//! fetch, the version the engine must report, and the release's `SHA512-SUMS.txt`.

use super::InstallError;

/// The official releases' download folder, laid out as `BASE/<tag>/<file>`.
pub const DEFAULT_BASE: &str = "https://github.com/godotengine/godot-builds/releases/download";

/// The checksum file every release publishes beside its builds.
pub(crate) const SUMS_FILE: &str = "SHA512-SUMS.txt";

/// One release, from the version a user asks for (`4.3`, `4.6.3`, `3.5.3-stable`, `4.4-rc1`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Release {
    /// The release tag (`4.3-stable`).
    pub tag: String,
    /// The numbers of the version (`[4, 3]`).
    pub numbers: Vec<u32>,
    /// The release status (`stable`, `rc1`).
    pub status: String,
}

impl Release {
    /// Reads a version as a user writes it: numbers with an optional `-STATUS` (default
    /// `stable`).
    pub fn parse(text: &str) -> Result<Release, InstallError> {
        let bad = || InstallError::BadVersion(text.to_string());
        let (numbers, status) = text.split_once('-').unwrap_or((text, "stable"));
        let numbers: Vec<u32> = numbers
            .split('.')
            .map(|n| n.parse().map_err(|_| bad()))
            .collect::<Result<_, _>>()?;
        let status_ok = !status.is_empty() && status.bytes().all(|b| b.is_ascii_alphanumeric());
        if !(2..=3).contains(&numbers.len()) || !status_ok || !matches!(numbers[0], 3 | 4) {
            return Err(bad());
        }
        let joined: Vec<String> = numbers.iter().map(u32::to_string).collect();
        Ok(Release {
            tag: format!("{}-{status}", joined.join(".")),
            numbers,
            status: status.to_string(),
        })
    }

    /// The version the engine reports (`Engine.get_version_info()`): `4.3.0.stable`.
    pub fn engine_version(&self) -> String {
        let n = |i: usize| self.numbers.get(i).copied().unwrap_or(0);
        format!("{}.{}.{}.{}", n(0), n(1), n(2), self.status)
    }

    /// The engine's short name in the cache: the tag without `-stable` (`4.3`, `4.4-rc1`).
    pub fn default_name(&self) -> String {
        self.tag
            .strip_suffix("-stable")
            .unwrap_or(&self.tag)
            .to_string()
    }

    /// The files that hold a Linux x86_64 engine able to run without a display, best first:
    /// 4.x's standard build (run with `--headless`); 3.x's headless build, else its server build.
    pub(crate) fn candidates(&self) -> Vec<String> {
        let stem = format!("Godot_v{}", self.tag);
        if self.numbers[0] >= 4 {
            vec![format!("{stem}_linux.x86_64.zip")]
        } else {
            vec![
                format!("{stem}_linux_headless.64.zip"),
                format!("{stem}_linux_server.64.zip"),
            ]
        }
    }

    /// Flags every run passes to the engine: 3.x's headless and server builds need none.
    pub fn flags(&self) -> Vec<String> {
        if self.numbers[0] >= 4 {
            vec!["--headless".into()]
        } else {
            Vec::new()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_name_their_tags_files_and_reports() {
        let r = Release::parse("4.3").unwrap();
        assert_eq!(r.tag, "4.3-stable");
        assert_eq!(r.engine_version(), "4.3.0.stable");
        assert_eq!(r.default_name(), "4.3");
        assert_eq!(r.candidates(), ["Godot_v4.3-stable_linux.x86_64.zip"]);
        let r = Release::parse("3.5.3-stable").unwrap();
        assert_eq!(r.engine_version(), "3.5.3.stable");
        assert_eq!(
            r.candidates(),
            [
                "Godot_v3.5.3-stable_linux_headless.64.zip",
                "Godot_v3.5.3-stable_linux_server.64.zip"
            ]
        );
        assert!(r.flags().is_empty());
        let r = Release::parse("4.4-rc1").unwrap();
        assert_eq!(
            (r.default_name().as_str(), r.engine_version().as_str()),
            ("4.4-rc1", "4.4.0.rc1")
        );
        for bad in ["4", "x.3", "4.3-", "5.0", "4.3-a/b", "4.3.1.2"] {
            assert!(Release::parse(bad).is_err(), "{bad}");
        }
    }
}
