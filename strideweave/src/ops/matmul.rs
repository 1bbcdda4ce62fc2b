//! The product of two rank-2 tensors.
//!
//! A rank-2 tensor is a matrix whose row and column coordinates are its two top-level modes
//! (each may be nested). When each mode coalesces to one stride — any sign, zero included —
//! f32, f64, c32 and c64 products run in the `gemm` crate's packed kernels (on rayon's pool
//! above a size threshold, bit-identical to one thread) straight from the operands'
//! carriers, writing straight into the result (a fresh compact vector, or the `_into`
//! destination at its own strides when its two modes coalesce too and it shares no carrier
//! with an operand); otherwise, and for the other dtypes, a plain loop over precomputed row
//! and column offsets does. Either way nothing is copied before the product.

use crate::autograd::node::{Cotangents, Step, rule};
use crate::budget::reserved_vec;
use crate::dtype::zeroed_vec;
use crate::error::{Error, Result};
use crate::kernels::num::{Num, with_num};
use crate::kernels::strided::walk1;
use crate::layout::{IntTuple, Layout, Shape};
use crate::ops::{Dest, check_dest, check_pair, finish, fresh};
use crate::tensor::Tensor;
use crate::tensor::read::{read, read2, read2_write};

const OP: &str = "matmul";

impl Tensor {
    /// The matrix product: matrix × matrix `(m, k) · (k, n) → (m, n)`,
    /// matrix × vector `(m, k) · (k) → (m)` (the vector is a column), vector × matrix
    /// `(k) · (k, n) → (n)`, and batched matrix × matrix over leading modes of equal shapes
    /// `(b…, m, k) · (b…, k, n) → (b…, m, n)` (no broadcasting: the batch modes must be
    /// equal). The inner modes' shapes must be equal; a mismatch is a
    /// [`DimensionMismatch`](crate::Error::DimensionMismatch) naming both. The result is
    /// compact (first-mode-fastest: column-major as a matrix) and keeps the nesting of the
    /// outer modes. Two vectors are refused: [`dot`](Self::dot) and [`outer`](Self::outer)
    /// say which product is meant. Integer tensors multiply with wrapping arithmetic.
    ///
    /// ```
    /// use strideweave::Tensor;
    /// // Row-major data enters through an explicit constructor: the default order is
    /// // first mode fastest.
    /// let a = Tensor::from_vec_row_major(vec![1.0f64, 2.0, 3.0, 4.0, 5.0, 6.0], &"(2,3)".parse().unwrap()).unwrap();
    /// let b = a.permute(&[1, 0]).unwrap(); // Aᵀ, a view
    /// let c = a.matmul(&b).unwrap();
    /// assert_eq!(c.to_vec_row_major::<f64>().unwrap(), [14.0, 32.0, 32.0, 77.0]);
    /// assert!(a.matmul(&a).is_err());
    ///
    /// // Matrix × vector and a batch of two products.
    /// let v = Tensor::from_vec(vec![1.0f64, 0.0, -1.0], &"3".parse().unwrap()).unwrap();
    /// assert_eq!(a.matmul(&v).unwrap().to_vec::<f64>().unwrap(), [-2.0, -2.0]);
    /// let x = Tensor::arange::<f64>(&"(2,2,3)".parse().unwrap());
    /// let y = Tensor::arange::<f64>(&"(2,3,4)".parse().unwrap());
    /// assert_eq!(x.matmul(&y).unwrap().shape().to_string(), "(2,2,4)");
    /// ```
    pub fn matmul(&self, other: &Tensor) -> Result<Tensor> {
        // Floating and complex matrices keep their own path (with `matmul_into`'s kernel);
        // integers and the other forms run on the contraction core.
        if self.rank() == 2 && other.rank() == 2 && self.dtype().is_differentiable() {
            return fresh(matmul(self, other, OP, Dest::Fresh));
        }
        let spec = crate::ops::contract::matmul_spec(OP, self, other)?;
        crate::ops::contract::run(OP, self, Some(other), spec)
    }

