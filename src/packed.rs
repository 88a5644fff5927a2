//! Bulk little-endian conversion of packed numeric arrays.
//!
//! On little-endian machines the wire layout of a packed array is the in-memory layout, so both
//! directions are a single copy (`bytemuck` checks the casts); elsewhere each element is swapped.

use crate::value::Reals;

/// Appends elements as little-endian bytes.
fn put<T: bytemuck::Pod>(out: &mut Vec<u8>, v: &[T], to_le: impl Fn(&T) -> T) {
    if cfg!(target_endian = "little") {
        out.extend_from_slice(bytemuck::cast_slice(v));
    } else {
        v.iter()
            .for_each(|x| out.extend_from_slice(bytemuck::bytes_of(&to_le(x))));
    }
}

/// Reads little-endian elements; `bytes.len()` must be a multiple of the element size.
fn get<T: bytemuck::Pod>(bytes: &[u8], from_le: impl Fn(T) -> T) -> Vec<T> {
    let bytes = &bytes[..bytes.len() / size_of::<T>() * size_of::<T>()];
    let mut v: Vec<T> = Vec::with_capacity(bytes.len() / size_of::<T>());
    match bytemuck::try_cast_slice::<u8, T>(bytes) {
        // Input aligned for T (the usual case: buffers come from the allocator): one copy.
        Ok(items) => v.extend_from_slice(items),
        Err(_) => v.extend(
            bytes
                .chunks_exact(size_of::<T>())
                .map(bytemuck::pod_read_unaligned::<T>),
        ),
    }
    if cfg!(target_endian = "big") {
        v.iter_mut().for_each(|x| *x = from_le(*x));
    }
    v
}

/// Appends f32s.
pub fn put_f32s(out: &mut Vec<u8>, v: &[f32]) {
    put(out, v, |x| f32::from_bits(x.to_bits().to_le()));
}

/// Appends f64s.
pub fn put_f64s(out: &mut Vec<u8>, v: &[f64]) {
    put(out, v, |x| f64::from_bits(x.to_bits().to_le()));
}

/// Appends colors (four f32s each).
pub fn put_colors(out: &mut Vec<u8>, v: &[[f32; 4]]) {
    put(out, v, |c| c.map(|x| f32::from_bits(x.to_bits().to_le())));
}

/// Appends i32s.
pub fn put_i32s(out: &mut Vec<u8>, v: &[i32]) {
    put(out, v, |x| x.to_le());
}

/// Appends i64s.
pub fn put_i64s(out: &mut Vec<u8>, v: &[i64]) {
    put(out, v, |x| x.to_le());
}

/// Reads f32s.
pub fn get_f32s(bytes: &[u8]) -> Vec<f32> {
    get(bytes, |x: f32| f32::from_bits(u32::from_le(x.to_bits())))
}

/// Reads f64s.
pub fn get_f64s(bytes: &[u8]) -> Vec<f64> {
    get(bytes, |x: f64| f64::from_bits(u64::from_le(x.to_bits())))
}

/// Reads colors (four f32s each).
pub fn get_colors(bytes: &[u8]) -> Vec<[f32; 4]> {
    get(bytes, |c: [f32; 4]| {
        c.map(|x| f32::from_bits(u32::from_le(x.to_bits())))
    })
}

/// Reads i32s.
pub fn get_i32s(bytes: &[u8]) -> Vec<i32> {
    get(bytes, i32::from_le)
}

/// Reads i64s.
pub fn get_i64s(bytes: &[u8]) -> Vec<i64> {
    get(bytes, i64::from_le)
}

/// real_t components from their wire bytes (f64 when `wide`, else f32), kept at the build's width
/// (`double`) as the engine keeps them: same-width values bit for bit, f64 narrowed to f32 with
/// rounding. The math types and the packed vector arrays both read their components here.
// Out of line: inlined, it grows the decoder's main function, which slows every value.
#[inline(never)]
pub fn get_reals(bytes: &[u8], wide: bool, double: bool) -> Reals {
    let f32s = || {
        bytes
            .chunks_exact(4)
            .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
    };
    let f64s = || {
        bytes
            .chunks_exact(8)
            .map(|c| f64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]))
    };
    match (wide, double) {
        (false, false) => Reals::from(get_f32s(bytes)),
        (true, true) => Reals::from(get_f64s(bytes)),
        // One pass from the bytes, and no vector for the short ones that stay inline.
        (false, true) => f32s().map(f64::from).collect(),
        (true, false) => f64s().map(|v| v as f32).collect(),
    }
}
