//! `Tensor::reduce`: einops' `reduce` in the rearrangement grammar. The pattern compiles once
//! (the one engine, `pattern/`, with `Op::Reduce`) into a zero-copy view of the operand over
//! the *iteration space*: the result's leaves, rearranged as the right side says, followed by
//! the leaves of the omitted symbols. The reduction engine (`kernels/fold.rs`) then folds
//! that view into the compact result through a gather layout with stride 0 on the reduced
//! leaves, reading the operand where it lies.

use crate::autograd::node::{Cotangents, Rule};
use crate::dtype::{DType, Element};
use crate::error::{Error, Result};
use crate::kernels::copy::copy;
use crate::kernels::fold::fold;
use crate::kernels::int::{Int, with_int};
use crate::kernels::num::{Dense, Num, with_num, with_real};
use crate::layout::{Layout, Shape};
use crate::ops::{Accepts, Dest, check_operand_for, deliver, finish, fresh};
use crate::pattern::Op;
use crate::pattern::run::Plan;
use crate::tensor::Tensor;
use crate::tensor::read::read;

/// How [`Tensor::reduce`] folds the elements of each output.
///
/// | reduction | float, complex | integers | bool |
/// | --- | --- | --- | --- |
/// | `Sum` | sum | wrapping sum | refused (a count is not a bool) |
/// | `Mean` | sum / count | refused (take `Sum`, then divide) | refused |
/// | `Max`, `Min` | largest / smallest; a NaN anywhere gives NaN (numpy's rule); complex refused (no order) | largest / smallest | any / all |
/// | `Prod` | product | wrapping product | all |
///
/// The result keeps the operand's dtype. Gradients (floating and complex dtypes): `Sum`
/// and `Mean` spread the cotangent (over the count for a mean); `Max` and `Min` send it to
/// the *first* extremal element of each output (first in the operand's first-mode-fastest
/// order; a NaN output sends it to the first NaN), the others get zero; `Prod` gives each
/// element the product of the others (exact when some elements are zero).
///
/// ```
/// use strideweave::{Reduction, Tensor};
/// let t = Tensor::from_vec(vec![1.0f64, 5.0, 3.0, 2.0], &"(2,2)".parse().unwrap()).unwrap();
/// assert_eq!(t.reduce("a b -> a", Reduction::Max, &[]).unwrap().to_vec::<f64>().unwrap(), [3.0, 5.0]);
/// assert_eq!(t.reduce("a b -> b", Reduction::Prod, &[]).unwrap().to_vec::<f64>().unwrap(), [5.0, 6.0]);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reduction {
    /// The sum.
    Sum,
    /// The arithmetic mean (floating and complex dtypes).
    Mean,
    /// The largest element (NaN if any is NaN).
    Max,
    /// The smallest element (NaN if any is NaN).
    Min,
    /// The product.
    Prod,
}

impl Reduction {
    /// Its name as the `reduce!` macro spells it: `sum`, `mean`, `max`, `min`, `prod`.
    ///
    /// ```
    /// assert_eq!(strideweave::Reduction::Prod.name(), "prod");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Reduction::Sum => "sum",
            Reduction::Mean => "mean",
            Reduction::Max => "max",
            Reduction::Min => "min",
            Reduction::Prod => "prod",
        }
    }
}

