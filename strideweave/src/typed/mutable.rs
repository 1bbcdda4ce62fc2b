//! [`TypedTensorViewMut`]: a mutable strided view whose layout is proven not to reach one
//! element twice, with element writes, `fill`, `copy_from` and a split into two disjoint
//! mutable halves.

use super::layout::{TensorLayout, col_major_strides, reach};
use super::rank::{DynRank, TensorRank};
use super::repr::{Dynamic, ViewRepresentation};
use super::view::TypedTensorView;
use crate::error::{Error, Result};
use crate::validation::{ShapeMismatch, ValidationError};

/// A mutable, borrowed strided view of `&'a mut [T]`: the layout of a
/// [`TypedTensorView`], and a constructor check that no two indices reach one element.
///
/// Non-overlap is proven by the sufficient rule: with the axes of extent above 1 ordered by
/// the magnitude of their strides, each stride exceeds the span `Σ (extent − 1)·|stride|` of
/// the axes before it. A layout the rule cannot prove (a stride 0, an interleaving, a true
/// overlap) is refused with the reason.
///
/// ```
/// use strideweave::typed::TypedTensorViewMut;
/// let mut data = [0_i32; 6];
/// let mut m = TypedTensorViewMut::from_slice_mut([2, 3], [3, 1], 0, &mut data)?;
/// m.set(&[1, 2], 7)?;
/// *m.get_mut(&[0, 1]).unwrap() = 5;
/// assert_eq!(data, [0, 5, 0, 0, 0, 7]);
/// # Ok::<(), strideweave::Error>(())
/// ```
pub struct TypedTensorViewMut<'a, T, R: TensorRank = DynRank> {
    data: &'a mut [T],
    layout: TensorLayout<R>,
}

impl<T, R: TensorRank> std::fmt::Debug for TypedTensorViewMut<'_, T, R> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TypedTensorViewMut")
            .field("element", &std::any::type_name::<T>())
            .field("shape", &self.shape())
            .field("strides", &self.layout.strides())
            .field("offset", &self.layout.offset())
            .field("storage_len", &self.data.len())
            .finish()
    }
}

impl<'a, T> TypedTensorViewMut<'a, T, DynRank> {
    /// A mutable view with explicit layout metadata.
    ///
    /// ```
    /// use strideweave::typed::TypedTensorViewMut;
    /// let mut data = [1_i32, 2, 3];
    /// TypedTensorViewMut::from_slice_mut([3], [-1], 2, &mut data)?.set(&[0], 9)?;
    /// assert_eq!(data, [1, 2, 9]);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The errors of [`TypedTensorView::from_slice`], and
    /// [`ValidationError::OverlappingMutableLayout`] with the reason when non-overlap cannot
    /// be proven.
    pub fn from_slice_mut(
        shape: impl AsRef<[usize]>,
        strides: impl AsRef<[isize]>,
        offset: isize,
        data: &'a mut [T],
    ) -> Result<Self> {
        let (shape, strides) = (shape.as_ref().to_vec(), strides.as_ref().to_vec());
        Self::build(
            "TypedTensorViewMut::from_slice_mut",
            shape,
            strides,
            offset,
            data,
        )
    }

    /// A compact column-major mutable view.
    ///
    /// ```
    /// use strideweave::typed::TypedTensorViewMut;
    /// let mut data = [0_i32; 4];
    /// TypedTensorViewMut::from_col_major_mut(&[2, 2], &mut data)?.set(&[1, 0], 1)?;
    /// assert_eq!(data, [0, 1, 0, 0]);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// The errors of [`TypedTensorView::from_col_major`].
    pub fn from_col_major_mut(shape: &[usize], data: &'a mut [T]) -> Result<Self> {
        const OP: &str = "TypedTensorViewMut::from_col_major_mut";
        let strides = col_major_strides(OP, shape)?;
        Self::build(OP, shape.to_vec(), strides, 0, data)
    }
}

