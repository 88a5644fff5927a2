//! Text shown to people, made the same way everywhere: numbers with a comma between thousands,
//! and text from outside cut to a length with a marker saying how long it was.

/// The bytes of a refused answer line shown in its failure.
pub(crate) const SHOWN_LINE_START: usize = 200;

/// `text` cut to at most `max` bytes (on a character boundary), with a marker saying how long it
/// was when it is cut.
pub fn truncate(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let cut = (0..=max)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0);
    format!("{}… (cut: {} bytes in all)", &text[..cut], text.len())
}

/// `1234567` as `1,234,567`.
pub(crate) fn group_digits(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_cut_on_a_character_boundary_with_its_length() {
        assert_eq!(truncate("abcdef", 6), "abcdef");
        assert_eq!(truncate("abcdef", 3), "abc… (cut: 6 bytes in all)");
        assert_eq!(truncate("aé", 2), "a… (cut: 3 bytes in all)");
    }
}
