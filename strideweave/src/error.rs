//! One error type for every fallible operation: no public function panics on bad input, and a
//! failed call leaves every carrier's values, version and release state as they were.
//!
//! Each variant carries what a person needs to act: the operation, the mode, the values.
//! [`Error::kind`] sorts a variant into one of four kinds of mistake (wrong kind of input,
//! wrong value, unsupported request, wrong state), named after Python's exception classes.

use std::fmt;

/// The result type of every fallible StrideWeave operation.
///
/// ```
/// fn size_of(text: &str) -> strideweave::Result<usize> {
///     let l: strideweave::Layout = text.parse()?;
///     Ok(l.shape().size())
/// }
/// assert_eq!(size_of("(2,3):(1,2)").unwrap(), 6);
/// assert!(size_of("(2,0):(1,2)").is_err());
/// ```
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// The kind of mistake an [`Error`] reports, named after the Python exception class it
/// corresponds to.
///
/// ```
/// use strideweave::{ErrorKind, Shape, IntTuple};
/// let err = Shape::new(IntTuple::from([2, 0])).unwrap_err();
/// assert_eq!(err.kind(), ErrorKind::Value);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// An input of the wrong kind (Python's `TypeError`).
    Type,
    /// An input of the right kind with a wrong value (`ValueError`).
    Value,
    /// A valid request that this representation does not support (`NotImplementedError`).
    NotImplemented,
    /// A state error: released storage, a stale version, a released graph (`RuntimeError`).
    Runtime,
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ErrorKind::Type => "TypeError",
            ErrorKind::Value => "ValueError",
            ErrorKind::NotImplemented => "NotImplementedError",
            ErrorKind::Runtime => "RuntimeError",
        })
    }
}

