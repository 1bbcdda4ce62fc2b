//! The layout half of every tensor view: slicing, reshape, as_strided's affine
//! composition, broadcast_in_dim, squeeze/unsqueeze and reversal. Each is a pure function
//! on layouts; the tensor wrappers only rebuild and validate representations.

use crate::budget::{EXACT_STEPS, too_large};
use crate::error::{Error, Result};
use crate::layout::coalesce::coalesce_modes;
use crate::layout::core::Layout;
use crate::layout::dim::{Dim, clamp, normalise_dim};
use crate::layout::inline_vec::InlineVec;
use crate::layout::int_tuple::{Node, ProfileToken};
use crate::layout::key::Key;
use crate::layout::shape::{Shape, Stride};
use crate::layout::structure::{LayoutBuilder, mode_out_of_range};

/// What slicing a layout produces: the view layout (none when every key is an integer), the
/// change of offset, and whether the selection starts at the origin.
///
/// ```
/// use strideweave::{Key, Layout, Sliced};
/// let l: Layout = "(4,3):(1,4)".parse().unwrap();
/// let s: Sliced = l.slice(&[Key::slice(Some(1), None, None), 2.into()]).unwrap();
/// assert_eq!((s.layout.unwrap().to_string(), s.offset, s.at_origin), ("3:1".into(), 9, false));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sliced {
    /// The layout of the kept modes, or `None` when every key was an integer.
    pub layout: Option<Layout>,
    /// The index of the first selected coordinate (added to a tensor's offset).
    pub offset: i64,
    /// Whether every normalised slice start and every integer is zero.
    pub at_origin: bool,
}

/// Python's slice normalisation for a positive step: `(start, stop, step)` in `[0, n]`.
#[inline(always)]
fn normalise(
    op: &'static str,
    mode: usize,
    n: i64,
    start: Option<i64>,
    stop: Option<i64>,
    step: Option<i64>,
) -> Result<(i64, i64, i64)> {
    let step = step.unwrap_or(1);
    if step <= 0 {
        return Err(step_error(op, mode, step));
    }
    let clamp = |v: i64| if v < 0 { (v + n).max(0) } else { v.min(n) };
    let start = start.map_or(0, clamp);
    let stop = stop.map_or(n, clamp);
    Ok((start, stop, step))
}

#[cold]
#[inline(never)]
fn step_error(op: &'static str, mode: usize, step: i64) -> Error {
    Error::InvalidRange {
        op,
        detail: format!(
            "slice step {step} on mode {mode} must be positive (reverse a mode with `reverse`)"
        ),
    }
}

impl Layout {
    /// Slices the top-level modes: one key per mode; an integer removes its mode
    /// and adds its index to the offset; a slice keeps its mode with extent
    /// `(stop - start) / step` and stride `stride × step`. A nested mode accepts only a
    /// whole slice or one integer over its first-mode-fastest coordinates.
    ///
    /// ```
    /// use strideweave::{Key, Layout};
    /// let l: Layout = "(5,10):(1,5)".parse().unwrap();
    /// let s = l.slice(&[2.into(), Key::slice(Some(1), Some(9), Some(2))]).unwrap();
    /// assert_eq!(s.layout.unwrap().to_string(), "4:10");
    /// assert_eq!(s.offset, 7);
    /// let err = l.slice(&[Key::all(), Key::slice(Some(1), Some(8), Some(3))]).unwrap_err();
    /// assert_eq!(err.to_string(), "slice: slice 1:8:3 on mode 1 (extent 10): the interval width 7 is not a multiple of the step 3");
    /// ```
    pub fn slice(&self, keys: &[Key]) -> Result<Sliced> {
        self.slice_as("slice", keys)
    }

    /// [`slice`](Self::slice) reporting errors as `op`, the operation called.
    pub(crate) fn slice_as(&self, op: &'static str, keys: &[Key]) -> Result<Sliced> {
        self.check_key_count(op, keys)?;
        if self.shape.0.toks.len() == self.shape.0.vals.len() {
            let mut out = Layout::unit();
            let (offset, at_origin, any_slice) = self.slice_flat_into(op, keys, &mut out)?;
            return Ok(Sliced {
                layout: any_slice.then_some(out),
                offset,
                at_origin,
            });
        }
        self.slice_nested(op, keys)
    }

