//! Element types: the logical [`DType`] of a tensor, its storage schema, the [`Element`]
//! trait of Rust types that carriers hold, [`Scalar`], one value of any dtype, and host
//! memory of one plain dtype ([`HostSlice`], [`HostSliceMut`]).

mod cast;
mod host;
mod host_vec;
mod promote;
mod zeroed;

use std::fmt;

#[doc(hidden)]
pub use host::HostBuffer;
pub use host::{HostSlice, HostSliceMut};
#[doc(hidden)]
pub use host_vec::HostVec;
/// A complex of two `f32` (num-complex's name, by the width of a part): the element type
/// of [`DType::ComplexF32`], which numpy calls `complex64`.
pub use num_complex::Complex32;
/// A complex of two `f64`: the element type of [`DType::ComplexF64`], numpy's `complex128`
/// (not numpy's `complex64`, which is [`Complex32`]).
pub use num_complex::Complex64;

/// The logical dtype of a tensor: the type of the values it presents. A plain dtype is
/// stored as itself; a block-scaled dtype is stored in several subtensors, listed by its
/// [`storage_schema`](DType::storage_schema).
///
/// ```
/// use strideweave::DType;
/// assert_eq!(DType::F32.storage_schema(), &[DType::F32]);
/// assert_eq!(DType::BlockScaledI8F32.storage_schema(), &[DType::I8, DType::F32]);
/// assert!(DType::F64.is_differentiable() && !DType::I32.is_differentiable());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum DType {
    /// `f32`.
    F32,
    /// `f64`.
    F64,
    /// `i32`.
    I32,
    /// `i64`.
    I64,
    /// `u8`.
    U8,
    /// `i8`.
    I8,
    /// `bool`.
    Bool,
    /// A complex of two `f32`, held as [`Complex32`]; numpy calls it `complex64` (its total
    /// width) and so does its [`Display`](fmt::Display). Named after its parts, like `F32`,
    /// so that the variant and the Rust type it holds never disagree.
    ///
    /// ```
    /// use strideweave::{Complex32, DType, Element};
    /// assert_eq!(<Complex32 as Element>::DTYPE, DType::ComplexF32);
    /// assert_eq!((DType::ComplexF32.size_of(), DType::ComplexF32.to_string()), (8, "complex64".into()));
    /// ```
    ComplexF32,
    /// A complex of two `f64`, held as [`Complex64`]; numpy's `complex128`.
    ///
    /// ```
    /// use strideweave::{Complex64, DType, Element};
    /// assert_eq!(<Complex64 as Element>::DTYPE, DType::ComplexF64);
    /// assert_eq!(DType::ComplexF64.to_string(), "complex128");
    /// ```
    ComplexF64,
    /// IEEE half precision (feature `half`).
    #[cfg(feature = "half")]
    F16,
    /// bfloat16 (feature `half`).
    #[cfg(feature = "half")]
    BF16,
    /// Block-scaled 8-bit integers: subtensor 0 holds `i8` codes, subtensor 1 holds one `f32`
    /// scale per block, the adjacent layout sends each element to its scale, and the value of
    /// an element is `code × scale`.
    BlockScaledI8F32,
}

