//! Values GDScript cannot construct, built in the engine from bytes. Where the oracle cannot
//! build an encode case's value from a script (an object that exists only by its id, a NodePath
//! name path text cannot spell, a float32 signalling NaN, an id past GDScript's signed int, ...),
//! the engine decodes the codec's own encoding of it (`bytes_to_var` / `bytes2var`, with objects
//! as the case asks) and encodes what it decoded again. That answers the encode case when the
//! engine accepts the bytes, consumes all of them and decoded the value asked for: the engine's
//! re-encoding is then its encoding of that value, compared with the codec's byte for byte like
//! any other. Otherwise the case stays unsupported, with the oracle's reason.

use crate::corpus::generate::Answered;
use crate::model::answer::Answer;
use crate::model::answerer::EngineAnswerer;
use crate::model::{Case, Record, Verdict};
use gdmarshal::encode::{EncodeOptions, encode};
use gdmarshal::json::from_json;
use gdmarshal::profile::Profile;
use gdmarshal::value::Variant;

/// Replaces the unsupported answers to encode cases by the engine's answer built from the
/// codec's bytes, where the engine decodes them to the value asked for (one request for all);
/// `own` is set to whether the engine decoded the bytes it wrote, where that is known (it wrote
/// back the bytes it was given). Returns the indices of the cases it answered.
pub(crate) fn build_unsupported(
    engine: &mut dyn EngineAnswerer,
    cases: &[Case],
    answered: &mut [Answered],
    own: &mut [Option<bool>],
) -> Vec<usize> {
    let profile = engine.profile();
    let mut asked: Vec<(usize, Case)> = Vec::new();
    for (i, (case, a)) in cases.iter().zip(answered.iter()).enumerate() {
        let Ok(r) = a else { continue };
        if r.verdict != Verdict::Unsupported {
            continue;
        }
        if let Some(decode) = decode_case(case, profile) {
            asked.push((i, decode));
        }
    }
    let mut done = Vec::new();
    if asked.is_empty() {
        return done;
    }
    let decode_cases: Vec<Case> = asked.iter().map(|(_, c)| c.clone()).collect();
    let answers = engine.answer(&decode_cases);
    for ((i, decode), answer) in asked.into_iter().zip(answers) {
        let Case::Decode { input, .. } = &decode else {
            continue;
        };
        let Some(built) = built_answer(&cases[i], input, answer, profile) else {
            continue;
        };
        let Ok(record) = Record::of(&cases[i], &built, profile) else {
            continue;
        };
        own[i] = match &built {
            Answer::Encoded { bytes, .. } if bytes == input => Some(true),
            _ => None,
        };
        answered[i] = Ok(record);
        done.push(i);
    }
    done
}

/// The decode case of the codec's encoding of an encode case's value (none where the codec
/// refuses the value: nothing to build it from).
fn decode_case(case: &Case, profile: Profile) -> Option<Case> {
    let Case::Encode {
        name,
        value,
        full_objects,
    } = case
    else {
        return None;
    };
    let options = EncodeOptions::new().full_objects(*full_objects);
    let input = encode(value, profile, options).ok()?;
    Some(Case::Decode {
        name: name.clone(),
        input,
        allow_objects: *full_objects,
    })
}

/// The engine's answer to the encode case `case`, from its answer to decoding `input`: its
/// re-encoding, where it took every byte and decoded the value asked for.
fn built_answer(case: &Case, input: &[u8], answer: Answer, profile: Profile) -> Option<Answer> {
    let Case::Encode { value, .. } = case else {
        return None;
    };
    let Answer::Decoded {
        tree: Some(tree),
        consumed,
        reencoded,
        log,
    } = answer
    else {
        return None;
    };
    let bytes = reencoded.bytes()?.to_vec();
    // 3.x may not tell the count (`None`): the value decoded must then say it all.
    if consumed.is_some_and(|n| n != input.len()) || !decoded_as_asked(&tree, value, profile) {
        return None;
    }
    Some(Answer::Encoded {
        bytes,
        tree: Some(tree),
        log,
    })
}

/// Whether the engine's tree is the value asked for (floats by bits).
fn decoded_as_asked(tree: &serde_json::Value, value: &Variant, profile: Profile) -> bool {
    from_json(tree, profile).is_ok_and(|v| v == *value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::answer::Reencoded;

    fn encode_case(value: Variant) -> Case {
        Case::Encode {
            name: "e".into(),
            value,
            full_objects: false,
        }
    }

    fn decoded(tree: serde_json::Value, consumed: usize, bytes: Vec<u8>) -> Answer {
        Answer::Decoded {
            tree: Some(tree),
            consumed: Some(consumed),
            reencoded: Reencoded::Bytes(bytes),
            log: String::new(),
        }
    }

    #[test]
    fn only_the_value_asked_for_answers_the_encode_case() {
        let p: Profile = "4.6".parse().unwrap();
        let case = encode_case(Variant::Int(7));
        let Some(Case::Decode { input, .. }) = decode_case(&case, p) else {
            panic!("an int encodes");
        };
        assert_eq!(input, [2, 0, 0, 0, 7, 0, 0, 0]);
        let seven = serde_json::json!({"type": "int", "value": "7"});
        let eight = serde_json::json!({"type": "int", "value": "8"});
        let built = built_answer(&case, &input, decoded(seven.clone(), 8, vec![9]), p);
        assert!(
            matches!(built, Some(Answer::Encoded { ref bytes, .. }) if bytes == &[9]),
            "{built:?}"
        );
        // Another value, or bytes left over: no answer.
        assert!(built_answer(&case, &input, decoded(eight, 8, vec![9]), p).is_none());
        assert!(built_answer(&case, &input, decoded(seven, 4, vec![9]), p).is_none());
        let rejected = Answer::Rejected(crate::model::Rejection::text("no"));
        assert!(built_answer(&case, &input, rejected, p).is_none());
    }
}
