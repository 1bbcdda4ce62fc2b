//! Memory-mapped files as carrier storage (`memmap2`): the elements are the file's bytes, read
//! in place, never copied.
//!
//! # What we assume of a mapped file (the soundness contract)
//!
//! A map lends the file's bytes as `&[T]`. Rust promises that memory behind a shared
//! reference does not change while it is borrowed; the operating system does not: another
//! process (or this one, through `std::fs`) may write or truncate the file while it is mapped.
//! Like every crate that maps files (`safetensors`, `ripgrep`, `memmap2`'s own examples), we
//! assume that no one modifies or truncates a file while a carrier maps it. A write then shows
//! up as changed values (in principle undefined behaviour for the reader), a truncation as a
//! `SIGBUS` on the next read of the lost pages. Everything else is checked here: the byte range
//! lies inside the file, its start is aligned for the element type, its length is a whole
//! number of elements, and a `bool` map holds only the bytes 0 and 1 (every other element type
//! accepts every bit pattern).

use std::fs::{File, OpenOptions};
use std::path::Path;
use std::sync::Arc;

use memmap2::{Mmap, MmapMut};

use super::{Carrier, CarrierStorage};
use crate::dtype::{DType, Element, HostSlice, HostSliceMut, with_plain};
use crate::error::{Error, Result};

/// How to map a file as a carrier: the element dtype, the byte offset of the first element,
/// the number of elements and whether writes are allowed (they go to the file).
///
/// [`Carrier::map_file`] and [`Carrier::map_file_mut`] are the two common cases (the whole
/// file as `u8`, read-only or writable). The offset must be a multiple of the dtype's
/// alignment and the elements must lie inside the file, else [`map`](Self::map) is an
/// [`Error::InvalidFile`]. The soundness contract of a map (no one modifies or truncates the
/// file while it is mapped) is in [`Carrier::map_file`].
///
/// ```
/// use strideweave::{Carrier, DType, MapOptions, Tensor};
/// let path = std::env::temp_dir().join("strideweave-doc-map-options.bin");
/// let values = [1.0f32, 2.0, 3.0, 4.0];
/// let mut bytes = vec![0u8; 8]; // an 8-byte header, then the values
/// bytes.extend(values.iter().flat_map(|v| v.to_le_bytes()));
/// std::fs::write(&path, &bytes).unwrap();
///
/// let c = MapOptions::new(DType::F32).offset(8).map(&path).unwrap();
/// let t = Tensor::new(c, 0, "(2,2):(2,1)".parse().unwrap()).unwrap();
/// assert_eq!(t.to_vec_row_major::<f32>().unwrap(), [1.0, 2.0, 3.0, 4.0]);
/// assert!(MapOptions::new(DType::F32).offset(2).map(&path).is_err()); // misaligned
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapOptions {
    dtype: DType,
    offset: u64,
    len: Option<usize>,
    writable: bool,
}

impl MapOptions {
    /// Options mapping the whole file as elements of `dtype`, read-only.
    ///
    /// ```
    /// use strideweave::{DType, MapOptions};
    /// let path = std::env::temp_dir().join("strideweave-doc-map-new.bin");
    /// std::fs::write(&path, [1.0f32, 2.0].map(f32::to_le_bytes).concat()).unwrap();
    /// let c = MapOptions::new(DType::F32).map(&path).unwrap();
    /// assert_eq!((c.len(), c.to_vec::<f32>().unwrap()), (2, vec![1.0, 2.0]));
    /// ```
    pub fn new(dtype: DType) -> MapOptions {
        MapOptions {
            dtype,
            offset: 0,
            len: None,
            writable: false,
        }
    }

