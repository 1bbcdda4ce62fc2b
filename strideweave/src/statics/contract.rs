//! `StaticTensor::contract`, `dot` and `outer`: [`Tensor::contract`]'s, [`Tensor::dot`]'s
//! and [`Tensor::outer`]'s shape rules on static shapes, in const context. The axes of a
//! contraction are types, [`Axes<…>`](Axes) (const generic positions with defaults, so
//! `Axes<1>`, `Axes<1, 2>` and `Axes` itself, no axis, all name lists); the compiler checks
//! them against both shapes (one build error naming both shapes and the axes) and types the
//! result as [`Contracted<S, S2, L, R>`](crate::Contracted). The run-time work, its errors
//! and its gradients are the `Tensor` operation's.

use std::marker::PhantomData;

use super::arith::both_shapes;
use super::code::{MAX_LEAVES, MAX_TOKENS, ShapeCode, StaticShape};
use super::tensor::StaticTensor;
use crate::Contracted;
use crate::dtype::Element;
use crate::error::Result;
use crate::pattern::{MSG_CAP, Msg, MsgState};
use crate::tensor::Tensor;

/// The most axes an [`Axes`] list names.
pub const MAX_AXES: usize = 8;

/// An unused position of [`Axes`] (its default).
const NONE: usize = usize::MAX;

/// A list of axes given at compile time, for [`StaticTensor::contract`]: `Axes<1>`,
/// `Axes<1, 2>`, … up to [`MAX_AXES`] axes; `Axes` alone is the empty list. Axes pair by
/// position with the other operand's list.
///
/// ```
/// use strideweave::{AxisList, Axes};
/// assert_eq!(&<Axes<2, 0>>::AXES[..2], &[2, 0]);
/// assert_eq!(<Axes>::AXES[0], usize::MAX); // no axis
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Axes<
    const A0: usize = NONE,
    const A1: usize = NONE,
    const A2: usize = NONE,
    const A3: usize = NONE,
    const A4: usize = NONE,
    const A5: usize = NONE,
    const A6: usize = NONE,
    const A7: usize = NONE,
>;

/// What [`Axes`] denotes: its axes in order, unused positions `usize::MAX` (after the
/// used ones).
///
/// ```
/// use strideweave::{AxisList, Axes};
/// assert_eq!(<Axes<1>>::AXES[..2], [1, usize::MAX]);
/// ```
pub trait AxisList: 'static {
    /// The axes, unused positions `usize::MAX`.
    const AXES: [usize; MAX_AXES];
}

impl<
    const A0: usize,
    const A1: usize,
    const A2: usize,
    const A3: usize,
    const A4: usize,
    const A5: usize,
    const A6: usize,
    const A7: usize,
> AxisList for Axes<A0, A1, A2, A3, A4, A5, A6, A7>
{
    const AXES: [usize; MAX_AXES] = [A0, A1, A2, A3, A4, A5, A6, A7];
}

/// The number of axes of a list (its used positions before the first unused one), and
/// whether an axis follows an unused position.
const fn count(list: &[usize; MAX_AXES]) -> (usize, bool) {
    let mut n = 0;
    while n < MAX_AXES && list[n] != NONE {
        n += 1;
    }
    let mut i = n;
    while i < MAX_AXES {
        if list[i] != NONE {
            return (n, true);
        }
        i += 1;
    }
    (n, false)
}

/// Why two static shapes do not contract along the lists (in the order
/// [`Tensor::contract`] checks).
#[derive(Clone, Copy)]
enum Fault {
    /// A list names an axis after an unused position (`right`: the right list).
    Gap { right: bool },
    /// An axis beyond its operand's rank.
    Range { right: bool, axis: usize },
    /// An axis listed twice.
    Duplicate { right: bool, axis: usize },
    /// The lists' lengths differ.
    Counts,
    /// The `i`-th pair has modes of different shapes.
    Pair(usize),
    /// The result is beyond a static shape's capacity.
    Capacity,
}

