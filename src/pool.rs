//! Buffers of decoded values kept for the next decode.
//!
//! A program that decodes one large message after another frees each decoded tree and allocates
//! the next: tens of thousands of small container buffers each time. glibc hands a freed tree's
//! memory back to the system and the next decode faults it in again, which cost a third of the
//! decode of a 31 MB message (docs/benchmarks.md). Recycling a value into a [`BufferPool`] keeps
//! its arrays', dictionaries' and string arrays' buffers; [`crate::decode::decode_reusing`] takes them back,
//! so a steady stream of messages of like shape decodes without allocating its containers.
//!
//! ```
//! use gdmarshal::{DecodeOptions, Profile, Variant, encode, EncodeOptions};
//! use gdmarshal::decode::decode_reusing;
//! use gdmarshal::pool::BufferPool;
//! use gdmarshal::value::Array;
//!
//! let godot46: Profile = "4.6".parse().unwrap();
//! let message = Variant::Array(Array::new(vec![Variant::Int(1), Variant::Int(2)]));
//! let bytes = encode(&message, godot46, EncodeOptions::default()).unwrap();
//! let mut pool = BufferPool::new();
//! for _ in 0..3 {
//!     let decoded = decode_reusing(&bytes, godot46, DecodeOptions::default(), &mut pool).unwrap();
//!     assert_eq!(decoded.value, message);
//!     pool.recycle(decoded.value); // instead of dropping it
//! }
//! assert_eq!(pool.buffers(), 1);
//! ```

use crate::value::{Text, Variant};

/// Capacities up to this are kept on shelves of their exact size; a container of that many
/// elements takes one back. Nearly all containers of a message are this small.
const SMALL: usize = 16;

/// Larger buffers kept at most, per element kind; a larger container takes the smallest that fits.
const LARGE_KEPT: usize = 8;

/// Buffers kept from recycled values, for [`crate::decode::decode_reusing`].
///
/// It holds only what was recycled into it and not yet taken back, and never more than its limit
/// ([`BufferPool::with_limit`]): buffers past the limit are freed.
#[derive(Debug)]
pub struct BufferPool {
    arrays: Shelves<Variant>,
    dictionaries: Shelves<(Variant, Variant)>,
    strings: Shelves<Text>,
    /// Bytes of capacity held, at most `limit`.
    held: usize,
    limit: usize,
    /// The containers [`BufferPool::recycle`] is emptying, outermost first; kept between calls.
    open: Vec<Open>,
}

/// Kept buffers of one element type: the small ones by capacity, the large ones in a short list.
#[derive(Debug)]
struct Shelves<T> {
    small: Vec<Vec<Vec<T>>>,
    large: Vec<Vec<T>>,
}

/// A container being emptied.
#[derive(Debug)]
enum Open {
    Array(Vec<Variant>),
    Dictionary(Vec<(Variant, Variant)>),
}

impl<T> Shelves<T> {
    const fn new() -> Shelves<T> {
        Shelves {
            small: Vec::new(),
            large: Vec::new(),
        }
    }

    /// An empty buffer with room for `n` elements, if one is kept: of exactly that capacity when
    /// `n` is small, else the smallest large one that fits.
    fn take(&mut self, n: usize) -> Option<Vec<T>> {
        if n <= SMALL {
            return self.small.get_mut(n)?.pop();
        }
        let (i, _) = self
            .large
            .iter()
            .enumerate()
            .filter(|(_, v)| v.capacity() >= n)
            .min_by_key(|(_, v)| v.capacity())?;
        Some(self.large.swap_remove(i))
    }

    /// Keeps `v`, which is empty; gives it back when there is no place for it.
    fn keep(&mut self, v: Vec<T>) -> Result<(), Vec<T>> {
        let c = v.capacity();
        if c <= SMALL {
            if self.small.len() <= c {
                self.small.resize_with(c + 1, Vec::new);
            }
            self.small[c].push(v);
        } else if self.large.len() < LARGE_KEPT {
            self.large.push(v);
        } else {
            return Err(v);
        }
        Ok(())
    }

