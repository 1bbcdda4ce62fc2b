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

/// The most columns of a block.
pub(super) const COLS: usize = 128;

#[inline]
pub(super) fn try_rows<T: Copy, const R: usize>(
    _: (&[T], &super::lines::Group<R>),
    _: (
        &mut super::lines::Rows<'_, '_, T>,
        std::ops::Range<usize>,
        usize,
    ),
    _: &mut [T],
    _: Path<T>,
) -> bool {
    false
}

/// Nothing streamed, nothing to order.
pub(super) fn fence() {}