/// The modes of an operand of rank `rank` that `list` (`n` axes) names, or the first axis
/// out of range (`Err((axis, false))`) or repeated (`Err((axis, true))`).
const fn mark(
    rank: usize,
    list: &[usize; MAX_AXES],
    n: usize,
) -> Result<[bool; MAX_TOKENS], (usize, bool)> {
    let mut used = [false; MAX_TOKENS];
    let mut i = 0;
    while i < n {
        let axis = list[i];
        if axis >= rank {
            return Err((axis, false));
        }
        if used[axis] {
            return Err((axis, true));
        }
        used[axis] = true;
        i += 1;
    }
    Ok(used)
}

/// Appends the modes of `s` that `used` does not mark to `c`.
const fn push_free(
    c: Option<ShapeCode>,
    s: &ShapeCode,
    used: &[bool; MAX_TOKENS],
) -> Option<ShapeCode> {
    let mut c = c;
    let mut i = 0;
    while i < s.rank() {
        if !used[i] {
            c = match c {
                Some(c) => c.try_push(&s.mode(i)),
                None => None,
            };
        }
        i += 1;
    }
    c
}

/// The static shape of the contraction of `a` and `b` along `l` and `r` as
/// [`Tensor::contract`] builds it (the free left modes, then the free right modes), or why
/// there is none.
const fn contraction(
    a: &ShapeCode,
    b: &ShapeCode,
    l: &[usize; MAX_AXES],
    r: &[usize; MAX_AXES],
) -> Result<ShapeCode, Fault> {
    let ((nl, gl), (nr, gr)) = (count(l), count(r));
    if gl || gr {
        return Err(Fault::Gap { right: !gl });
    }
    let used_a = match mark(a.rank(), l, nl) {
        Ok(u) => u,
        Err((axis, false)) => return Err(Fault::Range { right: false, axis }),
        Err((axis, true)) => return Err(Fault::Duplicate { right: false, axis }),
    };
    let used_b = match mark(b.rank(), r, nr) {
        Ok(u) => u,
        Err((axis, false)) => return Err(Fault::Range { right: true, axis }),
        Err((axis, true)) => return Err(Fault::Duplicate { right: true, axis }),
    };
    if nl != nr {
        return Err(Fault::Counts);
    }
    let mut i = 0;
    while i < nl {
        if !a.mode(l[i]).agrees(&b.mode(r[i])) {
            return Err(Fault::Pair(i));
        }
        i += 1;
    }
    match push_free(push_free(Some(ShapeCode::EMPTY), a, &used_a), b, &used_b) {
        Some(c) => Ok(c),
        None => Err(Fault::Capacity),
    }
}

/// The name of an operand: `left` or `right`.
const fn side(right: bool) -> &'static str {
    if right { "right" } else { "left" }
}

/// Writes `list` as `[1, 2]`.
const fn axes(m: &mut Msg<'_>, list: &[usize; MAX_AXES]) {
    let (n, _) = count(list);
    m.str("[");
    let mut i = 0;
    while i < n {
        if i > 0 {
            m.str(", ");
        }
        m.uint(list[i] as u64);
        i += 1;
    }
    m.str("]");
}

/// The capacity sentence of a result too large for a static shape, then how to proceed.
const fn too_large(m: &mut Msg<'_>, instead: &str) {
    m.str("the result is larger than a static shape holds (a size that fits in i64, at most ");
    m.int(MAX_LEAVES as i64);
    m.str(" leaves and ");
    m.int(MAX_TOKENS as i64);
    m.str(" profile tokens)\n  ");
    m.str(instead);
}

