//! safetensors files (crate `safetensors`, the format's reference implementation, which
//! parses and validates the header over borrowed bytes): [`load_safetensors`] and
//! [`save_safetensors`].

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::Path;

use safetensors::tensor::{Dtype, SafeTensors, View};

use super::bytes::{host_copy, tensor_bytes};
use crate::carrier::{SharedMap, invalid, io_error};
use crate::error::{Error, Result};
use crate::{Carrier, DType, IntTuple, Layout, Shape, Tensor};

/// Loads every tensor of a `.safetensors` file, by name, without copying element data.
///
/// The file is mapped once, read-only; the tensors of one dtype share one carrier over the
/// whole file (their offsets are their bytes' positions in it), so tensors of an `f32` model
/// all view one carrier. A `bool` tensor has a carrier of its own over the same map (only its
/// own bytes are checked to be 0 or 1). Each tensor gets the row-major layout of its shape (safetensors
/// stores C order). A map from name to tensor, sorted by name (a `BTreeMap`: iteration is
/// deterministic).
///
/// dtypes: `BOOL`, `U8`, `I8`, `I32`, `I64`, `F16` and `BF16` (feature `half`), `F32`,
/// `F64`, `C64`; any other (`I16`, `U32`, the `F8` kinds, ...) is an error naming the tensor
/// and its dtype, as is an extent of 0. The format does not promise that a tensor's bytes are
/// aligned for its dtype: a tensor whose bytes do not start on a multiple of its element size
/// gets its own carrier over the same map when they are aligned, and otherwise — the one
/// case that copies — a host carrier holding a copy of that tensor alone.
///
/// The map's assumption (no one modifies or truncates the file while tensors view it) is
/// [`Carrier::map_file`]'s.
///
/// ```
/// use strideweave::{Tensor, io};
/// let path = std::env::temp_dir().join("strideweave-doc-load.safetensors");
/// let w = Tensor::from_vec_row_major(vec![1.0f32, 2.0, 3.0, 4.0, 5.0, 6.0], &"(2,3)".parse().unwrap()).unwrap();
/// let b = Tensor::from_vec(vec![0.5f32, -0.5], &"2".parse().unwrap()).unwrap();
/// io::save_safetensors(&path, &[("weight", &w), ("bias", &b)]).unwrap();
///
/// let loaded = io::load_safetensors(&path).unwrap();
/// assert_eq!(loaded.keys().collect::<Vec<_>>(), ["bias", "weight"]);
/// let weight = &loaded["weight"];
/// assert_eq!(weight.layout().to_string(), "(2,3):(3,1)");
/// assert_eq!(weight.to_vec_row_major::<f32>().unwrap(), [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
/// assert!(strideweave::Carrier::same(weight.carrier(), loaded["bias"].carrier()));
/// ```
pub fn load_safetensors(path: impl AsRef<Path>) -> Result<BTreeMap<String, Tensor>> {
    const OP: &str = "io::load_safetensors";
    let path = path.as_ref();
    let map = SharedMap::open(OP, path)?;
    let bytes = map.bytes();
    let file = SafeTensors::deserialize(bytes)
        .map_err(|e| invalid(OP, path, format!("not a valid safetensors file: {e}")))?;
    // One carrier per dtype over the whole file, made when a first tensor needs it.
    let mut shared: Vec<(DType, Carrier)> = Vec::new();
    let mut out = BTreeMap::new();
    for (name, view) in file.iter() {
        let dtype = dtype_of(view.dtype()).ok_or_else(|| Error::NotImplemented {
            op: OP,
            reason: format!(
                "{}: tensor '{name}' has dtype {:?}, which StrideWeave does not hold",
                path.display(),
                view.dtype()
            ),
        })?;
        let extents = view
            .shape()
            .iter()
            .map(|&e| i64::try_from(e).ok().filter(|&e| e >= 1))
            .collect::<Option<Vec<i64>>>()
            .ok_or_else(|| {
                invalid(
                    OP,
                    path,
                    format!(
                        "tensor '{name}' has shape {:?}: StrideWeave extents are at least 1",
                        view.shape()
                    ),
                )
            })?;
        let shape = Shape::new(IntTuple::from(extents))
            .map_err(|e| invalid(OP, path, format!("tensor '{name}': {e}")))?;
        let data = view.data();
        let start = data.as_ptr() as usize - bytes.as_ptr() as usize;
        let size = dtype.size_of();
        let count = data.len() / size;
        let (carrier, offset) = if dtype == DType::Bool {
            // Only a bool tensor's own bytes are known to be 0 or 1: its own carrier.
            (map.carrier(OP, dtype, start, count)?, 0)
        } else if start.is_multiple_of(size) {
            let c = match shared.iter().find(|(d, _)| *d == dtype) {
                Some((_, c)) => c.clone(),
                None => {
                    let c = map.carrier(OP, dtype, 0, bytes.len() / size)?;
                    shared.push((dtype, c.clone()));
                    c
                }
            };
            (c, start / size)
        } else if map.is_aligned(dtype, start) {
            (map.carrier(OP, dtype, start, count)?, 0)
        } else {
            (host_copy(OP, path, dtype, data, true)?, 0)
        };
        let tensor = Tensor::new(carrier, offset, Layout::row_major(&shape))?;
        out.insert(name.to_string(), tensor);
    }
    Ok(out)
}

