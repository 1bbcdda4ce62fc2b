//! Arithmetic on static shapes: `+ - * /` of equal static shapes, unary `-`, and `matmul` of
//! static matrices. The compiler checks the shapes (a mismatch is one build error naming
//! both shapes) and types the result; the run-time work, its errors and its gradients are the
//! [`Tensor`](crate::Tensor) operation's.
//!
//! The operators return `Result`: the shapes cannot fail at run time, but the operation can
//! (a dtype without the operation, such as bool `-`; an integer division by zero; released
//! storage; a tensor of several subtensors), and those stay [`Error`](crate::Error)s.

use std::marker::PhantomData;
use std::ops::{Add, Div, Mul, Neg, Sub};

use super::code::{MAX_LEAVES, MAX_TOKENS, ShapeCode, StaticShape};
use super::tensor::StaticTensor;
use crate::MatMul;
use crate::dtype::Element;
use crate::error::Result;
use crate::pattern::{MSG_CAP, Msg, MsgState};
use crate::tensor::Tensor;

/// What elementwise operands must satisfy, said after the shapes.
const EQUAL_SHAPES: &str = "elementwise operands must have equal shapes; nothing broadcasts \
                            implicitly (repeat! or rearrange! an operand first)";

/// Whether two modes are the same shape, nesting included (`3` and `(3)` differ as modes).
const fn same_mode(a: &ShapeCode, b: &ShapeCode) -> bool {
    a.is_int() == b.is_int() && a.same_shape(b)
}

/// The message of an elementwise operator (`op`, e.g. ``add (`+`)``) on static shapes `a`
/// and `b` that differ, written into `buf`; `None` when the operands agree (or one is the
/// result of an earlier failed check).
pub(crate) const fn elementwise_message(
    op: &str,
    a: &ShapeCode,
    b: &ShapeCode,
    buf: &mut [u8],
) -> Option<MsgState> {
    if a.is_poisoned() || b.is_poisoned() || a.same_shape(b) {
        return None;
    }
    let mut m = Msg::new(buf);
    m.str(op);
    m.str(": the operands' static shapes differ: ");
    m.shape(a.view());
    m.str(" on the left, ");
    m.shape(b.view());
    m.str(" on the right\n  ");
    let (ra, rb) = (a.rank(), b.rank());
    if ra != rb {
        m.str("the left has ");
        m.plural(ra, "top-level mode");
        m.str(", the right ");
        m.int(rb as i64);
    } else {
        let mut i = 0;
        while i < ra && same_mode(&a.mode(i), &b.mode(i)) {
            i += 1;
        }
        // Some mode differs: equal modes make equal shapes.
        m.str("mode ");
        m.int(i as i64);
        m.str(" is ");
        m.shape(a.mode(i).view());
        m.str(" on the left and ");
        m.shape(b.mode(i).view());
        m.str(" on the right");
    }
    m.str("\n  ");
    m.str(EQUAL_SHAPES);
    Some(m.state())
}

/// The compile-time check of an elementwise operator: panics (a build error) with
/// [`elementwise_message`].
const fn check_elementwise(op: &str, a: &ShapeCode, b: &ShapeCode) {
    let mut buf = [0u8; MSG_CAP];
    if let Some(st) = elementwise_message(op, a, b, &mut buf) {
        panic!("{}", st.text(&buf));
    }
}

/// Whether a static product `a · b` has a result that a [`ShapeCode`] holds: its size fits
/// in `i64` and its leaves and tokens fit the capacity.
const fn product_fits(rows: &ShapeCode, cols: &ShapeCode) -> bool {
    let nest = !rows.is_int() as usize + !cols.is_int() as usize;
    let size = match rows.checked_size() {
        Some(r) => match cols.checked_size() {
            Some(c) => r.checked_mul(c),
            None => None,
        },
        None => None,
    };
    size.is_some()
        && rows.leaves().len() + cols.leaves().len() <= MAX_LEAVES
        && rows.ntoks as usize + cols.ntoks as usize + 2 * nest <= MAX_TOKENS
}

