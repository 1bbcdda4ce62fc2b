//! Metadata-only views of a [`TypedTensorView`]: transpose, slices, reshape.

use super::layout::{check_rank, col_major_strides, element_count, overflow};
use super::rank::{DynRank, TensorRank};
use super::repr::ViewRepresentation;
use super::slice::StridedSliceSpec;
use super::view::TypedTensorView;
use crate::error::{Error, Result};
use crate::validation::{ShapeMismatch, ValidationError};

impl<'a, T, R: TensorRank, D: ViewRepresentation> TypedTensorView<'a, T, R, D> {
    /// Return a metadata-only axis permutation: axis `j` of the result is axis `axes[j]` of
    /// this view.
    ///
    /// ```
    /// use strideweave::{Rank, TypedTensorView};
    ///
    /// let data = [1_i32, 2, 3, 4, 5, 6];
    /// let view = TypedTensorView::<_, Rank<2>>::from_slice_ranked([2, 3], [1, 2], 0, &data)?;
    /// let transposed = view.transpose_view([1, 0])?;
    /// assert_eq!(transposed.shape(), &[3, 2]);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Validation`] with [`ValidationError::InvalidPermutationLength`],
    /// [`ValidationError::AxisOutOfBounds`], or [`ValidationError::DuplicateAxis`] when
    /// `axes` is not a permutation of `0..rank`.
    pub fn transpose_view(&self, axes: impl AsRef<[usize]>) -> Result<Self> {
        const OP: &str = "TypedTensorView::transpose_view";
        let axes = axes.as_ref();
        let rank = self.rank();
        if axes.len() != rank {
            return Err(Error::validation(
                OP,
                ValidationError::InvalidPermutationLength {
                    expected: rank,
                    actual: axes.len(),
                },
            ));
        }
        let mut seen = vec![false; rank];
        for &axis in axes {
            if axis >= rank {
                return Err(Error::validation(
                    OP,
                    ValidationError::AxisOutOfBounds { axis, rank },
                ));
            }
            if std::mem::replace(&mut seen[axis], true) {
                return Err(Error::validation(
                    OP,
                    ValidationError::DuplicateAxis {
                        axis,
                        role: "permutation",
                    },
                ));
            }
        }
        let mut shape = self.layout.shape_storage().clone();
        let mut strides = self.layout.strides_storage().clone();
        for (j, &axis) in axes.iter().enumerate() {
            shape.as_mut()[j] = self.shape()[axis];
            strides.as_mut()[j] = self.strides()[axis];
        }
        Self::build(OP, shape, strides, self.offset(), self.data)
    }

