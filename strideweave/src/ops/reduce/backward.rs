//! The backward of every reduction, and the operand it is recorded against.
//!
//! A reduction whose reduced leaves read the operand with stride 0 (a broadcast) is
//! recorded against the operand's *distinct terms*: a view of the operand over the
//! iteration space's leaves with those leaves at extent 1, index 0 ([`distinct`]). The
//! gradient of an operand whose coordinates alias one storage slot is, for each
//! coordinate, the sum of the contributions of all its aliases (`autograd/buffer.rs`), so
//! one distinct term may carry the sum over its `n` copies, which each rule below takes in
//! closed form: `Sum` `c · n`; `Mean` `c` over the count of distinct terms; `Prod` `n`
//! times a copy's cofactor (zero for a repeated zero); `Max`/`Min` the first copy's, as
//! the first index takes the whole cotangent; `LogSumExp` the softmax over the distinct
//! terms, which is `n` times a copy's. That gradient is a vector of the distinct terms'
//! size, not the broadcast's, and the view's backward places it into the broadcast's
//! source in one scatter (a chain of views is crossed at once): the backward of any
//! reduction over a 2^40-element broadcast returns at once, as its forward does.

use super::{OP, Ordered, Reduction, Space, max, min};
use crate::autograd::node::Cotangents;
use crate::dtype::zeroed_vec;
use crate::error::Result;
use crate::kernels::copy::copy;
use crate::kernels::num::{Dense, Num, with_num, with_real};
use crate::layout::{Layout, Shape};
use crate::ops::along::logsumexp_grads;
use crate::ops::repeat::power;
use crate::tensor::Tensor;

/// The operand a reduction over `space` is recorded against when terms of `t` repeat
/// (`walked`: the space with the reduced stride-0 leaves of `t` at extent 1, and the
/// repeat), with the space over it: the view of `t` over the space's leaves, one flat mode
/// per leaf, the repeated ones at extent 1 (index 0, the first copy).
pub(super) fn distinct(
    op: &'static str,
    t: &Tensor,
    space: &Space,
    (w, _): &(Space, i64),
) -> Result<(Tensor, Space)> {
    let flat = |l: &Layout| {
        let view = space.view(l);
        let modes: Vec<(i64, i64)> = w
            .extents
            .iter()
            .copied()
            .zip(view.stride().leaves().iter().copied())
            .collect();
        Layout::flat(op, &modes, false)
    };
    let x = t.reach_keeping_view(op, flat)?;
    let over = Space::new(
        None,
        w.extents.clone(),
        w.gather.clone(),
        w.out.clone(),
        x.size(),
    );
    Ok((x, over))
}

/// Backward of every reduction. With `M` the space's view of the compact layout of the
/// operand's shape (iteration index → operand ordinal) and `G` the gather (iteration index
/// → output ordinal): `Sum` is `g[M(i)] = c[G(i)]` (over the count for `Mean`), the
/// cotangent read by the copy engine (stride-0 fills and memcpy runs) straight into the
/// gradient; one value everywhere (a splat cotangent, or the one output of a total) stays a
/// splat, so no vector of copies is made. `Max`/`Min`/`Prod` read the saved operand in
/// iteration order, one column of `nred` terms per output, and place each term's gradient
/// through `M` the same way.
pub(super) struct ReduceRule {
    pub(super) space: Space,
    pub(super) r: Reduction,
    /// How many copies of each of the operand's terms the reduction read (see
    /// [`distinct`]).
    pub(super) n: i64,
}

impl ReduceRule {
    /// Places `per_term` (compact over the iteration space) at the operand's ordinals.
    fn place<T: Num>(&self, per_term: &[T], shape: &Shape) -> Vec<T> {
        let compact = Layout::compact(shape);
        let map = self.space.view(&compact);
        let mut g = vec![T::zero(); shape.size()];
        copy(
            &self.space.extents,
            (per_term, 0, &self.space.compact()),
            (&mut g, 0, map.stride().leaves()),
        );
        g
    }

    /// The gradient of a distinct term whose every copy has gradient `g`: `g · n`.
    fn copies<T: Num>(&self, g: T) -> T {
        match self.n {
            1 => g,
            n => g.times(n as f64),
        }
    }

    /// The saved operand in iteration order (`j + nout·r`).
    fn terms<T: Num>(&self, x: &Tensor) -> Result<Vec<T>> {
        self.space.terms(OP, x)
    }