    /// [`slice_as`](Self::slice_as) writing the view layout over `out` in place (`():()`
    /// when every key is an integer); returns the offset change and whether the selection
    /// starts at the origin. On error `out` is some valid layout.
    pub(crate) fn slice_into(
        &self,
        op: &'static str,
        keys: &[Key],
        out: &mut Layout,
    ) -> Result<(i64, bool)> {
        let leaves = self.shape.0.vals.len();
        if self.shape.0.toks.len() == leaves && keys.len() == leaves {
            // Flat, one key per leaf (a flat layout's rank is its leaf count).
            let (offset, at_origin, _) = self.slice_flat_into(op, keys, out)?;
            return Ok((offset, at_origin));
        }
        self.check_key_count(op, keys)?;
        let s = self.slice_nested(op, keys)?;
        *out = s.layout.unwrap_or_else(Layout::unit);
        Ok((s.offset, s.at_origin))
    }

    /// One key per top-level mode.
    fn check_key_count(&self, op: &'static str, keys: &[Key]) -> Result<()> {
        let rank = self.rank();
        if keys.len() != rank {
            return Err(Error::RankMismatch {
                op,
                what: "keys (one per top-level mode)",
                expected: rank,
                found: keys.len(),
            });
        }
        Ok(())
    }

    /// `slice` for a layout with a nested top-level mode: a walk over the top-level nodes.
    fn slice_nested(&self, op: &'static str, keys: &[Key]) -> Result<Sliced> {
        let mut offset = 0i64;
        let mut at_origin = true;
        let mut any_slice = false;
        let mut kept = 0usize;
        let mut last_kept_leaf = false;
        let mut b = LayoutBuilder::default();
        for (i, (key, (s, d))) in keys.iter().zip(self.top()).enumerate() {
            let size: i64 = s.leaves().iter().product();
            match *key {
                Key::Int(c) => {
                    check_int_key(op, i, c, size)?;
                    offset += node_eval(s, d, c);
                    at_origin &= c == 0;
                }
                Key::Slice { start, stop, step } => {
                    any_slice = true;
                    let (a, z, st) = normalise(op, i, size, start, stop, step)?;
                    let len = interval_len(op, key, i, size, (a, z, st))?;
                    match (s, d) {
                        (Node::Leaf(_), Node::Leaf(d)) => {
                            b.leaf(len, d * st);
                            offset += a * d;
                            last_kept_leaf = true;
                        }
                        (s, d) => {
                            if (a, z, st) != (0, size, 1) {
                                return Err(Error::InvalidRange {
                                    op,
                                    detail: format!(
                                        "mode {i} is nested (shape {}); it accepts only a whole slice or one integer, not {key} (which normalises to {a}:{z}:{st})",
                                        s.to_int_tuple()
                                    ),
                                });
                            }
                            b.node(s, d);
                            last_kept_leaf = false;
                        }
                    }
                    at_origin &= a == 0;
                    kept += 1;
                }
            }
        }
        let layout = if !any_slice {
            None
        } else if kept == 1 && last_kept_leaf {
            Some(b.single(op)?)
        } else {
            Some(b.tuple(op)?)
        };
        Ok(Sliced {
            layout,
            offset,
            at_origin,
        })
    }

    /// `slice` for a layout whose top-level modes are all leaves: one pass, no tree walk,
    /// the view layout written over `out` (`():()` when every key is an integer). Returns
    /// the offset change, whether the selection starts at the origin and whether a key is a
    /// slice; `out` is unchanged on error.
    fn slice_flat_into(
        &self,
        op: &'static str,
        keys: &[Key],
        out: &mut Layout,
    ) -> Result<(i64, bool, bool)> {
        let (sv, dv): (&[i64], &[i64]) = (&self.shape.0.vals, &self.stride.0.vals);
        // The kept modes, at most one per key: in fixed arrays while they fit inline.
        const INLINE: usize = 8;
        if sv.len() > INLINE {
            let s = self.slice_nested(op, keys)?;
            *out = s.layout.clone().unwrap_or_else(Layout::unit);
            return Ok((s.offset, s.at_origin, s.layout.is_some()));
        }
        let (mut shape, mut stride, mut n) = ([0i64; INLINE], [0i64; INLINE], 0usize);
        let (mut offset, mut at_origin, mut any_slice) = (0i64, true, false);
        for (i, (key, (&size, &d))) in keys.iter().zip(sv.iter().zip(dv.iter())).enumerate() {
            match *key {
                Key::Int(c) => {
                    check_int_key(op, i, c, size)?;
                    offset += c * d;
                    at_origin &= c == 0;
                }
                Key::Slice { start, stop, step } => {
                    any_slice = true;
                    let (a, z, st) = normalise(op, i, size, start, stop, step)?;
                    shape[n] = interval_len(op, key, i, size, (a, z, st))?;
                    stride[n] = d * st;
                    n += 1;
                    offset += a * d;
                    at_origin &= a == 0;
                }
            }
        }
        // Every selected index was reachable before: the reach cannot grow.
        out.set_flat_inline((shape, stride), n);
        Ok((offset, at_origin, any_slice))
    }

