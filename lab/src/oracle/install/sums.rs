//! A release's `SHA512-SUMS.txt`: the digest of every file it lists, read before any archive is.

use super::InstallError;

/// The SHA-512 of every file a `SHA512-SUMS.txt` lists (`HEX  NAME` lines, as `sha512sum`
/// writes them; a `*` before the name marks binary mode).
pub(crate) fn parse_sums(text: &str) -> Result<Vec<(String, [u8; 64])>, InstallError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let bad = || InstallError::BadSums {
            line: i + 1,
            text: line.chars().take(80).collect(),
        };
        let (hex, name) = line.split_once(char::is_whitespace).ok_or_else(bad)?;
        let name = name.trim_start().trim_start_matches('*').trim_end();
        let digest = unhex64(hex).ok_or_else(bad)?;
        if name.is_empty() {
            return Err(bad());
        }
        out.push((name.to_string(), digest));
    }
    Ok(out)
}

/// A SHA-512 digest from its 128 hex digits (the line was split at whitespace, so none is left).
fn unhex64(hex: &str) -> Option<[u8; 64]> {
    gdmarshal::hex::unhex(hex).ok()?.try_into().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sums_lines_are_read_and_bad_ones_named() {
        let h = "ab".repeat(64);
        let sums = parse_sums(&format!("{h}  a.zip\n\n{h} *b.zip\n")).unwrap();
        assert_eq!(sums.len(), 2);
        assert_eq!((sums[0].0.as_str(), sums[1].0.as_str()), ("a.zip", "b.zip"));
        assert_eq!(gdmarshal::hex::hex(&sums[0].1), h);
        // Not hex, a digest one byte short or long, a digit that is not hex, no name.
        let short = "ab".repeat(63);
        let long = "ab".repeat(65);
        let not_hex = format!("{}zz", "ab".repeat(63));
        for line in [
            "zz  b.zip".to_string(),
            format!("{short}  b.zip"),
            format!("{long}  b.zip"),
            format!("{not_hex}  b.zip"),
            format!("{h}  "),
        ] {
            let err = parse_sums(&format!("{h}  a.zip\n{line}\n")).unwrap_err();
            assert!(
                matches!(err, InstallError::BadSums { line: 2, .. }),
                "{line}: {err}"
            );
        }
    }
}
