//! Deep nesting without stack overflow: recursive walks continue on a new stack segment when the
//! current one runs low.

/// Stack left below which a nested value continues on a new stack segment. It must hold
/// [`CHECK_EVERY`] levels of the deepest walk's frames, unoptimized builds included.
#[cfg(feature = "stack-growth")]
const STACK_RED_ZONE: usize = 1024 * 1024;
/// Size of each new stack segment.
#[cfg(feature = "stack-growth")]
const STACK_SEGMENT: usize = 4 * 1024 * 1024;
/// Levels between two looks at the stack. A look costs a thread-local lookup, which is a fair share
/// of decoding a small value, so it is not done at every level.
const CHECK_EVERY: usize = 4;

/// Runs `f` on a fresh stack segment if this one is low.
#[cfg(feature = "stack-growth")]
#[inline]
pub(crate) fn with_room<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, f)
}

/// Runs `f` on this stack: without the `stack-growth` feature the program's stack must hold the
/// deepest nesting the profiles accept (web/wasm links with a large one).
#[cfg(not(feature = "stack-growth"))]
#[inline(always)]
pub(crate) fn with_room<R>(f: impl FnOnce() -> R) -> R {
    f()
}

/// Runs `f`, the walk of a value at nesting `depth`, on a fresh stack segment if this one is low,
/// looking only every [`CHECK_EVERY`] levels.
#[inline(always)]
pub(crate) fn nested<R>(depth: usize, f: impl FnOnce() -> R) -> R {
    if looks_at(depth) { with_room(f) } else { f() }
}

/// Whether the walk looks at the stack at nesting `depth` (every [`CHECK_EVERY`] levels).
#[inline(always)]
pub(crate) fn looks_at(depth: usize) -> bool {
    depth.is_multiple_of(CHECK_EVERY)
}

/// Drops the contents of `items` where the stack has room: for the containers of a value, whose
/// drop recurses once per nesting level.
pub(crate) fn drop_with_room<T>(items: &mut Vec<T>) {
    if !items.is_empty() {
        let items = std::mem::take(items);
        with_room(|| drop(items));
    }
}