/// The message of `contract` on static shapes `a` and `b` along `l` and `r` that do not
/// contract, written into `buf`; `None` when they do (or one is the result of an earlier
/// failed check). Its second line is [`Tensor::contract`]'s message after `contract: `.
pub(crate) const fn contract_message(
    a: &ShapeCode,
    b: &ShapeCode,
    l: &[usize; MAX_AXES],
    r: &[usize; MAX_AXES],
    buf: &mut [u8],
) -> Option<MsgState> {
    if a.is_poisoned() || b.is_poisoned() {
        return None;
    }
    let fault = match contraction(a, b, l, r) {
        Ok(_) => return None,
        Err(f) => f,
    };
    let mut m = Msg::new(buf);
    both_shapes(&mut m, "contract", a, b);
    m.str(" do not contract along left axes ");
    axes(&mut m, l);
    m.str(" and right axes ");
    axes(&mut m, r);
    m.str("\n  ");
    match fault {
        Fault::Gap { right } => {
            m.str("the ");
            m.str(side(right));
            m.str(" list names an axis after an unused position: write its axes first, as in Axes<1, 2>");
        }
        Fault::Range { right, axis } | Fault::Duplicate { right, axis } => {
            let range = matches!(fault, Fault::Range { .. });
            m.str("axis ");
            m.uint(axis as u64);
            m.str(if range {
                " of the "
            } else {
                " appears more than once in the "
            });
            m.str(side(right));
            if range {
                m.str(" operand is out of range for rank ");
                m.uint(if right { b.rank() } else { a.rank() } as u64);
            } else {
                m.str(" operand's axes");
            }
        }
        Fault::Counts => {
            m.uint(count(l).0 as u64);
            m.str(" left axes ");
            axes(&mut m, l);
            m.str(" but ");
            m.uint(count(r).0 as u64);
            m.str(" right axes ");
            axes(&mut m, r);
            m.str(": the lists pair by position");
        }
        Fault::Pair(i) => {
            m.str("left axis ");
            m.uint(l[i] as u64);
            m.str(" (extent ");
            m.shape(a.mode(l[i]).view());
            m.str(") and right axis ");
            m.uint(r[i] as u64);
            m.str(" (extent ");
            m.shape(b.mode(r[i]).view());
            m.str(") are paired but differ: paired extents must match exactly");
        }
        Fault::Capacity => {
            too_large(
                &mut m,
                "contract the dynamic tensors: a.as_dynamic().contract(b.as_dynamic(), &[…], &[…])",
            );
        }
    }
    m.str("\n  contract pairs left axis i with right axis i, each axis at most once; the result's modes are the free left modes, then the free right modes");
    Some(m.state())
}

/// The compile-time check of `contract`: panics (a build error) with [`contract_message`].
const fn check_contract(
    a: &ShapeCode,
    b: &ShapeCode,
    l: &[usize; MAX_AXES],
    r: &[usize; MAX_AXES],
) {
    let mut buf = [0u8; MSG_CAP];
    if let Some(st) = contract_message(a, b, l, r, &mut buf) {
        panic!("{}", st.text(&buf));
    }
}

/// The static shape of a contraction (see [`contraction`]); poisoned when the shapes do
/// not contract along the lists, so a later check accepts it silently.
pub(crate) const fn contract_shape(
    a: &ShapeCode,
    b: &ShapeCode,
    l: &[usize; MAX_AXES],
    r: &[usize; MAX_AXES],
) -> ShapeCode {
    if a.is_poisoned() || b.is_poisoned() {
        return ShapeCode::POISONED;
    }
    match contraction(a, b, l, r) {
        Ok(c) => c,
        Err(_) => ShapeCode::POISONED,
    }
}

impl<A: StaticShape, B: StaticShape, L: AxisList, R: AxisList> StaticShape
    for Contracted<A, B, L, R>
{
    const SHAPE: ShapeCode = contract_shape(&A::SHAPE, &B::SHAPE, &L::AXES, &R::AXES);
    type Extents = <A::Extents as super::code::Extents>::Or<B::Extents>;
}

