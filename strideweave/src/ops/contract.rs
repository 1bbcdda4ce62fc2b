//! The batched-contraction core and the operations built on it: `contract`, `dot`, `outer`
//! (and, in `matmul` and `einsum`, the matrix–vector forms, batched products and einsum).
//!
//! A contraction is a [`Spec`]: the result's top-level modes in order, each an [`Index`]
//! naming the operand mode(s) it comes from, and the summed indices. Each index's sublayout
//! is flattened into [`Line`]s of the kernel (`kernels/contract.rs`) with each operand's own
//! strides, so the operands are read where they lie (transposed, sliced, reversed,
//! broadcast) and the gemm kernel (`kernels/gemm.rs`) runs once per batch index when each class folds into one
//! line; nothing is copied before the product. The result is compact first-mode-fastest.
//!
//! The backward rule is the same core: `dA = Σ dC · conj(B)` over the indices `A` does not
//! have, with the result laid out as `A`'s modes (`gradient_spec`).

use crate::autograd::node::{Cotangents, Step, rule};
use crate::error::{Error, Result};
use crate::kernels::contract::{Line, Ring, contract as kernel};
use crate::kernels::int::with_int;
use crate::kernels::num::{Num, with_num};
use crate::layout::{IntTuple, Layout, Shape};
use crate::ops::{Accepts, Dest, check_operand_for, check_pair_for, deliver, finish, fresh};
use crate::tensor::Tensor;
use crate::tensor::read::{read, read2};

/// One index of a contraction: the top-level mode of each operand it runs along (`None`:
/// that operand does not vary along it) and its shape (equal to each named mode's shape).
#[derive(Clone, Debug)]
pub(crate) struct Index {
    pub(crate) a: Option<usize>,
    pub(crate) b: Option<usize>,
    pub(crate) shape: IntTuple,
}

/// A contraction: the result's modes in order, and the indices summed over.
#[derive(Clone, Debug, Default)]
pub(crate) struct Spec {
    pub(crate) out: Vec<Index>,
    pub(crate) summed: Vec<Index>,
}

impl Spec {
    /// The result's shape: the out indices' shapes as top-level modes.
    pub(crate) fn shape(&self) -> Result<Shape> {
        Shape::new(IntTuple::tuple(self.out.iter().map(|i| i.shape.clone())))
    }
}

/// An index running along mode `a` of the left operand and `b` of the right one.
pub(crate) fn index(a: Option<usize>, b: Option<usize>, shape: &Shape) -> Index {
    Index {
        a,
        b,
        shape: shape.as_int_tuple().clone(),
    }
}

/// Runs the contraction `spec` of `a` and `b` (`None`: a one-operand contraction, as a
/// one-input einsum) into a fresh compact tensor, recorded when an operand takes part in
/// autograd. Operands are checked here (one subtensor, one dtype that has arithmetic,
/// integers included); the callers have checked that `spec` pairs modes of equal shapes.
pub(crate) fn run(op: &'static str, a: &Tensor, b: Option<&Tensor>, spec: Spec) -> Result<Tensor> {
    match b {
        Some(b) => check_pair_for(op, a, b, Accepts::Int, "")?,
        None => check_operand_for(op, a, Accepts::Int, "")?,
    }
    let shape = spec.shape()?;
    let inputs: Vec<&Tensor> = std::iter::once(a).chain(b).collect();
    with_num!(a.dtype(), T => {
        let v: Vec<T> = operands::<T, _>(op, a, b, |x, y| compute(op, &spec, x, y, shape.size()))??;
        let fwd = op;
        fresh(finish(op, Dest::Fresh, &inputs, T::dense(v), &shape, move || rule(move |step| {
            with_num!(step.cot.dtype(), T => contract_backward::<T>(fwd, &spec, step), _ => unreachable!("differentiable"))
        })))
    }, _ => with_int!(a.dtype(), T => {
        let v: Vec<T> = operands::<T, _>(op, a, b, |x, y| compute(op, &spec, x, y, shape.size()))??;
        fresh(deliver(op, Dest::Fresh, v, &shape))
    }, _ => unreachable!("check_operand_for admits arithmetic dtypes only")))
}

