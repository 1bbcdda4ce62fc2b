//! `Layout`: a shape and a congruent stride, and the function they define.

use smallvec::SmallVec;

use crate::error::{Error, Result};
use crate::layout::int_tuple::{
    IntTuple, Node, ProfileToken, Toks, Vals, check_nesting, leaf_path,
};
use crate::layout::shape::{Shape, Stride};
use crate::layout::shift_plan::PlanCache;

/// A hierarchical layout: a function from the coordinates of a [`Shape`] to integers,
/// `L(c) = Σ leaf coordinate × leaf stride`.
///
/// Coordinates are first-mode-fastest (colexicographic) at every level.
///
/// ```
/// use strideweave::{IntTuple, Layout};
/// let l: Layout = "(2,(3,4)):(1,(10,100))".parse().unwrap();
/// assert_eq!(l.index(&"(1,(2,3))".parse().unwrap()).unwrap(), 321);
/// assert_eq!(l.index(&IntTuple::from([1, 11])).unwrap(), 321); // 11 = (2,3) in (3,4)
/// assert_eq!(l.index_of(23).unwrap(), 321);
/// assert_eq!((l.size(), l.cosize(), l.rank(), l.depth()), (24, 322, 2, 2));
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Layout {
    pub(crate) shape: Shape,
    pub(crate) stride: Stride,
    /// The plan of `index_of`, made on its first call (ignored by `==` and `Hash`,
    /// emptied by `clone` and by every in-place write).
    pub(crate) plan: PlanCache,
}

type Path = SmallVec<[usize; 8]>;

fn path_string(path: &[usize]) -> String {
    if path.is_empty() {
        return "the root".to_string();
    }
    path.iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(".")
}

impl Layout {
    /// Builds a layout from a shape and a congruent stride; checks that every index it can
    /// reach fits in `i64`.
    ///
    /// ```
    /// use strideweave::{Layout, Shape, Stride};
    /// let l = Layout::new("(2,(3,4))".parse().unwrap(), "(1,(2,6))".parse().unwrap()).unwrap();
    /// assert_eq!(l.to_string(), "(2,(3,4)):(1,(2,6))");
    /// let err = Layout::new("(2,(3,4))".parse().unwrap(), "(1,2)".parse().unwrap()).unwrap_err();
    /// assert!(err.to_string().contains("mode 1"));
    /// ```
    pub fn new(shape: Shape, stride: Stride) -> Result<Layout> {
        Layout::new_as("Layout::new", shape, stride)
    }

    /// [`Layout::new`] reporting errors as `op`, the operation called.
    pub(crate) fn new_as(op: &'static str, shape: Shape, stride: Stride) -> Result<Layout> {
        if shape.0.toks != stride.0.toks {
            return Err(Error::NotCongruent {
                op,
                detail: congruence_detail(&shape.0, &stride.0),
            });
        }
        let mut stride = stride;
        stride.0.int_root = shape.0.int_root;
        Layout::checked(op, shape, stride)
    }

    /// Builds from parts with equal profiles, checking only the reach for overflow.
    pub(crate) fn checked(op: &'static str, shape: Shape, stride: Stride) -> Result<Layout> {
        debug_assert_eq!(shape.0.toks, stride.0.toks);
        check_nesting(op, "the result would nest", shape.0.depth())?;
        let l = Layout {
            shape,
            stride,
            plan: PlanCache::new(),
        };
        l.try_reach()
            .ok_or_else(|| Error::overflow(op, "the reach of the layout"))?;
        l.shape
            .0
            .product()
            .map_err(|_| Error::overflow(op, "the size of the layout"))?;
        Ok(l)
    }

    /// The crate's unchecked constructor: a layout of profile `toks` (an integer when
    /// `int_root`) from parts known to be valid — extents ≥ 1, one stride per extent, size
    /// and reach within `i64` (results of structure-preserving operations on a valid layout,
    /// and the literals a macro expansion checked at compile time).
    pub(crate) fn from_valid(
        toks: impl Into<Toks>,
        shape: impl Into<Vals>,
        stride: impl Into<Vals>,
        int_root: bool,
    ) -> Layout {
        let toks = toks.into();
        let l = Layout {
            shape: Shape::from_valid(toks.clone(), shape, int_root),
            stride: Stride(IntTuple::from_parts(toks, stride.into(), int_root)),
            plan: PlanCache::new(),
        };
        debug_assert!(l.try_reach().is_some());
        l
    }