    /// The same first-mode-fastest sequence regrouped as `target`, without a copy: requires
    /// `L(i) = b·i` for some `b ≥ 0`; the result gives `target`'s leaves compact strides
    /// scaled by `b`.
    ///
    /// ```
    /// let l: strideweave::Layout = "(2,3):(2,4)".parse().unwrap();
    /// let r = l.reshape(&"(3,(2))".parse().unwrap()).unwrap();
    /// assert_eq!(r.to_string(), "(3,(2)):(2,(6))");
    /// assert!(l.reshape(&"7".parse().unwrap()).is_err());
    /// let t: strideweave::Layout = "(2,3):(3,1)".parse().unwrap();
    /// assert!(t.reshape(&"6".parse().unwrap()).unwrap_err().to_string().contains("copy"));
    /// ```
    pub fn reshape(&self, target: &Shape) -> Result<Layout> {
        let mut out = Layout::unit();
        self.reshape_into(target, &mut out)?;
        Ok(out)
    }

    /// [`reshape`](Self::reshape) writing the result over `out` in place (`out` is left
    /// unchanged on error).
    pub(crate) fn reshape_into(&self, target: &Shape, out: &mut Layout) -> Result<()> {
        const OP: &str = "reshape";
        if target.size() != self.size() {
            return Err(Error::ShapeMismatch {
                op: OP,
                expected: format!("a shape of size {}", self.size()),
                found: target.to_string(),
                detail: format!(
                    "the size must stay the same: {} has size {}, the target {}",
                    self.shape,
                    self.size(),
                    target.size()
                ),
            });
        }
        // L(i) = b·i exactly when, skipping extent-1 leaves, each stride is the previous
        // stride times the previous extent, starting from b ≥ 0.
        let b = self.leaves().find(|(s, _)| **s != 1).map_or(0, |(_, &d)| d);
        let mut expect = b;
        let regular = b >= 0
            && self.leaves().filter(|(s, _)| **s != 1).all(|(&s, &d)| {
                let ok = d == expect;
                expect = expect.saturating_mul(s);
                ok
            });
        if !regular {
            return Err(Error::NotRepresentable {
                op: OP,
                reason: format!(
                    "{self} does not visit its elements at one regular step (it coalesces to {}), so a reshape to {target} would need a copy",
                    self.coalesce()
                ),
            });
        }
        let tv: &[i64] = &target.0.vals;
        let mut acc = b;
        // The reach is the source's: (size - 1)·b.
        out.set_valid(
            &target.0.toks,
            target.0.int_root,
            tv.len(),
            |j| tv[j],
            |j| {
                let d = acc;
                acc = acc.saturating_mul(tv[j]);
                d
            },
        );
        Ok(())
    }