/// The message of `dot` (`dot: true`) or `outer` on static shapes that are not two vectors
/// (for `dot`: of equal shapes), written into `buf`; `None` when they are (or one is the
/// result of an earlier failed check).
pub(crate) const fn vectors_message(
    dot: bool,
    a: &ShapeCode,
    b: &ShapeCode,
    buf: &mut [u8],
) -> Option<MsgState> {
    if a.is_poisoned() || b.is_poisoned() {
        return None;
    }
    let (ra, rb) = (a.rank(), b.rank());
    let op = if dot { "dot" } else { "outer" };
    let mut m = Msg::new(buf);
    if ra != 1 || rb != 1 {
        both_shapes(&mut m, op, a, b);
        m.str(" are not two vectors: ");
        if ra != 1 {
            m.str("the left operand has ");
            m.plural(ra, "top-level mode");
        }
        if ra != 1 && rb != 1 {
            m.str(" and ");
        }
        if rb != 1 {
            m.str("the right operand has ");
            m.plural(rb, "top-level mode");
        }
        m.str("\n  ");
        m.str(op);
        m.str(" takes two vectors (1 top-level mode each); matmul and contract take higher ranks");
    } else if dot && !a.agrees(b) {
        m.str(op);
        m.str(": the operands' lengths differ: ");
        m.shape(a.view());
        m.str(" on the left, ");
        m.shape(b.view());
        m.str(
            " on the right\n  dot takes two vectors of equal shape; nothing broadcasts implicitly",
        );
    } else if !dot && contract_shape(a, b, &[NONE; MAX_AXES], &[NONE; MAX_AXES]).is_poisoned() {
        both_shapes(&mut m, op, a, b);
        m.str(" have no static outer product: ");
        too_large(
            &mut m,
            "multiply the dynamic tensors: a.as_dynamic().outer(b.as_dynamic())",
        );
    } else {
        return None;
    }
    Some(m.state())
}

/// The compile-time check of `dot` and `outer`: panics (a build error) with
/// [`vectors_message`].
const fn check_vectors(dot: bool, a: &ShapeCode, b: &ShapeCode) {
    let mut buf = [0u8; MSG_CAP];
    if let Some(st) = vectors_message(dot, a, b, &mut buf) {
        panic!("{}", st.text(&buf));
    }
}

impl<T: Element, S: StaticShape> StaticTensor<T, S> {
    /// General tensor contraction of static shapes, typed: [`Tensor::contract`] with the
    /// axes given at compile time as [`Axes`] lists, `L` for `self` and `R` for `other`.
    /// `L`'s `i`-th axis pairs with `R`'s `i`-th axis; paired modes must have equal shapes
    /// (nothing broadcasts), each axis appears at most once and both lists have one length.
    /// The compiler checks all of it (a build error naming both shapes and both lists;
    /// reported by `cargo build`, not `cargo check`), and the result's static shape is
    /// [`Contracted<S, S2, L, R>`](crate::Contracted): the free modes of `self` in order,
    /// then those of `other`. The values, run-time errors and gradients are
    /// [`Tensor::contract`]'s.
    ///
    /// ```
    /// use strideweave::{Axes, StaticTensor, shape_t};
    /// let a = StaticTensor::<f64, shape_t!(2, 3, 4)>::arange();
    /// let b = StaticTensor::<f64, shape_t!(4, 5, 3)>::arange();
    /// // a's mode 1 with b's mode 2, a's mode 2 with b's mode 0.
    /// let c = a.contract::<Axes<1, 2>, Axes<2, 0>, _>(&b).unwrap();
    /// let c: StaticTensor<f64, shape_t!(2, 5)> = c.cast();
    /// let d = a.as_dynamic().contract(b.as_dynamic(), &[1, 2], &[2, 0]).unwrap();
    /// assert_eq!(c.to_vec().unwrap(), d.to_vec::<f64>().unwrap());
    /// ```
    ///
    /// Paired extents that differ do not build:
    ///
    /// ```compile_fail,E0080
    /// use strideweave::{Axes, StaticTensor, shape_t};
    /// let a = StaticTensor::<f64, shape_t!(2, 3)>::zeros();
    /// let _ = a.contract::<Axes<1>, Axes<1>, _>(&StaticTensor::<f64, shape_t!(3, 4)>::zeros());
    /// ```
    pub fn contract<L: AxisList, R: AxisList, S2: StaticShape>(
        &self,
        other: &StaticTensor<T, S2>,
    ) -> Result<StaticTensor<T, Contracted<S, S2, L, R>>> {
        const { check_contract(&S::SHAPE, &S2::SHAPE, &L::AXES, &R::AXES) };
        let (nl, nr) = (count(&L::AXES).0, count(&R::AXES).0);
        Ok(StaticTensor {
            tensor: Tensor::contract(&self.tensor, &other.tensor, &L::AXES[..nl], &R::AXES[..nr])?,
            marker: PhantomData,
        })
    }

