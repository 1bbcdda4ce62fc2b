//! Owned and compact results of a view: [`TypedTensor`] (an owned compact column-major
//! tensor), [`ColMajorView`] (a validated compact borrow), and the copies that make them.

use super::layout::{TensorLayout, col_major_strides, element_count};
use super::rank::{DynRank, Rank, TensorRank};
use super::repr::{Dynamic, ViewRepresentation};
use super::view::TypedTensorView;
use crate::error::{Error, Result};
use crate::validation::ValidationError;

/// An owned tensor: compact column-major elements (first axis fastest) and a shape of rank
/// `R`.
///
/// ```
/// use strideweave::typed::TypedTensor;
/// let t = TypedTensor::from_vec(vec![2, 2], vec![1, 2, 3, 4]).unwrap();
/// assert_eq!(t.view().get(&[1, 1]), Some(&4));
/// assert_eq!(t.into_vec(), vec![1, 2, 3, 4]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TypedTensor<T, R: TensorRank = DynRank> {
    data: Vec<T>,
    layout: TensorLayout<R>,
}

impl<T> TypedTensor<T, DynRank> {
    /// An owned dynamic-rank tensor of `shape` over `data` in column-major order.
    ///
    /// ```
    /// let t = strideweave::typed::TypedTensor::from_vec(vec![2, 3], vec![0u8; 6]).unwrap();
    /// assert_eq!(t.shape(), &[2, 3]);
    /// ```
    ///
    /// # Errors
    ///
    /// As [`from_vec_ranked`](TypedTensor::from_vec_ranked).
    pub fn from_vec(shape: impl AsRef<[usize]>, data: Vec<T>) -> Result<Self> {
        Self::owned_as("TypedTensor::from_vec", shape.as_ref().to_vec(), data)
    }
}

impl<T, R: TensorRank> TypedTensor<T, R> {
    /// An owned tensor of rank `R` and `shape` over `data` in column-major order.
    ///
    /// ```
    /// use strideweave::{Rank, typed::TypedTensor};
    /// let t = TypedTensor::<_, Rank<2>>::from_vec_ranked([2, 3], vec![0u8; 6]).unwrap();
    /// assert_eq!(t.shape(), &[2, 3]);
    /// assert!(TypedTensor::<_, Rank<1>>::from_vec_ranked([2], vec![0u8; 3]).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Validation`] with [`ValidationError::ShapeMismatch`] when `data` does not
    /// have exactly the shape's number of elements, or [`ValidationError::IntegerOverflow`].
    pub fn from_vec_ranked(shape: impl Into<R::Shape>, data: Vec<T>) -> Result<Self> {
        Self::owned_as("TypedTensor::from_vec_ranked", shape.into(), data)
    }

    fn owned_as(op: &'static str, shape: R::Shape, data: Vec<T>) -> Result<Self> {
        let expected = element_count(op, shape.as_ref())?;
        if expected != data.len() {
            return Err(Error::validation(
                op,
                crate::validation::ShapeMismatch::DataLength {
                    expected,
                    actual: data.len(),
                }
                .into(),
            ));
        }
        let strides = col_major_strides(op, shape.as_ref())?;
        let strides = R::strides_from(&strides).ok_or_else(|| rank_lost(op))?;
        let layout = TensorLayout::checked(op, shape, strides, 0, data.len())?;
        Ok(TypedTensor { data, layout })
    }

    /// The shape.
    ///
    /// ```
    /// let t = strideweave::typed::TypedTensor::from_vec(vec![3], vec![1, 2, 3]).unwrap();
    /// assert_eq!(t.shape(), &[3]);
    /// ```
    pub fn shape(&self) -> &[usize] {
        self.layout.shape()
    }

    /// The compact column-major elements.
    ///
    /// ```
    /// let t = strideweave::typed::TypedTensor::from_vec(vec![3], vec![1, 2, 3]).unwrap();
    /// assert_eq!(t.as_slice().unwrap(), &[1, 2, 3]);
    /// ```
    ///
    /// # Errors
    ///
    /// None today: an owned tensor is always host memory and compact. The `Result` matches
    /// [`TypedTensorView::as_slice`].
    pub fn as_slice(&self) -> Result<&[T]> {
        Ok(&self.data)
    }

