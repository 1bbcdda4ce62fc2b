//! einops' reading of patterns: groups as einops writes them.
//!
//! StrideWeave's own functions and macros ([`Tensor::rearrange`], [`rearrange!`](crate::rearrange),
//! …) read a group first member fastest, and a group on the right builds one *nested* mode:
//! `"b (h w) -> b h w"` splits `h` fastest, and `"b h w -> b (h w)"` gives the shape
//! `(b, (h, w))`. The functions and macros of this module read a pattern as einops does, so
//! that an einops pattern can be pasted as it is:
//!
//! * in every group, on both sides (nested groups too), the **last member varies fastest**
//!   and the first slowest, as in numpy's row-major order; top-level terms keep their order,
//!   so a [`Tensor`] with numpy's shape holding numpy's values at the same coordinates (for
//!   instance row-major strides, [`Tensor::from_vec_row_major`]) gives einops' numbers at the
//!   same coordinates;
//! * a group on the right is **one flat mode**, as einops gives it. A view can make it one
//!   mode only when its members' strides merge (each slower member's stride is the faster
//!   one's stride times its extent, extent-1 members ignored); otherwise the call is an
//!   error that names the group and its strides and says to materialize first. einops copies
//!   there; StrideWeave never copies silently.
//!
//! Everything else is the default reading's: the grammar (`...`, `1`, nested groups,
//! keyword extents), the checks and their messages, which start with the name you called
//! (`einops::rearrange: …`, `einops::rearrange!: …`) and quote the pattern as you wrote it.
//!
//! **An einops macro returns `Result` when something can fail at run time** (the crate's
//! one rule, see [`Extents`](crate::Extents)): its tensor is a `Tensor`, its static shape has
//! a `_`, or its pattern has a group on the right. On a [`StaticTensor`](crate::StaticTensor)
//! whose pattern has no
//! group on the right, [`rearrange!`] and [`repeat!`] return exactly what the default macros
//! return for the mirrored pattern (the checks are the same, at compile time); with a group
//! on the right, whether its strides merge is known only at run time, so they return
//! `Result<StaticTensor<T, Grouped<_, _>>>`, whose static shape has each group flattened
//! ([`Grouped`]). [`reduce!`] and [`einsum!`] return `Result` anyway.
//!
//! ```
//! use strideweave::{Tensor, einops, shape};
//!
//! // einops: rearrange(x, "b n (t h k) -> t b h n k", t=3, h=2) on a row-major array.
//! let data: Vec<f32> = (0..2 * 4 * 12).map(|v| v as f32).collect();
//! let x = Tensor::from_vec_row_major(data, &shape!(2, 4, 12)).unwrap();
//! let y = einops::rearrange(&x, "b n (t h k) -> t b h n k", &[("t", 3), ("h", 2)]).unwrap();
//! assert_eq!(y.shape(), &shape!(3, 2, 2, 4, 2));
//! // y[t, b, h, n, k] = x[b, n, t·4 + h·2 + k], as numpy gives it.
//! let at = |t: &Tensor, c: &[i64]| t.get(&c.into()).unwrap().to_f64();
//! assert_eq!(at(&y, &[2, 1, 1, 3, 1]), at(&x, &[1, 3, 2 * 4 + 2 + 1]));
//!
//! // A right-side group is one flat mode.
//! let z = einops::rearrange(&x, "b n c -> (b n) c", &[]).unwrap();
//! assert_eq!(z.shape(), &shape!(8, 12));
//! ```

use strideweave_syntax::EncodedPattern;

use crate::error::Result;
use crate::ops::{Reduction, einsum_run, reduce_pattern};
use crate::pattern::run::Prepared;
use crate::pattern::{Op, PatternRef, Side};
use crate::tensor::Tensor;

pub use crate::statics::Grouped;
pub use strideweave_macros::{
    einops_einsum as einsum, einops_rearrange as rearrange, einops_reduce as reduce,
    einops_repeat as repeat,
};

/// einops' `rearrange` as a view: [`Tensor::rearrange`]'s grammar and keyword extents
/// (`sizes`, each at least 1), each group read slowest member first, and each right-side
/// group one flat mode (see the [module documentation](self)).
///
/// Errors start `einops::rearrange: ` and quote the pattern as written, with carets under
/// the offending term; a right-side group whose strides do not merge is
/// [`ErrorKind::Value`](crate::ErrorKind) naming the group and its strides (materialize
/// first). The tensor is never changed.
///
/// ```
/// use strideweave::{Tensor, einops, shape};
/// let x = Tensor::from_vec_row_major((0..24).collect::<Vec<i32>>(), &shape!(2, 12)).unwrap();
/// // Split as einops splits: h slowest, w fastest.
/// let y = einops::rearrange(&x, "b (h w) -> b h w", &[("h", 3)]).unwrap();
/// assert_eq!(y.shape(), &shape!(2, 3, 4));
/// assert_eq!(y.get(&[1, 2, 1].into()).unwrap().to_f64(), 12.0 + 2.0 * 4.0 + 1.0);
/// // A transposed group cannot be one mode without a copy.
/// let err = einops::rearrange(&x, "b c -> (c b)", &[]).unwrap_err();
/// assert!(err.to_string().starts_with("einops::rearrange: the group `(c b)`"), "{err}");
/// ```
pub fn rearrange(t: &Tensor, pattern: &str, sizes: &[(&str, i64)]) -> Result<Tensor> {
    pattern_view(t, Op::EinopsRearrange, pattern, sizes)
}

