//! The codec as a WebAssembly module for the browser inspector (web/index.html).
//!
//! A C ABI without generated glue: the page allocates input buffers with [`gdm_alloc`], calls a
//! function, which leaves its answer (UTF-8 JSON) in one output buffer and returns its length,
//! reads it at [`gdm_out_ptr`] (a decode's table of rows at [`gdm_table_ptr`] and
//! [`gdm_text_ptr`]), and frees its inputs with [`gdm_free`]. Requests and answers are
//! JSON; `docs/web.md` states them. Every function works natively too, where the tests call the
//! same [`view`] functions.

pub mod rows;
pub mod view;

use std::cell::RefCell;

thread_local! {
    /// The last answer, kept until the next call.
    static OUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The last decode's table of nodes and rows, and their text ([`rows`]).
    static TABLE: RefCell<(Vec<u32>, Vec<u8>)> = const { RefCell::new((Vec::new(), Vec::new())) };
}

/// Keeps `answer` as the output buffer and returns its length.
fn answer(answer: Vec<u8>) -> usize {
    OUT.with(|o| {
        let len = answer.len();
        *o.borrow_mut() = answer;
        len
    })
}

/// The bytes `ptr..ptr + len` given by the page.
///
/// # Safety
/// `ptr` must come from [`gdm_alloc`] with at least `len` bytes, or `len` must be 0.
unsafe fn input<'a>(ptr: *const u8, len: usize) -> &'a [u8] {
    if len == 0 {
        &[]
    } else {
        // SAFETY: the caller passes a live buffer of `len` bytes from gdm_alloc.
        unsafe { std::slice::from_raw_parts(ptr, len) }
    }
}

/// A buffer of `len` bytes for the page to write into (never null; free it with [`gdm_free`]).
#[unsafe(no_mangle)]
pub extern "C" fn gdm_alloc(len: usize) -> *mut u8 {
    let mut buf = vec![0u8; len.max(1)].into_boxed_slice();
    let ptr = buf.as_mut_ptr();
    std::mem::forget(buf);
    ptr
}

/// Frees a buffer from [`gdm_alloc`].
///
/// # Safety
/// `ptr` and `len` must be those of one earlier [`gdm_alloc`] call, freed once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gdm_free(ptr: *mut u8, len: usize) {
    // SAFETY: the caller gives back a buffer made by gdm_alloc with this length.
    drop(unsafe { Box::from_raw(std::ptr::slice_from_raw_parts_mut(ptr, len.max(1))) });
}

/// Where the last answer starts (its length is what the call returned).
#[unsafe(no_mangle)]
pub extern "C" fn gdm_out_ptr() -> *const u8 {
    OUT.with(|o| o.borrow().as_ptr())
}

/// Where the last decode's table starts (its length is in the answer: `nodes` times
/// [`rows::NODE_CELLS`] plus `rows` times [`rows::ROW_CELLS`] numbers).
#[unsafe(no_mangle)]
pub extern "C" fn gdm_table_ptr() -> *const u32 {
    TABLE.with(|t| t.borrow().0.as_ptr())
}

/// Where the last decode's text starts (its length is the answer's `text`).
#[unsafe(no_mangle)]
pub extern "C" fn gdm_text_ptr() -> *const u8 {
    TABLE.with(|t| t.borrow().1.as_ptr())
}

/// The profiles: `[{"name": "4.6", "verified": true}, ...]`.
#[unsafe(no_mangle)]
pub extern "C" fn gdm_profiles() -> usize {
    answer(view::profiles())
}

/// Decodes and inspects `bytes` as the request (JSON: godot, framing, objects) says; the table of
/// nodes and rows is then at [`gdm_table_ptr`] and its text at [`gdm_text_ptr`].
///
/// # Safety
/// Both buffers must come from [`gdm_alloc`] with at least these lengths.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gdm_decode(
    req: *const u8,
    req_len: usize,
    bytes: *const u8,
    bytes_len: usize,
) -> usize {
    // SAFETY: forwarded from the caller's promise.
    let (req, bytes) = unsafe { (input(req, req_len), input(bytes, bytes_len)) };
    let a = view::decode(req, bytes);
    TABLE.with(|t| *t.borrow_mut() = (a.table, a.text));
    answer(a.json)
}

/// Encodes tagged JSON `json` as the request (JSON: godot, framing, objects) says.
///
/// # Safety
/// Both buffers must come from [`gdm_alloc`] with at least these lengths.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gdm_encode(
    req: *const u8,
    req_len: usize,
    json: *const u8,
    json_len: usize,
) -> usize {
    // SAFETY: forwarded from the caller's promise.
    let (req, json) = unsafe { (input(req, req_len), input(json, json_len)) };
    answer(view::encode(req, json))
}
