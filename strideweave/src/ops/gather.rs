//! Gathers along one mode: [`Tensor::index_select`] picks whole slices by a vector of
//! indices, [`Tensor::gather`] (PyTorch's) picks one element per index.
//!
//! Both read the input where it lies (strided, reversed, broadcast: nothing is copied
//! first), check every index before anything is computed, and write a fresh compact result.
//! `index_select` copies each picked slice with one copy plan made once (a contiguous slice
//! is one run of the copy engine); when the picked mode is the result's fastest, it walks
//! the other modes once per block of indices instead, so that the result is written in
//! runs. The backward of each scatter-adds the cotangent into zeros of the input's shape,
//! repeated indices accumulating in index order; the indices get no gradient.
//!
//! A nested mode is one mode over all its leaves: an index is an ordinal within it, first
//! leaf fastest, as everywhere in StrideWeave.

use std::ops::Range;

use smallvec::SmallVec;

use crate::autograd::node::{self, Cotangents, rule};
use crate::budget::{as_uninit, written_vec};
use crate::dtype::{DType, zeroed_vec};
use crate::error::{Error, Result};
use crate::kernels::copy::Planned;
use crate::kernels::num::{Num, with_num};
use crate::kernels::plan::{Mode, Modes, Order, outer, plan};
use crate::kernels::scatter::scatter_add;
use crate::layout::{Dim, IntTuple, Layout, Shape};
use crate::ops::along::Along;
use crate::tensor::Tensor;
use crate::tensor::read::{gather as values_of, read};

/// Indices of `index_select` handled per pass over the other modes when the picked mode is
/// the result's fastest: 64 result elements in a row per write, 64 source lines in flight.
const BLOCK: usize = 64;

impl Tensor {
    /// The slices of mode `dim` picked by `indices`, in their order: the result has this
    /// tensor's shape with mode `dim` replaced by one mode of `indices.size()` positions,
    /// and `result[…, j, …] = self[…, indices[j], …]` (PyTorch's `index_select`, numpy's
    /// `take` along an axis). A fresh compact tensor of this tensor's dtype (every plain
    /// dtype).
    ///
    /// * `dim` counts back from the end when negative (`-1` is the last mode). A nested
    ///   mode is one mode over all its leaves: an index is an ordinal within it, first leaf
    ///   fastest.
    /// * `indices` is an `i64` or `i32` tensor of one top-level mode (its elements taken in
    ///   first-mode-fastest order). Every index must lie in `0..extent` of mode `dim`;
    ///   negative indices do not count back from the end. An index outside is a `Value`
    ///   error naming the index, its coordinate in `indices` and the mode's extent.
    /// * Recorded for autograd: the gradient scatter-adds the cotangent back into zeros of
    ///   this tensor's shape, a slice picked twice receiving both contributions.
    ///
    /// ```
    /// use strideweave::Tensor;
    /// // A table of 3 rows of 2 values, row-major as numpy keeps it: shape (2,3) here
    /// // (first mode fastest), each row a contiguous column of mode 0.
    /// let table = Tensor::from_vec(vec![0.0f32, 1.0, 10.0, 11.0, 20.0, 21.0], &"(2,3)".parse().unwrap()).unwrap();
    /// let ids = Tensor::from_vec(vec![2i64, 0, 2], &"3".parse().unwrap()).unwrap();
    /// let rows = table.index_select(1, &ids).unwrap();
    /// assert_eq!(rows.shape().to_string(), "(2,3)");
    /// assert_eq!(rows.to_vec::<f32>().unwrap(), [20.0, 21.0, 0.0, 1.0, 20.0, 21.0]);
    ///
    /// let bad = Tensor::from_vec(vec![0i32, 3], &"2".parse().unwrap()).unwrap();
    /// let err = table.index_select(-1, &bad).unwrap_err();
    /// assert!(err.to_string().starts_with("index_select: index 3 is outside mode 1 of extent 3"));
    /// ```
    #[allow(unsafe_code)]
    pub fn index_select(&self, dim: impl Dim, indices: &Tensor) -> Result<Tensor> {
        const OP: &str = "index_select";
        self.require_single(OP)?;
        let at = Along::of(OP, self.shape(), dim)?;
        let idx = index_vector(OP, indices)?;
        at.check(OP, &idx, indices.shape())?;
        let sel = Selection::new(OP, self.shape(), &at, idx.len())?;
        let out = crate::dtype::with_plain!(self.dtype(), T => {
            let v = read(self, OP, |x: &[T], o, l| {
                let (offs, rest) = (at.offsets(l, &idx), sel.rest_of(l));
                // SAFETY (`written_vec`'s contract): `forward` writes every element of the
                // result (its compact layout is a bijection from (picked position, other
                // leaves) onto the buffer, and every pair is visited), then returns `Ok`.
                unsafe {
                    written_vec::<T>(OP, sel.shape.size(), |out| {
                        sel.forward(as_uninit(x), o, &rest, &offs, out);
                        Ok(())
                    })
                }
            })??;
            Tensor::from_vec(v, &sel.shape)?
        }, else unreachable!("require_single refused the block-scaled dtype"));
        if !node::wants(&[self]) {
            return Ok(out);
        }
        let shape = self.shape().clone();
        Ok(node::attach(
            out,
            OP,
            &[self],
            rule(move |step| {
                let (op, cot, _, _) = step.parts();
                let g = with_num!(cot.dtype(), T => {
                    let c = T::cotangent(op, cot)?;
                    T::dense(sel.backward(op, &shape, &at, &idx, &c)?)
                }, _ => unreachable!("cotangents are differentiable"));
                Ok(Cotangents::from_iter([Some(g)]))
            }),
        ))
    }