impl DType {
    /// The storage dtypes of the subtensors, in order: a tensor of this dtype has exactly one
    /// subtensor per entry, whose carrier holds that entry's dtype.
    ///
    /// ```
    /// assert_eq!(strideweave::DType::I8.storage_schema().len(), 1);
    /// ```
    pub fn storage_schema(&self) -> &'static [DType] {
        match self {
            DType::F32 => &[DType::F32],
            DType::F64 => &[DType::F64],
            DType::I32 => &[DType::I32],
            DType::I64 => &[DType::I64],
            DType::U8 => &[DType::U8],
            DType::I8 => &[DType::I8],
            DType::Bool => &[DType::Bool],
            DType::ComplexF32 => &[DType::ComplexF32],
            DType::ComplexF64 => &[DType::ComplexF64],
            #[cfg(feature = "half")]
            DType::F16 => &[DType::F16],
            #[cfg(feature = "half")]
            DType::BF16 => &[DType::BF16],
            DType::BlockScaledI8F32 => &[DType::I8, DType::F32],
        }
    }

    /// Whether gradients flow through tensors of this dtype: the floating and complex
    /// dtypes, which every arithmetic operation takes.
    ///
    /// ```
    /// assert!(strideweave::DType::ComplexF32.is_differentiable());
    /// ```
    pub const fn is_differentiable(&self) -> bool {
        self.is_float() || self.is_complex()
    }

    /// Whether this is an integer dtype (`i8`, `u8`, `i32`, `i64`): its arithmetic wraps as
    /// two's complement, its division truncates, and it has no gradients and no mean.
    ///
    /// ```
    /// use strideweave::DType;
    /// assert!(DType::U8.is_integer() && !DType::Bool.is_integer() && !DType::F32.is_integer());
    /// ```
    pub const fn is_integer(&self) -> bool {
        matches!(self, DType::I8 | DType::U8 | DType::I32 | DType::I64)
    }

    /// Whether this is a real floating dtype (`f32`, `f64`, and `f16`, `bf16` with feature
    /// `half`). A block-scaled dtype is none of integer, floating or complex: it is
    /// dequantized first.
    ///
    /// ```
    /// use strideweave::DType;
    /// assert!(DType::F64.is_float() && !DType::ComplexF64.is_float() && !DType::I32.is_float());
    /// ```
    pub const fn is_float(&self) -> bool {
        match self {
            DType::F32 | DType::F64 => true,
            #[cfg(feature = "half")]
            DType::F16 | DType::BF16 => true,
            _ => false,
        }
    }

    /// Whether this is a complex dtype (`complex64`, `complex128`): no order, so no `max` or
    /// `min`.
    ///
    /// ```
    /// use strideweave::DType;
    /// assert!(DType::ComplexF32.is_complex() && !DType::F32.is_complex());
    /// ```
    pub const fn is_complex(&self) -> bool {
        matches!(self, DType::ComplexF32 | DType::ComplexF64)
    }

    /// Whether this dtype is stored as itself in one subtensor.
    ///
    /// ```
    /// assert!(!strideweave::DType::BlockScaledI8F32.is_plain());
    /// ```
    pub fn is_plain(&self) -> bool {
        self.storage_schema().len() == 1 && self.storage_schema()[0] == *self
    }

    /// The size of one element in bytes (plain dtypes).
    ///
    /// ```
    /// assert_eq!(strideweave::DType::ComplexF64.size_of(), 16);
    /// ```
    pub fn size_of(&self) -> usize {
        match self {
            DType::F32 | DType::I32 => 4,
            DType::F64 | DType::I64 | DType::ComplexF32 => 8,
            DType::U8 | DType::I8 | DType::Bool => 1,
            DType::ComplexF64 => 16,
            #[cfg(feature = "half")]
            DType::F16 | DType::BF16 => 2,
            DType::BlockScaledI8F32 => 1,
        }
    }
}

impl fmt::Display for DType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl DType {
    /// The name `Display` writes, in const context (compile-time messages name dtypes).
    pub(crate) const fn name(&self) -> &'static str {
        match self {
            DType::F32 => "f32",
            DType::F64 => "f64",
            DType::I32 => "i32",
            DType::I64 => "i64",
            DType::U8 => "u8",
            DType::I8 => "i8",
            DType::Bool => "bool",
            DType::ComplexF32 => "complex64",
            DType::ComplexF64 => "complex128",
            #[cfg(feature = "half")]
            DType::F16 => "f16",
            #[cfg(feature = "half")]
            DType::BF16 => "bf16",
            DType::BlockScaledI8F32 => "block-scaled i8×f32",
        }
    }
}

