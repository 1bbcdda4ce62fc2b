//! [`TypedViewGuard`]: a tensor's carrier locked for reading and seen as a typed view, so
//! `Tensor::typed_view::<T>()` can return the view instead of lending it to a closure.

use super::layout::TensorLayout;
use super::owned::TypedTensor;
use super::rank::DynRank;
use super::view::TypedTensorView;
use crate::carrier::{Carrier, ReadLock};
use crate::dtype::Element;
use crate::error::Result;
use std::fmt;
use std::marker::PhantomData;

/// A one-subtensor [`Tensor`](crate::Tensor)'s elements borrowed as a typed view, returned
/// by [`Tensor::typed_view`](crate::Tensor::typed_view). It holds the carrier's storage
/// locked for reading: [`view`](Self::view) lends a [`TypedTensorView`] over it, and the
/// most used read methods are here too.
///
/// While the guard lives, writers to the carrier (through any tensor or handle sharing it)
/// block until it drops. Writing to the same carrier on the thread that holds the guard is
/// an error (re-entrant access), not a deadlock: drop the guard, or use
/// [`Tensor::with_typed_view`](crate::Tensor::with_typed_view), before writing.
///
/// ```
/// use strideweave::Tensor;
/// let t = Tensor::arange::<f32>(&"(2,3)".parse().unwrap());
/// let v = t.typed_view::<f32>()?;
/// assert_eq!(v.get(&[1, 0]), Some(&1.0));
/// assert_eq!((v.shape(), v.strides(), v.offset()), (&[2, 3][..], &[1, 2][..], 0));
/// let col = v.view().slice_axis_view(1, strideweave::StridedSliceSpec::new(Some(2), None, 1))?;
/// assert_eq!(col.as_slice()?, &[4.0, 5.0]);
/// assert!(t.carrier().write(|x: &mut [f32]| x[0] = 9.0).is_err()); // held by `v`
/// drop(v); // release the read lock before writing
/// t.carrier().write(|x: &mut [f32]| x[0] = 9.0)?;
/// # Ok::<(), strideweave::Error>(())
/// ```
pub struct TypedViewGuard<'t, T> {
    storage: ReadLock<'t>,
    layout: TensorLayout<DynRank>,
    element: PhantomData<fn() -> T>,
}

const OP: &str = "Tensor::typed_view";

impl<'t, T: Element> TypedViewGuard<'t, T> {
    /// Locks `carrier` for reading and checks `layout` against its elements.
    pub(crate) fn new(
        carrier: &'t Carrier,
        shape: Vec<usize>,
        strides: Vec<isize>,
        offset: isize,
    ) -> Result<Self> {
        let storage = carrier.read_lock(OP)?;
        let host = storage.host(OP)?;
        let data: &[T] = T::slice(host).ok_or_else(|| crate::error::Error::WrongType {
            op: OP,
            expected: format!("the carrier's dtype {}", carrier.dtype()),
            found: T::DTYPE.to_string(),
        })?;
        let layout = TensorLayout::checked(OP, shape, strides, offset, data.len())?;
        Ok(TypedViewGuard {
            storage,
            layout,
            element: PhantomData,
        })
    }

    /// The locked elements (the whole carrier).
    ///
    /// # Panics
    ///
    /// Only when a foreign [`CarrierStorage`](crate::CarrierStorage) stops lending the
    /// elements it lent when the guard was made, while it is locked for reading (a breach of
    /// the trait's contract); the host class never does.
    fn data(&self) -> &[T] {
        // unreachable from user input: only a foreign CarrierStorage that breaks its contract
        // (other elements while read-locked) reaches the expect; documented under # Panics.
        self.storage
            .host(OP)
            .ok()
            .and_then(T::slice)
            .expect("a storage locked for reading lends the elements it lent when the guard was made (checked then)")
    }

