//! Sums and means.

use crate::autograd::node::{Cotangents, Rule};
use crate::dtype::zeroed_vec;
use crate::dtype::{Element, Scalar};
use crate::error::{Error, Result};
use crate::kernels::copy::copy;
use crate::kernels::fold::fold;
use crate::kernels::num::{Dense, Num, with_num};
use crate::layout::{Layout, Shape};
use crate::ops::engine::side;
use crate::ops::{Accepts, Dest, check_dest, check_operand_for, exact, finish, fresh};
use crate::tensor::Tensor;
use crate::tensor::read::read;

impl Tensor {
    /// The sum of every element, as a rank-0 tensor (shape `()`, like
    /// [`Tensor::scalar`]); read it with [`item`](Self::item), differentiate from it with
    /// [`backward`](Self::backward).
    ///
    /// The sum keeps the tensor's dtype: an integer sum wraps as two's complement, like
    /// [`add`](Self::add). Bool has no sum (`Type`): a count is not a bool, and nothing
    /// changes dtype silently.
    ///
    /// ```
    /// let i = strideweave::Tensor::from_vec(vec![100i8, 27, 1], &"3".parse().unwrap()).unwrap();
    /// assert_eq!(i.sum().unwrap().item::<i8>().unwrap(), -128); // 128 wraps
    /// let t = strideweave::Tensor::arange::<f64>(&"(2,3)".parse().unwrap());
    /// let s = t.sum().unwrap();
    /// assert_eq!((s.rank(), s.shape().to_string()), (0, "()".to_string()));
    /// assert_eq!(s.item::<f64>().unwrap(), 15.0);
    /// ```
    pub fn sum(&self) -> Result<Tensor> {
        fresh(total(self, "sum", false, Dest::Fresh))
    }

    /// The mean of every element, as a rank-0 tensor (shape `()`). Floating and complex
    /// tensors only: the mean of integers is not an integer, and neither a silently
    /// truncated integer nor a silently changed dtype is a fair answer, so an integer or
    /// bool tensor is a `Type` error (take [`sum`](Self::sum), then divide).
    ///
    /// ```
    /// let i = strideweave::Tensor::arange::<i32>(&"4".parse().unwrap());
    /// assert!(i.mean().unwrap_err().to_string().contains("take the sum, then divide"));
    /// let t = strideweave::Tensor::arange::<f64>(&"(2,3)".parse().unwrap());
    /// assert_eq!(t.mean().unwrap().item::<f64>().unwrap(), 2.5);
    /// ```
    pub fn mean(&self) -> Result<Tensor> {
        fresh(total(self, "mean", true, Dest::Fresh))
    }

    /// The number of elements that are not zero, as a rank-0 `i64` tensor: the count of a
    /// bool mask's `true`s (a bool has no [`sum`](Self::sum): a count is not a bool), of an
    /// integer or floating tensor's non-zero values (`-0.0` is zero, NaN is not: numpy's
    /// `count_nonzero`), of a complex tensor's values with a non-zero part. Any layout,
    /// broadcast views included (each logical element counts once per coordinate); every
    /// dtype but the block-scaled one (dequantize it first). Not differentiable (a count
    /// has no gradient); the result does not record.
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let mask = Tensor::from_vec(vec![true, false, true, true], &"(2,2)".parse().unwrap()).unwrap();
    /// assert_eq!(mask.count_nonzero().unwrap().item::<i64>().unwrap(), 3);
    /// let x = Tensor::from_vec(vec![0.0f64, -0.0, 2.5, f64::NAN], &"4".parse().unwrap()).unwrap();
    /// assert_eq!(x.count_nonzero().unwrap().item::<i64>().unwrap(), 2);
    /// let row = Tensor::arange::<i32>(&"(3,1)".parse().unwrap()); // 0, 1, 2
    /// let b = row.broadcast_to(&"(3,4)".parse().unwrap()).unwrap();
    /// assert_eq!(b.count_nonzero().unwrap().item::<i64>().unwrap(), 8);
    /// ```
    pub fn count_nonzero(&self) -> Result<Tensor> {
        const OP: &str = "count_nonzero";
        let s = self.require_single(OP)?;
        let (o, l) = (s.offset as i64, &s.layout);
        let count = s.carrier.with_host(OP, |b| {
            Ok((0..l.size() as i64)
                .filter(|&i| nonzero(b.get((o + l.eval(i)) as usize)))
                .count())
        })?;
        Ok(Tensor::scalar(count as i64))
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
        total(self, "sum_into", false, Dest::Into(out)).map(|_| ())
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
        total(self, "mean_into", true, Dest::Into(out)).map(|_| ())
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
        sum_modes(self, modes, "sum_modes_into", Dest::Into(out)).map(|_| ())
    }

