//! Structural operations: sub-layouts, concat, append, permute, broadcast, flatten.

use std::ops::{Bound, RangeBounds};

use smallvec::SmallVec;

use crate::error::{Error, Result};
use crate::layout::core::Layout;
use crate::layout::int_tuple::{Builder, IntTuple, Node, ProfileToken, Toks, Vals, leaf_path};
use crate::layout::shape::{Shape, Stride};
use crate::layout::shift_plan::PlanCache;

/// Builds a layout node by node, shape and stride in lockstep.
#[derive(Default, Clone, Debug)]
pub(crate) struct LayoutBuilder {
    shape: Builder,
    stride: Builder,
}

impl LayoutBuilder {
    pub(crate) fn leaf(&mut self, s: i64, d: i64) {
        self.shape.leaf(s);
        self.stride.leaf(d);
    }

    pub(crate) fn push(&mut self) {
        self.shape.push();
        self.stride.push();
    }

    pub(crate) fn pop(&mut self) {
        self.shape.pop();
        self.stride.pop();
    }

    /// Appends a pair of congruent nodes as one node.
    pub(crate) fn node(&mut self, s: Node<'_>, d: Node<'_>) {
        self.shape.node(s);
        self.stride.node(d);
    }

    /// Appends a whole layout as one node (a leaf layout as a leaf).
    pub(crate) fn layout(&mut self, l: &Layout) {
        self.node(l.shape.0.node(), l.stride.0.node());
    }

    /// Appends the top-level modes of a layout as siblings.
    pub(crate) fn modes_of(&mut self, l: &Layout) {
        self.shape.seq(l.shape.0.seq());
        self.stride.seq(l.stride.0.seq());
    }

    /// The siblings as a tuple layout.
    pub(crate) fn tuple(self, op: &'static str) -> Result<Layout> {
        Layout::checked(op, Shape(self.shape.tuple()), Stride(self.stride.tuple()))
    }

    /// The siblings as a tuple layout known to be valid (a rearrangement of a valid
    /// layout's leaves, plus `1:0` modes): no size or reach check.
    pub(crate) fn tuple_valid(self) -> Layout {
        let (shape, stride) = (self.shape.tuple(), self.stride.tuple());
        Layout::from_valid(shape.toks, shape.vals, stride.vals, false)
    }

    /// The siblings, which form one node, as that node's layout.
    pub(crate) fn single(self, op: &'static str) -> Result<Layout> {
        Layout::checked(op, Shape(self.shape.single()), Stride(self.stride.single()))
    }
}

impl Layout {
    /// Top-level mode `i` (`layout[i]` in CuTe).
    ///
    /// ```
    /// let l: strideweave::Layout = "(2,(3,4)):(1,(2,6))".parse().unwrap();
    /// assert_eq!(l.mode(1).unwrap().to_string(), "(3,4):(2,6)");
    /// assert_eq!(l.mode(0).unwrap().to_string(), "2:1");
    /// assert!(l.mode(2).is_err());
    /// ```
    pub fn mode(&self, i: usize) -> Result<Layout> {
        let rank = self.rank();
        let (s, d) = self
            .top()
            .nth(i)
            .ok_or_else(|| mode_out_of_range("mode", i, rank))?;
        let mut b = LayoutBuilder::default();
        b.node(s, d);
        b.single("mode")
    }

    /// The top-level modes in `range`, as a tuple layout (`layout[a..b]`).
    ///
    /// ```
    /// let l: strideweave::Layout = "(2,(3,4),5):(1,(2,6),24)".parse().unwrap();
    /// assert_eq!(l.modes(1..).unwrap().to_string(), "((3,4),5):((2,6),24)");
    /// assert_eq!(l.modes(..1).unwrap().to_string(), "(2):(1)");
    /// ```
    pub fn modes(&self, range: impl RangeBounds<usize>) -> Result<Layout> {
        let rank = self.rank();
        let outside = |range: String| Error::InvalidAxes {
            op: "modes",
            detail: format!("range {range} does not lie within the {rank} top-level modes"),
        };
        // Checked: a bound at usize::MAX has no successor (`0..=usize::MAX` is an error).
        let start = match range.start_bound() {
            Bound::Included(&s) => Some(s),
            Bound::Excluded(&s) => s.checked_add(1),
            Bound::Unbounded => Some(0),
        };
        let end = match range.end_bound() {
            Bound::Included(&e) => e.checked_add(1),
            Bound::Excluded(&e) => Some(e),
            Bound::Unbounded => Some(rank),
        };
        let (Some(start), Some(end)) = (start, end) else {
            return Err(outside(format!(
                "{:?}..{:?}",
                range.start_bound(),
                range.end_bound()
            )));
        };
        if start > end || end > rank {
            return Err(outside(format!("{start}..{end}")));
        }
        let mut b = LayoutBuilder::default();
        for (s, d) in self.top().skip(start).take(end - start) {
            b.node(s, d);
        }
        b.tuple("modes")
    }

