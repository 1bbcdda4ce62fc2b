//! Where cotangents enter and gradients leave: checks of a caller's cotangent against its
//! target, and gradient buffers that never alias.
//!
//! * An **injective** target keeps its layout: the gradient is a fresh carrier just long
//!   enough for the layout's reach, with the offset that places the reach at its start.
//! * A target that aliases **only through stride-zero modes** gets the compact layout of its
//!   shape; each coordinate holds the sum of the contributions of every coordinate that
//!   addresses the same storage slot (the derivative with respect to that slot, replicated
//!   over its aliases), at any hierarchy depth.
//! * Any other aliasing is refused (`Value`): no per-element gradient exists.

use std::sync::Arc;

use crate::autograd::cot::{Cot, add_held};
use crate::carrier::Carrier;
use crate::dtype::DType;
use crate::dtype::zeroed_vec;
use crate::error::{Error, Result};
use crate::kernels::num::{Dense, Num, with_num};
use crate::kernels::strided::walk1;
use crate::layout::Layout;
use crate::tensor::Tensor;
use crate::tensor::read::gather;

/// Fails with `Runtime` unless `t`'s dtype has gradients (floating and complex dtypes): the
/// one error for a tensor without gradients, wherever one is asked for. `what` names `t`.
pub(crate) fn require_differentiable(op: &'static str, t: &Tensor, what: &str) -> Result<()> {
    if t.dtype().is_differentiable() {
        return Ok(());
    }
    Err(Error::Runtime {
        op,
        detail: format!(
            "{what} is a {} tensor, which has no gradient; only floating and complex tensors do",
            t.dtype()
        ),
    })
}

/// Fails unless `t` is a one-subtensor, differentiable tensor on host storage whose aliasing
/// (if any) comes from stride-zero modes only.
pub(crate) fn check_target(op: &'static str, t: &Tensor) -> Result<()> {
    t.require_single(op)?;
    require_differentiable(op, t, "this tensor")?;
    if t.carrier_class().name() != "host" {
        return Err(Error::NotImplemented {
            op,
            reason: format!(
                "gradients are allocated in host carriers only; this tensor's carrier class is {}",
                t.carrier_class()
            ),
        });
    }
    let l = t.layout();
    if !l.is_injective() && !l.filter().is_injective() {
        return Err(Error::InvalidGradient {
            op,
            detail: format!(
                "the {} tensor with layout {l} aliases storage in a way that stride-zero broadcast modes do not explain; its gradient would be under-counted, so it is refused",
                t.dtype()
            ),
        });
    }
    Ok(())
}

/// The unit cotangent of a backward root of one element (any shape of size 1, rank 0
/// included): what `backward()` starts from.
pub(crate) fn unit_cotangent(op: &'static str, target: &Tensor) -> Result<Cot> {
    check_target(op, target)?;
    let tl = target.layout();
    if tl.size() != 1 {
        return Err(Error::InvalidGradient {
            op,
            detail: format!(
                "the implicit unit cotangent exists only for a tensor of one element; this tensor's shape {} has {} elements; pass a cotangent of layout {tl} to backward_with",
                tl.shape(),
                tl.size()
            ),
        });
    }
    Ok(Cot::dense(unit(target.dtype())))
}

