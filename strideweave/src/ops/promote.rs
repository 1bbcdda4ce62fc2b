//! Mixed element types in binary arithmetic: the other operand converted into
//! [`DType::promote`]'s dtype (exactly: promotion never loses a value), recorded for
//! gradients.

use crate::autograd::node::{Cotangents, rule};
use crate::dtype::{Complex32, Complex64, DType, Element, Scalar};
use crate::error::{Error, Result};
use crate::kernels::int::with_int;
use crate::kernels::num::{Dense, Num, with_num};
use crate::ops::{Dest, deliver, finish, fresh};
use crate::tensor::Tensor;

/// `t` in dtype `d` (itself when it has it): a fresh compact tensor of its values converted
/// exactly (`d` comes from [`DType::promote`], which holds every value of `t`'s dtype).
pub(crate) fn convert(op: &'static str, t: &Tensor, d: DType) -> Result<Tensor> {
    if t.dtype() == d {
        return Ok(t.clone());
    }
    let from = t.dtype();
    let values = t.to_scalars()?;
    let cast = |s: Scalar| {
        s.cast(d).ok_or_else(|| Error::NotCastable {
            op,
            value: format!("{s:?}"),
            dtype: d.to_string(),
        })
    };
    if d.is_integer() {
        return with_int!(d, T => {
            // unreachable from user input: `cast` returned a scalar of dtype `d`, which is `T`'s.
            let v: Vec<T> = values.iter().map(|&s| cast(s).map(|c| T::from_scalar(c).expect("its own dtype"))).collect::<Result<_>>()?;
            fresh(deliver(op, Dest::Fresh, v, t.shape()))
        }, _ => unreachable!("an integer dtype"));
    }
    let dense = with_num!(d, T => {
        // Unreachable from user input: `cast` returned a scalar of dtype `d`.
        let v: Vec<T> = values.iter().map(|&s| cast(s).map(|c| T::from_scalar(c).expect("its own dtype"))).collect::<Result<_>>()?;
        T::dense(v)
    }, _ => return Err(Error::NotImplemented { op, reason: format!("converting {from} to {d}") }));
    let shape = t.shape().clone();
    fresh(finish(op, Dest::Fresh, &[t], dense, &shape, || {
        rule(move |step| convert_back(step.op, from, step.cot))
    }))
}

/// Backward of a promotion: the cotangent converted back to the operand's dtype (a complex
/// cotangent of a real operand: its real part, PyTorch's rule).
fn convert_back(op: &'static str, from: DType, cot: Dense) -> Result<Cotangents> {
    let parts: Vec<(f64, f64)> = with_num!(cot.dtype(), T => {
        T::cotangent(op, cot)?.into_iter().map(|v| parts(v.to_scalar())).collect()
    }, _ => unreachable!("differentiable"));
    let g = match from {
        DType::ComplexF32 => Dense::C64(
            parts
                .iter()
                .map(|&(re, im)| Complex32::new(re as f32, im as f32))
                .collect(),
        ),
        DType::ComplexF64 => Dense::C128(
            parts
                .iter()
                .map(|&(re, im)| Complex64::new(re, im))
                .collect(),
        ),
        d => {
            with_num!(d, T => T::dense(parts.iter().map(|&(re, _)| T::from_f64(re)).collect()),
            _ => unreachable!("only differentiable operands are recorded"))
        }
    };
    Ok(smallvec::smallvec![Some(g)])
}

/// A scalar's real and imaginary parts.
fn parts(s: Scalar) -> (f64, f64) {
    match s {
        Scalar::ComplexF32(c) => (c.re.into(), c.im.into()),
        Scalar::ComplexF64(c) => (c.re, c.im),
        s => (s.to_f64(), 0.0),
    }
}
