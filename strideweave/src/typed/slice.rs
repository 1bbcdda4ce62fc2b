//! [`StridedSliceSpec`]: one axis of a [`slice_view`](crate::TypedTensorView::slice_view),
//! normalised as Python normalises `start:stop:step`.

use crate::error::{Error, Result};
use crate::validation::ValidationError;
use std::fmt;

/// `start:stop:step` along one axis. Bounds are normalised as Python does: a negative bound
/// counts from the end, a bound beyond the axis is clamped, a missing bound is the whole
/// axis in the step's direction; the step may be negative (not zero). The selected length is
/// Python's `len(range(start, stop, step))`, so the width need not be a multiple of the
/// step. Equal normalised bounds select nothing (an axis of extent 0); bounds that run
/// against the step (`3:1` with a positive step) are rejected as
/// [`ValidationError::InvalidSliceBounds`] rather than silently selecting nothing.
///
/// ```
/// use strideweave::{StridedSliceSpec, TypedTensorView};
/// let data = [0_i32, 1, 2, 3, 4, 5];
/// let view = TypedTensorView::from_col_major(&[6], &data).unwrap();
/// let every_other_backwards = view.slice_view(&[StridedSliceSpec::new(Some(-1), None, -2)]).unwrap();
/// assert_eq!(every_other_backwards.to_col_major().unwrap().as_slice().unwrap(), &[5, 3, 1]);
/// assert_eq!(StridedSliceSpec::new(Some(1), Some(-1), 2).to_string(), "1:-1:2");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StridedSliceSpec {
    /// First index (default: the first in the step's direction; negative counts from the end).
    pub start: Option<isize>,
    /// One past the last index in the step's direction (default: past the end in that
    /// direction; negative counts from the end).
    pub stop: Option<isize>,
    /// The step; negative walks the axis backwards; zero is invalid.
    pub step: isize,
}

impl Default for StridedSliceSpec {
    fn default() -> StridedSliceSpec {
        StridedSliceSpec::all()
    }
}

impl StridedSliceSpec {
    /// `start:stop:step`.
    ///
    /// ```
    /// let s = strideweave::StridedSliceSpec::new(None, Some(3), 1);
    /// assert_eq!(s.to_string(), ":3");
    /// ```
    pub fn new(start: Option<isize>, stop: Option<isize>, step: isize) -> StridedSliceSpec {
        StridedSliceSpec { start, stop, step }
    }

    /// The whole axis, `:`.
    ///
    /// ```
    /// assert_eq!(strideweave::StridedSliceSpec::all().to_string(), ":");
    /// ```
    pub fn all() -> StridedSliceSpec {
        StridedSliceSpec::new(None, None, 1)
    }

    /// The whole axis backwards, `::-1`.
    ///
    /// ```
    /// use strideweave::{StridedSliceSpec, TypedTensorView};
    /// let data = [1_i32, 2, 3];
    /// let view = TypedTensorView::from_slice(vec![3], vec![1], 0, &data).unwrap();
    /// let reversed = view.slice_view(&[StridedSliceSpec::reverse()]).unwrap();
    /// assert_eq!(reversed.get(&[0]), Some(&3));
    /// ```
    pub fn reverse() -> StridedSliceSpec {
        StridedSliceSpec::new(None, None, -1)
    }

    /// `start..stop` with step 1.
    ///
    /// ```
    /// assert_eq!(strideweave::StridedSliceSpec::range(1, -1).to_string(), "1:-1");
    /// ```
    pub fn range(start: isize, stop: isize) -> StridedSliceSpec {
        StridedSliceSpec::new(Some(start), Some(stop), 1)
    }

    /// This slice with another step.
    ///
    /// ```
    /// assert_eq!(strideweave::StridedSliceSpec::all().with_step(3).to_string(), "::3");
    /// ```
    pub fn with_step(self, step: isize) -> StridedSliceSpec {
        StridedSliceSpec { step, ..self }
    }

    /// The normalised `(start, length, step)` of this slice on an axis of extent `len`:
    /// index `k < length` of the result is index `start + k·step` of the axis.
    ///
    /// ```
    /// use strideweave::StridedSliceSpec;
    /// assert_eq!(StridedSliceSpec::reverse().normalise(0, 4).unwrap(), (3, 4, -1));
    /// assert_eq!(StridedSliceSpec::new(Some(-10), Some(10), 3).normalise(0, 4).unwrap(), (0, 2, 3));
    /// assert!(StridedSliceSpec::range(3, 1).normalise(0, 4).is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`ValidationError::InvalidSliceStep`] for step 0 and
    /// [`ValidationError::InvalidSliceBounds`] for bounds that run against the step (both in
    /// an [`Error::Validation`] reported as `StridedSliceSpec::normalise`, naming `axis`).
    pub fn normalise(&self, axis: usize, len: usize) -> Result<(usize, usize, isize)> {
        self.normalise_as("StridedSliceSpec::normalise", axis, len)
    }

    pub(crate) fn normalise_as(
        &self,
        op: &'static str,
        axis: usize,
        len: usize,
    ) -> Result<(usize, usize, isize)> {
        let step = self.step;
        if step == 0 {
            return Err(Error::validation(
                op,
                ValidationError::InvalidSliceStep { axis, step },
            ));
        }
        // i128: no extent or bound can overflow it.
        let n = len as i128;
        let (lower, upper) = if step > 0 { (0, n) } else { (-1, n - 1) };
        let clamp = |v: isize| {
            let v = v as i128;
            let v = if v < 0 { v + n } else { v };
            v.clamp(lower, upper)
        };
        let start = self
            .start
            .map_or(if step > 0 { lower } else { upper }, clamp);
        let stop = self
            .stop
            .map_or(if step > 0 { upper } else { lower }, clamp);
        let width = if step > 0 { stop - start } else { start - stop };
        if width < 0 {
            return Err(Error::validation(
                op,
                ValidationError::InvalidSliceBounds {
                    axis,
                    start: start as isize,
                    stop: stop as isize,
                    step,
                    axis_len: len,
                },
            ));
        }
        let abs = (step as i128).abs();
        let count = (width + abs - 1) / abs;
        // An empty selection starts at 0 so that the offset never moves outside the axis.
        let first = if count == 0 { 0 } else { start };
        Ok((first as usize, count as usize, step))
    }
}

impl fmt::Display for StridedSliceSpec {
    /// Python notation: `:`, `1:3`, `::-1`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let opt = |v: Option<isize>| v.map(|v| v.to_string()).unwrap_or_default();
        write!(f, "{}:{}", opt(self.start), opt(self.stop))?;
        if self.step != 1 {
            write!(f, ":{}", self.step)?;
        }
        Ok(())
    }
}

impl From<std::ops::Range<isize>> for StridedSliceSpec {
    fn from(r: std::ops::Range<isize>) -> StridedSliceSpec {
        StridedSliceSpec::range(r.start, r.end)
    }
}

impl From<std::ops::RangeFull> for StridedSliceSpec {
    fn from(_: std::ops::RangeFull) -> StridedSliceSpec {
        StridedSliceSpec::all()
    }
}