    fn sum<T: Num>(&self, op: &'static str, cot: Dense, shape: &Shape) -> Result<Dense> {
        let count = T::from_f64(self.space.nred as f64);
        let scale = |c: T| match self.r {
            Reduction::Mean => c / count,
            _ => self.copies(c),
        };
        if let Some((c, splat)) = T::undense_strided(&cot)
            && (splat || self.space.nout == 1)
        {
            return Ok(T::splat(scale(c[0]), shape.size()));
        }
        let c: Vec<T> = T::cotangent(op, cot)?.into_iter().map(scale).collect();
        let compact = Layout::compact(shape);
        let map = self.space.view(&compact);
        let mut g = zeroed_vec(op, shape.size())?;
        copy(
            &self.space.extents,
            (&c, 0, &self.space.gather),
            (&mut g, 0, map.stride().leaves()),
        );
        Ok(T::dense(g))
    }

    fn prod<T: Num>(&self, op: &'static str, cot: Dense, x: &Tensor) -> Result<Dense> {
        let c = T::cotangent(op, cot)?;
        let xs = self.terms::<T>(x)?;
        let (nout, nred) = (self.space.nout, self.space.nred);
        let mut per = vec![T::zero(); xs.len()];
        for j in 0..nout {
            let col = |r: usize| xs[j + nout * r];
            let mut zeros = (0..nred).filter(|&r| col(r) == T::zero());
            match (zeros.next(), zeros.next()) {
                // No zero: each term's cofactor is the product over the term (torch's rule),
                // the product taken over every copy, as the forward takes it.
                (None, _) => {
                    let all = (0..nred).fold(T::one(), |a, r| a * col(r));
                    let all = power(all, self.n, |a, b| a * b);
                    for r in 0..nred {
                        per[j + nout * r] = c[j] * self.copies(all / col(r)).conj();
                    }
                }
                // One zero: only its cofactor, the product of the others, is nonzero (a
                // repeated zero is two zeros or more).
                (Some(z), None) if self.n == 1 => {
                    let others = (0..nred)
                        .filter(|&r| r != z)
                        .fold(T::one(), |a, r| a * col(r));
                    per[j + nout * z] = c[j] * others.conj();
                }
                // Two zeros or more: every cofactor holds a zero.
                _ => {}
            }
        }
        Ok(T::dense(self.place(&per, x.shape())))
    }

    fn extremum<T: Num + Ordered>(
        &self,
        op: &'static str,
        cot: Dense,
        x: &Tensor,
    ) -> Result<Dense> {
        let c = T::cotangent(op, cot)?;
        let xs = self.terms::<T>(x)?;
        let (nout, nred) = (self.space.nout, self.space.nred);
        let pick = if self.r == Reduction::Max {
            max::<T>
        } else {
            min::<T>
        };
        let mut per = vec![T::zero(); xs.len()];
        for j in 0..nout {
            let col = |r: usize| xs[j + nout * r];
            // The first term equal to the column's extremum (the first NaN once one is
            // met) is the last term that changed the running extremum.
            let (_, r) = (1..nred).fold((col(0), 0), |(best, at), r| {
                let v = pick(best, col(r));
                let kept = v == best || (v.is_nan() && best.is_nan());
                if kept { (best, at) } else { (v, r) }
            });
            per[j + nout * r] = c[j];
        }
        Ok(T::dense(self.place(&per, x.shape())))
    }

    /// The cotangent of operand `x`.
    pub(super) fn backward(&self, op: &'static str, cot: Dense, x: &Tensor) -> Result<Cotangents> {
        let g = match self.r {
            Reduction::Sum | Reduction::Mean => {
                with_num!(cot.dtype(), T => self.sum::<T>(op, cot, x.shape())?, _ => unreachable!("differentiable"))
            }
            Reduction::Prod => {
                with_num!(cot.dtype(), T => self.prod::<T>(op, cot, x)?, _ => unreachable!("differentiable"))
            }
            Reduction::Max | Reduction::Min => {
                with_real!(cot.dtype(), T => self.extremum::<T>(op, cot, x)?, _ => unreachable!("real: checked"))
            }
            Reduction::LogSumExp => with_real!(cot.dtype(), T => {
                let (c, xs) = (T::cotangent(op, cot)?, self.terms::<T>(x)?);
                T::dense(self.place(&logsumexp_grads(&xs, &c), x.shape()))
            }, _ => unreachable!("real: checked")),
        };
        Ok(smallvec::smallvec![Some(g)])
    }
}