    /// The top-level modes named by `indices`, in that order (`select<I...>` of CuTe).
    ///
    /// ```
    /// let l: strideweave::Layout = "(2,3,4):(1,2,6)".parse().unwrap();
    /// assert_eq!(l.select(&[2, 0]).unwrap().to_string(), "(4,2):(6,1)");
    /// ```
    pub fn select(&self, indices: &[usize]) -> Result<Layout> {
        let rank = self.rank();
        let mut b = LayoutBuilder::default();
        for &i in indices {
            let (s, d) = self
                .top()
                .nth(i)
                .ok_or_else(|| mode_out_of_range("select", i, rank))?;
            b.node(s, d);
        }
        b.tuple("select")
    }

    /// The top-level modes of `self` followed by those of `other`.
    ///
    /// ```
    /// let a: strideweave::Layout = "(1,2):(0,1)".parse().unwrap();
    /// let b: strideweave::Layout = "(3,4):(2,6)".parse().unwrap();
    /// assert_eq!(a.concat(&b).unwrap().to_string(), "(1,2,3,4):(0,1,2,6)");
    /// ```
    pub fn concat(&self, other: &Layout) -> Result<Layout> {
        let mut b = LayoutBuilder::default();
        b.modes_of(self);
        b.modes_of(other);
        b.tuple("concat")
    }

    /// The top-level modes of `self` followed by `other` as one mode: nested unless it is a
    /// leaf.
    ///
    /// ```
    /// let a: strideweave::Layout = "(1,2):(0,1)".parse().unwrap();
    /// let b: strideweave::Layout = "(3,4):(2,6)".parse().unwrap();
    /// assert_eq!(a.append(&b).unwrap().to_string(), "(1,2,(3,4)):(0,1,(2,6))");
    /// assert_eq!(a.append(&"5:1".parse().unwrap()).unwrap().to_string(), "(1,2,5):(0,1,1)");
    /// ```
    pub fn append(&self, other: &Layout) -> Result<Layout> {
        let mut b = LayoutBuilder::default();
        b.modes_of(self);
        b.layout(other);
        b.tuple("append")
    }

    /// The layouts as top-level modes of one tuple layout (`make_layout(A, B, …)`).
    ///
    /// ```
    /// use strideweave::Layout;
    /// let a: Layout = "3:1".parse().unwrap();
    /// let b: Layout = "4:3".parse().unwrap();
    /// assert_eq!(Layout::make(&[a, b]).unwrap().to_string(), "(3,4):(1,3)");
    /// ```
    pub fn make(modes: &[Layout]) -> Result<Layout> {
        let mut b = LayoutBuilder::default();
        modes.iter().for_each(|m| b.layout(m));
        b.tuple("make")
    }

    /// Reorders complete top-level modes: mode `j` of the result is mode `order[j]` of
    /// `self`; nested modes move whole. An order that omits, repeats or names a missing mode
    /// is an error.
    ///
    /// ```
    /// let l: strideweave::Layout = "(2,(3,4),5):(1,(2,6),24)".parse().unwrap();
    /// assert_eq!(l.permute(&[1, 0, 2]).unwrap().to_string(), "((3,4),2,5):((2,6),1,24)");
    /// let err = l.permute(&[1, 1, 0]).unwrap_err();
    /// assert_eq!(err.to_string(), "permute: order [1, 1, 0] names mode 1 twice");
    /// ```
    pub fn permute(&self, order: &[usize]) -> Result<Layout> {
        let mut out = Layout::unit();
        self.permute_into(order, &mut out)?;
        Ok(out)
    }