impl<'a, T, R: TensorRank> TypedTensorViewMut<'a, T, R> {
    fn build(
        op: &'static str,
        shape: R::Shape,
        strides: R::Strides,
        offset: isize,
        data: &'a mut [T],
    ) -> Result<Self> {
        let layout = TensorLayout::checked(op, shape, strides, offset, data.len())?;
        if let Some(reason) = overlap_reason(layout.shape(), layout.strides()) {
            return Err(Error::validation(
                op,
                ValidationError::OverlappingMutableLayout { reason },
            ));
        }
        Ok(TypedTensorViewMut { data, layout })
    }

    /// A rank-generic mutable view ([`Rank<N>`](crate::Rank) takes arrays of length `N`).
    ///
    /// ```
    /// use strideweave::Rank;
    /// use strideweave::typed::TypedTensorViewMut;
    /// let mut data = [0_i32; 4];
    /// let mut m = TypedTensorViewMut::<_, Rank<2>>::from_slice_ranked_mut([2, 2], [2, 1], 0, &mut data)?;
    /// m.set(&[1, 0], 3)?;
    /// assert_eq!(data, [0, 0, 3, 0]);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`from_slice_mut`](TypedTensorViewMut::from_slice_mut).
    pub fn from_slice_ranked_mut(
        shape: impl Into<R::Shape>,
        strides: impl Into<R::Strides>,
        offset: isize,
        data: &'a mut [T],
    ) -> Result<Self> {
        const OP: &str = "TypedTensorViewMut::from_slice_ranked_mut";
        Self::build(OP, shape.into(), strides.into(), offset, data)
    }

    /// The logical shape.
    ///
    /// ```
    /// let mut data = [0u8; 2];
    /// let m = strideweave::typed::TypedTensorViewMut::from_col_major_mut(&[2], &mut data).unwrap();
    /// assert_eq!(m.shape(), &[2]);
    /// ```
    pub fn shape(&self) -> &[usize] {
        self.layout.shape()
    }

    /// The layout metadata (shape, strides, offset).
    ///
    /// ```
    /// let mut data = [0u8; 2];
    /// let m = strideweave::typed::TypedTensorViewMut::from_col_major_mut(&[2], &mut data).unwrap();
    /// assert_eq!(m.layout().n_elements(), 2);
    /// ```
    pub fn layout(&self) -> &TensorLayout<R> {
        &self.layout
    }

