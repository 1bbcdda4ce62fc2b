//! Storage-producing copies (a view never copies; these named operations do): `materialize`,
//! `relayout` and their `_into` forms (`to_shape` and `transfer_to` are in `transfer`), and the one
//! path under `copy_from` and `to_vec`: the copy engine of [`kernels::copy`](crate::kernels::copy),
//! run straight from the source carrier into the destination carrier, for every plain dtype. With
//! the default feature `parallel`, copies of 1 MiB or more are split across rayon's threads
//! (`RAYON_NUM_THREADS=1` or `--no-default-features` keeps one thread); the result is the same bit
//! for bit.

use crate::autograd::node::{self, Cotangents, Rule, Step};
use crate::carrier::Carrier;
use crate::dtype::{DType, HostSlice, HostSliceMut};
use crate::error::{Error, Result};
use crate::kernels::copy::copy;
use crate::layout::Layout;
use crate::tensor::Tensor;

impl Tensor {
    /// A new compact (first-mode-fastest) carrier holding this tensor's logical contents,
    /// with the hierarchy of the shape kept. Every plain dtype; a block-scaled tensor gives
    /// its dequantized `f32` values. Recorded for autograd (the gradient passes through).
    /// Copies of 1 MiB or more use several threads with the default feature `parallel`.
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let t = Tensor::arange::<i32>(&"(2,(3,2))".parse().unwrap()).permute(&[1, 0]).unwrap();
    /// let m = t.materialize().unwrap();
    /// assert_eq!(m.layout().to_string(), "((3,2),2):((1,3),6)");
    /// assert_eq!(m.to_vec::<i32>().unwrap(), t.to_vec::<i32>().unwrap());
    /// ```
    pub fn materialize(&self) -> Result<Tensor> {
        const OP: &str = "materialize";
        if self.dtype() == DType::BlockScaledI8F32 {
            return self.dequantize_as(OP);
        }
        self.copy_to_fresh(OP, Layout::compact(self.shape()), 0)
    }

    /// Writes this tensor's logical contents into `dst` (same shape; this tensor's dtype, or
    /// `f32` for a block-scaled one; an injective layout) and increments `dst`'s carrier
    /// version once. Not recorded: with recording on, neither tensor may require gradients.
    /// On an error `dst` is untouched.
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let t = Tensor::arange::<u8>(&"(2,3)".parse().unwrap());
    /// let dst = Tensor::zeros::<u8>(&"(3,2)".parse().unwrap()).permute(&[1, 0]).unwrap();
    /// t.materialize_into(&dst).unwrap();
    /// assert_eq!(dst.to_vec::<u8>().unwrap(), [0, 1, 2, 3, 4, 5]);
    /// let aliasing = Tensor::zeros::<u8>(&"3".parse().unwrap()).broadcast_in_dim(&"(2,3)".parse().unwrap(), &[1]).unwrap();
    /// assert!(t.materialize_into(&aliasing).unwrap_err().to_string().starts_with("materialize_into: layout"));
    /// ```
    pub fn materialize_into(&self, dst: &Tensor) -> Result<()> {
        write_into("materialize_into", self, dst)
    }

    /// A new carrier holding this tensor's logical contents in the order of `order`: a
    /// compact injective layout of the same shape, such as [`Layout::compact`]
    /// (first-mode-fastest, i.e. column-major, the default everywhere) or
    /// [`Layout::row_major`], or any permutation or reversal of them. Recorded for autograd
    /// like [`materialize`](Self::materialize).
    ///
    /// ```
    /// use strideweave::{Layout, Tensor};
    /// let t = Tensor::arange::<f64>(&"(2,3)".parse().unwrap());
    /// let r = t.relayout(&Layout::row_major(t.shape())).unwrap();
    /// assert_eq!(r.layout().to_string(), "(2,3):(3,1)");
    /// assert_eq!(r.carrier().to_vec::<f64>().unwrap(), [0.0, 2.0, 4.0, 1.0, 3.0, 5.0]);
    /// let err = t.relayout(&"(2,3):(1,3)".parse().unwrap()).unwrap_err();
    /// assert!(err.to_string().starts_with("relayout: layout (2,3):(1,3) is not compact"));
    /// ```
    pub fn relayout(&self, order: &Layout) -> Result<Tensor> {
        const OP: &str = "relayout";
        let offset = check_order(OP, self, order)?;
        if self.dtype() == DType::BlockScaledI8F32 {
            return self.dequantize_as(OP)?.relayout(order);
        }
        self.copy_to_fresh(OP, order.clone(), offset)
    }

