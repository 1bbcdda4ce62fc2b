//! Reductions on one path: [`Tensor::reduce`] (einops' `reduce` in the rearrangement
//! grammar) and its forms over whole top-level modes, [`Tensor::sum`], [`Tensor::mean`] and
//! [`Tensor::sum_modes`] (with their `_into` forms). The operand is viewed in place over an
//! *iteration space* (the result's leaves, then the reduced ones, as a compiled pattern
//! orders them; or the operand's own leaves, for whole modes), and the fold kernel
//! (`kernels/fold.rs`) folds that view into the compact result through a gather layout with
//! stride 0 on the reduced leaves. One dtype rule (`Reduction::refusal`, which the static
//! `reduce!` check evaluates too) and one backward rule serve them all. Also
//! [`Tensor::count_nonzero`].

mod backward;

use std::borrow::Cow;
use std::rc::Rc;

use crate::autograd::node::rule;
use crate::dtype::{DType, Element, zeroed_vec};
use crate::error::{Error, Result};
use crate::kernels::copy::copy;
use crate::kernels::fold::fold;
use crate::kernels::int::{Int, with_int};
use crate::kernels::num::{Num, with_num, with_real};
use crate::layout::{Layout, Shape};
use crate::ops::along::logsumexp_columns;
use crate::ops::repeat::{collapse, int_times, num_times, power, repeats};
use crate::ops::{Accepts, Dest, check_dest, deliver, finish, fresh};
use crate::pattern::Op;
use crate::pattern::run::{Plan, Prepared};
use crate::tensor::Tensor;
use crate::tensor::read::read;
use backward::{ReduceRule, distinct};

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
    /// `log Σ exp(x)`, max-shifted so it is stable at any magnitude (real floating dtypes;
    /// f16 and bf16 computed in f32). Its gradient is the softmax of each output's terms.
    LogSumExp,
}

