//! The integer and bool kernels of elementwise arithmetic and sums: exact arithmetic that
//! keeps the operands' dtype and records nothing (these dtypes have no gradients).
//!
//! * integers (`i8`, `i32`, `i64`, `u8`): `add`, `sub`, `mul`, `neg` and `sum` wrap as two's
//!   complement; `div` truncates toward zero (`MIN / -1` wraps to `MIN`), and a zero divisor
//!   is a [`DivisionByZero`](crate::Error::DivisionByZero) error naming its coordinate;
//! * bool: `add` is logical or, `mul` logical and (numpy's rules); nothing else.
//!
//! Callers have checked the operands, the destination and the dtype before calling.

use crate::dtype::{DType, Element, Scalar};
use crate::error::{Error, Result};
use crate::kernels::int::{Int, with_int};
use crate::kernels::strided::{walk1, walk2};
use crate::layout::{Layout, Shape};
use crate::ops::elementwise::{Binary, ScalarKind};
use crate::ops::{Dest, deliver};
use crate::tensor::Tensor;
use crate::tensor::read::{read, read2};

/// `a kind b` for integer or bool operands of one dtype and shape.
pub(super) fn binary(
    op: &'static str,
    kind: Binary,
    a: &Tensor,
    b: &Tensor,
    dest: Dest<'_>,
) -> Result<Option<Tensor>> {
    if a.dtype() == DType::Bool {
        let f = bool_op(kind);
        return deliver(op, dest, zip(op, a, b, |x, y| Some(f(x, y)))?, a.shape());
    }
    with_int!(a.dtype(), T => {
        let values = zip::<T>(op, a, b, |x, y| match kind {
            Binary::Add => Some(x.wadd(y)),
            Binary::Sub => Some(x.wsub(y)),
            Binary::Mul => Some(x.wmul(y)),
            Binary::Div => x.wdiv(y),
        })?;
        deliver(op, dest, values, a.shape())
    }, _ => unreachable!("checked: an integer or bool dtype"))
}

/// Logical or for `add`, logical and for `mul`: the only bool arithmetic.
fn bool_op(kind: Binary) -> fn(bool, bool) -> bool {
    match kind {
        Binary::Add => |x, y| x | y,
        Binary::Mul => |x, y| x & y,
        Binary::Sub | Binary::Div => unreachable!("checked: bool has add and mul only"),
    }
}

/// `f(a[k], b[k])` for every ordinal `k`; `None` from `f` marks a zero divisor, reported at
/// the first ordinal where it happens.
fn zip<T: Element>(
    op: &'static str,
    a: &Tensor,
    b: &Tensor,
    f: impl Fn(T, T) -> Option<T>,
) -> Result<Vec<T>> {
    let (values, zero) = read2(
        a,
        b,
        op,
        |(x, ox, lx): (&[T], i64, &Layout), (y, oy, ly)| {
            let mut out = Vec::with_capacity(lx.size());
            let mut zero = None;
            walk2((lx, ox), (ly, oy), |i, j| match f(x[i], y[j]) {
                Some(v) => out.push(v),
                None => {
                    zero.get_or_insert(out.len());
                    out.push(T::zero());
                }
            });
            (out, zero)
        },
    )?;
    match zero {
        None => Ok(values),
        Some(k) => Err(Error::DivisionByZero {
            op,
            at: format!("coordinate {} (ordinal {k})", a.shape().coordinate(k)?),
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
            .expect("checked: a bool operand");
        let f = bool_op(match kind {
            ScalarKind::Add => Binary::Add,
            ScalarKind::Mul => Binary::Mul,
            _ => unreachable!("checked: bool has add and mul only"),
        });
        return deliver(op, dest, map(op, t, |x| f(x, s))?, t.shape());
    }
    with_int!(t.dtype(), T => {
        // Unreachable: the caller ran Scalar::cast_for(t.dtype()), which refuses a value
        // that does not fit (NotCastable).
        let s = s.map_or(T::zero(), |s| T::from_scalar(s).expect("cast to the tensor's dtype"));
        if matches!(kind, ScalarKind::Div) && s == T::zero() {
            return Err(Error::DivisionByZero { op, at: "the scalar operand".into() });
        }
        let values = map::<T>(op, t, |x| match kind {
            ScalarKind::Neg => x.wneg(),
            ScalarKind::Add => x.wadd(s),
            ScalarKind::Sub => x.wsub(s),
            ScalarKind::Mul => x.wmul(s),
            // Unreachable: a zero divisor returned DivisionByZero above.
            ScalarKind::Div => x.wdiv(s).expect("a nonzero divisor"),
        })?;
        deliver(op, dest, values, t.shape())
    }, _ => unreachable!("checked: an integer or bool dtype"))
}

/// `f(t[k])` for every ordinal `k`.
fn map<T: Element>(op: &'static str, t: &Tensor, f: impl Fn(T) -> T) -> Result<Vec<T>> {
    read(t, op, |x: &[T], o, l| {
        let mut out = Vec::with_capacity(l.size());
        walk1(l, o, |i| out.push(f(x[i])));
        out
    })
}

/// The wrapping sum of every element of an integer tensor, as a rank-0 tensor of its dtype.
pub(super) fn total(op: &'static str, t: &Tensor, dest: Dest<'_>) -> Result<Option<Tensor>> {
    with_int!(t.dtype(), T => {
        let s = read(t, op, |x: &[T], o, l| {
            let mut acc = T::zero();
            walk1(l, o, |i| acc = acc.wadd(x[i]));
            acc
        })?;
        deliver(op, dest, vec![s], &Shape::empty())
    }, _ => unreachable!("checked: an integer dtype"))
}

/// The wrapping sums of an integer tensor over the modes that `gather` sends to one
/// ordinal of the compact `shape`.
pub(super) fn sum_modes(
    op: &'static str,
    t: &Tensor,
    gather: &Layout,
    shape: &Shape,
    dest: Dest<'_>,
) -> Result<Option<Tensor>> {
    with_int!(t.dtype(), T => {
        let values = read(t, op, |x: &[T], o, l| {
            let mut acc = vec![T::zero(); shape.size()];
            walk2((l, o), (gather, 0), |i, j| acc[j] = acc[j].wadd(x[i]));
            acc
        })?;
        deliver(op, dest, values, shape)
    }, _ => unreachable!("checked: an integer dtype"))
}
