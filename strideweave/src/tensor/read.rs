//! In-place reads of a one-subtensor tensor's elements, for the kernels of `ops` and the
//! gradient buffers of `autograd`: the values are read where they lie, never copied first.

use crate::carrier::Carrier;
use crate::dtype::Element;
use crate::error::Result;
use crate::layout::Layout;
use crate::tensor::Tensor;

/// Runs `f` on the elements of a one-subtensor tensor of element type `T`, with its offset
/// and layout: the values are read in place, never copied.
pub(crate) fn read<T: Element, R>(
    t: &Tensor,
    op: &'static str,
    f: impl FnOnce(&[T], i64, &Layout) -> R,
) -> Result<R> {
    let s = t.require_single(op)?;
    s.carrier
        .read_as(op, |x: &[T]| f(x, s.offset as i64, &s.layout))
}

/// Runs `f` on the elements of two tensors at once (one read when they share a carrier).
pub(crate) fn read2<T: Element, R>(
    a: &Tensor,
    b: &Tensor,
    op: &'static str,
    f: impl FnOnce((&[T], i64, &Layout), (&[T], i64, &Layout)) -> R,
) -> Result<R> {
    let sa = a.require_single(op)?;
    let sb = b.require_single(op)?;
    let (oa, ob) = (sa.offset as i64, sb.offset as i64);
    if Carrier::same(&sa.carrier, &sb.carrier) {
        return sa
            .carrier
            .read_as(op, |x: &[T]| f((x, oa, &sa.layout), (x, ob, &sb.layout)));
    }
    sa.carrier.read_as(op, |x: &[T]| {
        sb.carrier
            .read_as(op, |y: &[T]| f((x, oa, &sa.layout), (y, ob, &sb.layout)))
    })?
}

/// The values of a tensor in first-mode-fastest order, written by the copy engine straight
/// into the new `Vec`.
pub(crate) fn gather<T: Element>(t: &Tensor, op: &'static str) -> Result<Vec<T>> {
    read(t, op, |x: &[T], o, l| {
        crate::tensor::materialize::to_vec_in(x, o, l, &Layout::compact(l.shape()), op)
    })?
}
