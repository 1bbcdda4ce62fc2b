//! [`Dim`]: the mode index of `squeeze` and `unsqueeze`, which may count back from the end.

/// The mode index that [`Layout::squeeze`](crate::Layout::squeeze) and
/// [`Layout::unsqueeze`](crate::Layout::unsqueeze) (and the tensor views of the same names)
/// take: a non-negative index counts from the first top-level mode, a negative one counts back
/// from the end, as in numpy and PyTorch. Every other mode index in StrideWeave is a `usize`;
/// these two views accept signed integers because counting from the end is part of their
/// meaning.
///
/// Implemented for `usize`, `isize`, `u32`, `i32` and `i64`, so an integer literal works as
/// it is (`t.unsqueeze(-1)`, `t.squeeze(0)`).
///
/// ```
/// let l: strideweave::Layout = "(2,3):(1,2)".parse().unwrap();
/// assert_eq!(l.unsqueeze(-1).unwrap(), l.unsqueeze(2usize).unwrap());
/// assert_eq!(l.unsqueeze(-3).unwrap(), l.unsqueeze(0).unwrap());
/// ```
pub trait Dim: Copy + std::fmt::Display {
    /// The index as an `i128`, wide enough for every implementing type without loss.
    ///
    /// ```
    /// use strideweave::Dim;
    /// assert_eq!((-1i32).signed(), -1);
    /// assert_eq!(usize::MAX.signed(), usize::MAX as i128);
    /// ```
    fn signed(self) -> i128;
}

macro_rules! dim {
    ($($t:ty),*) => {$(
        impl Dim for $t {
            fn signed(self) -> i128 {
                self as i128
            }
        }
    )*};
}
dim!(usize, isize, u32, i32, i64);

/// `dim` normalised against `count` positions (negative values count back from `count`):
/// `Some(index)` inside `0..count`, `None` outside.
pub(crate) fn normalise_dim(dim: impl Dim, count: usize) -> Option<usize> {
    let d = dim.signed();
    let at = if d < 0 { d + count as i128 } else { d };
    (0..count as i128).contains(&at).then_some(at as usize)
}

/// `dim` for a message: its value, saturated to `i64`'s range (only a `usize` beyond
/// `i64::MAX` saturates, and it is out of every domain anyway).
pub(crate) fn clamp(dim: impl Dim) -> i64 {
    dim.signed().clamp(i64::MIN as i128, i64::MAX as i128) as i64
}
