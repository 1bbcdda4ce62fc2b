//! `StaticTensor::matmul`: [`Tensor::matmul`]'s shape rule on static shapes, in const
//! context — matrix × matrix, matrix × vector, vector × matrix and batched matrices (equal
//! ranks ≥ 3, equal leading modes, nothing broadcasts); two vectors are refused, pointing
//! at `dot` and `outer`. The compiler checks the shapes (a mismatch is one build error
//! naming both shapes) and types the result as [`MatMul<S, S2>`](crate::MatMul); the
//! run-time work, its errors and its gradients are [`Tensor::matmul`]'s.

use std::marker::PhantomData;

use super::arith::{both_shapes, modes_differ};
use super::code::{MAX_LEAVES, MAX_TOKENS, ShapeCode, StaticShape};
use super::tensor::StaticTensor;
use crate::MatMul;
use crate::dtype::Element;
use crate::error::Result;
use crate::pattern::{MSG_CAP, Msg, MsgState};
use crate::tensor::Tensor;

/// Why two static shapes do not multiply (in the order [`Tensor::matmul`] checks).
#[derive(Clone, Copy)]
enum Fault {
    /// Two vectors: a dot or an outer product is meant.
    Vectors,
    /// Ranks that no form of the product takes.
    Ranks,
    /// Batch mode `i` differs.
    Batch(usize),
    /// The left operand's inner mode `p` and the right operand's inner mode `q` differ.
    Inner(usize, usize),
    /// The result is beyond a static shape's capacity.
    Capacity,
}

/// Appends the top-level modes of `s` from `from` on, except mode `skip`, to `c` (`None`
/// stays `None`, and beyond the capacity gives `None`).
pub(crate) const fn push_modes(
    c: Option<ShapeCode>,
    s: &ShapeCode,
    from: usize,
    skip: usize,
) -> Option<ShapeCode> {
    let mut c = match c {
        Some(c) => c,
        None => return None,
    };
    let mut i = from;
    while i < s.rank() {
        if i != skip {
            c = match c.try_push(&s.mode(i)) {
                Some(c) => c,
                None => return None,
            };
        }
        i += 1;
    }
    Some(c)
}

/// The static shape of `a · b` as [`Tensor::matmul`] builds it (the left operand's modes
/// but its inner one, then the right operand's after its batch modes but its inner one,
/// each keeping its nesting), or why there is none.
const fn product(a: &ShapeCode, b: &ShapeCode) -> Result<ShapeCode, Fault> {
    let (ra, rb) = (a.rank(), b.rank());
    let (p, q) = match (ra, rb) {
        (2, 1) => (1, 0),
        (1, 2) => (0, 0),
        (1, 1) => return Err(Fault::Vectors),
        _ if ra == rb && ra >= 2 => (ra - 1, ra - 2),
        _ => return Err(Fault::Ranks),
    };
    let batch = if ra == rb { ra - 2 } else { 0 };
    let mut i = 0;
    while i < batch {
        if !a.mode(i).agrees(&b.mode(i)) {
            return Err(Fault::Batch(i));
        }
        i += 1;
    }
    if !a.mode(p).agrees(&b.mode(q)) {
        return Err(Fault::Inner(p, q));
    }
    let left = push_modes(Some(ShapeCode::EMPTY), a, 0, p);
    match push_modes(left, b, batch, q) {
        Some(c) => Ok(c),
        None => Err(Fault::Capacity),
    }
}

/// Whether static shapes `a` and `b` multiply (into a shape a static shape holds).
#[cfg(test)]
pub(crate) const fn multiplies(a: &ShapeCode, b: &ShapeCode) -> bool {
    product(a, b).is_ok()
}

/// Names the inner mode `i` of an operand of rank `r` (`side`: `left`/`right`).
const fn inner_role(m: &mut Msg<'_>, side: &str, r: usize, i: usize, matrix_role: &str) {
    m.str("the ");
    m.str(side);
    if r == 1 {
        m.str(" vector's length (mode 0) is ");
    } else {
        m.str(" operand's ");
        m.str(matrix_role);
        m.str(" (mode ");
        m.int(i as i64);
        m.str(") are ");
    }
}

