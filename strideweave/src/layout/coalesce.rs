//! coalesce, by-mode coalesce and filter, as in CuTe's layout algebra.
//!
//! Post-condition of every function here: `size(result) == size(L)` and
//! `result(i) == L(i)` on the whole domain.

use crate::error::{Error, Result};
use crate::layout::core::Layout;
use crate::layout::inline_vec::InlineVec;
use crate::layout::int_tuple::{IntTuple, Node};
use crate::layout::structure::LayoutBuilder;

/// Flat `(extent, stride)` modes.
pub(crate) type Modes = InlineVec<(i64, i64), 8>;

/// Merges adjacent flat modes: drops extent-1 modes and joins `s0:d0 ++ s1:d1` into
/// `(s0·s1):d0` when `d1 == s0·d0`. With `keep_trailing_unit`, a trailing `1:d` that does not
/// merge is kept, so the function is also preserved beyond the domain where the last mode
/// extends (CuTe's `coalesce_x`, used by composition).
pub(crate) fn coalesce_modes(
    leaves: impl Iterator<Item = (i64, i64)>,
    keep_trailing_unit: bool,
) -> Modes {
    let mut out: Modes = leaves.collect();
    let n = coalesce_in_place(&mut out, keep_trailing_unit);
    out.truncate(n);
    out
}

/// The rule of [`coalesce_modes`] on `modes`, in place (each mode is read before a merged
/// one is written over it): the number of modes kept, which lead `modes`. A `const fn` over
/// a slice, so that the static layouts (`layout/fixed`) apply this same rule.
pub(crate) const fn coalesce_in_place(modes: &mut [(i64, i64)], keep_trailing_unit: bool) -> usize {
    let mut out = 0;
    let mut trailing_unit = None;
    let mut i = 0;
    while i < modes.len() {
        let (s, d) = modes[i];
        i += 1;
        if s == 1 {
            trailing_unit = Some(d);
            continue;
        }
        trailing_unit = None;
        if out > 0 && follows(modes[out - 1], d) {
            modes[out - 1].0 *= s;
        } else {
            modes[out] = (s, d);
            out += 1;
        }
    }
    if let (true, Some(d)) = (keep_trailing_unit, trailing_unit)
        && !(out > 0 && follows(modes[out - 1], d))
    {
        // The trailing unit mode was read at index `i - 1 >= out`: there is room.
        modes[out] = (1, d);
        out += 1;
    }
    out
}

/// Whether a mode of stride `d` continues `(s0, d0)`: `d == s0·d0`.
const fn follows((s0, d0): (i64, i64), d: i64) -> bool {
    matches!(s0.checked_mul(d0), Some(p) if p == d)
}

impl Layout {
    /// The simplest flat layout with the same function on the domain: extent-1 modes dropped
    /// and contiguous neighbours merged; a lone mode is an integral layout and an all-unit
    /// layout is `1:0`.
    ///
    /// ```
    /// let l: strideweave::Layout = "((2,2),(2,2)):((1,4),(8,32))".parse().unwrap();
    /// assert_eq!(l.coalesce().to_string(), "(2,4,2):(1,4,32)");
    /// let l: strideweave::Layout = "(2,(1,6)):(1,(6,2))".parse().unwrap();
    /// assert_eq!(l.coalesce().to_string(), "12:1");
    /// ```
    pub fn coalesce(&self) -> Layout {
        let modes = coalesce_modes(self.leaves().map(|(&s, &d)| (s, d)), false);
        flat_result(&modes)
    }

    /// Coalesces each sub-layout found at a leaf of `profile` separately, recursing into
    /// tuples of `profile`; modes beyond the profile are kept (`coalesce(L, profile)`).
    ///
    /// ```
    /// let l: strideweave::Layout = "(2,(1,6)):(1,(6,2))".parse().unwrap();
    /// assert_eq!(l.coalesce_by(&"(1,1)".parse().unwrap()).unwrap().to_string(), "(2,6):(1,2)");
    /// ```
    pub fn coalesce_by(&self, profile: &IntTuple) -> Result<Layout> {
        if profile.is_int() {
            return Ok(self.coalesce());
        }
        let mut b = LayoutBuilder::default();
        by_mode(self.top(), profile.seq(), &mut b, &mut Vec::new())?;
        b.tuple("coalesce_by")
    }

    /// Drops stride-0 and extent-1 modes, then coalesces; `1:0` if nothing is left.
    ///
    /// ```
    /// let l: strideweave::Layout = "(2,(1,6),3):(0,(4,2),0)".parse().unwrap();
    /// assert_eq!(l.filter().to_string(), "6:2");
    /// ```
    pub fn filter(&self) -> Layout {
        let modes = coalesce_modes(
            self.leaves()
                .map(|(&s, &d)| if d == 0 { (1, 0) } else { (s, d) }),
            false,
        );
        flat_result(&modes)
    }
}

/// A flat mode list as a layout: `1:0` when empty, integral when single; checked.
pub(crate) fn flat_layout(op: &'static str, modes: &Modes) -> Result<Layout> {
    let unit = [(1i64, 0i64)];
    let modes: &[(i64, i64)] = if modes.is_empty() { &unit } else { modes };
    Layout::flat(op, modes, true)
}

/// [`flat_layout`] for modes coalesced from a valid layout: merging `s0:d0 ++ s1:(s0·d0)`
/// into `(s0·s1):d0` and dropping extent-1 modes keep the reach, so the result is valid.
pub(crate) fn flat_result(modes: &Modes) -> Layout {
    flat_layout("coalesce", modes).unwrap_or_else(|_| unreachable!("coalescing keeps the reach"))
}

fn by_mode<'a>(
    mut modes: impl Iterator<Item = (Node<'a>, Node<'a>)>,
    profile: impl Iterator<Item = Node<'a>>,
    b: &mut LayoutBuilder,
    path: &mut Vec<usize>,
) -> Result<()> {
    for (i, p) in profile.enumerate() {
        path.push(i);
        let Some((s, d)) = modes.next() else {
            return Err(Error::NotCongruent {
                op: "coalesce_by",
                detail: format!(
                    "the profile has more modes than the layout at mode {}",
                    path.iter()
                        .map(|i| i.to_string())
                        .collect::<Vec<_>>()
                        .join(".")
                ),
            });
        };
        match (p, s, d) {
            (Node::Leaf(_), s, d) => {
                let sub = coalesce_modes(
                    s.leaves().iter().copied().zip(d.leaves().iter().copied()),
                    false,
                );
                b.layout(&flat_result(&sub));
            }
            (Node::Tuple(ps), Node::Tuple(ss), Node::Tuple(ds)) => {
                b.push();
                by_mode(ss.zip(ds), ps, b, path)?;
                b.pop();
            }
            (Node::Tuple(_), _, _) => {
                return Err(Error::NotCongruent {
                    op: "coalesce_by",
                    detail: format!(
                        "the profile nests at mode {}, where the layout has a leaf",
                        path.iter()
                            .map(|i| i.to_string())
                            .collect::<Vec<_>>()
                            .join(".")
                    ),
                });
            }
        }
        path.pop();
    }
    for (s, d) in modes {
        b.node(s, d);
    }
    Ok(())
}
