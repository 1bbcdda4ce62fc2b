//! The integer and bool kernels of elementwise arithmetic: exact arithmetic that keeps the
//! operands' dtype and records nothing (these dtypes have no gradients).
//!
//! * integers (`i8`, `i32`, `i64`, `u8`): `add`, `sub`, `mul` and `neg` wrap as two's
//!   complement; `div` truncates toward zero (`MIN / -1` wraps to `MIN`), and a zero divisor
//!   is a [`DivisionByZero`](crate::Error::DivisionByZero) error naming its coordinate;
//! * bool: `add` is logical or, `mul` logical and (numpy's rules); nothing else.
//!
//! Callers have checked the operands, the destination and the dtype before calling.

use crate::dtype::{DType, Element, Scalar};
use crate::error::{Error, Result};
use crate::kernels::int::{Int, with_int};
use crate::kernels::strided::walk1;
use crate::layout::Shape;
use crate::ops::Dest;
use crate::ops::elementwise::{Binary, ScalarKind};
use crate::ops::zip_map::{map1, zip2};
use crate::tensor::Tensor;
use crate::tensor::read::read;

/// `a kind b` for integer or bool operands of one dtype and shape.
pub(super) fn binary(
    op: &'static str,
    kind: Binary,
    a: &Tensor,
    b: &Tensor,
    dest: Dest<'_>,
) -> Result<Option<Tensor>> {
    if a.dtype() == DType::Bool {
        let values = match kind {
            Binary::Add => zip2(op, a, b, dest, |x: bool, y| x | y)?,
            Binary::Mul => zip2(op, a, b, dest, |x: bool, y| x & y)?,
            Binary::Sub | Binary::Div => unreachable!("checked: bool has add and mul only"),
        };
        return fresh_values(values, a.shape());
    }
    with_int!(a.dtype(), T => {
        let values = match kind {
            Binary::Add => zip2(op, a, b, dest, |x: T, y| x.wadd(y))?,
            Binary::Sub => zip2(op, a, b, dest, |x: T, y| x.wsub(y))?,
            Binary::Mul => zip2(op, a, b, dest, |x: T, y| x.wmul(y))?,
            Binary::Div => {
                first_zero::<T>(op, b)?;
                // No zero divisor: `wdiv` answers every pair.
                zip2(op, a, b, dest, |x: T, y| x.wdiv(y).unwrap_or(T::zero()))?
            }
        };
        fresh_values(values, a.shape())
    }, _ => unreachable!("checked: an integer or bool dtype"))
}

/// The fresh tensor of the engine's values, or nothing once they were written into the
/// destination.
fn fresh_values<T: Element>(values: Option<Vec<T>>, shape: &Shape) -> Result<Option<Tensor>> {
    values.map(|v| Tensor::from_vec(v, shape)).transpose()
}

/// A [`DivisionByZero`](Error::DivisionByZero) at the first zero of `b` (first-mode-fastest),
/// found before anything is written.
fn first_zero<T: Int>(op: &'static str, b: &Tensor) -> Result<()> {
    let zero = read(b, op, |y: &[T], o, l| {
        let (mut k, mut first) = (0usize, None);
        walk1(l, o, |i| {
            if first.is_none() && y[i] == T::zero() {
                first = Some(k);
            }
            k += 1;
        });
        first
    })?;
    match zero {
        None => Ok(()),
        Some(k) => Err(Error::DivisionByZero {
            op,
            at: format!("coordinate {} (ordinal {k})", b.shape().coordinate(k)?),
        }),
    }
}

/// `t kind s` (or `-t`) for an integer or bool tensor; `s` has the tensor's dtype.
pub(super) fn scalar(
    op: &'static str,
    t: &Tensor,
    kind: ScalarKind,
    s: Option<Scalar>,
    dest: Dest<'_>,
) -> Result<Option<Tensor>> {
    if t.dtype() == DType::Bool {
        let s = s
            .and_then(bool::from_scalar)
            // Unreachable: check_operand_for admits bool for add/mul only, which always carry
            // a value, and cast_for already refused one that is not a bool.
            // unreachable from user input: check_operand_for admits bool for add/mul only, which carry a value that cast_for checked.
            .expect("checked: a bool operand");
        let values = match kind {
            ScalarKind::Add => map1(op, t, dest, |x: bool| x | s)?,
            ScalarKind::Mul => map1(op, t, dest, |x: bool| x & s)?,
            _ => unreachable!("checked: bool has add and mul only"),
        };
        return fresh_values(values, t.shape());
    }
    with_int!(t.dtype(), T => {
        // Unreachable: the caller ran Scalar::cast_for(t.dtype()), which refuses a value
        // that does not fit (NotCastable).
        // unreachable from user input: the caller ran Scalar::cast_for(t.dtype()), which refuses a value that does not fit.
        let s = s.map_or(T::zero(), |s| T::from_scalar(s).expect("cast to the tensor's dtype"));
        if matches!(kind, ScalarKind::Div) && s == T::zero() {
            return Err(Error::DivisionByZero { op, at: "the scalar operand".into() });
        }
        let values = match kind {
            ScalarKind::Neg => map1(op, t, dest, |x: T| x.wneg())?,
            ScalarKind::Add => map1(op, t, dest, |x: T| x.wadd(s))?,
            ScalarKind::Sub => map1(op, t, dest, |x: T| x.wsub(s))?,
            ScalarKind::Mul => map1(op, t, dest, |x: T| x.wmul(s))?,
            // A nonzero divisor (checked above): `wdiv` answers every element.
            ScalarKind::Div => map1(op, t, dest, |x: T| x.wdiv(s).unwrap_or(T::zero()))?,
        };
        fresh_values(values, t.shape())
    }, _ => unreachable!("checked: an integer or bool dtype"))
}