    /// [`permute`](Self::permute) writing the result over `out` in place (`out` is left
    /// unchanged on error).
    pub(crate) fn permute_into(&self, order: &[usize], out: &mut Layout) -> Result<()> {
        const OP: &str = "permute";
        let (t, sv, dv): (&[ProfileToken], &[i64], &[i64]) =
            (&self.shape.0.toks, &self.shape.0.vals, &self.stride.0.vals);
        if t.len() == sv.len() && !self.shape.0.int_root {
            // Flat: every top-level mode is one leaf, so permuting is a gather.
            check_permutation(OP, order, t.len())?;
            out.set_flat_valid(order.len(), false, |j| sv[order[j]], |j| dv[order[j]]);
            return Ok(());
        }
        let rank = self.rank();
        check_permutation(OP, order, rank)?;
        if self.shape.0.int_root {
            *out = self.clone();
            return Ok(());
        }
        // Copy each mode's tokens and leaves in the new order; size and reach are unchanged.
        let spans = self.shape.0.top_spans();
        let (mut toks, mut shape, mut stride) = (Toks::new(), Vals::new(), Vals::new());
        for &i in order {
            let sp = &spans[i];
            toks.extend_from_slice(&t[sp.toks.clone()]);
            shape.extend_from_slice(&sv[sp.vals.clone()]);
            stride.extend_from_slice(&dv[sp.vals.clone()]);
        }
        *out = Layout {
            shape: Shape(IntTuple::from_parts(toks.clone(), shape, false)),
            stride: Stride(IntTuple::from_parts(toks, stride, false)),
            plan: PlanCache::new(),
        };
        Ok(())
    }

    /// Widens extent-one leaves to the target's extents with stride 0; every other leaf must
    /// keep its extent, and the target must have the same nesting (profile).
    ///
    /// ```
    /// let l: strideweave::Layout = "(2,(1,3)):(1,(2,2))".parse().unwrap();
    /// let b = l.broadcast_to(&"(2,(4,3))".parse().unwrap()).unwrap();
    /// assert_eq!(b.to_string(), "(2,(4,3)):(1,(0,2))");
    /// let err = l.broadcast_to(&"(2,4,3)".parse().unwrap()).unwrap_err();
    /// assert!(err.to_string().contains("profile"));
    /// ```
    pub fn broadcast_to(&self, target: &Shape) -> Result<Layout> {
        self.broadcast_to_as("broadcast_to", target)
    }

    /// [`broadcast_to`](Self::broadcast_to) reporting errors as `op`, the operation called.
    pub(crate) fn broadcast_to_as(&self, op: &'static str, target: &Shape) -> Result<Layout> {
        let mut out = Layout::unit();
        self.broadcast_to_into(op, target, &mut out)?;
        Ok(out)
    }

    /// [`broadcast_to_as`](Self::broadcast_to_as) writing the result over `out` in place
    /// (`out` is left unchanged on error). Inlined: the flat path is short (the nested one
    /// is out of line), and a view calls it once.
    #[inline]
    pub(crate) fn broadcast_to_into(
        &self,
        op: &'static str,
        target: &Shape,
        out: &mut Layout,
    ) -> Result<()> {
        let (sv, tv, dv): (&[i64], &[i64], &[i64]) =
            (&self.shape.0.vals, &target.0.vals, &self.stride.0.vals);
        let n = tv.len();
        if let Some(extents) = target.0.vals.inline_items()
            && sv.len() == n
            && self.shape.0.toks.len() == n
            && target.0.toks.len() == n
        {
            // Flat on both sides (one token per leaf: every token a leaf, so the profiles
            // agree) and inline (n ≤ 8): one pass over the leaves for the strides; the
            // extents are the target's, copied as its whole inline array (a fixed-size
            // block, where a per-leaf copy became a `memcpy` call).
            let (mut stride, mut bad) = ([0i64; 8], false);
            for (d, ((&s, &t), &st)) in stride.iter_mut().zip(sv.iter().zip(tv).zip(dv)) {
                bad |= s != t && s != 1;
                *d = if s != t { 0 } else { st };
            }
            if bad {
                return Err(self.broadcast_error(op, target));
            }
            // Widening with stride 0 keeps the reach.
            out.set_flat_inline_root((*extents, stride), n, target.0.int_root);
            return Ok(());
        }
        self.broadcast_to_nested(op, target, out, (sv, tv, dv))
    }