    /// A borrowed view of this tensor.
    ///
    /// ```
    /// let t = strideweave::typed::TypedTensor::from_vec(vec![3], vec![1, 2, 3]).unwrap();
    /// assert_eq!(t.view().strides(), &[1]);
    /// ```
    pub fn view(&self) -> TypedTensorView<'_, T, R, Dynamic> {
        TypedTensorView::host(&self.data, self.layout.clone())
    }

    /// The elements, column-major.
    ///
    /// ```
    /// let t = strideweave::typed::TypedTensor::from_vec(vec![2], vec![7, 8]).unwrap();
    /// assert_eq!(t.into_vec(), vec![7, 8]);
    /// ```
    pub fn into_vec(self) -> Vec<T> {
        self.data
    }
}

/// A compact column-major borrow of rank `N`: the logical elements as one slice, with the
/// shape ([`TypedTensorView::host_col_major_view`]).
///
/// ```
/// use strideweave::{Rank, TypedTensorView};
/// let data = [0_i32, 1, 2, 3, 4];
/// let view = TypedTensorView::<_, Rank<2>>::from_slice_ranked([2, 2], [1, 2], 1, &data).unwrap();
/// let compact = view.host_col_major_view().unwrap();
/// assert_eq!((compact.shape(), compact.get([1, 0])), (&[2, 2], Some(&2)));
/// ```
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct ColMajorView<'a, T, const N: usize> {
    data: &'a [T],
    shape: [usize; N],
}

impl<T, const N: usize> Clone for ColMajorView<'_, T, N> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T, const N: usize> Copy for ColMajorView<'_, T, N> {}

impl<'a, T, const N: usize> ColMajorView<'a, T, N> {
    /// The logical elements in column-major order.
    ///
    /// ```
    /// use strideweave::{Rank, TypedTensorView};
    /// let data = [5_i32, 6];
    /// let view = TypedTensorView::<_, Rank<1>>::from_slice_ranked([2], [1], 0, &data).unwrap();
    /// assert_eq!(view.host_col_major_view().unwrap().as_slice(), &[5, 6]);
    /// ```
    pub fn as_slice(&self) -> &'a [T] {
        self.data
    }

    /// The shape.
    ///
    /// ```
    /// use strideweave::{Rank, TypedTensorView};
    /// let data = [5_i32, 6];
    /// let view = TypedTensorView::<_, Rank<1>>::from_slice_ranked([2], [1], 0, &data).unwrap();
    /// assert_eq!(view.host_col_major_view().unwrap().shape(), &[2]);
    /// ```
    pub fn shape(&self) -> &[usize; N] {
        &self.shape
    }

    /// The element at `indices`, `None` outside the shape.
    ///
    /// ```
    /// use strideweave::{Rank, TypedTensorView};
    /// let data = [5_i32, 6];
    /// let view = TypedTensorView::<_, Rank<1>>::from_slice_ranked([2], [1], 0, &data).unwrap();
    /// assert_eq!(view.host_col_major_view().unwrap().get([2]), None);
    /// ```
    pub fn get(&self, indices: [usize; N]) -> Option<&'a T> {
        let mut at = 0usize;
        let mut run = 1usize;
        for (&i, &e) in indices.iter().zip(&self.shape) {
            if i >= e {
                return None;
            }
            at += i * run;
            run *= e;
        }
        self.data.get(at)
    }
}

impl<'a, T, const N: usize, D: ViewRepresentation> TypedTensorView<'a, T, Rank<N>, D> {
    /// Validate and borrow this tensor view as a compact column-major host view. Nonzero
    /// compact offsets are represented by the returned logical slice without copying.
    ///
    /// ```
    /// use strideweave::{Rank, TypedTensorView};
    /// let data = [0_i32, 1, 2, 3, 4];
    /// let view = TypedTensorView::<_, Rank<2>>::from_slice_ranked([2, 2], [1, 2], 1, &data)?;
    /// assert_eq!(view.host_col_major_view()?.as_slice(), &[1, 2, 3, 4]);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Runtime`] when storage is not host memory (none today), or
    /// [`Error::Validation`] when the layout is not compact
    /// ([`ValidationError::NonContiguousViewAsSlice`]) or the logical host range is invalid
    /// (as for [`as_slice`](TypedTensorView::as_slice)).
    pub fn host_col_major_view(&self) -> Result<ColMajorView<'a, T, N>> {
        let data = self.logical_slice("TypedTensorView::host_col_major_view")?;
        Ok(ColMajorView {
            data,
            shape: *self.layout.shape_storage(),
        })
    }
}

