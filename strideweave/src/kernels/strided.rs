//! Strided iteration: the carrier indices of one or more layouts of equal shape, visited in
//! first-mode-fastest order without materialising any of them.

use crate::kernels::plan::{Order, Side, outer, plan};
use crate::layout::Layout;

/// Calls `f(d, s)` with `d = do + D(i)` and `s[k] = sok + Sk(i)` for `i = 0, 1, …, size − 1`,
/// where the destination `dst = (do, D)` and the sources `srcs[k] = (sok, Sk)` are offsets
/// and strides of the leaves `extents` (depth-first): the kernels' plan in
/// [`Order::Ordinal`] (extent-1 leaves dropped, neighbours merged, nothing turned or
/// reordered) walked by [`outer`]. Nothing is called for an empty shape. The indices are
/// non-negative when the layouts are placements inside their carriers, which callers
/// guarantee.
#[inline]
pub(crate) fn walk<const N: usize>(
    extents: &[i64],
    dst: Side<'_>,
    srcs: [Side<'_>; N],
    mut f: impl FnMut(usize, [usize; N]),
) {
    let Some((modes, d_o, so)) = plan(extents, dst, srcs, Order::Ordinal) else {
        return;
    };
    outer(&modes, d_o, so, |d, s| f(d as usize, s.map(|x| x as usize)));
}

/// [`walk`] over one layout at an offset.
#[inline]
pub(crate) fn walk1(l: &Layout, offset: i64, mut f: impl FnMut(usize)) {
    let strides = l.stride().leaves();
    walk(l.shape().leaves(), (offset, strides), [], |i, []| f(i));
}

/// [`walk`] over two layouts of one shape.
#[inline]
pub(crate) fn walk2(a: (&Layout, i64), b: (&Layout, i64), mut f: impl FnMut(usize, usize)) {
    debug_assert_eq!(a.0.shape().leaves(), b.0.shape().leaves());
    let (sa, sb) = (a.0.stride().leaves(), b.0.stride().leaves());
    walk(a.0.shape().leaves(), (a.1, sa), [(b.1, sb)], |i, [j]| {
        f(i, j)
    });
}
