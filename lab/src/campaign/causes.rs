//! What each listed difference is: an engine defect, a difference between engine versions, an
//! artefact of the oracle (how the GDScript side reads or re-encodes a value), or a difference
//! of this crate's codec; and the cause behind it. Campaigns log the cause of each
//! engine-nondeterministic case ([`nondeterministic_in_campaign`], by [`Cause::key`]); the report
//! (`gdmarshal report`) classifies the differences it lists by these causes and counts the kinds
//! apart.

use serde_json::Value;

use crate::corpus::tree::mentions_type;
use crate::model::Record;

/// The four kinds the report counts apart.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    /// The engine does something wrong (crash, uninitialised bytes, unreadable keys).
    EngineDefect,
    /// Two engine versions answer the same case differently, each on purpose.
    VersionDifference,
    /// The difference comes from how the oracle reads or re-encodes the engine's value.
    OracleArtefact,
    /// This crate's codec answers otherwise than the engine (open).
    CodecDifference,
}

impl Kind {
    /// Every kind, in report order.
    pub(crate) const ALL: [Kind; 4] = [
        Kind::EngineDefect,
        Kind::VersionDifference,
        Kind::OracleArtefact,
        Kind::CodecDifference,
    ];

    /// The name in the report's tables.
    pub fn name(self) -> &'static str {
        match self {
            Kind::EngineDefect => "engine defect",
            Kind::VersionDifference => "version difference",
            Kind::OracleArtefact => "oracle artefact",
            Kind::CodecDifference => "codec difference",
        }
    }
}

/// The cause of a listed difference.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Cause {
    /// The encoder skips a NodePath's name padding without writing it; in 3.x that leaves
    /// uninitialised memory there.
    NodePathPadding,
    /// Decoding an Object id makes an `EncodedObjectAsID`; re-encoding writes that new object's
    /// own instance id, which is fresh on every run.
    FreshObjectId,
    /// A typed Array of RIDs converts a decoded full object to the RID of its resource; the
    /// object is made anew on every run, and its RID with it.
    FreshObjectRid,
    /// The 3.x oracle reads a float32 through a GDScript float (f64): a signalling NaN comes
    /// back quiet in the tree while the engine keeps its bits.
    F32ThroughF64,
    /// 3.2.3 writes a Dictionary key it cannot look up (a PoolRealArray holding a NaN) as the
    /// String "[Deleted Object]" with a Nil value.
    DeletedObjectKey,
    /// 3.2.3's decoder has no depth limit: deep nesting overflows the native stack.
    DeepDecodeCrash,
    /// The oracle measures bytes consumed by decoding the value inside one more Array: at the
    /// depth limit that wrapper is one level too deep, so no count comes back.
    ProbeNesting,
    /// 3.6 added a nesting limit (1024 levels) to the decoder and the encoder.
    DepthLimitAdded,
    /// 3.6's UTF-8 writer handles surrogates differently from 3.2's.
    SurrogateWriting,
    /// 4.6: a container typed as objects of no class; the codec does not model it yet.
    TypedContainerOfNoClass,
    /// 3.2 cannot find a PoolRealArray key holding a NaN in its own dictionary, and writes it as
    /// "[Deleted Object]"; 3.6 can.
    NanKeysLost,
    /// None of the known causes fits.
    Unexplained(Kind),
}

impl Cause {
    /// The kind the cause belongs to.
    pub fn kind(self) -> Kind {
        match self {
            Cause::NodePathPadding | Cause::DeletedObjectKey | Cause::DeepDecodeCrash => {
                Kind::EngineDefect
            }
            Cause::FreshObjectId
            | Cause::FreshObjectRid
            | Cause::F32ThroughF64
            | Cause::ProbeNesting => Kind::OracleArtefact,
            Cause::DepthLimitAdded | Cause::SurrogateWriting | Cause::NanKeysLost => {
                Kind::VersionDifference
            }
            Cause::TypedContainerOfNoClass => Kind::CodecDifference,
            Cause::Unexplained(k) => k,
        }
    }