    /// The dot product of two static vectors of equal shape: [`Tensor::dot`], a rank-0
    /// static tensor (shape `()`; read it with [`item`](Self::item)). The compiler checks
    /// that both are vectors of one shape (a build error naming both otherwise).
    ///
    /// ```
    /// use strideweave::{StaticTensor, shape_t};
    /// let a = StaticTensor::<f32, shape_t!(3)>::from_vec(vec![1.0, 2.0, 3.0]).unwrap();
    /// let b = StaticTensor::<f32, shape_t!(3)>::from_vec(vec![4.0, 5.0, 6.0]).unwrap();
    /// let d: StaticTensor<f32, ()> = a.dot(&b).unwrap();
    /// assert_eq!(d.item().unwrap(), 32.0);
    /// ```
    ///
    /// ```compile_fail,E0080
    /// use strideweave::{StaticTensor, shape_t};
    /// let a = StaticTensor::<f32, shape_t!(3)>::zeros();
    /// let _ = a.dot(&StaticTensor::<f32, shape_t!(4)>::zeros()); // lengths 3 and 4
    /// ```
    pub fn dot<S2: StaticShape>(&self, other: &StaticTensor<T, S2>) -> Result<StaticTensor<T, ()>> {
        const { check_vectors(true, &S::SHAPE, &S2::SHAPE) };
        Ok(StaticTensor {
            tensor: Tensor::dot(&self.tensor, &other.tensor)?,
            marker: PhantomData,
        })
    }

    /// The outer product of two static vectors: [`Tensor::outer`], `(n) ⊗ (m) → (n, m)`,
    /// typed as the contraction along no axes, [`Contracted<S, S2, Axes, Axes>`](crate::Contracted).
    /// The compiler checks that both are vectors.
    ///
    /// ```
    /// use strideweave::{StaticTensor, shape_t};
    /// let a = StaticTensor::<i32, shape_t!(2)>::from_vec(vec![1, 2]).unwrap();
    /// let b = StaticTensor::<i32, shape_t!(3)>::from_vec(vec![3, 4, 5]).unwrap();
    /// let c: StaticTensor<i32, shape_t!(2, 3)> = a.outer(&b).unwrap().cast();
    /// assert_eq!(c.to_vec_row_major().unwrap(), [3, 4, 5, 6, 8, 10]);
    /// ```
    ///
    /// ```compile_fail,E0080
    /// use strideweave::{StaticTensor, shape_t};
    /// let a = StaticTensor::<i32, shape_t!(2, 3)>::zeros();
    /// let _ = a.outer(&a); // matrices
    /// ```
    pub fn outer<S2: StaticShape>(
        &self,
        other: &StaticTensor<T, S2>,
    ) -> Result<StaticTensor<T, Contracted<S, S2, Axes, Axes>>> {
        const { check_vectors(false, &S::SHAPE, &S2::SHAPE) };
        Ok(StaticTensor {
            tensor: Tensor::outer(&self.tensor, &other.tensor)?,
            marker: PhantomData,
        })
    }
}

#[cfg(test)]
#[path = "contract_tests.rs"]
mod tests;
