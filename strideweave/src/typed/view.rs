//! [`TypedTensorView`]: the struct, its constructors and its read-only accessors.

use super::layout::{TensorLayout, col_major_strides, is_compact};
use super::rank::{DynRank, TensorRank};
use super::repr::{Dynamic, Host, Placement, ViewRepresentation};
use crate::error::{Error, Result};
use crate::validation::ValidationError;
use std::fmt;
use std::marker::PhantomData;

/// A read-only, borrowed view of a slice `&'a [T]` with a logical shape, signed strides and
/// a signed offset (all in elements): element `(i₀, i₁, …)` is
/// `data[offset + Σ iₖ · strides[k]]`.
///
/// Every constructor checks every reachable index against the slice, so
/// [`get`](Self::get) never panics and views of views stay inside the slice. Transposing,
/// slicing and (for compact views) reshaping change only the metadata; copies happen only in
/// [`to_col_major`](Self::to_col_major) and [`duplicate`](Self::duplicate). `R` is the rank
/// ([`Rank<N>`](crate::Rank) or [`DynRank`]); `D` marks the representation that produced the
/// view ([`Host`] or [`Dynamic`]); every view of this crate borrows host memory.
///
/// ```
/// use strideweave::{Rank, TypedTensorView};
///
/// let data = [1_i32, 2, 3, 4];
/// let view = TypedTensorView::<_, Rank<2>>::from_slice_ranked([2, 2], [1, 2], 0, &data)?;
/// assert_eq!(view.get(&[1, 1]), Some(&4));
/// # Ok::<(), strideweave::Error>(())
/// ```
pub struct TypedTensorView<'a, T, R: TensorRank = DynRank, D: ViewRepresentation = Dynamic> {
    pub(crate) data: &'a [T],
    pub(crate) layout: TensorLayout<R>,
    pub(crate) placement: Placement,
    pub(crate) repr: PhantomData<D>,
}

/// A second view of the same borrow and layout (no element is copied, and `T` need not be
/// `Clone`).
///
/// ```
/// use strideweave::TypedTensorView;
/// struct NotClone(i32);
/// let data = [NotClone(1), NotClone(2)];
/// let view = TypedTensorView::from_slice([2], [-1], 1, &data)?;
/// let again = view.clone();
/// assert_eq!(again.get(&[0]).map(|x| x.0), Some(2));
/// assert!(std::ptr::eq(again.host_storage()?, view.host_storage()?));
/// # Ok::<(), strideweave::Error>(())
/// ```
impl<'a, T, R: TensorRank, D: ViewRepresentation> Clone for TypedTensorView<'a, T, R, D> {
    fn clone(&self) -> Self {
        TypedTensorView {
            data: self.data,
            layout: self.layout.clone(),
            placement: self.placement,
            repr: PhantomData,
        }
    }
}

/// The layout and placement, not the elements (`T` need not be `Debug`).
///
/// ```
/// use strideweave::TypedTensorView;
/// let data = [1_u8, 2, 3];
/// let view = TypedTensorView::from_slice([2], [1], 1, &data)?;
/// assert_eq!(
///     format!("{view:?}"),
///     "TypedTensorView { element: \"u8\", shape: [2], strides: [1], offset: 1, storage_len: 3, \
///      placement: Placement { memory_kind: UnpinnedHost, device_ordinal: None }, representation: Dynamic }"
/// );
/// # Ok::<(), strideweave::Error>(())
/// ```
impl<'a, T, R: TensorRank, D: ViewRepresentation> fmt::Debug for TypedTensorView<'a, T, R, D> {
    /// The layout, the placement and the length of the borrowed slice (not the elements,
    /// so `T` need not be `Debug`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("TypedTensorView")
            .field("element", &std::any::type_name::<T>())
            .field("shape", &self.shape())
            .field("strides", &self.strides())
            .field("offset", &self.offset())
            .field("storage_len", &self.data.len())
            .field("placement", &self.placement)
            .field("representation", &D::default())
            .finish()
    }
}