/// An operand as the core reads it: elements, offset, layout.
type Operand<'a, T> = (&'a [T], i64, &'a Layout);

/// Lends the operands' elements (the right one absent for a one-operand contraction).
fn operands<T: crate::dtype::Element, R>(
    op: &'static str,
    a: &Tensor,
    b: Option<&Tensor>,
    f: impl FnOnce(Operand<'_, T>, Option<Operand<'_, T>>) -> R,
) -> Result<R> {
    match b {
        Some(b) => read2(a, b, op, |x, y| f(x, Some(y))),
        None => read(a, op, |x, o, l| f((x, o, l), None)),
    }
}

/// The values of the contraction `spec` of `a` and `b`, compact over the result's shape
/// (`len` elements).
fn compute<T: Ring>(
    op: &'static str,
    spec: &Spec,
    a: Operand<'_, T>,
    b: Option<Operand<'_, T>>,
    len: usize,
) -> Result<Vec<T>> {
    let lines = lines(op, spec, a.2, b.map(|b| b.2))?;
    let one = [T::one()];
    let (bd, bo) = b.map_or((&one[..], 0), |b| (b.0, b.1));
    kernel(op, &lines, (a.0, a.1), (bd, bo), len)
}

/// The kernel's lines of `spec` over operands laid out as `la` and `lb`.
fn lines(op: &'static str, spec: &Spec, la: &Layout, lb: Option<&Layout>) -> Result<Vec<Line>> {
    let out = Layout::compact(&spec.shape()?);
    let strides = |l: &Layout, mode: usize, shape: &IntTuple| -> Result<Vec<i64>> {
        let m = l.mode(mode)?;
        // Shapes compare as `Shape`s (`3` is `(3)` at a mode's root), as the rules that built
        // `spec` compare them; the leaves, which the lines take, are the same either way.
        if *m.shape() != Shape::new(shape.clone())? {
            return Err(Error::DimensionMismatch {
                op,
                detail: format!(
                    "mode {mode} has shape {} where the contraction expects {shape}",
                    m.shape()
                ),
            });
        }
        Ok(m.stride().leaves().to_vec())
    };
    let mut lines = Vec::new();
    let all = (spec.out.iter().enumerate().map(|(j, i)| (Some(j), i)))
        .chain(spec.summed.iter().map(|i| (None, i)));
    for (out_mode, index) in all {
        let extents = crate::layout::Shape::new(index.shape.clone())?;
        let extents = extents.leaves();
        let side = |l: Option<&Layout>, m: Option<usize>| -> Result<Vec<i64>> {
            match (l, m) {
                (Some(l), Some(m)) => strides(l, m, &index.shape),
                _ => Ok(vec![0; extents.len()]),
            }
        };
        let sa = side(Some(la), index.a)?;
        let sb = side(lb, index.b)?;
        let so = match out_mode {
            Some(j) => out.mode(j)?.stride().leaves().to_vec(),
            None => vec![0; extents.len()],
        };
        for (k, &extent) in extents.iter().enumerate() {
            lines.push(Line {
                extent,
                sa: sa[k],
                sb: sb[k],
                so: so[k],
            });
        }
    }
    Ok(lines)
}