    /// The cause's key in the campaign log (`findings/campaigns.jsonl`).
    pub fn key(self) -> &'static str {
        match self {
            Cause::NodePathPadding => "nodepath-padding",
            Cause::FreshObjectId => "fresh-object-id",
            Cause::FreshObjectRid => "fresh-object-rid",
            Cause::F32ThroughF64 => "f32-through-f64",
            Cause::DeletedObjectKey => "deleted-object-key",
            Cause::DeepDecodeCrash => "deep-decode-crash",
            Cause::ProbeNesting => "probe-nesting",
            Cause::DepthLimitAdded => "depth-limit-added",
            Cause::SurrogateWriting => "surrogate-writing",
            Cause::TypedContainerOfNoClass => "typed-container-of-no-class",
            Cause::NanKeysLost => "nan-keys-lost",
            Cause::Unexplained(_) => "unexplained",
        }
    }

    /// The nondeterminism causes, by log key (for reading the log back).
    pub(crate) fn nondeterministic_by_key(key: &str) -> Option<Cause> {
        [
            Cause::NodePathPadding,
            Cause::FreshObjectId,
            Cause::FreshObjectRid,
            Cause::Unexplained(Kind::EngineDefect),
        ]
        .into_iter()
        .find(|c| c.key() == key)
    }

    /// A short name for tables.
    pub fn name(self) -> &'static str {
        match self {
            Cause::NodePathPadding => "NodePath padding uninitialised",
            Cause::FreshObjectId => "fresh EncodedObjectAsID id",
            Cause::FreshObjectRid => "fresh object's RID",
            Cause::F32ThroughF64 => "float32 read through f64",
            Cause::DeletedObjectKey => "\"[Deleted Object]\" key",
            Cause::DeepDecodeCrash => "no depth limit: stack overflow",
            Cause::ProbeNesting => "consumed-bytes probe nests once more",
            Cause::DepthLimitAdded => "depth limit added in 3.6",
            Cause::SurrogateWriting => "surrogates written differently",
            Cause::TypedContainerOfNoClass => "typed container of objects of no class",
            Cause::NanKeysLost => "NaN keys lost in 3.2",
            Cause::Unexplained(_) => "unexplained",
        }
    }

    /// One line for people: the cause and where it comes from.
    pub fn text(self) -> &'static str {
        match self {
            Cause::NodePathPadding => {
                "`encode_variant` (core/io/marshalls.cpp, NODE_PATH) advances past each name's padding \
                 (`buf += pad + utf8.length()`) without writing it; 3.x does not clear the buffer first, so \
                 the padding is whatever memory held (4.6.3's padding came out zero in every run)"
            }
            Cause::FreshObjectId => {
                "bytes2var makes an `EncodedObjectAsID` holding the id read; the oracle's re-encoding of it \
                 writes that wrapper's own instance id, new on every run (the id read is stable: see the tree), \
                 as does the wrapper's text where a typed PackedStringArray converts it to a String"
            }
            Cause::FreshObjectRid => {
                "a typed Array[RID] converts a full object read with objects allowed to its \
                 resource's RID (`Variant::operator RID` calls its `get_rid`); bytes2var makes that object anew on every \
                 run, and the RID with it (the codec refuses that conversion)"
            }
            Cause::F32ThroughF64 => {
                "the 3.x oracle reads a float32 through a GDScript float (f64): a signalling NaN comes back \
                 quiet in the tree; the engine's own re-encoding keeps the signalling bits"
            }
            Cause::DeletedObjectKey => {
                "3.2.3 cannot look up a Dictionary key holding a NaN, and writes such a key as the String \
                 \"[Deleted Object]\" with a Nil value (marshalls.cpp: `encode_variant(v ? E->get() : \
                 Variant(\"[Deleted Object]\"), ...)`)"
            }
            Cause::DeepDecodeCrash => {
                "3.2.3's `decode_variant` has no depth limit: a value nested 50,000 levels overflows the \
                 native stack (SIGSEGV inside bytes2var itself)"
            }
            Cause::ProbeNesting => {
                "the 3.x oracle measures the bytes consumed by decoding the input inside one more Array; \
                 at 1024 levels that is one past 3.6's limit, so 3.6 gives no count: the value decodes alike"
            }
            Cause::DepthLimitAdded => {
                "3.6 refuses values nested deeper than 1024 levels, to decode (\"Variant is too deep. \
                 Bailing.\") and to encode (\"Potential infinite recursion detected. Bailing.\"); 3.2 \
                 has no limit"
            }
            Cause::SurrogateWriting => {
                "both read the same code units (surrogates, and CESU-8 pairs as two units), but 3.6's \
                 UTF-8 writer (`String::utf8`) writes a high and low surrogate pair as one 4-byte form \
                 and any other surrogate as a space (20); 3.2's writes every unit as it is"
            }
            Cause::TypedContainerOfNoClass => {
                "4.6 writes a container typed as objects of no class as builtin Object; the codec does \
                 not model this yet (open)"
            }
            Cause::NanKeysLost => {
                "3.2's `hash_compare` has no NaN rule for PoolRealArray keys, so it cannot find a key \
                 holding a NaN in its own dictionary and writes it as the String \"[Deleted Object]\" \
                 (`marshalls.cpp`); 3.6 compares NaNs as equal and writes the key"
            }
            Cause::Unexplained(_) => "no known cause fits; investigate",
        }
    }
}

