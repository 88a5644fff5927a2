//! Deterministic campaign cases: case `index` of seed `seed` is the same on every run.
//!
//! Each case draws its own random stream from `(seed, index)` (SplitMix64), so any case can be
//! rebuilt alone. A case is one of ([`Kind`], with its share of the cases):
//!
//! - a random structured value for the engine to encode (30%), or its encoding to decode (10%),
//!   half of those with one of its dictionaries' entries repeated (generation 3), so that the
//!   engines' key equality is put to values the generator, which keeps keys distinct, never draws;
//! - steered toward what earlier campaigns covered least (30% in all, generation 2):
//!   - a typed container whose element, key or value type is a native class or a script path
//!     (10%; 4.x only: the random values' typed containers are typed by built-in types only),
//!     to encode or to decode, with objects allowed half the time;
//!   - a count or length field of a valid input set to a value with the high bit set (10%):
//!     the decoders read counts as signed, masked or wrapping, differently by type;
//!   - the type id or flag bits of a header, or a container's element type, set to the types and
//!     flags where differences were found (10%): the 64-bit flag on real_t types, typed-container
//!     kinds, NodePath, Object, packed float arrays, dictionaries;
//! - a byte-level mutation of a corpus input or of such an encoding (30%: bit flips, byte sets,
//!   32-bit field sets, header flag bits, truncation, splices).
//!
//! Field positions (headers, counts, element types) come from the codec's own reading of the
//! input (`gdmarshal::decode::decode_traced`), so the steered mutations hit fields, not bytes.
//! The weights are fixed here, not read from earlier runs: the same seed gives the same cases.

use arbitrary::Unstructured;
use rand_xoshiro::SplitMix64;
use rand_xoshiro::rand_core::{self, SeedableRng};

use crate::model::Case;
use gdmarshal::decode::{DecodeOptions, decode_traced};
use gdmarshal::encode::{EncodeOptions, encode};
use gdmarshal::generate::{GenOptions, canonical_value};
use gdmarshal::profile::Profile;
use gdmarshal::trace::Trace;
use gdmarshal::types::VariantType;
use gdmarshal::value::{Array, ContainerType, Dictionary, Object, Variant};

/// The case generator's generation: bumped whenever a change gives some seed other cases, so that
/// the run log ([`super::log`]) can tell which seeds' cases were the same. Generation 2 (the
/// steered kinds) changed the cases of every seed from generation 1; generation 3 repeats a
/// dictionary entry in half of the valid encodings to decode.
pub(crate) const GENERATION: u32 = 3;

/// What kind of case a roll of `0..100` makes, and the name each kind's cases carry
/// (`campaign/SEED/INDEX/NAME`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A random value to encode.
    Encode,
    /// A random value's encoding to decode.
    DecodeValid,
    /// A typed container typed by a class or a script, to encode or decode.
    TypedClassOrScript,
    /// A count or length with the high bit set.
    HighBitCount,
    /// A header's type id or flags, or an element type, set.
    TypeOrFlag,
    /// Byte-level mutations.
    Mutated,
}

impl Kind {
    /// The kind of a roll in `0..100`.
    pub(crate) fn of_roll(roll: usize) -> Kind {
        match roll {
            0..30 => Kind::Encode,
            30..40 => Kind::DecodeValid,
            40..50 => Kind::TypedClassOrScript,
            50..60 => Kind::HighBitCount,
            60..70 => Kind::TypeOrFlag,
            _ => Kind::Mutated,
        }
    }
}

/// A case's random stream: SplitMix64 (rand_xoshiro's, checked there against the reference
/// implementation), small, fast, and the same everywhere.
#[derive(Clone, Debug)]
pub(crate) struct Rng(SplitMix64);

impl Rng {
    /// The stream of case `index` of `seed`.
    pub(crate) fn for_case(seed: u64, index: u64) -> Rng {
        let mut r = Rng(SplitMix64::seed_from_u64(
            seed ^ index.wrapping_mul(0xA24B_AED4_963E_E407),
        ));
        r.next_u64();
        r
    }

    /// The next 64 bits.
    pub(crate) fn next_u64(&mut self) -> u64 {
        rand_core::Rng::next_u64(&mut self.0)
    }

    // `below` and `bytes` are how every generation so far has drawn from the stream; rand's own
    // range sampling and byte filling draw differently and would change every seed's cases.

    /// A number in `0..n` (`n > 0`).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }

    /// `n` random bytes, one per draw (its low byte).
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| self.next_u64() as u8).collect()
    }
}

/// Decode inputs to mutate: the corpus's decode inputs for a profile, small ones only (deep
/// nesting inputs are left out: they only rediscover the 3.2 stack overflow, slowly).
pub fn mutation_sources(profile: Profile) -> Vec<Vec<u8>> {
    // The corpus cases include values nested 50,000 deep: build (and drop) them on a thread with
    // room for that.
    std::thread::Builder::new()
        .stack_size(256 << 20)
        .spawn(move || {
            crate::corpus::all_cases(profile)
                .into_iter()
                .filter_map(|c| match c {
                    Case::Decode { name, input, .. }
                        if input.len() <= 256 && !name.starts_with("decode/depth/") =>
                    {
                        Some(input)
                    }
                    _ => None,
                })
                .collect()
        })
        .expect("thread starts")
        .join()
        .expect("corpus cases build")
}

fn gen_options(profile: Profile) -> GenOptions {
    GenOptions {
        max_depth: 3,
        max_len: 6,
        ..GenOptions::new(profile)
    }
}

/// Repeats one entry of one of `value`'s non-empty dictionaries, picked by `rng`, so that the
/// engine's decoder meets a key it has already seen and must tell whether it is the same key: the
/// generator itself never draws such a value, as it keeps a dictionary's keys distinct by the
/// codec's own idea of key equality (`same_key` in src/keys.rs), which is what this puts to the
/// test. False when `value` holds no such dictionary.
fn repeat_an_entry(value: &mut Variant, rng: &mut Rng) -> bool {
    let count = non_empty_dictionaries(value);
    if count == 0 {
        return false;
    }
    let mut n = rng.below(count);
    let Some(d) = nth_non_empty_dictionary(value, &mut n) else {
        return false;
    };
    let entry = d.entries()[rng.below(d.entries().len())].clone();
    d.entries_mut().push(entry);
    true
}

fn non_empty_dictionaries(v: &Variant) -> usize {
    match v {
        Variant::Dictionary(d) => {
            usize::from(!d.entries().is_empty())
                + d.entries()
                    .iter()
                    .map(|(k, x)| non_empty_dictionaries(k) + non_empty_dictionaries(x))
                    .sum::<usize>()
        }
        Variant::Array(a) => a.items().iter().map(non_empty_dictionaries).sum(),
        _ => 0,
    }
}

/// The `n`-th non-empty dictionary of `v`, depth first, in the order
/// [`non_empty_dictionaries`] counts them.
fn nth_non_empty_dictionary<'a>(v: &'a mut Variant, n: &mut usize) -> Option<&'a mut Dictionary> {
    let here = matches!(v, Variant::Dictionary(d) if !d.entries().is_empty());
    if here {
        if *n == 0 {
            return match v {
                Variant::Dictionary(d) => Some(d),
                _ => None,
            };
        }
        *n -= 1;
    }
    match v {
        Variant::Dictionary(d) => d.entries_mut().iter_mut().find_map(|(k, x)| {
            nth_non_empty_dictionary(k, n).or_else(|| nth_non_empty_dictionary(x, n))
        }),
        Variant::Array(a) => a
            .items_mut()
            .iter_mut()
            .find_map(|x| nth_non_empty_dictionary(x, n)),
        _ => None,
    }
}

/// A random value the profile's codec can encode, with its encoding.
fn value_and_bytes(rng: &mut Rng, profile: Profile) -> Option<(gdmarshal::Variant, Vec<u8>)> {
    let data = rng.bytes(1024);
    let mut u = Unstructured::new(&data);
    let v = canonical_value(&mut u, &gen_options(profile)).ok()?;
    let b = encode(&v, profile, EncodeOptions::default()).ok()?;
    Some((v, b))
}

const INTERESTING_U32: [u32; 9] = [
    0,
    1,
    2,
    0x7F,
    0xFF,
    0x7FFF_FFFF,
    0x8000_0000,
    0xFFFF_FFFF,
    0x0001_0000,
];