/// One value of any plain dtype: what an all-integer index returns.
///
/// ```
/// use strideweave::Scalar;
/// let s = Scalar::F32(1.5);
/// assert_eq!(f64::from(s), 1.5);
/// assert_eq!(s.to_string(), "1.5");
/// assert_eq!(f64::from(Scalar::Bool(true)), 1.0);
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub enum Scalar {
    /// An `f32`.
    F32(f32),
    /// An `f64`.
    F64(f64),
    /// An `i32`.
    I32(i32),
    /// An `i64`.
    I64(i64),
    /// A `u8`.
    U8(u8),
    /// An `i8`.
    I8(i8),
    /// A `bool`.
    Bool(bool),
    /// A complex of two `f32` ([`DType::ComplexF32`], numpy's `complex64`).
    ComplexF32(Complex32),
    /// A complex of two `f64` ([`DType::ComplexF64`], numpy's `complex128`).
    ComplexF64(Complex64),
    /// An `f16` (feature `half`).
    #[cfg(feature = "half")]
    F16(half::f16),
    /// A `bf16` (feature `half`).
    #[cfg(feature = "half")]
    BF16(half::bf16),
}

impl Scalar {
    /// The dtype of this value.
    ///
    /// ```
    /// assert_eq!(strideweave::Scalar::I8(3).dtype(), strideweave::DType::I8);
    /// ```
    pub fn dtype(&self) -> DType {
        match self {
            Scalar::F32(_) => DType::F32,
            Scalar::F64(_) => DType::F64,
            Scalar::I32(_) => DType::I32,
            Scalar::I64(_) => DType::I64,
            Scalar::U8(_) => DType::U8,
            Scalar::I8(_) => DType::I8,
            Scalar::Bool(_) => DType::Bool,
            Scalar::ComplexF32(_) => DType::ComplexF32,
            Scalar::ComplexF64(_) => DType::ComplexF64,
            #[cfg(feature = "half")]
            Scalar::F16(_) => DType::F16,
            #[cfg(feature = "half")]
            Scalar::BF16(_) => DType::BF16,
        }
    }

    /// The value as `f64` (the real part of a complex value, 1 or 0 for a bool).
    ///
    /// ```
    /// assert_eq!(strideweave::Scalar::I64(-4).to_f64(), -4.0);
    /// ```
    pub fn to_f64(&self) -> f64 {
        match *self {
            Scalar::F32(v) => v as f64,
            Scalar::F64(v) => v,
            Scalar::I32(v) => v as f64,
            Scalar::I64(v) => v as f64,
            Scalar::U8(v) => v as f64,
            Scalar::I8(v) => v as f64,
            Scalar::Bool(v) => f64::from(u8::from(v)),
            Scalar::ComplexF32(v) => v.re as f64,
            Scalar::ComplexF64(v) => v.re,
            #[cfg(feature = "half")]
            Scalar::F16(v) => v.to_f64(),
            #[cfg(feature = "half")]
            Scalar::BF16(v) => v.to_f64(),
        }
    }
}