impl std::fmt::Display for Reduction {
    /// The [`name`](Reduction::name).
    ///
    /// ```
    /// assert_eq!(strideweave::Reduction::Mean.to_string(), "mean");
    /// ```
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

const OP: &str = "reduce";

impl Tensor {
    /// einops' `reduce` in the rearrangement grammar (contracts §5): the symbols of the left
    /// side that the right side omits are folded by `reduction`, the kept ones are arranged
    /// as the right side says (groups, `1`, `...`, split leaves with keyword `sizes`, exactly
    /// as [`rearrange`](Tensor::rearrange)). An empty right side (`"a b ->"`) reduces every
    /// symbol to a rank-0 tensor. See [`Reduction`] for the dtypes each takes, NaN and
    /// gradients.
    ///
    /// The operand is read in place through the view the pattern describes (no copy), and
    /// each output receives its terms in first-mode-fastest order, so floating sums are
    /// those of a naive loop. The result is a fresh compact tensor of the operand's dtype,
    /// recorded for autograd when the operand takes part.
    ///
    /// Errors: a pattern mistake is `InvalidRearrange` starting `reduce:` and quoting the
    /// pattern (as `rearrange` words it); a dtype the reduction does not take is
    /// `WrongType` naming the dtype and what to do instead.
    ///
    /// ```
    /// use strideweave::{Reduction, Tensor};
    /// // b c h w (first mode fastest), as einops' "b c h w -> b c" on the reversed shape.
    /// let t = Tensor::arange::<f32>(&"(2,3,2,2)".parse().unwrap());
    /// let m = t.reduce("b c h w -> b c", Reduction::Mean, &[]).unwrap();
    /// assert_eq!(m.shape().to_string(), "(2,3)");
    /// assert_eq!(m.to_vec::<f32>().unwrap(), [9.0, 10.0, 11.0, 12.0, 13.0, 14.0]);
    ///
    /// // Pooling by 2 along the first mode: (h h2) w -> h w with h2 = 2.
    /// let t = Tensor::arange::<i32>(&"(4,2)".parse().unwrap());
    /// let p = t.reduce("(h2 h) w -> h w", Reduction::Max, &[("h2", 2)]).unwrap();
    /// assert_eq!(p.to_vec::<i32>().unwrap(), [1, 3, 5, 7]);
    ///
    /// // Everything, to rank 0.
    /// assert_eq!(t.reduce("h w ->", Reduction::Sum, &[]).unwrap().item::<i32>().unwrap(), 28);
    ///
    /// // Mistakes quote the pattern.
    /// let err = t.reduce("h w -> h x", Reduction::Sum, &[]).unwrap_err();
    /// assert!(err.to_string().starts_with("reduce: unknown identifier `x`"), "{err}");
    /// ```
    pub fn reduce(
        &self,
        pattern: &str,
        reduction: Reduction,
        sizes: &[(&str, usize)],
    ) -> Result<Tensor> {
        check_dtype(self, reduction, OP)?;
        let sizes = keyword_sizes(sizes)?;
        let plan = Plan::parse(self.shape(), Op::Reduce, pattern, &sizes)?;
        fresh(reduce_with(self, &plan, reduction, OP))
    }
}

/// `reduce!`'s run-time path: the dtype checked, then `plan` (the compiler's for a static
/// tensor, the macro's pattern compiled on a dynamic tensor's shape) folded as
/// [`Tensor::reduce`] folds; every error starts with `reduce!`.
pub(crate) fn reduce_code(
    t: &Tensor,
    plan: impl FnOnce() -> Result<Plan>,
    reduction: Reduction,
) -> Result<Tensor> {
    let op = Op::Reduce.name();
    check_dtype(t, reduction, op)?;
    fresh(reduce_with(t, &plan()?, reduction, op))
}

/// The keyword sizes as the engine reads them (`i64`, the type of every extent).
fn keyword_sizes<'a>(sizes: &[(&'a str, usize)]) -> Result<Vec<(&'a str, i64)>> {
    let mut out = Vec::new();
    out.try_reserve_exact(sizes.len())
        .map_err(|_| Error::TooLarge {
            op: OP,
            detail: format!("{} keyword sizes", sizes.len()),
        })?;
    for &(name, v) in sizes {
        let v = i64::try_from(v).map_err(|_| Error::InvalidRearrange {
            op: OP,
            detail: format!("keyword `{name} = {v}` exceeds every possible extent (i64::MAX)"),
        })?;
        out.push((name, v));
    }
    Ok(out)
}