    /// [`matmul`](Self::matmul) of two matrices (rank 2) into `out`, allocating nothing (see
    /// [`add_into`](Self::add_into) for the rules of a destination). `out` may share a
    /// carrier with an operand: the product is computed first, then written.
    ///
    /// ```
    /// let a = strideweave::Tensor::arange::<f32>(&"(2,2)".parse().unwrap());
    /// let out = strideweave::Tensor::zeros::<f32>(&"(2,2)".parse().unwrap());
    /// a.matmul_into(&a, &out).unwrap();
    /// assert_eq!(out.to_vec::<f32>().unwrap(), [2.0, 3.0, 6.0, 11.0]);
    /// ```
    pub fn matmul_into(&self, other: &Tensor, out: &Tensor) -> Result<()> {
        matmul(self, other, "matmul_into", Dest::Into(out)).map(|_| ())
    }
}

fn matmul(a: &Tensor, b: &Tensor, op: &'static str, dest: Dest<'_>) -> Result<Option<Tensor>> {
    check_pair(op, a, b)?;
    crate::ops::require_rank(
        op,
        2,
        [
            ("top-level modes (rows, columns) of the left operand", a),
            ("top-level modes (rows, columns) of the right operand", b),
        ],
    )?;
    let (a0, a1) = modes(a)?;
    let (b0, b1) = modes(b)?;
    if a1.shape() != b0.shape() {
        return Err(crate::ops::contract::inner_mismatch(
            op,
            a1.shape(),
            b0.shape(),
        ));
    }
    let shape = Shape::new(IntTuple::tuple([
        a0.shape().as_int_tuple().clone(),
        b1.shape().as_int_tuple().clone(),
    ]))?;
    check_dest(op, dest, &[a, b], a.dtype(), &shape)?;
    let values = with_num!(a.dtype(), T => {
        if let Dest::Into(out) = dest
            && gemm_into::<T>(op, (a, &a0, &a1), (b, &b0, &b1), out)?
        {
            return Ok(None);
        }
        // Offsets and the result are allocated (fallibly) before any lock is taken.
        let (ra, ca) = (Axis::of(op, &a0)?, Axis::of(op, &a1)?);
        let (rb, cb) = (Axis::of(op, &b0)?, Axis::of(op, &b1)?);
        let mut c = product_buffer::<T>(op, &ra, &cb)?;
        read2(a, b, op, |(x, ox, _), (y, oy, _)| {
            product::<T>(
                op,
                Operand { data: x, offset: ox, rows: ra, cols: ca },
                Operand { data: y, offset: oy, rows: rb, cols: cb },
                &mut c,
            )
        })??;
        T::dense(c)
    }, _ => unreachable!("checked"));
    finish(op, dest, &[a, b], values, &shape, || {
        rule(
            |step| with_num!(step.cot.dtype(), T => matmul_backward::<T>(step), _ => unreachable!("differentiable")),
        )
    })
}

/// `out ← A·B` straight into the destination by the gemm kernel, when `T` has one, every
/// mode of the operands and of `out` coalesces to one stride, and `out` shares no carrier
/// with an operand (checked destination); `false` (nothing written) otherwise.
fn gemm_into<T: Num>(
    op: &'static str,
    (a, a0, a1): (&Tensor, &Layout, &Layout),
    (b, b0, b1): (&Tensor, &Layout, &Layout),
    out: &Tensor,
) -> Result<bool> {
    use crate::carrier::Carrier;
    if !T::GEMM
        || Carrier::same(out.carrier(), a.carrier())
        || Carrier::same(out.carrier(), b.carrier())
    {
        return Ok(false);
    }
    let (c0, c1) = modes(out)?;
    let axes = [a0, a1, b0, b1, &c0, &c1].map(Axis::stride_of);
    let [
        Some(rsa),
        Some(csa),
        Some(rsb),
        Some(csb),
        Some(rsc),
        Some(csc),
    ] = axes
    else {
        return Ok(false);
    };
    let (m, k, n) = (a0.size(), a1.size(), b1.size());
    let oc = out.offset() as i64;
    read2_write(
        a,
        b,
        out,
        op,
        |(x, ox, _): (&[T], i64, _), (y, oy, _), z| {
            T::gemm(
                (m, k, n),
                (x, ox, rsa, csa),
                (y, oy, rsb, csb),
                (z, oc, rsc, csc),
            )
        },
    )
}

