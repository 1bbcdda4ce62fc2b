//! Host memory of one plain dtype: owned ([`HostBuffer`], what the host carrier class keeps)
//! and borrowed ([`HostSlice`], [`HostSliceMut`], what any storage class lends to readers
//! and writers).

use super::{DType, Element, HostVec, Scalar};
use crate::error::Result;
use num_complex::{Complex32, Complex64};

/// Host memory of one plain dtype, owned (large fresh buffers start on a cache line).
#[doc(hidden)]
#[derive(Clone, Debug)]
pub enum HostBuffer {
    F32(HostVec<f32>),
    F64(HostVec<f64>),
    I32(HostVec<i32>),
    I64(HostVec<i64>),
    U8(HostVec<u8>),
    I8(HostVec<i8>),
    Bool(HostVec<bool>),
    ComplexF32(HostVec<Complex32>),
    ComplexF64(HostVec<Complex64>),
    #[cfg(feature = "half")]
    F16(HostVec<half::f16>),
    #[cfg(feature = "half")]
    BF16(HostVec<half::bf16>),
}

/// The elements of a storage, borrowed for reading: a slice of one plain dtype in host
/// memory. A [`CarrierStorage`](crate::CarrierStorage) lends one from
/// [`host`](crate::CarrierStorage::host); build it from any `&[T]` of an [`Element`] type.
///
/// ```
/// use strideweave::{DType, HostSlice};
/// let data = [1.0f32, 2.0, 3.0];
/// let s = HostSlice::from(&data[..]);
/// assert_eq!((s.dtype(), s.len()), (DType::F32, 3));
/// assert!(matches!(s, HostSlice::F32(x) if x[2] == 3.0));
/// ```
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum HostSlice<'a> {
    /// `f32` elements.
    F32(&'a [f32]),
    /// `f64` elements.
    F64(&'a [f64]),
    /// `i32` elements.
    I32(&'a [i32]),
    /// `i64` elements.
    I64(&'a [i64]),
    /// `u8` elements.
    U8(&'a [u8]),
    /// `i8` elements.
    I8(&'a [i8]),
    /// `bool` elements.
    Bool(&'a [bool]),
    /// Complex elements of two `f32` (dtype `complex64`).
    ComplexF32(&'a [Complex32]),
    /// Complex elements of two `f64` (dtype `complex128`).
    ComplexF64(&'a [Complex64]),
    /// `f16` elements (feature `half`).
    #[cfg(feature = "half")]
    F16(&'a [half::f16]),
    /// `bf16` elements (feature `half`).
    #[cfg(feature = "half")]
    BF16(&'a [half::bf16]),
}

/// The elements of a storage, borrowed for writing: a mutable slice of one plain dtype in
/// host memory. A [`CarrierStorage`](crate::CarrierStorage) lends one from
/// [`host_mut`](crate::CarrierStorage::host_mut); build it from any `&mut [T]` of an
/// [`Element`] type.
///
/// ```
/// use strideweave::{DType, HostSliceMut};
/// let mut data = [1i8, 2];
/// let s = HostSliceMut::from(&mut data[..]);
/// assert_eq!((s.dtype(), s.len()), (DType::I8, 2));
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum HostSliceMut<'a> {
    /// `f32` elements.
    F32(&'a mut [f32]),
    /// `f64` elements.
    F64(&'a mut [f64]),
    /// `i32` elements.
    I32(&'a mut [i32]),
    /// `i64` elements.
    I64(&'a mut [i64]),
    /// `u8` elements.
    U8(&'a mut [u8]),
    /// `i8` elements.
    I8(&'a mut [i8]),
    /// `bool` elements.
    Bool(&'a mut [bool]),
    /// Complex elements of two `f32` (dtype `complex64`).
    ComplexF32(&'a mut [Complex32]),
    /// Complex elements of two `f64` (dtype `complex128`).
    ComplexF64(&'a mut [Complex64]),
    /// `f16` elements (feature `half`).
    #[cfg(feature = "half")]
    F16(&'a mut [half::f16]),
    /// `bf16` elements (feature `half`).
    #[cfg(feature = "half")]
    BF16(&'a mut [half::bf16]),
}

/// Evaluates `$e` with `$v` bound to the vector or slice inside any variant of `$ty`.
macro_rules! each_variant {
    ($ty:ident, $b:expr, $v:ident => $e:expr) => {
        match $b {
            $ty::F32($v) => $e,
            $ty::F64($v) => $e,
            $ty::I32($v) => $e,
            $ty::I64($v) => $e,
            $ty::U8($v) => $e,
            $ty::I8($v) => $e,
            $ty::Bool($v) => $e,
            $ty::ComplexF32($v) => $e,
            $ty::ComplexF64($v) => $e,
            #[cfg(feature = "half")]
            $ty::F16($v) => $e,
            #[cfg(feature = "half")]
            $ty::BF16($v) => $e,
        }
    };
}

impl HostBuffer {
    /// The elements, borrowed.
    pub(crate) fn as_slice(&self) -> HostSlice<'_> {
        each_variant!(HostBuffer, self, v => HostSlice::from(&v[..]))
    }

    /// The elements, borrowed mutably.
    pub(crate) fn as_slice_mut(&mut self) -> HostSliceMut<'_> {
        each_variant!(HostBuffer, self, v => HostSliceMut::from(&mut v[..]))
    }

    /// Moves the elements out when they are `T`s (leaving this buffer empty); `None` otherwise.
    #[cfg(feature = "ndarray")]
    pub(crate) fn take_vec<T: Element>(&mut self) -> Option<HostVec<T>> {
        each_variant!(HostBuffer, self, v => (v as &mut dyn std::any::Any)
            .downcast_mut::<HostVec<T>>()
            .map(HostVec::take))
    }

    /// `len` zeros of a plain dtype; `Ok(None)` for a dtype that is not plain, an error naming
    /// `op` when `len` elements cannot be allocated.
    pub(crate) fn zeros(op: &'static str, dtype: DType, len: usize) -> Result<Option<HostBuffer>> {
        Ok(Some(match dtype {
            DType::F32 => HostBuffer::F32(HostVec::zeroed(op, len)?),
            DType::F64 => HostBuffer::F64(HostVec::zeroed(op, len)?),
            DType::I32 => HostBuffer::I32(HostVec::zeroed(op, len)?),
            DType::I64 => HostBuffer::I64(HostVec::zeroed(op, len)?),
            DType::U8 => HostBuffer::U8(HostVec::zeroed(op, len)?),
            DType::I8 => HostBuffer::I8(HostVec::zeroed(op, len)?),
            DType::Bool => HostBuffer::Bool(HostVec::zeroed(op, len)?),
            DType::ComplexF32 => HostBuffer::ComplexF32(HostVec::zeroed(op, len)?),
            DType::ComplexF64 => HostBuffer::ComplexF64(HostVec::zeroed(op, len)?),
            #[cfg(feature = "half")]
            DType::F16 => HostBuffer::F16(HostVec::zeroed(op, len)?),
            #[cfg(feature = "half")]
            DType::BF16 => HostBuffer::BF16(HostVec::zeroed(op, len)?),
            DType::BlockScaledI8F32 => return Ok(None),
        }))
    }
}

fn element_dtype<T: Element>(_: &[T]) -> DType {
    T::DTYPE
}

/// `len`, `is_empty` and `dtype` of a borrowed form (`$r` borrows an array in the examples).
macro_rules! slice_queries {
    ($ty:ident, $r:literal) => {
        impl $ty<'_> {
            /// The number of elements.
            ///
            #[doc = concat!("```\nassert_eq!(strideweave::", stringify!($ty), "::from(", $r, "[0u8; 4][..]).len(), 4);\n```")]
            pub fn len(&self) -> usize {
                each_variant!($ty, self, v => v.len())
            }

            /// Whether there are no elements.
            ///
            #[doc = concat!("```\nassert!(strideweave::", stringify!($ty), "::from(", $r, "[0u8; 0][..]).is_empty());\n```")]
            pub fn is_empty(&self) -> bool {
                self.len() == 0
            }

            /// The dtype of the elements.
            ///
            #[doc = concat!("```\nuse strideweave::{DType, ", stringify!($ty), "};\nassert_eq!(", stringify!($ty), "::from(", $r, "[true][..]).dtype(), DType::Bool);\n```")]
            pub fn dtype(&self) -> DType {
                each_variant!($ty, self, v => element_dtype(v))
            }
        }
    };
}

slice_queries!(HostSlice, "&");
slice_queries!(HostSliceMut, "&mut ");

impl HostSlice<'_> {
    /// Element `i` (in bounds).
    pub(crate) fn get(&self, i: usize) -> Scalar {
        each_variant!(HostSlice, self, v => v[i].to_scalar())
    }
}

impl HostSliceMut<'_> {
    /// Sets element `i` (in bounds) to `s`; `false` when `s` is not of this dtype.
    pub(crate) fn set(&mut self, i: usize, s: Scalar) -> bool {
        each_variant!(HostSliceMut, self, v => match Element::from_scalar(s) {
            Some(x) => {
                v[i] = x;
                true
            }
            None => false,
        })
    }
}

impl<'a, T: Element> From<&'a [T]> for HostSlice<'a> {
    fn from(v: &'a [T]) -> HostSlice<'a> {
        T::lend(v)
    }
}

impl<'a, T: Element> From<&'a mut [T]> for HostSliceMut<'a> {
    fn from(v: &'a mut [T]) -> HostSliceMut<'a> {
        T::lend_mut(v)
    }
}
