//! Right and left inverses, as in CuTe's layout algebra.

use smallvec::SmallVec;

use crate::error::{Error, Result};
use crate::layout::coalesce::{Modes, coalesce_modes, flat_layout};
use crate::layout::core::Layout;

impl Layout {
    /// The largest `R` with `self(R(i)) == i` for every `i < size(R)`: it inverts the longest
    /// contiguous prefix `[0, n)` of the image. Stride-zero modes are skipped (as CuTe does;
    /// pycute stops at them and returns the trivial `1:0`).
    ///
    /// ```
    /// let l: strideweave::Layout = "(2,4,6):(4,1,8)".parse().unwrap();
    /// assert_eq!(l.right_inverse().unwrap().to_string(), "(4,2,6):(2,1,8)");
    /// let l: strideweave::Layout = "(2,2,2):(4,0,1)".parse().unwrap();
    /// assert_eq!(l.right_inverse().unwrap().to_string(), "2:4");
    /// ```
    pub fn right_inverse(&self) -> Result<Layout> {
        self.right_inverse_as("right_inverse")
    }

    /// [`right_inverse`](Self::right_inverse) reporting its errors as `op`.
    pub(crate) fn right_inverse_as(&self, op: &'static str) -> Result<Layout> {
        self.require_non_negative(op)?;
        // (stride, extent, ordinal stride) of each non-trivial leaf, by stride.
        let mut triples = self.leaves_with_ordinal_strides();
        triples.sort_unstable();
        let mut out = Modes::new();
        let mut cur = 1i64;
        for (d, s, p) in triples {
            if d < cur {
                continue; // stride 0, or a mode overlapping what is inverted already
            }
            if d > cur {
                break;
            }
            out.push((s, p));
            cur = s.saturating_mul(d); // a saturated value stops the scan, as it should
        }
        flat_layout(op, &coalesce_modes(out.iter().copied(), false))
    }

    /// An `R` with `R(self(i)) == i` for every `i` in the domain; requires an injective
    /// layout with non-negative strides whose sorted strides divide one another. Off the
    /// image of `self` the values of `R` are unspecified.
    ///
    /// ```
    /// let l: strideweave::Layout = "(4,2):(1,5)".parse().unwrap();
    /// let r = l.left_inverse().unwrap();
    /// assert_eq!(r.to_string(), "(5,2):(1,4)");
    /// assert!((0..8).all(|i| r.index_of(l.index_of(i).unwrap() as usize).unwrap() == i as i64));
    /// ```
    pub fn left_inverse(&self) -> Result<Layout> {
        const OP: &str = "left_inverse";
        self.require_non_negative(OP)?;
        if !self.injective_in(OP)? {
            return Err(Error::NotInjective {
                op: OP,
                layout: self.to_string(),
            });
        }
        let mut triples = self.leaves_with_ordinal_strides();
        triples.sort_unstable();
        // x = Σ c_k d_k with sorted d; decode: x mod d_1 is 0 on the image (stride 0),
        // then digit k has extent d_{k+1}/d_k and maps to ordinal stride p_k.
        let mut out = Modes::new();
        let mut prev = 1i64;
        for (k, &(d, _, _)) in triples.iter().enumerate() {
            if d % prev != 0 {
                return Err(Error::not_representable(
                    OP,
                    format!(
                        "stride {d} of {self} is not a multiple of the next smaller stride {prev}; no layout decodes its image"
                    ),
                ));
            }
            let ordinal_stride = if k == 0 { 0 } else { triples[k - 1].2 };
            out.push((d / prev, ordinal_stride));
            prev = d;
        }
        if let Some(&(_, s, p)) = triples.last() {
            out.push((s, p));
        }
        flat_layout(OP, &coalesce_modes(out.iter().copied(), false))
    }

    /// `(stride, extent, ordinal stride)` of every leaf of extent > 1, where the ordinal
    /// stride is the leaf's compact (first-mode-fastest) stride.
    fn leaves_with_ordinal_strides(&self) -> SmallVec<[(i64, i64, i64); 8]> {
        let mut p = 1i64;
        let mut out = SmallVec::new();
        for (&s, &d) in self.leaves() {
            if s != 1 {
                out.push((d, s, p));
            }
            p *= s;
        }
        out
    }
}