    /// `self ∘ B` with exactly B's shape (representable exactly when the
    /// composed index function is affine on every leaf of B's shape): the placement of
    /// `as_strided`.
    ///
    /// The composed function `q ↦ self(B(q))` must be a layout over B's shape, i.e. equal to
    /// `Σ q_k · self(d_k)` over B's leaves. For an injective B this is proven algebraically
    /// when the composition `self ∘ B` exists and each leaf's part coalesces to one mode;
    /// otherwise it is checked exactly over B's domain.
    ///
    /// ```
    /// let l: strideweave::Layout = "(5,4):(4,1)".parse().unwrap();
    /// let r = l.compose_affine(&"(2,2):(1,2)".parse().unwrap()).unwrap();
    /// assert_eq!(r.to_string(), "(2,2):(4,8)");
    /// // Ordinals 0..6 cross a mode boundary of (5,4):(4,1): not a layout.
    /// assert!(l.compose_affine(&"6:1".parse().unwrap()).is_err());
    /// // Each leaf is affine, but their sum is not: L(3) = 10 ≠ L(1) + L(2).
    /// let l: strideweave::Layout = "(3,2):(1,10)".parse().unwrap();
    /// assert!(l.compose_affine(&"(2,2):(1,2)".parse().unwrap()).is_err());
    /// ```
    pub fn compose_affine(&self, b: &Layout) -> Result<Layout> {
        self.compose_affine_as("compose_affine", b)
    }

    /// [`compose_affine`](Self::compose_affine) reporting errors as `op`, the operation called.
    pub(crate) fn compose_affine_as(&self, op: &'static str, b: &Layout) -> Result<Layout> {
        let (lo, hi) = b.reach();
        if lo < 0 || hi >= self.size() as i64 {
            return Err(Error::ViewOutOfBounds {
                op,
                detail: format!(
                    "selector {b} reaches ordinals {lo}..={hi}, outside the {} of {self}",
                    self.size()
                ),
            });
        }
        // The only candidate: each leaf steps by the image of its own stride.
        let stride = b
            .leaves()
            .map(|(&s, &d)| if s == 1 { 0 } else { self.eval(d) })
            .collect();
        let candidate =
            Layout::checked(op, b.shape.clone(), Stride(b.shape.0.with_leaves(stride)))?;
        let mismatch = |q: i64| {
            let (want, got) = (self.eval(b.eval(q)), candidate.eval(q));
            (want != got).then(|| {
                Error::not_representable(
                    op,
                    format!(
                        "{self} read through the selector {b} is not a layout: at selector coordinate {} it reads index {want}, but a layout with strides {} would read {got}",
                        b.shape
                            .coordinate(q as usize)
                            .map(|c| c.to_string())
                            .unwrap_or_default(),
                        candidate.stride
                    ),
                )
            })
        };
        // Without a walk: for a B injective once its stride-0 leaves are ignored (they add 0
        // on both sides) whose composition exists, each leaf's part of `self ∘ B` is that
        // leaf's restriction, and it is affine exactly when it coalesces to one mode
        // `s₁:d₁`; otherwise the leaf's coordinate `s₁` reads the next mode's stride instead
        // of `s₁·d₁` (checked by evaluating it). Whether the leaves' images add without
        // carrying across the modes of `self` is proven only for a linear `self` (one
        // coalesced mode); otherwise an affine answer is verified by the walk below.
        if b.injective_ignoring_broadcast_in(op).unwrap_or(false)
            && let Ok(r) = self.compose(b)
        {
            match first_non_affine_leaf(b, &r) {
                None if coalesce_modes(self.leaves().map(|(&s, &d)| (s, d)), true).len() <= 1 => {
                    return Ok(candidate);
                }
                None => {}
                Some(q) => {
                    if let Some(e) = mismatch(q) {
                        return Err(e);
                    }
                }
            }
        }
        let size = b.size() as u128;
        if size > EXACT_STEPS {
            return Err(too_large(
                op,
                format_args!("whether {self} read through the selector {b} is a layout"),
                size,
            ));
        }
        match (0..b.size() as i64).find_map(mismatch) {
            Some(e) => Err(e),
            None => Ok(candidate),
        }
    }

    /// Inserts each target mode not named in `dims` as a `1:0` leaf, then broadcasts to
    /// `target`. `dims[i]` is the target mode holding source mode `i`, strictly
    /// increasing.
    ///
    /// ```
    /// let l: strideweave::Layout = "2:1".parse().unwrap();
    /// let b = l.broadcast_in_dim(&"(3,2)".parse().unwrap(), &[1]).unwrap();
    /// assert_eq!(b.to_string(), "(3,2):(0,1)");
    /// ```
    pub fn broadcast_in_dim(&self, target: &Shape, dims: &[usize]) -> Result<Layout> {
        self.broadcast_in_dim_as("broadcast_in_dim", target, dims)
    }