/// Applies one random mutation.
pub(crate) fn mutate(rng: &mut Rng, input: &mut Vec<u8>, other: &[u8]) {
    let len = input.len();
    match rng.below(8) {
        0 | 1 if len > 0 => {
            let i = rng.below(len);
            input[i] ^= 1 << rng.below(8);
        }
        2 if len > 0 => {
            let i = rng.below(len);
            input[i] = [0x00, 0x01, 0x7F, 0x80, 0xFF, rng.next_u64() as u8][rng.below(6)];
        }
        3 if len >= 4 => {
            let i = rng.below(len / 4) * 4;
            let v = INTERESTING_U32[rng.below(INTERESTING_U32.len())];
            input[i..i + 4].copy_from_slice(&v.to_le_bytes());
        }
        4 if len >= 4 => {
            // A header flag bit (bits 8..31) of the top-level or an aligned inner word.
            let i = if rng.below(2) == 0 {
                0
            } else {
                rng.below(len / 4) * 4
            };
            let bit = 8 + rng.below(24);
            let mut w = u32::from_le_bytes(input[i..i + 4].try_into().expect("4 bytes"));
            w ^= 1 << bit;
            input[i..i + 4].copy_from_slice(&w.to_le_bytes());
        }
        5 if len > 0 => input.truncate(rng.below(len)),
        6 if !other.is_empty() => {
            // Splice: a piece of another input at an aligned offset.
            let from = rng.below(other.len());
            let n = 1 + rng.below((other.len() - from).min(32));
            let at = if len == 0 {
                0
            } else {
                rng.below(len / 4 + 1) * 4
            };
            let at = at.min(len);
            input.splice(at..at, other[from..from + n].iter().copied());
        }
        _ => {
            // The top-level type id.
            if len >= 1 {
                input[0] = rng.below(40) as u8;
            }
        }
    }
}

/// Case `index` of campaign `seed` for an engine of `profile`.
pub fn make_case(seed: u64, index: u64, profile: Profile, sources: &[Vec<u8>]) -> Case {
    let mut rng = Rng::for_case(seed, index);
    let roll = rng.below(100);
    let name = |kind: &str| format!("campaign/{seed}/{index}/{kind}");
    let decode = |name: String, input: Vec<u8>, rng: &mut Rng| Case::Decode {
        name,
        allow_objects: rng.below(4) == 0,
        input,
    };
    match Kind::of_roll(roll) {
        Kind::Encode => {
            if let Some((value, _)) = value_and_bytes(&mut rng, profile) {
                return Case::Encode {
                    name: name("encode"),
                    value,
                    full_objects: false,
                };
            }
        }
        Kind::DecodeValid => {
            if let Some((mut value, input)) = value_and_bytes(&mut rng, profile) {
                // Half of them with one dictionary entry repeated (generation 3).
                if rng.below(2) == 0
                    && repeat_an_entry(&mut value, &mut rng)
                    && let Ok(input) = encode(&value, profile, EncodeOptions::default())
                {
                    return decode(name("decode/repeated-key"), input, &mut rng);
                }
                return decode(name("decode/valid"), input, &mut rng);
            }
        }
        Kind::TypedClassOrScript => {
            if let Some(value) = typed_by_class_or_script(&mut rng, profile) {
                if rng.below(2) == 0 {
                    return Case::Encode {
                        name: name("encode/typed-class"),
                        value,
                        full_objects: false,
                    };
                }
                if let Ok(input) = encode(&value, profile, EncodeOptions::default()) {
                    return Case::Decode {
                        name: name("decode/typed-class"),
                        allow_objects: rng.below(2) == 0,
                        input,
                    };
                }
            }
        }
        Kind::HighBitCount => {
            if let Some(input) = pick_with(&mut rng, profile, sources, high_bit_count) {
                return decode(name("decode/high-bit-count"), input, &mut rng);
            }
        }
        Kind::TypeOrFlag => {
            if let Some(input) = pick_with(&mut rng, profile, sources, type_or_flag) {
                return decode(name("decode/type-or-flag"), input, &mut rng);
            }
        }
        Kind::Mutated => {}
    }
    let mut input = pick(&mut rng, profile, sources);
    let other = pick(&mut rng, profile, sources);
    for _ in 0..1 + rng.below(3) {
        mutate(&mut rng, &mut input, &other);
    }
    decode(name("decode/mutated"), input, &mut rng)
}

/// An input to mutate: mostly a corpus input, otherwise a random value's encoding.
fn pick(rng: &mut Rng, profile: Profile, sources: &[Vec<u8>]) -> Vec<u8> {
    if !sources.is_empty() && rng.below(10) < 7 {
        sources[rng.below(sources.len())].clone()
    } else {
        value_and_bytes(rng, profile)
            .map(|(_, b)| b)
            .unwrap_or_default()
    }
}

