//! One backward rule for every view.
//!
//! A view applies a layout function `f` to its source's placement layout (and may move the
//! offset: slicing, reversal). Applied to the compact layout `C` of the source's *shape*
//! (first-mode-fastest, offset 0, so `C(i) = i`), the same function yields `M = f(C)`: the
//! source ordinal that each view coordinate reads, plus the offset change `delta` measured
//! on `C`. The adjoint of reading `x[delta + M(i)]` is the scatter-add
//! `g[delta + M(i)] += c[i]`, which is every rule seed 000 lists at once: slice and
//! as_strided scatter into the selected ordinals (zeros elsewhere); permute, reshape,
//! rearrange, squeeze, unsqueeze and reverse invert a bijection; broadcast_to and
//! broadcast_in_dim sum the contributions of every alias of a source coordinate.

use crate::autograd::node::{self, Cotangents, Rule};
use crate::error::Result;
use crate::layout::Layout;
use crate::ops::num::{Dense, Num, with_num};
use crate::ops::strided::walk1;
use crate::tensor::Tensor;

/// `g[delta + M(i)] += c[i]` into a source of `src_size` elements.
struct ViewRule {
    map: Layout,
    delta: i64,
    src_size: usize,
    /// `M` visits the source ordinals `0, 1, …` in order: the cotangent passes unchanged.
    identity: bool,
}

impl Rule for ViewRule {
    fn backward(&self, cot: Dense, _inputs: &[Tensor], needs: &[bool]) -> Result<Cotangents> {
        if !needs[0] {
            return Ok(smallvec::smallvec![None]);
        }
        if self.identity {
            return Ok(smallvec::smallvec![Some(cot)]);
        }
        fn go<T: Num>(rule: &ViewRule, cot: Dense) -> Dense {
            let c = T::undense(cot).expect("a view's cotangent has its source's dtype");
            let mut g = vec![T::zero(); rule.src_size];
            let mut k = 0;
            walk1(&rule.map, rule.delta, |j| {
                g[j] += c[k];
                k += 1;
            });
            T::dense(g)
        }
        let g =
            with_num!(cot.dtype(), T => go::<T>(self, cot), _ => unreachable!("differentiable"));
        Ok(smallvec::smallvec![Some(g)])
    }
}

/// Records `out`, a view of `src` made by `op`, when recording is on and `src` takes part in
/// autograd. `map` returns `(M, delta)`: the view function applied to the compact layout of
/// the source's shape. Otherwise `out` is returned as it is, at the cost of one flag load
/// and one thread-local read.
#[inline]
pub(crate) fn record(
    src: &Tensor,
    out: Tensor,
    op: &'static str,
    map: impl FnOnce(&Layout) -> Result<(Layout, i64)>,
) -> Result<Tensor> {
    if !node::wants(&[src]) {
        return Ok(out);
    }
    let (map, delta) = map(&Layout::compact(src.shape()))?;
    let src_size = src.size();
    // Reshape, squeeze, unsqueeze and whole-tensor rearrangements that keep the order read
    // ordinal i at ordinal i.
    let identity = delta == 0 && map.size() == src_size && {
        let f = map.filter();
        src_size == 1 || (f.size() == src_size && f.stride().values() == [1])
    };
    let rule = ViewRule {
        map,
        delta,
        src_size,
        identity,
    };
    Ok(node::attach(out, op, &[src], Box::new(rule)))
}
