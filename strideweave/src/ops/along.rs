//! Functions along one mode: `softmax`, `log_softmax`, `logsumexp`, `argmax`, `argmin`.
//!
//! A *fiber* is the set of elements that differ only in the chosen mode's coordinates (all
//! its leaves, first leaf fastest: a nested mode counts as one mode). Each fiber is read in
//! place through the operand's layout into a small buffer in the wide type, computed there
//! (max-shifted, so stable at any magnitude), and written out. `logsumexp` is
//! [`Reduction::LogSumExp`](crate::Reduction::LogSumExp) over the mode.

use std::ops::Range;

use crate::autograd::node::{Cotangents, rule};
use crate::carrier::Carrier;
use crate::dtype::{Element, zeroed_vec};
use crate::error::{Error, Result};
use crate::kernels::int::with_int;
use crate::kernels::math::{Math, Real, RealWide, Wide};
use crate::kernels::num::{Dense, Num, with_real};
use crate::kernels::strided::walk;
use crate::layout::{Dim, Layout, Shape};
use crate::layout::{clamp_dim, normalise_dim};
use crate::ops::math::check_function;
use crate::ops::reduce::reduce_modes;
use crate::ops::{Dest, Reduction, fresh};
use crate::tensor::Tensor;
use crate::tensor::read::read;

impl Tensor {
    /// `exp(x) / Σ exp(x)` over mode `dim` (negative counts from the end; a nested mode is
    /// one mode over all its leaves), into a fresh tensor of the same shape and dtype: real
    /// floating dtypes (f16, bf16 computed in f32). Computed max-shifted, so it is exact at
    /// any magnitude (±1e4 included); a fiber holding NaN gives NaN. Differentiable. The
    /// result is laid out in the operand's own order when the operand is dense (a compact
    /// layout in any mode order), compact otherwise.
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let t = Tensor::from_vec(vec![0.0f64, 0.0, 1e4, 1e4], &"(2,2)".parse().unwrap()).unwrap();
    /// assert_eq!(t.softmax(0).unwrap().to_vec::<f64>().unwrap(), [0.5; 4]);
    /// assert_eq!(t.softmax(-1).unwrap().to_vec::<f64>().unwrap(), [0.0, 0.0, 1.0, 1.0]);
    /// ```
    pub fn softmax(&self, dim: impl Dim) -> Result<Tensor> {
        normalised(self, "softmax", dim, false)
    }

    /// `x - logsumexp(x)` over mode `dim` (see [`softmax`](Self::softmax)): the log of the
    /// softmax, without its underflow. Differentiable.
    ///
    /// ```
    /// let t = strideweave::Tensor::from_vec(vec![0.0f64, 0.0], &"2".parse().unwrap()).unwrap();
    /// let l = t.log_softmax(0).unwrap().to_vec::<f64>().unwrap();
    /// assert_eq!(l, [-std::f64::consts::LN_2; 2]);
    /// ```
    pub fn log_softmax(&self, dim: impl Dim) -> Result<Tensor> {
        normalised(self, "log_softmax", dim, true)
    }

    /// `log Σ exp(x)` over mode `dim`, max-shifted (stable at ±1e4); the mode is removed
    /// (a rank-1 operand gives a rank-0 result). Real floating dtypes; differentiable (the
    /// gradient is the softmax). The same as `reduce` with
    /// [`Reduction::LogSumExp`](crate::Reduction::LogSumExp).
    ///
    /// ```
    /// let t = strideweave::Tensor::from_vec(vec![1e4f64, 1e4], &"2".parse().unwrap()).unwrap();
    /// let v = t.logsumexp(0).unwrap().item::<f64>().unwrap();
    /// assert!((v - (1e4 + std::f64::consts::LN_2)).abs() < 1e-9);
    /// ```
    pub fn logsumexp(&self, dim: impl Dim) -> Result<Tensor> {
        const OP: &str = "logsumexp";
        let at = Along::of(OP, self.shape(), dim)?.mode;
        let r = Reduction::LogSumExp;
        fresh(reduce_modes(self, Some(&[at]), r, OP, Dest::Fresh))
    }