    /// [`broadcast_to_into`](Self::broadcast_to_into) for nested (or long) layouts, given
    /// the source's extents and strides and the target's extents; out of line so that the
    /// flat path keeps its registers.
    #[inline(never)]
    fn broadcast_to_nested(
        &self,
        op: &'static str,
        target: &Shape,
        out: &mut Layout,
        (sv, tv, dv): (&[i64], &[i64], &[i64]),
    ) -> Result<()> {
        let n = tv.len();
        if self.shape.0.toks != target.0.toks
            || sv.len() != n
            || dv.len() != n
            || sv.iter().zip(tv).any(|(&s, &t)| s != t && s != 1)
        {
            return Err(self.broadcast_error(op, target));
        }
        // Widening with stride 0 keeps the reach.
        out.set_valid(
            &target.0.toks,
            target.0.int_root,
            n,
            |i| tv[i],
            |i| if sv[i] != tv[i] { 0 } else { dv[i] },
        );
        Ok(())
    }

    /// Why `self` does not broadcast to `target`.
    #[cold]
    fn broadcast_error(&self, op: &'static str, target: &Shape) -> Error {
        let fail = |detail: String| Error::InvalidBroadcast {
            op,
            from: self.shape.to_string(),
            to: target.to_string(),
            detail,
        };
        if self.shape.0.toks != target.0.toks {
            return fail(format!(
                "the target has a different profile (nesting) than the source; broadcasting never flattens, aligns, inserts or reorders modes (source profile {}, target profile {})",
                profile_string(self.profile()),
                profile_string(target.profile())
            ));
        }
        let (sv, tv) = (&self.shape.0.vals, &target.0.vals);
        let i = (0..tv.len())
            .find(|&i| sv[i] != tv[i] && sv[i] != 1)
            // unreachable from user input: the caller found such a leaf before asking for this message.
            .expect("called only when the profiles agree and a leaf neither matches nor is 1");
        fail(format!(
            "mode {} has extent {}, which is not 1 and differs from the target extent {}",
            leaf_path(self.profile(), i),
            sv[i],
            tv[i]
        ))
    }

    /// The leaves of shape and stride as flat tuples (`((2,3),5):((1,2),6)` → `(2,3,5):(1,2,6)`).
    ///
    /// ```
    /// let l: strideweave::Layout = "((2,3),5,7):((1,2),6,30)".parse().unwrap();
    /// assert_eq!(l.flatten().to_string(), "(2,3,5,7):(1,2,6,30)");
    /// ```
    pub fn flatten(&self) -> Layout {
        let toks = self
            .profile()
            .iter()
            .filter(|t| **t == ProfileToken::Leaf)
            .copied()
            .collect();
        let int_root = self.shape.0.int_root;
        Layout {
            shape: Shape(IntTuple::from_parts(
                toks,
                self.shape.0.vals.clone(),
                int_root,
            )),
            stride: Stride(IntTuple::from_parts(
                self.shape
                    .0
                    .toks
                    .iter()
                    .filter(|t| **t == ProfileToken::Leaf)
                    .copied()
                    .collect(),
                self.stride.0.vals.clone(),
                int_root,
            )),
            plan: PlanCache::new(),
        }
    }

    /// The top-level modes as (shape node, stride node) pairs.
    pub(crate) fn top(&self) -> impl Iterator<Item = (Node<'_>, Node<'_>)> + Clone + '_ {
        self.shape.0.seq().zip(self.stride.0.seq())
    }

    /// The top-level modes as owned layouts.
    pub(crate) fn top_layouts(&self) -> SmallVec<[Layout; 4]> {
        self.top()
            .map(|(s, d)| Layout {
                shape: Shape(s.to_int_tuple()),
                stride: Stride(d.to_int_tuple()),
                plan: PlanCache::new(),
            })
            .collect()
    }
}

pub(crate) fn mode_out_of_range(op: &'static str, i: usize, rank: usize) -> Error {
    Error::OutOfDomain {
        op,
        what: "mode index",
        value: i as i64,
        place: format!("the {rank} top-level modes"),
        bound: rank as i64,
    }
}

/// Checks that `order` names every one of `rank` modes exactly once.
pub(crate) fn check_permutation(op: &'static str, order: &[usize], rank: usize) -> Result<()> {
    if rank <= 64 && order.len() == rank {
        // Fast path: a bit per mode.
        let mut seen = 0u64;
        for &i in order {
            if i >= rank || seen & (1 << i) != 0 {
                return check_permutation_slow(op, order, rank);
            }
            seen |= 1 << i;
        }
        return Ok(());
    }
    check_permutation_slow(op, order, rank)
}

