//! What the engine writes: the result's shape and its plan, into slices the caller provides,
//! and the scratch space it works in. The static path passes fixed arrays (a `ShapeCode`'s
//! capacity); the run-time path passes slices sized from its input, so nothing bounds it.
//! Both keep what it wrote as a [`Plan`].

use smallvec::SmallVec;

use super::code::Op;
use super::shape::token;
use crate::layout::{Layout, ProfileToken, Shape};

/// Results of up to this many leaves and tokens live on the stack at run time; larger ones on
/// the heap, without a limit.
pub(crate) const INLINE: usize = 16;

/// A plan's marker for a result leaf without a source (an inserted `1` or a new `repeat`
/// mode): its stride is 0.
pub const NO_SOURCE: usize = usize::MAX;

/// The result of a rearrangement, written by the engine: its shape (profile tokens and
/// extents) and its plan, where result leaf `k` takes `multiplier[k]` times the stride of
/// source leaf `source[k]` ([`NO_SOURCE`]: stride 0). The plan does not depend on strides,
/// so one plan serves every layout of the source's shape.
///
/// `toks` needs room for the source's tokens plus one per right-side token, the other slices
/// for the source's leaves plus one per right-side token.
#[derive(Debug)]
pub struct Out<'o> {
    /// The result's profile tokens.
    pub toks: &'o mut [u8],
    /// How many of `toks` are written.
    pub ntoks: usize,
    /// The result's extents.
    pub extents: &'o mut [i64],
    /// The source leaf of each result leaf.
    pub source: &'o mut [usize],
    /// The stride multiplier of each result leaf.
    pub multiplier: &'o mut [i64],
    /// How many leaves are written.
    pub nleaves: usize,
    /// How many of the leaves belong to the result: all of them for `rearrange` and
    /// `repeat`; for `reduce`, the leaves after these (each one top-level `LEAF` token at
    /// the end of `toks`) are the reduced leaves of the omitted symbols, in left-side order.
    pub nkept: usize,
}

/// The fast path's scratch space, zeroed: per symbol of the pattern (`given`, `sides`,
/// `kind`, `t0`, `t1`, `leaf0`, `extent`, `mult`) and per nesting level of the source (`cur`,
/// `end`, `leaf`: the source's depth plus one).
#[derive(Debug)]
pub struct Scratch<'s> {
    /// Keyword extent by symbol (0: none).
    pub given: &'s mut [i64],
    /// Which sides a symbol is on ([`ON_LEFT`], [`ON_RIGHT`]).
    pub sides: &'s mut [u8],
    /// What a symbol names.
    pub kind: &'s mut [u8],
    /// A named source node's first token.
    pub t0: &'s mut [usize],
    /// A named source node's end token.
    pub t1: &'s mut [usize],
    /// A named node's first leaf, or a split factor's leaf.
    pub leaf0: &'s mut [usize],
    /// A split factor's or a new symbol's extent.
    pub extent: &'s mut [i64],
    /// A split factor's stride multiplier.
    pub mult: &'s mut [i64],
    /// Per level: the next source token.
    pub cur: &'s mut [usize],
    /// Per level: the end token of the node being matched.
    pub end: &'s mut [usize],
    /// Per level: the next source leaf.
    pub leaf: &'s mut [usize],
}

/// [`Scratch::sides`]: the symbol is on the left.
pub const ON_LEFT: u8 = 1;
/// [`Scratch::sides`]: the symbol is on the right.
pub const ON_RIGHT: u8 = 2;

/// A compiled rearrangement of one source shape, as the engine wrote it: the
/// result's shape (profile tokens and extents) and, per result leaf, the source leaf whose
/// stride it scales ([`NO_SOURCE`]: stride 0) and the factor. It does not depend on strides,
/// so it applies alike to the source's layout and to the compact layout of its shape. One
/// type for both front ends, generic over its storage: fixed arrays of a `ShapeCode`'s
/// capacity on the static path (const evaluation cannot allocate, and the compiler keeps the
/// plan as a constant), `SmallVec`s at run time (the default: no limit).
///
/// ```
/// use strideweave::{StaticTensor, rearrange, shape_t};
/// // `rearrange!` on a static tensor applies the plan the compiler computed.
/// let t = StaticTensor::<f32, shape_t!(2, 3)>::arange();
/// assert_eq!(rearrange!(&t, "a b -> b a").as_dynamic().layout().to_string(), "(3,2):(2,1)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Plan<
    T = SmallVec<[u8; INLINE]>,
    X = SmallVec<[i64; INLINE]>,
    I = SmallVec<[usize; INLINE]>,
> {
    /// The result's profile tokens (the first `ntoks`).
    pub(crate) toks: T,
    pub(crate) ntoks: usize,
    /// The result's extents (the first `nleaves`).
    pub(crate) extents: X,
    /// The source leaf of each result leaf.
    pub(crate) source: I,
    /// The stride multiplier of each result leaf.
    pub(crate) multiplier: X,
    pub(crate) nleaves: usize,
    /// The leaves of the result: for `reduce`, the leaves after them are the reduced ones
    /// (one top-level token each, at the end of the profile); all of them for the other rules.
    pub(crate) nkept: usize,
    /// The operation, named in the view's errors.
    pub(crate) op: Op,
}

