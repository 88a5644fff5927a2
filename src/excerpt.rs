//! Input quoted in an error, cut to a bounded length that says how long the whole was.
//!
//! Errors quote what they refuse (a JSON string, a member name, the path of a node 1,024 levels
//! deep), and the input is the attacker's to choose: a quote of a megabyte would make a megabyte
//! error line. Every quote of input in an error goes through [`cut`], so no error of the codec is
//! longer than its own words plus a few quotes of at most [`MAX_QUOTE`] bytes each.

use std::borrow::Cow;
use std::fmt;

/// Bytes of a quote kept at most (its start and its end), besides the note of how long it was.
pub const MAX_QUOTE: usize = 160;

/// `text`, or its start and end around a note of how many bytes were left out and how long the
/// whole was, when it is longer than `max` bytes. The cut falls on character boundaries, so the
/// result is valid text of at most `max` bytes plus the note.
///
/// ```
/// use gdmarshal::excerpt::cut;
///
/// assert_eq!(cut("short", 10), "short");
/// assert_eq!(cut(&"a".repeat(1000), 10), "aaaaa…[990 of 1000 bytes cut]…aaaaa");
/// ```
pub fn cut(text: &str, max: usize) -> Cow<'_, str> {
    if text.len() <= max {
        return Cow::Borrowed(text);
    }
    let head = floor_boundary(text, max / 2);
    let tail = ceil_boundary(text, text.len() - (max - max / 2));
    Cow::Owned(format!(
        "{}…[{} of {} bytes cut]…{}",
        &text[..head],
        tail - head,
        text.len(),
        &text[tail..]
    ))
}

/// A string quoted as Rust's `{:?}` quotes it, cut by [`cut`] to [`MAX_QUOTE`] bytes first.
#[derive(Clone, Copy, Debug)]
pub struct Quoted<'a>(pub &'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0.len() <= MAX_QUOTE {
            return write!(f, "{:?}", self.0);
        }
        let head = floor_boundary(self.0, MAX_QUOTE / 2);
        let tail = ceil_boundary(self.0, self.0.len() - MAX_QUOTE / 2);
        write!(
            f,
            "{:?}…[{} of {} bytes cut]…{:?}",
            &self.0[..head],
            tail - head,
            self.0.len(),
            &self.0[tail..]
        )
    }
}

/// The largest character boundary at or before `i`.
fn floor_boundary(s: &str, i: usize) -> usize {
    (0..=i.min(s.len()))
        .rev()
        .find(|&j| s.is_char_boundary(j))
        .unwrap_or(0)
}

/// The smallest character boundary at or after `i`.
fn ceil_boundary(s: &str, i: usize) -> usize {
    (i..=s.len())
        .find(|&j| s.is_char_boundary(j))
        .unwrap_or(s.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_text_keeps_its_ends_and_says_how_long_it_was() {
        let long = format!("{}{}", "é".repeat(300), "z".repeat(300));
        let short = cut(&long, 100);
        assert!(short.starts_with(&"é".repeat(25)));
        assert!(short.ends_with(&"z".repeat(50)));
        assert!(short.contains("[800 of 900 bytes cut]"), "{short}");
        assert!(short.len() < 100 + 40);
        assert_eq!(cut("exactly", 7), "exactly");
    }

    #[test]
    fn a_long_quote_is_quoted_in_two_parts() {
        let q = Quoted(&"x".repeat(1_000_000)).to_string();
        assert!(q.len() < MAX_QUOTE + 60, "{} bytes", q.len());
        assert!(q.contains("[999840 of 1000000 bytes cut]"), "{q}");
        assert_eq!(Quoted("a\"b").to_string(), r#""a\"b""#);
    }
}