    fn count(&self) -> usize {
        self.small.iter().map(Vec::len).sum::<usize>() + self.large.len()
    }
}

impl Default for BufferPool {
    fn default() -> BufferPool {
        BufferPool::new()
    }
}

impl BufferPool {
    /// An empty pool without a limit: it holds what is recycled into it until a decode takes it.
    pub const fn new() -> BufferPool {
        BufferPool::with_limit(usize::MAX)
    }

    /// An empty pool that holds buffers of at most `bytes` bytes in all.
    pub const fn with_limit(bytes: usize) -> BufferPool {
        BufferPool {
            arrays: Shelves::new(),
            dictionaries: Shelves::new(),
            strings: Shelves::new(),
            held: 0,
            limit: bytes,
            open: Vec::new(),
        }
    }

    /// Takes `value` apart and keeps the buffers of its arrays, dictionaries and
    /// `PackedStringArray`s, nested ones included; everything else in it is dropped. Deep values
    /// are walked without recursion.
    pub fn recycle(&mut self, value: Variant) {
        let mut open = std::mem::take(&mut self.open);
        self.open_up(value, &mut open);
        loop {
            let next = match open.last_mut() {
                None => break,
                Some(Open::Array(items)) => items.pop().map(|v| (v, None)),
                Some(Open::Dictionary(entries)) => entries.pop().map(|(k, v)| (k, Some(v))),
            };
            match next {
                Some((a, b)) => {
                    self.open_up(a, &mut open);
                    if let Some(b) = b {
                        self.open_up(b, &mut open);
                    }
                }
                None => match open.pop().expect("an open container") {
                    Open::Array(items) => self.keep(items, |p| &mut p.arrays),
                    Open::Dictionary(entries) => self.keep(entries, |p| &mut p.dictionaries),
                },
            }
        }
        self.open = open;
    }

    /// Opens `v` for emptying if it is an array or a dictionary; keeps the buffer of a
    /// `PackedStringArray`; drops anything else.
    fn open_up(&mut self, v: Variant, open: &mut Vec<Open>) {
        match v {
            Variant::Array(mut a) => open.push(Open::Array(std::mem::take(a.items_mut()))),
            Variant::Dictionary(mut d) => {
                open.push(Open::Dictionary(std::mem::take(d.entries_mut())))
            }
            Variant::PackedStringArray(mut texts) => {
                texts.clear();
                self.keep(texts, |p| &mut p.strings);
            }
            other => drop(other),
        }
    }

    /// Keeps the emptied buffer `v` on its shelves, within the limit.
    fn keep<T>(&mut self, v: Vec<T>, shelves: fn(&mut BufferPool) -> &mut Shelves<T>) {
        let size = bytes(&v);
        if size == 0 || size > self.limit - self.held {
            return;
        }
        if shelves(self).keep(v).is_ok() {
            self.held += size;
        }
    }

    /// An empty buffer from `shelves` with room for `n` elements: a kept one if there is one.
    #[inline]
    fn take<T>(&mut self, n: usize, shelves: fn(&mut BufferPool) -> &mut Shelves<T>) -> Vec<T> {
        match shelves(self).take(n) {
            Some(v) => {
                self.held -= bytes(&v);
                v
            }
            None => Vec::with_capacity(n),
        }
    }

    /// An empty array buffer with room for `n` elements.
    #[inline]
    pub(crate) fn array(&mut self, n: usize) -> Vec<Variant> {
        self.take(n, |p| &mut p.arrays)
    }

    /// An empty dictionary buffer with room for `n` entries.
    #[inline]
    pub(crate) fn dictionary(&mut self, n: usize) -> Vec<(Variant, Variant)> {
        self.take(n, |p| &mut p.dictionaries)
    }

    /// An empty `PackedStringArray` buffer with room for `n` strings.
    #[inline]
    pub(crate) fn strings(&mut self, n: usize) -> Vec<Text> {
        self.take(n, |p| &mut p.strings)
    }