    /// [`broadcast_in_dim`](Self::broadcast_in_dim) reporting errors as `op`, the operation
    /// called.
    pub(crate) fn broadcast_in_dim_as(
        &self,
        op: &'static str,
        target: &Shape,
        dims: &[usize],
    ) -> Result<Layout> {
        let (rank, trank) = (self.rank(), target.rank());
        if dims.len() != rank {
            return Err(Error::RankMismatch {
                op,
                what: "broadcast dimensions (one per source top-level mode)",
                expected: rank,
                found: dims.len(),
            });
        }
        for (i, &d) in dims.iter().enumerate() {
            if d >= trank {
                return Err(mode_out_of_range(op, d, trank));
            }
            if i > 0 && dims[i - 1] >= d {
                return Err(Error::InvalidAxes {
                    op,
                    detail: format!("broadcast dimensions {dims:?} are not strictly increasing"),
                });
            }
        }
        let mut b = LayoutBuilder::default();
        let mut source = self.top();
        for j in 0..trank {
            if dims.contains(&j) {
                let (s, d) = source
                    .next()
                    // unreachable from user input: `dims` was checked to name exactly one target mode per source mode.
                    .expect("one source mode per named target mode");
                b.node(s, d);
            } else {
                b.leaf(1, 0);
            }
        }
        b.tuple(op)?.broadcast_to_as(op, target)
    }

    /// Right-aligned broadcasting (numpy's rule, asked for by name: nothing broadcasts
    /// implicitly): missing leading
    /// modes behave as extent 1; `broadcast_in_dim` with the trailing target modes.
    ///
    /// ```
    /// let l: strideweave::Layout = "(1,3):(0,1)".parse().unwrap();
    /// assert_eq!(l.broadcast_right(&"(4,2,3)".parse().unwrap()).unwrap().to_string(), "(4,2,3):(0,0,1)");
    /// ```
    pub fn broadcast_right(&self, target: &Shape) -> Result<Layout> {
        const OP: &str = "broadcast_right";
        let (rank, trank) = (self.rank(), target.rank());
        if rank > trank {
            return Err(Error::InvalidBroadcast {
                op: OP,
                from: self.shape.to_string(),
                to: target.to_string(),
                detail: format!(
                    "the source has {rank} top-level modes, more than the target's {trank}"
                ),
            });
        }
        let dims: smallvec::SmallVec<[usize; 8]> = (trank - rank..trank).collect();
        self.broadcast_in_dim_as(OP, target, &dims)
    }

    /// Inserts a `1:0` top-level mode at position `dim` (`0..=rank`; a negative `dim` counts
    /// back from `rank + 1`, so `-1` appends): the new mode is mode `dim` of the result.
    ///
    /// ```
    /// let l: strideweave::Layout = "(2,3):(1,2)".parse().unwrap();
    /// assert_eq!(l.unsqueeze(1).unwrap().to_string(), "(2,1,3):(1,0,2)");
    /// assert_eq!(l.unsqueeze(2).unwrap().to_string(), "(2,3,1):(1,2,0)");
    /// assert_eq!(l.unsqueeze(-1).unwrap().to_string(), "(2,3,1):(1,2,0)");
    /// assert_eq!(
    ///     l.unsqueeze(3).unwrap_err().to_string(),
    ///     "unsqueeze: dim 3 is outside the insertion positions of 2 top-level modes, \
    ///      where -3..=-1 count back from the end (valid: 0..3)"
    /// );
    /// ```
    pub fn unsqueeze(&self, dim: impl Dim) -> Result<Layout> {
        let mut out = Layout::unit();
        self.unsqueeze_into(dim, &mut out)?;
        Ok(out)
    }