/// The dtypes each reduction takes (see [`Reduction`]).
fn check_dtype(t: &Tensor, r: Reduction, op: &'static str) -> Result<()> {
    let d = t.dtype();
    let refuse = |why: &str| {
        Err(Error::WrongType {
            op,
            expected: format!("a tensor whose dtype has a {r} ({why})"),
            found: format!("a {d} tensor"),
        })
    };
    match r {
        Reduction::Sum => check_operand_for(
            op,
            t,
            Accepts::Int,
            " (the sum of bools would be a count, not a bool, and nothing changes dtype silently)",
        ),
        Reduction::Mean => check_operand_for(
            op,
            t,
            Accepts::Float,
            " (the mean of integers is not an integer, and nothing changes dtype silently: take the sum, then divide)",
        ),
        Reduction::Prod => check_operand_for(op, t, Accepts::IntBool, ""),
        Reduction::Max | Reduction::Min => {
            check_operand_for(op, t, Accepts::IntBool, "")?;
            if matches!(d, DType::ComplexF32 | DType::ComplexF64) {
                return refuse("complex numbers have no order: reduce their magnitudes");
            }
            Ok(())
        }
    }
}

/// The iteration space of a compiled reduction: its extents (kept leaves, then reduced
/// ones), the gather strides (compact over the result on the kept leaves, 0 on the reduced
/// ones), the result's shape and how many outputs and terms per output there are.
struct Space {
    extents: Vec<i64>,
    gather: Vec<i64>,
    out: Shape,
    nout: usize,
    nred: usize,
}

impl Space {
    fn of(plan: &Plan, shape: &Shape) -> Space {
        let view = plan.apply(&Layout::compact(shape));
        let extents = view.shape().leaves().to_vec();
        let out = plan.kept_shape();
        let mut gather = Layout::compact(&out).stride().leaves().to_vec();
        gather.resize(extents.len(), 0);
        let nout = out.size();
        Space {
            extents,
            gather,
            nred: shape.size() / nout,
            out,
            nout,
        }
    }

    /// The compact strides of the iteration space (kept leaves fastest): term `r` of output
    /// `j` is at `j + nout·r`.
    fn compact(&self) -> Vec<i64> {
        let mut s = Vec::with_capacity(self.extents.len());
        let mut p = 1i64;
        for &e in &self.extents {
            s.push(p);
            p *= e;
        }
        s
    }
}

/// Folds `t` (checked) by the compiled `plan`.
fn reduce_with(t: &Tensor, plan: &Plan, r: Reduction, op: &'static str) -> Result<Option<Tensor>> {
    let space = Space::of(plan, t.shape());
    let d = t.dtype();
    if d == DType::Bool {
        // Checked: bool takes max (any), min (all) and prod (all).
        let values = match r {
            Reduction::Max => fold_all(op, t, plan, &space, false, |a, p: bool| a | p)?,
            _ => fold_all(op, t, plan, &space, true, |a, p: bool| a & p)?,
        };
        return deliver(op, Dest::Fresh, values, &space.out);
    }
    let int = with_int!(d, T => {
        let values = match r {
            Reduction::Sum => fold_all(op, t, plan, &space, T::zero(), |a, p: T| a.wadd(p))?,
            Reduction::Prod => fold_all(op, t, plan, &space, T::ONE, |a, p: T| a.wmul(p))?,
            Reduction::Max => fold_all(op, t, plan, &space, T::LOW, max::<T>)?,
            Reduction::Min => fold_all(op, t, plan, &space, T::HIGH, min::<T>)?,
            Reduction::Mean => unreachable!("checked: integers have no mean"),
        };
        Some(deliver(op, Dest::Fresh, values, &space.out))
    }, _ => None);
    if let Some(done) = int {
        return done;
    }
    let values = match r {
        Reduction::Max | Reduction::Min => with_real!(d, T => {
            let v = match r {
                Reduction::Max => fold_all(op, t, plan, &space, T::LOW, max::<T>)?,
                _ => fold_all(op, t, plan, &space, T::HIGH, min::<T>)?,
            };
            T::dense(v)
        }, _ => unreachable!("checked: a real floating dtype")),
        _ => with_num!(d, T => {
            let v = match r {
                Reduction::Prod => fold_all(op, t, plan, &space, T::one(), |a, p: T| a * p)?,
                _ => fold_all(op, t, plan, &space, T::zero(), |a, p: T| a + p)?,
            };
            if r == Reduction::Mean {
                let n = T::from_f64(space.nred as f64);
                T::dense(v.into_iter().map(|x| x / n).collect())
            } else {
                T::dense(v)
            }
        }, _ => unreachable!("checked: a floating or complex dtype")),
    };
    let out = space.out.clone();
    finish(op, Dest::Fresh, &[t], values, &out, || {
        Box::new(ReduceRule {
            plan: plan.clone(),
            space,
            r,
        })
    })
}