/// The message of `matmul` on static shapes `a` and `b` that do not multiply, written into
/// `buf`; `None` when they do (or one is the result of an earlier failed check).
pub(crate) const fn matmul_message(
    a: &ShapeCode,
    b: &ShapeCode,
    buf: &mut [u8],
) -> Option<MsgState> {
    if a.is_poisoned() || b.is_poisoned() {
        return None;
    }
    let fault = match product(a, b) {
        Ok(_) => return None,
        Err(f) => f,
    };
    let (ra, rb) = (a.rank(), b.rank());
    let mut m = Msg::new(buf);
    both_shapes(&mut m, "matmul", a, b);
    m.str(" do not multiply: ");
    match fault {
        Fault::Vectors => {
            m.str("both are vectors (1 top-level mode each), and two vectors have no matrix product\n  ");
            m.str("use a.dot(&b) for Σ aᵢ·bᵢ (rank 0) or a.outer(&b) for aᵢ·bⱼ (rank 2)");
        }
        Fault::Ranks => {
            m.str("the left operand has ");
            m.plural(ra, "top-level mode");
            m.str(", the right operand ");
            m.int(rb as i64);
            m.str("\n  matmul takes matrix × matrix (2 and 2 top-level modes), matrix × vector (2 and 1), vector × matrix (1 and 2), or batches of matrices (equal ranks of 3 or more)");
        }
        Fault::Batch(i) => {
            modes_differ(&mut m, "batch mode", i, a, b);
            m.str("\n  the leading (batch) modes must be equal: nothing broadcasts implicitly (repeat! an operand first)");
        }
        Fault::Inner(p, q) => {
            inner_role(&mut m, "left", ra, p, "columns");
            m.shape(a.mode(p).view());
            m.str(", ");
            inner_role(&mut m, "right", rb, q, "rows");
            m.shape(b.mode(q).view());
            m.str("\n  the inner modes must be equal: (m, k) · (k, n), (m, k) · (k), (k) · (k, n), (b…, m, k) · (b…, k, n)");
        }
        Fault::Capacity => {
            m.str(
                "the result is larger than a static shape holds (a size that fits in i64, at most ",
            );
            m.int(MAX_LEAVES as i64);
            m.str(" leaves and ");
            m.int(MAX_TOKENS as i64);
            m.str(" profile tokens)\n  multiply the dynamic tensors: a.as_dynamic().matmul(b.as_dynamic())");
        }
    }
    Some(m.state())
}

/// The compile-time check of `matmul`: panics (a build error) with [`matmul_message`].
const fn check_matmul(a: &ShapeCode, b: &ShapeCode) {
    let mut buf = [0u8; MSG_CAP];
    if let Some(st) = matmul_message(a, b, &mut buf) {
        panic!("{}", st.text(&buf));
    }
}

/// The static shape of `a · b` (see [`product`]); poisoned when the shapes do not
/// multiply, so a later check accepts it silently.
pub(crate) const fn matmul_shape(a: &ShapeCode, b: &ShapeCode) -> ShapeCode {
    if a.is_poisoned() || b.is_poisoned() {
        return ShapeCode::POISONED;
    }
    match product(a, b) {
        Ok(c) => c,
        Err(_) => ShapeCode::POISONED,
    }
}

impl<A: StaticShape, B: StaticShape> StaticShape for MatMul<A, B> {
    const SHAPE: ShapeCode = matmul_shape(&A::SHAPE, &B::SHAPE);
    type Extents = <A::Extents as super::code::Extents>::Or<B::Extents>;
}