    /// [`unsqueeze`](Self::unsqueeze) writing the result over `out` in place (`out` is left
    /// unchanged on error).
    pub(crate) fn unsqueeze_into(&self, dim: impl Dim, out: &mut Layout) -> Result<()> {
        const OP: &str = "unsqueeze";
        let n = self.rank();
        let Some(at) = normalise_dim(dim, n + 1) else {
            return Err(Error::OutOfDomain {
                op: OP,
                what: "dim",
                value: clamp(dim),
                place: format!(
                    "the insertion positions of {n} top-level modes, where -{}..=-1 count back from the end",
                    n + 1
                ),
                bound: n as i64 + 1,
            });
        };
        let (t, sv, dv): (&[ProfileToken], &[i64], &[i64]) =
            (&self.shape.0.toks, &self.shape.0.vals, &self.stride.0.vals);
        if t.len() == sv.len() {
            // Flat: mode i is token i and leaf i.
            out.set_flat_valid(sv.len() + 1, false, splice(sv, at, 1), splice(dv, at, 0));
            return Ok(());
        }
        let (ti, vi) = match self.shape.0.top_spans().get(at) {
            Some(sp) => (sp.toks.start, sp.vals.start),
            None => (t.len(), sv.len()),
        };
        *out = Layout::from_valid(
            InlineVec::spliced(t, ti, ProfileToken::Leaf),
            InlineVec::spliced(sv, vi, 1),
            InlineVec::spliced(dv, vi, 0),
            false,
        );
        Ok(())
    }

    /// Removes top-level mode `dim` (`0..rank`; a negative `dim` counts back from `rank`),
    /// which must be a leaf of extent 1.
    ///
    /// ```
    /// let l: strideweave::Layout = "(2,1,3):(1,0,2)".parse().unwrap();
    /// assert_eq!(l.squeeze(1).unwrap().to_string(), "(2,3):(1,2)");
    /// assert_eq!(l.squeeze(-2).unwrap().to_string(), "(2,3):(1,2)");
    /// assert!(l.squeeze(0).unwrap_err().to_string().contains("extent 2"));
    /// ```
    pub fn squeeze(&self, dim: impl Dim) -> Result<Layout> {
        const OP: &str = "squeeze";
        let n = self.rank();
        let Some(at) = normalise_dim(dim, n) else {
            return Err(Error::OutOfDomain {
                op: OP,
                what: "dim",
                value: clamp(dim),
                place: format!("the {n} top-level modes, where -{n}..=-1 count back from the end"),
                bound: n as i64,
            });
        };
        let spans = self.shape.0.top_spans();
        let sp = &spans[at];
        let (t, sv, dv) = (&self.shape.0.toks, &self.shape.0.vals, &self.stride.0.vals);
        if sp.toks.len() != 1 {
            return Err(Error::InvalidAxes {
                op: OP,
                detail: format!(
                    "mode {at} is nested (shape {}); only an extent-1 leaf can be removed",
                    self.shape
                        .0
                        .get(at)
                        .map(|m| m.to_string())
                        .unwrap_or_default()
                ),
            });
        }
        let e = sv[sp.vals.start];
        if e != 1 {
            return Err(Error::InvalidAxes {
                op: OP,
                detail: format!("mode {at} has extent {e}; only an extent-1 leaf can be removed"),
            });
        }
        Ok(Layout::from_valid(
            InlineVec::cut(t, sp.toks.start),
            InlineVec::cut(sv, sp.vals.start),
            InlineVec::cut(dv, sp.vals.start),
            false,
        ))
    }

    /// Reverses the coordinates of top-level mode `mode` (slice steps stay positive; this is
    /// the one way to reverse): every leaf in it
    /// gets the negated stride, and the returned offset change moves the origin to the old
    /// last element of the mode.
    ///
    /// ```
    /// let l: strideweave::Layout = "(3,4):(1,3)".parse().unwrap();
    /// let (r, offset) = l.reverse(1).unwrap();
    /// assert_eq!((r.to_string(), offset), ("(3,4):(1,-3)".to_string(), 9));
    /// ```
    pub fn reverse(&self, mode: usize) -> Result<(Layout, i64)> {
        const OP: &str = "reverse";
        let rank = self.rank();
        let spans = self.shape.0.top_spans();
        let span = spans
            .get(mode)
            .ok_or_else(|| mode_out_of_range(OP, mode, rank))?;
        let mut stride = self.stride.0.vals.clone();
        let mut offset = 0i64;
        for k in span.vals.clone() {
            let (s, d) = (self.shape.0.vals[k], stride[k]);
            offset += (s - 1) * d;
            stride[k] = d
                .checked_neg()
                .ok_or_else(|| Error::overflow(OP, "a negated stride"))?;
        }
        let l = Layout::checked(
            OP,
            self.shape.clone(),
            Stride(self.shape.0.with_leaves(stride)),
        )?;
        Ok((l, offset))
    }
}

