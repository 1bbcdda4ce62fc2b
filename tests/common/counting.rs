//! A counting global allocator for one test binary: per thread (so parallel tests do not
//! disturb each other) it counts allocations, allocations of at least [`LARGE_BYTES`], and
//! bytes. `tests/main.rs` declares it once; it installs itself.

use std::alloc::{GlobalAlloc, Layout as AllocLayout, System};
use std::cell::Cell;

/// Counts the current thread's allocations and bytes.
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
    static LARGE: Cell<usize> = const { Cell::new(0) };
    static BYTES: Cell<usize> = const { Cell::new(0) };
}

/// The size from which an allocation counts as a buffer of elements in [`large_allocations`].
pub const LARGE_BYTES: usize = 64 * 1024;

fn count(size: usize) {
    let _ = ALLOCATIONS.try_with(|c| c.set(c.get() + 1));
    let _ = BYTES.try_with(|c| c.set(c.get() + size));
    if size >= LARGE_BYTES {
        let _ = LARGE.try_with(|c| c.set(c.get() + 1));
    }
}

// SAFETY: forwards every call unchanged to the system allocator, which upholds
// `GlobalAlloc`'s contract; the only additions are thread-local counter increments, which
// neither allocate nor touch the memory being managed.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: AllocLayout) -> *mut u8 {
        count(layout.size());
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: AllocLayout) {
        // SAFETY: `ptr` was allocated by `System` in `alloc` above with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: AllocLayout, new_size: usize) -> *mut u8 {
        count(new_size);
        // SAFETY: `ptr` was allocated by `System` with `layout`; same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// `f`'s result after the counter `which` moved by the returned amount on this thread.
fn measured<T>(
    which: &'static std::thread::LocalKey<Cell<usize>>,
    f: impl FnOnce() -> T,
) -> (usize, T) {
    let before = which.with(Cell::get);
    let out = std::hint::black_box(f());
    (which.with(Cell::get) - before, out)
}

/// The number of allocations `f` makes on this thread.
#[allow(dead_code)]
pub fn allocations<T>(f: impl FnOnce() -> T) -> (usize, T) {
    measured(&ALLOCATIONS, f)
}

/// The number of allocations of at least [`LARGE_BYTES`] that `f` makes on this thread.
#[allow(dead_code)]
pub fn large_allocations<T>(f: impl FnOnce() -> T) -> (usize, T) {
    measured(&LARGE, f)
}

/// The bytes `f` allocates on this thread.
#[allow(dead_code)]
pub fn bytes_allocated<T>(f: impl FnOnce() -> T) -> (usize, T) {
    measured(&BYTES, f)
}
