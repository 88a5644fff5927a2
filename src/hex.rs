//! Hex text of bytes, as the corpus, vector files, tagged JSON and the command line write it.
//!
//! The codec's own hex, not the `hex` crate: it streams ([`Hex`] formats in pieces, [`Unhex`] is
//! fed in pieces), skips whitespace and names the offending character, which that crate does not,
//! and the codec keeps its dependencies few.

use std::fmt;

/// Lowercase hex of some bytes, to format (`{}`) without building a string: writers get it in
/// pieces of a few kilobytes.
#[derive(Clone, Copy)]
pub struct Hex<'a>(pub &'a [u8]);

const DIGITS: &[u8; 16] = b"0123456789abcdef";

impl fmt::Display for Hex<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut buf = [0u8; 8192];
        for chunk in self.0.chunks(buf.len() / 2) {
            for (pair, b) in buf.chunks_exact_mut(2).zip(chunk) {
                pair[0] = DIGITS[usize::from(b >> 4)];
                pair[1] = DIGITS[usize::from(b & 15)];
            }
            let text = std::str::from_utf8(&buf[..chunk.len() * 2]).map_err(|_| fmt::Error)?;
            f.write_str(text)?;
        }
        Ok(())
    }
}

impl fmt::Debug for Hex<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hex(\"{self}\")")
    }
}

/// Lowercase hex of some bytes.
pub fn hex(bytes: &[u8]) -> String {
    Hex(bytes).to_string()
}

/// Why text is not hex: what is wrong, and where (an offset in the text).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HexError {
    /// An odd number of digits: the last byte has one.
    #[error("odd number of hex digits ({digits})")]
    OddDigits {
        /// The digits (characters other than whitespace) in the text.
        digits: usize,
    },
    /// The first character that is not a hex digit.
    #[error("{}", not_a_digit(*.offset, *.byte))]
    NotADigit {
        /// Its offset in the text, in bytes.
        offset: usize,
        /// The byte there.
        byte: u8,
    },
}

fn not_a_digit(at: usize, c: u8) -> String {
    if c.is_ascii() {
        format!("character {at} ({:?}) is not a hex digit", c as char)
    } else {
        format!("byte {at} (0x{c:02x}) is not a hex digit")
    }
}

/// Bytes from hex text; ASCII whitespace is ignored. The error names the offending character index.
pub fn unhex(text: &str) -> Result<Vec<u8>, HexError> {
    let mut u = Unhex::with_capacity(text.len());
    u.feed(text.as_bytes());
    u.finish()
}

/// Hex text to bytes, fed in pieces (as read from a file), holding one byte per two digits. ASCII
/// whitespace is ignored anywhere, even between the two digits of a byte.
#[derive(Debug, Default)]
pub struct Unhex {
    bytes: Vec<u8>,
    /// The first digit of a byte whose second is still to come.
    high: Option<u8>,
    /// Digits (non-whitespace characters) so far.
    digits: usize,
    /// Bytes of text so far.
    offset: usize,
    /// The first character that is not a hex digit, and where.
    bad: Option<(usize, u8)>,
}

impl Unhex {
    /// A decoder expecting about `text_len` bytes of text.
    pub fn with_capacity(text_len: usize) -> Unhex {
        Unhex {
            bytes: Vec::with_capacity(text_len / 2),
            ..Unhex::default()
        }
    }

    /// Takes the next piece of text. After the first character that is not a hex digit, the rest
    /// is not looked at: [`Unhex::failed`] says so, and a reader can stop reading.
    pub fn feed(&mut self, text: &[u8]) {
        if self.bad.is_some() {
            return;
        }
        for &c in text {
            let at = self.offset;
            self.offset += 1;
            if c.is_ascii_whitespace() {
                continue;
            }
            self.digits += 1;
            let nibble = match c {
                b'0'..=b'9' => c - b'0',
                b'a'..=b'f' => c - b'a' + 10,
                b'A'..=b'F' => c - b'A' + 10,
                _ => {
                    self.bad = Some((at, c));
                    return;
                }
            };
            match self.high.take() {
                None => self.high = Some(nibble),
                Some(high) => self.bytes.push(high << 4 | nibble),
            }
        }
    }

    /// The text so far has a character that is not a hex digit: whatever follows, the text is
    /// refused, so there is no need to read on.
    pub fn failed(&self) -> bool {
        self.bad.is_some()
    }

    /// Bytes of text fed so far (up to and including the first character that is not a digit).
    pub fn text_len(&self) -> usize {
        self.offset
    }

    /// Takes the bytes made so far, leaving none: a reader that keeps only part of its input
    /// takes them after each piece.
    pub fn take_bytes(&mut self) -> Vec<u8> {
        std::mem::take(&mut self.bytes)
    }

    /// The bytes, or what is wrong with the text: the first character that is not a hex digit
    /// (by its offset in the text), or else an odd number of digits.
    pub fn finish(self) -> Result<Vec<u8>, HexError> {
        if let Some((offset, byte)) = self.bad {
            return Err(HexError::NotADigit { offset, byte });
        }
        if !self.digits.is_multiple_of(2) {
            return Err(HexError::OddDigits {
                digits: self.digits,
            });
        }
        Ok(self.bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_is_read_in_pieces_at_a_byte_per_two_digits() {
        let mut u = Unhex::with_capacity(0);
        for piece in ["0", "a F", "\n", "1"] {
            u.feed(piece.as_bytes());
        }
        assert_eq!(u.finish(), Ok(vec![0x0a, 0xf1]));
        let error = |text: &str| unhex(text).map_err(|e| (e.clone(), e.to_string()));
        assert_eq!(
            error("0a f1 2"),
            Err((
                HexError::OddDigits { digits: 5 },
                "odd number of hex digits (5)".into()
            ))
        );
        assert_eq!(
            error("02 00 0g 00"),
            Err((
                HexError::NotADigit {
                    offset: 7,
                    byte: b'g'
                },
                "character 7 ('g') is not a hex digit".into()
            ))
        );
        assert_eq!(
            error("0é0"),
            Err((
                HexError::NotADigit {
                    offset: 1,
                    byte: 0xc3
                },
                "byte 1 (0xc3) is not a hex digit".into()
            ))
        );
        // The first character that is not a digit is the error, before any count of digits, and
        // nothing after it is looked at: a reader of endless text can stop there.
        let mut u = Unhex::with_capacity(0);
        u.feed(b"0a 1\0\0");
        assert!(u.failed());
        assert_eq!(u.text_len(), 5);
        u.feed(&[0; 4096]);
        assert_eq!(u.text_len(), 5);
        assert_eq!(u.take_bytes(), [0x0a]);
        assert_eq!(u.finish(), Err(HexError::NotADigit { offset: 4, byte: 0 }));
        let bytes: Vec<u8> = (0..=255).collect();
        assert_eq!(unhex(&hex(&bytes)), Ok(bytes.clone()));
        assert_eq!(format!("{:?}", Hex(&[1, 0xab])), r#"Hex("01ab")"#);
        // Larger than one piece of the formatter.
        let big: Vec<u8> = (0..10_000).map(|i| (i % 251) as u8).collect();
        assert_eq!(unhex(&Hex(&big).to_string()), Ok(big));
    }
}
