//! A value's label (what it is to its parent: `[3]`, `key 3`, `value 3`, `.name`) as one number:
//! nearly every label is an index, which needs no text kept.

use std::fmt::{self, Write};

/// Labels that are not an index, kept as text: the number's low bits say which.
const TEXT: u32 = 3 << 30;
/// The kinds of index labels, in the number's top two bits.
const KINDS: [(&str, &str); 3] = [("[", "]"), ("key ", ""), ("value ", "")];

/// A label as [`code`] numbers it: an index label, or the `n`th label kept as text.
#[derive(Debug, PartialEq, Eq)]
pub enum Code {
    /// The label, as a number.
    Index(u32),
    /// Not an index: keep the text and number it `n` with [`text_code`].
    Text,
}

/// Up to 48 bytes of formatted text on the stack; longer text is marked as overflowing.
pub struct Small {
    buf: [u8; 48],
    len: usize,
    overflow: bool,
}

impl Small {
    /// `args` formatted, as far as they fit.
    pub fn of(args: fmt::Arguments<'_>) -> Small {
        let mut s = Small {
            buf: [0; 48],
            len: 0,
            overflow: false,
        };
        // A Small refuses nothing: text that does not fit is marked instead.
        let _ = s.write_fmt(args);
        s
    }

    /// The text, if it all fit.
    pub fn text(&self) -> Option<&str> {
        if self.overflow {
            return None;
        }
        std::str::from_utf8(&self.buf[..self.len]).ok()
    }
}

impl Write for Small {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        match self.buf.get_mut(self.len..self.len + s.len()) {
            Some(room) if !self.overflow => {
                room.copy_from_slice(s.as_bytes());
                self.len += s.len();
            }
            _ => self.overflow = true,
        }
        Ok(())
    }
}

/// The number of `label` if it is an index label written as the decoder writes them.
pub fn code(label: &str) -> Code {
    for (kind, (open, close)) in KINDS.iter().enumerate() {
        let Some(digits) = label.strip_prefix(open).and_then(|r| r.strip_suffix(close)) else {
            continue;
        };
        // At most 9 digits fit below the kind bits; a leading zero would not format back.
        let plain = !digits.is_empty()
            && digits.len() <= 9
            && digits.bytes().all(|b| b.is_ascii_digit())
            && (digits == "0" || !digits.starts_with('0'));
        if let (true, Ok(i)) = (plain, digits.parse::<u32>()) {
            return Code::Index(((kind as u32) << 30) | i);
        }
    }
    Code::Text
}

/// The number of the `n`th label kept as text.
pub fn text_code(n: usize) -> u32 {
    TEXT | (n as u32 & !TEXT)
}

/// Which kept text a number names, if it names one.
pub fn text_index(code: u32) -> Option<usize> {
    (code & TEXT == TEXT).then_some((code & !TEXT) as usize)
}

/// An index label's text (kept texts are the caller's to look up).
pub fn write_index(code: u32, out: &mut String) {
    let (open, close) = KINDS[(code >> 30).min(2) as usize];
    // Writing to a String cannot fail.
    let _ = write!(out, "{open}{}{close}", code & !TEXT);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip(label: &str) -> Option<String> {
        match code(label) {
            Code::Index(c) => {
                let mut s = String::new();
                write_index(c, &mut s);
                Some(s)
            }
            Code::Text => None,
        }
    }

    #[test]
    fn index_labels_are_numbers_and_others_text() {
        for label in ["[0]", "[123456789]", "key 7", "value 0", "value 42"] {
            assert_eq!(round_trip(label).as_deref(), Some(label));
        }
        for label in [
            "value",
            ".name",
            "[]",
            "[01]",
            "[1234567890]",
            "key x",
            "[-1]",
            "key 7 ",
        ] {
            assert_eq!(code(label), Code::Text, "{label}");
        }
        assert_eq!(text_index(text_code(5)), Some(5));
        assert_eq!(
            text_index(match code("key 5") {
                Code::Index(c) => c,
                Code::Text => 0,
            }),
            None
        );
    }

    #[test]
    fn small_marks_what_does_not_fit() {
        assert_eq!(Small::of(format_args!("[{}]", 12)).text(), Some("[12]"));
        assert_eq!(Small::of(format_args!("{}", "x".repeat(49))).text(), None);
        assert_eq!(
            Small::of(format_args!("{}{}", "x".repeat(40), "y".repeat(9))).text(),
            None
        );
    }
}