    /// The index of the largest element along mode `dim`, as an i64 tensor without that
    /// mode: the *first* index on ties, and the index of the first NaN if there is one (NaN
    /// counts as the largest, as PyTorch). Over a nested mode the index is the mode's
    /// ordinal, first leaf fastest. Real floating and integer dtypes; not differentiable.
    ///
    /// ```
    /// let t = strideweave::Tensor::from_vec(vec![1.0f64, 3.0, 3.0, 0.0], &"(2,2)".parse().unwrap()).unwrap();
    /// // columns (1, 3) and (3, 0)
    /// assert_eq!(t.argmax(0).unwrap().to_vec::<i64>().unwrap(), [1, 0]);
    /// assert_eq!(t.argmax(1).unwrap().to_vec::<i64>().unwrap(), [1, 0]);
    /// ```
    pub fn argmax(&self, dim: impl Dim) -> Result<Tensor> {
        arg(self, "argmax", dim, true)
    }

    /// The index of the smallest element along mode `dim` (see [`argmax`](Self::argmax):
    /// first index on ties, NaN counts as the smallest).
    ///
    /// ```
    /// let t = strideweave::Tensor::from_vec(vec![2.0f32, 1.0, 1.0], &"3".parse().unwrap()).unwrap();
    /// assert_eq!(t.argmin(0).unwrap().item::<i64>().unwrap(), 1);
    /// ```
    pub fn argmin(&self, dim: impl Dim) -> Result<Tensor> {
        arg(self, "argmin", dim, false)
    }
}

/// The mode a function runs along (softmax, argmax, the gathers, …): its top-level index, the range of its leaves among the
/// input's depth-first leaves, and its extent (the product of those leaves).
pub(crate) struct Along {
    pub(crate) mode: usize,
    pub(crate) leaves: Range<usize>,
    pub(crate) extent: i64,
}

impl Along {
    /// Mode `dim` of `shape` (negative: counted back from the end).
    pub(crate) fn of(op: &'static str, shape: &Shape, dim: impl Dim) -> Result<Along> {
        let n = shape.rank();
        let Some(mode) = normalise_dim(dim, n) else {
            let place = match n {
                0 => "the 0 top-level modes of a rank-0 tensor, which has no mode to pick along"
                    .to_string(),
                n => format!("the {n} top-level modes, where -{n}..=-1 count back from the end"),
            };
            return Err(Error::OutOfDomain {
                op,
                what: "dim",
                value: clamp_dim(dim),
                place,
                bound: n as i64,
            });
        };
        let leaves = shape.as_int_tuple().top_spans()[mode].vals.clone();
        let extent = shape.leaves()[leaves.clone()].iter().product();
        Ok(Along {
            mode,
            leaves,
            extent,
        })
    }
}

/// Leaf strides split into those of a fiber (`leaves`) and the rest.
fn split(strides: &[i64], leaves: &Range<usize>) -> (Vec<i64>, Vec<i64>) {
    let fiber = strides[leaves.clone()].to_vec();
    let rest = (0..strides.len())
        .filter(|i| !leaves.contains(i))
        .map(|i| strides[i])
        .collect();
    (fiber, rest)
}

/// The shape without top-level mode `at` (`()` when it was the only one).
pub(crate) fn without_mode(shape: &Shape, at: usize) -> Result<Shape> {
    let kept: Vec<usize> = (0..shape.rank()).filter(|&m| m != at).collect();
    match kept.is_empty() {
        true => Ok(Shape::empty()),
        false => Ok(Layout::compact(shape).select(&kept)?.shape().clone()),
    }
}

/// The layout of a fresh result of `l`'s shape: `l`'s own strides when they place its
/// elements densely from 0 (a compact layout in some mode order), the compact layout
/// otherwise.
fn fresh_like(l: &Layout) -> Layout {
    let mut leaves: Vec<(i64, i64)> = l
        .stride()
        .leaves()
        .iter()
        .zip(l.shape().leaves())
        .filter(|(_, e)| **e != 1)
        .map(|(s, e)| (*s, *e))
        .collect();
    leaves.sort_unstable();
    let mut next = 1i64;
    for (s, e) in leaves {
        if s != next {
            return Layout::compact(l.shape());
        }
        next = s.saturating_mul(e);
    }
    l.clone()
}

/// The fibers of mode `at` of a layout `l` at offset `o` and of an output placement: for
/// each, in ordinal order of the other leaves, `f(x_offset, out_offset)`; the fiber leaves'
/// extents and strides are returned for walking inside a fiber.
struct Fibers {
    extents: Vec<i64>,
    x: Vec<i64>,
    out: Vec<i64>,
    rest_extents: Vec<i64>,
    rest_x: Vec<i64>,
    rest_out: Vec<i64>,
}

