//! Deep nesting without stack overflow: recursive walks continue on a new stack segment when the
//! current one runs low.

/// Stack left below which a nested value continues on a new stack segment. It must hold
/// [`CHECK_EVERY`] levels of the deepest walk's frames, unoptimized builds included.
pub(crate) const STACK_RED_ZONE: usize = 1024 * 1024;
/// Size of each new stack segment.
pub(crate) const STACK_SEGMENT: usize = 4 * 1024 * 1024;
/// Levels between two looks at the stack. A look costs a thread-local lookup, which is a fair share
/// of decoding a small value, so it is not done at every level.
const CHECK_EVERY: usize = 4;

/// Runs `f`, the walk of a value at nesting `depth`, on a fresh stack segment if this one is low.
#[inline(always)]
pub(crate) fn nested<R>(depth: usize, f: impl FnOnce() -> R) -> R {
    if depth.is_multiple_of(CHECK_EVERY) {
        stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, f)
    } else {
        f()
    }
}

/// Runs `f` on a fresh stack segment if this one is low, whatever the depth: for walks that do not
/// count their depth, such as dropping a value.
#[inline]
pub(crate) fn with_room<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, f)
}