    /// The byte offset of the first element (default 0).
    ///
    /// ```
    /// use strideweave::{DType, MapOptions};
    /// let path = std::env::temp_dir().join("strideweave-doc-map-offset.bin");
    /// std::fs::write(&path, [9u8, 9, 1, 2]).unwrap();
    /// let c = MapOptions::new(DType::U8).offset(2).map(&path).unwrap();
    /// assert_eq!(c.to_vec::<u8>().unwrap(), [1, 2]);
    /// ```
    pub fn offset(mut self, bytes: u64) -> MapOptions {
        self.offset = bytes;
        self
    }

    /// The number of elements (default: as many whole elements as fit after the offset).
    ///
    /// ```
    /// use strideweave::{DType, MapOptions};
    /// let path = std::env::temp_dir().join("strideweave-doc-map-len.bin");
    /// std::fs::write(&path, [1u8, 2, 3, 4]).unwrap();
    /// let c = MapOptions::new(DType::U8).len(3).map(&path).unwrap();
    /// assert_eq!(c.to_vec::<u8>().unwrap(), [1, 2, 3]);
    /// ```
    pub fn len(mut self, elements: usize) -> MapOptions {
        self.len = Some(elements);
        self
    }

    /// Whether the carrier may be written (default `false`): writes go to the file.
    ///
    /// ```
    /// use strideweave::{DType, MapOptions, Scalar};
    /// let path = std::env::temp_dir().join("strideweave-doc-map-writable.bin");
    /// std::fs::write(&path, 5i32.to_le_bytes()).unwrap();
    /// let c = MapOptions::new(DType::I32).writable(true).map(&path).unwrap();
    /// c.set(0, Scalar::I32(-1)).unwrap();
    /// drop(c);
    /// assert_eq!(std::fs::read(&path).unwrap(), (-1i32).to_le_bytes());
    /// ```
    pub fn writable(mut self, yes: bool) -> MapOptions {
        self.writable = yes;
        self
    }

    /// Maps `path` as a carrier with these options.
    ///
    /// ```
    /// use strideweave::{DType, MapOptions};
    /// let path = std::env::temp_dir().join("strideweave-doc-map.bin");
    /// std::fs::write(&path, 7i64.to_le_bytes()).unwrap();
    /// let c = MapOptions::new(DType::I64).map(&path).unwrap();
    /// assert_eq!(c.to_vec::<i64>().unwrap(), [7]);
    /// assert!(MapOptions::new(DType::I64).len(2).map(&path).is_err()); // past the end
    /// ```
    pub fn map(&self, path: impl AsRef<Path>) -> Result<Carrier> {
        self.map_as("MapOptions::map", path.as_ref())
    }

    fn map_as(&self, op: &'static str, path: &Path) -> Result<Carrier> {
        if !self.dtype.is_plain() {
            return Err(invalid(
                op,
                path,
                format!("{} is not a plain dtype", self.dtype),
            ));
        }
        let file = open(op, path, self.writable)?;
        let file_len = file_len(op, path, &file)?;
        let start = usize::try_from(self.offset)
            .ok()
            .filter(|&s| s <= file_len)
            .ok_or_else(|| {
                invalid(
                    op,
                    path,
                    format!(
                        "offset {} is past the end of the file ({file_len} bytes)",
                        self.offset
                    ),
                )
            })?;
        let size = self.dtype.size_of();
        let len = match self.len {
            Some(n) => n,
            None => (file_len - start) / size,
        };
        if len.checked_mul(size).is_none_or(|b| b > file_len - start) {
            return Err(invalid(
                op,
                path,
                format!(
                    "{len} {} elements from offset {start} do not fit in the file ({file_len} bytes)",
                    self.dtype
                ),
            ));
        }
        check_aligned(op, path, self.dtype, start)?;
        if self.writable {
            // SAFETY (of the call, see the module's contract): the file stays open through
            // the map; no one else is assumed to modify or truncate it while mapped.
            #[allow(unsafe_code)]
            let map = unsafe { MmapMut::map_mut(&file) }.map_err(|e| io_error(op, path, e))?;
            let storage = Mapped {
                map: MapBytes::Writable(map),
                start,
                len,
                dtype: self.dtype,
            };
            check_bools(op, path, storage.bools())?;
            Ok(Carrier::from_storage(storage))
        } else {
            SharedMap::from_file(op, path, &file)?.carrier(op, self.dtype, start, len)
        }
    }
}