impl<'a, T> TypedTensorView<'a, T, DynRank> {
    /// Create a borrowed dynamic-rank view over compact column-major host data (first axis
    /// fastest, offset 0). `data` may be longer than the view.
    ///
    /// ```
    /// use strideweave::TypedTensorView;
    ///
    /// let data = [1_i32, 2, 3, 4];
    /// let view = TypedTensorView::from_col_major(&[2, 2], &data)?;
    /// assert_eq!(view.strides(), &[1, 2]);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Validation`] with [`ValidationError::IntegerOverflow`] when compact strides or
    /// reachable bounds overflow, or [`ValidationError::ViewOutOfBounds`] when the shape
    /// reaches beyond `data`.
    pub fn from_col_major(shape: &[usize], data: &'a [T]) -> Result<Self> {
        const OP: &str = "TypedTensorView::from_col_major";
        let strides = col_major_strides(OP, shape)?;
        Self::build(OP, shape.to_vec(), strides, 0, data)
    }

    /// Create a borrowed host view from explicit layout metadata.
    ///
    /// ```
    /// use strideweave::TypedTensorView;
    ///
    /// let data = [1_i32, 2, 3];
    /// let view = TypedTensorView::from_slice(vec![3], vec![-1], 2, &data)?;
    /// assert_eq!(view.get(&[2]), Some(&1));
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Validation`] with [`ValidationError::RankMismatch`] when shape and strides
    /// have different ranks, [`ValidationError::ViewOutOfBounds`] when the reachable layout
    /// exceeds `data`, or [`ValidationError::IntegerOverflow`] when layout arithmetic
    /// overflows.
    pub fn from_slice(
        shape: impl AsRef<[usize]>,
        strides: impl AsRef<[isize]>,
        offset: isize,
        data: &'a [T],
    ) -> Result<Self> {
        let (shape, strides) = (shape.as_ref().to_vec(), strides.as_ref().to_vec());
        Self::build("TypedTensorView::from_slice", shape, strides, offset, data)
    }
}

impl<'a, T, R: TensorRank, D: ViewRepresentation> TypedTensorView<'a, T, R, D> {
    pub(crate) fn build(
        op: &'static str,
        shape: R::Shape,
        strides: R::Strides,
        offset: isize,
        data: &'a [T],
    ) -> Result<Self> {
        let layout = TensorLayout::checked(op, shape, strides, offset, data.len())?;
        Ok(Self::host(data, layout))
    }

    /// The host view of `data` through `layout`, which was checked against `data`.
    pub(crate) fn host(data: &'a [T], layout: TensorLayout<R>) -> Self {
        TypedTensorView {
            data,
            layout,
            placement: Placement::host(),
            repr: PhantomData,
        }
    }

    /// Create a rank-generic borrowed host view from explicit layout metadata. With
    /// [`Rank<N>`](crate::Rank) the shape and strides are arrays of length `N` (another
    /// length does not compile).
    ///
    /// ```
    /// use strideweave::{Rank, TypedTensorView};
    ///
    /// let data = [1_i32, 2, 3, 4];
    /// let view = TypedTensorView::<_, Rank<2>>::from_slice_ranked([2, 2], [1, 2], 0, &data)?;
    /// assert_eq!(view.get(&[1, 1]), Some(&4));
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Validation`] with [`ValidationError::RankMismatch`] when the shape and the
    /// strides of a [`DynRank`] view differ in length, [`ValidationError::ViewOutOfBounds`]
    /// when the reachable layout exceeds `data`, or [`ValidationError::IntegerOverflow`]
    /// when layout arithmetic overflows.
    pub fn from_slice_ranked(
        shape: impl Into<R::Shape>,
        strides: impl Into<R::Strides>,
        offset: isize,
        data: &'a [T],
    ) -> Result<Self> {
        const OP: &str = "TypedTensorView::from_slice_ranked";
        Self::build(OP, shape.into(), strides.into(), offset, data)
    }

    /// Return the logical shape.
    ///
    /// ```
    /// use strideweave::TypedTensorView;
    ///
    /// let data = [0_i32; 2];
    /// let view = TypedTensorView::from_slice(vec![2], vec![1], 0, &data)?;
    /// assert_eq!(view.shape(), &[2]);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn shape(&self) -> &[usize] {
        self.layout.shape()
    }

    /// Return the logical rank carried by this view.
    ///
    /// ```
    /// use strideweave::TypedTensorView;
    ///
    /// let data = [0_i32; 6];
    /// let view = TypedTensorView::from_slice(vec![2, 3], vec![1, 2], 0, &data)?;
    /// assert_eq!(view.rank(), 2);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn rank(&self) -> usize {
        self.layout.rank()
    }

    /// Return strides in element units.
    ///
    /// ```
    /// use strideweave::TypedTensorView;
    ///
    /// let data = [0_i32; 2];
    /// let view = TypedTensorView::from_slice(vec![2], vec![-1], 1, &data)?;
    /// assert_eq!(view.strides(), &[-1]);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn strides(&self) -> &[isize] {
        self.layout.strides()
    }

    /// Return the physical element offset (the index of element `(0, …, 0)` in the slice).
    ///
    /// ```
    /// use strideweave::TypedTensorView;
    ///
    /// let data = [1_i32, 2];
    /// let view = TypedTensorView::from_slice(vec![1], vec![1], 1, &data)?;
    /// assert_eq!(view.offset(), 1);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn offset(&self) -> isize {
        self.layout.offset()
    }

    /// Return the borrowed host storage backing this view: the entire slice the view was
    /// built over, not just the logical region (use [`as_slice`](Self::as_slice) for that).
    ///
    /// ```
    /// use strideweave::TypedTensorView;
    ///
    /// let data = [1_i32, 2];
    /// let view = TypedTensorView::from_slice(vec![2], vec![1], 0, &data)?;
    /// assert_eq!(view.host_storage()?, &[1, 2]);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Runtime`] when the view wraps storage that is not host memory; every view
    /// built by this crate borrows a host slice, so this does not happen today.
    pub fn host_storage(&self) -> Result<&'a [T]> {
        self.require_host("TypedTensorView::host_storage")?;
        Ok(self.data)
    }

    /// The runtime-state check of host access (always passes for host placements).
    pub(crate) fn require_host(&self, op: &'static str) -> Result<()> {
        if self.placement.memory_kind.is_host() {
            return Ok(());
        }
        Err(Error::Runtime {
            op,
            detail: format!(
                "the view's storage is in {:?} memory; download it before host inspection",
                self.placement.memory_kind
            ),
        })
    }

    /// Return the number of logical elements in this view.
    ///
    /// ```
    /// use strideweave::TypedTensorView;
    ///
    /// let data = [0_i32; 6];
    /// let view = TypedTensorView::from_slice(vec![2, 3], vec![1, 2], 0, &data)?;
    /// assert_eq!(view.n_elements(), 6);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn n_elements(&self) -> usize {
        self.layout.n_elements()
    }

    /// Return layout metadata for this view.
    ///
    /// ```
    /// use strideweave::TypedTensorView;
    ///
    /// let data = [1_i32, 2];
    /// let view = TypedTensorView::from_slice(vec![2], vec![1], 0, &data)?;
    /// assert!(view.layout().is_compact_col_major().unwrap());
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn layout(&self) -> &TensorLayout<R> {
        &self.layout
    }

    /// Return placement metadata for this view.
    ///
    /// ```
    /// use strideweave::{MemoryKind, TypedTensorView};
    ///
    /// let data = [1_i32];
    /// let view = TypedTensorView::from_slice(vec![1], vec![1], 0, &data)?;
    /// assert_eq!(view.placement().memory_kind, MemoryKind::UnpinnedHost);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn placement(&self) -> &Placement {
        &self.placement
    }

    /// Compute the physical element offset for a logical index; `None` when `indices` has
    /// the wrong length or an index is outside its axis.
    ///
    /// ```
    /// use strideweave::TypedTensorView;
    ///
    /// let data = [1_i32, 2, 3];
    /// let view = TypedTensorView::from_slice(vec![3], vec![-1], 2, &data)?;
    /// assert_eq!(view.linear_offset(&[2]), Some(0));
    /// assert_eq!(view.linear_offset(&[3]), None);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn linear_offset(&self, indices: &[usize]) -> Option<usize> {
        self.layout
            .index_of("TypedTensorView::linear_offset", indices)
            .ok()
    }

    /// Compute the physical element offset for a logical index, returning a typed error.
    ///
    /// ```
    /// use strideweave::TypedTensorView;
    ///
    /// let data = [1_i32, 2, 3];
    /// let view = TypedTensorView::from_slice([3], [-1], 2, &data)?;
    /// assert_eq!(view.layout_linear_offset(&[2])?, 0);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Validation`] with [`ValidationError::RankMismatch`] when `indices` has the
    /// wrong rank, [`ValidationError::InvalidArgument`] when an index is outside its axis
    /// extent, or [`ValidationError::IntegerOverflow`] when offset arithmetic overflows.
    pub fn layout_linear_offset(&self, indices: &[usize]) -> Result<usize> {
        self.layout
            .index_of("TypedTensorView::layout_linear_offset", indices)
    }

    /// Return whether this view is compact column-major (see
    /// [`TensorLayout::is_compact_col_major`]).
    ///
    /// ```
    /// use strideweave::TypedTensorView;
    ///
    /// let data = [1_i32, 2];
    /// let view = TypedTensorView::from_slice([2], [1], 0, &data)?;
    /// assert!(view.is_col_major_contiguous()?);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Validation`] with [`ValidationError::IntegerOverflow`] if compactness
    /// arithmetic overflows.
    pub fn is_col_major_contiguous(&self) -> Result<bool> {
        Ok(is_compact(self.shape(), self.strides()))
    }

    /// Return a compact string summary of this view's layout metadata:
    /// `shape=[..] strides=[..] offset=.. storage_len=..`.
    ///
    /// ```
    /// use strideweave::TypedTensorView;
    ///
    /// let data = [1_i32, 2];
    /// let view = TypedTensorView::from_slice([2], [1], 0, &data)?;
    /// assert!(view.layout_summary().contains("shape=[2]"));
    /// assert_eq!(view.layout_summary(), "shape=[2] strides=[1] offset=0 storage_len=2");
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn layout_summary(&self) -> String {
        format!(
            "shape={:?} strides={:?} offset={} storage_len={}",
            self.shape(),
            self.strides(),
            self.offset(),
            self.data.len()
        )
    }

    /// Assert this view is compact column-major.
    ///
    /// ```
    /// use strideweave::TypedTensorView;
    ///
    /// let data = [1_i32, 2];
    /// let view = TypedTensorView::from_slice([2], [1], 0, &data)?;
    /// view.assert_col_major_contiguous()?;
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Validation`] with [`ValidationError::IntegerOverflow`] when compactness
    /// arithmetic overflows, or [`ValidationError::InvalidArgument`] when the view is not
    /// compact column-major.
    pub fn assert_col_major_contiguous(&self) -> Result<()> {
        const OP: &str = "TypedTensorView::assert_col_major_contiguous";
        if is_compact(self.shape(), self.strides()) {
            return Ok(());
        }
        Err(Error::validation(
            OP,
            ValidationError::InvalidArgument {
                argument: "view",
                message: format!(
                    "the layout {} is not compact column-major",
                    self.layout_summary()
                ),
            },
        ))
    }

    /// Borrow one host element by logical index; `None` for an index of the wrong length or
    /// outside its axis.
    ///
    /// ```
    /// use strideweave::TypedTensorView;
    ///
    /// let data = [1_i32, 2];
    /// let view = TypedTensorView::from_slice(vec![2], vec![1], 0, &data)?;
    /// assert_eq!(view.get(&[1]), Some(&2));
    /// assert_eq!(view.get(&[2]), None);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn get(&self, indices: &[usize]) -> Option<&'a T> {
        self.data.get(self.linear_offset(indices)?)
    }

    /// Borrow the contiguous host slice covered by this view (the `n_elements()` elements
    /// from the offset), when the view is compact column-major. A view without elements
    /// gives an empty slice. Never copies.
    ///
    /// ```
    /// use strideweave::TypedTensorView;
    ///
    /// let data = [1_i32, 2, 3];
    /// let view = TypedTensorView::from_slice(vec![2], vec![1], 1, &data)?;
    /// assert_eq!(view.as_slice()?, &[2, 3]);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Runtime`] for storage that is not host memory (none today);
    /// [`Error::Validation`] with [`ValidationError::NonContiguousViewAsSlice`] when the
    /// layout is not compact column-major, [`ValidationError::InvalidArgument`] when the
    /// offset of an empty view is negative, [`ValidationError::ViewOutOfBounds`] when the
    /// offset of an empty view is beyond the slice, or [`ValidationError::IntegerOverflow`].
    pub fn as_slice(&self) -> Result<&'a [T]> {
        self.logical_slice("TypedTensorView::as_slice")
    }

    /// [`ValidationError::NonContiguousViewAsSlice`], reported as `op`, unless the view is
    /// compact column-major.
    pub(crate) fn require_compact(&self, op: &'static str) -> Result<()> {
        if is_compact(self.shape(), self.strides()) {
            return Ok(());
        }
        let (shape, strides) = (self.shape().to_vec(), self.strides().to_vec());
        Err(Error::validation(
            op,
            ValidationError::NonContiguousViewAsSlice { shape, strides },
        ))
    }

    /// The compact logical region, reported as `op`.
    pub(crate) fn logical_slice(&self, op: &'static str) -> Result<&'a [T]> {
        self.require_host(op)?;
        self.require_compact(op)?;
        let Ok(start) = usize::try_from(self.offset()) else {
            return Err(Error::validation(
                op,
                ValidationError::InvalidArgument {
                    argument: "offset",
                    message: format!(
                        "the offset {} is negative, so no host range starts there",
                        self.offset()
                    ),
                },
            ));
        };
        let n = self.n_elements();
        match start.checked_add(n) {
            Some(end) if end <= self.data.len() => Ok(&self.data[start..end]),
            _ => Err(Error::validation(
                op,
                ValidationError::ViewOutOfBounds {
                    min: start as i128,
                    max: start as i128 + n as i128 - 1,
                    len: self.data.len(),
                },
            )),
        }
    }
}