    /// Writes this tensor's logical contents into `dst`, whose layout must be a compact
    /// injective layout of the same shape (a buffer that [`relayout`](Self::relayout)
    /// could have produced); otherwise as [`materialize_into`](Self::materialize_into).
    ///
    /// ```
    /// use strideweave::{Layout, Tensor};
    /// let t = Tensor::arange::<i64>(&"(2,3)".parse().unwrap());
    /// let dst = Tensor::from_vec_row_major(vec![0i64; 6], t.shape()).unwrap();
    /// t.relayout_into(&dst).unwrap();
    /// assert_eq!(dst.carrier().to_vec::<i64>().unwrap(), [0, 2, 4, 1, 3, 5]);
    /// let slice = Tensor::zeros::<i64>(&"(4,3)".parse().unwrap()).slice(&[(0..2).into(), (..).into()]).unwrap();
    /// assert!(t.relayout_into(&slice).is_err());
    /// ```
    pub fn relayout_into(&self, dst: &Tensor) -> Result<()> {
        const OP: &str = "relayout_into";
        dst.require_single(OP)?;
        check_order(OP, self, dst.layout())?;
        write_into(OP, self, dst)
    }

    /// A fresh carrier of this tensor's dtype placed by `layout` at `offset`, filled with
    /// this tensor's contents; recorded when this tensor takes part in autograd.
    fn copy_to_fresh(&self, op: &'static str, layout: Layout, offset: usize) -> Result<Tensor> {
        self.require_single(op)?;
        let carrier = Carrier::zeros_as(op, self.dtype(), layout.size())?;
        self.copy_to_carrier(op, carrier, offset, layout)
    }

    /// This tensor's contents written into `carrier` (fresh, of this tensor's dtype, of
    /// `layout`'s size) placed by `layout` at `offset`; recorded when this tensor takes part
    /// in autograd.
    pub(crate) fn copy_to_carrier(
        &self,
        op: &'static str,
        carrier: Carrier,
        offset: usize,
        layout: Layout,
    ) -> Result<Tensor> {
        let out = Tensor::new(carrier, offset, layout)?;
        copy_into(op, self, &out)?;
        if !node::wants(&[self]) {
            return Ok(out);
        }
        Ok(node::attach(out, op, &[self], Box::new(Identity)))
    }
}

/// The gradient of a copy: the cotangent itself, in first-mode-fastest order.
struct Identity;

impl Rule for Identity {
    fn backward(&self, step: Step<'_>) -> Result<Cotangents> {
        Ok(smallvec::smallvec![Some(step.cot)])
    }
}

/// The offset that places `order` inside a carrier of its size, when `order` is a compact
/// injective layout of `t`'s shape.
fn check_order(op: &'static str, t: &Tensor, order: &Layout) -> Result<usize> {
    if order.shape() != t.shape() {
        return Err(Error::ShapeMismatch {
            op,
            expected: t.shape().to_string(),
            found: order.shape().to_string(),
            detail: "the requested order must have the tensor's shape".into(),
        });
    }
    let (lo, hi) = order.reach();
    if !order.is_injective() || (hi - lo + 1) as usize != order.size() {
        return Err(Error::NotRepresentable {
            op,
            reason: format!(
                "layout {order} is not compact and injective (it reaches {} indices for {} elements)",
                hi - lo + 1,
                order.size()
            ),
        });
    }
    Ok((-lo) as usize)
}

/// `src`'s logical contents written into the caller's `dst`, reporting as `op`: checks
/// everything (one subtensor each, dtype, shape, injective destination, no gradient lost)
/// before anything is written.
pub(crate) fn write_into(op: &'static str, src: &Tensor, dst: &Tensor) -> Result<()> {
    let d = dst.require_single(op)?;
    let dtype = match src.dtype() {
        DType::BlockScaledI8F32 => DType::F32,
        plain => {
            src.require_single(op)?;
            plain
        }
    };
    if dst.dtype() != dtype {
        return Err(Error::WrongType {
            op,
            expected: format!("a {dtype} destination (the source's values)"),
            found: format!("a {} destination", dst.dtype()),
        });
    }
    if dst.shape() != src.shape() {
        return Err(Error::ShapeMismatch {
            op,
            expected: src.shape().to_string(),
            found: dst.shape().to_string(),
            detail: "the destination must have the source's shape".into(),
        });
    }
    if !d.layout.is_injective() {
        return Err(Error::NotInjective {
            op,
            layout: format!("{} (a destination must not alias)", d.layout),
        });
    }
    if crate::autograd::is_grad_enabled()
        && (crate::autograd::participates(src) || crate::autograd::participates(dst))
    {
        return Err(Error::Runtime {
            op,
            detail: "writing into a caller's tensor is not recorded, so with gradient recording on neither tensor may require gradients; use the allocating form, or call it inside no_grad()".into(),
        });
    }
    if src.dtype() == DType::BlockScaledI8F32 {
        return copy_into(op, &src.dequantize_as(op)?, dst);
    }
    copy_into(op, src, dst)
}

