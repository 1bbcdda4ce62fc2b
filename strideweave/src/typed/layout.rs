//! [`TensorLayout`]: shape, signed strides and signed offset of a typed view, and the checks
//! that keep every reachable element index inside the borrowed slice.

use super::rank::TensorRank;
use crate::error::{Error, Result};
use crate::kernels::plan::{Mode, Order, outer, plan};
use crate::layout::reach_from;
use crate::validation::ValidationError;
use smallvec::SmallVec;

/// The layout metadata of a [`TypedTensorView`](crate::TypedTensorView): element `(i₀, i₁, …)`
/// is at `offset + Σ iₖ · strides[k]` of the borrowed slice. Strides and offset are in
/// elements and may be negative; every reachable index was checked against the slice when
/// the view was built.
///
/// ```
/// use strideweave::TypedTensorView;
/// let data = [1_i32, 2, 3, 4, 5, 6];
/// let view = TypedTensorView::from_slice([2, 3], [3, 1], 0, &data).unwrap();
/// let layout = view.layout();
/// assert_eq!((layout.shape(), layout.strides(), layout.offset()), (&[2, 3][..], &[3, 1][..], 0));
/// assert!(!layout.is_compact_col_major().unwrap());
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TensorLayout<R: TensorRank> {
    shape: R::Shape,
    strides: R::Strides,
    offset: isize,
    n_elements: usize,
}

impl<R: TensorRank> TensorLayout<R> {
    /// The logical shape.
    ///
    /// ```
    /// let data = [0u8; 6];
    /// let v = strideweave::TypedTensorView::from_col_major(&[2, 3], &data).unwrap();
    /// assert_eq!(v.layout().shape(), &[2, 3]);
    /// ```
    pub fn shape(&self) -> &[usize] {
        self.shape.as_ref()
    }

    /// The strides, in elements.
    ///
    /// ```
    /// let data = [0u8; 6];
    /// let v = strideweave::TypedTensorView::from_col_major(&[2, 3], &data).unwrap();
    /// assert_eq!(v.layout().strides(), &[1, 2]);
    /// ```
    pub fn strides(&self) -> &[isize] {
        self.strides.as_ref()
    }

    /// The element offset of index `(0, …, 0)`.
    ///
    /// ```
    /// let data = [0u8; 3];
    /// let v = strideweave::TypedTensorView::from_slice([2], [1], 1, &data).unwrap();
    /// assert_eq!(v.layout().offset(), 1);
    /// ```
    pub fn offset(&self) -> isize {
        self.offset
    }

    /// The number of axes.
    ///
    /// ```
    /// let data = [0u8; 6];
    /// assert_eq!(strideweave::TypedTensorView::from_col_major(&[2, 3], &data).unwrap().layout().rank(), 2);
    /// ```
    pub fn rank(&self) -> usize {
        self.shape().len()
    }

    /// The number of logical elements (the product of the shape; 1 for rank 0).
    ///
    /// ```
    /// let data = [0u8; 6];
    /// assert_eq!(strideweave::TypedTensorView::from_col_major(&[2, 3], &data).unwrap().layout().n_elements(), 6);
    /// ```
    pub fn n_elements(&self) -> usize {
        self.n_elements
    }

    /// Whether the layout is compact column-major (first axis fastest): every axis of extent
    /// above 1 has the stride of the product of the extents before it. Axes of extent 1 may
    /// have any stride, and a layout without elements is compact. The offset is not
    /// considered.
    ///
    /// ```
    /// let data = [0u8; 6];
    /// let v = strideweave::TypedTensorView::from_slice([2, 1, 3], [1, 99, 2], 0, &data).unwrap();
    /// assert!(v.layout().is_compact_col_major().unwrap());
    /// ```
    ///
    /// # Errors
    ///
    /// [`ValidationError::IntegerOverflow`] when the running product of the extents does not
    /// fit in `isize`.
    pub fn is_compact_col_major(&self) -> Result<bool> {
        Ok(is_compact(self.shape(), self.strides()))
    }