impl<'a, T, R: TensorRank> TypedTensorView<'a, T, R, Host> {
    /// Create a representation-marked view over an explicit host layout. A
    /// [`Host`]-marked view is only ever built from a host slice, so
    /// [`as_host_slice`](Self::as_host_slice) needs no runtime check.
    ///
    /// ```
    /// use strideweave::{DynRank, Host, TypedTensorView};
    ///
    /// let data = [1_i32, 2, 3, 4];
    /// let view: TypedTensorView<'_, i32, DynRank, Host> =
    ///     TypedTensorView::from_host_slice(vec![2, 2], vec![1, 2], 0, &data)?;
    /// assert_eq!(view.as_host_slice(), &[1, 2, 3, 4]);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Validation`] with [`ValidationError::RankMismatch`] when the strides have a
    /// different rank, or [`ValidationError::ViewOutOfBounds`] /
    /// [`ValidationError::IntegerOverflow`] when the reachable layout leaves `data` or
    /// overflows.
    pub fn from_host_slice(
        shape: impl Into<R::Shape>,
        strides: impl Into<R::Strides>,
        offset: isize,
        data: &'a [T],
    ) -> Result<Self> {
        const OP: &str = "TypedTensorView::from_host_slice";
        Self::build(OP, shape.into(), strides.into(), offset, data)
    }

    /// Borrow the host elements (the entire backing slice, like
    /// [`host_storage`](Self::host_storage)) without a runtime representation check.
    ///
    /// ```
    /// use strideweave::{DynRank, Host, TypedTensorView};
    ///
    /// let data = [1_i32, 2];
    /// let view: TypedTensorView<'_, i32, DynRank, Host> =
    ///     TypedTensorView::from_host_slice(vec![2], vec![1], 0, &data)?;
    /// assert_eq!(view.as_host_slice(), &[1, 2]);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    ///
    /// # Panics
    ///
    /// Never: a `Host`-marked view is only built from a host slice.
    pub fn as_host_slice(&self) -> &'a [T] {
        self.data
    }
}
