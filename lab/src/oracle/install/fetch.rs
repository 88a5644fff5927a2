//! Getting a release's files from its base: an http(s) URL (downloads resume from a `.part` file
//! and are renamed into place only when complete) or a local folder laid out the same way.

use std::fs::{self, File, OpenOptions};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use super::{InstallError, Progress};

/// Where a release's files come from: `BASE/<tag>/<file>`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Base {
    /// An http or https URL.
    Url(String),
    /// A local folder.
    Dir(PathBuf),
}

impl Base {
    /// Reads `--from` / `GDMARSHAL_RELEASES_URL`: a URL when it starts with `http://` or
    /// `https://`, else a folder.
    pub fn parse(text: &str) -> Base {
        if text.starts_with("http://") || text.starts_with("https://") {
            Base::Url(text.trim_end_matches('/').to_string())
        } else {
            Base::Dir(PathBuf::from(text.strip_prefix("file://").unwrap_or(text)))
        }
    }

    /// Where `file` of release `tag` is.
    pub(crate) fn locate(&self, tag: &str, file: &str) -> String {
        match self {
            Base::Url(u) => format!("{u}/{tag}/{file}"),
            Base::Dir(d) => d.join(tag).join(file).display().to_string(),
        }
    }
}

/// The largest checksum file read (a release's lists some forty lines).
const SUMS_LIMIT: u64 = 1 << 20;

fn agent() -> ureq::Agent {
    ureq::Agent::config_builder()
        .http_status_as_error(false)
        .build()
        .into()
}

fn fetch_error(url: &str, e: ureq::Error) -> InstallError {
    InstallError::Fetch {
        url: url.to_string(),
        reason: e.to_string(),
    }
}

/// Reads a small file (the release's checksum list) whole.
pub(crate) fn read_small(base: &Base, tag: &str, file: &str) -> Result<Vec<u8>, InstallError> {
    let at = base.locate(tag, file);
    match base {
        Base::Dir(_) => {
            let f = File::open(&at).map_err(|e| InstallError::io(&at, e))?;
            let mut buf = Vec::new();
            f.take(SUMS_LIMIT)
                .read_to_end(&mut buf)
                .map_err(|e| InstallError::io(&at, e))?;
            Ok(buf)
        }
        Base::Url(_) => {
            let mut resp = agent().get(&at).call().map_err(|e| fetch_error(&at, e))?;
            if resp.status() != 200 {
                return Err(InstallError::Status {
                    url: at,
                    status: resp.status().as_u16(),
                });
            }
            resp.body_mut()
                .with_config()
                .limit(SUMS_LIMIT)
                .read_to_vec()
                .map_err(|e| fetch_error(&at, e))
        }
    }
}

/// The archive `file` of release `tag` as a local file: the folder's own file for a folder base;
/// for a URL, `downloads/<file>`, downloaded unless it is already there. An interrupted
/// download stays as `<file>.part` and is resumed (or restarted, if the server cannot resume).
/// Also says whether it was downloaded now.
pub fn archive(
    base: &Base,
    tag: &str,
    file: &str,
    downloads: &Path,
    progress: &mut dyn Progress,
) -> Result<(PathBuf, bool), InstallError> {
    if let Base::Dir(_) = base {
        return Ok((PathBuf::from(base.locate(tag, file)), false));
    }
    let done = downloads.join(file);
    if done.is_file() {
        return Ok((done, false));
    }
    fs::create_dir_all(downloads).map_err(|e| InstallError::io(downloads, e))?;
    let part = downloads.join(format!("{file}.part"));
    let url = base.locate(tag, file);
    let have = fs::metadata(&part).map(|m| m.len()).unwrap_or(0);
    let mut request = agent().get(&url);
    if have > 0 {
        request = request.header("Range", format!("bytes={have}-"));
    }
    let mut resp = request.call().map_err(|e| fetch_error(&url, e))?;
    let (append, start) = match resp.status().as_u16() {
        206 => (true, have),
        200 => (false, 0),
        status => return Err(InstallError::Status { url, status }),
    };
    let length: Option<u64> = resp
        .headers()
        .get("content-length")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse().ok());
    let mut out = OpenOptions::new()
        .create(true)
        .write(true)
        .append(append)
        .truncate(!append)
        .open(&part)
        .map_err(|e| InstallError::io(&part, e))?;
    progress.start(file, length.map(|l| l + start), start);
    let mut reader = resp.body_mut().as_reader();
    let mut buf = vec![0u8; 64 * 1024];
    let mut got = 0u64;
    loop {
        let n = match reader.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) => {
                progress.finish();
                return Err(InstallError::Interrupted {
                    url,
                    reason: e.to_string(),
                });
            }
        };
        out.write_all(&buf[..n])
            .map_err(|e| InstallError::io(&part, e))?;
        got += n as u64;
        progress.advance(n as u64);
    }
    progress.finish();
    out.sync_all().map_err(|e| InstallError::io(&part, e))?;
    if let Some(expected) = length
        && got < expected
    {
        return Err(InstallError::Interrupted {
            url,
            reason: format!("{got} of {expected} bytes received"),
        });
    }
    fs::rename(&part, &done).map_err(|e| InstallError::io(&done, e))?;
    Ok((done, true))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_base_is_a_url_or_a_folder() {
        let u = Base::parse("http://127.0.0.1:8000/rel/");
        assert_eq!(
            u.locate("4.3-stable", "a.zip"),
            "http://127.0.0.1:8000/rel/4.3-stable/a.zip"
        );
        assert_eq!(Base::parse("/srv/rel"), Base::Dir("/srv/rel".into()));
        assert_eq!(Base::parse("file:///srv/rel"), Base::Dir("/srv/rel".into()));
    }
}