impl Fibers {
    fn new(x: &Layout, out_strides: &[i64], leaves: Range<usize>) -> Fibers {
        let ext = x.shape().leaves();
        let (fx, rx) = split(x.stride().leaves(), &leaves);
        let (fo, ro) = match out_strides.len() == ext.len() {
            true => split(out_strides, &leaves),
            // An output without the mode: its strides are the rest's already.
            false => (vec![0; leaves.len()], out_strides.to_vec()),
        };
        Fibers {
            extents: ext[leaves.clone()].to_vec(),
            x: fx,
            out: fo,
            rest_extents: split(ext, &leaves).1,
            rest_x: rx,
            rest_out: ro,
        }
    }

    /// `f(x_offset, out_offset)` for every fiber.
    fn each(&self, xo: i64, mut f: impl FnMut(i64, i64)) {
        walk(
            &self.rest_extents,
            (0, &self.rest_out),
            [(xo, &self.rest_x)],
            |d, [s]| f(s as i64, d as i64),
        );
    }

    /// The fiber at `xo` read into `buf` (widened), in ordinal order of the mode.
    fn gather<T: Math>(&self, x: &[T], xo: i64, buf: &mut Vec<T::Wide>) {
        buf.clear();
        walk(&self.extents, (xo, &self.x), [], |i, []| {
            buf.push(x[i].widen())
        });
    }

    /// `vals` (ordinal order of the mode) written to the output fiber at `d`.
    fn scatter<T: Math>(&self, out: &mut [T], d: i64, vals: &[T::Wide]) {
        let mut k = 0;
        walk(&self.extents, (d, &self.out), [], |j, []| {
            out[j] = T::narrow(vals[k]);
            k += 1;
        });
    }
}

fn normalised(t: &Tensor, op: &'static str, dim: impl Dim, log: bool) -> Result<Tensor> {
    check_function(op, t, false)?;
    let at = Along::of(op, t.shape(), dim)?.mode;
    let d = t.dtype();
    let (values, layout) = with_real!(d, T => {
        let (v, l) = softmax_values::<T>(op, t, at, log)?;
        (T::dense(v), l)
    }, _ => unreachable!("checked"));
    let out = with_real!(d, T => {
        // unreachable from user input: the values were made in this dtype just above.
        let v = T::undense(op, values)?.expect("its own dtype");
        Tensor::new(Carrier::from_vec(v), 0, layout)?
    }, _ => unreachable!("checked"));
    if !crate::autograd::node::wants(&[t]) {
        return Ok(out);
    }
    let rule = rule(move |step| {
        let (op, cot, inputs, _) = step.parts();
        let g = with_real!(cot.dtype(), T => T::dense(softmax_backward::<T>(op, cot, &inputs[0], at, log)?),
            _ => unreachable!("differentiable"));
        Ok(smallvec::smallvec![Some(g)] as Cotangents)
    });
    Ok(crate::autograd::node::attach(out, op, &[t], rule))
}

/// The softmax (or its log) of each fiber of mode `at`, in place in `w`.
fn softmax_fiber<W: RealWide>(w: &mut [W], log: bool) {
    // A fiber of −∞ alone, or one holding +∞: the shifted values hold NaN, and so does the
    // softmax, as PyTorch's.
    let m = max_of(w);
    let mut sum = W::from_f64(0.0);
    for v in w.iter_mut() {
        let e = (*v - m).exp();
        sum += e;
        if !log {
            *v = e;
        }
    }
    match log {
        true => {
            let lse = m + sum.ln();
            w.iter_mut().for_each(|v| *v = *v - lse);
        }
        false => {
            let r = W::one() / sum;
            w.iter_mut().for_each(|v| *v = *v * r);
        }
    }
}

/// The largest value (−∞ for none). NaN is skipped here: it reaches the result through the
/// sum, which it makes NaN, as a NaN anywhere in a fiber must.
fn max_of<W: RealWide>(w: &[W]) -> W {
    w.iter().fold(
        W::from_f64(f64::NEG_INFINITY),
        |m, &v| if v > m { v } else { m },
    )
}

