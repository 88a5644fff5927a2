//! The codec as a WebAssembly module for the browser inspector (web/index.html).
//!
//! A C ABI without generated glue: the page allocates input buffers with [`gdm_alloc`], calls a
//! function, which leaves its answer (UTF-8 JSON) in one output buffer and returns its length,
//! reads it at [`gdm_out_ptr`], and frees its inputs with [`gdm_free`]. A decode keeps its input
//! and rows ([`session`]) for the page to ask for the rows and values in view. Requests and
//! answers are JSON; `docs/web.md` states them. Every function works natively too, where the
//! tests call the same functions.

pub mod chunks;
pub mod framed;
pub mod label;
pub mod rows;
pub mod session;
pub mod versions;
pub mod view;
pub mod window;

use std::cell::RefCell;

use session::Session;

thread_local! {
    /// The last answer, kept until the next call.
    static OUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The last decode.
    static SESSION: RefCell<Option<Session>> = const { RefCell::new(None) };
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

/// The profiles: `[{"name": "4.6", "verified": true}, ...]`.
#[unsafe(no_mangle)]
pub extern "C" fn gdm_profiles() -> usize {
    answer(view::profiles())
}

/// Decodes and inspects `bytes` as the request (JSON: godot, framing, objects) says, and keeps
/// them, with the rows read, for [`gdm_rows`], [`gdm_kids`] and [`gdm_json`]: the module owns the
/// bytes buffer from here on (the page does not free it).
///
/// # Safety
/// Both buffers must come from [`gdm_alloc`] with these lengths.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gdm_decode(
    req: *const u8,
    req_len: usize,
    bytes: *mut u8,
    bytes_len: usize,
) -> usize {
    // SAFETY: forwarded from the caller's promise; the bytes buffer is handed over whole.
    let (req, bytes) = unsafe {
        let owned = std::ptr::slice_from_raw_parts_mut(bytes, bytes_len.max(1));
        let mut owned = Box::from_raw(owned).into_vec();
        owned.truncate(bytes_len);
        (input(req, req_len), owned.into_boxed_slice())
    };
    // The last decode goes first: its rows and input are not needed beside the new ones.
    SESSION.with(|s| s.borrow_mut().take());
    let (json, session) = Session::decode(req, bytes);
    SESSION.with(|s| *s.borrow_mut() = session);
    answer(json)
}

/// The last decode's rows `first..first + count` (at most 1000), with their texts.
#[unsafe(no_mangle)]
pub extern "C" fn gdm_rows(first: usize, count: usize) -> usize {
    answer(SESSION.with(|s| {
        s.borrow()
            .as_ref()
            .map(|s| s.rows(first, count))
            .unwrap_or_default()
    }))
}

/// The last decode's value `node` and its nested values `from..from + count` (at most 1000).
#[unsafe(no_mangle)]
pub extern "C" fn gdm_kids(node: usize, from: usize, count: usize) -> usize {
    answer(SESSION.with(|s| {
        s.borrow()
            .as_ref()
            .map(|s| s.kids(node, from, count))
            .unwrap_or_default()
    }))
}

/// The last decode's whole tagged JSON (its start came with the decode).
#[unsafe(no_mangle)]
pub extern "C" fn gdm_json() -> usize {
    answer(SESSION.with(|s| s.borrow().as_ref().map(Session::json).unwrap_or_default()))
}

/// Reads `bytes` with every version, as the request says with the selected one.
///
/// # Safety
/// Both buffers must come from [`gdm_alloc`] with at least these lengths.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn gdm_versions(
    req: *const u8,
    req_len: usize,
    bytes: *const u8,
    bytes_len: usize,
) -> usize {
    // SAFETY: forwarded from the caller's promise.
    let (req, bytes) = unsafe { (input(req, req_len), input(bytes, bytes_len)) };
    answer(versions::versions(req, bytes))
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
