//! [`ValidationError`]: what is wrong with caller-supplied view metadata (shape, strides,
//! offset, axes, slices), carried by [`Error::Validation`](super::Error::Validation) together
//! with the operation that found it.

use std::fmt;

/// What is wrong with the metadata of a borrowed view (module `typed`). It always arrives
/// inside [`Error::Validation`](super::Error::Validation), whose message starts with the
/// operation.
///
/// ```
/// use strideweave::{Error, ErrorKind, TypedTensorView, ValidationError, ValidationKind};
/// let data = [1_i32, 2, 3];
/// let err = TypedTensorView::from_slice([4], [1], 0, &data).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::Value);
/// let Error::Validation { op, source } = &err else { unreachable!() };
/// assert_eq!((*op, source.kind()), ("TypedTensorView::from_slice", ValidationKind::OutOfBounds));
/// assert!(matches!(source, ValidationError::ViewOutOfBounds { .. }));
/// assert!(err.to_string().starts_with("TypedTensorView::from_slice: "));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ValidationError {
    /// Two shapes (or element counts) that must agree do not.
    #[error(transparent)]
    ShapeMismatch(#[from] ShapeMismatch),
    /// A list whose length is not the rank required (shape vs strides, indices, slices).
    #[error("rank mismatch in {what}: expected {expected}, found {actual}")]
    RankMismatch {
        /// What was counted (`strides`, `indices`, `slices`, …).
        what: &'static str,
        /// The rank required.
        expected: usize,
        /// The length given.
        actual: usize,
    },
    /// An axis number not below the rank.
    #[error("axis {axis} is out of bounds for rank {rank}")]
    AxisOutOfBounds {
        /// The axis given.
        axis: usize,
        /// The rank of the view.
        rank: usize,
    },
    /// An axis listed twice in a permutation.
    #[error("duplicate {role} axis {axis}")]
    DuplicateAxis {
        /// The repeated axis.
        axis: usize,
        /// Where it was listed (`permutation`).
        role: &'static str,
    },
    /// A permutation whose length is not the rank.
    #[error("invalid permutation length: expected {expected} axes, found {actual}")]
    InvalidPermutationLength {
        /// The rank of the view.
        expected: usize,
        /// The number of axes given.
        actual: usize,
    },
    /// A slice step of zero.
    #[error("invalid slice step {step} on axis {axis}: the step must not be zero")]
    InvalidSliceStep {
        /// The axis sliced.
        axis: usize,
        /// The step given.
        step: isize,
    },
    /// Slice bounds that, after Python's normalisation, run against the step (for example
    /// `3..1` with a positive step).
    #[error(
        "invalid slice bounds on axis {axis}: start {start} and stop {stop} (normalised for extent {axis_len}) run against the step {step}"
    )]
    InvalidSliceBounds {
        /// The axis sliced.
        axis: usize,
        /// The normalised start.
        start: isize,
        /// The normalised stop.
        stop: isize,
        /// The step.
        step: isize,
        /// The extent of the axis.
        axis_len: usize,
    },
    /// An argument outside what the operation accepts, with the reason.
    #[error("invalid argument {argument}: {message}")]
    InvalidArgument {
        /// The argument's name.
        argument: &'static str,
        /// Why it is invalid, with the values.
        message: String,
    },
    /// A view that `as_slice`-like access needs compact (column-major) and is not.
    #[error("the view (shape {shape:?}, strides {strides:?}) is not compact column-major")]
    NonContiguousViewAsSlice {
        /// The view's shape.
        shape: Vec<usize>,
        /// The view's strides.
        strides: Vec<isize>,
    },
    /// A view reaching outside the slice it borrows.
    #[error(
        "the view reaches element indices {min}..={max} but the borrowed slice has {len} elements"
    )]
    ViewOutOfBounds {
        /// The lowest element index reached (offset plus every negative extent × stride).
        min: i128,
        /// The highest element index reached.
        max: i128,
        /// The length of the borrowed slice.
        len: usize,
    },
    /// A mutable view whose layout may reach one element twice.
    #[error("mutable view layout may overlap: {reason}")]
    OverlappingMutableLayout {
        /// Why non-overlap could not be proven, with the axes involved.
        reason: String,
    },
    /// Shape, stride or offset arithmetic that does not fit in `isize`/`usize`.
    #[error("integer overflow while computing {what}")]
    IntegerOverflow {
        /// The quantity being computed.
        what: &'static str,
    },
}