    /// The view over the locked elements (no copy); it lives as long as this borrow of the
    /// guard.
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let t = Tensor::arange::<i32>(&"(2,2)".parse().unwrap()).permute(&[1, 0])?;
    /// let g = t.typed_view::<i32>()?;
    /// assert_eq!(g.view().to_col_major()?.into_vec(), [0, 2, 1, 3]);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn view(&self) -> TypedTensorView<'_, T> {
        TypedTensorView::host(self.data(), self.layout.clone())
    }

    /// The element at a logical index; `None` for an index of the wrong length or outside
    /// its axis ([`TypedTensorView::get`]).
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<i64>(&"(2,3)".parse().unwrap()).reverse(1)?;
    /// let v = t.typed_view::<i64>()?;
    /// assert_eq!((v.get(&[1, 0]), v.get(&[2, 0])), (Some(&5), None));
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn get(&self, indices: &[usize]) -> Option<&T> {
        let i = self.layout.index_of(OP, indices).ok()?;
        self.data().get(i)
    }

    /// The logical shape ([`TypedTensorView::shape`]).
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<u8>(&"(2,3)".parse().unwrap());
    /// assert_eq!(t.typed_view::<u8>()?.shape(), &[2, 3]);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn shape(&self) -> &[usize] {
        self.layout.shape()
    }

    /// The strides in elements ([`TypedTensorView::strides`]).
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<u8>(&"(2,3)".parse().unwrap()).reverse(0)?;
    /// assert_eq!(t.typed_view::<u8>()?.strides(), &[-1, 2]);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn strides(&self) -> &[isize] {
        self.layout.strides()
    }

    /// The index of element `(0, …, 0)` in the carrier ([`TypedTensorView::offset`]).
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<u8>(&"(2,3)".parse().unwrap()).reverse(0)?;
    /// assert_eq!(t.typed_view::<u8>()?.offset(), 1);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn offset(&self) -> isize {
        self.layout.offset()
    }

    /// The rank ([`TypedTensorView::rank`]).
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<u8>(&"(2,3,1)".parse().unwrap());
    /// assert_eq!(t.typed_view::<u8>()?.rank(), 3);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn rank(&self) -> usize {
        self.layout.rank()
    }

    /// The number of logical elements ([`TypedTensorView::n_elements`]).
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<u8>(&"(2,3)".parse().unwrap());
    /// assert_eq!(t.typed_view::<u8>()?.n_elements(), 6);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn n_elements(&self) -> usize {
        self.layout.n_elements()
    }

    /// The layout metadata ([`TypedTensorView::layout`]).
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<u8>(&"(2,3)".parse().unwrap());
    /// assert!(t.typed_view::<u8>()?.layout().is_compact_col_major()?);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn layout(&self) -> &TensorLayout<DynRank> {
        &self.layout
    }

    /// The logical elements as one slice when the view is compact column-major
    /// ([`TypedTensorView::as_slice`], no copy).
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<i32>(&"(2,2)".parse().unwrap());
    /// assert_eq!(t.typed_view::<i32>()?.as_slice()?, &[0, 1, 2, 3]);
    /// assert!(t.permute(&[1, 0])?.typed_view::<i32>()?.as_slice().is_err());
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// Those of [`TypedTensorView::as_slice`] (`NonContiguousViewAsSlice` for a strided
    /// view).
    pub fn as_slice(&self) -> Result<&[T]> {
        self.view().as_slice()
    }

    /// A compact column-major copy of the logical elements
    /// ([`TypedTensorView::to_col_major`]).
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<i32>(&"(2,2)".parse().unwrap()).permute(&[1, 0])?;
    /// assert_eq!(t.typed_view::<i32>()?.to_col_major()?.into_vec(), [0, 2, 1, 3]);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// Those of [`TypedTensorView::to_col_major`].
    pub fn to_col_major(&self) -> Result<TypedTensor<T>> {
        self.view()
            .to_col_major_engine("TypedViewGuard::to_col_major")
    }

    /// Calls `f` on each logical element in column-major order (first axis fastest).
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<i32>(&"(2,2)".parse().unwrap()).reverse(0)?;
    /// let mut seen = vec![];
    /// t.typed_view::<i32>()?.for_each(|&x| seen.push(x));
    /// assert_eq!(seen, [1, 0, 3, 2]);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn for_each(&self, mut f: impl FnMut(&T)) {
        let data = self.data();
        self.layout.for_each_index(|i| f(&data[i]));
    }
}

impl<T: Element> fmt::Debug for TypedViewGuard<'_, T> {
    /// The view's metadata, as [`TypedTensorView`]'s `Debug`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("TypedViewGuard").field(&self.view()).finish()
    }
}