impl Scalar {
    /// This value as `dtype`, under the one casting rule of StrideWeave (used by
    /// [`Tensor::set`](crate::Tensor::set), [`set_ordinal`](crate::Tensor::set_ordinal),
    /// [`fill`](crate::Tensor::fill) and the scalar arithmetic such as
    /// [`add_scalar`](crate::Tensor::add_scalar), which report `None` as
    /// [`Error::NotCastable`](crate::Error::NotCastable) naming the value and the dtype).
    /// A value converts when it is representable in `dtype`:
    ///
    /// - **integer → integer**: when in range (exactly, never through `f64`);
    /// - **float → integer**: when finite, integral and in range (`2.5`, `2^63` for `i64`,
    ///   `inf` and `nan` are refused);
    /// - **integer → float**: only when exactly representable: `16777217` is refused for `f32`
    ///   (it would round to `16777216`), `2^53 + 1` for `f64`, `2049` for `f16`;
    /// - **float → float**: a wider float is exact; a narrower one rounds to nearest but never
    ///   overflows: a finite value beyond the target's range (`1e300` for `f32`) is refused,
    ///   while `inf`, `-inf` and `nan` stay themselves;
    /// - **real → complex**: the real part by the rules above, imaginary part zero;
    ///   **complex → complex**: each part by the float rule; **complex → real**: only when the
    ///   imaginary part is zero, then the real part by the rules above;
    /// - **bool**: a bool converts only to `bool`, and only a bool converts to `bool` (no
    ///   number is silently a truth value, nor a truth value a number);
    /// - the same dtype is always itself; nothing converts to the block-scaled dtype.
    ///
    /// ```
    /// use strideweave::{DType, Scalar};
    /// assert_eq!(Scalar::F64(3.0).cast(DType::I8), Some(Scalar::I8(3)));
    /// assert_eq!(Scalar::F64(3.5).cast(DType::I8), None);
    /// assert_eq!(Scalar::I64(300).cast(DType::U8), None);
    /// assert_eq!(Scalar::F64(0.1).cast(DType::F32), Some(Scalar::F32(0.1)));
    /// assert_eq!(Scalar::F64(1e300).cast(DType::F32), None);
    /// assert_eq!(Scalar::I64(16_777_217).cast(DType::F32), None);
    /// assert_eq!(Scalar::F64(9_223_372_036_854_775_808.0).cast(DType::I64), None);
    /// assert_eq!(Scalar::Bool(true).cast(DType::I32), None);
    /// ```
    pub fn cast(self, dtype: DType) -> Option<Scalar> {
        if self.dtype() == dtype {
            return Some(self);
        }
        let (re, im) = match cast::Value::of(self)? {
            cast::Value::Complex(re, im) => (cast::Value::Float(re), im),
            real => (real, 0.0),
        };
        match dtype {
            DType::ComplexF32 => Some(Scalar::ComplexF32(Complex32::new(
                re.to_float(cast::f32_of)?,
                cast::f32_of(im)?,
            ))),
            DType::ComplexF64 => Some(Scalar::ComplexF64(Complex64::new(re.to_float(Some)?, im))),
            // a nan imaginary part is not zero either
            _ if im != 0.0 => None,
            DType::F32 => re.to_float(cast::f32_of).map(Scalar::F32),
            DType::F64 => re.to_float(Some).map(Scalar::F64),
            #[cfg(feature = "half")]
            DType::F16 => re.to_float(cast::f16_of).map(Scalar::F16),
            #[cfg(feature = "half")]
            DType::BF16 => re.to_float(cast::bf16_of).map(Scalar::BF16),
            DType::I32 => re.to_int().and_then(|i| i.try_into().ok()).map(Scalar::I32),
            DType::I64 => re.to_int().and_then(|i| i.try_into().ok()).map(Scalar::I64),
            DType::U8 => re.to_int().and_then(|i| i.try_into().ok()).map(Scalar::U8),
            DType::I8 => re.to_int().and_then(|i| i.try_into().ok()).map(Scalar::I8),
            DType::Bool | DType::BlockScaledI8F32 => None,
        }
    }

    /// [`cast`](Self::cast) for an operation that needs the value as `dtype`: a value that
    /// does not convert (out of range, a fraction for an integer dtype, …) is a `Value`
    /// error naming it and the dtype.
    pub(crate) fn cast_for(self, op: &'static str, dtype: DType) -> crate::error::Result<Scalar> {
        self.cast(dtype)
            .ok_or_else(|| crate::error::Error::NotCastable {
                op,
                value: format!("{} ({})", self.short(), self.dtype()),
                dtype: dtype.to_string(),
            })
    }
}

impl Scalar {
    /// The value for a message: floats in their shortest form (`1e300`, not 301 digits).
    fn short(self) -> String {
        match self {
            Scalar::F32(v) => format!("{v:?}"),
            Scalar::F64(v) => format!("{v:?}"),
            s => s.to_string(),
        }
    }
}

impl From<Scalar> for f64 {
    fn from(s: Scalar) -> f64 {
        s.to_f64()
    }
}

impl From<f64> for Scalar {
    fn from(v: f64) -> Scalar {
        Scalar::F64(v)
    }
}

impl From<f32> for Scalar {
    fn from(v: f32) -> Scalar {
        Scalar::F32(v)
    }
}

impl From<i64> for Scalar {
    fn from(v: i64) -> Scalar {
        Scalar::I64(v)
    }
}

impl From<i32> for Scalar {
    fn from(v: i32) -> Scalar {
        Scalar::I32(v)
    }
}