    /// `():()`, the layout of one element with no modes: the placeholder that a view's
    /// layout is written over in place (see [`set_valid`](Self::set_valid)).
    #[inline]
    pub(crate) fn unit() -> Layout {
        let empty = || IntTuple::from_parts(Toks::new(), Vals::new(), false);
        Layout {
            shape: Shape(empty()),
            stride: Stride(empty()),
            plan: PlanCache::new(),
        }
    }

    /// Overwrites `self`, in place, with the valid layout of profile `toks` (an integer when
    /// `int_root`) whose `n` leaves are `(extent(j), stride(j))`: the in-place form of
    /// [`from_valid`](Self::from_valid), for results of structure-preserving operations on a
    /// valid layout.
    #[inline(always)]
    pub(crate) fn set_valid(
        &mut self,
        toks: &Toks,
        int_root: bool,
        n: usize,
        extent: impl FnMut(usize) -> i64,
        stride: impl FnMut(usize) -> i64,
    ) {
        self.shape.0.toks.set_from(toks);
        self.stride.0.toks.set_from(toks);
        self.shape.0.vals.set_from_fn(n, extent);
        self.stride.0.vals.set_from_fn(n, stride);
        self.set_root(int_root);
    }

    /// [`set_valid`](Self::set_valid) with the `ntoks` profile tokens given one by one
    /// (`tok(j)`), for a writer that keeps them in another form (the rearrangement plan's
    /// bytes); never an integer root.
    #[inline(always)]
    pub(crate) fn set_valid_with(
        &mut self,
        ntoks: usize,
        tok: impl FnMut(usize) -> ProfileToken,
        n: usize,
        extent: impl FnMut(usize) -> i64,
        stride: impl FnMut(usize) -> i64,
    ) {
        self.shape.0.toks.set_from_fn(ntoks, tok);
        self.stride.0.toks.set_from(&self.shape.0.toks);
        self.shape.0.vals.set_from_fn(n, extent);
        self.stride.0.vals.set_from_fn(n, stride);
        self.set_root(false);
    }

    /// [`set_valid`](Self::set_valid) for a flat layout: `n` top-level modes, each a leaf
    /// (`int_root` only when `n == 1`: the integer `s:d` rather than `(s):(d)`).
    #[inline(always)]
    pub(crate) fn set_flat_valid(
        &mut self,
        n: usize,
        int_root: bool,
        extent: impl FnMut(usize) -> i64,
        stride: impl FnMut(usize) -> i64,
    ) {
        self.shape.0.vals.set_from_fn(n, extent);
        self.stride.0.vals.set_from_fn(n, stride);
        self.set_flat_profile(n, int_root);
    }

    /// Whether the layout keeps every token and leaf inline (no heap storage): what a kept,
    /// reused layout allocation may hold without pinning memory.
    pub(crate) fn is_inline(&self) -> bool {
        let (shape, stride) = (&self.shape.0, &self.stride.0);
        shape.toks.inline_items().is_some()
            && stride.toks.inline_items().is_some()
            && shape.vals.inline_items().is_some()
            && stride.vals.inline_items().is_some()
    }

    /// [`set_flat_valid`](Self::set_flat_valid) from the first `n` items of fixed arrays
    /// (`n` at most the inline capacity): block copies, no per-leaf loop.
    #[inline(always)]
    pub(crate) fn set_flat_inline(&mut self, leaves: ([i64; 8], [i64; 8]), n: usize) {
        self.set_flat_inline_root(leaves, n, n == 1);
    }

    /// [`set_flat_inline`](Self::set_flat_inline) with the integer-root flag given (`int_root`
    /// only when `n == 1`).
    #[inline(always)]
    pub(crate) fn set_flat_inline_root(
        &mut self,
        leaves: ([i64; 8], [i64; 8]),
        n: usize,
        int_root: bool,
    ) {
        self.shape.0.vals.set_inline(leaves.0, n);
        self.stride.0.vals.set_inline(leaves.1, n);
        self.set_flat_profile(n, int_root);
    }

    /// The flat profile of `n` leaves on both halves, once their leaves are written.
    #[inline(always)]
    fn set_flat_profile(&mut self, n: usize, int_root: bool) {
        debug_assert!(!int_root || n == 1);
        // `Leaf` is the tokens' default.
        self.shape.0.toks.set_default(n);
        self.stride.0.toks.set_default(n);
        self.set_root(int_root);
    }