/// Saves tensors as a `.safetensors` file, each in row-major (C) order under its name; the
/// file is what Python's `safetensors` writes for the same arrays (tensors sorted by dtype
/// alignment, then name; the header padded to 8 bytes).
///
/// Errors: a name given twice, a dtype safetensors has no code for (`complex128`), a
/// block-scaled tensor (two carriers: dequantize it first), or a file that cannot be
/// written. The file is written beside `path` and renamed over it, so a failed save leaves
/// `path` as it was and tensors mapping the old file keep their values.
///
/// ```
/// use strideweave::{Tensor, io};
/// let path = std::env::temp_dir().join("strideweave-doc-save.safetensors");
/// let t = Tensor::arange::<i64>(&"(2,2)".parse().unwrap());
/// io::save_safetensors(&path, &[("t", &t)]).unwrap();
/// assert_eq!(io::load_safetensors(&path).unwrap()["t"].to_vec::<i64>().unwrap(), [0, 1, 2, 3]);
/// let err = io::save_safetensors(&path, &[("t", &t), ("t", &t)]).unwrap_err();
/// assert!(err.to_string().starts_with("io::save_safetensors: tensor name 't' appears twice"));
/// ```
pub fn save_safetensors(path: impl AsRef<Path>, tensors: &[(&str, &Tensor)]) -> Result<()> {
    const OP: &str = "io::save_safetensors";
    let path = path.as_ref();
    let mut views = BTreeMap::new();
    for &(name, t) in tensors {
        let dtype = code_of(t.dtype()).ok_or_else(|| Error::NotImplemented {
            op: OP,
            reason: format!(
                "tensor '{name}' is {}, which safetensors has no dtype for",
                t.dtype()
            ),
        })?;
        if views.contains_key(name) {
            return Err(Error::NotRepresentable {
                op: OP,
                reason: format!("tensor name '{name}' appears twice"),
            });
        }
        let shape = t.shape().leaves().iter().map(|&e| e as usize).collect();
        let data = tensor_bytes(OP, t, false)?;
        views.insert(name, Bytes { dtype, shape, data });
    }
    safetensors::serialize_to_file(views, None, path).map_err(|e| match e {
        safetensors::SafeTensorError::IoError(e) => io_error(OP, path, e),
        other => invalid(OP, path, other.to_string()),
    })
}

/// One tensor's row-major bytes, as safetensors' writer wants them.
struct Bytes {
    dtype: Dtype,
    shape: Vec<usize>,
    data: Vec<u8>,
}

impl View for Bytes {
    fn dtype(&self) -> Dtype {
        self.dtype
    }
    fn shape(&self) -> &[usize] {
        &self.shape
    }
    fn data(&self) -> Cow<'_, [u8]> {
        Cow::Borrowed(&self.data)
    }
    fn data_len(&self) -> usize {
        self.data.len()
    }
}

/// StrideWeave's dtype of a safetensors dtype; `None` for one it does not hold.
fn dtype_of(d: Dtype) -> Option<DType> {
    Some(match d {
        Dtype::BOOL => DType::Bool,
        Dtype::U8 => DType::U8,
        Dtype::I8 => DType::I8,
        Dtype::I32 => DType::I32,
        Dtype::I64 => DType::I64,
        Dtype::F32 => DType::F32,
        Dtype::F64 => DType::F64,
        Dtype::C64 => DType::ComplexF32,
        #[cfg(feature = "half")]
        Dtype::F16 => DType::F16,
        #[cfg(feature = "half")]
        Dtype::BF16 => DType::BF16,
        _ => return None,
    })
}

/// The safetensors dtype of one of ours; `None` for one the format has no code for.
fn code_of(d: DType) -> Option<Dtype> {
    Some(match d {
        DType::Bool => Dtype::BOOL,
        DType::U8 => Dtype::U8,
        DType::I8 => Dtype::I8,
        DType::I32 => Dtype::I32,
        DType::I64 => Dtype::I64,
        DType::F32 => Dtype::F32,
        DType::F64 => Dtype::F64,
        DType::ComplexF32 => Dtype::C64,
        #[cfg(feature = "half")]
        DType::F16 => Dtype::F16,
        #[cfg(feature = "half")]
        DType::BF16 => Dtype::BF16,
        _ => return None,
    })
}
