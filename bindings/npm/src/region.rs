//! The module's allocator: the system allocator (dlmalloc on wasm32), and a region that a decoded
//! tree is built in and given up whole.
//!
//! A decoded tree of many short strings is mostly small allocations, each freed again once the
//! tape is written: in dlmalloc, allocating and freeing them took over a fifth of decoding a
//! `strings` message. While [`build`] runs, allocations are cut from one block, one after the
//! other; once the tape is written the tree is not dropped piece by piece but the block is taken
//! back whole. The block is sized by the last decode's needs (at most [`MOST`]); what does not fit
//! comes from the system allocator, and a tree that holds any of that is dropped as usual.
//!
//! The module runs on one thread (it is built without atomics), so the region's state is plain
//! cells.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::mem::ManuallyDrop;
use std::ops::Deref;
use std::ptr;

/// The most room the region keeps: larger trees spill into the system allocator.
const MOST: usize = 64 << 20;

/// The region's room is sized in steps of this (a WebAssembly page).
const STEP: usize = 64 << 10;

/// The allocator: allocations while [`build`] runs come from the region where they fit.
pub struct Allocator;

struct Region {
    base: Cell<*mut u8>,
    room: Cell<usize>,
    used: Cell<usize>,
    /// Whether [`build`] is running.
    open: Cell<bool>,
    /// Bytes allocated while it ran that the region could not hold.
    spilled: Cell<usize>,
    /// Bytes the last [`build`] asked for, the room the next one gets.
    wanted: Cell<usize>,
}

#[cfg(target_feature = "atomics")]
compile_error!("the region's state is not synchronized: the module is built for one thread");

// SAFETY: the module is built for wasm32 without atomics (above): one thread touches the region.
unsafe impl Sync for Region {}

static REGION: Region = Region {
    base: Cell::new(ptr::null_mut()),
    room: Cell::new(0),
    used: Cell::new(0),
    open: Cell::new(false),
    spilled: Cell::new(0),
    wanted: Cell::new(0),
};

impl Region {
    fn holds(&self, p: *mut u8) -> bool {
        let base = self.base.get() as usize;
        (base..base + self.room.get()).contains(&(p as usize))
    }

    /// Room for `l` from the region while [`build`] runs and the region has it; what it cannot
    /// hold then is counted as spilled.
    fn take(&self, l: Layout) -> Option<*mut u8> {
        if !self.open.get() {
            return None;
        }
        let p = self.cut(l);
        if p.is_none() {
            self.spilled.set(self.spilled.get() + l.size());
        }
        p
    }

    /// Room for `l` cut from the region, if it has it.
    fn cut(&self, l: Layout) -> Option<*mut u8> {
        let base = self.base.get() as usize;
        let start = (base + self.used.get()).checked_next_multiple_of(l.align())?;
        let end = start.checked_add(l.size())?;
        if end > base + self.room.get() {
            return None;
        }
        self.used.set(end - base);
        Some(start as *mut u8)
    }

    /// Sizes the empty region to what the last build wanted: grown to hold it (up to [`MOST`]),
    /// or shrunk when it holds four times as much.
    fn resize(&self) {
        let want = self.wanted.get().min(MOST).next_multiple_of(STEP);
        let room = self.room.get();
        if want <= room && want >= room / 4 {
            return;
        }
        let align = STEP;
        if room > 0 {
            // SAFETY: the block was allocated below with this layout and the region is empty.
            unsafe {
                System.dealloc(
                    self.base.get(),
                    Layout::from_size_align_unchecked(room, align),
                )
            };
        }
        self.base.set(ptr::null_mut());
        self.room.set(0);
        if want > 0 {
            // SAFETY: `want` is non-zero and a multiple of `align`, a power of two.
            let base = unsafe { System.alloc(Layout::from_size_align_unchecked(want, align)) };
            if !base.is_null() {
                self.base.set(base);
                self.room.set(want);
            }
        }
    }
}

// SAFETY: every pointer handed out is either the system allocator's, passed back to it, or room
// of the region that no other allocation overlaps until the region is emptied, which happens
// only once what was built in it is gone (`Built`'s drop).
unsafe impl GlobalAlloc for Allocator {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        if let Some(p) = REGION.take(l) {
            return p;
        }
        // SAFETY: the caller's layout, as GlobalAlloc::alloc requires.
        unsafe { System.alloc(l) }
    }

    unsafe fn alloc_zeroed(&self, l: Layout) -> *mut u8 {
        if let Some(p) = REGION.take(l) {
            // SAFETY: `p` is `l.size()` bytes of the region, just cut.
            unsafe { p.write_bytes(0, l.size()) };
            return p;
        }
        // SAFETY: as in alloc.
        unsafe { System.alloc_zeroed(l) }
    }

    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        // Room in the region is taken back with the region.
        if !REGION.holds(p) {
            // SAFETY: a pointer of the system allocator, with its layout.
            unsafe { System.dealloc(p, l) }
        }
    }

    unsafe fn realloc(&self, p: *mut u8, l: Layout, size: usize) -> *mut u8 {
        let r = &REGION;
        if !r.holds(p) {
            if r.open.get() {
                r.spilled.set(r.spilled.get() + size);
            }
            // SAFETY: a pointer of the system allocator, with its layout and the new size.
            return unsafe { System.realloc(p, l, size) };
        }
        // Room in the region is not grown: moved, its old room left with the region.
        // SAFETY: the caller guarantees `size` with `l.align()` is a valid layout.
        let new = unsafe { self.alloc(Layout::from_size_align_unchecked(size, l.align())) };
        if !new.is_null() {
            // SAFETY: both blocks hold at least the smaller size and do not overlap.
            unsafe { ptr::copy_nonoverlapping(p, new, l.size().min(size)) };
        }
        new
    }
}

/// A value built in the region by [`build`]: read it through `Deref`; dropping it gives the
/// region back.
pub struct Built<T> {
    value: ManuallyDrop<T>,
}

impl<T> Deref for Built<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T> Drop for Built<T> {
    fn drop(&mut self) {
        let r = &REGION;
        if r.spilled.get() > 0 {
            // SAFETY: dropped once, here; its parts in the region are not freed one by one.
            unsafe { ManuallyDrop::drop(&mut self.value) };
        }
        // Otherwise all it owns is in the region, which is emptied here whole.
        r.wanted.set(r.used.get() + r.spilled.get());
        r.used.set(0);
        r.spilled.set(0);
    }
}

/// Closes the region if `make` panics, so later allocations go to the system allocator.
struct Closing;

impl Drop for Closing {
    fn drop(&mut self) {
        REGION.open.set(false);
    }
}

/// Runs `make` with its allocations in the region. What it returns must own everything it
/// allocated that outlives it (nothing may be kept elsewhere, in a static or a cache), and the
/// region is reused once the [`Built`] is dropped.
///
/// # Panics
///
/// If a value built before is still alive: one is built at a time.
pub fn build<T>(make: impl FnOnce() -> T) -> Built<T> {
    let r = &REGION;
    assert!(
        !r.open.get() && r.used.get() == 0 && r.spilled.get() == 0,
        "one value is built in the region at a time"
    );
    r.resize();
    r.open.set(true);
    let closing = Closing;
    let value = make();
    drop(closing);
    Built {
        value: ManuallyDrop::new(value),
    }
}