impl<T: Element, S: StaticShape> StaticTensor<T, S> {
    /// The matrix product of static shapes, typed, in [`Tensor::matmul`]'s forms: matrix ×
    /// matrix `(m, k) · (k, n) → (m, n)`, matrix × vector `(m, k) · (k) → (m)`, vector ×
    /// matrix `(k) · (k, n) → (n)`, and batched `(b…, m, k) · (b…, k, n) → (b…, m, n)`
    /// (equal ranks of 3 or more, equal batch modes: nothing broadcasts). The compiler
    /// checks the ranks, the batch modes and the inner modes (a build error naming both
    /// shapes otherwise; reported by `cargo build`, not `cargo check`); two vectors are
    /// refused, pointing at [`dot`](Self::dot) and [`outer`](Self::outer). The result's
    /// static shape is [`MatMul<S, S2>`](crate::MatMul). The product is
    /// [`Tensor::matmul`]'s: its values, its run-time errors (a dtype without a matrix
    /// product, released storage), its gradients.
    ///
    /// ```
    /// use strideweave::{StaticTensor, shape_t};
    /// let a = StaticTensor::<f64, shape_t!(2, 3)>::from_vec(vec![1.0, 4.0, 2.0, 5.0, 3.0, 6.0]).unwrap();
    /// let b = StaticTensor::<f64, shape_t!(3, 1)>::from_vec(vec![1.0, 1.0, 1.0]).unwrap();
    /// let c = a.matmul(&b).unwrap(); // StaticTensor<f64, MatMul<…>>, of shape (2,1)
    /// let c: StaticTensor<f64, shape_t!(2, 1)> = c.cast();
    /// assert_eq!(c.to_vec().unwrap(), [6.0, 15.0]);
    ///
    /// // Matrix × vector, and a batch of two (2,3) · (3,4) products.
    /// let v = StaticTensor::<f64, shape_t!(3)>::from_vec(vec![1.0, 0.0, -1.0]).unwrap();
    /// let av: StaticTensor<f64, shape_t!(2,)> = a.matmul(&v).unwrap().cast();
    /// assert_eq!(av.to_vec().unwrap(), [-2.0, -2.0]);
    /// let x = StaticTensor::<f32, shape_t!(2, 2, 3)>::arange();
    /// let y = StaticTensor::<f32, shape_t!(2, 3, 4)>::arange();
    /// assert_eq!(x.matmul(&y).unwrap().shape().to_string(), "(2,2,4)");
    /// ```
    ///
    /// Inner modes that differ do not build:
    ///
    /// ```compile_fail,E0080
    /// use strideweave::{StaticTensor, shape_t};
    /// let a = StaticTensor::<f64, shape_t!(2, 3)>::zeros();
    /// let _ = a.matmul(&StaticTensor::<f64, shape_t!(4, 2)>::zeros());
    /// ```
    pub fn matmul<S2: StaticShape>(
        &self,
        other: &StaticTensor<T, S2>,
    ) -> Result<StaticTensor<T, MatMul<S, S2>>> {
        const { check_matmul(&S::SHAPE, &S2::SHAPE) };
        Ok(StaticTensor {
            tensor: Tensor::matmul(&self.tensor, &other.tensor)?,
            marker: PhantomData,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Leaf;
    use crate::statics::arith::tests::{SHAPES, code, recorded};

    type L<const N: i64> = Leaf<N>;

    fn matmul(a: &ShapeCode, b: &ShapeCode) -> Option<String> {
        let mut buf = [0u8; MSG_CAP];
        matmul_message(a, b, &mut buf).map(|st| st.text(&buf).to_string())
    }

    #[test]
    fn matmul_shapes_keep_the_outer_modes_nesting() {
        type A = ((L<2>, L<3>), L<4>);
        type B = (L<4>, (L<5>, L<1>));
        assert_eq!(matmul(&A::SHAPE, &B::SHAPE), None);
        assert_eq!(<MatMul<A, B>>::SHAPE.to_string(), "((2,3),(5,1))");
        assert!(<MatMul<A, A>>::SHAPE.is_poisoned());
        assert!(<MatMul<crate::__private::Poisoned, B>>::SHAPE.is_poisoned());
        assert_eq!(
            matmul(&A::SHAPE, &A::SHAPE).unwrap().lines().next(),
            Some(
                "matmul: the static shapes ((2,3),4) and ((2,3),4) do not multiply: the left operand's columns (mode 1) are 4, the right operand's rows (mode 0) are (2,3)"
            )
        );
        let got = matmul(&<(L<2>, L<3>, L<4>)>::SHAPE, &<(L<4>,)>::SHAPE).unwrap();
        assert!(
            got.contains("the left operand has 3 top-level modes, the right operand 1\n"),
            "{got}"
        );
    }

    #[test]
    fn static_matmul_takes_the_vector_and_batched_forms() {
        type M = (L<2>, (L<3>, L<1>));
        type V = (L<3>, L<1>);
        // Matrix × vector and vector × matrix: the vector's one mode is the inner mode.
        assert_eq!(<MatMul<M, (V,)>>::SHAPE.to_string(), "(2)");
        assert_eq!(<MatMul<(L<2>,), M>>::SHAPE.to_string(), "((3,1))");
        // Batched: the batch modes come from the left operand, nesting kept.
        type X = ((L<2>, L<2>), L<4>, L<3>);
        type Y = ((L<2>, L<2>), L<3>, (L<5>, L<1>));
        assert_eq!(<MatMul<X, Y>>::SHAPE.to_string(), "((2,2),4,(5,1))");
        let got = matmul(&X::SHAPE, &<(L<4>, L<4>, L<3>)>::SHAPE).unwrap();
        assert!(
            got.contains("batch mode 0 is (2,2) on the left and 4 on the right"),
            "{got}"
        );
        let got = matmul(&<(L<3>,)>::SHAPE, &<L<3>>::SHAPE).unwrap();
        assert!(got.contains("both are vectors"), "{got}");
        assert!(
            got.contains("a.dot(&b)") && got.contains("a.outer(&b)"),
            "{got}"
        );
        let got = matmul(&M::SHAPE, &<L<4>>::SHAPE).unwrap();
        assert!(
            got.contains("the left operand's columns (mode 1) are (3,1), the right vector's length (mode 0) is 4"),
            "{got}"
        );
    }

    #[test]
    fn a_product_beyond_a_static_shapes_capacity_is_refused() {
        type Big = (L<4294967296>, L<1>);
        type Wide = (L<1>, L<4294967296>);
        let got = matmul(&Big::SHAPE, &Wide::SHAPE).unwrap();
        assert!(got.contains("is larger than a static shape holds"), "{got}");
        assert!(<MatMul<Big, Wide>>::SHAPE.is_poisoned());
    }

    /// Shapes of the batched and vector forms, beside the matrices of [`SHAPES`].
    const MORE: &[&str] = &[
        "(2,2,3)",
        "(2,3,2)",
        "((2,1),2,3)",
        "(2,(3),2)",
        "(3,2,3)",
        "(2,2,3,2)",
        "(3)",
        "((3))",
        "((3,1))",
    ];

    #[test]
    fn the_static_matmul_rule_agrees_with_tensor_matmul() {
        let all: Vec<&str> = SHAPES.iter().chain(MORE).copied().collect();
        let mut accepted = 0;
        for a in &all {
            for b in &all {
                let (sa, sb): (crate::Shape, crate::Shape) =
                    (a.parse().unwrap(), b.parse().unwrap());
                let (ca, cb) = (code(a), code(b));
                let product = Tensor::zeros::<f64>(&sa).matmul(&Tensor::zeros::<f64>(&sb));
                assert_eq!(multiplies(&ca, &cb), product.is_ok(), "{a} · {b}");
                if let Ok(c) = product {
                    accepted += 1;
                    let code = matmul_shape(&ca, &cb);
                    assert_eq!(&code.to_shape(), c.shape(), "{a} · {b}");
                    assert_eq!(code.to_string(), c.shape().to_string(), "{a} · {b}");
                }
            }
        }
        assert!(accepted > 40, "{accepted} products accepted");
    }

    #[test]
    fn the_ui_snapshots_record_these_messages() {
        let product = |a, b| matmul(&code(a), &code(b)).unwrap();
        let cases = [
            ("arith_matmul_inner_extents", product("(2,3)", "(4,5)")),
            ("arith_matmul_not_a_matrix", product("(2,3,4)", "(4,5)")),
            ("arith_no_cascade", product("(2,3)", "(2,3)")),
            ("arith_matmul_two_vectors", product("3", "3")),
            ("arith_matmul_batch_differs", product("(2,3,4)", "(3,4,5)")),
            ("arith_matmul_vector_length", product("(2,3)", "4")),
        ];
        for (case, message) in cases {
            assert_eq!(recorded(case), message, "{case}");
        }
    }
}