    /// Builds a layout after checking it against a slice of `len` elements: ranks agree,
    /// the element count and every reachable index are representable, and every reachable
    /// index is in `0..len`.
    pub(crate) fn checked(
        op: &'static str,
        shape: R::Shape,
        strides: R::Strides,
        offset: isize,
        len: usize,
    ) -> Result<TensorLayout<R>> {
        let (s, d) = (shape.as_ref(), strides.as_ref());
        check_rank(op, "strides", s.len(), d.len())?;
        let n_elements = element_count(op, s)?;
        if n_elements > 0 {
            let (min, max) = reach(op, s, d, offset)?;
            if min < 0 || max >= len as i128 {
                return Err(Error::validation(
                    op,
                    ValidationError::ViewOutOfBounds { min, max, len },
                ));
            }
        }
        Ok(TensorLayout {
            shape,
            strides,
            offset,
            n_elements,
        })
    }

    pub(crate) fn shape_storage(&self) -> &R::Shape {
        &self.shape
    }

    pub(crate) fn strides_storage(&self) -> &R::Strides {
        &self.strides
    }

    /// The element index of `indices`, with every failure reported as `op`.
    pub(crate) fn index_of(&self, op: &'static str, indices: &[usize]) -> Result<usize> {
        check_rank(op, "indices", self.rank(), indices.len())?;
        let mut at = self.offset as i128;
        for (axis, ((&i, &e), &s)) in indices
            .iter()
            .zip(self.shape())
            .zip(self.strides())
            .enumerate()
        {
            if i >= e {
                return Err(Error::validation(
                    op,
                    ValidationError::InvalidArgument {
                        argument: "indices",
                        message: format!("index {i} on axis {axis} is outside its extent {e}"),
                    },
                ));
            }
            at = (i as i128)
                .checked_mul(s as i128)
                .and_then(|t| at.checked_add(t))
                .ok_or_else(|| overflow(op, "an element index"))?;
        }
        // A valid index of a non-empty view is inside the checked reach, so it fits.
        usize::try_from(at).map_err(|_| overflow(op, "an element index"))
    }
}

impl<R: TensorRank> TensorLayout<R> {
    /// Calls `f` with the element index of every logical element, in column-major order
    /// (first axis fastest). Indices are inside the slice by construction.
    pub(crate) fn for_each_index(&self, mut f: impl FnMut(usize)) {
        if self.n_elements() == 0 {
            return;
        }
        let (shape, strides) = (self.shape(), self.strides());
        let mut counter = vec![0usize; shape.len()];
        let mut at = self.offset();
        loop {
            // `at` is a reachable index of a validated view: in 0..len.
            f(at as usize);
            let mut axis = 0;
            loop {
                if axis == shape.len() {
                    return;
                }
                if counter[axis] + 1 < shape[axis] {
                    counter[axis] += 1;
                    at += strides[axis];
                    break;
                }
                // (extent − 1) × stride is inside the checked reach, so it fits.
                at -= strides[axis] * (shape[axis] - 1) as isize;
                counter[axis] = 0;
                axis += 1;
            }
        }
    }