    /// PyTorch's `gather`: one element of mode `dim` per index, `result[i…, j, k…] =
    /// self[i…, indices[i…, j, k…], k…]`. `indices` is an `i64` tensor with as many top-level
    /// modes as this tensor; every mode but `dim` may be at most as long as this tensor's
    /// (a coordinate there is the same coordinate here), mode `dim` any length. The result
    /// has the shape of `indices` and this tensor's dtype (every plain dtype), fresh and
    /// compact.
    ///
    /// * `dim` counts back from the end when negative. A nested mode is one mode over all
    ///   its leaves: coordinates and indices within it are ordinals, first leaf fastest.
    /// * Every index must lie in `0..extent` of mode `dim` (negative indices do not count
    ///   back from the end): an index outside is a `Value` error naming the index, its
    ///   coordinate in `indices` and the mode's extent.
    /// * Recorded for autograd: the gradient scatter-adds the cotangent into zeros of this
    ///   tensor's shape, an element picked several times receiving every contribution.
    ///
    /// ```
    /// use strideweave::Tensor;
    /// // Log-probabilities of 2 classes for 3 samples (mode 1: the class), and the target
    /// // class of each sample: picks logp[i, target[i]].
    /// let logp = Tensor::from_vec(vec![-0.1f64, -1.0, -2.0, -2.3, -0.4, -0.2], &"(3,2)".parse().unwrap()).unwrap();
    /// let target = Tensor::from_vec(vec![0i64, 1, 1], &"(3,1)".parse().unwrap()).unwrap();
    /// let picked = logp.gather(1, &target).unwrap();
    /// assert_eq!(picked.to_vec::<f64>().unwrap(), [-0.1, -0.4, -0.2]);
    /// assert!(logp.gather(0, &target.mul_scalar(5i64).unwrap()).unwrap_err().to_string()
    ///     .starts_with("gather: index 5 is outside mode 0 of extent 3"));
    /// ```
    pub fn gather(&self, dim: impl Dim, indices: &Tensor) -> Result<Tensor> {
        const OP: &str = "gather";
        self.require_single(OP)?;
        let at = Along::of(OP, self.shape(), dim)?;
        indices.require_single(OP)?;
        if indices.dtype() != DType::I64 {
            return Err(Error::WrongType {
                op: OP,
                expected: "an i64 index tensor".into(),
                found: format!("a {} index tensor", indices.dtype()),
            });
        }
        check_gather_shape(OP, self.shape(), indices.shape(), at.mode)?;
        let idx = values_of::<i64>(indices, OP)?;
        at.check(OP, &idx, indices.shape())?;
        let ishape = indices.shape().clone();
        let out = crate::dtype::with_plain!(self.dtype(), T => {
            let v = read(self, OP, |x: &[T], o, l| -> Result<Vec<T>> {
                let mut out = zeroed_vec::<T>(OP, idx.len())?;
                positions(l, o, &at, &ishape, &idx, |k, p| out[k] = x[p]);
                Ok(out)
            })??;
            Tensor::from_vec(v, &ishape)?
        }, else unreachable!("require_single refused the block-scaled dtype"));
        if !node::wants(&[self]) {
            return Ok(out);
        }
        let shape = self.shape().clone();
        Ok(node::attach(
            out,
            OP,
            &[self],
            rule(move |step| {
                let (op, cot, _, _) = step.parts();
                let compact = Layout::compact(&shape);
                let g = with_num!(cot.dtype(), T => {
                    let c = T::cotangent(op, cot)?;
                    let mut g = zeroed_vec::<T>(op, shape.size())?;
                    positions(&compact, 0, &at, &ishape, &idx, |k, p| g[p] += c[k]);
                    T::dense(g)
                }, _ => unreachable!("cotangents are differentiable"));
                Ok(Cotangents::from_iter([Some(g)]))
            }),
        ))
    }
}