/// `f`-folds every term of each output of `t` into a fresh compact vector, from `init`.
fn fold_all<T: Element>(
    op: &'static str,
    t: &Tensor,
    plan: &Plan,
    space: &Space,
    init: T,
    f: impl Fn(T, T) -> T,
) -> Result<Vec<T>> {
    let mut acc = Vec::new();
    acc.try_reserve_exact(space.nout)
        .map_err(|_| Error::TooLarge {
            op,
            detail: format!("a result of {} elements", space.nout),
        })?;
    acc.resize(space.nout, init);
    read(t, op, |x: &[T], o, l| {
        let view = plan.apply(l);
        fold(
            &space.extents,
            (x, o, view.stride().leaves()),
            (&mut acc, 0, &space.gather),
            f,
        );
    })?;
    Ok(acc)
}

/// `max` keeping the first of equal elements, NaN once met.
fn max<T: Ordered>(a: T, p: T) -> T {
    if p > a || p.is_nan() { p } else { a }
}

/// `min` keeping the first of equal elements, NaN once met.
fn min<T: Ordered>(a: T, p: T) -> T {
    if p < a || p.is_nan() { p } else { a }
}

/// An ordered element type: the identities of max and min, and NaN.
pub(crate) trait Ordered: Element + PartialOrd {
    /// The identity of `max` (−∞, `MIN`, `false`).
    const LOW: Self;
    /// The identity of `min` (+∞, `MAX`, `true`).
    const HIGH: Self;
    /// One (the identity of a product).
    const ONE: Self;
    /// Whether it is NaN (never, but for floats).
    #[allow(clippy::eq_op)]
    fn is_nan(self) -> bool {
        self != self
    }
}

macro_rules! ordered {
    ($($t:ty: $low:expr, $high:expr, $one:expr);* $(;)?) => {$(
        impl Ordered for $t {
            const LOW: Self = $low;
            const HIGH: Self = $high;
            const ONE: Self = $one;
        }
    )*};
}

ordered! {
    f32: f32::NEG_INFINITY, f32::INFINITY, 1.0;
    f64: f64::NEG_INFINITY, f64::INFINITY, 1.0;
    i8: i8::MIN, i8::MAX, 1;
    i32: i32::MIN, i32::MAX, 1;
    i64: i64::MIN, i64::MAX, 1;
    u8: u8::MIN, u8::MAX, 1;
}

#[cfg(feature = "half")]
ordered! {
    half::f16: half::f16::NEG_INFINITY, half::f16::INFINITY, half::f16::ONE;
    half::bf16: half::bf16::NEG_INFINITY, half::bf16::INFINITY, half::bf16::ONE;
}

/// Backward of `reduce`. With `M` the plan applied to the compact layout of the operand's
/// shape (iteration index → operand ordinal) and `G` the gather (iteration index → output
/// ordinal): `Sum` is `g[M(i)] = c[G(i)]` (over the count for `Mean`); `Max`/`Min`/`Prod`
/// read the saved operand in iteration order, one column of `nred` terms per output, and
/// place each term's gradient through `M` the same way.
struct ReduceRule {
    plan: Plan,
    space: Space,
    r: Reduction,
}

impl ReduceRule {
    /// Places `per_term` (compact over the iteration space) at the operand's ordinals.
    fn place<T: Num>(&self, per_term: &[T], shape: &Shape) -> Vec<T> {
        let map = self.plan.apply(&Layout::compact(shape));
        let mut g = vec![T::zero(); shape.size()];
        copy(
            &self.space.extents,
            (per_term, 0, &self.space.compact()),
            (&mut g, 0, map.stride().leaves()),
        );
        g
    }

    /// The saved operand in iteration order (`j + nout·r`).
    fn terms<T: Num>(&self, x: &Tensor) -> Result<Vec<T>> {
        read(x, OP, |v: &[T], o, l| {
            let view = self.plan.apply(l);
            let mut out = vec![T::zero(); view.size()];
            copy(
                &self.space.extents,
                (v, o, view.stride().leaves()),
                (&mut out, 0, &self.space.compact()),
            );
            out
        })
    }