impl<T: AsRef<[u8]>, X: AsRef<[i64]>, I: AsRef<[usize]>> Plan<T, X, I> {
    /// The view of `layout` (of the shape the plan was compiled on). A stride product that
    /// overflows can only belong to an extent-one leaf after a split, whose stride is
    /// immaterial (any value gives the same index): it is 0.
    pub(crate) fn apply(&self, layout: &Layout) -> Layout {
        let stride = layout.stride().leaves();
        let n = self.nleaves;
        let strides: SmallVec<[i64; 2 * INLINE]> = (self.source.as_ref()[..n].iter())
            .zip(&self.multiplier.as_ref()[..n])
            .map(|(&s, &m)| match s {
                NO_SOURCE => 0,
                s => stride[s].checked_mul(m).unwrap_or(0),
            })
            .collect();
        let profile = self.profile(self.ntoks);
        Layout::from_valid(
            &profile[..],
            &self.extents.as_ref()[..n],
            &strides[..],
            false,
        )
    }

    /// [`apply`](Plan::apply) writing the view over `out` in place (the handle's
    /// allocation: nothing built on the stack and moved).
    pub(crate) fn apply_into(&self, layout: &Layout, out: &mut Layout) {
        let stride = layout.stride().leaves();
        let (toks, extents) = (&self.toks.as_ref()[..self.ntoks], self.extents.as_ref());
        let (source, multiplier) = (self.source.as_ref(), self.multiplier.as_ref());
        let n = self.nleaves;
        if self.ntoks == n && n <= 8 {
            // A flat result (one token per leaf: every token a leaf) of at most eight
            // leaves, the common case: its leaves as two fixed arrays, written in one block
            // each, as the flat views write theirs.
            let (mut e, mut d) = ([0i64; 8], [0i64; 8]);
            for k in 0..n {
                e[k] = extents[k];
                d[k] = match source[k] {
                    NO_SOURCE => 0,
                    s => stride[s].checked_mul(multiplier[k]).unwrap_or(0),
                };
            }
            out.set_flat_inline_root((e, d), n, false);
            return;
        }
        out.set_valid_with(
            self.ntoks,
            |j| token(toks[j]),
            self.nleaves,
            |k| extents[k],
            |k| match source[k] {
                NO_SOURCE => 0,
                s => stride[s].checked_mul(multiplier[k]).unwrap_or(0),
            },
        );
    }

    /// The first `n` profile tokens.
    pub(super) fn profile(&self, n: usize) -> SmallVec<[ProfileToken; 4 * INLINE]> {
        self.toks.as_ref()[..n].iter().map(|&t| token(t)).collect()
    }

    /// The result's shape of a `reduce` plan: the kept leaves (the whole view for the other
    /// rules).
    pub(crate) fn kept_shape(&self) -> Shape {
        let reduced = self.nleaves - self.nkept;
        let profile = self.profile(self.ntoks - reduced);
        Shape::from_valid(&profile[..], &self.extents.as_ref()[..self.nkept], false)
    }

    /// This plan, compiled on a static shape whose leaves `planned` hold 0 where an extent
    /// is known only at run time, placed on a source of leaf extents `actual`: each such
    /// leaf's factors must multiply to its extent (one factor without a value takes the
    /// quotient, which must be whole), and the multipliers after that factor (stored as
    /// `-m`) take it. `None` when a check fails or the plan cannot say (a nested node under a
    /// keyword): the engine then runs on the actual shape, for the message or the plan.
    pub(crate) fn with_runtime_extents(&self, planned: &[i64], actual: &[i64]) -> Option<Plan> {
        let mut plan = self.to_run_time();
        let n = plan.nleaves;
        let mut inferred: SmallVec<[i64; INLINE]> = SmallVec::from_elem(0, planned.len());
        for (l, (&p, &e)) in planned.iter().zip(actual).enumerate() {
            if p != 0 {
                continue;
            }
            let (mut known, mut open) = (1i64, None);
            for k in (0..n).filter(|&k| plan.source[k] == l) {
                match plan.extents[k] {
                    0 if open.is_none() => open = Some(k),
                    0 => return None,
                    x => known = known.checked_mul(x)?,
                }
            }
            match open {
                None if known != e => return None,
                None => {}
                Some(_) if e % known != 0 => return None,
                Some(k) => {
                    plan.extents[k] = e / known;
                    inferred[l] = e / known;
                }
            }
        }
        for k in 0..n {
            let (s, m) = (plan.source[k], plan.multiplier[k]);
            if s == NO_SOURCE || m > 0 {
                continue;
            }
            if m == 0 || inferred[s] == 0 {
                return None;
            }
            plan.multiplier[k] = m.checked_neg()?.checked_mul(inferred[s])?;
        }
        Some(plan)
    }

    /// The plan in run-time storage.
    pub(crate) fn to_run_time(&self) -> Plan {
        let (nt, nl) = (self.ntoks, self.nleaves);
        Plan {
            toks: self.toks.as_ref()[..nt].into(),
            ntoks: nt,
            extents: self.extents.as_ref()[..nl].into(),
            source: self.source.as_ref()[..nl].into(),
            multiplier: self.multiplier.as_ref()[..nl].into(),
            nleaves: nl,
            nkept: self.nkept,
            op: self.op,
        }
    }
}
