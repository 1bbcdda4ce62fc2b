//! [`TensorRank`]: a view's rank known at compile time ([`Rank<N>`]) or at run time
//! ([`DynRank`]).

use std::fmt::Debug;
use std::hash::Hash;

mod sealed {
    pub trait Sealed {}
}

/// The rank of a typed view: [`Rank<N>`] stores shape and strides in arrays of length `N`
/// (a mismatch with an array argument of another length does not compile), [`DynRank`] in
/// vectors (a mismatch is an [`Error::Validation`](crate::Error::Validation)).
///
/// ```
/// use strideweave::{DynRank, Rank};
/// use strideweave::typed::TensorRank;
/// assert_eq!(<Rank<3> as TensorRank>::STATIC_RANK, Some(3));
/// assert_eq!(<DynRank as TensorRank>::STATIC_RANK, None);
/// ```
pub trait TensorRank:
    Copy + Debug + Default + Eq + Hash + Send + Sync + 'static + sealed::Sealed
{
    /// The rank, when it is fixed at compile time.
    const STATIC_RANK: Option<usize>;
    /// How a shape of this rank is stored.
    type Shape: AsRef<[usize]> + AsMut<[usize]> + Clone + Debug + Eq + Hash + Send + Sync;
    /// How strides of this rank are stored.
    type Strides: AsRef<[isize]> + AsMut<[isize]> + Clone + Debug + Eq + Hash + Send + Sync;
    /// The shape `s`, when its length is this rank.
    fn shape_from(s: &[usize]) -> Option<Self::Shape>;
    /// The strides `s`, when their length is this rank.
    fn strides_from(s: &[isize]) -> Option<Self::Strides>;
}

/// A rank fixed at compile time: shape `[usize; N]`, strides `[isize; N]`.
///
/// ```compile_fail
/// use strideweave::{Rank, TypedTensorView};
/// let data = [1_i32, 2, 3, 4];
/// // Three extents for a rank-2 view: does not compile.
/// let view = TypedTensorView::<_, Rank<2>>::from_slice_ranked([2, 2, 1], [1, 2], 0, &data);
/// ```
///
/// ```
/// use strideweave::{Rank, TypedTensorView};
/// let data = [1_i32, 2, 3, 4];
/// let view = TypedTensorView::<_, Rank<2>>::from_slice_ranked([2, 2], [1, 2], 0, &data).unwrap();
/// assert_eq!(view.rank(), 2);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Rank<const N: usize>;

/// A rank known at run time: shape `Vec<usize>`, strides `Vec<isize>`.
///
/// ```
/// use strideweave::{DynRank, TypedTensorView};
/// let data = [1_i32, 2, 3, 4];
/// let view: TypedTensorView<'_, i32, DynRank> = TypedTensorView::from_col_major(&[4], &data).unwrap();
/// assert_eq!(view.rank(), 1);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct DynRank;

impl<const N: usize> sealed::Sealed for Rank<N> {}
impl sealed::Sealed for DynRank {}

impl<const N: usize> TensorRank for Rank<N> {
    const STATIC_RANK: Option<usize> = Some(N);
    type Shape = [usize; N];
    type Strides = [isize; N];
    fn shape_from(s: &[usize]) -> Option<[usize; N]> {
        s.try_into().ok()
    }
    fn strides_from(s: &[isize]) -> Option<[isize; N]> {
        s.try_into().ok()
    }
}

impl TensorRank for DynRank {
    const STATIC_RANK: Option<usize> = None;
    type Shape = Vec<usize>;
    type Strides = Vec<isize>;
    fn shape_from(s: &[usize]) -> Option<Vec<usize>> {
        Some(s.to_vec())
    }
    fn strides_from(s: &[isize]) -> Option<Vec<isize>> {
        Some(s.to_vec())
    }
}
