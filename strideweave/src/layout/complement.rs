//! complement, as in CuTe's layout algebra.

use crate::error::{Error, Result};
use crate::layout::coalesce::{Modes, coalesce_in_place, flat_layout};
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
        let mut out = Modes::from_fn(pairs.len() + 1, |_| (0, 0));
        let n = complement_rule(&mut pairs, cotarget, &mut out).map_err(|fault| match fault {
            ComplementFault::NotMultiple { stride, covered } => Error::not_representable(
                op,
                format!(
                    "stride {stride} of {self} is not a multiple of {covered}, the extent the smaller modes cover; the holes between them are not a layout"
                ),
            ),
            ComplementFault::Overflow => Error::overflow(op, "the covered extent"),
        })?;
        out.truncate(n);
        flat_layout(op, &out)
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

/// Why the complement has no layout: the data of each message, worded by the front end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ComplementFault {
    /// `stride` is not a multiple of `covered`, the extent the smaller modes cover.
    NotMultiple { stride: i64, covered: i64 },
    /// The covered extent overflows `i64`.
    Overflow,
}

/// The rule of the complement: `pairs` holds `(stride, extent)` of the modes that count
/// (extent > 1, stride > 0, injective), sorted here; writes the coalesced flat modes of the
/// complement in `[0, cotarget)` at the start of `out` (room for `pairs.len() + 1`) and
/// returns their number (0 means `1:0`). A `const fn` over slices: the run-time algebra and
/// the static layouts (`layout/fixed`) both call it.
pub(crate) const fn complement_rule(
    pairs: &mut [(i64, i64)],
    cotarget: i64,
    out: &mut [(i64, i64)],
) -> std::result::Result<usize, ComplementFault> {
    sort_pairs(pairs);
    let mut n = 0;
    let mut cur = 1i64;
    while n < pairs.len() {
        let (d, s) = pairs[n];
        if d % cur != 0 {
            return Err(ComplementFault::NotMultiple {
                stride: d,
                covered: cur,
            });
        }
        out[n] = (d / cur, cur);
        n += 1;
        cur = match s.checked_mul(d) {
            Some(c) => c,
            None => return Err(ComplementFault::Overflow),
        };
    }
    // ⌈cotarget / cur⌉, at least 1: a cotarget already covered adds no repetition.
    let target = if cotarget > 1 { cotarget } else { 1 };
    out[n] = ((target - 1) / cur + 1, cur);
    n += 1;
    let (modes, _) = out.split_at_mut(n);
    Ok(coalesce_in_place(modes, false))
}

/// Sorts pairs ascending (insertion sort: a `const fn`, and a layout has few leaves).
pub(crate) const fn sort_pairs(pairs: &mut [(i64, i64)]) {
    let mut i = 1;
    while i < pairs.len() {
        let mut j = i;
        while j > 0 && less(pairs[j], pairs[j - 1]) {
            let t = pairs[j];
            pairs[j] = pairs[j - 1];
            pairs[j - 1] = t;
            j -= 1;
        }
        i += 1;
    }
}

const fn less(a: (i64, i64), b: (i64, i64)) -> bool {
    a.0 < b.0 || (a.0 == b.0 && a.1 < b.1)
}
