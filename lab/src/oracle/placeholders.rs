//! Object ids read back into the engine's re-encoding. Without full objects, decoding an Object
//! id makes an `EncodedObjectAsID` placeholder holding the id read; re-encoding that value writes
//! the placeholder's *own* instance id, which is new in every engine process (an artefact of
//! the oracle re-encoding what it decoded, not a property of the format). The oracle reports
//! each placeholder it met (`"placeholders": {own id: id read}`, godot_project/README.md), and,
//! for an answerer asked to compare ids as read (campaigns, the differential fuzz target:
//! `EngineAnswerer::compare_object_ids_as_read`), the host writes the id read back where the engine
//! wrote the placeholder's: only in an Object-as-id field (the Object header with the as-id
//! flag, then the 8-byte id), so that the engine's bytes are compared with the codec's byte for
//! byte, ids included. Corpus records keep the bytes the engine wrote.

use gdmarshal::header::FLAG_OBJECT_AS_ID;
use gdmarshal::profile::Profile;
use gdmarshal::types::VariantType;
use serde_json::Value;

/// The placeholders of an answer: (own instance id, id read), from the oracle's
/// `"placeholders"` object; `None` where a pair is not two unsigned 64-bit numbers.
pub(crate) fn of_answer(placeholders: &Value) -> Option<Vec<(u64, u64)>> {
    placeholders
        .as_object()?
        .iter()
        .map(|(own, read)| Some((own.parse().ok()?, read.as_str()?.parse().ok()?)))
        .collect()
}

/// Writes each id read over its placeholder's own id in every Object-as-id field of `bytes`;
/// returns how many fields it rewrote.
pub(crate) fn restore_read_ids(bytes: &mut [u8], ids: &[(u64, u64)], profile: Profile) -> usize {
    let Some(object) = profile.id_of(VariantType::Object) else {
        return 0;
    };
    let header = (object | FLAG_OBJECT_AS_ID).to_le_bytes();
    let mut rewritten = 0;
    let mut at = 0;
    while at + 12 <= bytes.len() {
        if bytes[at..at + 4] == header {
            let id = u64::from_le_bytes(bytes[at + 4..at + 12].try_into().expect("8 bytes"));
            if let Some((_, read)) = ids.iter().find(|(own, _)| *own == id) {
                bytes[at + 4..at + 12].copy_from_slice(&read.to_le_bytes());
                rewritten += 1;
                at += 12;
                continue;
            }
        }
        at += 1;
    }
    rewritten
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_object_id_fields_of_placeholders_are_rewritten() {
        let p: Profile = "4.6".parse().unwrap();
        let own: u64 = 0x1_0000_0123;
        // Array of two: an Object id (24 | 1 << 16) holding the placeholder's own id, and an int
        // (2 | 1 << 16) holding the same number, which is no object id and stays.
        let mut bytes = vec![28, 0, 0, 0, 2, 0, 0, 0, 24, 0, 1, 0];
        bytes.extend(own.to_le_bytes());
        bytes.extend([2, 0, 1, 0]);
        bytes.extend(own.to_le_bytes());
        let ids = of_answer(&serde_json::json!({ own.to_string(): "7" })).unwrap();
        assert_eq!(restore_read_ids(&mut bytes, &ids, p), 1);
        assert_eq!(bytes[12..20], 7u64.to_le_bytes());
        assert_eq!(bytes[24..32], own.to_le_bytes());
        // 3.x numbers Object 17.
        let mut three = vec![17, 0, 1, 0];
        three.extend(own.to_le_bytes());
        assert_eq!(
            restore_read_ids(&mut three, &ids, "3.6".parse().unwrap()),
            1
        );
        assert_eq!(three[4..], 7u64.to_le_bytes());
        assert_eq!(of_answer(&serde_json::json!({"x": "7"})), None);
    }
}