impl Reduction {
    /// Its name as the `reduce!` macro spells it: `sum`, `mean`, `max`, `min`, `prod`,
    /// `logsumexp`.
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
            Reduction::LogSumExp => "logsumexp",
        }
    }

    /// Why dtype `d` has no reduction `self` (`None`: it has one): the one dtype rule of
    /// every reduction, evaluated at run time and, in const context, by `reduce!`'s static
    /// check, so both give this reason.
    pub(crate) const fn refusal(self, d: DType) -> Option<&'static str> {
        match self {
            Reduction::Sum if matches!(d, DType::Bool) => Some(
                "the sum of bools would be a count, not a bool, and nothing changes dtype silently: cast to an integer dtype first",
            ),
            Reduction::Mean if !d.is_differentiable() => Some(
                "the mean of integers is not an integer, and nothing changes dtype silently: take the sum, then divide",
            ),
            Reduction::Max | Reduction::Min if d.is_complex() => {
                Some("complex numbers have no order: reduce their magnitudes")
            }
            Reduction::LogSumExp if !d.is_float() => Some(
                "logsumexp is defined on real floating numbers: convert with to_dtype(DType::F32) first",
            ),
            _ => None,
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

impl Tensor {
    /// The sum of every element, as a rank-0 tensor (shape `()`, like
    /// [`Tensor::scalar`]); read it with [`item`](Self::item), differentiate from it with
    /// [`backward`](Self::backward).
    ///
    /// The sum keeps the tensor's dtype: an integer sum wraps as two's complement, like
    /// [`add`](Self::add). Bool has no sum (`Type`): a count is not a bool, and nothing
    /// changes dtype silently. It is [`reduce`](Self::reduce) of every mode with
    /// [`Reduction::Sum`].
    ///
    /// ```
    /// let i = strideweave::Tensor::from_vec(vec![100i8, 27, 1], &"3".parse().unwrap()).unwrap();
    /// assert_eq!(i.sum().unwrap().item::<i8>().unwrap(), -128); // 128 wraps
    /// let t = strideweave::Tensor::arange::<f64>(&"(2,3)".parse().unwrap());
    /// let s = t.sum().unwrap();
    /// assert_eq!((s.rank(), s.shape().to_string()), (0, "()".to_string()));
    /// assert_eq!(s.item::<f64>().unwrap(), 15.0);
    /// // A broadcast mode is read once and multiplies: 2^40 elements, at once.
    /// let one = strideweave::Tensor::from_vec(vec![0.5f64], &"(1,1)".parse().unwrap()).unwrap();
    /// let huge = one.broadcast_to(&"(1048576,1048576)".parse().unwrap()).unwrap();
    /// assert_eq!(huge.sum().unwrap().item::<f64>().unwrap(), 0.5 * 1099511627776.0);
    /// ```
    pub fn sum(&self) -> Result<Tensor> {
        fresh(reduce_modes(self, None, Reduction::Sum, "sum", Dest::Fresh))
    }

    /// The mean of every element, as a rank-0 tensor (shape `()`). Floating and complex
    /// tensors only: the mean of integers is not an integer, and neither a silently
    /// truncated integer nor a silently changed dtype is a fair answer, so an integer or
    /// bool tensor is a `Type` error (take [`sum`](Self::sum), then divide). It is
    /// [`reduce`](Self::reduce) of every mode with [`Reduction::Mean`].
    ///
    /// ```
    /// let i = strideweave::Tensor::arange::<i32>(&"4".parse().unwrap());
    /// assert!(i.mean().unwrap_err().to_string().contains("take the sum, then divide"));
    /// let t = strideweave::Tensor::arange::<f64>(&"(2,3)".parse().unwrap());
    /// assert_eq!(t.mean().unwrap().item::<f64>().unwrap(), 2.5);
    /// ```
    pub fn mean(&self) -> Result<Tensor> {
        fresh(reduce_modes(
            self,
            None,
            Reduction::Mean,
            "mean",
            Dest::Fresh,
        ))
    }

    /// [`sum`](Self::sum) into `out`, a rank-0 tensor, allocating nothing (see
    /// [`add_into`](Self::add_into) for the rules of a destination).
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let t = Tensor::arange::<f64>(&"(2,3)".parse().unwrap());
    /// let out = Tensor::scalar(0.0f64);
    /// t.sum_into(&out).unwrap();
    /// assert_eq!(out.item::<f64>().unwrap(), 15.0);
    /// ```
    pub fn sum_into(&self, out: &Tensor) -> Result<()> {
        reduce_modes(self, None, Reduction::Sum, "sum_into", Dest::Into(out)).map(drop)
    }

    /// [`mean`](Self::mean) into `out`, a rank-0 tensor (see
    /// [`add_into`](Self::add_into)).
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<f64>(&"(2,3)".parse().unwrap());
    /// let out = strideweave::Tensor::scalar(0.0f64);
    /// t.mean_into(&out).unwrap();
    /// assert_eq!(out.item::<f64>().unwrap(), 2.5);
    /// ```
    pub fn mean_into(&self, out: &Tensor) -> Result<()> {
        reduce_modes(self, None, Reduction::Mean, "mean_into", Dest::Into(out)).map(drop)
    }

    /// [`sum_modes`](Self::sum_modes) into `out` (see [`add_into`](Self::add_into)).
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<f64>(&"(2,3)".parse().unwrap());
    /// let out = strideweave::Tensor::zeros::<f64>(&"3".parse().unwrap());
    /// t.sum_modes_into(&[0], &out).unwrap(); // sums over mode 0, keeps mode 1
    /// assert_eq!(out.to_vec::<f64>().unwrap(), [1.0, 5.0, 9.0]);
    /// ```
    pub fn sum_modes_into(&self, modes: &[usize], out: &Tensor) -> Result<()> {
        reduce_modes(
            self,
            Some(modes),
            Reduction::Sum,
            "sum_modes_into",
            Dest::Into(out),
        )
        .map(drop)
    }

    /// Sums over the listed top-level modes (each a whole mode, nested or not). The result
    /// keeps the other modes in order, compactly; summing every mode gives the rank-0 shape `()`,
    /// as [`sum`](Self::sum) does. Integer sums keep their dtype and wrap; bool has none.
    /// It is [`reduce`](Self::reduce) with [`Reduction::Sum`] of the listed modes.
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<f64>(&"(2,(3,4))".parse().unwrap());
    /// let s = t.sum_modes(&[0]).unwrap();
    /// assert_eq!(s.shape().to_string(), "((3,4))");
    /// assert_eq!(s.to_vec::<f64>().unwrap()[..3], [1.0, 5.0, 9.0]);
    /// assert!(t.sum_modes(&[2]).is_err());
    /// ```
    pub fn sum_modes(&self, modes: &[usize]) -> Result<Tensor> {
        fresh(reduce_modes(
            self,
            Some(modes),
            Reduction::Sum,
            "sum_modes",
            Dest::Fresh,
        ))
    }

    /// einops' `reduce` in the rearrangement grammar: the symbols of the left
    /// side that the right side omits are folded by `reduction`, the kept ones are arranged
    /// as the right side says (groups, `1`, `...`, split leaves with keyword `sizes`, exactly
    /// as [`rearrange`](Tensor::rearrange)). An empty right side (`"a b ->"`) reduces every
    /// symbol to a rank-0 tensor. See [`Reduction`] for the dtypes each takes, NaN and
    /// gradients.
    ///
    /// The operand is read in place through the view the pattern describes (no copy), and
    /// each output receives its terms in first-mode-fastest order, so floating sums are
    /// those of a naive loop — except over a broadcast (stride-0) mode, which is read once:
    /// its repeated terms are taken by one rule per reduction (a sum is `partial · n`, a
    /// product `partial^n`, max/min the element, logsumexp `+ ln n`), so no reduction's
    /// time grows with a broadcast extent. The result is a fresh compact tensor of the operand's dtype,
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
        reduce_pattern(self, Op::Reduce, pattern, reduction, &keyword_sizes(sizes)?).map(|r| r.0)
    }
}