/// [`softmax_fiber`] from a unit-stride fiber `x` straight into a unit-stride `out`, for a
/// type computed as itself (no buffer, no conversion).
fn softmax_run<T: Real>(x: &[T], out: &mut [T], log: bool) {
    let m = x
        .iter()
        .fold(T::Wide::from_f64(f64::NEG_INFINITY), |m, &v| {
            let v = v.widen();
            if v > m { v } else { m }
        });
    let mut sum = T::Wide::from_f64(0.0);
    if log {
        x.iter().for_each(|&v| sum += (v.widen() - m).exp());
        let lse = m + sum.ln();
        for (o, &v) in out.iter_mut().zip(x) {
            *o = T::narrow(v.widen() - lse);
        }
        return;
    }
    for (o, &v) in out.iter_mut().zip(x) {
        let e = (v.widen() - m).exp();
        sum += e;
        *o = T::narrow(e);
    }
    let r = T::Wide::one() / sum;
    out.iter_mut().for_each(|o| *o = T::narrow(o.widen() * r));
}

/// The result values of `softmax`/`log_softmax` and their layout.
fn softmax_values<T: Real>(
    op: &'static str,
    t: &Tensor,
    at: usize,
    log: bool,
) -> Result<(Vec<T>, Layout)> {
    let s = t.require_single(op)?;
    let layout = fresh_like(&s.layout);
    let mut out = zeroed_vec::<T>(op, t.size())?;
    let leaves = t.shape().as_int_tuple().top_spans()[at].vals.clone();
    read(t, op, |x: &[T], xo, xl: &Layout| {
        let fibers = Fibers::new(xl, layout.stride().leaves(), leaves);
        let mut buf = Vec::new();
        let n = fibers.extents.iter().product::<i64>() as usize;
        let unit = T::NATIVE && fibers.x == [1] && fibers.out == [1];
        fibers.each(xo, |xs, d| {
            if unit {
                let (xs, d) = (xs as usize, d as usize);
                return softmax_run(&x[xs..xs + n], &mut out[d..d + n], log);
            }
            fibers.gather(x, xs, &mut buf);
            softmax_fiber(&mut buf, log);
            fibers.scatter(&mut out, d, &buf);
        });
    })?;
    Ok((out, layout))
}

/// The input cotangent of `softmax` (`y ⊙ (c − Σ c⊙y)`) or `log_softmax`
/// (`c − softmax(x) ⊙ Σ c`), fiber by fiber; `c` is in ordinal order of `x`'s shape.
fn softmax_backward<T: Real>(
    op: &'static str,
    cot: Dense,
    x: &Tensor,
    at: usize,
    log: bool,
) -> Result<Vec<T>> {
    let c = T::cotangent(op, cot)?;
    let compact = Layout::compact(x.shape());
    let mut g = zeroed_vec::<T>(op, c.len())?;
    let leaves = x.shape().as_int_tuple().top_spans()[at].vals.clone();
    read(x, op, |xv: &[T], xo, xl: &Layout| {
        let fibers = Fibers::new(xl, compact.stride().leaves(), leaves);
        let (mut y, mut cf) = (Vec::new(), Vec::new());
        fibers.each(xo, |xs, d| {
            fibers.gather(xv, xs, &mut y);
            softmax_fiber(&mut y, false);
            // The cotangent's fiber: `c` is compact, so it lies where the output would.
            cf.clear();
            walk(&fibers.extents, (d, &fibers.out), [], |j, []| {
                cf.push(c[j].widen())
            });
            let zero = <T::Wide as Num>::from_f64(0.0);
            match log {
                false => {
                    let dot = y.iter().zip(&cf).fold(zero, |a, (y, c)| a + *y * *c);
                    y.iter_mut()
                        .zip(&cf)
                        .for_each(|(y, c)| *y = *y * (*c - dot));
                }
                true => {
                    let sum = cf.iter().fold(zero, |a, c| a + *c);
                    y.iter_mut().zip(&cf).for_each(|(y, c)| *y = *c - *y * sum);
                }
            }
            fibers.scatter(&mut g, d, &y);
        });
    })?;
    Ok(g)
}

fn arg(t: &Tensor, op: &'static str, dim: impl Dim, largest: bool) -> Result<Tensor> {
    t.require_single(op)?;
    let d = t.dtype();
    if !(d.is_float() || d.is_integer()) {
        return Err(Error::WrongType {
            op,
            expected: "a real floating or integer tensor (complex numbers have no order)".into(),
            found: format!("a {d} tensor"),
        });
    }
    let at = Along::of(op, t.shape(), dim)?.mode;
    let out_shape = without_mode(t.shape(), at)?;
    let idx = match d.is_float() {
        true => {
            with_real!(d, T => arg_values::<T>(op, t, at, &out_shape, largest)?, _ => unreachable!("checked"))
        }
        false => {
            with_int!(d, T => arg_values::<T>(op, t, at, &out_shape, largest)?, _ => unreachable!("checked"))
        }
    };
    Tensor::from_vec(idx, &out_shape)
}

