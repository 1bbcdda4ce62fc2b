//! The pieces of the casting rule of [`Scalar::cast`] (documented there): a value read
//! exactly (integers as `i128`, floats as `f64`, which holds every narrower float exactly)
//! and the checked conversions to an integer and to each float.

use super::Scalar;

/// A non-bool scalar, exactly.
#[derive(Clone, Copy, Debug)]
pub(super) enum Value {
    /// Any integer dtype.
    Int(i128),
    /// Any real float dtype.
    Float(f64),
    /// A complex value: real and imaginary parts.
    Complex(f64, f64),
}

impl Value {
    /// `s` exactly; `None` for a bool (which converts to nothing else).
    pub(super) fn of(s: Scalar) -> Option<Value> {
        Some(match s {
            Scalar::Bool(_) => return None,
            Scalar::I32(v) => Value::Int(v.into()),
            Scalar::I64(v) => Value::Int(v.into()),
            Scalar::U8(v) => Value::Int(v.into()),
            Scalar::I8(v) => Value::Int(v.into()),
            Scalar::F32(v) => Value::Float(v.into()),
            Scalar::F64(v) => Value::Float(v),
            #[cfg(feature = "half")]
            Scalar::F16(v) => Value::Float(v.into()),
            #[cfg(feature = "half")]
            Scalar::BF16(v) => Value::Float(v.into()),
            Scalar::ComplexF32(v) => Value::Complex(v.re.into(), v.im.into()),
            Scalar::ComplexF64(v) => Value::Complex(v.re, v.im),
        })
    }

    /// The value as an integer: an integer as is, a float when finite and integral (range
    /// is the caller's `try_into`).
    pub(super) fn to_int(self) -> Option<i128> {
        match self {
            Value::Int(i) => Some(i),
            // |v| < 2^126 converts to i128 exactly; beyond, no target dtype holds it anyway
            Value::Float(v) if v.fract() == 0.0 && v.abs() < 2f64.powi(126) => Some(v as i128),
            _ => None,
        }
    }

    /// The value as a float of the target type through `narrow` (from `f64`): an integer only
    /// when the float holds it exactly, a float rounded by `narrow` (which refuses overflow).
    pub(super) fn to_float<F: Copy + Into<f64>>(self, narrow: fn(f64) -> Option<F>) -> Option<F> {
        match self {
            Value::Int(i) => {
                // i128 → f64 rounds to nearest; the integer converts when nothing was rounded
                // in either step (checked back in i128, which holds every i64-sized float).
                let f = narrow(i as f64)?;
                let back: f64 = f.into();
                (back.is_finite() && back.abs() < 2f64.powi(126) && back as i128 == i).then_some(f)
            }
            Value::Float(v) => narrow(v),
            Value::Complex(..) => None,
        }
    }
}

/// `v` rounded to the nearest `f32`; `None` when a finite `v` would become infinite.
pub(super) fn f32_of(v: f64) -> Option<f32> {
    let f = v as f32;
    (f.is_finite() || !v.is_finite()).then_some(f)
}

/// `v` rounded to the nearest `f16`; `None` when a finite `v` would become infinite.
#[cfg(feature = "half")]
pub(super) fn f16_of(v: f64) -> Option<half::f16> {
    let f = half::f16::from_f64(v);
    (f.is_finite() || !v.is_finite()).then_some(f)
}

/// `v` rounded to the nearest `bf16`; `None` when a finite `v` would become infinite.
#[cfg(feature = "half")]
pub(super) fn bf16_of(v: f64) -> Option<half::bf16> {
    let f = half::bf16::from_f64(v);
    (f.is_finite() || !v.is_finite()).then_some(f)
}