/// `L(c)` for an ordinal `c` of a sub-layout given by nodes.
fn node_eval(s: Node<'_>, d: Node<'_>, mut c: i64) -> i64 {
    let mut acc = 0;
    for (&e, &st) in s.leaves().iter().zip(d.leaves()) {
        acc += (c % e) * st;
        c /= e;
    }
    acc
}

/// An integer key must select a coordinate of its mode.
#[inline(always)]
fn check_int_key(op: &'static str, mode: usize, c: i64, size: i64) -> Result<()> {
    if (0..size).contains(&c) {
        return Ok(());
    }
    Err(int_key_error(op, mode, c, size))
}

#[cold]
#[inline(never)]
fn int_key_error(op: &'static str, mode: usize, c: i64, size: i64) -> Error {
    Error::OutOfDomain {
        op,
        what: "integer key",
        value: c,
        place: format!("mode {mode} of extent {size}"),
        bound: size,
    }
}

/// The number of indices a normalised slice `(start, stop, step)` selects; the slice must be
/// non-empty and its width a multiple of its step.
#[inline(always)]
fn interval_len(
    op: &'static str,
    key: &Key,
    mode: usize,
    size: i64,
    (a, z, st): (i64, i64, i64),
) -> Result<i64> {
    let w = z - a;
    if w > 0 {
        if st & (st - 1) == 0 {
            // A power-of-two step (1 included): a mask and a shift, no division.
            if w & (st - 1) == 0 {
                return Ok(w >> st.trailing_zeros());
            }
        } else if w % st == 0 {
            return Ok(w / st);
        }
    }
    Err(interval_error(op, key, mode, size, (a, z, st)))
}

/// Why [`interval_len`] rejects a slice.
#[cold]
#[inline(never)]
fn interval_error(
    op: &'static str,
    key: &Key,
    mode: usize,
    size: i64,
    norm: (i64, i64, i64),
) -> Error {
    let (a, z, st) = norm;
    let detail = if z <= a {
        format!("slice {key} on mode {mode} (extent {size}) is empty: it normalises to {a}..{z}")
    } else {
        format!(
            "slice {key} on mode {mode} (extent {size}): the interval width {} is not a multiple of the step {st}",
            z - a
        )
    };
    Error::InvalidRange { op, detail }
}

/// `xs` with `x` inserted before position `i`, as a function of the position (for
/// [`Layout::set_flat_valid`]).
#[inline(always)]
fn splice(xs: &[i64], i: usize, x: i64) -> impl Fn(usize) -> i64 + '_ {
    move |j| match j.cmp(&i) {
        std::cmp::Ordering::Less => xs[j],
        std::cmp::Ordering::Equal => x,
        std::cmp::Ordering::Greater => xs[j - 1],
    }
}

/// The ordinal of the first coordinate where `r` (the composition `A ∘ b`, with b's hierarchy)
/// stops being affine on a leaf of `b`: coordinate `s₁` of the first leaf whose part of `r`
/// coalesces to more than one mode `s₁:d₁`, the other leaves at 0. `None` when every leaf's
/// part is one mode.
fn first_non_affine_leaf(b: &Layout, r: &Layout) -> Option<i64> {
    fn walk(bs: Node<'_>, rs: Node<'_>, rd: Node<'_>, ordinal_stride: &mut i64) -> Option<i64> {
        match (bs, rs, rd) {
            (Node::Leaf(s), rs, rd) => {
                let modes = coalesce_modes(
                    rs.leaves().iter().copied().zip(rd.leaves().iter().copied()),
                    false,
                );
                let p = *ordinal_stride;
                *ordinal_stride = ordinal_stride.saturating_mul(s);
                (modes.len() > 1).then(|| modes[0].0.saturating_mul(p))
            }
            (Node::Tuple(bt), Node::Tuple(rt), Node::Tuple(dt)) => bt
                .zip(rt.zip(dt))
                .find_map(|(b, (r, d))| walk(b, r, d, ordinal_stride)),
            _ => Some(0),
        }
    }
    walk(
        b.shape.0.node(),
        r.shape.0.node(),
        r.stride.0.node(),
        &mut 1,
    )
}
