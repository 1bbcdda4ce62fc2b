//! The vector kernels on targets other than x86-64: none, every copy runs the portable
//! loops (the signatures of `x86.rs`, each answering "not done").

use super::path::Path;

#[inline]
pub(super) fn try_contiguous<T: Copy>(_: &mut [T], _: &[T], _: Path<T>) -> bool {
    false
}

#[inline]
pub(super) fn try_step2<T: Copy>(_: &mut [T], _: &[T], _: Path<T>) -> bool {
    false
}

#[inline]
pub(super) fn try_square<T: Copy, const W: usize>(
    _: super::tile::Square<'_, T>,
    _: &mut [T],
    _: Path<T>,
) -> bool {
    false
}

/// The most destination positions of a group.
pub(super) const ROWS: usize = 64;

/// The most columns of a group.
pub(super) const COLS: usize = 128;

/// The positions of a group `cols` columns wide.
pub(super) const fn group_rows(cols: usize) -> usize {
    if cols > 64 { 32 } else { ROWS }
}

#[inline]
pub(super) fn try_rows<T: Copy, const R: usize>(
    _: (&[T], &[usize; R]),
    _: (&mut [&mut [T]], usize),
    _: &mut [T],
    _: Path<T>,
) -> bool {
    false
}

/// Nothing streamed, nothing to order.
pub(super) fn fence() {}
