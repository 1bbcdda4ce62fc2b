//! Elements to and from the little-endian bytes of file formats, for the cases that copy: a
//! tensor being saved, and a file whose elements cannot be read in place (big-endian, or
//! misaligned for their type).

use std::path::Path;

use crate::budget::reserved_vec;
use crate::carrier::invalid;
use crate::dtype::{Element, with_plain};
use crate::error::{Error, Result};
use crate::{Carrier, Complex32, Complex64, DType, Layout, Tensor};

/// An element type's bytes in a file: its size and its little/big-endian encodings.
pub(crate) trait FileBytes: Element {
    /// `self`'s bytes, little-endian, appended to `out`.
    fn put_le(self, out: &mut Vec<u8>);
    /// The value of `b` (exactly `size_of::<Self>()` bytes) in the given byte order; `None`
    /// for bytes that are no value of the type (a `bool` byte other than 0 or 1).
    fn get(b: &[u8], little: bool) -> Option<Self>;
}

/// The first `N` bytes of `b` (callers pass exactly an element's bytes).
fn array<const N: usize>(b: &[u8]) -> [u8; N] {
    let mut a = [0u8; N];
    a.copy_from_slice(&b[..N]);
    a
}

macro_rules! file_bytes {
    ($($t:ty),*) => {$(
        impl FileBytes for $t {
            fn put_le(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_le_bytes());
            }
            fn get(b: &[u8], little: bool) -> Option<Self> {
                let a = array(b);
                Some(if little { <$t>::from_le_bytes(a) } else { <$t>::from_be_bytes(a) })
            }
        }
    )*};
}

file_bytes!(f32, f64, i32, i64, u8, i8);
#[cfg(feature = "half")]
file_bytes!(half::f16, half::bf16);

impl FileBytes for bool {
    fn put_le(self, out: &mut Vec<u8>) {
        out.push(u8::from(self));
    }
    fn get(b: &[u8], _: bool) -> Option<Self> {
        match b[0] {
            0 => Some(false),
            1 => Some(true),
            _ => None,
        }
    }
}

macro_rules! complex_bytes {
    ($t:ty, $part:ty) => {
        impl FileBytes for $t {
            fn put_le(self, out: &mut Vec<u8>) {
                self.re.put_le(out);
                self.im.put_le(out);
            }
            fn get(b: &[u8], little: bool) -> Option<Self> {
                let n = std::mem::size_of::<$part>();
                Some(<$t>::new(
                    <$part>::get(&b[..n], little)?,
                    <$part>::get(&b[n..], little)?,
                ))
            }
        }
    };
}

complex_bytes!(Complex32, f32);
complex_bytes!(Complex64, f64);

/// A host carrier holding `bytes` decoded as elements of the plain `dtype` in the given byte
/// order: the one copy a file makes when its elements cannot be read in place.
pub(crate) fn host_copy(
    op: &'static str,
    path: &Path,
    dtype: DType,
    bytes: &[u8],
    little: bool,
) -> Result<Carrier> {
    with_plain!(dtype, T => {
        let mut v: Vec<T> = reserved_vec(op, bytes.len() / dtype.size_of())?;
        for (i, chunk) in bytes.chunks_exact(dtype.size_of()).enumerate() {
            let x = T::get(chunk, little).ok_or_else(|| {
                invalid(op, path, format!("bool element {i} is the byte {}, not 0 or 1", chunk[0]))
            })?;
            v.push(x);
        }
        Ok(Carrier::from_vec(v))
    }, else Err(not_plain(op, dtype)))
}

/// The elements of `t` as little-endian bytes, in row-major order (last leaf fastest) or,
/// with `first_mode_fastest`, in the order of [`Tensor::to_vec`].
pub(crate) fn tensor_bytes(
    op: &'static str,
    t: &Tensor,
    first_mode_fastest: bool,
) -> Result<Vec<u8>> {
    let dtype = t.dtype();
    with_plain!(dtype, T => {
        let order = if first_mode_fastest {
            Layout::compact(t.shape())
        } else {
            Layout::row_major(t.shape())
        };
        let values: Vec<T> = t.to_vec_ordered(op, &order)?;
        let len = values.len().checked_mul(dtype.size_of()).ok_or_else(|| Error::TooLarge {
            op,
            detail: format!("{} {dtype} elements do not fit in memory as bytes", values.len()),
        })?;
        let mut out = reserved_vec(op, len)?;
        for v in values {
            v.put_le(&mut out);
        }
        Ok(out)
    }, else Err(not_plain(op, dtype)))
}

/// The error of a dtype that a file format cannot hold.
pub(crate) fn not_plain(op: &'static str, dtype: DType) -> Error {
    Error::NotImplemented {
        op,
        reason: format!(
            "{dtype} tensors are stored in two carriers; dequantize them (or convert to a plain dtype) before saving"
        ),
    }
}

/// Writes `bytes` to `path` through a sibling temporary file and a rename, so a failed write
/// leaves `path` as it was, and a carrier still mapping the old file keeps its bytes.
pub(crate) fn write_file(op: &'static str, path: &Path, parts: &[&[u8]]) -> Result<()> {
    use std::io::Write;
    let name = path
        .file_name()
        .ok_or_else(|| invalid(op, path, "the path names no file".into()))?;
    let mut tmp_name = std::ffi::OsString::from(".");
    tmp_name.push(name);
    tmp_name.push(format!(".strideweave-{}.tmp", std::process::id()));
    let tmp = path.with_file_name(tmp_name);
    let io = |e| crate::carrier::io_error(op, path, e);
    let result = std::fs::File::create(&tmp).map_err(io).and_then(|f| {
        let mut w = std::io::BufWriter::new(f);
        for part in parts {
            w.write_all(part).map_err(io)?;
        }
        w.flush().map_err(io)?;
        std::fs::rename(&tmp, path).map_err(io)
    });
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