    /// A read-only view of the same elements, borrowing this one.
    ///
    /// ```
    /// let mut data = [1_i32, 2];
    /// let m = strideweave::typed::TypedTensorViewMut::from_slice_mut([2], [-1], 1, &mut data).unwrap();
    /// assert_eq!(m.as_view().get(&[0]), Some(&2));
    /// ```
    pub fn as_view(&self) -> TypedTensorView<'_, T, R, Dynamic> {
        TypedTensorView::host(self.data, self.layout.clone())
    }

    /// The element at `indices`, `None` outside the shape.
    ///
    /// ```
    /// let mut data = [1_i32, 2];
    /// let mut m = strideweave::typed::TypedTensorViewMut::from_col_major_mut(&[2], &mut data).unwrap();
    /// *m.get_mut(&[1]).unwrap() += 40;
    /// assert!(m.get_mut(&[2]).is_none());
    /// assert_eq!(data, [1, 42]);
    /// ```
    pub fn get_mut(&mut self, indices: &[usize]) -> Option<&mut T> {
        let at = self
            .layout
            .index_of("TypedTensorViewMut::get_mut", indices)
            .ok()?;
        self.data.get_mut(at)
    }

    /// Writes `value` at `indices`.
    ///
    /// ```
    /// let mut data = [0_i32; 3];
    /// let mut m = strideweave::typed::TypedTensorViewMut::from_slice_mut([2], [2], 0, &mut data).unwrap();
    /// m.set(&[1], 4).unwrap();
    /// assert!(m.set(&[2], 4).is_err());
    /// assert_eq!(data, [0, 0, 4]);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`TypedTensorView::layout_linear_offset`] (reported as `TypedTensorViewMut::set`).
    pub fn set(&mut self, indices: &[usize], value: T) -> Result<()> {
        let at = self.layout.index_of("TypedTensorViewMut::set", indices)?;
        self.data[at] = value;
        Ok(())
    }

    /// Writes `value` at every element of the view (and nowhere else).
    ///
    /// ```
    /// let mut data = [0_i32; 5];
    /// strideweave::typed::TypedTensorViewMut::from_slice_mut([3], [2], 0, &mut data).unwrap().fill(1);
    /// assert_eq!(data, [1, 0, 1, 0, 1]);
    /// ```
    pub fn fill(&mut self, value: T)
    where
        T: Clone,
    {
        let data = &mut *self.data;
        // The plan's destination strides are positive: a mutable view's axes of extent > 1
        // have nonzero strides (its construction proved them disjoint), and the plan turns
        // negative ones; `step_by` never sees 0.
        self.layout.for_each_run([], |d, [], m| {
            if m.d == 1 {
                data[d..d + m.e as usize].fill(value.clone());
                return;
            }
            for x in data[d..]
                .iter_mut()
                .step_by(m.d as usize)
                .take(m.e as usize)
            {
                *x = value.clone();
            }
        });
    }

    /// Copies `src` (same shape, any layouts): both layouts are walked together on the copy
    /// engine's plan, contiguous runs copied as slices (a `memcpy` for `Copy` elements),
    /// without an index buffer.
    ///
    /// ```
    /// use strideweave::TypedTensorView;
    /// use strideweave::typed::TypedTensorViewMut;
    /// let src = [1_i32, 2, 3, 4];
    /// let transposed = TypedTensorView::from_slice([2, 2], [2, 1], 0, &src)?;
    /// let mut data = [0_i32; 4];
    /// TypedTensorViewMut::from_col_major_mut(&[2, 2], &mut data)?.copy_from(&transposed)?;
    /// assert_eq!(data, [1, 3, 2, 4]);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Validation`] with [`ValidationError::ShapeMismatch`]
    /// ([`ShapeMismatch::ExpectedActual`]) when the shapes differ; nothing is written.
    pub fn copy_from<R2: TensorRank, D: ViewRepresentation>(
        &mut self,
        src: &TypedTensorView<'_, T, R2, D>,
    ) -> Result<()>
    where
        T: Clone,
    {
        if src.shape() != self.shape() {
            return Err(Error::validation(
                "TypedTensorViewMut::copy_from",
                ShapeMismatch::ExpectedActual {
                    expected: self.shape().to_vec(),
                    actual: src.shape().to_vec(),
                }
                .into(),
            ));
        }
        let (data, from) = (&mut *self.data, src.data);
        let source = (src.layout.offset(), src.layout.strides());
        self.layout.for_each_run([source], |d, [s], m| {
            let (e, step) = (m.e as usize, m.s[0]);
            if m.d == 1 && step == 1 {
                // A `memcpy` for `Copy` elements (the standard library specialises it).
                data[d..d + e].clone_from_slice(&from[s..s + e]);
                return;
            }
            // `m.d > 0`, as in `fill`.
            let out = data[d..].iter_mut().step_by(m.d as usize).take(e);
            for (k, x) in out.enumerate() {
                *x = from[(s as i64 + k as i64 * step) as usize].clone();
            }
        });
        Ok(())
    }

    /// Splits the view along `axis` at `mid` into two mutable views (indices `..mid` and
    /// `mid..` of that axis) over disjoint parts of the slice, which two threads may write
    /// at once. The halves must occupy separate ranges of the slice: split along the axis
    /// with the largest stride (the outermost in memory); an axis whose halves interleave
    /// in memory is refused.
    ///
    /// ```
    /// use strideweave::typed::TypedTensorViewMut;
    /// let mut data = [0_i32; 6];
    /// let m = TypedTensorViewMut::from_col_major_mut(&[2, 3], &mut data)?;
    /// let (mut left, mut right) = m.split_at_mut(1, 1)?;
    /// std::thread::scope(|s| {
    ///     s.spawn(move || left.fill(1));
    ///     s.spawn(move || right.fill(2));
    /// });
    /// assert_eq!(data, [1, 1, 2, 2, 2, 2]);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Validation`] with [`ValidationError::AxisOutOfBounds`] for an axis not below
    /// the rank, [`ValidationError::InvalidArgument`] for `mid` beyond the extent or for
    /// halves that interleave in memory (with the reason).
    pub fn split_at_mut(self, axis: usize, mid: usize) -> Result<(Self, Self)> {
        const OP: &str = "TypedTensorViewMut::split_at_mut";
        let rank = self.layout.rank();
        if axis >= rank {
            return Err(Error::validation(
                OP,
                ValidationError::AxisOutOfBounds { axis, rank },
            ));
        }
        let extent = self.shape()[axis];
        if mid > extent {
            return Err(invalid(
                OP,
                "mid",
                format!("split point {mid} is beyond the extent {extent} of axis {axis}"),
            ));
        }
        let stride = self.layout.strides()[axis];
        let mut first_shape = self.layout.shape_storage().clone();
        let mut second_shape = first_shape.clone();
        first_shape.as_mut()[axis] = mid;
        second_shape.as_mut()[axis] = extent - mid;
        let second_offset = (mid as i128 * stride as i128 + self.layout.offset() as i128) as isize;
        let strides = self.layout.strides_storage().clone();
        let ranges = [
            span(first_shape.as_ref(), strides.as_ref(), self.layout.offset()),
            span(second_shape.as_ref(), strides.as_ref(), second_offset),
        ];
        // The boundary between the two halves' ranges, and which comes first in memory.
        let (cut, first_low) = match ranges {
            [None, _] => (0, true),
            [_, None] => (self.data.len() as i128, true),
            [Some((_, hi_a)), Some((lo_b, _))] if hi_a < lo_b => (lo_b, true),
            [Some((lo_a, _)), Some((_, hi_b))] if hi_b < lo_a => (lo_a, false),
            _ => {
                return Err(invalid(
                    OP,
                    "axis",
                    format!(
                        "the halves of axis {axis} (stride {stride}) interleave in memory with the other axes (shape {:?}, strides {:?}); split along the axis with the largest stride",
                        self.shape(),
                        self.layout.strides()
                    ),
                ));
            }
        };
        let offset = self.layout.offset();
        let (low, high) = self.data.split_at_mut(cut as usize);
        let shift = |o: isize| o - cut as isize;
        let (a, b) = if first_low {
            ((low, offset), (high, shift(second_offset)))
        } else {
            ((high, shift(offset)), (low, second_offset))
        };
        Ok((
            Self::build(OP, first_shape, strides.clone(), a.1, a.0)?,
            Self::build(OP, second_shape, strides, b.1, b.0)?,
        ))
    }
}