    /// Return a metadata-only slice using one [`StridedSliceSpec`] per axis.
    ///
    /// ```
    /// use strideweave::{StridedSliceSpec, TypedTensorView};
    ///
    /// let data = [1_i32, 2, 3];
    /// let view = TypedTensorView::from_slice(vec![3], vec![1], 0, &data)?;
    /// let reversed = view.slice_view(&[StridedSliceSpec::reverse()])?;
    /// assert_eq!(reversed.get(&[0]), Some(&3));
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Validation`] with [`ValidationError::RankMismatch`] when the slice count
    /// differs from the view rank, [`ValidationError::InvalidSliceStep`] or
    /// [`ValidationError::InvalidSliceBounds`] for an invalid slice,
    /// [`ValidationError::IntegerOverflow`] for slice arithmetic overflow, or
    /// [`ValidationError::ViewOutOfBounds`] when the resulting layout exceeds the backing
    /// buffer.
    pub fn slice_view(&self, slices: &[StridedSliceSpec]) -> Result<Self> {
        const OP: &str = "TypedTensorView::slice_view";
        check_rank(OP, "slices", self.rank(), slices.len())?;
        let mut view = self.clone();
        for (axis, spec) in slices.iter().enumerate() {
            view = view.sliced(OP, axis, spec)?;
        }
        Ok(view)
    }

    /// Return a metadata-only slice along one axis.
    ///
    /// ```
    /// use strideweave::{StridedSliceSpec, TypedTensorView};
    ///
    /// let data = [1_i32, 2, 3, 4];
    /// let view = TypedTensorView::from_slice(vec![2, 2], vec![1, 2], 0, &data)?;
    /// assert_eq!(view.slice_axis_view(1, StridedSliceSpec::reverse())?.get(&[0, 0]), Some(&3));
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Validation`] with [`ValidationError::AxisOutOfBounds`] when `axis` is
    /// outside the view rank, [`ValidationError::InvalidSliceStep`] or
    /// [`ValidationError::InvalidSliceBounds`] for an invalid slice,
    /// [`ValidationError::IntegerOverflow`] for slice arithmetic overflow, or
    /// [`ValidationError::ViewOutOfBounds`] when the resulting layout exceeds the backing
    /// buffer.
    pub fn slice_axis_view(&self, axis: usize, slice: StridedSliceSpec) -> Result<Self> {
        const OP: &str = "TypedTensorView::slice_axis_view";
        if axis >= self.rank() {
            return Err(Error::validation(
                OP,
                ValidationError::AxisOutOfBounds {
                    axis,
                    rank: self.rank(),
                },
            ));
        }
        self.sliced(OP, axis, &slice)
    }

    /// This view with `spec` applied to `axis` (in range).
    fn sliced(&self, op: &'static str, axis: usize, spec: &StridedSliceSpec) -> Result<Self> {
        let (start, len, step) = spec.normalise_as(op, axis, self.shape()[axis])?;
        let stride = self.strides()[axis];
        let offset = isize::try_from(start)
            .ok()
            .and_then(|s| s.checked_mul(stride))
            .and_then(|d| self.offset().checked_add(d))
            .ok_or_else(|| overflow(op, "the sliced offset"))?;
        let new_stride = stride
            .checked_mul(step)
            .ok_or_else(|| overflow(op, "the sliced stride"))?;
        let mut shape = self.layout.shape_storage().clone();
        let mut strides = self.layout.strides_storage().clone();
        shape.as_mut()[axis] = len;
        strides.as_mut()[axis] = new_stride;
        Self::build(op, shape, strides, offset, self.data)
    }

    /// Return a metadata-only dynamic-rank reshape of a compact column-major view: the
    /// result is compact column-major over the same elements and offset.
    ///
    /// ```
    /// use strideweave::TypedTensorView;
    ///
    /// let data = [1_i32, 2, 3, 4];
    /// let view = TypedTensorView::from_slice(vec![2, 2], vec![1, 2], 0, &data)?;
    /// assert_eq!(view.reshape_view(&[4])?.shape(), &[4]);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Validation`] with [`ValidationError::NonContiguousViewAsSlice`] when the
    /// source is not compact column-major, [`ValidationError::ShapeMismatch`] (with
    /// [`ShapeMismatch::ReshapeElementCount`] recording both counts) when element counts
    /// differ, [`ValidationError::IntegerOverflow`] for shape arithmetic overflow, or
    /// [`ValidationError::ViewOutOfBounds`] when the reshaped view exceeds the backing
    /// buffer.
    pub fn reshape_view(&self, shape: &[usize]) -> Result<TypedTensorView<'a, T, DynRank, D>> {
        const OP: &str = "TypedTensorView::reshape_view";
        self.require_compact(OP)?;
        let to = element_count(OP, shape)?;
        if to != self.n_elements() {
            return Err(Error::validation(
                OP,
                ShapeMismatch::ReshapeElementCount {
                    from: self.n_elements(),
                    to,
                }
                .into(),
            ));
        }
        let strides = col_major_strides(OP, shape)?;
        TypedTensorView::build(OP, shape.to_vec(), strides, self.offset(), self.data)
    }
}