impl Carrier {
    /// The bytes of the file at `path` as a read-only `u8` carrier, mapped, never copied.
    /// [`MapOptions`] maps another dtype, an offset or a part of the file.
    ///
    /// Views of the carrier never copy; writing through it (`set`, `write`, an in-place op)
    /// is an error naming the operation and the read-only map. [`map_file_mut`](Self::map_file_mut)
    /// maps a file for writing.
    ///
    /// # What the map assumes
    ///
    /// No one modifies or truncates the file while a carrier (or any tensor over it) maps it:
    /// a change made by another process would change values the carrier lends as immutable
    /// (undefined behaviour in principle), and a truncation makes later reads fault. This is
    /// the contract of every file map (`memmap2::Mmap::map`); the crate checks everything else
    /// (range, alignment, a `bool` map's bytes).
    ///
    /// ```
    /// use strideweave::Carrier;
    /// let path = std::env::temp_dir().join("strideweave-doc-map-file.bin");
    /// std::fs::write(&path, [1u8, 2, 3]).unwrap();
    /// let c = Carrier::map_file(&path).unwrap();
    /// assert_eq!((c.class().name(), c.to_vec::<u8>().unwrap()), ("read-only map", vec![1, 2, 3]));
    /// let err = c.set(0, strideweave::Scalar::U8(9)).unwrap_err();
    /// assert!(err.to_string().starts_with("Carrier::set: the read-only map carrier"));
    /// ```
    pub fn map_file(path: impl AsRef<Path>) -> Result<Carrier> {
        MapOptions::new(DType::U8).map_as("Carrier::map_file", path.as_ref())
    }

    /// The bytes of the file at `path` as a writable `u8` carrier, mapped: writes change the
    /// file (the operating system writes them back; no flush is promised before the carrier
    /// is dropped). The assumption of [`map_file`](Self::map_file) holds here too.
    ///
    /// ```
    /// use strideweave::{Carrier, Scalar};
    /// let path = std::env::temp_dir().join("strideweave-doc-map-file-mut.bin");
    /// std::fs::write(&path, [1u8, 2, 3]).unwrap();
    /// let c = Carrier::map_file_mut(&path).unwrap();
    /// c.set(0, Scalar::U8(9)).unwrap();
    /// drop(c);
    /// assert_eq!(std::fs::read(&path).unwrap(), [9, 2, 3]);
    /// ```
    pub fn map_file_mut(path: impl AsRef<Path>) -> Result<Carrier> {
        MapOptions::new(DType::U8)
            .writable(true)
            .map_as("Carrier::map_file_mut", path.as_ref())
    }
}

/// One read-only map of a whole file, shared by every carrier made from it (the `.npy` and
/// safetensors loaders make one carrier per dtype over one map).
#[derive(Clone)]
pub(crate) struct SharedMap {
    map: Arc<Mmap>,
    path: Arc<str>,
}

impl SharedMap {
    /// Maps the whole file at `path`, read-only.
    pub(crate) fn open(op: &'static str, path: &Path) -> Result<SharedMap> {
        let file = open(op, path, false)?;
        SharedMap::from_file(op, path, &file)
    }

    fn from_file(op: &'static str, path: &Path, file: &File) -> Result<SharedMap> {
        file_len(op, path, file)?;
        // SAFETY (of the call, see the module's contract): the map is read-only and private
        // to this process; no one is assumed to modify or truncate the file while mapped.
        #[allow(unsafe_code)]
        let map = unsafe { Mmap::map(file) }.map_err(|e| io_error(op, path, e))?;
        Ok(SharedMap {
            map: Arc::new(map),
            path: path.display().to_string().into(),
        })
    }

    /// The file's bytes.
    pub(crate) fn bytes(&self) -> &[u8] {
        &self.map
    }