fn invalid(op: &'static str, argument: &'static str, message: String) -> Error {
    Error::validation(op, ValidationError::InvalidArgument { argument, message })
}

/// The lowest and highest element index of a layout, `None` when it has no element.
fn span(shape: &[usize], strides: &[isize], offset: isize) -> Option<(i128, i128)> {
    if shape.contains(&0) {
        return None;
    }
    // The halves of a validated view: no overflow.
    reach("split_at_mut", shape, strides, offset).ok()
}

/// Why non-overlap of `shape`/`strides` cannot be proven, or `None` when it is.
fn overlap_reason(shape: &[usize], strides: &[isize]) -> Option<String> {
    if shape.contains(&0) {
        return None;
    }
    let mut axes: Vec<usize> = (0..shape.len()).filter(|&k| shape[k] > 1).collect();
    axes.sort_by_key(|&k| strides[k].unsigned_abs());
    let mut covered: u128 = 0;
    for &k in &axes {
        let step = strides[k].unsigned_abs() as u128;
        if step <= covered {
            return Some(format!(
                "axis {k} (extent {}, stride {}) steps by {step}, which does not clear the span {covered} of the axes with smaller strides, so two indices may reach one element",
                shape[k], strides[k]
            ));
        }
        covered += (shape[k] as u128 - 1) * step;
    }
    None
}