impl Along {
    /// Fails on the first index outside `0..extent`, naming it and its coordinate in the
    /// index tensor of shape `shape`.
    fn check(&self, op: &'static str, idx: &[i64], shape: &Shape) -> Result<()> {
        let Some(k) = idx.iter().position(|v| !(0..self.extent).contains(v)) else {
            return Ok(());
        };
        let v = idx[k];
        let negative = if v < 0 {
            "; a negative index does not count back from the end"
        } else {
            ""
        };
        Err(Error::OutOfDomain {
            op,
            what: "index",
            value: v,
            place: format!(
                "mode {} of extent {} (found at coordinate {} of the indices, ordinal {k}{negative})",
                self.mode,
                self.extent,
                shape.coordinate(k)?
            ),
            bound: self.extent,
        })
    }

    /// `L_dim(v)` for each index `v`: where each index lies within the mode, through the
    /// strides of `l` (the input's layout, or the compact layout of its shape).
    fn offsets(&self, l: &Layout, idx: &[i64]) -> Vec<i64> {
        let e = &l.shape().leaves()[self.leaves.clone()];
        let s = &l.stride().leaves()[self.leaves.clone()];
        idx.iter().map(|&v| within(e, s, v)).collect()
    }
}

/// The index of ordinal `v` (inside the domain) of the leaves `extents` with `strides`
/// (first leaf fastest); the last leaf takes what remains, so a one-leaf mode divides
/// nothing.
#[inline]
fn within(extents: &[i64], strides: &[i64], mut v: i64) -> i64 {
    let Some((&last, strides)) = strides.split_last() else {
        return 0;
    };
    let mut at = 0;
    for (&e, &s) in extents.iter().zip(strides) {
        at += (v % e) * s;
        v /= e;
    }
    at + v * last
}

/// The values of a vector of `i64` or `i32` indices, in first-mode-fastest order.
fn index_vector(op: &'static str, indices: &Tensor) -> Result<Vec<i64>> {
    indices.require_single(op)?;
    let d = indices.dtype();
    if d != DType::I64 && d != DType::I32 {
        return Err(Error::WrongType {
            op,
            expected: "an i64 or i32 index tensor".into(),
            found: format!("a {d} index tensor"),
        });
    }
    if indices.rank() != 1 {
        return Err(Error::RankMismatch {
            op,
            what: "top-level modes in the index tensor (a vector of indices)",
            expected: 1,
            found: indices.rank(),
        });
    }
    Ok(match d {
        DType::I64 => values_of::<i64>(indices, op)?,
        _ => values_of::<i32>(indices, op)?
            .into_iter()
            .map(i64::from)
            .collect(),
    })
}

/// PyTorch's shape rule of `gather`: as many top-level modes as the input, each but `mode`
/// at most as long as the input's.
fn check_gather_shape(op: &'static str, input: &Shape, indices: &Shape, mode: usize) -> Result<()> {
    if indices.rank() != input.rank() {
        return Err(Error::RankMismatch {
            op,
            what: "top-level modes in the index tensor (the input's rank)",
            expected: input.rank(),
            found: indices.rank(),
        });
    }
    let size = |s: &Shape, m: usize| s.mode(m).map_or(1, |x| x.size());
    for m in (0..input.rank()).filter(|&m| m != mode) {
        let (a, b) = (size(indices, m), size(input, m));
        if a > b {
            return Err(Error::ShapeMismatch {
                op,
                expected: input.to_string(),
                found: indices.to_string(),
                detail: format!(
                    "mode {m} of the indices has {a} positions, more than the input's {b}; every mode but dim {mode} must be at most as long as the input's"
                ),
            });
        }
    }
    Ok(())
}

