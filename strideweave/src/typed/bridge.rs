//! Bridges between [`Tensor`] and typed views: borrowing a one-subtensor tensor's carrier as
//! a [`TypedTensorView`] ([`TypedViewGuard`]), and turning a view or an owned [`TypedTensor`] into a tensor.

use super::guard::TypedViewGuard;
use super::owned::TypedTensor;
use super::rank::TensorRank;
use super::repr::ViewRepresentation;
use super::view::TypedTensorView;
use crate::carrier::Carrier;
use crate::dtype::{Element, HostVec};
use crate::error::{Error, Result};
use crate::layout::{IntTuple, Layout, Shape};
use crate::tensor::Tensor;

impl Tensor {
    /// Borrows this tensor's elements as a typed view over the carrier, without copying:
    /// the view's offset is the tensor's, and each top-level mode becomes one axis whose
    /// stride is the mode's single stride once coalesced. The returned [`TypedViewGuard`]
    /// holds the carrier's storage locked for reading; read through it directly
    /// ([`get`](TypedViewGuard::get), [`shape`](TypedViewGuard::shape), ...) or take its
    /// [`view`](TypedViewGuard::view).
    ///
    /// While the guard lives, writers to the carrier on other threads block. Writing to
    /// (or reading through another operation from) the same carrier on the thread holding
    /// the guard is an error (re-entrant access), not a deadlock: drop the guard first, or
    /// use [`with_typed_view`](Self::with_typed_view), which unlocks on return.
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let t = Tensor::arange::<i32>(&"(2,3)".parse().unwrap()).reverse(1)?;
    /// let v = t.typed_view::<i32>()?;
    /// assert_eq!((v.shape(), v.strides(), v.offset()), (&[2, 3][..], &[1, -2][..], 4));
    /// assert_eq!(v.get(&[1, 0]), Some(&5));
    /// // A nested mode flattens when it steps regularly.
    /// let n = Tensor::arange::<f32>(&"((2,3),4)".parse().unwrap());
    /// assert_eq!(n.typed_view::<f32>()?.shape(), [6, 4]);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::NotImplemented`] for a tensor of several subtensors (block-scaled) or a
    /// carrier not readable from the host; [`Error::WrongType`] when `T` is not the
    /// tensor's dtype; [`Error::NotRepresentable`] when a top-level mode does not step
    /// regularly (it coalesces to several strides); [`Error::Runtime`] for released storage.
    pub fn typed_view<T: Element>(&self) -> Result<TypedViewGuard<'_, T>> {
        let (carrier, shape, strides, offset) = self.typed_parts::<T>("Tensor::typed_view")?;
        TypedViewGuard::new(carrier, shape, strides, offset)
    }

    /// Lends this tensor's elements to `f` as a [`TypedTensorView`] over the carrier, without
    /// copying (as [`typed_view`](Self::typed_view)); the carrier's storage is locked for
    /// reading only during `f` (writers wait).
    ///
    /// ```
    /// use strideweave::{Tensor, TypedTensorView};
    /// let t = Tensor::arange::<i32>(&"(2,3)".parse().unwrap()).reverse(1)?;
    /// let x = t.with_typed_view(|v: TypedTensorView<'_, i32>| v.get(&[1, 0]).copied())?;
    /// assert_eq!(x, Some(5));
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// Those of [`typed_view`](Self::typed_view), reported as `Tensor::with_typed_view`.
    pub fn with_typed_view<T: Element, Out>(
        &self,
        f: impl FnOnce(TypedTensorView<'_, T>) -> Out,
    ) -> Result<Out> {
        const OP: &str = "Tensor::with_typed_view";
        let (carrier, shape, strides, offset) = self.typed_parts::<T>(OP)?;
        carrier.read_as(OP, |data: &[T]| {
            TypedTensorView::build(OP, shape, strides, offset, data).map(f)
        })?
    }

    /// The carrier and the flat view geometry of a one-subtensor tensor of dtype `T`.
    pub(crate) fn typed_parts<T: Element>(
        &self,
        op: &'static str,
    ) -> Result<(&Carrier, Vec<usize>, Vec<isize>, isize)> {
        let sub = self.require_single(op)?;
        if T::DTYPE != self.dtype() {
            return Err(Error::WrongType {
                op,
                expected: format!("the tensor's dtype {}", self.dtype()),
                found: T::DTYPE.to_string(),
            });
        }
        let (shape, strides) = flatten(op, &sub.layout)?;
        let offset =
            isize::try_from(sub.offset).map_err(|_| Error::overflow(op, "the view offset"))?;
        Ok((&sub.carrier, shape, strides, offset))
    }
}