/// einops' `repeat` as a view: right-side symbols absent on the left are new stride-0 modes
/// of the keyword extents in `sizes`, read as [`rearrange`](fn@rearrange) reads groups.
/// A group holding a new symbol and another of extent > 1 is a copy in einops (`np.tile`),
/// so here it is the materialize-first error.
///
/// ```
/// use strideweave::{Tensor, einops, shape};
/// let x = Tensor::from_vec_row_major(vec![1i32, 2, 3], &shape!(3)).unwrap();
/// let y = einops::repeat(&x, "w -> h w", &[("h", 2)]).unwrap();
/// assert_eq!(y.to_vec_row_major::<i32>().unwrap(), [1, 2, 3, 1, 2, 3]);
/// let err = einops::repeat(&x, "w -> (w r)", &[("r", 2)]).unwrap_err();
/// assert!(err.to_string().starts_with("einops::repeat: the group `(w r)`"), "{err}");
/// ```
pub fn repeat(t: &Tensor, pattern: &str, sizes: &[(&str, i64)]) -> Result<Tensor> {
    pattern_view(t, Op::EinopsRepeat, pattern, sizes)
}

/// einops' `reduce`: [`Tensor::reduce`]'s rule (the left symbols the right omits are folded
/// by `reduction`) with groups read as einops reads them; a right-side group is one flat
/// mode. The result is a fresh tensor, so a group is always possible (when a `...` of two or
/// more modes sits inside one, at the cost of one more copy). `sizes` as in
/// [`rearrange`](fn@rearrange).
///
/// ```
/// use strideweave::{Reduction, Tensor, einops, shape};
/// let x = Tensor::from_vec_row_major((0..8).map(|v| v as f32).collect(), &shape!(8)).unwrap();
/// // Mean-pool by 2: (h h2) with h2 fastest, as einops reads it.
/// let y = einops::reduce(&x, "(h h2) -> h", Reduction::Mean, &[("h2", 2)]).unwrap();
/// assert_eq!(y.to_vec::<f32>().unwrap(), [0.5, 2.5, 4.5, 6.5]);
/// ```
pub fn reduce(
    t: &Tensor,
    pattern: &str,
    reduction: Reduction,
    sizes: &[(&str, i64)],
) -> Result<Tensor> {
    let (r, e) = reduce_pattern(t, Op::EinopsReduce, pattern, reduction, sizes)?;
    fresh_groups(
        &r,
        Op::EinopsReduce.method(),
        Op::EinopsReduce,
        pattern,
        &e.encoded,
    )
}

/// Einstein summation over one or two tensors ([`Tensor::einsum`]'s rules), groups read as
/// einops reads them and an output group one flat mode of the fresh result.
///
/// ```
/// use strideweave::{Tensor, einops, shape};
/// let a = Tensor::from_vec_row_major((0..6).map(|v| v as f64).collect(), &shape!(2, 3)).unwrap();
/// let b = Tensor::from_vec_row_major((0..12).map(|v| v as f64).collect(), &shape!(3, 4)).unwrap();
/// let c = einops::einsum("i k, k j -> (i j)", &[&a, &b]).unwrap();
/// assert_eq!(c.shape(), &shape!(8));
/// let m = a.matmul(&b).unwrap();
/// assert_eq!(c.to_vec::<f64>().unwrap(), m.to_vec_row_major::<f64>().unwrap());
/// ```
pub fn einsum(pattern: &str, inputs: &[&Tensor]) -> Result<Tensor> {
    const OP: &str = "einops::einsum";
    let (r, e) = einsum_run(OP, true, pattern, inputs, &[])?;
    fresh_groups(&r, OP, Op::EinopsRearrange, pattern, &e)
}

/// The view of `rearrange` and `repeat`: the mirrored pattern's plan on `t`, then its
/// right-side groups made one mode each.
fn pattern_view(t: &Tensor, op: Op, pattern: &str, sizes: &[(&str, i64)]) -> Result<Tensor> {
    let name = op.method();
    t.require_single(name)?;
    let prepared = Prepared::parse(t.shape(), op, pattern, sizes)?;
    let (plan, e) = (&prepared.plan, &prepared.encoded);
    let view = t.view_by(name, plan)?;
    with_ref(op, pattern, e, |p| view.einops_groups(name, p, None, false))
}

/// The engine's nested result of `rearrange` or `repeat` (`op`), each right-side group one
/// tuple of its leaves fastest first: what [`rearrange`](fn@rearrange) makes one mode per
/// group. `materialize` of it always flattens (`reshape` to einops' shape).
pub(crate) fn nested(t: &Tensor, op: Op, pattern: &str, sizes: &[(&str, i64)]) -> Result<Tensor> {
    let name = op.method();
    t.require_single(name)?;
    let prepared = Prepared::parse(t.shape(), op, pattern, sizes)?;
    let (plan, e) = (&prepared.plan, &prepared.encoded);
    let view = t.view_by(name, plan)?;
    let right = Side {
        toks: &e.right.toks,
        strings: &e.right.strings,
    };
    match crate::tensor::groups::Groups::of(view.shape(), &right)? {
        None => Ok(view),
        Some(g) => view.einops_nested(name, &g),
    }
}

/// A fresh result's groups made one mode each (see `Tensor::einops_groups`).
fn fresh_groups(
    r: &Tensor,
    name: &'static str,
    op: Op,
    pattern: &str,
    e: &EncodedPattern,
) -> Result<Tensor> {
    with_ref(op, pattern, e, |p| r.einops_groups(name, p, None, true))
}

/// `f` of the pattern reference over an encoding (for messages: the text and the right side).
fn with_ref<T>(
    op: Op,
    text: &str,
    e: &EncodedPattern,
    f: impl FnOnce(&PatternRef<'_>) -> Result<T>,
) -> Result<T> {
    let names: Vec<&str> = e.names.iter().map(String::as_str).collect();
    f(&PatternRef::over(op, text, e, &names, &[]))
}