fn check_permutation_slow(op: &'static str, order: &[usize], rank: usize) -> Result<()> {
    let mut seen: SmallVec<[bool; 8]> = SmallVec::from_elem(false, rank);
    for &i in order {
        if i >= rank {
            return Err(Error::OutOfDomain {
                op,
                what: "mode index",
                value: i as i64,
                place: format!("the {rank} top-level modes (order {order:?})"),
                bound: rank as i64,
            });
        }
        if std::mem::replace(&mut seen[i], true) {
            return Err(Error::InvalidAxes {
                op,
                detail: format!("order {order:?} names mode {i} twice"),
            });
        }
    }
    if let Some(missing) = seen.iter().position(|s| !s) {
        return Err(Error::InvalidAxes {
            op,
            detail: format!(
                "order {order:?} omits mode {missing} (it must name each of the {rank} top-level modes once)"
            ),
        });
    }
    Ok(())
}

pub(crate) fn profile_string(p: &[ProfileToken]) -> String {
    let names: Vec<&str> = p
        .iter()
        .map(|t| match t {
            ProfileToken::Leaf => "Leaf",
            ProfileToken::Push => "Push",
            ProfileToken::Pop => "Pop",
        })
        .collect();
    format!("[{}]", names.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// `broadcast_to` computed leaf by leaf: `None` when a leaf is neither kept nor 1.
    fn naive(shape: &[i64], stride: &[i64], target: &[i64]) -> Option<Vec<(i64, i64)>> {
        let leaves = shape.iter().zip(stride).zip(target);
        leaves
            .map(|((&s, &d), &t)| match (s == t, s == 1) {
                (true, _) => Some((t, d)),
                (false, true) => Some((t, 0)),
                (false, false) => None,
            })
            .collect()
    }

    fn text(xs: &[i64]) -> String {
        let parts: Vec<String> = xs.iter().map(|x| x.to_string()).collect();
        format!("({})", parts.join(","))
    }

    proptest! {
        /// The flat fast path (up to 8 leaves) and the general path (more leaves, or the same
        /// leaves nested one level deeper) agree with the leaf-by-leaf reference, errors
        /// included, and an error leaves the output untouched.
        #[test]
        fn broadcast_to_flat_fast_path_matches_the_general_path(
            leaves in proptest::collection::vec((1i64..4, -9i64..9, 0u8..4), 0..11),
        ) {
            let shape: Vec<i64> = leaves.iter().map(|l| l.0).collect();
            let stride: Vec<i64> = leaves.iter().map(|l| l.1).collect();
            // Widen a 1 (kind 0), keep the extent (1, 2), or ask for a wrong one (3).
            let target: Vec<i64> = leaves
                .iter()
                .map(|&(s, _, k)| match k {
                    0 if s == 1 => 5,
                    3 => s + 1,
                    _ => s,
                })
                .collect();
            let want = naive(&shape, &stride, &target);
            let flat: Layout = format!("{}:{}", text(&shape), text(&stride)).parse().unwrap();
            let nested: Layout =
                format!("({}):({})", text(&shape), text(&stride)).parse().unwrap();
            let placeholder: Layout = "(7,7):(1,7)".parse().unwrap();
            for (l, t) in [(flat, text(&target)), (nested, format!("({})", text(&target)))] {
                let t: Shape = t.parse().unwrap();
                let mut out = placeholder.clone();
                match (l.broadcast_to_into("broadcast_to", &t, &mut out), &want) {
                    (Ok(()), Some(w)) => {
                        let got: Vec<(i64, i64)> = out
                            .shape()
                            .leaves()
                            .iter()
                            .copied()
                            .zip(out.stride().leaves().iter().copied())
                            .collect();
                        prop_assert_eq!(&got, w);
                        prop_assert_eq!(out.shape(), &t);
                    }
                    (Err(e), None) => {
                        prop_assert!(e.to_string().starts_with("broadcast_to"), "{}", e);
                        prop_assert_eq!(&out, &placeholder);
                    }
                    (got, _) => prop_assert!(false, "{l} -> {t}: {got:?}, want {want:?}"),
                }
            }
        }
    }

    #[test]
    fn broadcast_to_keeps_the_targets_integer_root() {
        let one: Layout = "1:0".parse().unwrap();
        let b = one.broadcast_to(&"6".parse().unwrap()).unwrap();
        assert_eq!(b.to_string(), "6:0");
        let one: Layout = "(1):(0)".parse().unwrap();
        let b = one.broadcast_to(&"(6)".parse().unwrap()).unwrap();
        assert_eq!(b.to_string(), "(6):(0)");
        assert_eq!(b.shape().to_string(), "(6)");
    }
}