/// An input that `change` could change (it has the fields `change` looks for), changed; up to
/// four inputs are tried.
fn pick_with(
    rng: &mut Rng,
    profile: Profile,
    sources: &[Vec<u8>],
    change: fn(&mut Rng, &mut [u8], Profile) -> bool,
) -> Option<Vec<u8>> {
    (0..4).find_map(|_| {
        let mut input = pick(rng, profile, sources);
        change(rng, &mut input, profile).then_some(input)
    })
}

/// Native classes to type containers by: ones every 4.x engine has, one it makes when decoding
/// object ids, one no engine has, and the empty name.
const CLASSES: [&str; 8] = [
    "Object",
    "RefCounted",
    "Resource",
    "Node",
    "Node2D",
    "EncodedObjectAsID",
    "NoSuchClass",
    "",
];

/// Script paths to type containers by: scripts of the oracle's project, a res:// path it lacks,
/// `res://` alone, and paths that are not resource paths.
const SCRIPTS: [&str; 7] = [
    "res://fixtures/item.gd",
    "res://oracle/main.gd",
    "res://none.gd",
    "res://",
    "user://item.gd",
    "fixtures/item.gd",
    "",
];

fn class_or_script(rng: &mut Rng) -> ContainerType {
    if rng.below(2) == 0 {
        ContainerType::ClassName(CLASSES[rng.below(CLASSES.len())].to_string())
    } else {
        ContainerType::Script(SCRIPTS[rng.below(SCRIPTS.len())].to_string())
    }
}

/// An element of an object-typed container: mostly null, sometimes an object id.
fn object_element(rng: &mut Rng) -> Variant {
    if rng.below(3) == 0 {
        Variant::object(Object::Id(1 + rng.next_u64() % (u64::MAX - 1)))
    } else {
        Variant::Nil
    }
}

/// A typed Array or Dictionary (4.4+) whose type is a native class or a script, now and then
/// inside an untyped Array beside a random value; `None` where the profile has no typed
/// containers.
fn typed_by_class_or_script(rng: &mut Rng, profile: Profile) -> Option<Variant> {
    if !profile.typed_arrays() {
        return None;
    }
    let items = |rng: &mut Rng| -> Vec<Variant> {
        (0..rng.below(3)).map(|_| object_element(rng)).collect()
    };
    let value = if profile.typed_dictionaries() && rng.below(3) == 0 {
        // One side typed by a class or script, the other untyped or by one too.
        let (k, v) = match rng.below(3) {
            0 => (class_or_script(rng), ContainerType::None),
            1 => (ContainerType::None, class_or_script(rng)),
            _ => (class_or_script(rng), class_or_script(rng)),
        };
        let entries: Vec<(Variant, Variant)> = (0..rng.below(2))
            .map(|i| {
                let key = match k {
                    ContainerType::None => Variant::Int(i as i64),
                    _ => object_element(rng),
                };
                let value = match v {
                    ContainerType::None => Variant::Int(rng.below(100) as i64),
                    _ => object_element(rng),
                };
                (key, value)
            })
            .collect();
        Variant::Dictionary(Dictionary::typed(k, v, entries))
    } else {
        let t = class_or_script(rng);
        Variant::Array(Array::typed(t, items(rng)))
    };
    Some(if rng.below(3) == 0 {
        let mut outer = vec![value];
        if let Some((other, _)) = value_and_bytes(rng, profile) {
            outer.insert(rng.below(2), other);
        }
        Variant::Array(Array::typed(ContainerType::None, outer))
    } else {
        value
    })
}

/// Where the codec found a field while reading an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Field {
    /// A value's type header (type id in the low byte, flags above).
    Header,
    /// A count or length word.
    Count,
    /// A typed container's element, key or value type word.
    ElementType,
}

/// The 4-byte fields of an input, as the codec reads it (as far as it can).
#[derive(Default)]
struct Fields(Vec<(usize, Field)>);

impl Trace for Fields {
    const ACTIVE: bool = true;