    /// Sets both halves' integer-root flag, completing an in-place write.
    #[inline(always)]
    fn set_root(&mut self, int_root: bool) {
        (self.shape.0.int_root, self.stride.0.int_root) = (int_root, int_root);
        self.plan.clear();
        debug_assert_eq!(self.shape.0.vals.len(), self.stride.0.vals.len());
        debug_assert!(self.shape.0.vals.iter().all(|&e| e >= 1));
        debug_assert!(self.try_reach().is_some());
    }

    /// Builds from raw parts (equal profiles), checked.
    pub(crate) fn from_parts(
        op: &'static str,
        toks: Toks,
        shape: Vals,
        stride: Vals,
        int_root: bool,
    ) -> Result<Layout> {
        if let Some(i) = shape.iter().position(|&v| v < 1) {
            return Err(Error::not_representable(
                op,
                format!(
                    "the result would have extent {} at mode {}",
                    shape[i],
                    leaf_path(&toks, i)
                ),
            ));
        }
        let s = IntTuple::from_parts(toks.clone(), shape, int_root);
        let d = IntTuple::from_parts(toks, stride, int_root);
        Layout::checked(op, Shape(s), Stride(d))
    }

    /// A flat layout `(s0,s1,…):(d0,d1,…)` (or `s:d` for one mode when `int_root`).
    pub(crate) fn flat(op: &'static str, modes: &[(i64, i64)], int_root: bool) -> Result<Layout> {
        let toks: Toks = modes.iter().map(|_| ProfileToken::Leaf).collect();
        let shape: Vals = modes.iter().map(|m| m.0).collect();
        let stride: Vals = modes.iter().map(|m| m.1).collect();
        Layout::from_parts(op, toks, shape, stride, int_root && modes.len() == 1)
    }

    /// The compact, first-mode-fastest layout of a shape: each leaf's stride is
    /// the product of the extents before it in depth-first order.
    ///
    /// ```
    /// let l = strideweave::Layout::compact(&"((2,3),(2,1,2))".parse().unwrap());
    /// assert_eq!(l.to_string(), "((2,3),(2,1,2)):((1,2),(6,12,12))");
    /// ```
    pub fn compact(shape: &Shape) -> Layout {
        // Exact: a Shape's size fits in i64.
        let stride: Vals =
            strideweave_syntax::compact_strides(shape.0.vals.iter().copied()).collect();
        Layout {
            stride: Stride(shape.0.with_leaves(stride)),
            shape: shape.clone(),
            plan: PlanCache::new(),
        }
    }

    /// The row-major layout of a shape: the last leaf in depth-first order varies fastest.
    ///
    /// ```
    /// let l = strideweave::Layout::row_major(&"(2,(3,4))".parse().unwrap());
    /// assert_eq!(l.to_string(), "(2,(3,4)):(12,(4,1))");
    /// ```
    pub fn row_major(shape: &Shape) -> Layout {
        let mut acc = 1i64;
        let mut stride: Vals = shape
            .0
            .vals
            .iter()
            .rev()
            .map(|&s| {
                let d = acc;
                acc *= s;
                d
            })
            .collect();
        stride.reverse();
        Layout {
            stride: Stride(shape.0.with_leaves(stride)),
            shape: shape.clone(),
            plan: PlanCache::new(),
        }
    }

    /// The shape.
    ///
    /// ```
    /// let l: strideweave::Layout = "(2,3):(1,2)".parse().unwrap();
    /// assert_eq!(l.shape().to_string(), "(2,3)");
    /// ```
    #[inline]
    pub fn shape(&self) -> &Shape {
        &self.shape
    }

    /// The stride.
    ///
    /// ```
    /// let l: strideweave::Layout = "(2,3):(1,2)".parse().unwrap();
    /// assert_eq!(l.stride().to_string(), "(1,2)");
    /// ```
    #[inline]
    pub fn stride(&self) -> &Stride {
        &self.stride
    }

    /// The size of the domain: the product of the extents.
    ///
    /// ```
    /// let l: strideweave::Layout = "(2,3):(1,4)".parse().unwrap();
    /// assert_eq!(l.size(), 6);
    /// ```
    pub fn size(&self) -> usize {
        self.shape.size()
    }