/// The two top-level modes of a rank-2 tensor's layout.
fn modes(t: &Tensor) -> Result<(Layout, Layout)> {
    Ok((t.layout().mode(0)?, t.layout().mode(1)?))
}

/// One axis of a matrix operand: `n` offsets, regular (`i · stride`) or listed.
enum Axis {
    Strided { n: usize, stride: i64 },
    Listed(Vec<i64>),
}

impl Axis {
    /// The offsets of a mode: one stride when the mode coalesces to one leaf, else the
    /// list of its offsets (reserved fallibly: a mode's size comes from the user).
    fn of(op: &'static str, mode: &Layout) -> Result<Axis> {
        if let Some(stride) = Axis::stride_of(mode) {
            return Ok(Axis::Strided {
                n: mode.size(),
                stride,
            });
        }
        let mut v = reserved_vec(op, mode.size())?;
        v.extend((0..mode.size() as i64).map(|i| mode.eval(i)));
        Ok(Axis::Listed(v))
    }

    /// The one stride of a mode that coalesces to one leaf (`None`: it does not).
    fn stride_of(mode: &Layout) -> Option<i64> {
        let c = mode.coalesce();
        match c.stride().leaves() {
            [d] => Some(*d),
            _ => None,
        }
    }

    fn len(&self) -> usize {
        match self {
            Axis::Strided { n, .. } => *n,
            Axis::Listed(v) => v.len(),
        }
    }

    fn stride(&self) -> Option<i64> {
        match self {
            Axis::Strided { stride, .. } => Some(*stride),
            Axis::Listed(_) => None,
        }
    }

    /// The offsets of the mode, listed (a strided mode's computed, a listed mode's
    /// borrowed): only the plain loop asks, after the `m × n` result fit in memory.
    fn offsets(&self, op: &'static str) -> Result<std::borrow::Cow<'_, [i64]>> {
        match self {
            Axis::Strided { n, stride } => {
                let mut v = reserved_vec(op, *n)?;
                v.extend((0..*n as i64).map(|i| i * stride));
                Ok(v.into())
            }
            Axis::Listed(v) => Ok(v[..].into()),
        }
    }
}

/// A matrix read in place: element `(i, j)` is `data[offset + rows[i] + cols[j]]`.
struct Operand<'a, T> {
    data: &'a [T],
    offset: i64,
    rows: Axis,
    cols: Axis,
}

impl<T> Operand<'_, T> {
    fn t(self) -> Self {
        Operand {
            data: self.data,
            offset: self.offset,
            rows: self.cols,
            cols: self.rows,
        }
    }
}

/// Zeros for the compact `m × n` product of a matrix with rows `rows` and one with
/// columns `cols`, reserved fallibly (`m · n` is a valid shape's size: it fits in `i64`).
fn product_buffer<T: Num>(op: &'static str, rows: &Axis, cols: &Axis) -> Result<Vec<T>> {
    let len = rows.len().checked_mul(cols.len()).ok_or(Error::Overflow {
        op,
        what: "the size of the product",
    })?;
    zeroed_vec(op, len)
}