impl<'a, T: Clone, R: TensorRank, D: ViewRepresentation> TypedTensorView<'a, T, R, D> {
    /// Explicitly duplicate a compact host view into a new owner (a strided view is an
    /// error here; [`to_col_major`](Self::to_col_major) copies any view).
    ///
    /// ```
    /// use strideweave::TypedTensorView;
    ///
    /// let data = [1_i32, 2];
    /// let view = TypedTensorView::from_slice(vec![2], vec![1], 0, &data)?;
    /// let copy = view.duplicate()?;
    /// assert_eq!(copy.as_slice()?, &[1, 2]);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::HostAccess`] for storage that is not host memory (none today),
    /// [`Error::Validation`] with [`ValidationError::NonContiguousViewAsSlice`] when the view
    /// is not compact column-major (and the other errors of
    /// [`as_slice`](Self::as_slice)).
    pub fn duplicate(&self) -> Result<TypedTensor<T, R>> {
        const OP: &str = "TypedTensorView::duplicate";
        if !self.placement.memory_kind.is_host() {
            return Err(Error::HostAccess {
                op: OP,
                detail: "the view's storage is not host memory; download it first".into(),
            });
        }
        let slice = self.logical_slice(OP)?;
        let mut data = crate::budget::reserved_vec(OP, slice.len())?;
        data.extend_from_slice(slice);
        self.owned(OP, data)
    }

    /// Explicitly copy a host view, including strided, reversed and offset views, to a
    /// compact column-major owner.
    ///
    /// For the element types of the dtype set ([`TensorScalar`](crate::typed::TensorScalar):
    /// `f32`, `f64`, `i32`, `i64`, `u8`, `i8`, `bool`, `Complex32`, `Complex64`, and `f16`/`bf16`
    /// with the `half` feature) the copy runs through the crate's copy engine (blocked for
    /// transposes, split across threads for large copies), as fast as
    /// [`Tensor::materialize`](crate::Tensor::materialize); the type is recognised at run
    /// time by its `TypeId`. Any other `T` is cloned element by element in column-major
    /// order.
    ///
    /// ```
    /// use strideweave::{Rank, TypedTensorView};
    /// let storage = [1, 4, 2, 5, 3, 6];
    /// let view = TypedTensorView::<_, Rank<2>>::from_slice_ranked(
    ///     [2, 3], [1, 2], 0, &storage,
    /// )?;
    /// let transposed = view.transpose_view([1, 0])?;
    /// assert_eq!(transposed.to_col_major()?.as_slice()?, &[1, 2, 3, 4, 5, 6]);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Runtime`] for storage that is not host memory (none today);
    /// [`Error::Validation`] for layout arithmetic that overflows; [`Error::TooLarge`] when
    /// the copy's elements cannot be allocated (a view with stride 0 may have far more
    /// elements than its slice).
    pub fn to_col_major(&self) -> Result<TypedTensor<T, R>>
    where
        T: 'static,
    {
        self.to_col_major_dispatch("TypedTensorView::to_col_major")
    }

    /// An owned tensor of this view's shape over `data` (column-major).
    pub(crate) fn owned(&self, op: &'static str, data: Vec<T>) -> Result<TypedTensor<T, R>> {
        TypedTensor::owned_as(op, self.layout.shape_storage().clone(), data)
    }
}

/// The rank of a shape copied from a view of rank `R` is `R`; this is the error for a
/// static-rank shape that cannot be reconstructed.
fn rank_lost(op: &'static str) -> Error {
    Error::validation(
        op,
        ValidationError::InvalidArgument {
            argument: "shape",
            message: "the static-rank shape cannot be reconstructed".into(),
        },
    )
}