    /// 1 + the largest index the layout reaches, computed from the strides.
    ///
    /// ```
    /// let l: strideweave::Layout = "(2,3):(1,4)".parse().unwrap();
    /// assert_eq!(l.cosize(), 10);
    /// let r: strideweave::Layout = "4:-1".parse().unwrap();
    /// assert_eq!(r.cosize(), 1);
    /// ```
    pub fn cosize(&self) -> usize {
        // The largest index fits in i64, so one more fits in usize (64-bit targets).
        self.reach().1 as usize + 1
    }

    /// The smallest and the largest index the layout reaches, from the strides in O(leaves).
    ///
    /// ```
    /// let l: strideweave::Layout = "(4,3):(-1,5)".parse().unwrap();
    /// assert_eq!(l.reach(), (-3, 10));
    /// ```
    pub fn reach(&self) -> (i64, i64) {
        // Construction checked that the reach fits.
        self.try_reach().unwrap_or((i64::MIN, i64::MAX))
    }

    fn try_reach(&self) -> Option<(i64, i64)> {
        let (lo, hi) = reach_from(0, self.leaves().map(|(&s, &d)| (s as u64, d)))?;
        Some((lo.try_into().ok()?, hi.try_into().ok()?))
    }

    /// The number of top-level modes.
    ///
    /// ```
    /// let l: strideweave::Layout = "(2,(3,4)):(1,(2,6))".parse().unwrap();
    /// assert_eq!(l.rank(), 2);
    /// ```
    pub fn rank(&self) -> usize {
        self.shape.rank()
    }

    /// The nesting depth of the shape (0 for an integer shape).
    ///
    /// ```
    /// let l: strideweave::Layout = "8:1".parse().unwrap();
    /// assert_eq!(l.depth(), 0);
    /// ```
    pub fn depth(&self) -> usize {
        self.shape.depth()
    }

    /// The leaf-and-nesting recipe, without the extents (the profile).
    ///
    /// ```
    /// use strideweave::{Layout, ProfileToken::*};
    /// let l: Layout = "(2,(3,4)):(1,(2,6))".parse().unwrap();
    /// assert_eq!(l.profile(), &[Leaf, Push, Leaf, Leaf, Pop]);
    /// ```
    #[inline]
    pub fn profile(&self) -> &[ProfileToken] {
        self.shape.profile()
    }