impl fmt::Display for Scalar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scalar::F32(v) => write!(f, "{v}"),
            Scalar::F64(v) => write!(f, "{v}"),
            Scalar::I32(v) => write!(f, "{v}"),
            Scalar::I64(v) => write!(f, "{v}"),
            Scalar::U8(v) => write!(f, "{v}"),
            Scalar::I8(v) => write!(f, "{v}"),
            Scalar::Bool(v) => write!(f, "{v}"),
            Scalar::ComplexF32(v) => write!(f, "{v}"),
            Scalar::ComplexF64(v) => write!(f, "{v}"),
            #[cfg(feature = "half")]
            Scalar::F16(v) => write!(f, "{v}"),
            #[cfg(feature = "half")]
            Scalar::BF16(v) => write!(f, "{v}"),
        }
    }
}

/// A Rust type that a carrier can hold: one per plain dtype.
///
/// ```
/// use strideweave::{DType, Element};
/// assert_eq!(<f32 as Element>::DTYPE, DType::F32);
/// assert_eq!(f64::from_ordinal(3), 3.0);
/// ```
pub trait Element: Copy + Send + Sync + fmt::Debug + PartialEq + 'static + sealed::Sealed {
    /// The dtype of this type.
    const DTYPE: DType;
    /// Zero. For every element type its bytes are all zero, so buffers of zeros come from
    /// zeroed allocations.
    fn zero() -> Self;
    /// The value `i` (for `arange`); wraps or saturates like `as` for narrow types.
    fn from_ordinal(i: usize) -> Self;
    /// This value as a [`Scalar`].
    fn to_scalar(self) -> Scalar;
    /// The value of a [`Scalar`] of exactly this dtype.
    fn from_scalar(s: Scalar) -> Option<Self>;
    #[doc(hidden)]
    fn wrap(v: HostVec<Self>) -> HostBuffer;
    #[doc(hidden)]
    fn slice<'a>(b: HostSlice<'a>) -> Option<&'a [Self]>;
    #[doc(hidden)]
    fn slice_mut<'a>(b: HostSliceMut<'a>) -> Option<&'a mut [Self]>;
    #[doc(hidden)]
    fn lend(v: &[Self]) -> HostSlice<'_>;
    #[doc(hidden)]
    fn lend_mut(v: &mut [Self]) -> HostSliceMut<'_>;
}

mod sealed {
    pub trait Sealed {}
}

// `$gate`: a `#[cfg(feature = …)]` carried onto the impls themselves (not the invocation), so
// rustdoc's doc_cfg badges the implementation on docs.rs.
macro_rules! element {
    ($(#[$gate:meta])* $t:ty, $variant:ident, $zero:expr, $ord:expr) => {
        $(#[$gate])*
        impl sealed::Sealed for $t {}
        $(#[$gate])*
        impl Element for $t {
            const DTYPE: DType = DType::$variant;
            fn zero() -> Self {
                $zero
            }
            fn from_ordinal(i: usize) -> Self {
                $ord(i)
            }
            fn to_scalar(self) -> Scalar {
                Scalar::$variant(self)
            }
            fn from_scalar(s: Scalar) -> Option<Self> {
                match s {
                    Scalar::$variant(v) => Some(v),
                    _ => None,
                }
            }
            fn wrap(v: HostVec<Self>) -> HostBuffer {
                HostBuffer::$variant(v)
            }
            fn slice<'a>(b: HostSlice<'a>) -> Option<&'a [Self]> {
                match b {
                    HostSlice::$variant(v) => Some(v),
                    _ => None,
                }
            }
            fn slice_mut<'a>(b: HostSliceMut<'a>) -> Option<&'a mut [Self]> {
                match b {
                    HostSliceMut::$variant(v) => Some(v),
                    _ => None,
                }
            }
            fn lend(v: &[Self]) -> HostSlice<'_> {
                HostSlice::$variant(v)
            }
            fn lend_mut(v: &mut [Self]) -> HostSliceMut<'_> {
                HostSliceMut::$variant(v)
            }
        }
    };
}