    /// Buffers held.
    pub fn buffers(&self) -> usize {
        self.arrays.count() + self.dictionaries.count() + self.strings.count()
    }

    /// Bytes of the buffers held (their capacity, not counting the pool's own bookkeeping).
    pub fn held_bytes(&self) -> usize {
        self.held
    }

    /// Frees every buffer held.
    pub fn clear(&mut self) {
        *self = BufferPool::with_limit(self.limit);
    }
}

/// The bytes of `v`'s capacity: what the pool counts against its limit.
fn bytes<T>(v: &Vec<T>) -> usize {
    v.capacity() * std::mem::size_of::<T>()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::decode::{DecodeOptions, decode_reusing};
    use crate::encode::{EncodeOptions, encode};
    use crate::profile::Profile;
    use crate::value::{Array, Dictionary};

    fn godot46() -> Profile {
        "4.6".parse().expect("profile")
    }

    fn ints(n: usize) -> Variant {
        Variant::Array(Array::new((0..n as i64).map(Variant::Int).collect()))
    }

    /// Decodes `v`'s bytes with `pool`, checking that the value comes back.
    fn round(v: &Variant, pool: &mut BufferPool) -> Variant {
        let bytes = encode(v, godot46(), EncodeOptions::default()).expect("encode");
        let d = decode_reusing(&bytes, godot46(), DecodeOptions::default(), pool).expect("decode");
        assert_eq!(&d.value, v);
        assert_eq!(d.consumed, bytes.len());
        d.value
    }

    fn items_at(v: &Variant) -> *const Variant {
        match v {
            Variant::Array(a) => a.items().as_ptr(),
            _ => panic!("not an array"),
        }
    }

    #[test]
    fn a_recycled_array_is_decoded_into_again() {
        let mut pool = BufferPool::new();
        let first = round(&ints(3), &mut pool);
        let at = items_at(&first);
        pool.recycle(first);
        assert_eq!(pool.buffers(), 1);
        assert_eq!(pool.held_bytes(), 3 * std::mem::size_of::<Variant>());
        let again = round(&ints(3), &mut pool);
        assert_eq!(items_at(&again), at);
        assert_eq!((pool.buffers(), pool.held_bytes()), (0, 0));
    }

    #[test]
    fn a_recycled_dictionary_is_decoded_into_again() {
        let dict = |k: i64| {
            Variant::Dictionary(Dictionary::new(vec![
                (Variant::Int(k), ints(2)),
                (Variant::Int(k + 1), Variant::Nil),
            ]))
        };
        let entries_at = |v: &Variant| match v {
            Variant::Dictionary(d) => d.entries().as_ptr(),
            _ => panic!("not a dictionary"),
        };
        let mut pool = BufferPool::new();
        let first = round(&dict(1), &mut pool);
        let at = entries_at(&first);
        pool.recycle(first);
        // The dictionary's entries and the array inside it.
        assert_eq!(pool.buffers(), 2);
        assert_eq!(
            pool.held_bytes(),
            2 * std::mem::size_of::<(Variant, Variant)>() + 2 * std::mem::size_of::<Variant>()
        );
        let again = round(&dict(7), &mut pool);
        assert_eq!(entries_at(&again), at);
        assert_eq!(pool.buffers(), 0);
    }

    #[test]
    fn a_recycled_string_array_is_decoded_into_again() {
        let texts = |n: usize| {
            // Short texts and one past the inline room, which is freed.
            let mut v: Vec<Text> = (0..n).map(|i| format!("s{i}").as_str().into()).collect();
            v.push("a text longer than a text holds inline".into());
            Variant::PackedStringArray(v)
        };
        let at = |v: &Variant| match v {
            Variant::PackedStringArray(t) => t.as_ptr(),
            _ => panic!("not a string array"),
        };
        let mut pool = BufferPool::new();
        let first = round(&texts(20), &mut pool);
        let was = at(&first);
        pool.recycle(Variant::Array(Array::new(vec![first])));
        assert_eq!(pool.buffers(), 2);
        assert_eq!(
            pool.held_bytes(),
            21 * std::mem::size_of::<Text>() + std::mem::size_of::<Variant>()
        );
        assert_eq!(at(&round(&texts(20), &mut pool)), was);
        assert_eq!(pool.buffers(), 1);
    }

    #[test]
    fn small_buffers_serve_containers_of_their_size_only() {
        let mut pool = BufferPool::new();
        pool.recycle(ints(3));
        round(&ints(2), &mut pool);
        round(&ints(4), &mut pool);
        assert_eq!(pool.buffers(), 1, "a 3-element buffer is for 3 elements");
        // The largest small size and the smallest large one.
        for n in [SMALL, SMALL + 1] {
            let mut pool = BufferPool::new();
            let v = round(&ints(n), &mut pool);
            let at = items_at(&v);
            pool.recycle(v);
            assert_eq!(items_at(&round(&ints(n), &mut pool)), at, "{n} elements");
        }
    }

    #[test]
    fn large_containers_take_the_smallest_large_buffer_that_fits() {
        let mut pool = BufferPool::new();
        let (big, bigger) = (round(&ints(100), &mut pool), round(&ints(1000), &mut pool));
        let (at, _) = (items_at(&big), items_at(&bigger));
        pool.recycle(bigger);
        pool.recycle(big);
        assert_eq!(pool.buffers(), 2);
        assert_eq!(items_at(&round(&ints(50), &mut pool)), at);
        // Nothing kept fits 2000: a new buffer, and the one of 1000 stays.
        round(&ints(2000), &mut pool);
        assert_eq!(pool.buffers(), 1);
        assert_eq!(pool.held_bytes(), 1000 * std::mem::size_of::<Variant>());
    }

    #[test]
    fn few_large_buffers_are_kept() {
        let mut pool = BufferPool::new();
        for _ in 0..LARGE_KEPT + 2 {
            pool.recycle(ints(SMALL + 1));
        }
        pool.recycle(ints(1));
        assert_eq!(pool.buffers(), LARGE_KEPT + 1);
        assert_eq!(
            pool.held_bytes(),
            (LARGE_KEPT * (SMALL + 1) + 1) * std::mem::size_of::<Variant>()
        );
    }

    #[test]
    fn the_limit_bounds_what_is_held() {
        let one = 4 * std::mem::size_of::<Variant>();
        let mut pool = BufferPool::with_limit(one);
        pool.recycle(ints(4));
        pool.recycle(ints(4));
        assert_eq!((pool.buffers(), pool.held_bytes()), (1, one));
        let mut none = BufferPool::with_limit(one - 1);
        none.recycle(ints(4));
        assert_eq!(none.buffers(), 0);
        pool.clear();
        assert_eq!((pool.buffers(), pool.held_bytes()), (0, 0));
        pool.recycle(ints(4));
        assert_eq!(pool.buffers(), 1);
        pool.recycle(ints(4));
        assert_eq!(pool.buffers(), 1, "clear keeps the limit");
    }

    #[test]
    fn only_containers_with_room_are_kept() {
        let mut pool = BufferPool::new();
        pool.recycle(Variant::Int(1));
        pool.recycle(Variant::Array(Array::default()));
        pool.recycle(Variant::PackedByteArray(vec![1, 2, 3]));
        assert_eq!((pool.buffers(), pool.held_bytes()), (0, 0));
    }

    #[test]
    fn deep_values_are_recycled_without_recursion() {
        // Far deeper than a decoder builds, and than a recursive walk could go on a test thread.
        let levels = 200_000;
        let mut v = Variant::Nil;
        for _ in 0..levels {
            v = Variant::Array(Array::new(vec![v]));
        }
        let mut pool = BufferPool::new();
        pool.recycle(v);
        assert_eq!(pool.buffers(), levels);
    }
}
