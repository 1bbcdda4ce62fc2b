//! Borrowed, rank-typed strided views over any slice.
//!
//! A [`TypedTensorView`] borrows a `&[T]` the caller owns (a `Vec`, a memory map, another
//! library's buffer) and reads it through a shape, signed strides and a signed offset,
//! without copying it into a [`Carrier`](crate::Carrier). Construction checks every
//! reachable index against the slice, so element access never panics; transposes, slices
//! and compact reshapes only change metadata. The rank is a compile-time [`Rank<N>`] or a
//! run-time [`DynRank`]; errors are [`Error::Validation`](crate::Error::Validation) with a
//! [`ValidationError`] that names what is wrong.
//!
//! ```
//! use strideweave::{Rank, StridedSliceSpec, TypedTensorView};
//! let data = [1, 4, 2, 5, 3, 6];
//! let m = TypedTensorView::<_, Rank<2>>::from_slice_ranked([2, 3], [1, 2], 0, &data)?;
//! let t = m.transpose_view([1, 0])?.slice_axis_view(0, StridedSliceSpec::reverse())?;
//! assert_eq!(t.to_col_major()?.as_slice()?, &[3, 2, 1, 6, 5, 4]);
//! # Ok::<(), strideweave::Error>(())
//! ```

mod bridge;
mod complex;
mod copy;
mod guard;
mod layout;
mod mutable;
#[cfg(feature = "ndarray")]
mod nd;
mod owned;
mod rank;
mod read;
mod repr;
mod slice;
mod static_view;
mod view;
mod views;

/// The element types a view can erase into a [`TensorRead`]: the crate's
/// [`Element`](crate::Element) under the typed API's name.
///
/// ```
/// fn erase<T: strideweave::typed::TensorScalar>(data: &[T]) -> strideweave::DType {
///     strideweave::TypedTensorView::from_col_major(&[data.len()], data).unwrap().into_tensor_read().unwrap().dtype()
/// }
/// assert_eq!(erase(&[1.0_f32]), strideweave::DType::F32);
/// ```
pub use crate::dtype::Element as TensorScalar;
pub use crate::validation::{ShapeMismatch, ValidationError, ValidationKind};
pub use guard::TypedViewGuard;
pub use layout::TensorLayout;
pub use mutable::TypedTensorViewMut;
pub use owned::{ColMajorView, TypedTensor};
pub use rank::{DynRank, Rank, TensorRank};
pub use read::TensorRead;
pub use repr::{Dynamic, Host, MemoryKind, Placement, ViewRepresentation};
pub use slice::StridedSliceSpec;
pub use static_view::StaticLayoutView;
pub use view::TypedTensorView;