    /// `(extent, stride)` of every leaf in depth-first order.
    pub(crate) fn leaves(&self) -> impl ExactSizeIterator<Item = (&i64, &i64)> + Clone + '_ {
        self.shape.0.vals.iter().zip(self.stride.0.vals.iter())
    }

    /// The index of a coordinate. The coordinate mirrors the shape's hierarchy
    /// or uses a non-negative integer at any level, expanded first-mode-fastest.
    ///
    /// ```
    /// let l: strideweave::Layout = "(3,4):(2,10)".parse().unwrap();
    /// assert_eq!(l.index(&5.into()).unwrap(), 14);
    /// assert_eq!(l.index(&[2, 1].into()).unwrap(), 14);
    /// assert!(l.index(&[2, 4].into()).is_err());
    /// assert!(l.index(&[2].into()).is_err());
    /// ```
    pub fn index(&self, coord: &IntTuple) -> Result<i64> {
        self.index_as("index", coord)
    }

    /// [`index`](Self::index) reporting errors as `op`, the operation called.
    pub(crate) fn index_as(&self, op: &'static str, coord: &IntTuple) -> Result<i64> {
        if let Some(i) = coord.as_int() {
            return self.index_of_named(op, "coordinate", i);
        }
        if coord.toks == self.shape.0.toks {
            // A natural coordinate (congruent with the shape): one pass over the leaves.
            let mut total = 0i64;
            for (k, ((&c, &e), &d)) in coord
                .vals
                .iter()
                .zip(&self.shape.0.vals)
                .zip(&self.stride.0.vals)
                .enumerate()
            {
                if !(0..e).contains(&c) {
                    return Err(Error::OutOfDomain {
                        op,
                        what: "coordinate",
                        value: c,
                        place: format!("mode {} of extent {e}", leaf_path(&self.shape.0.toks, k)),
                        bound: e,
                    });
                }
                total += c * d;
            }
            return Ok(total);
        }
        let mut path = Path::new();
        let mut total = 0i64;
        let coords = coord.seq();
        let found = coords.count();
        if found != self.rank() {
            return Err(Error::RankMismatch {
                op,
                what: "top-level coordinates",
                expected: self.rank(),
                found,
            });
        }
        for (i, ((c, s), d)) in coords
            .zip(self.shape.0.seq())
            .zip(self.stride.0.seq())
            .enumerate()
        {
            path.push(i);
            total += node_index(op, c, s, d, &mut path)?;
            path.pop();
        }
        Ok(total)
    }

    /// The index of the first-mode-fastest ordinal `i` in `[0, size)`.
    ///
    /// A layout whose extents are all powers of two (fewer than 2^32 elements, at most four
    /// leaves that do not continue the one before them) makes a shift plan on the first call
    /// and keeps it: every later call costs a shift, a multiplication and an addition per
    /// such leaf, and one comparison for the bounds. Other layouts divide leaf by leaf; to
    /// map many ordinals of any layout, hoist a [`Layout::indexer`] out of the loop
    /// (precomputed division for every extent, as CuTe's `FastDivmod`).
    ///
    /// ```
    /// let l: strideweave::Layout = "(2,(2,2)):(4,(2,1))".parse().unwrap();
    /// let seq: Vec<i64> = (0..8).map(|i| l.index_of(i).unwrap()).collect();
    /// assert_eq!(seq, [0, 4, 2, 6, 1, 5, 3, 7]);
    /// assert!(l.index_of(8).is_err());
    /// ```
    #[inline(always)]
    pub fn index_of(&self, ordinal: usize) -> Result<i64> {
        self.index_of_as("index_of", ordinal)
    }

    /// [`index_of`](Self::index_of) reporting errors as `op`, the operation called.
    #[inline(always)]
    pub(crate) fn index_of_as(&self, op: &'static str, ordinal: usize) -> Result<i64> {
        match self.eval_in_domain(ordinal as u64) {
            Some(k) => Ok(k),
            None => Err(self.outside(op, "ordinal", i64::try_from(ordinal).unwrap_or(i64::MAX))),
        }
    }

    fn index_of_named(&self, op: &'static str, what: &'static str, ordinal: i64) -> Result<i64> {
        // A negative ordinal is above i64::MAX as u64, so outside every domain.
        match self.eval_in_domain(ordinal as u64) {
            Some(k) => Ok(k),
            None => Err(self.outside(op, what, ordinal)),
        }
    }

    /// The error of an ordinal outside `[0, size)`: kept out of line, so that the checked
    /// index math inlines without it.
    #[cold]
    #[inline(never)]
    fn outside(&self, op: &'static str, what: &'static str, ordinal: i64) -> Error {
        let size = self.size() as i64;
        Error::OutOfDomain {
            op,
            what,
            value: ordinal,
            place: format!("the layout of size {size}"),
            bound: size,
        }
    }

    /// `L(i)` for an ordinal already known to lie in the domain.
    #[inline]
    pub(crate) fn eval(&self, i: i64) -> i64 {
        debug_assert!((0..self.size() as i64).contains(&i));
        self.eval_in_domain(i as u64).unwrap_or(0)
    }

    /// `L(n)` when `n < size`, else `None`, without computing the size: by the layout's
    /// shift plan when it has one (`layout/shift_plan.rs`: made on the first call and kept),
    /// else [leaf by leaf](Self::eval_leaves).
    #[inline(always)]
    pub(crate) fn eval_in_domain(&self, n: u64) -> Option<i64> {
        match self.plan.eval(n) {
            Some(k) => {
                debug_assert_eq!(Some(k), self.eval_leaves(n), "the plan of {self}");
                Some(k)
            }
            // No plan, or outside the domain.
            None if self.plan.made() => self.eval_leaves(n),
            // No plan yet.
            None => self.eval_unplanned(n),
        }
    }

    /// [`eval_in_domain`](Self::eval_in_domain) on the first call: makes the plan.
    #[cold]
    #[inline(never)]
    fn eval_unplanned(&self, n: u64) -> Option<i64> {
        self.plan.make(self);
        self.plan.eval(n).or_else(|| self.eval_leaves(n))
    }

    /// [`eval_in_domain`](Self::eval_in_domain) leaf by leaf, without the plan: the
    /// coordinate of every leaf but the last is `n mod extent` (a mask for a power-of-two
    /// extent, else a division), `n` becoming `n / extent` (a shift, else the same division);
    /// what is left for the last leaf is `⌊n / (size / extent_last)⌋`, which is below
    /// `extent_last` exactly when `n < size`. No operation can panic: in the domain every
    /// partial sum is a partial index within the reach, and outside it the wrapping result is
    /// discarded.
    #[inline]
    fn eval_leaves(&self, n: u64) -> Option<i64> {
        let (shape, stride) = (&self.shape.0.vals, &self.stride.0.vals);
        if let (Some((e, len)), Some((d, _))) = (shape.inline(), stride.inline()) {
            // Up to 4 leaves, inline: the leaf loop unrolled.
            match len {
                1 => return leaves_unrolled::<1>(e, d, n),
                2 => return leaves_unrolled::<2>(e, d, n),
                3 => return leaves_unrolled::<3>(e, d, n),
                4 => return leaves_unrolled::<4>(e, d, n),
                _ => {}
            }
        }
        eval_slices(shape, stride, n)
    }

    /// `L(i)` with CuTe's extension of the last leaf for `i ≥ size` (the meaning composition
    /// gives to a right operand that reaches beyond the left one's domain).
    pub(crate) fn eval_extended(&self, mut i: i64) -> i64 {
        let n = self.shape.0.vals.len();
        let mut acc = 0i64;
        for (k, (&s, &d)) in self.leaves().enumerate() {
            let c = if k + 1 == n { i } else { i % s };
            acc = acc.wrapping_add(c.wrapping_mul(d));
            i /= s;
        }
        acc
    }

    /// The `k` such that the layout maps onto `[0, target.size())` reaching every index
    /// exactly `k` times, proven from the strides without enumerating.
    ///
    /// ```
    /// let l: strideweave::Layout = "(4,3):(0,1)".parse().unwrap();
    /// assert_eq!(l.uniform_preimage_extent(&"3".parse().unwrap()), Some(4));
    /// let m: strideweave::Layout = "(2,2):(1,1)".parse().unwrap();
    /// assert_eq!(m.uniform_preimage_extent(&"3".parse().unwrap()), None);
    /// ```
    pub fn uniform_preimage_extent(&self, target: &Shape) -> Option<i64> {
        // Stride-zero leaves multiply the preimage; the rest must tile [0, n) exactly once,
        // which for positive strides means: sorted by stride they are compact.
        let mut k = 1i64;
        let mut live: SmallVec<[(i64, i64); 8]> = SmallVec::new();
        for (&s, &d) in self.leaves() {
            if s == 1 {
                continue;
            }
            if d == 0 {
                k = k.checked_mul(s)?;
            } else if d < 0 {
                return None;
            } else {
                live.push((d, s));
            }
        }
        live.sort_unstable();
        let mut expect = 1i64;
        for (d, s) in live {
            if d != expect {
                return None;
            }
            expect = expect.checked_mul(s)?;
        }
        (expect == target.size() as i64).then_some(k)
    }
}