/// The first index of the extreme of each fiber (NaN first, as the extreme), keyed by `key`.
fn arg_values<T: Element + PartialOrd>(
    op: &'static str,
    t: &Tensor,
    at: usize,
    out_shape: &Shape,
    largest: bool,
) -> Result<Vec<i64>> {
    let mut out = zeroed_vec::<i64>(op, out_shape.size())?;
    let compact = Layout::compact(out_shape);
    let leaves = t.shape().as_int_tuple().top_spans()[at].vals.clone();
    read(t, op, |x: &[T], xo, xl: &Layout| {
        let fibers = Fibers::new(xl, compact.stride().leaves(), leaves);
        // A stride-0 leaf of the mode repeats each element: walking the others (with their
        // own weights in the mode's ordinal) meets the first of every repeat, in order.
        let (mut ext, mut xs_, mut weight, mut p) = (vec![], vec![], vec![], 1i64);
        for (&e, &st) in fibers.extents.iter().zip(&fibers.x) {
            if st != 0 {
                ext.push(e);
                xs_.push(st);
                weight.push(p);
            }
            p *= e;
        }
        fibers.each(xo, |xs, d| {
            let (mut best, mut best_k) = (None::<T>, 0i64);
            walk(&ext, (xs, &xs_), [(0, &weight)], |i, [k]| {
                let k = k as i64;
                let v = x[i];
                #[allow(clippy::eq_op)]
                let nan = v != v;
                let better = match best {
                    None => true,
                    #[allow(clippy::eq_op)]
                    Some(b) if b != b => false,
                    Some(_) if nan => true,
                    Some(b) => match largest {
                        true => v > b,
                        false => v < b,
                    },
                };
                if better {
                    (best, best_k) = (Some(v), k);
                }
            });
            out[d as usize] = best_k;
        });
    })?;
    Ok(out)
}

/// `log Σ exp` of each output's terms, `xs` in iteration order (`j + nout·r`), max-shifted
/// and computed in the wide type: NaN if a term is NaN, `+inf` if one is, `-inf` if all are.
/// Each term stands for `repeat` equal ones (a broadcast mode read once): `ln(repeat)` is
/// added in the wide type.
pub(crate) fn logsumexp_columns<T: Real>(xs: &[T], nout: usize, repeat: i64) -> Vec<T> {
    let nred = xs.len().checked_div(nout).unwrap_or(0);
    let mut col = Vec::with_capacity(nred);
    let ln = <T::Wide as Num>::from_f64((repeat as f64).ln());
    (0..nout)
        .map(|j| {
            col.clear();
            col.extend((0..nred).map(|r| xs[j + nout * r].widen()));
            match repeat {
                1 => T::narrow(logsumexp_of(&col)),
                _ => T::narrow(logsumexp_of(&col) + ln),
            }
        })
        .collect()
}

/// `log Σ exp(w)`, max-shifted.
fn logsumexp_of<W: RealWide>(w: &[W]) -> W {
    let m = max_of(w);
    // A column holding +∞, or of −∞ alone (or empty), is its own answer unless it holds NaN.
    if m.to_f64().is_infinite() {
        return match w.iter().find(|v| v.is_nan()) {
            Some(&nan) => nan,
            None => m,
        };
    }
    let sum = w.iter().fold(W::from_f64(0.0), |a, &v| a + (v - m).exp());
    m + sum.ln()
}

/// The gradient of `logsumexp_columns` per term: `c_j · exp(x − lse_j)` (the softmax of
/// each column), in iteration order.
pub(crate) fn logsumexp_grads<T: Real>(xs: &[T], c: &[T]) -> Vec<T> {
    let nout = c.len();
    let nred = xs.len().checked_div(nout).unwrap_or(0);
    let mut out = vec![T::zero(); xs.len()];
    let mut col = Vec::with_capacity(nred);
    for j in 0..nout {
        col.clear();
        col.extend((0..nred).map(|r| xs[j + nout * r].widen()));
        softmax_fiber(&mut col, false);
        for (r, p) in col.iter().enumerate() {
            out[j + nout * r] = T::narrow(c[j].widen() * *p);
        }
    }
    out
}