/// The cotangent of a backward root: the caller's `gradient` checked against `target` (held
/// and read where it lies when it is written, in one pass; copied first when it lives in a
/// carrier other than host memory, so that no read can fail later), or the unit cotangent
/// of a tensor of one element (any shape of size 1, rank 0 included).
pub(crate) fn root_cotangent(
    op: &'static str,
    target: &Tensor,
    gradient: Option<&Tensor>,
) -> Result<Cot> {
    check_target(op, target)?;
    let tl = target.layout();
    let Some(g) = gradient else {
        return unit_cotangent(op, target);
    };
    if g.representation().subtensors().len() != 1 {
        return Err(Error::WrongType {
            op,
            expected: format!("a one-subtensor {} cotangent", target.dtype()),
            found: format!("a {} tensor with several subtensors", g.dtype()),
        });
    }
    if g.dtype() != target.dtype() {
        return Err(Error::WrongType {
            op,
            expected: format!("a {} cotangent (the dtype of the tensor)", target.dtype()),
            found: format!("a {} cotangent", g.dtype()),
        });
    }
    let gl = g.layout();
    if tl.is_injective() {
        if gl != tl {
            return Err(Error::InvalidGradient {
                op,
                detail: format!(
                    "the cotangent of a tensor with the injective layout {tl} must have that exact layout; it has {gl}"
                ),
            });
        }
    } else {
        if gl.shape() != tl.shape() {
            return Err(Error::InvalidGradient {
                op,
                detail: format!(
                    "the cotangent of the broadcast layout {tl} must have its shape {} in an injective layout; it has shape {}",
                    tl.shape(),
                    gl.shape()
                ),
            });
        }
        if !gl.is_injective() {
            return Err(Error::InvalidGradient {
                op,
                detail: format!(
                    "the cotangent of the broadcast layout {tl} must have an injective layout of shape {}; {gl} aliases",
                    tl.shape()
                ),
            });
        }
    }
    if g.carrier_class().name() == "host" {
        return Ok(Cot::held(g.clone()));
    }
    with_num!(g.dtype(), T => Ok(Cot::dense(T::dense(gather::<T>(g, op)?))),
        _ => unreachable!("checked differentiable"))
}

/// `[1]` of `dtype`.
fn unit(dtype: DType) -> Dense {
    with_num!(dtype, T => T::dense(vec![T::one()]), _ => unreachable!("checked differentiable"))
}

/// The gradient buffer of `target` holding `cot`, plus `existing` (a gradient this function
/// made earlier for the same target) when given. An injective target's buffer is written
/// in one strided pass per contribution, straight from where the values lie; `existing` is
/// added after them (`new + old` at every index).
pub(crate) fn gradient(
    op: &'static str,
    target: &Tensor,
    cot: Cot,
    existing: Option<&Tensor>,
) -> Result<Tensor> {
    if !target.layout().is_injective() {
        let values = slot_values(op, target, cot.into_dense(op, target)?)?;
        return from_values(op, target, values, existing);
    }
    fn go<T: Num>(
        op: &'static str,
        target: &Tensor,
        cot: &Cot,
        existing: Option<&Tensor>,
    ) -> Result<Tensor> {
        let l = target.layout();
        let (lo, hi) = l.reach();
        let mut buf = zeroed_vec::<T>(op, (hi - lo + 1) as usize)?;
        cot.write(op, target, &mut buf, Some(-lo))?;
        if let Some(e) = existing {
            add_held(op, e, (&mut buf, -lo, l), false)?;
        }
        Tensor::new(Carrier::from_vec(buf), (-lo) as usize, l.clone())
    }
    with_num!(target.dtype(), T => go::<T>(op, target, &cot, existing),
        _ => unreachable!("checked differentiable"))
}

/// `cot` as the values a gradient buffer of `target` holds at each ordinal: itself when
/// `target` is injective, else each slot's sum over its aliases, replicated.
pub(crate) fn slot_values(op: &'static str, target: &Tensor, cot: Dense) -> Result<Dense> {
    fn go<T: Num>(op: &'static str, l: &Layout, cot: Dense) -> Result<Dense> {
        // Unreachable: the engine built the cotangent in the target's dtype (backward checked the
        // caller's cotangent dtype first), and T is chosen from that dtype.
        // unreachable from user input: the engine builds every cotangent in its target's dtype (engine-built, never user input).
        let mut v = T::undense(op, cot)?.expect("the cotangent has the target's dtype");
        if !l.is_injective() {
            // Broadcast aliasing (checked before any traversal): per-slot sums, replicated.
            let (lo, hi) = l.reach();
            let mut slots = zeroed_vec(op, (hi - lo + 1) as usize)?;
            let mut k = 0;
            walk1(l, -lo, |i| {
                slots[i] += v[k];
                k += 1;
            });
            let mut k = 0;
            walk1(l, -lo, |i| {
                v[k] = slots[i];
                k += 1;
            });
        }
        Ok(T::dense(v))
    }
    with_num!(cot.dtype(), T => go::<T>(op, target.layout(), cot),
        _ => unreachable!("cotangents are differentiable"))
}