/// The index contribution of coordinate node `c` against shape node `s`, stride node `d`.
/// The smallest and the largest index that leaves `(extent, stride)` reach from `start`:
/// `start` plus the sum of the negative spans `(extent − 1) × stride`, and `start` plus the
/// sum of the positive ones; `None` when a sum overflows `i128` (no span does). The rule of
/// [`Layout::reach`], shared with the typed views.
pub(crate) fn reach_from(
    start: i128,
    leaves: impl IntoIterator<Item = (u64, i64)>,
) -> Option<(i128, i128)> {
    let (mut lo, mut hi) = (start, start);
    for (s, d) in leaves {
        // |(s − 1) × d| < 2^64 · 2^63: exact in i128.
        let span = (i128::from(s) - 1) * i128::from(d);
        let side = if span < 0 { &mut lo } else { &mut hi };
        *side = side.checked_add(span)?;
    }
    Some((lo, hi))
}

/// One leaf but the last of [`Layout::eval_leaves`]: `n`'s coordinate in extent `e`
/// times stride `d` added to `acc`, `n` divided by `e`.
#[inline(always)]
fn leaf_step(acc: &mut i64, n: &mut u64, e: i64, d: i64) {
    let e = e as u64;
    let c;
    if e & e.wrapping_sub(1) == 0 {
        // A power of two (extents are ≥ 1).
        c = *n & e.wrapping_sub(1);
        *n = n.wrapping_shr(e.trailing_zeros());
    } else {
        // `e` ≥ 3 here, so the division cannot fail.
        c = *n % e;
        *n /= e;
    }
    *acc = acc.wrapping_add((c as i64).wrapping_mul(d));
}

