//! complement (`layout-algebra.md` §6).

use smallvec::SmallVec;

use crate::error::{Error, Result};
use crate::layout::coalesce::{Modes, coalesce_modes, flat_layout};
use crate::layout::core::Layout;
use crate::layout::int_tuple::leaf_path;

impl Layout {
    /// The layout `R` of the "repetitions" of `self` in `[0, cotarget)`: ordered
    /// (`R(i-1) < R(i)`), disjoint from `self` except at 0, and such that `(self, R)` covers
    /// `[0, cotarget)` (rounded up to a whole number of copies of `self`).
    ///
    /// Requires non-negative strides, an injective layout, `cotarget ≥ size`, and strides
    /// that leave holes a layout can represent; otherwise a `Value` error (pycute would
    /// silently lose the hole).
    ///
    /// ```
    /// let c = |l: &str, n| l.parse::<strideweave::Layout>().unwrap().complement(n).unwrap().to_string();
    /// assert_eq!(c("4:2", 24), "(2,3):(1,8)");
    /// assert_eq!(c("(2,2):(1,6)", 24), "(3,2):(2,12)");
    /// assert_eq!(c("(4,6):(1,4)", 24), "1:0");
    /// let overlap: strideweave::Layout = "(4,2):(1,1)".parse().unwrap();
    /// assert!(overlap.complement(8).unwrap_err().to_string().contains("not injective"));
    /// ```
    pub fn complement(&self, cotarget: usize) -> Result<Layout> {
        const OP: &str = "complement";
        self.require_non_negative(OP)?;
        if !self.is_injective() {
            return Err(Error::NotInjective {
                op: OP,
                layout: self.to_string(),
            });
        }
        let size = self.size();
        if cotarget < size {
            return Err(Error::not_representable(
                OP,
                format!("cotarget {cotarget} is smaller than the size {size} of {self}"),
            ));
        }
        let cotarget = i64::try_from(cotarget).map_err(|_| Error::overflow(OP, "the cotarget"))?;
        let mut pairs: SmallVec<[(i64, i64); 8]> = self
            .leaves()
            .filter(|(s, d)| **s != 1 && **d != 0)
            .map(|(&s, &d)| (d, s))
            .collect();
        pairs.sort_unstable();
        let mut out = Modes::new();
        let mut cur = 1i64;
        for (d, s) in pairs {
            if d % cur != 0 {
                return Err(Error::not_representable(
                    OP,
                    format!(
                        "stride {d} of {self} is not a multiple of {cur}, the extent the smaller modes cover; the holes between them are not a layout"
                    ),
                ));
            }
            out.push((d / cur, cur));
            cur = s
                .checked_mul(d)
                .ok_or_else(|| Error::overflow(OP, "the covered extent"))?;
        }
        out.push(((cotarget - 1) / cur + 1, cur)); // ⌈cotarget / cur⌉, cotarget ≥ 1
        flat_layout(OP, &coalesce_modes(out.iter().copied(), false))
    }

    /// Fails with `NegativeStride` on the first negative stride.
    pub(crate) fn require_non_negative(&self, op: &'static str) -> Result<()> {
        match self.stride.0.vals.iter().position(|&d| d < 0) {
            Some(i) => Err(Error::NegativeStride {
                op,
                mode: leaf_path(self.profile(), i),
                stride: self.stride.0.vals[i],
            }),
            None => Ok(()),
        }
    }
}