/// The engine from `src`'s carrier to `dst`'s (checked: one subtensor each, one plain dtype,
/// one shape, `dst` injective). A destination sharing the source's carrier is written from a
/// compact copy of the source, so overlapping reads never see new values.
fn copy_into(op: &'static str, src: &Tensor, dst: &Tensor) -> Result<()> {
    let (s, d) = (src.require_single(op)?, dst.require_single(op)?);
    if Carrier::same(&s.carrier, &d.carrier) {
        let staged = src.copy_to_fresh(op, Layout::compact(src.shape()), 0)?;
        return copy_into(op, &staged, dst);
    }
    let extents = s.layout.shape().leaves();
    let from = (s.offset as i64, s.layout.stride().leaves());
    let to = (d.offset as i64, d.layout.stride().leaves());
    Carrier::with_hosts(op, &[&s.carrier], Some(&d.carrier), |x, y| {
        // unreachable from user input: with_hosts was given Some(write), so it lends the written elements.
        let y = y.expect("the written carrier");
        copy_host(op, extents, (x[0], from), (y, to))
    })
}

/// Sets every element of `t` (one subtensor) to `value` (of `t`'s dtype): the engine's
/// broadcast path, from one element through stride 0; increments the version once.
pub(crate) fn fill(op: &'static str, t: &Tensor, value: crate::dtype::Scalar) -> Result<()> {
    let d = t.require_single(op)?;
    let one = Carrier::zeros_as(op, t.dtype(), 1)?;
    one.with_host_mut(op, |mut b| {
        b.set(0, value);
        Ok(())
    })?;
    let extents = d.layout.shape().leaves();
    let zeros = vec![0; extents.len()];
    let to = (d.offset as i64, d.layout.stride().leaves());
    Carrier::with_hosts(op, &[&one], Some(&d.carrier), |x, y| {
        // unreachable from user input: with_hosts was given Some(write), so it lends the written elements.
        let y = y.expect("the written carrier");
        copy_host(op, extents, (x[0], (0, &zeros)), (y, to))
    })
}

/// One side of a copy: an offset and the leaf strides.
type Side<'a> = (i64, &'a [i64]);

/// Dispatches the engine on the element type that both slices hold.
fn copy_host(
    op: &'static str,
    extents: &[i64],
    (x, from): (HostSlice<'_>, Side<'_>),
    (y, to): (HostSliceMut<'_>, Side<'_>),
) -> Result<()> {
    macro_rules! pairs {
        ($($v:ident),*) => {
            match (x, y) {
                $((HostSlice::$v(x), HostSliceMut::$v(y)) => {
                    copy(extents, (x, from.0, from.1), (y, to.0, to.1))
                })*
                #[cfg(feature = "half")]
                (HostSlice::F16(x), HostSliceMut::F16(y)) => {
                    copy(extents, (x, from.0, from.1), (y, to.0, to.1))
                }
                #[cfg(feature = "half")]
                (HostSlice::BF16(x), HostSliceMut::BF16(y)) => {
                    copy(extents, (x, from.0, from.1), (y, to.0, to.1))
                }
                (x, y) => {
                    return Err(Error::WrongType {
                        op,
                        expected: format!("a {} destination", x.dtype()),
                        found: format!("a {} destination", y.dtype()),
                    })
                }
            }
        };
    }
    pairs!(F32, F64, I32, I64, U8, I8, Bool, ComplexF32, ComplexF64);
    Ok(())
}

/// The elements that `layout` places at `offset` in `x`, in the order of `order` (a compact
/// layout of the same shape at offset 0: `Layout::compact` or `Layout::row_major` of it, as
/// every caller passes), written straight into a new `Vec` that is not zero-filled first.
#[allow(unsafe_code)]
pub(crate) fn to_vec_in<T: crate::dtype::Element>(
    x: &[T],
    offset: i64,
    layout: &Layout,
    order: &Layout,
    op: &'static str,
) -> crate::error::Result<Vec<T>> {
    debug_assert!(order.shape() == layout.shape() && order.cosize() == order.size());
    // SAFETY (`written_vec`'s contract): `copy` writes `out[O(i)]` for every index `i` of
    // the shape, and `order` is a compact layout of that shape, a bijection onto
    // `0..layout.size()`: every element is written.
    unsafe {
        crate::budget::written_vec(op, layout.size(), |out| {
            copy(
                layout.shape().leaves(),
                (
                    crate::budget::as_uninit(x),
                    offset,
                    layout.stride().leaves(),
                ),
                (out, 0, order.stride().leaves()),
            );
            Ok(())
        })
    }
}