/// How two shapes disagree ([`ValidationError::ShapeMismatch`]).
///
/// ```
/// use strideweave::{TypedTensorView, ValidationError, Error};
/// use strideweave::typed::ShapeMismatch;
/// let data = [1_i32, 2, 3, 4];
/// let view = TypedTensorView::from_col_major(&[2, 2], &data).unwrap();
/// let err = view.reshape_view(&[3]).unwrap_err();
/// assert!(matches!(err, Error::Validation {
///     source: ValidationError::ShapeMismatch(ShapeMismatch::ReshapeElementCount { from: 4, to: 3 }), ..
/// }));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ShapeMismatch {
    /// A reshape whose target has another number of elements.
    #[error("reshape element-count mismatch: from {from} elements to {to}")]
    ReshapeElementCount {
        /// Elements of the source.
        from: usize,
        /// Elements of the target shape.
        to: usize,
    },
    /// A data vector whose length is not the shape's number of elements.
    #[error("shape has {expected} elements but the data has {actual}")]
    DataLength {
        /// The shape's number of elements.
        expected: usize,
        /// The data length.
        actual: usize,
    },
    /// Two views that must have one shape (for example `copy_from`).
    #[error("shape mismatch: expected {expected:?}, found {actual:?}")]
    ExpectedActual {
        /// The shape required.
        expected: Vec<usize>,
        /// The shape given.
        actual: Vec<usize>,
    },
}

/// The family a [`ValidationError`] belongs to.
///
/// ```
/// use strideweave::{ValidationError, ValidationKind};
/// let e = ValidationError::AxisOutOfBounds { axis: 3, rank: 2 };
/// assert_eq!(e.kind(), ValidationKind::AxisOutOfBounds);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ValidationKind {
    /// Shapes or element counts disagree.
    ShapeMismatch,
    /// A list has the wrong length (rank mismatch, permutation length).
    RankMismatch,
    /// An axis is out of bounds or repeated.
    AxisOutOfBounds,
    /// A view reaches outside its slice.
    OutOfBounds,
    /// Metadata arithmetic overflowed.
    IntegerOverflow,
    /// Any other invalid argument (slice step or bounds, non-compact layout, overlap).
    InvalidArgument,
}

impl ValidationError {
    /// The family of this error.
    ///
    /// ```
    /// use strideweave::{ValidationError, ValidationKind};
    /// let e = ValidationError::InvalidSliceStep { axis: 0, step: 0 };
    /// assert_eq!(e.kind(), ValidationKind::InvalidArgument);
    /// ```
    pub fn kind(&self) -> ValidationKind {
        match self {
            ValidationError::ShapeMismatch(_) => ValidationKind::ShapeMismatch,
            ValidationError::RankMismatch { .. }
            | ValidationError::InvalidPermutationLength { .. } => ValidationKind::RankMismatch,
            ValidationError::AxisOutOfBounds { .. } | ValidationError::DuplicateAxis { .. } => {
                ValidationKind::AxisOutOfBounds
            }
            ValidationError::ViewOutOfBounds { .. } => ValidationKind::OutOfBounds,
            ValidationError::IntegerOverflow { .. } => ValidationKind::IntegerOverflow,
            _ => ValidationKind::InvalidArgument,
        }
    }
}

impl fmt::Display for ValidationKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}