/// Whether a tagged tree holds a value of type `ty` anywhere.
pub(crate) fn mentions(v: Option<&Value>, ty: &str) -> bool {
    v.is_some_and(|v| mentions_type(v, ty))
}

/// Whether a tagged tree holds an object read as an instance id (`{"type": "Object", "id": …}`).
fn has_object_id(v: &Value) -> bool {
    match v {
        Value::Object(o) => {
            (o.get("type").and_then(Value::as_str) == Some("Object") && o.contains_key("id"))
                || o.values().any(has_object_id)
        }
        Value::Array(a) => a.iter().any(has_object_id),
        _ => false,
    }
}

/// Whether a tagged tree holds text that names an `EncodedObjectAsID` by its own instance id, as
/// 4.x's `String(Variant)` writes a placeholder (an object id converted to text by a typed
/// PackedStringArray: `<EncodedObjectAsID#-9223372…>`).
fn names_a_placeholder(v: &Value) -> bool {
    match v {
        Value::String(s) => s.starts_with("<EncodedObjectAsID#"),
        Value::Object(o) => o.values().any(names_a_placeholder),
        Value::Array(a) => a.iter().any(names_a_placeholder),
        _ => false,
    }
}

/// The cause of an answer, as the engine wrote it, that differed between two runs of the same
/// case (corpus records, saved reproducers).
pub fn nondeterministic(r: &Record) -> Cause {
    let trees = || [&r.tree, &r.value].into_iter().flatten();
    if trees().any(has_object_id) || trees().any(names_a_placeholder) {
        Cause::FreshObjectId
    } else {
        nondeterministic_apart_from_ids(r)
    }
}

/// The cause of a campaign's answer that differed between two runs. Without full objects a
/// campaign writes the ids read back over the placeholders' own ids
/// (`EngineAnswerer::compare_object_ids_as_read`), and with them the engine writes each placeholder
/// in full with the id it read, so an object id is a cause only of a case with objects and no
/// NodePath: a NodePath differs in its padding (3.x), which is what such cases showed (3.6.2,
/// campaign seed 4001: a NodePath name's padding byte, beside an object id written in full).
pub(crate) fn nondeterministic_in_campaign(r: &Record) -> Cause {
    let nodepath = mentions(r.tree.as_ref(), "NodePath") || mentions(r.value.as_ref(), "NodePath");
    let trees = || [&r.tree, &r.value].into_iter().flatten();
    if !nodepath && (r.objects && trees().any(has_object_id) || trees().any(names_a_placeholder)) {
        Cause::FreshObjectId
    } else {
        nondeterministic_apart_from_ids(r)
    }
}