    /// Sums over the listed top-level modes (each a whole mode, nested or not). The result
    /// keeps the other modes in order, compactly; summing every mode gives the rank-0 shape `()`,
    /// as [`sum`](Self::sum) does. Integer sums keep their dtype and wrap; bool has none.
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<f64>(&"(2,(3,4))".parse().unwrap());
    /// let s = t.sum_modes(&[0]).unwrap();
    /// assert_eq!(s.shape().to_string(), "((3,4))");
    /// assert_eq!(s.to_vec::<f64>().unwrap()[..3], [1.0, 5.0, 9.0]);
    /// assert!(t.sum_modes(&[2]).is_err());
    /// ```
    pub fn sum_modes(&self, modes: &[usize]) -> Result<Tensor> {
        fresh(sum_modes(self, modes, "sum_modes", Dest::Fresh))
    }
}

/// Why a bool tensor has no sum.
const NO_BOOL_SUM: &str =
    " (the sum of bools would be a count, not a bool, and nothing changes dtype silently)";

/// Why an integer tensor has no mean.
const NO_INTEGER_MEAN: &str = " (the mean of integers is not an integer, and nothing changes dtype silently: take the sum, then divide)";

fn sum_modes(
    t: &Tensor,
    modes: &[usize],
    op: &'static str,
    dest: Dest<'_>,
) -> Result<Option<Tensor>> {
    check_operand_for(op, t, Accepts::Int, NO_BOOL_SUM)?;
    let rank = t.rank();
    let mut summed = vec![false; rank];
    for &m in modes {
        if m >= rank {
            return Err(Error::OutOfDomain {
                op,
                what: "mode index",
                value: m as i64,
                place: format!("the {rank} top-level modes of shape {}", t.shape()),
                bound: rank as i64,
            });
        }
        if std::mem::replace(&mut summed[m], true) {
            return Err(Error::InvalidAxes {
                op,
                detail: format!("mode {m} is listed twice in {modes:?}"),
            });
        }
    }
    let kept: Vec<usize> = (0..rank).filter(|&m| !summed[m]).collect();
    if kept.is_empty() {
        return total(t, op, false, dest);
    }
    let out_shape = Layout::compact(t.shape()).select(&kept)?.shape().clone();
    check_dest(op, dest, &[t], t.dtype(), &out_shape)?;
    let gather = gather_layout(t.shape(), &summed, &out_shape);
    if !t.dtype().is_differentiable() {
        return exact::sum_modes(op, t, &gather, &out_shape, dest);
    }
    let values = with_num!(t.dtype(), T => {
        let mut acc = zeroed_vec(op, out_shape.size())?;
        read(t, op, |x: &[T], o, l| {
            fold(l.shape().leaves(), side(x, o, l), (&mut acc, 0, gather.stride().leaves()), |a, p| a + p);
        })?;
        T::dense(acc)
    }, _ => unreachable!("checked"));
    finish(op, dest, &[t], values, &out_shape, || {
        Box::new(SumModes { gather })
    })
}

/// The layout over `shape` that sends each coordinate to the ordinal of its image in the
/// compact `out` (the kept modes, in order): stride 0 on summed modes.
fn gather_layout(shape: &Shape, summed: &[bool], out: &Shape) -> Layout {
    let spans = shape.as_int_tuple().top_spans();
    let out_strides = Layout::compact(out).stride().leaves().to_vec();
    let mut strides = vec![0i64; shape.leaves().len()];
    let mut next = out_strides.into_iter();
    for (span, &s) in spans.iter().zip(summed) {
        for leaf in span.vals.clone() {
            if !s {
                // unreachable from user input: `out` is the compact shape of the kept modes, so it has one stride per kept leaf.
                strides[leaf] = next.next().expect("one stride per kept leaf");
            }
        }
    }
    Layout::from_valid(
        shape.profile(),
        shape.leaves(),
        &strides[..],
        shape.as_int_tuple().is_int(),
    )
}