/// `A · B` into `c`, zeros, a compact (`m × n`, strides `(1, m)`) buffer.
fn product<T: Num>(
    op: &'static str,
    a: Operand<'_, T>,
    b: Operand<'_, T>,
    c: &mut [T],
) -> Result<()> {
    let (m, k, n) = (a.rows.len(), a.cols.len(), b.cols.len());
    debug_assert_eq!(k, b.rows.len());
    debug_assert_eq!(c.len(), m * n);
    if let (Some(rsa), Some(csa), Some(rsb), Some(csb)) = (
        a.rows.stride(),
        a.cols.stride(),
        b.rows.stride(),
        b.cols.stride(),
    ) && T::gemm(
        (m, k, n),
        (a.data, a.offset, rsa, csa),
        (b.data, b.offset, rsb, csb),
        (c, 0, 1, m as i64),
    ) {
        return Ok(());
    }
    let (ra, ca, rb, cb) = (
        a.rows.offsets(op)?,
        a.cols.offsets(op)?,
        b.rows.offsets(op)?,
        b.cols.offsets(op)?,
    );
    for (j, &cbj) in cb.iter().enumerate() {
        let col = &mut c[j * m..(j + 1) * m];
        for (&cap, &rbp) in ca.iter().zip(rb.iter()) {
            let y = b.data[(b.offset + rbp + cbj) as usize];
            for (ci, &rai) in col.iter_mut().zip(ra.iter()) {
                *ci += a.data[(a.offset + rai + cap) as usize] * y;
            }
        }
    }
    Ok(())
}

/// A compact `rows × cols` matrix as an [`Operand`].
fn compact<T>(data: &[T], rows: usize, cols: usize) -> Operand<'_, T> {
    Operand {
        data,
        offset: 0,
        rows: Axis::Strided { n: rows, stride: 1 },
        cols: Axis::Strided {
            n: cols,
            stride: rows as i64,
        },
    }
}

fn matmul_backward<T: Num>(step: Step<'_>) -> Result<Cotangents> {
    let (op, cot, inputs, needs) = step.parts();
    let c = T::cotangent(op, cot)?;
    let (a, b) = (&inputs[0], &inputs[1]);
    let (m, n) = (modes(a)?.0.size(), modes(b)?.1.size());
    let ga = needs[0].then(|| {
        with_adjoint(op, b, a.size(), |bt, g| {
            product(op, compact(&c, m, n), bt, g)
        })
    });
    let gb = needs[1].then(|| {
        with_adjoint(op, a, b.size(), |at, g| {
            product(op, at, compact(&c, m, n), g)
        })
    });
    Ok(smallvec::smallvec![
        ga.transpose()?.map(T::dense),
        gb.transpose()?.map(T::dense)
    ])
}

/// A fresh zeroed gradient of `len` elements, filled by `f(xᴴ, g)` with `xᴴ` the conjugate
/// transpose of matrix `x`: `x` itself, read in place and transposed, for real types; a
/// conjugated compact copy for complex ones.
fn with_adjoint<T: Num>(
    op: &'static str,
    x: &Tensor,
    len: usize,
    f: impl FnOnce(Operand<'_, T>, &mut [T]) -> Result<()>,
) -> Result<Vec<T>> {
    let (x0, x1) = modes(x)?;
    let (rows, cols) = (Axis::of(op, &x1)?, Axis::of(op, &x0)?);
    let mut g = zeroed_vec(op, len)?;
    if T::COMPLEX {
        let xc = conj_compact::<T>(op, x)?;
        f(compact(&xc, x0.size(), x1.size()).t(), &mut g)?;
    } else {
        read(x, op, |data: &[T], offset, _| {
            f(
                Operand {
                    data,
                    offset,
                    rows,
                    cols,
                },
                &mut g,
            )
        })??;
    }
    Ok(g)
}

/// The conjugated values of a tensor, compact.
pub(crate) fn conj_compact<T: Num>(op: &'static str, t: &Tensor) -> Result<Vec<T>> {
    let mut v = reserved_vec(op, t.size())?;
    read(t, op, |x: &[T], o, l| walk1(l, o, |i| v.push(x[i].conj())))?;
    Ok(v)
}
