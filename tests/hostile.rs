//! Hostile input: huge counts, deep nesting and truncation fail fast, at the right offset, without
//! allocating more than the input justifies and without overflowing the stack.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use gdmarshal::error::DecodeErrorKind;
use gdmarshal::profile::all_profiles;
use gdmarshal::{DecodeOptions, Profile, decode};

/// Records the largest single allocation, and the peak of bytes held at once, of a thread that is
/// measuring. Every count is the thread's own, so tests measuring side by side (libtest runs them
/// on parallel threads) do not see each other's allocations.
struct Largest;

thread_local! {
    static MEASURING: Cell<bool> = const { Cell::new(false) };
    static LARGEST: Cell<usize> = const { Cell::new(0) };
    static LIVE: Cell<usize> = const { Cell::new(0) };
    static PEAK: Cell<usize> = const { Cell::new(0) };
}

fn record(size: usize) {
    if MEASURING.with(Cell::get) {
        LARGEST.with(|l| l.set(l.get().max(size)));
        let live = LIVE.with(|l| {
            l.set(l.get() + size);
            l.get()
        });
        PEAK.with(|p| p.set(p.get().max(live)));
    }
}

fn release(size: usize) {
    if MEASURING.with(Cell::get) {
        // Only what was counted: memory from before the measurement is not.
        LIVE.with(|l| l.set(l.get().saturating_sub(size)));
    }
}

/// Runs `f` with this thread's allocations counted from zero; returns its result, the largest
/// single allocation and the peak held at once.
fn measure<T>(f: impl FnOnce() -> T) -> (T, usize, usize) {
    LARGEST.with(|l| l.set(0));
    LIVE.with(|l| l.set(0));
    PEAK.with(|p| p.set(0));
    MEASURING.with(|m| m.set(true));
    let r = f();
    MEASURING.with(|m| m.set(false));
    (r, LARGEST.with(Cell::get), PEAK.with(Cell::get))
}

unsafe impl GlobalAlloc for Largest {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        record(layout.size());
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        release(layout.size());
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        release(layout.size());
        record(new_size);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOC: Largest = Largest;

fn le(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

#[test]
fn huge_counts_fail_at_once_without_big_allocations() {
    for &profile in all_profiles() {
        for id in 0..40u32 {
            for count in [0x7fff_ffffu32, 0x8000_0000, 0xffff_ffff, 1 << 20] {
                // 12 bytes: header, a count, and one more word.
                let input = le(&[id, count, 0]);
                let (r, largest, _) =
                    measure(|| decode(&input, profile, DecodeOptions::new().allow_objects(true)));
                assert!(
                    largest <= 4096,
                    "{profile} type {id} count {count:#x}: allocated {largest} bytes for 12 bytes of input ({r:?})"
                );
            }
        }
    }
}

#[test]
fn nested_huge_counts_do_not_multiply_what_is_reserved() {
    // Containers inside containers, each claiming 2^31 - 1 elements: every level may only reserve
    // room for what the bytes left could hold, and the levels share those bytes, so together
    // they must not hold more than the input could fill.
    for (id, what) in [(28u32, "Array"), (27, "Dictionary")] {
        let input = le(&[id, 0x7fff_ffff].repeat(512));
        let (r, _, peak) =
            measure(|| decode(&input, "4.6".parse().unwrap(), DecodeOptions::default()));
        assert!(r.is_err(), "{what}: {r:?}");
        // A value takes at least 4 bytes of input and 32 bytes decoded (64 for an entry's pair,
        // which takes at least 8): reservations hold up to eight times the input. Each container
        // also starts with room for one element, paid for by its own 8-byte header and count:
        // eight times again. Before the reservations shared one budget, these 4 KiB held 10 MB.
        let bound = 20 * input.len();
        assert!(
            peak <= bound,
            "{what}: {} bytes of nested counts held {peak} bytes at once (bound {bound})",
            input.len()
        );
    }
}

#[test]
fn deep_nesting_stops_at_the_engine_limit_without_overflowing_the_stack() {
    let profile: Profile = "4.6".parse().unwrap();
    let array_of_one = |depth: usize| {
        // `depth` nested one-element arrays around an int.
        let mut words = Vec::new();
        for _ in 0..depth {
            words.extend([28, 1]);
        }
        words.extend([2, 7]);
        le(&words)
    };
    // The engine decodes values down to depth 1024 (the outermost array is depth 0).
    assert!(decode(&array_of_one(1024), profile, DecodeOptions::default()).is_ok());
    let e = decode(&array_of_one(1025), profile, DecodeOptions::default()).unwrap_err();
    assert_eq!(e.kind, DecodeErrorKind::TooDeep { limit: 1024 });
    assert_eq!(
        e.offset,
        1025 * 8,
        "the error names the start of the value that is too deep"
    );
    // Far deeper input fails the same way.
    assert!(decode(&array_of_one(200_000), profile, DecodeOptions::default()).is_err());
}

#[test]
fn truncation_at_every_offset_names_an_offset_inside_the_input() {
    let profile: Profile = "4.6".parse().unwrap();
    // [1, "héllo", {2.5: [Vector2(1, 2)]}] as Godot 4.6 writes it (tests/vectors/godot-4.6.3.stable.txt
    // holds similar values; this one is built with the codec and checked to decode whole first).
    let v = gdmarshal::json::from_json(
        &serde_json::json!({"type":"Array","value":[
            {"type":"int","value":"1"},
            {"type":"String","value":"héllo"},
            {"type":"Dictionary","value":[[{"type":"float","value":"2.5"},{"type":"Array","value":[{"type":"Vector2","value":["1","2"]}]}]]}
        ]}),
        profile,
    )
    .unwrap();
    let bytes = gdmarshal::encode(&v, profile, Default::default()).unwrap();
    assert_eq!(
        decode(&bytes, profile, DecodeOptions::default())
            .unwrap()
            .value,
        v
    );
    for cut in 0..bytes.len() {
        let e = decode(&bytes[..cut], profile, DecodeOptions::default()).unwrap_err();
        assert!(e.offset <= cut, "cut at {cut}: error at {}: {e}", e.offset);
        assert!(!e.to_string().is_empty());
    }
}

#[test]
fn deep_values_drop_without_overflowing_the_stack() {
    use gdmarshal::Variant;
    use gdmarshal::value::{Array, Dictionary, Object};
    // Far deeper than any decoder output, on a small stack: dropping recurses once per level.
    let handle = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            let mut v = Variant::Nil;
            for i in 0..100_000 {
                v = match i % 3 {
                    0 => Variant::Array(Array::new(vec![v])),
                    1 => Variant::Dictionary(Dictionary::new(vec![(Variant::Int(i), v)])),
                    _ => Variant::object(Object::Full {
                        class: "Resource".into(),
                        properties: vec![("p".into(), v)],
                    }),
                };
            }
            drop(v);
        })
        .unwrap();
    handle
        .join()
        .expect("dropping a deep value overflowed the stack");
}