/// The contraction giving the cotangent of operand `x` (0: left, 1: right) of `spec` from
/// the result's cotangent (the new left operand, its modes the result's) and the other
/// operand (the new right operand): `dX = Σ dC · Y` over the indices `X` does not have,
/// laid out as `X`'s modes.
pub(crate) fn gradient_spec(spec: &Spec, x: usize, x_rank: usize) -> Spec {
    let pick = |i: &Index| if x == 0 { (i.a, i.b) } else { (i.b, i.a) };
    let mut out: Vec<Option<Index>> = vec![None; x_rank];
    let mut summed = Vec::new();
    let all = spec
        .out
        .iter()
        .enumerate()
        .map(|(j, i)| (Some(j), i))
        .chain(spec.summed.iter().map(|i| (None, i)));
    for (c, i) in all {
        let (xm, ym) = pick(i);
        let new = Index {
            a: c,
            b: ym,
            shape: i.shape.clone(),
        };
        match xm {
            Some(p) => out[p] = Some(new),
            None => summed.push(new),
        }
    }
    Spec {
        // Unreachable from user input: every operand mode is named by exactly one index.
        out: out
            .into_iter()
            .map(|i| i.expect("every operand mode is named by one index"))
            .collect(),
        summed,
    }
}

/// Backward of the contraction `spec` that forward operation `fwd` ran: the core again, on
/// the cotangent and the other operand (conjugated for complex types).
fn contract_backward<T: Num>(fwd: &'static str, spec: &Spec, step: Step<'_>) -> Result<Cotangents> {
    let (op, cot, inputs, needs) = step.parts();
    let c = T::cotangent(op, cot)?;
    let dc_layout = Layout::compact(&spec.shape()?);
    let mut grads: Cotangents = smallvec::smallvec![];
    for (x, t) in inputs.iter().enumerate() {
        if !needs[x] {
            grads.push(None);
            continue;
        }
        let dspec = gradient_spec(spec, x, t.rank());
        let len = t.size();
        let dc = (&c[..], 0, &dc_layout);
        let v = match inputs.get(1 - x) {
            None => compute::<T>(fwd, &dspec, dc, None, len)?,
            Some(y) if T::COMPLEX => {
                let yc = crate::ops::matmul::conj_compact::<T>(fwd, y)?;
                let ly = Layout::compact(y.shape());
                compute::<T>(fwd, &dspec, dc, Some((&yc, 0, &ly)), len)?
            }
            Some(y) => read(y, fwd, |d: &[T], o, l| {
                compute::<T>(fwd, &dspec, dc, Some((d, o, l)), len)
            })??,
        };
        grads.push(Some(T::dense(v)));
    }
    Ok(grads)
}

const CONTRACT: &str = "contract";

impl Tensor {
    /// General tensor contraction: `left_axes[i]` of `self` pairs
    /// with `right_axes[i]` of `other`, paired modes must have equal shapes (no
    /// broadcasting), and the products are summed over the pairs. The result's modes are
    /// the uncontracted modes of `self` in order, then those of `other`: rank
    /// `l + r − 2·count`, rank 0 when every mode is contracted. Recorded for autograd;
    /// integer tensors contract with wrapping arithmetic.
    ///
    /// ```
    /// use strideweave::{ErrorKind, Tensor};
    /// let a = Tensor::arange::<f64>(&"(2,3,4)".parse().unwrap());
    /// let b = Tensor::arange::<f64>(&"(4,5,3)".parse().unwrap());
    /// // Pairs a's mode 1 with b's mode 2 and a's mode 2 with b's mode 0.
    /// let c = a.contract(&b, &[1, 2], &[2, 0]).unwrap();
    /// assert_eq!(c.shape().to_string(), "(2,5)");
    /// let want: f64 = (0..3).flat_map(|j| (0..4).map(move |k| (j, k)))
    ///     .map(|(j, k)| (2 * j + 6 * k) as f64 * (k + 4 * 0 + 20 * j) as f64)
    ///     .sum();
    /// assert_eq!(c.to_vec::<f64>().unwrap()[0], want);
    /// let err = a.contract(&b, &[1], &[0]).unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::Value);
    /// assert!(err.to_string().starts_with("contract: left axis 1 (extent 3) and right axis 0 (extent 4)"));
    /// ```
    pub fn contract(
        &self,
        other: &Tensor,
        left_axes: &[usize],
        right_axes: &[usize],
    ) -> Result<Tensor> {
        let spec = contract_spec(CONTRACT, self, other, left_axes, right_axes)?;
        run(CONTRACT, self, Some(other), spec)
    }