const OP: &str = "reduce";

/// [`Tensor::reduce`]'s path for `op` (or `EinopsReduce`): the result, and the pattern
/// as prepared (its plan and encoding, kept per thread).
pub(crate) fn reduce_pattern(
    t: &Tensor,
    op: Op,
    pattern: &str,
    r: Reduction,
    sizes: &[(&str, i64)],
) -> Result<(Tensor, Rc<Prepared>)> {
    check_dtype(t, r, op.method())?;
    let prepared = Prepared::parse(t.shape(), op, pattern, sizes)?;
    let space = Space::of(prepared.plan.clone(), t.shape());
    let out = fresh(reduce_with(t, space, r, op.method(), Dest::Fresh))?;
    Ok((out, prepared))
}

/// `reduce!`'s run-time path: the dtype checked, then `plan` (the compiler's for a static
/// tensor, the macro's pattern compiled on a dynamic tensor's shape) folded as
/// [`Tensor::reduce`] folds; every error starts with `op`'s name (`reduce!`).
pub(crate) fn reduce_code(
    t: &Tensor,
    op: Op,
    plan: impl FnOnce() -> Result<Plan>,
    reduction: Reduction,
) -> Result<Tensor> {
    let op = op.name();
    check_dtype(t, reduction, op)?;
    let space = Space::of(plan()?, t.shape());
    fresh(reduce_with(t, space, reduction, op, Dest::Fresh))
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

/// One subtensor, and a dtype that has reduction `r` (else `WrongType` naming the dtype,
/// with [`Reduction::refusal`]'s reason).
fn check_dtype(t: &Tensor, r: Reduction, op: &'static str) -> Result<()> {
    t.require_single(op)?;
    let d = t.dtype();
    let Some(why) = r.refusal(d) else {
        return Ok(());
    };
    let expected = match r {
        Reduction::Sum => Accepts::Int.expected().to_string(),
        Reduction::Mean => Accepts::Float.expected().to_string(),
        _ => format!("a tensor whose dtype has a {r}"),
    };
    Err(Error::WrongType {
        op,
        expected: format!("{expected} ({why})"),
        found: format!("a {d} tensor"),
    })
}

/// `r` over the listed top-level modes of `t` (each a whole mode, nested or not; `None`:
/// every mode, to the rank-0 shape `()`), keeping the other modes in order, compactly.
pub(crate) fn reduce_modes(
    t: &Tensor,
    modes: Option<&[usize]>,
    r: Reduction,
    op: &'static str,
    dest: Dest<'_>,
) -> Result<Option<Tensor>> {
    check_dtype(t, r, op)?;
    let rank = t.rank();
    let mut reduced = vec![modes.is_none(); rank];
    for &m in modes.unwrap_or_default() {
        if m >= rank {
            return Err(Error::OutOfDomain {
                op,
                what: "mode index",
                value: m as i64,
                place: format!("the {rank} top-level modes of shape {}", t.shape()),
                bound: rank as i64,
            });
        }
        if std::mem::replace(&mut reduced[m], true) {
            return Err(Error::InvalidAxes {
                op,
                detail: format!("mode {m} is listed twice in {modes:?}"),
            });
        }
    }
    let space = Space::modes(t.shape(), &reduced)?;
    reduce_with(t, space, r, op, dest)
}

/// The iteration space of a reduction: the view of the operand that orders its leaves for
/// the fold (`None`: the operand's own layout), its extents, the gather strides (compact
/// over the result on the kept leaves, 0 on the reduced ones), the result's shape and how
/// many outputs and terms per output there are.
struct Space {
    plan: Option<Plan>,
    extents: Vec<i64>,
    gather: Vec<i64>,
    out: Shape,
    nout: usize,
    nred: usize,
}

impl Space {
    /// The space of a compiled pattern: the result's leaves, then the reduced ones.
    fn of(plan: Plan, shape: &Shape) -> Space {
        let extents = plan
            .apply(&Layout::compact(shape))
            .shape()
            .leaves()
            .to_vec();
        let out = plan.kept_shape();
        let mut gather = Layout::compact(&out).stride().leaves().to_vec();
        gather.resize(extents.len(), 0);
        Space::new(Some(plan), extents, gather, out, shape.size())
    }

    /// The space of reducing the top-level modes of `shape` marked in `reduced`, in place:
    /// the operand's own leaves, with stride 0 on the reduced modes' leaves.
    fn modes(shape: &Shape, reduced: &[bool]) -> Result<Space> {
        let kept: Vec<usize> = (0..reduced.len()).filter(|&m| !reduced[m]).collect();
        let out = match kept.is_empty() {
            true => Shape::empty(),
            false => Layout::compact(shape).select(&kept)?.shape().clone(),
        };
        let mut next = Layout::compact(&out).stride().leaves().to_vec().into_iter();
        let mut gather = vec![0i64; shape.leaves().len()];
        let spans = shape.as_int_tuple().top_spans();
        for span in spans
            .iter()
            .zip(reduced)
            .filter(|(_, r)| !**r)
            .map(|(s, _)| s)
        {
            for leaf in span.vals.clone() {
                // unreachable from user input: `out` is the compact shape of the kept modes,
                // so it has one stride per kept leaf.
                gather[leaf] = next.next().expect("one stride per kept leaf");
            }
        }
        Ok(Space::new(
            None,
            shape.leaves().to_vec(),
            gather,
            out,
            shape.size(),
        ))
    }

    fn new(
        plan: Option<Plan>,
        extents: Vec<i64>,
        gather: Vec<i64>,
        out: Shape,
        size: usize,
    ) -> Space {
        let nout = out.size();
        Space {
            plan,
            extents,
            gather,
            nred: size.checked_div(nout).unwrap_or(0),
            out,
            nout,
        }
    }

    /// The operand `x` in iteration order (`j + nout·r`: output `j`'s term `r`).
    fn terms<T: Element>(&self, op: &'static str, x: &Tensor) -> Result<Vec<T>> {
        let mut out = zeroed_vec(op, self.nout * self.nred)?;
        read(x, op, |v: &[T], o, l| {
            let view = self.view(l);
            copy(
                &self.extents,
                (v, o, view.stride().leaves()),
                (&mut out, 0, &self.compact()),
            );
        })?;
        Ok(out)
    }

    /// The view of `l`, a layout of the operand's shape, over the iteration space.
    fn view<'a>(&self, l: &'a Layout) -> Cow<'a, Layout> {
        match &self.plan {
            Some(plan) => Cow::Owned(plan.apply(l)),
            None => Cow::Borrowed(l),
        }
    }

    /// This space with the reduced leaves that `l` (the operand's layout) reads with stride
    /// 0 set to extent 1, and how often each remaining term repeats; `None`: no such leaf.
    fn walked(&self, l: &Layout) -> Option<(Space, i64)> {
        if !l.stride().leaves().contains(&0) {
            return None; // the view only regroups leaves: no stride 0 (the common case)
        }
        let view = self.view(l);
        let strides = view.stride().leaves();
        if !repeats(&self.extents, &self.gather, strides) {
            return None;
        }
        let mut extents = self.extents.clone();
        let n = collapse(&mut extents, &self.gather, strides);
        let (plan, gather, out) = (self.plan.clone(), self.gather.clone(), self.out.clone());
        let size = self.nout * (self.nred / n as usize);
        Some((Space::new(plan, extents, gather, out, size), n))
    }

    /// The strides that place term `r` of output `j` at `j + nout·r`: a kept leaf's gather
    /// stride, and `nout` times the compact strides of the reduced leaves on the others.
    fn compact(&self) -> Vec<i64> {
        let mut p = self.nout as i64;
        let place = |(&e, &g): (&i64, &i64)| match g {
            0 => {
                let s = p;
                p *= e;
                s
            }
            g => g,
        };
        self.extents.iter().zip(&self.gather).map(place).collect()
    }
}

