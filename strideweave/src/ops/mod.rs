//! Arithmetic with backward rules: what a loss needs.
//!
//! | module | what it holds |
//! | --- | --- |
//! | `elementwise` | add, sub, mul, div, neg, the scalar forms, `copy_from` |
//! | `zip_map` | the elementwise engine (`zip2`, `map1`) run on tensors: operands in place, results straight into a fresh vector or the destination |
//! | `math` | the elementwise functions of a model (`exp`, `log`, …, `gelu`, `powf`, `clamp`) and their backward rule |
//! | `along` | functions along one mode: `softmax`, `log_softmax`, `logsumexp`, `argmax`, `argmin` (fiber by fiber, max-shifted) |
//! | `cast` | `to_dtype` (Rust's `as` per element), `real`, `imag`, `map` |
//! | `compare` | comparisons into bool tensors (`eq` … `ge`, the `_scalar` forms) and `where_cond` |
//! | `exact` | the integer and bool kernels of `elementwise` (wrapping, checked division) |
//! | `gather` | `index_select` and `gather` along one mode, with their scatter-add backward rules |
//! | `reduce` | every reduction on one path: `Reduction`, `reduce` by a pattern (the engine's `Op::Reduce`), its whole-mode forms `sum`, `sum_modes`, `mean`; `count_nonzero` |
//! | `matmul` | the product of two rank-2 floating or complex tensors (with `matmul_into`); its other forms run on `contract` |
//! | `contract` | the batched-contraction core (`Spec`, `run`, its backward rule), `contract`, `dot`, `outer`, matmul's vector and batched forms |
//! | `einsum` | `Tensor::einsum`/`einsum_with`: per-input rearrangement views + the core + a final view |
//! | `vector` | `magnitude`, `normalize`, `cross` |
//! | `promote` | mixed dtypes: the other operand converted to `DType::promote`'s dtype, recorded |
//! | `operators` | `std::ops` on `&Tensor` (`Output = Result<Tensor>`) |
//!
//! The element arithmetic, dense value vectors, strided walks and the gemm call they run on
//! are in `kernels`, shared with `autograd`.
//!
//! Each has an `_into` form that writes into a caller's tensor instead of allocating (no
//! hidden allocation): see `Dest`.
//!
//! Kernels read their operands where they lie, through their layouts (strided, reversed,
//! broadcast: nothing is copied first), write compact first-mode-fastest results into fresh
//! host carriers, and record their backward rule when an operand takes part in autograd.
//! Nothing broadcasts implicitly: elementwise operands have equal shapes.

mod along;
mod cast;
mod compare;
mod contract;
mod einsum;
pub(crate) use einsum::{contract_views, einsum_run, plain, view_name};
mod elementwise;
mod exact;
mod gather;
mod math;
mod matmul;
mod operators;
mod promote;
mod reduce;
mod repeat;
mod vector;
mod zip_map;

pub use reduce::Reduction;
pub(crate) use reduce::{reduce_code, reduce_pattern};

use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::kernels::num;
use crate::tensor::Tensor;

/// The dtypes an operation takes besides the floating and complex ones, which every
/// arithmetic operation takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Accepts {
    /// Floating and complex only (`matmul_into`, `mean`, `copy_from`).
    Float,
    /// Integers too (`sub`, `div`, `neg`, `sum`, `sum_modes`).
    Int,
    /// Integers and bool (`add` is logical or on bool, `mul` logical and).
    IntBool,
}

impl Accepts {
    fn admits(self, d: DType) -> bool {
        d.is_differentiable()
            || (self != Accepts::Float && d.is_integer())
            || (self == Accepts::IntBool && d == DType::Bool)
    }

    fn expected(self) -> &'static str {
        match self {
            Accepts::Float => "a floating or complex tensor",
            Accepts::Int => "a floating, complex or integer tensor",
            Accepts::IntBool => "a floating, complex, integer or bool tensor",
        }
    }
}

/// The checks every kernel makes on an operand: one subtensor (a block-scaled tensor is
/// refused) and a dtype that `accepts` admits; `why` is appended to the message of
/// a refused dtype (what to do instead).
pub(crate) fn check_operand_for(
    op: &'static str,
    t: &Tensor,
    accepts: Accepts,
    why: &str,
) -> Result<()> {
    t.require_single(op)?;
    if !accepts.admits(t.dtype()) {
        return Err(Error::WrongType {
            op,
            expected: format!("{}{why}", accepts.expected()),
            found: format!("a {} tensor", t.dtype()),
        });
    }
    Ok(())
}