    /// Walks this layout (the destination) jointly with `srcs` (offset and strides of
    /// layouts of the same shape) on the copy engine's plan ([`crate::kernels::plan`]):
    /// extent-1 axes dropped, axes turned so that the destination steps forward, ordered
    /// by destination stride and merged where every side steps regularly. Calls
    /// `run(d, s, inner)` once per position of the outer planned axes, with the element
    /// indices (`d` here, `s` in each source) where a run along the innermost planned axis
    /// `inner` starts; the whole shape once for a single element, never for an empty one.
    /// Every pair of elements is visited once, as in the odometer walk, without a division
    /// or an index buffer.
    pub(crate) fn for_each_run<const N: usize>(
        &self,
        srcs: [(isize, &[isize]); N],
        mut run: impl FnMut(usize, [usize; N], Mode<N>),
    ) {
        // Validated layouts: extents, strides and offsets fit `i64` (their reach is inside
        // a slice), and every index the plan produces is in `0..len`.
        let wide = |v: &[isize]| -> SmallVec<[i64; 8]> { v.iter().map(|&x| x as i64).collect() };
        let extents: SmallVec<[i64; 8]> = self.shape().iter().map(|&e| e as i64).collect();
        let ds = wide(self.strides());
        let ss: [SmallVec<[i64; 8]>; N] = srcs.map(|(_, st)| wide(st));
        let sides = std::array::from_fn(|k| (srcs[k].0 as i64, &ss[k][..]));
        let dst = (self.offset() as i64, &ds[..]);
        let Some((modes, d_o, so)) = plan(&extents, dst, sides, Order::Strides) else {
            return;
        };
        // A single element (every axis of extent 1) is one run of length 1.
        let single = Mode {
            e: 1,
            d: 1,
            s: [1; N],
        };
        let (inner, rest) = modes
            .split_first()
            .map_or((single, &[][..]), |(&m, r)| (m, r));
        outer(rest, d_o, so, |d, s| {
            run(d as usize, s.map(|x| x as usize), inner);
        });
    }
}

pub(crate) fn overflow(op: &'static str, what: &'static str) -> Error {
    Error::validation(op, ValidationError::IntegerOverflow { what })
}

/// The product of `shape`: 0 as soon as one extent is 0, else checked.
pub(crate) fn element_count(op: &'static str, shape: &[usize]) -> Result<usize> {
    if shape.contains(&0) {
        return Ok(0);
    }
    shape
        .iter()
        .try_fold(1usize, |n, &e| n.checked_mul(e))
        .ok_or_else(|| overflow(op, "the element count"))
}

/// [`ValidationError::RankMismatch`] for `what`, reported as `op`, when `actual` is not
/// `expected`.
pub(crate) fn check_rank(
    op: &'static str,
    what: &'static str,
    expected: usize,
    actual: usize,
) -> Result<()> {
    if expected == actual {
        return Ok(());
    }
    let mismatch = ValidationError::RankMismatch {
        what,
        expected,
        actual,
    };
    Err(Error::validation(op, mismatch))
}

/// The lowest and highest element index a non-empty layout reaches: [`Layout::reach`]'s
/// rule, from the offset.
///
/// [`Layout::reach`]: crate::Layout::reach
pub(crate) fn reach(
    op: &'static str,
    shape: &[usize],
    strides: &[isize],
    offset: isize,
) -> Result<(i128, i128)> {
    let leaves = shape
        .iter()
        .zip(strides)
        .map(|(&e, &d)| (e as u64, d as i64));
    reach_from(offset as i128, leaves).ok_or_else(|| overflow(op, "the reach of the view"))
}

/// The compact column-major strides of `shape`, [`Layout::compact`]'s (each the product of
/// the extents before it), `None` from the first that does not fit `isize` (saturated).
///
/// [`Layout::compact`]: crate::Layout::compact
fn compact_strides(shape: &[usize]) -> impl Iterator<Item = Option<isize>> + '_ {
    let extents = shape.iter().map(|&e| i64::try_from(e).unwrap_or(i64::MAX));
    strideweave_syntax::compact_strides(extents).map(|d| (d < i64::MAX).then_some(d as isize))
}

/// The compact column-major strides of `shape`, or the overflow reported as `op`.
pub(crate) fn col_major_strides(op: &'static str, shape: &[usize]) -> Result<Vec<isize>> {
    compact_strides(shape)
        .map(|d| d.ok_or_else(|| overflow(op, "compact column-major strides")))
        .collect()
}

/// Whether `shape`/`strides` is compact column-major (see
/// [`TensorLayout::is_compact_col_major`]).
pub(crate) fn is_compact(shape: &[usize], strides: &[isize]) -> bool {
    let mut leaves = shape.iter().zip(strides).zip(compact_strides(shape));
    shape.contains(&0) || leaves.all(|((&e, &d), c)| e == 1 || c == Some(d))
}