element!(f32, F32, 0.0, |i| i as f32);
element!(f64, F64, 0.0, |i| i as f64);
element!(i32, I32, 0, |i| i as i32);
element!(i64, I64, 0, |i| i as i64);
element!(u8, U8, 0, |i| i as u8);
element!(i8, I8, 0, |i| i as i8);
element!(bool, Bool, false, |i| i % 2 == 1);
element!(Complex32, ComplexF32, Complex32::new(0.0, 0.0), |i| {
    Complex32::new(i as f32, 0.0)
});
element!(Complex64, ComplexF64, Complex64::new(0.0, 0.0), |i| {
    Complex64::new(i as f64, 0.0)
});
element!(
    #[cfg(feature = "half")]
    half::f16,
    F16,
    half::f16::ZERO,
    |i| half::f16::from_f64(i as f64)
);
element!(
    #[cfg(feature = "half")]
    half::bf16,
    BF16,
    half::bf16::ZERO,
    |i| half::bf16::from_f64(i as f64)
);

#[cfg(all(test, feature = "half"))]
mod half_tests {
    use crate::{DType, Scalar, Tensor};

    #[test]
    fn f16_and_bf16_tensors_hold_and_view_values() {
        let v: Vec<half::f16> = (0..6).map(|i| half::f16::from_f64(i as f64)).collect();
        let t = Tensor::from_vec(v, &"(2,3)".parse().unwrap()).unwrap();
        assert_eq!(t.dtype(), DType::F16);
        let p = t.permute(&[1, 0]).unwrap();
        assert_eq!(p.get_ordinal(1).unwrap().to_f64(), 2.0);
        let b = Tensor::zeros::<half::bf16>(&"3".parse().unwrap());
        b.set_ordinal(2, 1.5).unwrap();
        assert_eq!(
            b.get_ordinal(2).unwrap(),
            Scalar::BF16(half::bf16::from_f64(1.5))
        );
        assert!(DType::BF16.is_differentiable());
    }

    #[test]
    fn half_casts_refuse_overflow_and_inexact_integers() {
        use half::{bf16, f16};
        assert_eq!(Scalar::F64(1e6).cast(DType::F16), None);
        assert_eq!(Scalar::F64(1e300).cast(DType::BF16), None);
        assert_eq!(
            Scalar::F64(0.1).cast(DType::F16),
            Some(Scalar::F16(f16::from_f64(0.1)))
        );
        assert_eq!(
            Scalar::F32(f32::INFINITY).cast(DType::BF16),
            Some(Scalar::BF16(bf16::INFINITY))
        );
        assert_eq!(Scalar::I64(2049).cast(DType::F16), None);
        assert_eq!(
            Scalar::I64(2048).cast(DType::F16),
            Some(Scalar::F16(f16::from_f64(2048.0)))
        );
        assert_eq!(Scalar::I32(257).cast(DType::BF16), None);
        assert_eq!(
            Scalar::F16(f16::from_f64(3.0)).cast(DType::I8),
            Some(Scalar::I8(3))
        );
        assert_eq!(
            Scalar::F16(f16::from_f64(0.5)).cast(DType::F64),
            Some(Scalar::F64(0.5))
        );
    }
}

/// Evaluates `$body` with the type alias `$t` naming the Rust element type of the plain dtype
/// `$dtype`; `$other` for a dtype that is not plain.
macro_rules! with_plain {
    ($dtype:expr, $t:ident => $body:expr, else $other:expr) => {
        match $dtype {
            $crate::DType::F32 => {
                type $t = f32;
                $body
            }
            $crate::DType::F64 => {
                type $t = f64;
                $body
            }
            $crate::DType::I32 => {
                type $t = i32;
                $body
            }
            $crate::DType::I64 => {
                type $t = i64;
                $body
            }
            $crate::DType::U8 => {
                type $t = u8;
                $body
            }
            $crate::DType::I8 => {
                type $t = i8;
                $body
            }
            $crate::DType::Bool => {
                type $t = bool;
                $body
            }
            $crate::DType::ComplexF32 => {
                type $t = $crate::Complex32;
                $body
            }
            $crate::DType::ComplexF64 => {
                type $t = $crate::Complex64;
                $body
            }
            #[cfg(feature = "half")]
            $crate::DType::F16 => {
                type $t = half::f16;
                $body
            }
            #[cfg(feature = "half")]
            $crate::DType::BF16 => {
                type $t = half::bf16;
                $body
            }
            $crate::DType::BlockScaledI8F32 => $other,
        }
    };
}
pub(crate) use with_plain;
pub(crate) use zeroed::zeroed_vec;
