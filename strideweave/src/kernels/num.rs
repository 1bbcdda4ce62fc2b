//! The element types arithmetic and gradients run on ([`Num`]), dense first-mode-fastest
//! value vectors of any of them ([`Dense`]), and the dtype dispatch between the two.

use std::ops::{Add, AddAssign, Div, Mul, Neg, Sub};

use crate::dtype::{Complex32, Complex64, DType, Element};

/// Values in first-mode-fastest (ordinal) order, one vector per differentiable dtype: the
/// form every cotangent takes while backward runs.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Dense {
    F32(Vec<f32>),
    F64(Vec<f64>),
    C64(Vec<Complex32>),
    C128(Vec<Complex64>),
    #[cfg(feature = "half")]
    F16(Vec<half::f16>),
    #[cfg(feature = "half")]
    BF16(Vec<half::bf16>),
    /// One value (a one-element vector variant) repeated `n` times: a stride-0 read, as
    /// `sum`'s backward gives, kept unexpanded until a consumer that needs a vector asks.
    Splat(Box<Dense>, usize),
}

/// A floating or complex element type: what arithmetic and gradients are defined on.
pub(crate) trait Num:
    Element
    + Add<Output = Self>
    + Sub<Output = Self>
    + Mul<Output = Self>
    + Div<Output = Self>
    + Neg<Output = Self>
    + AddAssign
{
    /// Whether [`conj`](Num::conj) is not the identity.
    const COMPLEX: bool = false;
    /// Whether [`gemm`](Num::gemm) has a kernel for this type.
    const GEMM: bool = false;
    /// `v` as this type (the real part of a complex type).
    fn from_f64(v: f64) -> Self;
    /// One.
    fn one() -> Self {
        Self::from_f64(1.0)
    }
    /// The complex conjugate (the identity for real types).
    fn conj(self) -> Self;
    /// `self · n` for a real count `n` (a complex value scales both parts; no `0 · ∞` of a
    /// complex product with `n + 0i`).
    fn times(self, n: f64) -> Self {
        self * Self::from_f64(n)
    }
    /// Wraps a vector.
    fn dense(v: Vec<Self>) -> Dense;
    /// The vector of a [`Dense`] of this type (`None`: another type), a splat expanded
    /// into a vector reserved fallibly (an error naming `op` when it cannot be allocated).
    fn undense(op: &'static str, d: Dense) -> crate::error::Result<Option<Vec<Self>>>;
    /// The vector of a rule's cotangent: the autograd engine hands every backward rule its
    /// result's cotangent in the result's dtype, which is `Self` inside the rule's
    /// `with_num!` arm. A splat is expanded fallibly (an error naming `op`).
    fn cotangent(op: &'static str, cot: Dense) -> crate::error::Result<Vec<Self>> {
        // unreachable from user input: the engine builds every cotangent in the result's
        // dtype, and the rule dispatches on that dtype.
        Ok(Self::undense(op, cot)?.expect("a cotangent has its result's dtype"))
    }
    /// A borrowed view of a vector [`Dense`] of this type (`None` for a splat: see
    /// [`undense_strided`](Num::undense_strided)).
    fn undense_ref(d: &Dense) -> Option<&[Self]>;
    /// `v` repeated `n` times, stored once ([`Dense::Splat`]).
    fn splat(v: Self, n: usize) -> Dense {
        Dense::Splat(Box::new(Self::dense(vec![v])), n)
    }
    /// The stored values of a [`Dense`] of this type and whether they are a splat (one value
    /// read through stride 0) rather than one value per ordinal.
    fn undense_strided(d: &Dense) -> Option<(&[Self], bool)> {
        match d {
            Dense::Splat(v, _) => Self::undense_ref(v).map(|v| (v, true)),
            d => Self::undense_ref(d).map(|v| (v, false)),
        }
    }
    /// `C ← A·B` through a BLAS-style kernel, when this type has one. `a`, `b` and `c` are
    /// `(slice, offset, row stride, column stride)`; every index they reach lies inside its
    /// slice, and `c`'s strides are injective. `false`: no kernel (`c` untouched).
    #[allow(clippy::type_complexity)]
    fn gemm(
        _dims: (usize, usize, usize),
        _a: (&[Self], i64, i64, i64),
        _b: (&[Self], i64, i64, i64),
        _c: (&mut [Self], i64, i64, i64),
    ) -> bool {
        false
    }
}

/// `Num`'s conversions between a value vector and [`Dense`] variant `$variant`, the same
/// for every element type.
macro_rules! dense_conversions {
    ($variant:ident) => {
        fn dense(v: Vec<Self>) -> Dense {
            Dense::$variant(v)
        }
        fn undense(op: &'static str, d: Dense) -> crate::error::Result<Option<Vec<Self>>> {
            match d {
                Dense::$variant(v) => Ok(Some(v)),
                Dense::Splat(v, n) => match Self::undense_ref(&v) {
                    Some(v) => crate::budget::filled_vec(op, v[0], n).map(Some),
                    None => Ok(None),
                },
                _ => Ok(None),
            }
        }
        fn undense_ref(d: &Dense) -> Option<&[Self]> {
            match d {
                Dense::$variant(v) => Some(v),
                _ => None,
            }
        }
    };
}

macro_rules! num_real {
    ($t:ty, $variant:ident) => {
        impl Num for $t {
            #[cfg(feature = "gemm")]
            const GEMM: bool = true;
            fn from_f64(v: f64) -> Self {
                v as $t
            }
            fn conj(self) -> Self {
                self
            }
            dense_conversions!($variant);
            #[cfg(feature = "gemm")]
            fn gemm(
                dims: (usize, usize, usize),
                a: (&[Self], i64, i64, i64),
                b: (&[Self], i64, i64, i64),
                c: (&mut [Self], i64, i64, i64),
            ) -> bool {
                crate::kernels::gemm::gemm(dims, a, b, c);
                true
            }
        }
    };
}

num_real!(f32, F32);
num_real!(f64, F64);

macro_rules! num_complex {
    ($t:ty, $re:ty, $variant:ident) => {
        impl Num for $t {
            const COMPLEX: bool = true;
            #[cfg(feature = "gemm")]
            const GEMM: bool = true;
            fn from_f64(v: f64) -> Self {
                <$t>::new(v as $re, 0.0)
            }
            fn conj(self) -> Self {
                <$t>::conj(&self)
            }
            fn times(self, n: f64) -> Self {
                <$t>::new(self.re * n as $re, self.im * n as $re)
            }
            dense_conversions!($variant);
            #[cfg(feature = "gemm")]
            fn gemm(
                dims: (usize, usize, usize),
                a: (&[Self], i64, i64, i64),
                b: (&[Self], i64, i64, i64),
                c: (&mut [Self], i64, i64, i64),
            ) -> bool {
                crate::kernels::gemm::gemm(dims, a, b, c);
                true
            }
        }
    };
}

num_complex!(Complex32, f32, C64);
num_complex!(Complex64, f64, C128);

#[cfg(feature = "half")]
macro_rules! num_half {
    ($t:ty, $variant:ident) => {
        impl Num for $t {
            fn from_f64(v: f64) -> Self {
                <$t>::from_f64(v)
            }
            fn conj(self) -> Self {
                self
            }
            dense_conversions!($variant);
        }
    };
}

#[cfg(feature = "half")]
num_half!(half::f16, F16);
#[cfg(feature = "half")]
num_half!(half::bf16, BF16);

/// Runs `$body` with the type alias `$T` bound to the type listed for `$dtype` (each
/// `Variant => type` pair an arm, with its attributes), or evaluates `$other` for a dtype
/// not listed: the one dispatch under `with_num!`, `with_real!` and `with_int!`.
macro_rules! dispatch {
    ($dtype:expr, $T:ident => $body:expr, _ => $other:expr;
     $($(#[$m:meta])* $v:ident => $t:ty),* $(,)?) => {
        match $dtype {
            $($(#[$m])* $crate::dtype::DType::$v => {
                type $T = $t;
                $body
            })*
            #[allow(unreachable_patterns)]
            _ => $other,
        }
    };
}
pub(crate) use dispatch;

/// Runs `$body` with the type alias `$T` bound to the [`Num`] type of `$dtype`, or evaluates
/// `$other` for a dtype that has none.
macro_rules! with_num {
    ($dtype:expr, $T:ident => $body:expr, _ => $other:expr) => {
        $crate::kernels::num::dispatch!($dtype, $T => $body, _ => $other;
            F32 => f32,
            F64 => f64,
            ComplexF32 => $crate::dtype::Complex32,
            ComplexF64 => $crate::dtype::Complex64,
            #[cfg(feature = "half")] F16 => half::f16,
            #[cfg(feature = "half")] BF16 => half::bf16,
        )
    };
}
pub(crate) use with_num;

/// Runs `$body` with `$T` bound to the real floating type of `$dtype` (those with an order
/// and gradients), or evaluates `$other`.
macro_rules! with_real {
    ($dtype:expr, $T:ident => $body:expr, _ => $other:expr) => {
        $crate::kernels::num::dispatch!($dtype, $T => $body, _ => $other;
            F32 => f32,
            F64 => f64,
            #[cfg(feature = "half")] F16 => half::f16,
            #[cfg(feature = "half")] BF16 => half::bf16,
        )
    };
}
pub(crate) use with_real;

impl Dense {
    /// The dtype of the values.
    pub(crate) fn dtype(&self) -> DType {
        match self {
            Dense::F32(_) => DType::F32,
            Dense::F64(_) => DType::F64,
            Dense::C64(_) => DType::ComplexF32,
            Dense::C128(_) => DType::ComplexF64,
            #[cfg(feature = "half")]
            Dense::F16(_) => DType::F16,
            #[cfg(feature = "half")]
            Dense::BF16(_) => DType::BF16,
            Dense::Splat(v, _) => v.dtype(),
        }
    }

    /// `self += other`, elementwise (same dtype and length, which backward guarantees).
    pub(crate) fn add_assign(&mut self, other: &Dense) {
        fn go<T: Num>(a: &mut [T], b: &Dense) {
            // unreachable from user input: `Cot::add` calls this only when both cotangents have the same dtype.
            match T::undense_strided(b).expect("cotangents of one tensor share its dtype") {
                (b, true) => a.iter_mut().for_each(|x| *x += b[0]),
                (b, false) => {
                    debug_assert_eq!(a.len(), b.len());
                    for (x, &y) in a.iter_mut().zip(b) {
                        *x += y;
                    }
                }
            }
        }
        match self {
            Dense::F32(v) => go(v, other),
            Dense::F64(v) => go(v, other),
            Dense::C64(v) => go(v, other),
            Dense::C128(v) => go(v, other),
            #[cfg(feature = "half")]
            Dense::F16(v) => go(v, other),
            #[cfg(feature = "half")]
            Dense::BF16(v) => go(v, other),
            // unreachable from user input: `Cot::add`, the one caller, adds into a vector
            // (`as_plain_mut` excludes splats).
            Dense::Splat(..) => unreachable!("add_assign into a splat"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Dense, Num};

    #[test]
    fn undense_of_an_unallocatable_splat_is_too_large() {
        // 2^62 f32 copies of one value: 2^64 bytes, beyond any allocator.
        let d = f32::splat(1.5, 1 << 62);
        let err = f32::undense("backward", d).unwrap_err();
        assert!(matches!(err, crate::Error::TooLarge { .. }), "{err:?}");
        assert!(
            err.to_string().starts_with("backward: cannot allocate"),
            "{err}"
        );
        let small = f32::undense("backward", f32::splat(1.5, 3)).unwrap();
        assert_eq!(small, Some(vec![1.5; 3]));
        assert_eq!(f64::undense("grad", Dense::F32(vec![1.0])).unwrap(), None);
    }
}