/// The gradient buffer of `target` holding `values` (from [`slot_values`]) plus `existing`.
pub(crate) fn from_values(
    op: &'static str,
    target: &Tensor,
    values: Dense,
    existing: Option<&Tensor>,
) -> Result<Tensor> {
    with_num!(values.dtype(), T => gradient_of::<T>(op, target.layout(), values, existing),
        _ => unreachable!("cotangents are differentiable"))
}

/// Whether `g` (a gradient buffer held in a `.grad` slot) is reached by no other handle:
/// neither a clone of the tensor (an earlier `.grad()`) nor any other tensor, view or
/// carrier handle sharing its carrier. Only then may it be accumulated into in place.
pub(crate) fn is_sole(g: &Tensor) -> bool {
    Arc::strong_count(&g.inner) == 1
        && Arc::weak_count(&g.inner) == 0
        && g.inner.repr.is_single()
        && g.inner.repr.subtensors[0].carrier.is_sole_handle()
}

/// Adds `cot`, the new gradient of `target`, into `g` (its `.grad`, which must be
/// [`is_sole`]) in place, one version increment: in one strided pass when `cot` is one
/// contribution whose placement does not alias and `g` is laid out as `target`; else
/// through the per-slot values of [`slot_values`].
pub(crate) fn accumulate_in_place(
    op: &'static str,
    target: &Tensor,
    g: &Tensor,
    cot: Cot,
) -> Result<()> {
    fn go<T: Num>(op: &'static str, target: &Tensor, g: &Tensor, cot: Cot) -> Result<()> {
        let s = g.require_single(op)?;
        if target.layout().is_injective() && s.layout == *target.layout() {
            let base = s.offset as i64;
            let done = s
                .carrier
                .write_as(op, |buf: &mut [T]| cot.add_in_place(op, target, buf, base))??;
            if done {
                return Ok(());
            }
        }
        // unreachable from user input: the gradient buffer is built by the engine in the tensor's dtype.
        let values = T::undense(op, slot_values(op, target, cot.into_dense(op, target)?)?)?
            .expect("the gradient's dtype");
        s.carrier.write_as(op, |buf: &mut [T]| {
            let mut k = 0;
            walk1(&s.layout, s.offset as i64, |i| {
                buf[i] += values[k];
                k += 1;
            });
        })
    }
    with_num!(g.dtype(), T => go::<T>(op, target, g, cot),
        _ => unreachable!("cotangents are differentiable"))
}

fn gradient_of<T: Num>(
    op: &'static str,
    l: &Layout,
    values: Dense,
    existing: Option<&Tensor>,
) -> Result<Tensor> {
    // Unreachable: values come from slot_values for the target, in its dtype (T's).
    // unreachable from user input: the values are built by the engine in the target's dtype.
    let mut v = T::undense(op, values)?.expect("the values have the target's dtype");
    let (lo, hi) = l.reach();
    let span = (hi - lo + 1) as usize;
    let injective = l.is_injective();
    if let Some(e) = existing {
        for (x, y) in v.iter_mut().zip(gather::<T>(e, op)?) {
            *x += y;
        }
    }
    if !injective {
        return Tensor::new(Carrier::from_vec(v), 0, Layout::compact(l.shape()));
    }
    let mut buf = zeroed_vec(op, span)?;
    let mut k = 0;
    walk1(l, -lo, |i| {
        buf[i] = v[k];
        k += 1;
    });
    Tensor::new(Carrier::from_vec(buf), (-lo) as usize, l.clone())
}
