//! [`Text`]: a string as the engine holds it.
//!
//! Godot holds a String as 32-bit code units. 4.x keeps them Unicode scalar values, but 3.x reads
//! UTF-8 loosely (see [`crate::utf8`]) and can hold surrogates and units past U+10FFFF. A `Text`
//! is Unicode text in the common case (inline up to 24 bytes, as before) and a boxed sequence of
//! code units only when some unit is not a scalar value. That split is the one canonical form: the
//! same units never have two representations, so equality, hashing and ordering are by units.
//!
//! This module and [`crate::text`] (through [`crate::utf8`]) use each other, on purpose: a `Text`
//! is made straight from the window of plain bytes the reader found (`text::PlainWindow`, no copy
//! in between), and the loose 3.x reader makes `Text`s. The reader's rules stay in `text` and
//! `utf8`, the representation here.

use std::borrow::Cow;
use std::cmp::Ordering;
use std::fmt;

use compact_str::CompactString;

use crate::text::PlainWindow;

/// The largest code unit a string can hold: 3.x's reader makes at most 31 bits (a 6-byte form),
/// and its writer has no form for more (`String::utf8` in 3.x `core/ustring.cpp`).
pub const MAX_UNIT: u32 = 0x7FFF_FFFF;

/// A string held by a value: Unicode text, or (3.x only) code units that are not all Unicode
/// scalar values.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Text(Repr);

#[derive(Clone, PartialEq, Eq, Hash)]
enum Repr {
    Unicode(CompactString),
    // Never empty and never all scalar values: those are `Unicode`.
    Units(Box<[u32]>),
}

/// Whether `u` is a Unicode scalar value (not a surrogate, at most U+10FFFF).
#[inline]
pub fn is_scalar(u: u32) -> bool {
    char::from_u32(u).is_some()
}

impl Text {
    /// Text known at compile time.
    pub const fn const_new(s: &'static str) -> Text {
        Text(Repr::Unicode(CompactString::const_new(s)))
    }

    /// The string of these code units: Unicode text when every unit is a scalar value.
    ///
    /// Units above `0x7FFF_FFFF`, which no engine string holds, are kept; the encoder refuses them.
    pub fn from_units(units: impl IntoIterator<Item = u32>) -> Text {
        let units: Vec<u32> = units.into_iter().collect();
        if units.iter().all(|&u| is_scalar(u)) {
            return units.iter().filter_map(|&u| char::from_u32(u)).collect();
        }
        Text(Repr::Units(units.into_boxed_slice()))
    }

    /// The text, when every unit is a Unicode scalar value.
    #[inline]
    pub fn as_str(&self) -> Option<&str> {
        match &self.0 {
            Repr::Unicode(s) => Some(s),
            Repr::Units(_) => None,
        }
    }

    /// The code units, when some unit is not a Unicode scalar value (else [`Text::as_str`] has
    /// the text).
    pub fn non_unicode_units(&self) -> Option<&[u32]> {
        match &self.0 {
            Repr::Unicode(_) => None,
            Repr::Units(u) => Some(u),
        }
    }

    /// Whether every unit is a Unicode scalar value.
    #[inline]
    pub fn is_unicode(&self) -> bool {
        matches!(self.0, Repr::Unicode(_))
    }

    /// The code units, in order.
    pub fn units(&self) -> impl Iterator<Item = u32> + '_ {
        let (text, units) = match &self.0 {
            Repr::Unicode(s) => (s.as_str(), &[][..]),
            Repr::Units(u) => ("", &u[..]),
        };
        text.chars().map(u32::from).chain(units.iter().copied())
    }

    /// The text, with U+FFFD in place of each unit that is not a scalar value: for messages.
    pub fn to_string_lossy(&self) -> Cow<'_, str> {
        match &self.0 {
            Repr::Unicode(s) => Cow::Borrowed(s),
            Repr::Units(u) => Cow::Owned(
                u.iter()
                    .map(|&c| char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER))
                    .collect(),
            ),
        }
    }

    /// Whether the string has no units.
    pub fn is_empty(&self) -> bool {
        match &self.0 {
            Repr::Unicode(s) => s.is_empty(),
            Repr::Units(_) => false,
        }
    }
}

impl Text {
    /// The text of a plain window.
    #[inline(always)]
    pub(crate) fn from_plain_window(plain: PlainWindow<'_>) -> Text {
        let mut t = Text::default();
        t.set_plain_window(plain);
        t
    }

