//! Arithmetic with backward rules: what a loss needs (issue 5).
//!
//! | module | what it holds |
//! | --- | --- |
//! | `num` | [`num::Num`] (the floating and complex element types), dense ordinal vectors |
//! | `strided` | iteration over strided (and stride-zero) layouts without copying |
//! | `elementwise` | add, sub, mul, div, neg, the scalar forms, `copy_from` |
//! | `reduce` | `sum`, `sum_modes`, `mean` |
//! | `matmul` | the product of two rank-2 tensors |
//!
//! Kernels read their operands where they lie, through their layouts (strided, reversed,
//! broadcast: nothing is copied first), write compact first-mode-fastest results into fresh
//! host carriers, and record their backward rule when an operand takes part in autograd.
//! Nothing broadcasts implicitly (contracts C3): elementwise operands have equal shapes.

mod elementwise;
pub(crate) mod matmul;
pub(crate) mod num;
mod reduce;
pub(crate) mod strided;

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::tensor::Tensor;

/// The checks every kernel makes on an operand: one subtensor (RT008) and a floating or
/// complex dtype.
pub(crate) fn check_operand(op: &'static str, t: &Tensor) -> Result<()> {
    t.require_single(op)?;
    if !has_arithmetic(t.dtype()) {
        return Err(Error::WrongType {
            op,
            expected: "a floating or complex tensor".into(),
            found: format!("a {} tensor", t.dtype()),
        });
    }
    Ok(())
}

/// The checks on two operands: each valid, and of one dtype.
pub(crate) fn check_pair(op: &'static str, a: &Tensor, b: &Tensor) -> Result<()> {
    check_operand(op, a)?;
    check_operand(op, b)?;
    if a.dtype() != b.dtype() {
        return Err(Error::WrongType {
            op,
            expected: format!("two tensors of one dtype ({} on the left)", a.dtype()),
            found: format!("a {} tensor on the right", b.dtype()),
        });
    }
    Ok(())
}

fn has_arithmetic(d: DType) -> bool {
    num::with_num!(d, T => { let _ = std::marker::PhantomData::<T>; true }, _ => false)
}