/// Everything that can go wrong, with the context to act on it.
///
/// Messages start with the operation (`compose`, `index`, `Shape::new`, …) and name the mode
/// and the values involved.
///
/// ```
/// use strideweave::Layout;
/// let l: Layout = "(5,10):(1,5)".parse().unwrap();
/// let err = l.index(&[5i64, 0].into()).unwrap_err();
/// assert_eq!(err.to_string(), "index: coordinate 5 is outside mode 0 of extent 5 (valid: 0..5)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A shape leaf below 1.
    #[error("{op}: extent {extent} at mode {mode} must be at least 1")]
    InvalidExtent {
        /// The operation.
        op: &'static str,
        /// Path of the offending leaf, e.g. `1.0`.
        mode: String,
        /// The offending extent.
        extent: i64,
    },
    /// Shape and stride (or two operands) differ in leaf-and-nesting structure.
    #[error("{op}: {detail}")]
    NotCongruent {
        /// The operation.
        op: &'static str,
        /// Where and how the structures differ.
        detail: String,
    },
    /// A coordinate, ordinal, mode index or key outside its domain.
    #[error("{op}: {what} {value} is outside {place} (valid: 0..{bound})")]
    OutOfDomain {
        /// The operation.
        op: &'static str,
        /// What was out of range (`coordinate`, `ordinal`, `mode index`, …).
        what: &'static str,
        /// The offending value.
        value: i64,
        /// Where, e.g. `mode 0 of extent 5`.
        place: String,
        /// The exclusive upper bound.
        bound: i64,
    },
    /// A number of modes, keys, elements or entries that does not fit (for example a data
    /// vector whose length is not the size of the shape, in every constructor).
    #[error("{op}: expected {expected} {what}, found {found}")]
    RankMismatch {
        /// The operation.
        op: &'static str,
        /// What is counted (`top-level modes`, `keys`, `elements`, …).
        what: &'static str,
        /// The count required.
        expected: usize,
        /// The count given.
        found: usize,
    },
    /// Two shapes that must agree do not.
    #[error("{op}: shape {found} does not match {expected}: {detail}")]
    ShapeMismatch {
        /// The operation.
        op: &'static str,
        /// The shape required (CuTe notation).
        expected: String,
        /// The shape given.
        found: String,
        /// How they differ.
        detail: String,
    },
    /// A negative stride where the algebra needs non-negative ones.
    #[error(
        "{op}: stride {stride} at mode {mode} is negative; this operation is defined only for non-negative strides"
    )]
    NegativeStride {
        /// The operation.
        op: &'static str,
        /// Path of the offending leaf.
        mode: String,
        /// The stride.
        stride: i64,
    },
    /// A layout that must be injective is not.
    #[error("{op}: layout {layout} is not injective (two coordinates reach the same index)")]
    NotInjective {
        /// The operation.
        op: &'static str,
        /// The layout, CuTe notation.
        layout: String,
    },
    /// A result that no Layout can represent exactly (never silently truncated).
    #[error("{op}: {reason}")]
    NotRepresentable {
        /// The operation.
        op: &'static str,
        /// Why, with the values involved.
        reason: String,
    },
    /// Checked index arithmetic overflowed `i64`.
    #[error("{op}: integer overflow while computing {what}")]
    Overflow {
        /// The operation.
        op: &'static str,
        /// The quantity being computed.
        what: &'static str,
    },
    /// A question whose exact answer would take more work or memory than one call may spend
    /// (an exact check over a huge domain, an allocation that cannot be made).
    #[error("{op}: {detail}")]
    TooLarge {
        /// The operation.
        op: &'static str,
        /// What was too large, with its size and the limit.
        detail: String,
    },
    /// A permutation, selection or axis list that is not valid.
    #[error("{op}: {detail}")]
    InvalidAxes {
        /// The operation.
        op: &'static str,
        /// What is wrong with the list.
        detail: String,
    },
    /// Two extents that the operation pairs are not equal (`dot` of vectors of different
    /// lengths, `matmul`'s inner extents, `cross` of vectors that are not 3-long); the message
    /// names both extents. Shaped algebra never broadcasts to make them agree.
    ///
    /// ```
    /// # use strideweave::{Error, ErrorKind};
    /// let err = Error::DimensionMismatch { op: "dot", detail: "lengths 3 and 4 differ".into() };
    /// assert_eq!(err.to_string(), "dot: lengths 3 and 4 differ");
    /// assert_eq!(err.kind(), ErrorKind::Value);
    /// ```
    #[error("{op}: {detail}")]
    DimensionMismatch {
        /// The operation.
        op: &'static str,
        /// Which extents, with both values.
        detail: String,
    },
    /// Axis lists of a contraction that do not pair up: unequal counts, or paired axes whose
    /// extents differ.
    ///
    /// ```
    /// # use strideweave::Error;
    /// let err = Error::InvalidContraction { op: "contract", detail: "2 left axes but 1 right axis".into() };
    /// assert_eq!(err.to_string(), "contract: 2 left axes but 1 right axis");
    /// ```
    #[error("{op}: {detail}")]
    InvalidContraction {
        /// The operation.
        op: &'static str,
        /// What does not pair, with the axes and extents.
        detail: String,
    },
    /// An axis number outside the operand's rank.
    ///
    /// ```
    /// # use strideweave::Error;
    /// let err = Error::InvalidAxis { op: "contract", operand: "left", axis: 3, rank: 2 };
    /// assert_eq!(err.to_string(), "contract: axis 3 of the left operand is out of range for rank 2");
    /// ```
    #[error("{op}: axis {axis} of the {operand} operand is out of range for rank {rank}")]
    InvalidAxis {
        /// The operation.
        op: &'static str,
        /// Which operand (`left`, `right`, `input`, …).
        operand: &'static str,
        /// The axis given.
        axis: usize,
        /// The operand's rank.
        rank: usize,
    },
    /// An axis named twice in one axis list.
    ///
    /// ```
    /// # use strideweave::Error;
    /// let err = Error::DuplicateAxis { op: "contract", operand: "right", axis: 1 };
    /// assert_eq!(err.to_string(), "contract: axis 1 appears more than once in the right operand's axes");
    /// ```
    #[error("{op}: axis {axis} appears more than once in the {operand} operand's axes")]
    DuplicateAxis {
        /// The operation.
        op: &'static str,
        /// Which operand's list.
        operand: &'static str,
        /// The repeated axis.
        axis: usize,
    },
    /// A broadcast that the contract does not allow.
    #[error("{op}: cannot broadcast {from} to {to}: {detail}")]
    InvalidBroadcast {
        /// The operation.
        op: &'static str,
        /// Source shape.
        from: String,
        /// Target shape.
        to: String,
        /// Which mode and why.
        detail: String,
    },
    /// A slice key, step or interval that is not valid.
    #[error("{op}: {detail}")]
    InvalidRange {
        /// The operation.
        op: &'static str,
        /// Which mode, which interval, which step.
        detail: String,
    },
    /// A placement that reaches outside its carrier: some `offset + layout(coordinate)` is
    /// negative or not below the carrier's length.
    #[error("{op}: {detail}")]
    ViewOutOfBounds {
        /// The operation.
        op: &'static str,
        /// Which subtensor, which indices, which carrier length.
        detail: String,
    },
    /// A rearrangement tree or pattern that is not valid.
    #[error("{op}: {detail}")]
    InvalidRearrange {
        /// The operation.
        op: &'static str,
        /// What is wrong.
        detail: String,
    },
    /// Text that does not parse; the message quotes it with a caret under the offending character.
    #[error("cannot parse {what}: {message}")]
    Parse {
        /// What was being parsed (`layout`, `shape`, …).
        what: &'static str,
        /// Byte offset of the offending character.
        position: usize,
        /// The message, with the text quoted and a caret line.
        message: String,
    },
    /// A value that does not convert to the dtype it is written as without loss (the casting
    /// rule: `set`, `fill`, scalar arithmetic).
    #[error("{op}: the value {value} is not representable as {dtype}")]
    NotCastable {
        /// The operation.
        op: &'static str,
        /// The value and its dtype, e.g. `1.5 (f64)`.
        value: String,
        /// The dtype it was to be written as (`f64`, `i8`, …).
        dtype: String,
    },
    /// An input of the wrong kind, where the kind is only known at run time.
    #[error("{op}: expected {expected}, found {found}")]
    WrongType {
        /// The operation.
        op: &'static str,
        /// The kind required.
        expected: String,
        /// The kind given.
        found: String,
    },
    /// A valid request this representation does not support.
    #[error("{op}: {reason}")]
    NotImplemented {
        /// The operation.
        op: &'static str,
        /// Why.
        reason: String,
    },
    /// A cotangent, gradient target or gradient request that reverse mode cannot accept
    /// (a cotangent of the wrong layout, aliasing that broadcast modes do not explain, …).
    #[error("{op}: {detail}")]
    InvalidGradient {
        /// The operation (`backward`, `autograd::grad`, …).
        op: &'static str,
        /// What is wrong, with the layouts and shapes involved.
        detail: String,
    },
    /// An integer division whose divisor is zero, with where that divisor is (the
    /// coordinate and ordinal of the first zero element, or the scalar operand).
    ///
    /// ```
    /// use strideweave::{Shape, Tensor};
    /// let s: Shape = "(2,2)".parse().unwrap();
    /// let d = Tensor::from_vec(vec![1i32, 2, 0, 4], &s).unwrap();
    /// let err = Tensor::arange::<i32>(&s).div(&d).unwrap_err();
    /// assert_eq!(err.to_string(), "div: integer division by zero: the divisor is 0 at coordinate (0,1) (ordinal 2)");
    /// ```
    #[error("{op}: integer division by zero: the divisor is 0 at {at}")]
    DivisionByZero {
        /// The operation.
        op: &'static str,
        /// Where the zero divisor is: `coordinate (0,1) (ordinal 2)`, or `the scalar operand`.
        at: String,
    },
    /// Borrowed-view metadata that is not valid (module `typed`): the operation and what is
    /// wrong with it, as a [`ValidationError`](crate::ValidationError).
    ///
    /// ```
    /// use strideweave::{Error, TypedTensorView, ValidationError};
    /// let data = [1_i32, 2];
    /// let err = TypedTensorView::from_slice([2], [1, 1], 0, &data).unwrap_err();
    /// assert!(matches!(err, Error::Validation { source: ValidationError::RankMismatch { .. }, .. }));
    /// assert_eq!(err.to_string(), "TypedTensorView::from_slice: rank mismatch in strides: expected 1, found 2");
    /// ```
    #[error("{op}: {source}")]
    Validation {
        /// The operation.
        op: &'static str,
        /// What is wrong.
        #[source]
        source: crate::validation::ValidationError,
    },
    /// Host access to storage that is not host-readable. Every view of module `typed` built
    /// in this crate borrows host memory, so this is reserved for non-host storage.
    #[error("{op}: {detail}")]
    HostAccess {
        /// The operation.
        op: &'static str,
        /// Which storage and why it is not host-readable.
        detail: String,
    },
    /// A file could not be opened, mapped, read or written (the operating system's error).
    ///
    /// ```
    /// let err = strideweave::Carrier::map_file("/nonexistent/x.bin").unwrap_err();
    /// assert!(err.to_string().starts_with("Carrier::map_file: /nonexistent/x.bin: "));
    /// assert_eq!(err.kind(), strideweave::ErrorKind::Runtime);
    /// ```
    #[error("{op}: {path}: {detail}")]
    Io {
        /// The operation.
        op: &'static str,
        /// The file.
        path: String,
        /// The operating system's message.
        detail: String,
    },
    /// A file's contents are not what its format or the caller's request says: a truncated or
    /// malformed header, a length that does not match, an unsupported dtype, a misaligned
    /// element offset.
    ///
    /// ```
    /// let dir = std::env::temp_dir().join("strideweave-doc-invalid-file");
    /// std::fs::create_dir_all(&dir).unwrap();
    /// let path = dir.join("not.npy");
    /// std::fs::write(&path, b"hello").unwrap();
    /// let err = strideweave::Tensor::read_npy(&path).unwrap_err();
    /// assert!(err.to_string().contains("not an .npy file"));
    /// assert_eq!(err.kind(), strideweave::ErrorKind::Value);
    /// ```
    #[error("{op}: {path}: {detail}")]
    InvalidFile {
        /// The operation.
        op: &'static str,
        /// The file.
        path: String,
        /// What is wrong, with the values found.
        detail: String,
    },
    /// A state error (released storage, stale version, released graph).
    #[error("{op}: {detail}")]
    Runtime {
        /// The operation.
        op: &'static str,
        /// What state was wrong.
        detail: String,
    },
}