/// Refuses the first of `operands` whose rank is not `expected` (`RankMismatch`, naming the
/// operand by its description).
pub(crate) fn require_rank(
    op: &'static str,
    expected: usize,
    operands: [(&'static str, &Tensor); 2],
) -> Result<()> {
    match operands.into_iter().find(|(_, t)| t.rank() != expected) {
        Some((what, t)) => Err(Error::RankMismatch {
            op,
            what,
            expected,
            found: t.rank(),
        }),
        None => Ok(()),
    }
}

/// The checks on two operands: each valid, and of one dtype.
pub(crate) fn check_pair(op: &'static str, a: &Tensor, b: &Tensor) -> Result<()> {
    check_pair_for(op, a, b, Accepts::Float, "")
}

/// [`check_pair`] for an operation that also takes the dtypes of `accepts`.
pub(crate) fn check_pair_for(
    op: &'static str,
    a: &Tensor,
    b: &Tensor,
    accepts: Accepts,
    why: &str,
) -> Result<()> {
    check_operand_for(op, a, accepts, why)?;
    check_operand_for(op, b, accepts, why)?;
    if a.dtype() != b.dtype() {
        return Err(Error::WrongType {
            op,
            expected: format!("two tensors of one dtype ({} on the left)", a.dtype()),
            found: format!("a {} tensor on the right", b.dtype()),
        });
    }
    Ok(())
}

/// Where a kernel's result goes: a fresh compact tensor (recorded when an input takes part
/// in autograd), or the elements of a caller's tensor (never recorded).
#[derive(Clone, Copy)]
pub(crate) enum Dest<'a> {
    Fresh,
    Into(&'a Tensor),
}

/// The checks on a destination, made before anything is computed or written: one
/// subtensor, the result's dtype (`Type`) and shape (`Value`), an injective layout
/// (`Value`), and no gradient silently lost (`Runtime`: with recording on, neither an
/// input nor the destination may take part in autograd).
pub(crate) fn check_dest(
    op: &'static str,
    dest: Dest<'_>,
    inputs: &[&Tensor],
    dtype: DType,
    shape: &crate::layout::Shape,
) -> Result<()> {
    let Dest::Into(out) = dest else {
        return Ok(());
    };
    out.require_single(op)?;
    if out.dtype() != dtype {
        return Err(Error::WrongType {
            op,
            expected: format!("a {dtype} destination (the result's dtype)"),
            found: format!("a {} destination", out.dtype()),
        });
    }
    if out.shape() != shape {
        return Err(Error::ShapeMismatch {
            op,
            expected: shape.to_string(),
            found: out.shape().to_string(),
            detail: "the destination must have the result's shape".into(),
        });
    }
    if !out.layout().is_injective() {
        return Err(Error::NotInjective {
            op,
            layout: format!("{} (a destination must not alias)", out.layout()),
        });
    }
    if crate::autograd::is_grad_enabled()
        && (crate::autograd::participates(out)
            || inputs.iter().any(|t| crate::autograd::participates(t)))
    {
        return Err(Error::Runtime {
            op,
            detail: "writing into a caller's tensor is not recorded, so with gradient recording on no input and no destination may require gradients; use the allocating form, or call it inside no_grad()".into(),
        });
    }
    Ok(())
}

/// Delivers a kernel's `values` (first-mode-fastest over `shape`): a fresh compact tensor
/// with `rule` recorded when an input takes part in autograd, or a write into the checked
/// destination (one version increment).
pub(crate) fn finish(
    op: &'static str,
    dest: Dest<'_>,
    inputs: &[&Tensor],
    values: num::Dense,
    shape: &crate::layout::Shape,
    rule: impl FnOnce() -> Box<dyn crate::autograd::node::Rule>,
) -> Result<Option<Tensor>> {
    // unreachable from user input: with_num! picks T from the values' own dtype, so undense
    // finds its vector (and the forward values are never a splat).
    let out = num::with_num!(values.dtype(),
        T => deliver(op, dest, <T as num::Num>::undense(op, values)?.expect("its own dtype"), shape)?,
        _ => unreachable!("arithmetic dtypes"));
    match out {
        Some(t) if crate::autograd::node::wants(inputs) => {
            Ok(Some(crate::autograd::node::attach(t, op, inputs, rule())))
        }
        out => Ok(out),
    }
}

/// Delivers `values` (first-mode-fastest over `shape`) without recording anything: a fresh
/// compact tensor, or a write into the checked destination (one version increment). What
/// integer and bool kernels end with, since those dtypes have no gradients.
pub(crate) fn deliver<T: crate::dtype::Element>(
    op: &'static str,
    dest: Dest<'_>,
    values: Vec<T>,
    shape: &crate::layout::Shape,
) -> Result<Option<Tensor>> {
    match dest {
        Dest::Fresh => Ok(Some(Tensor::from_vec(values, shape)?)),
        Dest::Into(out) => {
            zip_map::write_values(op, out, &values)?;
            Ok(None)
        }
    }
}

/// The tensor of an allocating form.
pub(crate) fn fresh(r: Result<Option<Tensor>>) -> Result<Tensor> {
    // unreachable from user input: an op with Dest::Fresh always returns Some.
    r.map(|t| t.expect("an allocating form returns its result"))
}