/// [`Layout::eval_leaves`] for `K ≥ 1` leaves held in inline arrays.
#[inline(always)]
fn leaves_unrolled<const K: usize>(e: &[i64; 8], d: &[i64; 8], mut n: u64) -> Option<i64> {
    let mut acc = 0i64;
    for k in 0..K - 1 {
        leaf_step(&mut acc, &mut n, e[k], d[k]);
    }
    (n < e[K - 1] as u64).then(|| acc.wrapping_add((n as i64).wrapping_mul(d[K - 1])))
}

/// [`Layout::eval_leaves`] for any number of leaves.
#[inline(never)]
fn eval_slices(extents: &[i64], strides: &[i64], mut n: u64) -> Option<i64> {
    let Some((&last, extents)) = extents.split_last() else {
        // No leaves: one element, at 0.
        return (n == 0).then_some(0);
    };
    let mut acc = 0i64;
    for (&e, &d) in extents.iter().zip(strides) {
        leaf_step(&mut acc, &mut n, e, d);
    }
    let d = strides.get(extents.len()).copied().unwrap_or(0);
    (n < last as u64).then(|| acc.wrapping_add((n as i64).wrapping_mul(d)))
}

fn node_index(
    op: &'static str,
    c: Node<'_>,
    s: Node<'_>,
    d: Node<'_>,
    path: &mut Path,
) -> Result<i64> {
    match (c, s, d) {
        (Node::Leaf(mut c), s, d) => {
            let extents = s.leaves();
            let size: i64 = extents.iter().product();
            if !(0..size).contains(&c) {
                return Err(Error::OutOfDomain {
                    op,
                    what: "coordinate",
                    value: c,
                    place: format!("mode {} of extent {size}", path_string(path)),
                    bound: size,
                });
            }
            let mut acc = 0;
            for (&e, &st) in extents.iter().zip(d.leaves()) {
                acc += (c % e) * st;
                c /= e;
            }
            Ok(acc)
        }
        (Node::Tuple(cs), Node::Tuple(ss), Node::Tuple(ds)) => {
            let (found, expected) = (cs.count(), ss.count());
            if found != expected {
                return Err(Error::RankMismatch {
                    op,
                    what: "coordinates inside a nested mode",
                    expected,
                    found,
                });
            }
            let mut total = 0;
            for (j, ((c, s), d)) in cs.zip(ss).zip(ds).enumerate() {
                path.push(j);
                total += node_index(op, c, s, d, path)?;
                path.pop();
            }
            Ok(total)
        }
        (Node::Tuple(cs), _, _) => Err(Error::NotCongruent {
            op,
            detail: format!(
                "coordinate {} is a tuple but mode {} is a leaf",
                Node::Tuple(cs).to_int_tuple(),
                path_string(path)
            ),
        }),
    }
}

/// Names the first place where a stride's structure differs from the shape's.
pub(crate) fn congruence_detail(shape: &IntTuple, stride: &IntTuple) -> String {
    fn go(s: Node<'_>, d: Node<'_>, path: &mut Vec<usize>) -> Option<String> {
        let kind = |n: &Node<'_>| match n {
            Node::Leaf(_) => "a leaf".to_string(),
            Node::Tuple(t) => format!("a tuple of {}", t.count()),
        };
        match (s, d) {
            (Node::Leaf(_), Node::Leaf(_)) => None,
            (Node::Tuple(a), Node::Tuple(b)) if a.count() == b.count() => {
                for (i, (x, y)) in a.zip(b).enumerate() {
                    path.push(i);
                    if let Some(m) = go(x, y, path) {
                        return Some(m);
                    }
                    path.pop();
                }
                None
            }
            (s, d) => Some(format!(
                "stride is not congruent with the shape: at {} the shape has {}, the stride {}",
                if path.is_empty() {
                    "the root".to_string()
                } else {
                    format!("mode {}", path_string(path))
                },
                kind(&s),
                kind(&d)
            )),
        }
    }
    let sn = Node::Tuple(shape.seq());
    let dn = Node::Tuple(stride.seq());
    go(sn, dn, &mut Vec::new()).unwrap_or_else(|| "stride is not congruent with the shape".into())
}
