//! complement, as in CuTe's layout algebra.

use crate::error::{Error, Result};
use crate::layout::coalesce::{Modes, coalesce_modes, flat_layout};
use crate::layout::core::Layout;
use crate::layout::int_tuple::leaf_path;

impl Layout {
    /// The layout `R` of the "repetitions" of `self` in `[0, cotarget)`: ordered
    /// (`R(i-1) < R(i)`), disjoint from `self` except at 0, and such that `(self, R)` covers
    /// `[0, cotarget)` (rounded up to a whole number of copies of `self`).
    ///
    /// As in CuTe and pycute:
    /// - stride-0 (broadcast) and extent-1 modes are ignored, so a layout made only of them
    ///   has the complement `cotarget:1`;
    /// - a cotarget below what `self` already covers adds no repetitions: the complement is
    ///   then only the holes between `self`'s modes (`1:0` when `self` has none). A cotarget
    ///   of 0 is treated as 1.
    ///
    /// Errors (`Value`): a negative stride; modes that overlap once the stride-0 modes are
    /// ignored (the layout is not injective there); strides whose holes no layout can
    /// represent, where pycute and CuTe would silently lose the hole.
    ///
    /// ```
    /// let c = |l: &str, n| l.parse::<strideweave::Layout>().unwrap().complement(n).unwrap().to_string();
    /// assert_eq!(c("4:2", 24), "(2,3):(1,8)");
    /// assert_eq!(c("(2,2):(1,6)", 24), "(3,2):(2,12)");
    /// assert_eq!(c("(4,6):(1,4)", 24), "1:0");
    /// // Broadcast modes are ignored; a small cotarget leaves only the holes.
    /// assert_eq!(c("3:0", 12), "12:1");
    /// assert_eq!(c("(3,4):(0,2)", 24), "(2,3):(1,8)");
    /// assert_eq!(c("4:2", 3), "2:1");
    /// let overlap: strideweave::Layout = "(4,2):(1,1)".parse().unwrap();
    /// assert!(overlap.complement(8).unwrap_err().to_string().contains("not injective"));
    /// ```
    pub fn complement(&self, cotarget: usize) -> Result<Layout> {
        self.complement_in("complement", cotarget)
    }

    /// [`complement`](Self::complement) reporting its errors as `op`, the operation the
    /// user called (a divide or a product).
    pub(crate) fn complement_in(&self, op: &'static str, cotarget: usize) -> Result<Layout> {
        self.require_non_negative(op)?;
        let mut pairs = Modes::new();
        for (&s, &d) in self.leaves() {
            if s != 1 && d != 0 {
                pairs.push((d, s));
            }
        }
        if !self.injective_ignoring_broadcast_in(op)? {
            return Err(Error::NotInjective {
                op,
                layout: self.without_broadcast_note(),
            });
        }
        let cotarget = i64::try_from(cotarget).map_err(|_| Error::overflow(op, "the cotarget"))?;
        pairs.sort_unstable();
        let mut out = Modes::new();
        let mut cur = 1i64;
        for &(d, s) in pairs.iter() {
            if d % cur != 0 {
                return Err(Error::not_representable(
                    op,
                    format!(
                        "stride {d} of {self} is not a multiple of {cur}, the extent the smaller modes cover; the holes between them are not a layout"
                    ),
                ));
            }
            out.push((d / cur, cur));
            cur = s
                .checked_mul(d)
                .ok_or_else(|| Error::overflow(op, "the covered extent"))?;
        }
        // ⌈cotarget / cur⌉, at least 1: a cotarget already covered adds no repetition.
        out.push(((cotarget.max(1) - 1) / cur + 1, cur));
        flat_layout(op, &coalesce_modes(out.iter().copied(), false))
    }

    /// The layout in CuTe notation, followed by what is left of it once its stride-0 modes
    /// are ignored when it has any (for the not-injective message of `complement`).
    fn without_broadcast_note(&self) -> String {
        if self.stride.0.vals.contains(&0) {
            format!("{self} (without its stride-0 modes: {})", self.filter())
        } else {
            self.to_string()
        }
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