/// Calls `f(k, p)` for each element `k` (first-mode-fastest) of an index tensor of shape
/// `ishape` holding `idx`, with `p` the index, through `l` at `offset`, of the element it
/// picks: the same coordinate on every mode but `at`'s (as an ordinal within the mode),
/// ordinal `idx[k]` on that one.
fn positions(
    l: &Layout,
    offset: i64,
    at: &Along,
    ishape: &Shape,
    idx: &[i64],
    mut f: impl FnMut(usize, usize),
) {
    let (e, s) = (l.shape().leaves(), l.stride().leaves());
    let (mine, theirs) = (
        l.shape().as_int_tuple().top_spans(),
        ishape.as_int_tuple().top_spans(),
    );
    // Per top-level mode: the index within this layout of each of the index tensor's
    // positions along it (zeros along `at`'s mode, whose index comes from `idx`).
    let tables: SmallVec<[Vec<i64>; 4]> = mine
        .iter()
        .zip(&theirs)
        .enumerate()
        .map(|(m, (sp, isp))| {
            let n: i64 = ishape.leaves()[isp.vals.clone()].iter().product();
            if m == at.mode {
                return vec![0; n as usize];
            }
            let (e, s) = (&e[sp.vals.clone()], &s[sp.vals.clone()]);
            (0..n).map(|c| within(e, s, c)).collect()
        })
        .collect();
    let (ae, as_) = (&e[at.leaves.clone()], &s[at.leaves.clone()]);
    let mut ctr: SmallVec<[usize; 8]> = smallvec::smallvec![0; tables.len()];
    let mut base = offset + tables.iter().map(|t| t[0]).sum::<i64>();
    for (k, &v) in idx.iter().enumerate() {
        f(k, (base + within(ae, as_, v)) as usize);
        // The odometer over the top-level modes, first fastest.
        for (m, t) in tables.iter().enumerate() {
            base -= t[ctr[m]];
            ctr[m] += 1;
            if ctr[m] < t.len() {
                base += t[ctr[m]];
                break;
            }
            ctr[m] = 0;
            base += t[0];
        }
    }
}

/// The result of `index_select` and how it sits over the input: the result's shape, the
/// leaves other than the picked mode's (their extents, and their strides in the compact
/// result), and the stride of the result's picked mode.
struct Selection {
    shape: Shape,
    /// The picked mode's leaves among the input's.
    cut: Range<usize>,
    rest_extents: SmallVec<[i64; 8]>,
    rest_out: SmallVec<[i64; 8]>,
    step: i64,
}

impl Selection {
    fn new(op: &'static str, input: &Shape, at: &Along, n: usize) -> Result<Selection> {
        let t = input.as_int_tuple();
        let modes = (0..input.rank()).map(|m| match m == at.mode {
            true => IntTuple::int(n as i64),
            // unreachable from user input: m < rank.
            false => t.get(m).expect("a top-level mode"),
        });
        // Only the size can fail: the extents are the input's and `n` ≥ 1.
        let shape = Shape::new(IntTuple::tuple(modes))
            .map_err(|_| Error::overflow(op, "the size of the result"))?;
        let strides = Layout::compact(&shape).stride().leaves().to_vec();
        let a = at.leaves.start;
        let rest_extents = rest(input.leaves(), &at.leaves);
        let rest_out = strides[..a]
            .iter()
            .chain(&strides[a + 1..])
            .copied()
            .collect();
        Ok(Selection {
            shape,
            cut: at.leaves.clone(),
            rest_extents,
            rest_out,
            step: strides[a],
        })
    }

    /// The strides of `l` (the input's layout or its shape's compact one) on the leaves
    /// other than the picked mode's.
    fn rest_of(&self, l: &Layout) -> SmallVec<[i64; 8]> {
        rest(l.stride().leaves(), &self.cut)
    }

