//! Zero-copy conversions between typed views and `ndarray` (feature `ndarray`).
//!
//! A [`TypedTensorView`] becomes an `ndarray::ArrayView` over the same elements, negative
//! strides included. An `ArrayView` becomes a [`TypedTensorView`] when its elements are
//! contiguous in memory (any axis order, any stride signs): only then does `ndarray` lend
//! the slice behind it safely; a view with gaps is an error rather than a copy (the gaps
//! may be borrowed mutably by another view, so no slice may cover them). An owned
//! [`TypedTensor`] and a column-major `ArrayD` move into each other without copying; a
//! [`Tensor`] moves into an `ArrayD` when it is the sole owner of a compact column-major
//! host carrier, and [`Tensor::to_array_copied`] copies any one-subtensor tensor.

use super::layout::reach;
use super::owned::TypedTensor;
use super::rank::{DynRank, TensorRank};
use super::repr::{Dynamic, ViewRepresentation};
use super::view::TypedTensorView;
use crate::dtype::{Element, HostVec};
use crate::error::{Error, Result};
use crate::tensor::Tensor;
use ndarray::{ArrayD, ArrayView, ArrayViewD, Dimension, IxDyn, ShapeBuilder};

impl<'a, T, R: TensorRank, D: ViewRepresentation> From<TypedTensorView<'a, T, R, D>>
    for ArrayViewD<'a, T>
{
    /// The same elements as an `ndarray` view (no copy), negative strides included.
    ///
    /// ```
    /// use strideweave::TypedTensorView;
    /// let data = [1_i32, 2, 3, 4, 5, 6];
    /// let view = TypedTensorView::from_slice([2, 3], [-3, 1], 3, &data).unwrap();
    /// let nd: ndarray::ArrayViewD<'_, i32> = view.into();
    /// assert_eq!(nd.strides(), &[-3, 1]);
    /// assert_eq!(nd, ndarray::arr2(&[[4, 5, 6], [1, 2, 3]]).into_dyn());
    /// ```
    fn from(view: TypedTensorView<'a, T, R, D>) -> ArrayViewD<'a, T> {
        let shape = IxDyn(view.shape());
        if view.n_elements() == 0 {
            return ArrayView::from_shape(shape, &[])
                // unreachable from user input: a shape with no elements fits an empty slice.
                .expect("an empty shape fits an empty slice in ndarray's default strides");
        }
        let (lo, _) = reach(
            "ArrayViewD::from",
            view.shape(),
            view.strides(),
            view.offset(),
        )
        // unreachable from user input: the view's reach was checked without overflow when it was built.
        .expect("the reach of a built view was computed without overflow at construction");
        // ndarray takes custom strides as `usize` bit patterns of `isize` and the slice from
        // the lowest address the view reaches.
        let strides: Vec<usize> = view.strides().iter().map(|&s| s as usize).collect();
        ArrayView::from_shape(shape.strides(IxDyn(&strides)), &view.data[lo as usize..])
            // unreachable from user input: every index of a built view was checked inside its slice when it was built.
            .expect("every index of a built view is inside its slice, so ndarray accepts it")
    }
}

impl<'a, T, Ix: Dimension> TryFrom<ArrayView<'a, T, Ix>>
    for TypedTensorView<'a, T, DynRank, Dynamic>
{
    type Error = Error;

    /// The same elements as a typed view (no copy), when they are contiguous in memory.
    ///
    /// ```
    /// use strideweave::TypedTensorView;
    /// let a = ndarray::arr2(&[[1_i32, 2, 3], [4, 5, 6]]);
    /// let flipped = a.slice(ndarray::s![..;-1, ..]);
    /// let view = TypedTensorView::try_from(flipped).unwrap();
    /// assert_eq!((view.strides(), view.offset()), (&[-3, 1][..], 3));
    /// assert_eq!(view.get(&[0, 2]), Some(&6));
    /// assert!(TypedTensorView::try_from(a.slice(ndarray::s![.., ..;2])).is_err());
    /// ```
    ///
    /// A view with gaps between its elements (`s![.., ..;2]`) is refused rather than
    /// borrowed: a [`TypedTensorView`] holds one slice covering every element it reaches,
    /// and `ndarray` lends only the view's own elements; the gaps may be lent mutably to
    /// another view at the same time (`multi_slice_mut((s![..;2], s![1..;2]))`), so a slice
    /// over them would alias a live `&mut`. Convert the contiguous array it was sliced from
    /// and slice the typed view instead (no copy), or copy it.
    ///
    /// ```
    /// use strideweave::{StridedSliceSpec, TypedTensorView};
    /// let a = ndarray::arr2(&[[1_i32, 2, 3], [4, 5, 6]]);
    /// let gaps = a.slice(ndarray::s![.., ..;2]);
    /// assert!(TypedTensorView::try_from(gaps).is_err());
    /// // Zero copy: the whole array, then the same slice on the typed side.
    /// let view = TypedTensorView::try_from(a.view())?
    ///     .slice_axis_view(1, StridedSliceSpec::all().with_step(2))?;
    /// assert_eq!(view.to_col_major()?.into_vec(), [1, 4, 3, 6]);
    /// // Or a copy in standard layout.
    /// let copied = gaps.as_standard_layout();
    /// assert_eq!(TypedTensorView::try_from(copied.view())?.get(&[1, 1]), Some(&6));
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::NotRepresentable`] when the elements are not contiguous in memory, with the
    /// reason and what to do instead.
    fn try_from(a: ArrayView<'a, T, Ix>) -> Result<Self> {
        const OP: &str = "TypedTensorView::try_from(ArrayView)";
        let shape = a.shape().to_vec();
        let strides = a.strides().to_vec();
        let Some(data) = a.to_slice_memory_order() else {
            return Err(Error::not_representable(
                OP,
                format!(
                    "the ndarray view (shape {shape:?}, strides {strides:?}) is not contiguous in memory: ndarray lends only the view's own elements, and the gaps between them may be borrowed mutably elsewhere (multi_slice_mut, split_at), so no slice may cover them without a copy; convert the contiguous array it was sliced from and slice the typed view (slice_view), or copy with .as_standard_layout() or .to_owned()"
                ),
            ));
        };
        // The slice starts at the lowest address; the logical origin is above it by the
        // span of the reversed axes.
        let offset: isize = shape
            .iter()
            .zip(&strides)
            .filter(|&(&e, &s)| e > 0 && s < 0)
            .map(|(&e, &s)| (e as isize - 1) * -s)
            .sum();
        TypedTensorView::build(OP, shape, strides, offset, data)
    }
}

impl<T> From<TypedTensor<T, DynRank>> for ArrayD<T> {
    /// Moves the elements into a column-major `ArrayD` (no copy).
    ///
    /// ```
    /// use strideweave::typed::TypedTensor;
    /// let t = TypedTensor::from_vec([2, 2], vec![1, 2, 3, 4]).unwrap();
    /// let a: ndarray::ArrayD<i32> = t.into();
    /// assert_eq!(a, ndarray::arr2(&[[1, 3], [2, 4]]).into_dyn());
    /// ```
    fn from(t: TypedTensor<T, DynRank>) -> ArrayD<T> {
        let shape = IxDyn(t.shape()).f();
        ArrayD::from_shape_vec(shape, t.into_vec())
            // unreachable from user input: a TypedTensor is built with exactly its shape's elements, column-major.
            .expect("a typed tensor holds exactly its shape's elements in column-major order")
    }
}

impl<T> TryFrom<ArrayD<T>> for TypedTensor<T, DynRank> {
    type Error = Error;

    /// Moves the elements of a compact column-major `ArrayD` into a typed tensor (no copy).
    ///
    /// ```
    /// use ndarray::ShapeBuilder;
    /// use strideweave::typed::TypedTensor;
    /// let a = ndarray::Array::from_shape_vec((2, 2).f(), vec![1, 2, 3, 4]).unwrap().into_dyn();
    /// let t = TypedTensor::try_from(a).unwrap();
    /// assert_eq!(t.view().get(&[1, 0]), Some(&2));
    /// assert!(TypedTensor::try_from(ndarray::arr2(&[[1, 2], [3, 4]]).into_dyn()).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::NotRepresentable`] when the array is not compact column-major (moving it
    /// would need a copy).
    fn try_from(a: ArrayD<T>) -> Result<Self> {
        const OP: &str = "TypedTensor::try_from(ArrayD)";
        let (shape, data) = take_col_major(OP, a)?;
        TypedTensor::from_vec(shape, data.into_front())
    }
}

impl<T: Element> TryFrom<ArrayD<T>> for Tensor {
    type Error = Error;

    /// Moves the elements of a compact column-major `ArrayD` into a [`Tensor`]'s new
    /// carrier (no copy).
    ///
    /// ```
    /// use ndarray::ShapeBuilder;
    /// use strideweave::Tensor;
    /// let a = ndarray::Array::from_shape_vec((2, 3).f(), vec![1, 2, 3, 4, 5, 6]).unwrap().into_dyn();
    /// let t = Tensor::try_from(a).unwrap();
    /// assert_eq!(t.layout().to_string(), "(2,3):(1,2)");
    /// assert!(Tensor::try_from(ndarray::arr2(&[[1, 2], [3, 4]]).into_dyn()).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::NotRepresentable`] when the array is not compact column-major or has an
    /// extent 0 (a tensor's extents are at least 1).
    fn try_from(a: ArrayD<T>) -> Result<Self> {
        const OP: &str = "Tensor::try_from(ArrayD)";
        let (shape, data) = take_col_major(OP, a)?;
        super::bridge::tensor_from_col_major(OP, &shape, data)
    }
}

/// The shape and the elements of a compact column-major array that covers its buffer from
/// its first element on (it may begin past the buffer's front, as an array moved out of a
/// [`Tensor`] whose elements sit on a cache line does).
fn take_col_major<T>(op: &'static str, a: ArrayD<T>) -> Result<(Vec<usize>, HostVec<T>)> {
    let shape = a.shape().to_vec();
    let compact = super::layout::is_compact(&shape, a.strides());
    let (data, offset) = a.into_raw_vec_and_offset();
    let start = offset.unwrap_or(0);
    match data.len().checked_sub(start) {
        Some(n) if compact && n == shape.iter().product::<usize>() => {
            Ok((shape, HostVec::from_parts(data, start)))
        }
        _ => Err(Error::not_representable(
            op,
            format!(
                "the array of shape {shape:?} is not compact column-major over its whole buffer, so it cannot move without a copy"
            ),
        )),
    }
}

impl<T: Element> TryFrom<Tensor> for ArrayD<T> {
    type Error = Error;

    /// Moves the elements of a [`Tensor`] into a column-major `ArrayD` **without copying**:
    /// the tensor must be the only handle to its carrier (no clone of the tensor, of the
    /// carrier, or view over it), view it compactly in column-major order from offset 0
    /// over the whole carrier, and the carrier must be the host class (a `Vec`). Otherwise
    /// use [`Tensor::to_array_copied`].
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let t = Tensor::from_vec(vec![1_i32, 2, 3, 4, 5, 6], &"(2,3)".parse().unwrap())?;
    /// let a = ndarray::ArrayD::<i32>::try_from(t)?;
    /// assert_eq!(a, ndarray::arr2(&[[1, 3, 5], [2, 4, 6]]).into_dyn());
    /// let t = Tensor::arange::<i32>(&"(2,3)".parse().unwrap());
    /// let _shared = t.clone();
    /// assert!(ndarray::ArrayD::<i32>::try_from(t).is_err()); // another handle exists
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::NotRepresentable`] saying why the data cannot move: the tensor or its
    /// carrier is shared, the layout is not compact column-major from offset 0 over the
    /// whole carrier, or the carrier is not the host `Vec` class; plus the errors of
    /// [`Tensor::typed_view`] (several subtensors, another dtype, irregular modes).
    fn try_from(t: Tensor) -> Result<ArrayD<T>> {
        const OP: &str = "ArrayD::try_from(Tensor)";
        let (carrier, shape, strides, offset) = t.typed_parts::<T>(OP)?;
        let compact = super::layout::is_compact(&shape, &strides);
        let n: usize = shape.iter().product();
        if !compact || offset != 0 || n != carrier.len() {
            return Err(Error::not_representable(
                OP,
                format!(
                    "the tensor (shape {shape:?}, strides {strides:?}, offset {offset}) does not view its carrier of {} elements compactly in column-major order from offset 0, so its data cannot move without a copy (use to_array_copied)",
                    carrier.len()
                ),
            ));
        }
        let shared = std::sync::Arc::strong_count(&t.inner) > 1
            || std::sync::Arc::weak_count(&t.inner) > 0
            || carrier.handle_count() > 1;
        if shared {
            return Err(Error::not_representable(
                OP,
                format!(
                    "the tensor's carrier is shared ({} handles to the carrier, {} to the tensor), so its data cannot move without a copy (use to_array_copied)",
                    carrier.handle_count(),
                    std::sync::Arc::strong_count(&t.inner) + std::sync::Arc::weak_count(&t.inner)
                ),
            ));
        }
        let Some(data) = carrier.take_host_vec::<T>() else {
            return Err(Error::not_representable(
                OP,
                format!(
                    "the {} carrier does not keep its elements in a host Vec, so they cannot move without a copy (use to_array_copied)",
                    carrier.class()
                ),
            ));
        };
        // The elements may begin past the vector's front (padding that puts a large buffer
        // on a cache line): the array keeps the whole vector and begins where they do.
        let (data, start) = data.into_parts();
        let elements = ndarray::Array1::from_vec(data).slice_move(ndarray::s![start..]);
        // The checks above proved a compact column-major tensor over its whole carrier, and
        // a contiguous 1-D array reshapes in either order, so this error does not occur.
        elements
            .into_shape_with_order((IxDyn(&shape), ndarray::Order::ColumnMajor))
            .map_err(|e| {
                Error::not_representable(OP, format!("ndarray refused the shape {shape:?}: {e}"))
            })
    }
}

impl Tensor {
    /// A column-major `ArrayD` holding a **copy** of this one-subtensor tensor's elements
    /// (any layout, shared or not; the tensor is untouched). To move the elements instead,
    /// use `ArrayD::try_from(tensor)`.
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let t = Tensor::arange::<i32>(&"(2,3)".parse().unwrap()).reverse(1)?;
    /// let a = t.to_array_copied::<i32>()?;
    /// assert_eq!(a, ndarray::arr2(&[[4, 2, 0], [5, 3, 1]]).into_dyn());
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// Those of [`Tensor::typed_view`] (several subtensors, another dtype, irregular modes,
    /// released storage), reported as `Tensor::to_array_copied`.
    pub fn to_array_copied<T: Element>(&self) -> Result<ArrayD<T>> {
        const OP: &str = "Tensor::to_array_copied";
        let (carrier, shape, strides, offset) = self.typed_parts::<T>(OP)?;
        let owned = carrier.read_as(OP, |data: &[T]| {
            TypedTensorView::<T>::build(OP, shape, strides, offset, data)?.to_col_major_engine(OP)
        })??;
        Ok(owned.into())
    }
}