/// Folds `t` (checked) over `space` by `r`, into a fresh tensor or the checked destination.
/// Reduced leaves that read `t` with stride 0 are walked once (`ops/repeat.rs`).
fn reduce_with(
    t: &Tensor,
    space: Space,
    r: Reduction,
    op: &'static str,
    dest: Dest<'_>,
) -> Result<Option<Tensor>> {
    let d = t.dtype();
    check_dest(op, dest, &[t], d, &space.out)?;
    let walked = space.walked(t.layout());
    let (w, n) = walked.as_ref().map_or((&space, 1), |(w, n)| (w, *n));
    if d == DType::Bool {
        // Checked: bool takes max (any), min (all) and prod (all), all blind to repeats.
        let values = match r {
            Reduction::Max => fold_all(op, t, w, false, |a, p: bool| a | p)?,
            _ => fold_all(op, t, w, true, |a, p: bool| a & p)?,
        };
        return deliver(op, dest, values, &space.out);
    }
    if d.is_integer() {
        return with_int!(d, T => {
            let mut values = match r {
                Reduction::Sum => fold_all(op, t, w, T::zero(), |a, p: T| a.wadd(p))?,
                Reduction::Prod => fold_all(op, t, w, T::ONE, |a, p: T| a.wmul(p))?,
                Reduction::Max => fold_all(op, t, w, T::LOW, max::<T>)?,
                Reduction::Min => fold_all(op, t, w, T::HIGH, min::<T>)?,
                Reduction::Mean | Reduction::LogSumExp => unreachable!("checked: integers have neither"),
            };
            match r {
                Reduction::Sum if n > 1 => int_times(&mut values, n),
                Reduction::Prod if n > 1 => values.iter_mut().for_each(|v| *v = power(*v, n, T::wmul)),
                _ => {}
            }
            deliver(op, dest, values, &space.out)
        }, _ => unreachable!("an integer dtype"));
    }
    let values = match r {
        Reduction::LogSumExp => with_real!(d, T => {
            T::dense(logsumexp_columns(&w.terms::<T>(op, t)?, w.nout, n))
        }, _ => unreachable!("checked: a real floating dtype")),
        Reduction::Max | Reduction::Min => with_real!(d, T => {
            let v = match r {
                Reduction::Max => fold_all(op, t, w, T::LOW, max::<T>)?,
                _ => fold_all(op, t, w, T::HIGH, min::<T>)?,
            };
            T::dense(v)
        }, _ => unreachable!("checked: a real floating dtype")),
        _ => with_num!(d, T => {
            let mut v = match r {
                Reduction::Prod => fold_all(op, t, w, T::one(), |a, p: T| a * p)?,
                _ => fold_all(op, t, w, T::zero(), |a, p: T| a + p)?,
            };
            match r {
                Reduction::Prod if n > 1 => v.iter_mut().for_each(|x| *x = power(*x, n, |a, b| a * b)),
                _ if n > 1 => num_times(&mut v, n),
                _ => {}
            }
            if r == Reduction::Mean {
                let n = T::from_f64(space.nred as f64);
                v.iter_mut().for_each(|x| *x /= n);
            }
            T::dense(v)
        }, _ => unreachable!("checked: a floating or complex dtype")),
    };
    let out = space.out.clone();
    // Recorded against the distinct terms when some repeat (`reduce/backward.rs`).
    let (x, space, n) = match &walked {
        Some(w) if crate::autograd::node::wants(&[t]) => {
            let (x, over) = distinct(op, t, &space, w)?;
            (Cow::Owned(x), over, w.1)
        }
        _ => (Cow::Borrowed(t), space, 1),
    };
    finish(op, dest, &[&x], values, &out, || {
        let grads = ReduceRule { space, r, n };
        rule(move |step| grads.backward(step.op, step.cot, &step.inputs[0]))
    })
}

/// `f`-folds every term of each output of `t` into a fresh compact vector, from `init`.
fn fold_all<T: Element>(
    op: &'static str,
    t: &Tensor,
    space: &Space,
    init: T,
    f: impl Fn(T, T) -> T + Sync,
) -> Result<Vec<T>> {
    let mut acc = zeroed_vec(op, space.nout)?;
    if init != T::zero() {
        acc.fill(init);
    }
    read(t, op, |x: &[T], o, l| {
        let view = space.view(l);
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