/// Whether static shapes `a` and `b` are matrices whose product a static shape holds.
const fn multiplies(a: &ShapeCode, b: &ShapeCode) -> bool {
    a.rank() == 2
        && b.rank() == 2
        && a.mode(1).same_shape(&b.mode(0))
        && product_fits(&a.mode(0), &b.mode(1))
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
    if multiplies(a, b) {
        return None;
    }
    let (ra, rb) = (a.rank(), b.rank());
    let inner = ra == 2 && rb == 2 && a.mode(1).same_shape(&b.mode(0));
    let mut m = Msg::new(buf);
    m.str("matmul: the static shapes ");
    m.shape(a.view());
    m.str(" and ");
    m.shape(b.view());
    m.str(" do not multiply: ");
    if ra != 2 || rb != 2 {
        if ra != 2 {
            m.str("the left operand has ");
            m.plural(ra, "top-level mode");
        }
        if ra != 2 && rb != 2 {
            m.str(" and ");
        }
        if rb != 2 {
            m.str("the right operand has ");
            m.plural(rb, "top-level mode");
        }
        m.str("\n  matmul takes matrices: 2 top-level modes (rows, columns) each");
    } else if !inner {
        m.str("the left operand's columns (mode 1) are ");
        m.shape(a.mode(1).view());
        m.str(", the right operand's rows (mode 0) are ");
        m.shape(b.mode(0).view());
        m.str("\n  (m, k) · (k, n) needs the left operand's column mode and the right operand's row mode equal");
    } else {
        m.str("the result (");
        m.shape(a.mode(0).view());
        m.str(",");
        m.shape(b.mode(1).view());
        m.str(") is larger than a static shape holds (a size that fits in i64, at most ");
        m.int(MAX_LEAVES as i64);
        m.str(" leaves and ");
        m.int(MAX_TOKENS as i64);
        m.str(" profile tokens)\n  multiply the dynamic tensors: a.as_dynamic().matmul(b.as_dynamic())");
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

/// The static shape of `a · b`: rows of `a`, columns of `b`, each mode keeping its nesting
/// (as [`Tensor::matmul`] builds it); poisoned when the shapes do not multiply, so a later
/// check accepts it silently.
pub(crate) const fn matmul_shape(a: &ShapeCode, b: &ShapeCode) -> ShapeCode {
    if a.is_poisoned() || b.is_poisoned() || !multiplies(a, b) {
        return ShapeCode::POISONED;
    }
    ShapeCode::tuple(&[a.mode(0), b.mode(1)])
}

impl<A: StaticShape, B: StaticShape> StaticShape for MatMul<A, B> {
    const SHAPE: ShapeCode = matmul_shape(&A::SHAPE, &B::SHAPE);
}

impl<T: Element, S: StaticShape> StaticTensor<T, S> {
    /// The matrix product of two static matrices, `(m, k) · (k, n) → (m, n)`, typed: the
    /// compiler checks that both shapes have two top-level modes and that the left
    /// operand's column mode equals the right operand's row mode (a build error naming both
    /// shapes otherwise; reported by `cargo build`, not `cargo check`), and the result's
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

/// `&a + &b`: [`Tensor::add`] of two static tensors of equal static shapes, checked at
/// compile time (a build error naming both shapes otherwise, reported by `cargo build`); the
/// result has the left operand's static shape. Returns `Result`: the shapes cannot fail at run
/// time, the operation still can (see [`Tensor::add`]).
///
/// ```
/// use strideweave::{StaticTensor, rearrange, shape_t};
/// let a = StaticTensor::<f32, shape_t!(2, 3)>::arange();
/// let b = rearrange!(StaticTensor::<f32, shape_t!(3, 2)>::arange(), "a b -> b a"); // (2,3)
/// let c = (&a + &b).unwrap();
/// assert_eq!(c.to_vec().unwrap(), [0.0, 4.0, 3.0, 7.0, 6.0, 10.0]);
/// let twice = (&c + &c).unwrap();
/// assert_eq!(twice.to_vec().unwrap()[1], 8.0);
/// ```
///
/// ```compile_fail,E0080
/// use strideweave::{StaticTensor, shape_t};
/// let a = StaticTensor::<f32, shape_t!(2, 3)>::zeros();
/// let _ = &a + &StaticTensor::<f32, shape_t!(3, 2)>::zeros(); // (2,3) against (3,2)
/// ```
impl<'b, T: Element, S: StaticShape, S2: StaticShape> Add<&'b StaticTensor<T, S2>>
    for &StaticTensor<T, S>
{
    type Output = Result<StaticTensor<T, S>>;

    fn add(self, rhs: &'b StaticTensor<T, S2>) -> Self::Output {
        // The check in the operator's own body: a failure names the user's line as the
        // place of instantiation (written out per operator, not by a macro, so that rustc
        // does not quote a macro invocation in the error).
        const { check_elementwise("add (`+`)", &S::SHAPE, &S2::SHAPE) };
        Ok(StaticTensor {
            tensor: Tensor::add(&self.tensor, &rhs.tensor)?,
            marker: PhantomData,
        })
    }
}

/// `&a - &b`: [`Tensor::sub`] of equal static shapes (see the `+` impl); bool has no `-`,
/// a run-time `Type` error.
///
/// ```
/// use strideweave::{StaticTensor, shape_t};
/// let a = StaticTensor::<i32, shape_t!(3)>::from_vec(vec![5, 7, 9]).unwrap();
/// let b = StaticTensor::<i32, shape_t!(3)>::arange();
/// assert_eq!((&a - &b).unwrap().to_vec().unwrap(), [5, 6, 7]);
/// let m = StaticTensor::<bool, shape_t!(3)>::zeros();
/// assert!((&m - &m).unwrap_err().to_string().starts_with("sub: "));
/// ```
impl<'b, T: Element, S: StaticShape, S2: StaticShape> Sub<&'b StaticTensor<T, S2>>
    for &StaticTensor<T, S>
{
    type Output = Result<StaticTensor<T, S>>;

    fn sub(self, rhs: &'b StaticTensor<T, S2>) -> Self::Output {
        // The check in the operator's own body: a failure names the user's line as the
        // place of instantiation (written out per operator, not by a macro, so that rustc
        // does not quote a macro invocation in the error).
        const { check_elementwise("sub (`-`)", &S::SHAPE, &S2::SHAPE) };
        Ok(StaticTensor {
            tensor: Tensor::sub(&self.tensor, &rhs.tensor)?,
            marker: PhantomData,
        })
    }
}

/// `&a * &b`: [`Tensor::mul`], elementwise, of equal static shapes (see the `+` impl; a
/// matrix product is [`StaticTensor::matmul`]).
///
/// ```
/// use strideweave::{StaticTensor, shape_t};
/// let a = StaticTensor::<f64, shape_t!(2, 2)>::arange();
/// assert_eq!((&a * &a).unwrap().to_vec().unwrap(), [0.0, 1.0, 4.0, 9.0]);
/// ```
impl<'b, T: Element, S: StaticShape, S2: StaticShape> Mul<&'b StaticTensor<T, S2>>
    for &StaticTensor<T, S>
{
    type Output = Result<StaticTensor<T, S>>;

    fn mul(self, rhs: &'b StaticTensor<T, S2>) -> Self::Output {
        // The check in the operator's own body: a failure names the user's line as the
        // place of instantiation (written out per operator, not by a macro, so that rustc
        // does not quote a macro invocation in the error).
        const { check_elementwise("mul (`*`)", &S::SHAPE, &S2::SHAPE) };
        Ok(StaticTensor {
            tensor: Tensor::mul(&self.tensor, &rhs.tensor)?,
            marker: PhantomData,
        })
    }
}

/// `&a / &b`: [`Tensor::div`] of equal static shapes (see the `+` impl); an integer
/// division by zero is a run-time [`Error::DivisionByZero`](crate::Error::DivisionByZero).
///
/// ```
/// use strideweave::{StaticTensor, shape_t};
/// let a = StaticTensor::<i64, shape_t!(2)>::from_vec(vec![-7, 8]).unwrap();
/// let b = StaticTensor::<i64, shape_t!(2)>::from_vec(vec![2, 0]).unwrap();
/// assert_eq!((&a / &a).unwrap().to_vec().unwrap(), [1, 1]);
/// assert!((&a / &b).unwrap_err().to_string().starts_with("div: "));
/// ```
impl<'b, T: Element, S: StaticShape, S2: StaticShape> Div<&'b StaticTensor<T, S2>>
    for &StaticTensor<T, S>
{
    type Output = Result<StaticTensor<T, S>>;

    fn div(self, rhs: &'b StaticTensor<T, S2>) -> Self::Output {
        // The check in the operator's own body: a failure names the user's line as the
        // place of instantiation (written out per operator, not by a macro, so that rustc
        // does not quote a macro invocation in the error).
        const { check_elementwise("div (`/`)", &S::SHAPE, &S2::SHAPE) };
        Ok(StaticTensor {
            tensor: Tensor::div(&self.tensor, &rhs.tensor)?,
            marker: PhantomData,
        })
    }
}

/// `-&a`: [`Tensor::neg`], of the same static shape. Returns `Result` like the binary
/// operators (bool has no negation: a run-time `Type` error).
///
/// ```
/// use strideweave::{StaticTensor, shape_t};
/// let a = StaticTensor::<f32, shape_t!(2)>::arange();
/// assert_eq!((-&a).unwrap().to_vec().unwrap(), [-0.0, -1.0]);
/// ```
impl<T: Element, S: StaticShape> Neg for &StaticTensor<T, S> {
    type Output = Result<StaticTensor<T, S>>;

    fn neg(self) -> Self::Output {
        Ok(StaticTensor {
            tensor: Tensor::neg(&self.tensor)?,
            marker: PhantomData,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Leaf;

    type L<const N: i64> = Leaf<N>;

    fn elementwise(a: &ShapeCode, b: &ShapeCode) -> Option<String> {
        let mut buf = [0u8; MSG_CAP];
        elementwise_message("add (`+`)", a, b, &mut buf).map(|st| st.text(&buf).to_string())
    }

    fn matmul(a: &ShapeCode, b: &ShapeCode) -> Option<String> {
        let mut buf = [0u8; MSG_CAP];
        matmul_message(a, b, &mut buf).map(|st| st.text(&buf).to_string())
    }

    #[test]
    fn elementwise_messages_name_both_shapes_and_the_first_difference() {
        type A = (L<2>, (L<3>, L<4>));
        assert_eq!(elementwise(&A::SHAPE, &A::SHAPE), None);
        assert_eq!(
            elementwise(&<Leaf<3>>::SHAPE, &<(Leaf<3>,)>::SHAPE),
            None,
            "`3` and `(3)` agree at the root"
        );
        let got = elementwise(&A::SHAPE, &<(L<2>, L<12>)>::SHAPE).unwrap();
        assert_eq!(
            got.lines().take(2).collect::<Vec<_>>(),
            [
                "add (`+`): the operands' static shapes differ: (2,(3,4)) on the left, (2,12) on the right",
                "  mode 1 is (3,4) on the left and 12 on the right",
            ]
        );
        let got = elementwise(&<(L<2>, (L<3>,))>::SHAPE, &<(L<2>, L<3>)>::SHAPE).unwrap();
        assert!(
            got.contains("mode 1 is (3) on the left and 3 on the right"),
            "{got}"
        );
        let got = elementwise(&<(L<2>,)>::SHAPE, &<(L<2>, L<1>)>::SHAPE).unwrap();
        assert!(
            got.contains("the left has 1 top-level mode, the right 2"),
            "{got}"
        );
        assert_eq!(elementwise(&ShapeCode::POISONED, &<(L<2>,)>::SHAPE), None);
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
            got.contains("the left operand has 3 top-level modes and the right operand has 1 top-level mode\n"),
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

    /// Shapes whose pairs cover equal, permuted, re-nested, int-against-tuple and
    /// rank-differing operands.
    const SHAPES: &[&str] = &[
        "(2,3)",
        "(2,(3))",
        "(3,2)",
        "(2,3,1)",
        "((2,3))",
        "6",
        "(6)",
        "(2,(3,1))",
        "(1,3)",
        "((2,1),3)",
        "(3,(2,1))",
        "((3,1),4)",
        "(2)",
        "()",
        "((2,3),(3))",
    ];

    #[test]
    fn the_static_checks_agree_with_the_runtime_operations() {
        for a in SHAPES {
            for b in SHAPES {
                let (sa, sb): (crate::Shape, crate::Shape) =
                    (a.parse().unwrap(), b.parse().unwrap());
                let (ca, cb) = (
                    ShapeCode::from_shape(&sa).unwrap(),
                    ShapeCode::from_shape(&sb).unwrap(),
                );
                let (ta, tb) = (Tensor::zeros::<f64>(&sa), Tensor::zeros::<f64>(&sb));
                let mut buf = [0u8; MSG_CAP];
                assert_eq!(
                    elementwise_message("add", &ca, &cb, &mut buf).is_none(),
                    ta.add(&tb).is_ok(),
                    "{a} + {b}"
                );
                // Static `matmul` types matrix × matrix only; `Tensor::matmul`'s vector and
                // batched forms are refused at compile time (use `Tensor` for them).
                if sa.rank() != 2 || sb.rank() != 2 {
                    assert!(!multiplies(&ca, &cb), "{a} · {b}");
                    continue;
                }
                let product = ta.matmul(&tb);
                assert_eq!(multiplies(&ca, &cb), product.is_ok(), "{a} · {b}");
                if let Ok(c) = product {
                    let code = matmul_shape(&ca, &cb);
                    assert_eq!(&code.to_shape(), c.shape(), "{a} · {b}");
                    assert_eq!(code.to_string(), c.shape().to_string(), "{a} · {b}");
                }
            }
        }
    }

    /// The compile-time message of a recorded ui case: the text after "evaluation
    /// panicked: ", with rustc's indentation of continuation lines removed.
    fn recorded(case: &str) -> String {
        let path = format!(
            "{}/../ui-tests/fail/{case}.stderr",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let (_, rest) = text
            .split_once("error[E0080]: evaluation panicked: ")
            .unwrap_or_else(|| panic!("{case}: no const-evaluation error"));
        let mut lines = rest.lines();
        let mut message = lines.next().expect("a first line").to_string();
        for line in lines.take_while(|l| !l.trim_start().starts_with("--> ")) {
            message.push('\n');
            message.push_str(line.strip_prefix("              ").unwrap_or(line));
        }
        message
    }

    #[test]
    fn the_ui_snapshots_record_these_messages() {
        let code = |s: &str| ShapeCode::from_shape(&s.parse().unwrap()).unwrap();
        let elementwise = |op, a, b| {
            let mut buf = [0u8; MSG_CAP];
            let st = elementwise_message(op, &code(a), &code(b), &mut buf).unwrap();
            st.text(&buf).to_string()
        };
        let product = |a, b| {
            let mut buf = [0u8; MSG_CAP];
            let st = matmul_message(&code(a), &code(b), &mut buf).unwrap();
            st.text(&buf).to_string()
        };
        let cases = [
            (
                "arith_add_rank_differs",
                elementwise("add (`+`)", "(2,3)", "(2,3,4)"),
            ),
            (
                "arith_sub_extent_differs",
                elementwise("sub (`-`)", "(2,3)", "(2,4)"),
            ),
            (
                "arith_mul_nesting_differs",
                elementwise("mul (`*`)", "(2,(3,4))", "(2,12)"),
            ),
            (
                "arith_div_after_rearrange",
                elementwise("div (`/`)", "(3,2)", "(2,3)"),
            ),
            ("arith_matmul_inner_extents", product("(2,3)", "(4,5)")),
            ("arith_matmul_not_a_matrix", product("(2,3,4)", "(4,5)")),
            ("arith_no_cascade", product("(2,3)", "(2,3)")),
        ];
        for (case, message) in cases {
            assert_eq!(recorded(case), message, "{case}");
        }
    }
}