    /// The dot product of two rank-1 tensors of equal length: a rank-0 tensor (shape `()`)
    /// holding `Σ aᵢ·bᵢ` (read it with [`item`](Self::item)). Recorded for autograd.
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let a = Tensor::from_vec(vec![1.0f32, 2.0, 3.0], &"3".parse().unwrap()).unwrap();
    /// let b = Tensor::from_vec(vec![4.0f32, 5.0, 6.0], &"3".parse().unwrap()).unwrap();
    /// assert_eq!(a.dot(&b).unwrap().item::<f32>().unwrap(), 32.0);
    /// let c = Tensor::arange::<f32>(&"4".parse().unwrap());
    /// assert_eq!(a.dot(&c).unwrap_err().to_string(), "dot: the operands' lengths differ: 3 on the left, 4 on the right");
    /// ```
    pub fn dot(&self, other: &Tensor) -> Result<Tensor> {
        const OP: &str = "dot";
        vectors(OP, self, other)?;
        if self.shape() != other.shape() {
            return Err(Error::DimensionMismatch {
                op: OP,
                detail: format!(
                    "the operands' lengths differ: {} on the left, {} on the right",
                    self.shape(),
                    other.shape()
                ),
            });
        }
        let spec = Spec {
            out: vec![],
            summed: vec![index(Some(0), Some(0), &mode_shape(self, 0)?)],
        };
        run(OP, self, Some(other), spec)
    }

    /// The outer product of two rank-1 tensors: `(n) ⊗ (m) → (n, m)`, element `(i, j)`
    /// being `aᵢ·bⱼ`. Recorded for autograd.
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let a = Tensor::from_vec(vec![1i32, 2], &"2".parse().unwrap()).unwrap();
    /// let b = Tensor::from_vec(vec![3i32, 4, 5], &"3".parse().unwrap()).unwrap();
    /// let c = a.outer(&b).unwrap();
    /// assert_eq!(c.to_vec_row_major::<i32>().unwrap(), [3, 4, 5, 6, 8, 10]);
    /// assert!(c.outer(&a).is_err());
    /// ```
    pub fn outer(&self, other: &Tensor) -> Result<Tensor> {
        const OP: &str = "outer";
        vectors(OP, self, other)?;
        let spec = Spec {
            out: vec![
                index(Some(0), None, &mode_shape(self, 0)?),
                index(None, Some(0), &mode_shape(other, 0)?),
            ],
            summed: vec![],
        };
        run(OP, self, Some(other), spec)
    }
}

/// Refuses an operand of rank other than 1.
fn vectors(op: &'static str, a: &Tensor, b: &Tensor) -> Result<()> {
    crate::ops::require_rank(
        op,
        1,
        [
            ("top-level modes of the left operand (a vector)", a),
            ("top-level modes of the right operand (a vector)", b),
        ],
    )
}

/// The shape of top-level mode `i` of `t`.
pub(crate) fn mode_shape(t: &Tensor, i: usize) -> Result<Shape> {
    t.shape().mode(i).ok_or(Error::InvalidAxis {
        op: "contract",
        operand: "input",
        axis: i,
        rank: t.rank(),
    })
}