    fn open(&mut self, _: usize, _: std::fmt::Arguments<'_>) {}

    fn field(&mut self, _: usize, _: usize, _: &str, _: std::fmt::Arguments<'_>) {}

    fn close(&mut self, _: usize) {}

    fn header(&mut self, start: usize, _: VariantType, _: u32, _: u32) {
        self.0.push((start, Field::Header));
    }

    fn count(&mut self, start: usize, _: &str, _: u32) {
        self.0.push((start, Field::Count));
    }

    fn element_type(&mut self, start: usize, _: VariantType) {
        self.0.push((start, Field::ElementType));
    }
}

fn fields_of(input: &[u8], profile: Profile, kind: Field) -> Vec<usize> {
    let mut f = Fields::default();
    let opts = DecodeOptions::new().allow_objects(true);
    let _ = decode_traced(input, profile, opts, &mut f);
    f.0.into_iter()
        .filter(|(_, k)| *k == kind)
        .map(|(at, _)| at)
        .collect()
}

/// How many type ids the profile has (ids `0..n`).
fn type_count(profile: Profile) -> u32 {
    (0..).find(|&i| profile.type_of(i).is_none()).unwrap_or(0)
}

fn word(input: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(input[at..at + 4].try_into().expect("4 bytes"))
}

fn set_word(input: &mut [u8], at: usize, w: u32) {
    input[at..at + 4].copy_from_slice(&w.to_le_bytes());
}

/// Sets one count or length field of `input` to a value with the high bit set; false if the
/// codec finds no such field in it.
fn high_bit_count(rng: &mut Rng, input: &mut [u8], profile: Profile) -> bool {
    let counts = fields_of(input, profile, Field::Count);
    if counts.is_empty() {
        return false;
    }
    let at = counts[rng.below(counts.len())];
    let old = word(input, at);
    let new = match rng.below(6) {
        0 => old | 0x8000_0000,
        1 => 0x8000_0000,
        2 => 0xFFFF_FFFF,
        3 => 0x8000_0000 | (1 + rng.below(4) as u32),
        4 => old | 0xC000_0000,
        _ => 0xFFFF_FFFF - rng.below(4) as u32,
    };
    set_word(input, at, new);
    true
}

/// The types whose decoding differed between the codec and an engine, or between engines, in
/// earlier campaigns and fuzzing (docs/fuzzing.md, findings/, corpus/known-differences.txt):
/// real_t types (the 64-bit flag), typed containers, NodePath, Object, float arrays (NaNs),
/// strings (UTF-8), dictionaries (3.2's keys).
const DIFFERING_TYPES: [VariantType; 17] = [
    VariantType::Vector2,
    VariantType::Rect2,
    VariantType::Vector3,
    VariantType::Plane,
    VariantType::Quaternion,
    VariantType::Transform2D,
    VariantType::Basis,
    VariantType::Aabb,
    VariantType::Array,
    VariantType::Dictionary,
    VariantType::NodePath,
    VariantType::Object,
    VariantType::PackedFloat32Array,
    VariantType::PackedVector2Array,
    VariantType::String,
    VariantType::Float,
    VariantType::Int,
];

/// Header flag bits where differences were found: the 64-bit flag (bit 16; also a typed Array's
/// built-in kind and a typed Dictionary's key kind), the class-name and script kinds (bits
/// 16-17), a typed Dictionary's value kinds (bits 18-19), and a NodePath's new-format bit.
const FLAGS: [u32; 8] = [
    1 << 16,
    2 << 16,
    3 << 16,
    1 << 18,
    2 << 18,
    3 << 18,
    1 << 17,
    1 << 31,
];

/// Sets the type id or flags of one header of `input`, or one element type word, to a type or a
/// flag where differences were found; false if the codec finds no such field in it.
fn type_or_flag(rng: &mut Rng, input: &mut [u8], profile: Profile) -> bool {
    let headers = fields_of(input, profile, Field::Header);
    let elements = fields_of(input, profile, Field::ElementType);
    if headers.is_empty() {
        return false;
    }
    let id_of = |t: VariantType| profile.id_of(t);
    match rng.below(4) {
        0 if !elements.is_empty() => {
            // An element type: a differing type, Object or Nil, or an id past the table.
            let at = elements[rng.below(elements.len())];
            let t = match rng.below(4) {
                0 => id_of(VariantType::Object),
                1 => Some(0),
                2 => Some(type_count(profile) + rng.below(3) as u32),
                _ => id_of(DIFFERING_TYPES[rng.below(DIFFERING_TYPES.len())]),
            };
            if let Some(t) = t {
                set_word(input, at, t);
            }
        }
        1 => {
            // A header's type id, flags kept.
            let at = headers[rng.below(headers.len())];
            if let Some(t) = id_of(DIFFERING_TYPES[rng.below(DIFFERING_TYPES.len())]) {
                let w = word(input, at);
                set_word(input, at, (w & !0xFF) | t);
            }
        }
        _ => {
            // A header's flags: set, cleared or toggled.
            let at = headers[rng.below(headers.len())];
            let flag = FLAGS[rng.below(FLAGS.len())];
            let w = word(input, at);
            let w = match rng.below(3) {
                0 => w | flag,
                1 => w & !(flag | (flag << 1)),
                _ => w ^ flag,
            };
            set_word(input, at, w);
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dict(entries: Vec<(Variant, Variant)>) -> Variant {
        Variant::Dictionary(Dictionary::new(entries))
    }

    fn entries(v: &Variant) -> Vec<Vec<(Variant, Variant)>> {
        let mut out = Vec::new();
        match v {
            Variant::Dictionary(d) => {
                out.push(d.entries().to_vec());
                for (k, x) in d.entries() {
                    out.extend(entries(k));
                    out.extend(entries(x));
                }
            }
            Variant::Array(a) => a.items().iter().for_each(|x| out.extend(entries(x))),
            _ => {}
        }
        out
    }

    #[test]
    fn a_case_stream_is_the_splitmix64_of_every_generation_so_far() {
        // Drawn by the hand-written SplitMix64 of generations 1 to 3: a seed's cases stay the same.
        let mut r = Rng::for_case(7, 3);
        let drawn = [r.next_u64(), r.next_u64(), r.next_u64()];
        assert_eq!(
            drawn,
            [
                0xc98b_9c8f_bb19_b9f6,
                0x0e98_42c0_7fd6_bde4,
                0xf98f_85f3_e04a_b635
            ]
        );
    }

    #[test]
    fn the_codec_shows_where_headers_counts_and_element_types_are() {
        // Array[String] ["ab"] in 4.6: header, element type, element count, the String's
        // header, its length, its bytes.
        let profile: Profile = "4.6".parse().unwrap();
        let value = Variant::Array(Array::typed(
            ContainerType::Builtin(VariantType::String),
            vec![Variant::String("ab".into())],
        ));
        let bytes = encode(&value, profile, EncodeOptions::new()).unwrap();
        assert_eq!(bytes.len(), 24);
        assert_eq!(fields_of(&bytes, profile, Field::Header), [0, 12]);
        assert_eq!(fields_of(&bytes, profile, Field::ElementType), [4]);
        assert_eq!(fields_of(&bytes, profile, Field::Count), [8, 16]);
    }

    #[test]
    fn a_repeated_entry_is_a_copy_of_one_already_there() {
        // Three non-empty dictionaries (the outer one, one as a key, one in an Array value) and
        // an empty one, which has no entry to repeat.
        let inner_key = dict(vec![(Variant::Int(1), Variant::Float(f64::NAN))]);
        let inner_value = dict(vec![(Variant::Int(2), Variant::Nil)]);
        let empty = dict(vec![]);
        let value = dict(vec![
            (inner_key, Variant::Int(3)),
            (
                Variant::Int(4),
                Variant::Array(Array::new(vec![inner_value, empty])),
            ),
        ]);
        assert_eq!(non_empty_dictionaries(&value), 3);
        let mut picked = std::collections::BTreeSet::new();
        for index in 0..64 {
            let mut v = value.clone();
            assert!(repeat_an_entry(&mut v, &mut Rng::for_case(7, index)));
            let (before, after) = (entries(&value), entries(&v));
            // Exactly one dictionary grew, by a copy of one of its own entries (compared as text:
            // a NaN is not `==` to itself).
            let grown: Vec<usize> = (0..before.len())
                .filter(|&i| before[i].len() != after[i].len())
                .collect();
            assert_eq!(grown.len(), 1, "{v:?}");
            let (was, now) = (&before[grown[0]], &after[grown[0]]);
            assert_eq!(now.len(), was.len() + 1);
            let text = |e: &(Variant, Variant)| format!("{e:?}");
            let copy = text(now.last().expect("an entry"));
            assert!(was.iter().any(|e| text(e) == copy), "{v:?}");
            picked.insert(grown[0]);
        }
        assert_eq!(picked.len(), 3, "every non-empty dictionary gets picked");
        assert!(!repeat_an_entry(
            &mut Variant::Array(Array::new(vec![dict(vec![])])),
            &mut Rng::for_case(7, 0)
        ));
    }
}