/// One `(extent, stride)` per top-level mode of `layout`, when each coalesces to one leaf.
fn flatten(op: &'static str, layout: &Layout) -> Result<(Vec<usize>, Vec<isize>)> {
    let (mut shape, mut strides) = (vec![], vec![]);
    for i in 0..layout.rank() {
        let mode = layout.mode(i)?.coalesce();
        match (mode.shape().leaves(), mode.stride().leaves()) {
            ([e], [s]) => {
                shape.push(*e as usize);
                strides.push(*s as isize);
            }
            _ => {
                return Err(Error::not_representable(
                    op,
                    format!(
                        "mode {i} ({}) of {layout} does not step regularly (it coalesces to {mode}), so no single stride represents it",
                        layout.mode(i)?
                    ),
                ));
            }
        }
    }
    Ok((shape, strides))
}

/// The [`Shape`] of `extents`, reported as `op` when an extent is 0 (a tensor shape has
/// extents of at least 1).
fn tensor_shape(op: &'static str, extents: &[usize]) -> Result<Shape> {
    if let Some(axis) = extents.iter().position(|&e| e == 0) {
        return Err(Error::not_representable(
            op,
            format!("axis {axis} has extent 0, and a Tensor's extents are at least 1"),
        ));
    }
    let leaves: Vec<i64> = extents.iter().map(|&e| e as i64).collect();
    Shape::new(IntTuple::from(leaves))
}

/// A tensor over `data` (column-major of `extents`, moved into the carrier).
pub(crate) fn tensor_from_col_major<T: Element>(
    op: &'static str,
    extents: &[usize],
    data: impl Into<HostVec<T>>,
) -> Result<Tensor> {
    let layout = Layout::compact(&tensor_shape(op, extents)?);
    Tensor::from_vec_with(data, layout, op)
}

impl<T: Element, R: TensorRank, D: ViewRepresentation> TypedTensorView<'_, T, R, D> {
    /// A [`Tensor`] over a **copy** of this view's elements in a new carrier (compact
    /// column-major, one top-level mode per axis).
    ///
    /// ```
    /// use strideweave::TypedTensorView;
    /// let data = [1_i32, 2, 3, 4, 5, 6];
    /// let view = TypedTensorView::from_slice([2, 3], [3, 1], 0, &data)?;
    /// let t = view.to_tensor()?;
    /// assert_eq!(t.layout().to_string(), "(2,3):(1,2)");
    /// assert_eq!(t.to_vec::<i32>()?, [1, 4, 2, 5, 3, 6]);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::NotRepresentable`] when an extent is 0 (a tensor's extents are at least 1).
    pub fn to_tensor(&self) -> Result<Tensor> {
        const OP: &str = "TypedTensorView::to_tensor";
        tensor_shape(OP, self.shape())?;
        tensor_from_col_major(OP, self.shape(), self.to_col_major_engine(OP)?.into_vec())
    }
}

impl<T: Element, R: TensorRank> TypedTensor<T, R> {
    /// Moves this tensor's elements into a [`Tensor`] **without copying** them (the vector
    /// becomes the carrier).
    ///
    /// ```
    /// use strideweave::typed::TypedTensor;
    /// let owned = TypedTensor::from_vec(vec![2, 2], vec![1.0_f32, 2.0, 3.0, 4.0])?;
    /// let t = owned.into_tensor_without_copy()?;
    /// assert_eq!(t.shape().to_string(), "(2,2)");
    /// assert_eq!(t.get(&[1i64, 1].into())?.to_f64(), 4.0);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::NotRepresentable`] when an extent is 0.
    pub fn into_tensor_without_copy(self) -> Result<Tensor> {
        const OP: &str = "TypedTensor::into_tensor_without_copy";
        let shape = self.shape().to_vec();
        tensor_from_col_major(OP, &shape, self.into_vec())
    }
}
