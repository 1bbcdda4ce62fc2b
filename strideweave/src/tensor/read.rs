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

/// One operand as the kernels see it: its elements, offset and layout.
pub(crate) type Operand<'a, T> = (&'a [T], i64, &'a Layout);

/// Runs `f` on the elements of two tensors at once (one read when they share a carrier),
/// locked in the carriers' global order.
pub(crate) fn read2<T: Element, R>(
    a: &Tensor,
    b: &Tensor,
    op: &'static str,
    f: impl FnOnce(Operand<'_, T>, Operand<'_, T>) -> R,
) -> Result<R> {
    let sa = a.require_single(op)?;
    let sb = b.require_single(op)?;
    let (oa, ob) = (sa.offset as i64, sb.offset as i64);
    Carrier::with_slices(op, &[&sa.carrier, &sb.carrier], None, |xs, _| {
        f((xs[0], oa, &sa.layout), (xs[1], ob, &sb.layout))
    })
}

/// Runs `f` on the elements of `t` and, mutably, on the carrier of `out` (another carrier),
/// both locked at once in the global order; `out`'s version is incremented.
pub(crate) fn read_write<T: Element, R>(
    t: &Tensor,
    out: &Tensor,
    op: &'static str,
    f: impl FnOnce(Operand<'_, T>, &mut [T]) -> R,
) -> Result<R> {
    let s = t.require_single(op)?;
    let o = s.offset as i64;
    Carrier::with_slices(op, &[&s.carrier], Some(out.carrier()), |xs, z| {
        // unreachable from user input: with_slices was given Some(write), so it lends the written elements.
        f((xs[0], o, &s.layout), z.expect("the written carrier"))
    })
}

/// [`read2`] and, mutably, the carrier of `out` (another carrier), all locked at once in
/// the global order; `out`'s version is incremented.
pub(crate) fn read2_write<T: Element, R>(
    a: &Tensor,
    b: &Tensor,
    out: &Tensor,
    op: &'static str,
    f: impl FnOnce(Operand<'_, T>, Operand<'_, T>, &mut [T]) -> R,
) -> Result<R> {
    let sa = a.require_single(op)?;
    let sb = b.require_single(op)?;
    let (oa, ob) = (sa.offset as i64, sb.offset as i64);
    let reads = [&sa.carrier, &sb.carrier];
    Carrier::with_slices(op, &reads, Some(out.carrier()), |xs, z| {
        // unreachable from user input: with_slices was given Some(write), so it lends the written elements.
        let z = z.expect("the written carrier");
        f((xs[0], oa, &sa.layout), (xs[1], ob, &sb.layout), z)
    })
}

/// The values of a tensor in first-mode-fastest order, written by the copy engine straight
/// into the new `Vec`.
pub(crate) fn gather<T: Element>(t: &Tensor, op: &'static str) -> Result<Vec<T>> {
    read(t, op, |x: &[T], o, l| {
        crate::tensor::materialize::to_vec_in(x, o, l, &Layout::compact(l.shape()), op)
    })?
}