fn total(t: &Tensor, op: &'static str, mean: bool, dest: Dest<'_>) -> Result<Option<Tensor>> {
    match mean {
        true => check_operand_for(op, t, Accepts::Float, NO_INTEGER_MEAN)?,
        false => check_operand_for(op, t, Accepts::Int, NO_BOOL_SUM)?,
    }
    let shape = Shape::empty();
    check_dest(op, dest, &[t], t.dtype(), &shape)?;
    if !t.dtype().is_differentiable() {
        return exact::total(op, t, dest);
    }
    let n = t.size();
    let values = with_num!(t.dtype(), T => {
        let s = read(t, op, |x: &[T], o, l| total_in(x, o, l, |a, p| a + p))?;
        T::dense(vec![if mean { s / T::from_f64(n as f64) } else { s }])
    }, _ => unreachable!("checked"));
    finish(op, dest, &[t], values, &shape, || {
        Box::new(Total { n, mean })
    })
}

/// `f`-fold of every element of `x` placed by `l` at `o`, from zero, in ordinal order.
pub(super) fn total_in<T: Element>(x: &[T], o: i64, l: &Layout, f: impl Fn(T, T) -> T) -> T {
    let mut acc = [T::zero()];
    let zeros = vec![0; l.shape().leaves().len()];
    fold(l.shape().leaves(), side(x, o, l), (&mut acc, 0, &zeros), f);
    acc[0]
}

/// Backward of `sum`/`mean`: the one cotangent value (over `n` for a mean) everywhere —
/// a splat, one value read through stride 0 by whatever consumes it (the gradient buffer
/// is filled from it by the copy engine); no tensor of ones and no vector of copies is
/// made, and nothing is multiplied.
struct Total {
    n: usize,
    mean: bool,
}

impl Rule for Total {
    fn backward(
        &self,
        _op: &'static str,
        cot: Dense,
        _inputs: &[Tensor],
        _needs: &[bool],
    ) -> Result<Cotangents> {
        fn go<T: Num>(r: &Total, cot: Dense) -> Dense {
            // unreachable from user input: the engine passes the result's cotangent (one
            // value, never a splat wider than one) in its dtype.
            let (c, _) = T::undense_strided(&cot).expect("the result's dtype");
            let c = c[0];
            let c = if r.mean {
                c / T::from_f64(r.n as f64)
            } else {
                c
            };
            T::splat(c, r.n)
        }
        let g =
            with_num!(cot.dtype(), T => go::<T>(self, cot), _ => unreachable!("differentiable"));
        Ok(smallvec::smallvec![Some(g)])
    }
}

/// Backward of `sum_modes`: `g[k] = c[G(k)]`, the cotangent read through `G` — a view of
/// it with stride 0 on the summed modes — by the copy engine (stride-0 fills and memcpy
/// runs) straight into the first-mode-fastest gradient; a splat cotangent (a `sum` after
/// it) stays a splat.
struct SumModes {
    gather: Layout,
}

impl Rule for SumModes {
    fn backward(
        &self,
        op: &'static str,
        cot: Dense,
        _inputs: &[Tensor],
        _needs: &[bool],
    ) -> Result<Cotangents> {
        fn go<T: Num>(op: &'static str, gather: &Layout, cot: Dense) -> Result<Dense> {
            if let Some((c, true)) = T::undense_strided(&cot) {
                // One value everywhere stays one value everywhere.
                return Ok(T::splat(c[0], gather.size()));
            }
            let c = T::cotangent(op, cot)?;
            let mut g = zeroed_vec(op, gather.size())?;
            let order = Layout::compact(gather.shape());
            copy(
                gather.shape().leaves(),
                (&c, 0, gather.stride().leaves()),
                (&mut g, 0, order.stride().leaves()),
            );
            Ok(T::dense(g))
        }
        let g = with_num!(cot.dtype(), T => go::<T>(op, &self.gather, cot)?, _ => unreachable!("differentiable"));
        Ok(smallvec::smallvec![Some(g)])
    }
}

/// Whether `v` counts for [`Tensor::count_nonzero`]: `true`, a non-zero number (NaN
/// included), a complex value with a non-zero part.
fn nonzero(v: Scalar) -> bool {
    match v {
        Scalar::Bool(b) => b,
        Scalar::ComplexF32(z) => z.re != 0.0 || z.im != 0.0,
        Scalar::ComplexF64(z) => z.re != 0.0 || z.im != 0.0,
        // A non-zero integer is a non-zero `f64`; NaN compares unequal to 0.
        other => other.to_f64() != 0.0,
    }
}
