//! [`TensorRead`]: a borrowed view with its rank and element type erased, for code that
//! dispatches on the dtype at run time.

use super::rank::{DynRank, TensorRank};
use super::repr::ViewRepresentation;
use super::view::TypedTensorView;
use crate::dtype::{DType, Element, HostSlice};
use crate::error::{Error, Result};
#[cfg(doc)]
use crate::validation::ValidationError;

/// A rank- and dtype-erased read handle over borrowed host data: the [`DType`], the shape,
/// the strides, the offset and the borrowed slice. Never allocates element storage.
///
/// ```
/// use strideweave::{DType, Rank, TypedTensorView};
/// let data = [1.0_f64, 2.0, 3.0];
/// let read = TypedTensorView::<_, Rank<1>>::from_slice_ranked([2], [1], 1, &data)?.into_tensor_read()?;
/// assert_eq!((read.dtype(), read.shape(), read.offset()), (DType::F64, &[2][..], 1));
/// assert_eq!(read.as_slice::<f64>()?, &[2.0, 3.0]);
/// assert!(read.as_slice::<f32>().is_err());
/// # Ok::<(), strideweave::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct TensorRead<'a> {
    data: HostSlice<'a>,
    dtype: DType,
    shape: Vec<usize>,
    strides: Vec<isize>,
    offset: isize,
}

impl<'a, T: Element, R: TensorRank, D: ViewRepresentation> TypedTensorView<'a, T, R, D> {
    /// Erase a borrowed view's rank and dtype for dispatch without allocating element
    /// storage.
    ///
    /// ```
    /// use strideweave::{Rank, TypedTensorView};
    /// let data = [1.0_f64, 2.0];
    /// let view = TypedTensorView::<_, Rank<1>>::from_slice_ranked([2], [1], 0, &data)?;
    /// let read = view.into_tensor_read()?;
    /// assert_eq!(read.as_slice::<f64>()?, &[1.0, 2.0]);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Runtime`] for storage that is not host memory (none today). The metadata of
    /// a built view is always representable and inside its slice, so
    /// [`ValidationError::IntegerOverflow`] and [`ValidationError::ViewOutOfBounds`] do not
    /// occur here.
    pub fn into_tensor_read(self) -> Result<TensorRead<'a>> {
        self.require_host("TypedTensorView::into_tensor_read")?;
        Ok(TensorRead {
            data: T::lend(self.data),
            dtype: T::DTYPE,
            shape: self.shape().to_vec(),
            strides: self.strides().to_vec(),
            offset: self.offset(),
        })
    }
}

impl<'a> TensorRead<'a> {
    /// The element type.
    ///
    /// ```
    /// let data = [1_i32];
    /// let r = strideweave::TypedTensorView::from_col_major(&[1], &data)?.into_tensor_read()?;
    /// assert_eq!(r.dtype(), strideweave::DType::I32);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn dtype(&self) -> DType {
        self.dtype
    }

    /// The logical shape.
    ///
    /// ```
    /// let data = [1_i32, 2];
    /// let r = strideweave::TypedTensorView::from_col_major(&[2], &data)?.into_tensor_read()?;
    /// assert_eq!(r.shape(), &[2]);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// The number of axes.
    ///
    /// ```
    /// let data = [1_i32, 2];
    /// let r = strideweave::TypedTensorView::from_col_major(&[2], &data)?.into_tensor_read()?;
    /// assert_eq!(r.rank(), 1);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// The strides, in elements.
    ///
    /// ```
    /// let data = [1_i32, 2];
    /// let r = strideweave::TypedTensorView::from_slice([2], [-1], 1, &data)?.into_tensor_read()?;
    /// assert_eq!(r.strides(), &[-1]);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn strides(&self) -> &[isize] {
        &self.strides
    }

    /// The element offset.
    ///
    /// ```
    /// let data = [1_i32, 2];
    /// let r = strideweave::TypedTensorView::from_slice([1], [1], 1, &data)?.into_tensor_read()?;
    /// assert_eq!(r.offset(), 1);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn offset(&self) -> isize {
        self.offset
    }

    /// The typed view back, when `T` is the element type.
    ///
    /// ```
    /// let data = [1_i32, 2];
    /// let r = strideweave::TypedTensorView::from_slice([2], [-1], 1, &data)?.into_tensor_read()?;
    /// assert_eq!(r.view::<i32>()?.get(&[0]), Some(&2));
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::WrongType`] when `T` is not the element type.
    pub fn view<T: Element>(&self) -> Result<TypedTensorView<'a, T, DynRank>> {
        self.view_as("TensorRead::view")
    }

    /// The logical elements as one slice, when `T` is the element type and the layout is
    /// compact column-major (as [`TypedTensorView::as_slice`]).
    ///
    /// ```
    /// let data = [1_i32, 2];
    /// let r = strideweave::TypedTensorView::from_col_major(&[2], &data)?.into_tensor_read()?;
    /// assert_eq!(r.as_slice::<i32>()?, &[1, 2]);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::WrongType`] when `T` is not the element type; [`Error::Validation`] with
    /// [`ValidationError::NonContiguousViewAsSlice`] when the layout is not compact
    /// column-major (and the other errors of [`TypedTensorView::as_slice`]).
    pub fn as_slice<T: Element>(&self) -> Result<&'a [T]> {
        const OP: &str = "TensorRead::as_slice";
        self.view_as::<T>(OP)?.logical_slice(OP)
    }

    /// [`view`](Self::view), reported as `op`.
    fn view_as<T: Element>(&self, op: &'static str) -> Result<TypedTensorView<'a, T, DynRank>> {
        let data = T::slice(self.data).ok_or_else(|| Error::WrongType {
            op,
            expected: format!("elements of dtype {}", self.dtype),
            found: format!("{}", T::DTYPE),
        })?;
        let (shape, strides) = (self.shape.clone(), self.strides.clone());
        TypedTensorView::build(op, shape, strides, self.offset, data)
    }
}
