//! Standard base64 with padding, as Godot's `Marshalls.raw_to_base64` writes it: how bytes
//! travel in oracle requests and answers.

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Encodes bytes as base64 with `=` padding.
pub fn encode(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for (i, shift) in [18, 12, 6, 0].into_iter().enumerate() {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> shift) as usize & 63] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Decodes base64 (padding optional); `None` on any character outside the alphabet.
pub fn decode(text: &str) -> Option<Vec<u8>> {
    let digits = text.trim_end_matches('=').as_bytes();
    if digits.len() % 4 == 1 {
        return None;
    }
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for chunk in digits.chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= u32::from(value(c)?) << (18 - 6 * i);
        }
        let bytes = n.to_be_bytes();
        out.extend_from_slice(&bytes[1..chunk.len()]);
    }
    Some(out)
}

fn value(c: u8) -> Option<u8> {
    Some(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_every_length() {
        let data: Vec<u8> = (0..=255).collect();
        for n in 0..40 {
            let text = encode(&data[..n]);
            assert_eq!(text.len() % 4, 0);
            assert_eq!(decode(&text).as_deref(), Some(&data[..n]), "length {n}");
        }
    }

    #[test]
    fn matches_godot() {
        // Marshalls.raw_to_base64(PackedByteArray([1, 2, 3])) and var_to_bytes(1).
        assert_eq!(encode(&[1, 2, 3]), "AQID");
        assert_eq!(encode(&[2, 0, 0, 0, 1, 0, 0, 0]), "AgAAAAEAAAA=");
        assert_eq!(decode("AgAAAAEAAAA="), Some(vec![2, 0, 0, 0, 1, 0, 0, 0]));
        assert_eq!(decode("A*=="), None);
        assert_eq!(decode("A"), None);
    }
}
