//! One backward rule for every view.
//!
//! A view applies a layout function `f` to its source's placement layout (and may move the
//! offset: slicing, reversal). Applied to the compact layout `C` of the source's *shape*
//! (first-mode-fastest, offset 0, so `C(i) = i`), the same function yields `M = f(C)`: the
//! source ordinal that each view coordinate reads, plus the offset change `delta` measured
//! on `C`. The adjoint of reading `x[delta + M(i)]` is the scatter-add
//! `g[delta + M(i)] += c[i]`, which is every view's backward rule at once: slice and
//! as_strided scatter into the selected ordinals (zeros elsewhere); permute, reshape,
//! rearrange, squeeze, unsqueeze and reverse invert a bijection; broadcast_to and
//! broadcast_in_dim sum the contributions of every alias of a source coordinate.

use crate::autograd::node::{self, Cotangents, Rule, Step};
use smallvec::SmallVec;

use crate::dtype::zeroed_vec;
use crate::error::Result;
use crate::kernels::num::{Dense, Num, with_num};
use crate::kernels::scatter::{place, place_splat};
use crate::layout::Layout;
use crate::tensor::Tensor;

/// `g[delta + M(i)] += c[i]` into a target of `size` elements (`M`, `delta` in the
/// target's ordinals).
#[derive(Clone)]
pub(crate) struct OrdinalMap {
    map: Layout,
    delta: i64,
    size: usize,
    /// `M` visits the target ordinals `0, 1, …` in order: the cotangent passes unchanged.
    identity: bool,
}

impl OrdinalMap {
    fn new(map: Layout, delta: i64, size: usize) -> OrdinalMap {
        // Reshape, squeeze, unsqueeze and order-keeping rearrangements read ordinal i at i.
        let identity = delta == 0 && map.size() == size && {
            let f = map.filter();
            size == 1 || (f.size() == size && f.stride().leaves() == [1])
        };
        OrdinalMap {
            map,
            delta,
            size,
            identity,
        }
    }

    /// `M`: the target ordinal (less `delta`) each view coordinate reads.
    pub(crate) fn layout(&self) -> &Layout {
        &self.map
    }

    /// The ordinal offset `delta`.
    pub(crate) fn delta(&self) -> i64 {
        self.delta
    }

    /// The target's cotangent from the view's (a splat read through stride 0), written in
    /// one pass by the copy engine, or the scatter-add kernel where `M` aliases.
    pub(crate) fn scatter(&self, op: &'static str, cot: Dense) -> Result<Dense> {
        if self.identity && !matches!(cot, Dense::Splat(..)) {
            return Ok(cot);
        }
        fn go<T: Num>(op: &'static str, m: &OrdinalMap, cot: Dense) -> Result<Dense> {
            let (c, splat) =
                // unreachable from user input: the engine passes a view's cotangent in its source's dtype.
                T::undense_strided(&cot).expect("a view's cotangent has its source's dtype");
            let mut g = zeroed_vec(op, m.size)?;
            if splat {
                // A broadcast's stride-0 leaves are not walked: `c · n` once.
                place_splat(c[0], (&mut g, m.delta, &m.map), true);
                return Ok(T::dense(g));
            }
            let strides: SmallVec<[i64; 8]> =
                Layout::compact(m.map.shape()).stride().leaves().into();
            place((c, 0, &strides), (&mut g, m.delta, &m.map), true);
            Ok(T::dense(g))
        }
        with_num!(cot.dtype(), T => go::<T>(op, self, cot), _ => unreachable!("differentiable"))
    }
}

/// The backward of a view: its map onto its source, and — when its source is itself a
/// recorded view — its map onto the first tensor of that chain of views (the `base`), so
/// that backward can cross a whole chain of single-consumer views with one scatter.
pub(crate) struct ViewRule {
    pub(crate) direct: OrdinalMap,
    pub(crate) base: Option<(Tensor, OrdinalMap)>,
}

impl Rule for ViewRule {
    fn backward(&self, Step { op, cot, needs, .. }: Step<'_>) -> Result<Cotangents> {
        if !needs[0] {
            return Ok(smallvec::smallvec![None]);
        }
        Ok(smallvec::smallvec![Some(self.direct.scatter(op, cot)?)])
    }

    fn view(&self) -> Option<&ViewRule> {
        Some(self)
    }
}

/// Records `out`, a view of `src` made by `op`, when recording is on and `src` takes part in
/// autograd. `map` is the view's layout function with its offset change: applied to the
/// compact layout of the source's shape it gives the map onto the source's ordinals;
/// applied to the source's own map onto its base (when the source is a recorded view), the
/// map onto that base. Otherwise `out` is returned as it is, at the cost of one flag load
/// and one thread-local read.
#[inline]
pub(crate) fn record(
    src: &Tensor,
    out: Tensor,
    op: &'static str,
    map: impl Fn(&Layout) -> Result<(Layout, i64)>,
) -> Result<Tensor> {
    if !node::wants(&[src]) {
        return Ok(out);
    }
    record_node(src, out, op, map)
}

/// [`record`] once it is known to record: kept out of line, so that a view that does not
/// record (the common case) carries none of this code.
#[inline(never)]
fn record_node(
    src: &Tensor,
    out: Tensor,
    op: &'static str,
    map: impl Fn(&Layout) -> Result<(Layout, i64)>,
) -> Result<Tensor> {
    let (m, delta) = map(&Layout::compact(src.shape()))?;
    let direct = OrdinalMap::new(m, delta, src.size());
    let base = chain_base(src).and_then(|(base, onto)| {
        // The structural argument that makes `map` valid on C usually holds on `onto`
        // too, but not always (a reshape needs a regular step); then the chain restarts.
        let (m, delta) = map(&onto.map).ok()?;
        let size = base.size();
        Some((base, OrdinalMap::new(m, onto.delta + delta, size)))
    });
    Ok(node::attach(
        out,
        op,
        &[src],
        Box::new(ViewRule { direct, base }),
    ))
}

/// For a source produced by a recorded view: the first tensor of its chain of views and the
/// source's map onto it.
fn chain_base(src: &Tensor) -> Option<(Tensor, OrdinalMap)> {
    let node = src.inner.autograd.node.as_ref()?;
    let state = node.state();
    let saved = state.as_ref()?;
    let rule = saved.rule.view()?;
    let (base, onto) = match &rule.base {
        Some((base, onto)) => (base.clone(), onto),
        None => (saved.inputs[0].clone(), &rule.direct),
    };
    Some((base, onto.clone()))
}
