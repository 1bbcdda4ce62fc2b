//! Files and maps (issue 14): `Carrier::map_file` and `MapOptions`, `.npy` through
//! `Tensor::read_npy`/`write_npy`, safetensors through `io::load_safetensors`/
//! `save_safetensors`, against files numpy and Python's safetensors wrote
//! (`tests/data/io`, made by `scripts/io_reference.py`). A counting allocator (this binary
//! only) measures the bytes a load allocates.

use std::alloc::{GlobalAlloc, Layout as AllocLayout, System};
use std::cell::Cell;
use std::path::PathBuf;

mod big;
mod mapped;
mod npy;
mod safetensors;

/// Counts the bytes allocated by the current thread, so parallel tests do not disturb it.
struct Counting;

thread_local! {
    static BYTES: Cell<usize> = const { Cell::new(0) };
}

fn count(size: usize) {
    let _ = BYTES.try_with(|c| c.set(c.get() + size));
}

// SAFETY: forwards every call unchanged to the system allocator, which upholds
// `GlobalAlloc`'s contract; the only addition is a thread-local counter increment, which
// neither allocates nor touches the memory being managed.
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

/// The bytes `f` allocates on this thread, and its result.
fn bytes_allocated<T>(f: impl FnOnce() -> T) -> (usize, T) {
    let before = BYTES.with(Cell::get);
    let out = std::hint::black_box(f());
    (BYTES.with(Cell::get) - before, out)
}

/// The reference files.
fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("data/io")
        .join(name)
}

/// A fresh scratch directory for one test.
fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("strideweave-io-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The bytes of a hex string.
fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// The elements of `t` in row-major order as little-endian bytes, whatever its dtype.
fn row_major_bytes(t: &strideweave::Tensor) -> Vec<u8> {
    use strideweave::{Complex32, Complex64, DType};
    match t.dtype() {
        DType::Bool => t
            .to_vec_row_major::<bool>()
            .unwrap()
            .into_iter()
            .map(u8::from)
            .collect(),
        DType::U8 => t.to_vec_row_major::<u8>().unwrap(),
        DType::I8 => t
            .to_vec_row_major::<i8>()
            .unwrap()
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect(),
        DType::I32 => t
            .to_vec_row_major::<i32>()
            .unwrap()
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect(),
        DType::I64 => t
            .to_vec_row_major::<i64>()
            .unwrap()
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect(),
        DType::F32 => t
            .to_vec_row_major::<f32>()
            .unwrap()
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect(),
        DType::F64 => t
            .to_vec_row_major::<f64>()
            .unwrap()
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect(),
        DType::ComplexF32 => t
            .to_vec_row_major::<Complex32>()
            .unwrap()
            .iter()
            .flat_map(|v| [v.re.to_le_bytes(), v.im.to_le_bytes()].concat())
            .collect(),
        DType::ComplexF64 => t
            .to_vec_row_major::<Complex64>()
            .unwrap()
            .iter()
            .flat_map(|v| [v.re.to_le_bytes(), v.im.to_le_bytes()].concat())
            .collect(),
        #[cfg(feature = "half")]
        DType::F16 => t
            .to_vec_row_major::<half::f16>()
            .unwrap()
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect(),
        other => panic!("no reference bytes for {other}"),
    }
}
