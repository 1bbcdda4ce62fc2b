//! The element functions of `Tensor::exp`, `Tensor::softmax`, …: [`Math`] on every
//! floating and complex type, computed in [`Math::Wide`] (f32 for f16 and bf16, the type
//! itself otherwise), and [`Real`], the ordered ones.

use crate::dtype::{Complex32, Complex64};
use crate::kernels::num::Num;

/// A floating or complex element type with the analytic functions, computed in its wide
/// type: `narrow(f(widen(x)))`.
pub(crate) trait Math: Num {
    /// The type the functions are computed in.
    type Wide: Wide;
    /// Whether [`Wide`](Math::Wide) is the type itself (no conversion on the way).
    const NATIVE: bool = true;
    fn widen(self) -> Self::Wide;
    fn narrow(w: Self::Wide) -> Self;
}

/// The types functions are computed in: f32, f64 and the complex types.
pub(crate) trait Wide: Math<Wide = Self> {
    fn exp(self) -> Self;
    fn ln(self) -> Self;
    fn sqrt(self) -> Self;
    fn sin(self) -> Self;
    fn cos(self) -> Self;
    fn tanh(self) -> Self;
    fn powf(self, p: f64) -> Self;
    /// `self^p` for an exponent of the same type.
    fn pow(self, p: Self) -> Self;
}

/// The ordered (real) floating types: f32, f64, f16, bf16.
pub(crate) trait Real: Math<Wide: RealWide> + PartialOrd {}

/// The ordered wide types, f32 and f64.
pub(crate) trait RealWide: Wide + PartialOrd {
    fn to_f64(self) -> f64;
    fn is_nan(self) -> bool;
}

/// `Math` and `Wide` of a type computed as itself: f32, f64 and the complex types (`$re` the
/// type of a real exponent, `$pow` the method of a same-type one).
macro_rules! native {
    ($t:ty, $re:ty, $pow:ident) => {
        impl Math for $t {
            type Wide = $t;
            fn widen(self) -> $t {
                self
            }
            fn narrow(w: $t) -> $t {
                w
            }
        }
        impl Wide for $t {
            fn exp(self) -> $t {
                <$t>::exp(self)
            }
            fn ln(self) -> $t {
                <$t>::ln(self)
            }
            fn sqrt(self) -> $t {
                <$t>::sqrt(self)
            }
            fn sin(self) -> $t {
                <$t>::sin(self)
            }
            fn cos(self) -> $t {
                <$t>::cos(self)
            }
            fn tanh(self) -> $t {
                <$t>::tanh(self)
            }
            fn powf(self, p: f64) -> $t {
                <$t>::powf(self, p as $re)
            }
            fn pow(self, p: $t) -> $t {
                <$t>::$pow(self, p)
            }
        }
    };
}

native!(f32, f32, powf);
native!(f64, f64, powf);
native!(Complex32, f32, powc);
native!(Complex64, f64, powc);

macro_rules! real {
    ($t:ty) => {
        impl RealWide for $t {
            fn to_f64(self) -> f64 {
                self as f64
            }
            fn is_nan(self) -> bool {
                <$t>::is_nan(self)
            }
        }
        impl Real for $t {}
    };
}

real!(f32);
real!(f64);

#[cfg(feature = "half")]
macro_rules! half_float {
    ($t:ty) => {
        impl Math for $t {
            type Wide = f32;
            const NATIVE: bool = false;
            fn widen(self) -> f32 {
                self.to_f32()
            }
            fn narrow(w: f32) -> $t {
                <$t>::from_f32(w)
            }
        }
        impl Real for $t {}
    };
}

#[cfg(feature = "half")]
half_float!(half::f16);
#[cfg(feature = "half")]
half_float!(half::bf16);
