//! Files and maps (issue 14): `Carrier::map_file` and `MapOptions`, `.npy` through
//! `Tensor::read_npy`/`write_npy`, safetensors through `io::load_safetensors`/
//! `save_safetensors`, against files numpy and Python's safetensors wrote
//! (`tests/data/io`, made by `scripts/io_reference.py`). The counting allocator
//! (`tests/common/counting.rs`) measures the bytes a load allocates.

use std::path::PathBuf;

use crate::counting::bytes_allocated;

mod big;
mod mapped;
mod npy;
mod safetensors;

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
    macro_rules! le {
        ($t:ty) => {
            t.to_vec_row_major::<$t>()
                .unwrap()
                .iter()
                .flat_map(|v| v.to_le_bytes())
                .collect()
        };
    }
    macro_rules! complex {
        ($t:ty) => {
            t.to_vec_row_major::<$t>()
                .unwrap()
                .iter()
                .flat_map(|v| [v.re.to_le_bytes(), v.im.to_le_bytes()].concat())
                .collect()
        };
    }
    match t.dtype() {
        DType::Bool => t
            .to_vec_row_major::<bool>()
            .unwrap()
            .into_iter()
            .map(u8::from)
            .collect(),
        DType::U8 => le!(u8),
        DType::I8 => le!(i8),
        DType::I32 => le!(i32),
        DType::I64 => le!(i64),
        DType::F32 => le!(f32),
        DType::F64 => le!(f64),
        DType::ComplexF32 => complex!(Complex32),
        DType::ComplexF64 => complex!(Complex64),
        #[cfg(feature = "half")]
        DType::F16 => le!(half::f16),
        other => panic!("no reference bytes for {other}"),
    }
}