    /// Makes this text the text of a plain window. Written where the text stays: a text built
    /// elsewhere and copied here is stored piecewise and read back with wide loads, which stall
    /// (a decoded string array's slots).
    #[inline(always)]
    pub(crate) fn set_plain_window(&mut self, plain: PlainWindow<'_>) {
        use crate::text::SHORT_TEXT;
        self.0 = Repr::Unicode(CompactString::const_new(""));
        let Repr::Unicode(s) = &mut self.0 else {
            unreachable!("just set")
        };
        // SAFETY: `PlainWindow::new` checked what this relies on: an empty inline text has room
        // for the whole window (24 bytes on 64-bit targets; the 23 written here leave its last
        // byte, which says that it is inline, and `set_len` writes the length there), the first
        // `len` bytes are ASCII (so UTF-8), and `len` is at most 23.
        unsafe {
            debug_assert!(s.capacity() > SHORT_TEXT);
            std::ptr::copy_nonoverlapping(plain.window().as_ptr(), s.as_mut_ptr(), SHORT_TEXT);
            s.set_len(plain.len());
        }
    }
}

impl Default for Text {
    fn default() -> Text {
        Text::const_new("")
    }
}

impl From<CompactString> for Text {
    #[inline]
    fn from(s: CompactString) -> Text {
        Text(Repr::Unicode(s))
    }
}

impl From<&str> for Text {
    #[inline]
    fn from(s: &str) -> Text {
        Text(Repr::Unicode(CompactString::from(s)))
    }
}

impl From<String> for Text {
    fn from(s: String) -> Text {
        Text(Repr::Unicode(CompactString::from(s)))
    }
}

impl From<&String> for Text {
    fn from(s: &String) -> Text {
        Text::from(s.as_str())
    }
}

impl FromIterator<char> for Text {
    fn from_iter<I: IntoIterator<Item = char>>(chars: I) -> Text {
        Text(Repr::Unicode(chars.into_iter().collect()))
    }
}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == Some(other)
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == Some(*other)
    }
}

impl PartialOrd for Text {
    fn partial_cmp(&self, other: &Text) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Text {
    /// By code units, as the engine compares strings.
    fn cmp(&self, other: &Text) -> Ordering {
        match (self.as_str(), other.as_str()) {
            // UTF-8 byte order is code point order.
            (Some(a), Some(b)) => a.cmp(b),
            _ => self.units().cmp(other.units()),
        }
    }
}

impl fmt::Display for Text {
    /// The text; units that are not scalar values show as U+FFFD.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_string_lossy())
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Repr::Unicode(s) => fmt::Debug::fmt(s.as_str(), f),
            Repr::Units(u) => {
                f.write_str("units")?;
                f.debug_list()
                    .entries(u.iter().map(|c| format!("{c:#x}")))
                    .finish()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_form_for_the_same_units() {
        // Scalar units make ordinary text, whichever way they come in.
        assert_eq!(Text::from_units([0x61, 0x1F4A9]), Text::from("a💩"));
        assert!(Text::from_units([]).is_unicode());
        let lone = Text::from_units([0x61, 0xD800]);
        assert!(!lone.is_unicode());
        assert_eq!(lone.non_unicode_units(), Some(&[0x61, 0xD800][..]));
        assert_eq!(lone, Text::from_units(vec![0x61, 0xD800]));
        assert_ne!(lone, Text::from("a"));
        assert_eq!(lone.units().collect::<Vec<_>>(), [0x61, 0xD800]);
        assert_eq!(lone.to_string_lossy(), "a\u{FFFD}");
    }

    #[test]
    fn ordered_by_units() {
        let a = Text::from("\u{FFFF}");
        let b = Text::from_units([0x110000]);
        let c = Text::from_units([0xD800]);
        assert!(c < a && a < b);
        let (x, y) = (Text::from("a"), Text::from("b"));
        assert!(x < y);
    }

    #[test]
    fn compares_with_str_and_knows_when_empty() {
        let a = Text::from("a");
        assert!(a == *"a" && a != *"b");
        assert!(a == "a" && a != "b");
        // Units that are not all scalar values equal no str, not even their lossy text.
        let lone = Text::from_units([0x61, 0xD800]);
        assert!(lone != *"a\u{FFFD}" && lone != "a\u{FFFD}");
        assert!(Text::from("").is_empty() && Text::default().is_empty());
        assert!(!a.is_empty() && !lone.is_empty());
    }

    #[test]
    fn built_from_owned_and_borrowed_strings() {
        // Every way in from Rust text holds the same units.
        let s = String::from("a💩");
        assert_eq!(Text::from(&s), Text::from("a💩"));
        assert_eq!(Text::from(s), Text::from_units([0x61, 0x1F4A9]));
    }

    #[test]
    fn stays_three_words() {
        // A value's string is inline in `Variant`, which must stay 32 bytes.
        assert_eq!(std::mem::size_of::<Text>(), 24);
    }
}