/// The [`Spec`] of `contract`: axes checked (in range, distinct, equal counts, equal
/// shapes), result modes the free left modes then the free right ones.
fn contract_spec(
    op: &'static str,
    a: &Tensor,
    b: &Tensor,
    left: &[usize],
    right: &[usize],
) -> Result<Spec> {
    let axes = |t: &Tensor, list: &[usize], operand: &'static str| -> Result<Vec<bool>> {
        let mut used = vec![false; t.rank()];
        for &axis in list {
            match used.get_mut(axis) {
                None => {
                    return Err(Error::InvalidAxis {
                        op,
                        operand,
                        axis,
                        rank: t.rank(),
                    });
                }
                Some(true) => return Err(Error::DuplicateAxis { op, operand, axis }),
                Some(u) => *u = true,
            }
        }
        Ok(used)
    };
    let used_a = axes(a, left, "left")?;
    let used_b = axes(b, right, "right")?;
    if left.len() != right.len() {
        return Err(Error::InvalidContraction {
            op,
            detail: format!(
                "{} left axes {left:?} but {} right axes {right:?}: the lists pair by position",
                left.len(),
                right.len()
            ),
        });
    }
    let mut spec = Spec::default();
    for (&p, &q) in left.iter().zip(right) {
        let (sp, sq) = (mode_shape(a, p)?, mode_shape(b, q)?);
        if sp != sq {
            return Err(Error::InvalidContraction {
                op,
                detail: format!(
                    "left axis {p} (extent {sp}) and right axis {q} (extent {sq}) are paired but differ: paired extents must match exactly"
                ),
            });
        }
        spec.summed.push(index(Some(p), Some(q), &sp));
    }
    for (p, _) in used_a.iter().enumerate().filter(|(_, u)| !**u) {
        spec.out.push(index(Some(p), None, &mode_shape(a, p)?));
    }
    for (q, _) in used_b.iter().enumerate().filter(|(_, u)| !**u) {
        spec.out.push(index(None, Some(q), &mode_shape(b, q)?));
    }
    Ok(spec)
}

/// The inner modes of a matrix product differ: a [`Error::DimensionMismatch`] naming both.
pub(crate) fn inner_mismatch(op: &'static str, left: &Shape, right: &Shape) -> Error {
    Error::DimensionMismatch {
        op,
        detail: format!(
            "the left operand's column extent {left} and the right operand's row extent {right} differ: the inner modes must be equal"
        ),
    }
}

/// The [`Spec`] of `matmul`: matrix × matrix, matrix × vector, vector × matrix and
/// batched matrix × matrix over equal leading modes.
pub(crate) fn matmul_spec(op: &'static str, a: &Tensor, b: &Tensor) -> Result<Spec> {
    let (ra, rb) = (a.rank(), b.rank());
    let shape = |t: &Tensor, i: usize| mode_shape(t, i);
    let inner = |p: usize, q: usize| -> Result<Index> {
        let (sp, sq) = (shape(a, p)?, shape(b, q)?);
        if sp != sq {
            return Err(inner_mismatch(op, &sp, &sq));
        }
        Ok(index(Some(p), Some(q), &sp))
    };
    match (ra, rb) {
        (2, 1) => Ok(Spec {
            out: vec![index(Some(0), None, &shape(a, 0)?)],
            summed: vec![inner(1, 0)?],
        }),
        (1, 2) => Ok(Spec {
            out: vec![index(None, Some(1), &shape(b, 1)?)],
            summed: vec![inner(0, 0)?],
        }),
        (r, s) if r == s && r >= 2 => {
            let mut out = Vec::with_capacity(r);
            for i in 0..r - 2 {
                let (sa, sb) = (shape(a, i)?, shape(b, i)?);
                if sa != sb {
                    return Err(Error::DimensionMismatch {
                        op,
                        detail: format!(
                            "batch mode {i} has extent {sa} on the left and {sb} on the right: batch modes must be equal (nothing broadcasts)"
                        ),
                    });
                }
                out.push(index(Some(i), Some(i), &sa));
            }
            out.push(index(Some(r - 2), None, &shape(a, r - 2)?));
            out.push(index(None, Some(r - 1), &shape(b, r - 1)?));
            Ok(Spec {
                out,
                summed: vec![inner(r - 1, r - 2)?],
            })
        }
        (1, 1) => Err(Error::RankMismatch {
            op,
            what: "top-level modes of the right operand (two vectors have no matrix product: use dot or outer)",
            expected: 2,
            found: 1,
        }),
        _ => Err(Error::RankMismatch {
            op,
            what: "top-level modes of the right operand (matrix × matrix, matrix × vector, vector × matrix, or equal ranks for a batch)",
            expected: match ra {
                1 => 2,
                2 => 1,
                r => r,
            },
            found: rb,
        }),
    }
}