    /// Whether elements of `dtype` may start at byte `start` (the map itself is page-aligned).
    pub(crate) fn is_aligned(&self, dtype: DType, start: usize) -> bool {
        aligned(self.map.as_ptr(), dtype, start)
    }

    /// A read-only carrier of `len` elements of the plain `dtype` from byte `start`, sharing
    /// this map. The range must lie in the file and `start` be aligned.
    pub(crate) fn carrier(
        &self,
        op: &'static str,
        dtype: DType,
        start: usize,
        len: usize,
    ) -> Result<Carrier> {
        let path = Path::new(&*self.path);
        let end = len
            .checked_mul(dtype.size_of())
            .and_then(|b| b.checked_add(start))
            .filter(|&e| e <= self.map.len())
            .ok_or_else(|| {
                invalid(
                    op,
                    path,
                    format!(
                        "{len} {dtype} elements from byte {start} do not fit in the file ({} bytes)",
                        self.map.len()
                    ),
                )
            })?;
        check_aligned(op, path, dtype, start)?;
        let storage = Mapped {
            map: MapBytes::ReadOnly(self.clone()),
            start,
            len,
            dtype,
        };
        debug_assert_eq!(storage.range().end, end);
        check_bools(op, path, storage.bools())?;
        Ok(Carrier::from_storage(storage))
    }
}

/// The map a storage reads: shared read-only, or writable and its own.
enum MapBytes {
    ReadOnly(SharedMap),
    Writable(MmapMut),
}

/// `len` elements of `dtype` from byte `start` of a map: the storage of a mapped carrier
/// (class `read-only map` or `writable map`).
struct Mapped {
    map: MapBytes,
    start: usize,
    len: usize,
    dtype: DType,
}

impl Mapped {
    fn range(&self) -> std::ops::Range<usize> {
        self.start..self.start + self.len * self.dtype.size_of()
    }

    /// The bytes of a `bool` map (for the 0/1 check); `None` for other dtypes.
    fn bools(&self) -> Option<&[u8]> {
        let bytes = match &self.map {
            MapBytes::ReadOnly(m) => m.bytes(),
            MapBytes::Writable(m) => &m[..],
        };
        (self.dtype == DType::Bool).then(|| &bytes[self.range()])
    }
}

impl CarrierStorage for Mapped {
    fn dtype(&self) -> DType {
        self.dtype
    }
    fn len(&self) -> usize {
        self.len
    }
    fn host(&self) -> Option<HostSlice<'_>> {
        let bytes = match &self.map {
            MapBytes::ReadOnly(m) => m.bytes(),
            MapBytes::Writable(m) => &m[..],
        };
        let bytes = bytes.get(self.range())?;
        with_plain!(self.dtype, T => cast::<T>(bytes).map(HostSlice::from), else None)
    }
    fn host_mut(&mut self) -> Option<HostSliceMut<'_>> {
        let range = self.range();
        let MapBytes::Writable(map) = &mut self.map else {
            return None;
        };
        let bytes = map.get_mut(range)?;
        with_plain!(self.dtype, T => cast_mut::<T>(bytes).map(HostSliceMut::from), else None)
    }
    fn class_name(&self) -> &'static str {
        match self.map {
            MapBytes::ReadOnly(_) => "read-only map",
            MapBytes::Writable(_) => "writable map",
        }
    }
}