    fn sum<T: Num>(&self, op: &'static str, cot: Dense, shape: &Shape) -> Result<Dense> {
        let scale = match self.r {
            Reduction::Mean => T::one() / T::from_f64(self.space.nred as f64),
            _ => T::one(),
        };
        if let Some((c, true)) = T::undense_strided(&cot) {
            return Ok(T::splat(c[0] * scale, shape.size()));
        }
        let c: Vec<T> = T::cotangent(op, cot)?
            .into_iter()
            .map(|c| c * scale)
            .collect();
        let map = self.plan.apply(&Layout::compact(shape));
        let mut g = crate::dtype::zeroed_vec(op, shape.size())?;
        copy(
            &self.space.extents,
            (&c, 0, &self.space.gather),
            (&mut g, 0, map.stride().leaves()),
        );
        Ok(T::dense(g))
    }

    fn prod<T: Num>(&self, op: &'static str, cot: Dense, x: &Tensor) -> Result<Dense> {
        let c = T::cotangent(op, cot)?;
        let xs = self.terms::<T>(x)?;
        let (nout, nred) = (self.space.nout, self.space.nred);
        let mut per = vec![T::zero(); xs.len()];
        for j in 0..nout {
            let col = |r: usize| xs[j + nout * r];
            let mut zeros = (0..nred).filter(|&r| col(r) == T::zero());
            match (zeros.next(), zeros.next()) {
                // No zero: each term's cofactor is the product over the term (torch's rule).
                (None, _) => {
                    let all = (0..nred).fold(T::one(), |a, r| a * col(r));
                    for r in 0..nred {
                        per[j + nout * r] = c[j] * (all / col(r)).conj();
                    }
                }
                // One zero: only its cofactor, the product of the others, is nonzero.
                (Some(z), None) => {
                    let others = (0..nred)
                        .filter(|&r| r != z)
                        .fold(T::one(), |a, r| a * col(r));
                    per[j + nout * z] = c[j] * others.conj();
                }
                // Two zeros or more: every cofactor holds a zero.
                _ => {}
            }
        }
        Ok(T::dense(self.place(&per, x.shape())))
    }

    fn extremum<T: Num + Ordered>(
        &self,
        op: &'static str,
        cot: Dense,
        x: &Tensor,
    ) -> Result<Dense> {
        let c = T::cotangent(op, cot)?;
        let xs = self.terms::<T>(x)?;
        let (nout, nred) = (self.space.nout, self.space.nred);
        let pick = if self.r == Reduction::Max {
            max::<T>
        } else {
            min::<T>
        };
        let mut per = vec![T::zero(); xs.len()];
        for j in 0..nout {
            let col = |r: usize| xs[j + nout * r];
            let best = (0..nred).fold(col(0), |a, r| pick(a, col(r)));
            let first = (0..nred).find(|&r| {
                let v = col(r);
                v == best || (best.is_nan() && v.is_nan())
            });
            // Unreachable from user input: `best` is one of the column's own elements.
            let r = first.expect("the extremum is one of its terms");
            per[j + nout * r] = c[j];
        }
        Ok(T::dense(self.place(&per, x.shape())))
    }
}

impl Rule for ReduceRule {
    fn backward(
        &self,
        op: &'static str,
        cot: Dense,
        inputs: &[Tensor],
        _needs: &[bool],
    ) -> Result<Cotangents> {
        let x = &inputs[0];
        let g = match self.r {
            Reduction::Sum | Reduction::Mean => {
                with_num!(cot.dtype(), T => self.sum::<T>(op, cot, x.shape())?, _ => unreachable!("differentiable"))
            }
            Reduction::Prod => {
                with_num!(cot.dtype(), T => self.prod::<T>(op, cot, x)?, _ => unreachable!("differentiable"))
            }
            Reduction::Max | Reduction::Min => {
                with_real!(cot.dtype(), T => self.extremum::<T>(op, cot, x)?, _ => unreachable!("real: checked"))
            }
        };
        Ok(smallvec::smallvec![Some(g)])
    }
}