    /// Writes the picked slices of `x` (at `o`, with the strides `rest` off the mode) into
    /// `out`, slice `j` from `x[o + offs[j] + …]`: every element of `out` once, since the
    /// result's compact layout sends (picked position, other leaves) onto its elements one
    /// to one.
    fn forward<T: Copy>(&self, x: &[T], o: i64, rest: &[i64], offs: &[i64], out: &mut [T]) {
        if self.step != 1 || offs.len() == 1 {
            // unreachable from user input: every extent is at least 1, so a plan exists.
            let p = Planned::new(&self.rest_extents, rest, &self.rest_out).expect("extents ≥ 1");
            for (j, &off) in offs.iter().enumerate() {
                p.run((x, o + off), (out, j as i64 * self.step));
            }
            return;
        }
        // The picked mode is the result's fastest: walk the other leaves once per block of
        // indices, writing each block's positions in one run; through an L1 tile when one
        // of those leaves is contiguous in the source.
        let (modes, d0, [s0]) = plan(
            &self.rest_extents,
            (0, &self.rest_out),
            [(o, rest)],
            Order::Strides,
        )
        // unreachable from user input: every extent is at least 1.
        .expect("extents ≥ 1");
        if let Some(k) = modes.iter().position(|m| m.s[0] == 1 && m.e >= 8) {
            return tiled((x, s0), (out, d0), &modes, k, offs);
        }
        for (b, block) in offs.chunks(BLOCK).enumerate() {
            let j0 = (b * BLOCK) as i64;
            outer(&modes, d0 + j0, [s0], |d, [s]| {
                let run = &mut out[d as usize..d as usize + block.len()];
                for (y, &off) in run.iter_mut().zip(block) {
                    *y = x[(s + off) as usize];
                }
            });
        }
    }

    /// The input's cotangent: `c` (over the result's shape) scatter-added slice by slice
    /// into zeros of the input's `shape`, in index order.
    fn backward<T: Num>(
        &self,
        op: &'static str,
        shape: &Shape,
        at: &Along,
        idx: &[i64],
        c: &[T],
    ) -> Result<Vec<T>> {
        let compact = Layout::compact(shape);
        let rest = self.rest_of(&compact);
        let mut g = zeroed_vec::<T>(op, shape.size())?;
        for (j, off) in at.offsets(&compact, idx).into_iter().enumerate() {
            scatter_add(
                &self.rest_extents,
                (c, j as i64 * self.step, &self.rest_out),
                (&mut g, off, &rest),
                true,
            );
        }
        Ok(g)
    }
}

/// Rows of a tile: the leaf contiguous in the source is read [`TILE`] elements at a time.
const TILE: usize = 32;

/// [`Selection::forward`] when the picked mode is the result's fastest (unit result
/// stride) and planned leaf `k` of the others steps by 1 in the source (rows of a row-major
/// table picked into a column-major result: a transposing gather). For each block of
/// [`BLOCK`] indices and each [`TILE`] positions of leaf `k`, the picked rows' runs are read
/// whole into a buffer that stays in L1, then written out as runs of the block's
/// positions: every source line and every result line is touched once per tile, instead
/// of one element of each of `BLOCK` source lines per result run.
fn tiled<T: Copy>(
    (x, s0): (&[T], i64),
    (out, d0): (&mut [T], i64),
    modes: &[Mode<1>],
    k: usize,
    offs: &[i64],
) {
    let m = modes[k];
    let others: Modes<1> = modes
        .iter()
        .enumerate()
        .filter(|&(i, _)| i != k)
        .map(|(_, m)| *m)
        .collect();
    let mut buf = [x[(s0 + offs[0]) as usize]; BLOCK * TILE];
    for (b, block) in offs.chunks(BLOCK).enumerate() {
        let j0 = (b * BLOCK) as i64;
        outer(&others, d0 + j0, [s0], |d, [s]| {
            for r0 in (0..m.e).step_by(TILE) {
                let rn = (m.e - r0).min(TILE as i64) as usize;
                for (row, &off) in buf.chunks_exact_mut(TILE).zip(block) {
                    let from = (s + off + r0) as usize;
                    row[..rn].copy_from_slice(&x[from..from + rn]);
                }
                for r in 0..rn {
                    let at = (d + (r0 + r as i64) * m.d) as usize;
                    let run = &mut out[at..at + block.len()];
                    for (y, row) in run.iter_mut().zip(buf.chunks_exact(TILE)) {
                        *y = row[r];
                    }
                }
            }
        });
    }
}

/// `v` without the entries in `cut`.
fn rest(v: &[i64], cut: &Range<usize>) -> SmallVec<[i64; 8]> {
    v[..cut.start]
        .iter()
        .chain(&v[cut.end..])
        .copied()
        .collect()
}