/// `bytes` as elements of `T`, when `bytes` starts aligned for `T` and holds a whole number
/// of them; `None` otherwise.
#[allow(unsafe_code)]
fn cast<T: Element>(bytes: &[u8]) -> Option<&[T]> {
    let size = std::mem::size_of::<T>();
    if bytes.is_empty() {
        return Some(&[]);
    }
    if !(bytes.as_ptr() as usize).is_multiple_of(std::mem::align_of::<T>())
        || !bytes.len().is_multiple_of(size)
    {
        return None;
    }
    // SAFETY: the pointer is non-null (a non-empty slice), aligned for `T` (checked above) and
    // `bytes.len() / size` elements of `T` cover exactly the borrowed bytes, which stay
    // borrowed, unmutated through Rust, for the returned lifetime. `T` is one of the sealed
    // element types: the numbers and complex numbers (`#[repr(C)]` pairs) accept every bit
    // pattern, and a `bool` map is made only after `check_bools` saw that every byte is 0 or
    // 1 (the map's contract: no one else writes the file while it is mapped).
    Some(unsafe { std::slice::from_raw_parts(bytes.as_ptr().cast::<T>(), bytes.len() / size) })
}

/// `bytes` as mutable elements of `T`, under the conditions of [`cast`].
#[allow(unsafe_code)]
fn cast_mut<T: Element>(bytes: &mut [u8]) -> Option<&mut [T]> {
    let size = std::mem::size_of::<T>();
    if bytes.is_empty() {
        return Some(&mut []);
    }
    if !(bytes.as_ptr() as usize).is_multiple_of(std::mem::align_of::<T>())
        || !bytes.len().is_multiple_of(size)
    {
        return None;
    }
    // SAFETY: as in `cast`, and the bytes are borrowed exclusively for the returned lifetime;
    // every value written through the slice is a valid `T`, so a `bool` map keeps only the
    // bytes 0 and 1.
    Some(unsafe {
        std::slice::from_raw_parts_mut(bytes.as_mut_ptr().cast::<T>(), bytes.len() / size)
    })
}

fn aligned(base: *const u8, dtype: DType, start: usize) -> bool {
    let align = with_plain!(dtype, T => std::mem::align_of::<T>(), else 1);
    (base as usize).wrapping_add(start).is_multiple_of(align)
}

/// An element offset that is not a multiple of the dtype's alignment is an error. Maps start
/// on a page boundary, so the byte offset alone decides.
fn check_aligned(op: &'static str, path: &Path, dtype: DType, start: usize) -> Result<()> {
    let align = with_plain!(dtype, T => std::mem::align_of::<T>(), else 1);
    if start.is_multiple_of(align) {
        return Ok(());
    }
    Err(invalid(
        op,
        path,
        format!(
            "byte offset {start} is not a multiple of {align}, the alignment of {dtype}: the elements cannot be read in place"
        ),
    ))
}

/// Every byte of a `bool` map must be 0 or 1.
fn check_bools(op: &'static str, path: &Path, bytes: Option<&[u8]>) -> Result<()> {
    let Some(bytes) = bytes else { return Ok(()) };
    match bytes.iter().position(|&b| b > 1) {
        None => Ok(()),
        Some(i) => Err(invalid(
            op,
            path,
            format!("bool element {i} is the byte {}, not 0 or 1", bytes[i]),
        )),
    }
}

fn open(op: &'static str, path: &Path, writable: bool) -> Result<File> {
    OpenOptions::new()
        .read(true)
        .write(writable)
        .open(path)
        .map_err(|e| io_error(op, path, e))
}

fn file_len(op: &'static str, path: &Path, file: &File) -> Result<usize> {
    let meta = file.metadata().map_err(|e| io_error(op, path, e))?;
    if !meta.is_file() {
        return Err(invalid(op, path, "not a regular file".into()));
    }
    usize::try_from(meta.len()).map_err(|_| {
        invalid(
            op,
            path,
            format!(
                "{} bytes do not fit in this platform's address space",
                meta.len()
            ),
        )
    })
}

/// An operating-system error on `path`.
pub(crate) fn io_error(op: &'static str, path: &Path, e: std::io::Error) -> Error {
    Error::Io {
        op,
        path: path.display().to_string(),
        detail: e.to_string(),
    }
}

/// A file whose contents (or the request about them) are wrong.
pub(crate) fn invalid(op: &'static str, path: &Path, detail: String) -> Error {
    Error::InvalidFile {
        op,
        path: path.display().to_string(),
        detail,
    }
}