impl Error {
    /// The kind of mistake this error reports: [`ErrorKind::Type`] for an input of the wrong
    /// kind, [`ErrorKind::NotImplemented`] for a valid request the representation does not
    /// support, [`ErrorKind::Runtime`] for a wrong state, [`ErrorKind::Value`] for the rest.
    ///
    /// ```
    /// use strideweave::{ErrorKind, Layout};
    /// let l: Layout = "(2,2):(1,-2)".parse().unwrap();
    /// assert_eq!(l.complement(8).unwrap_err().kind(), ErrorKind::Value);
    /// ```
    pub fn kind(&self) -> ErrorKind {
        match self {
            Error::WrongType { .. } => ErrorKind::Type,
            Error::NotImplemented { .. } => ErrorKind::NotImplemented,
            Error::Runtime { .. } | Error::HostAccess { .. } | Error::Io { .. } => {
                ErrorKind::Runtime
            }
            _ => ErrorKind::Value,
        }
    }

    pub(crate) fn validation(
        op: &'static str,
        source: crate::validation::ValidationError,
    ) -> Error {
        Error::Validation { op, source }
    }

    pub(crate) fn overflow(op: &'static str, what: &'static str) -> Error {
        Error::Overflow { op, what }
    }

    pub(crate) fn not_representable(op: &'static str, reason: impl Into<String>) -> Error {
        Error::NotRepresentable {
            op,
            reason: reason.into(),
        }
    }
}