fn nondeterministic_apart_from_ids(r: &Record) -> Cause {
    if mentions(r.tree.as_ref(), "NodePath") || mentions(r.value.as_ref(), "NodePath") {
        Cause::NodePathPadding
    } else if r.objects && mentions(r.tree.as_ref(), "RID") {
        // A RID read from bytes is a number and reads the same every run; one that varies with
        // objects allowed was made from an object the decoder made.
        Cause::FreshObjectRid
    } else {
        Cause::Unexplained(Kind::EngineDefect)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Verdict;
    use crate::model::case::Direction;

    /// An accepted decode record with objects allowed or not, whose engine decoded `tree`.
    fn decoded(objects: bool, tree: Value) -> Record {
        Record {
            name: "t".into(),
            direction: Direction::Decode,
            input: None,
            value: None,
            objects,
            verdict: Verdict::Accepted,
            consumed: None,
            tree: Some(tree),
            output: None,
            nondeterministic: Vec::new(),
            unbuildable: None,
            error: String::new(),
        }
    }

    #[test]
    fn object_ids_are_a_cause_only_with_objects_and_no_nodepath() {
        let mut r = decoded(
            false,
            serde_json::json!({"type": "Array", "value": [
                {"type": "Object", "id": "5"},
                {"type": "NodePath", "names": ["a"], "subnames": [], "absolute": false}
            ]}),
        );
        assert_eq!(nondeterministic_in_campaign(&r), Cause::NodePathPadding);
        // As the engine wrote it (a corpus record), the placeholder's id is there.
        assert_eq!(nondeterministic(&r), Cause::FreshObjectId);
        // With objects, the padding still comes first; an id alone is the cause.
        r.objects = true;
        assert_eq!(nondeterministic_in_campaign(&r), Cause::NodePathPadding);
        r.tree = Some(serde_json::json!({"type": "Object", "id": "5"}));
        assert_eq!(nondeterministic_in_campaign(&r), Cause::FreshObjectId);
        r.tree = Some(serde_json::json!({"type": "int", "value": "1"}));
        assert_eq!(
            nondeterministic_in_campaign(&r),
            Cause::Unexplained(Kind::EngineDefect)
        );
        // A placeholder converted to text names its own instance id, with objects or not (4.6.3,
        // campaign seed 9101, case 33278: an object id in an Array typed as PackedStringArray).
        r.objects = false;
        r.tree = Some(
            serde_json::json!({"type": "Array", "element_type": {"builtin": "PackedStringArray"},
            "value": [{"type": "PackedStringArray", "value": ["<EncodedObjectAsID#-9223371994122123445>"]}]}),
        );
        assert_eq!(nondeterministic_in_campaign(&r), Cause::FreshObjectId);
        // As a corpus record too (4.6.3, decode/rules/packed_string/from_object_id).
        assert_eq!(nondeterministic(&r), Cause::FreshObjectId);
        r.tree = Some(serde_json::json!({"type": "String", "value": "EncodedObjectAsID"}));
        assert_eq!(
            nondeterministic_in_campaign(&r),
            Cause::Unexplained(Kind::EngineDefect)
        );
    }

    #[test]
    fn a_rid_that_varies_with_objects_is_a_fresh_object_s() {
        // 4.6.3, decode/rules/rid/from_full_object: an ImageTexture in an Array typed as RID.
        let mut r = decoded(
            true,
            serde_json::json!({"type": "Array", "element_type": {"builtin": "RID"},
                "value": [{"type": "RID", "value": "94489280514"}]}),
        );
        assert_eq!(nondeterministic(&r), Cause::FreshObjectRid);
        assert_eq!(nondeterministic_in_campaign(&r), Cause::FreshObjectRid);
        assert_eq!(
            Cause::nondeterministic_by_key("fresh-object-rid"),
            Some(Cause::FreshObjectRid)
        );
        // Without objects no object is made: a RID read is a number.
        r.objects = false;
        assert_eq!(nondeterministic(&r), Cause::Unexplained(Kind::EngineDefect));
    }
}
