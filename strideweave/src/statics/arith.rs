//! Arithmetic on static shapes: `+ - * /` of equal static shapes and unary `-` (`matmul` is
//! `statics/matmul.rs`, `contract`/`dot`/`outer` `statics/contract.rs`, scalar operands
//! `statics/scalar.rs`). The compiler checks the shapes (a mismatch is one build error
//! naming both shapes) and types the result; the run-time work, its errors and its gradients
//! are the [`Tensor`](crate::Tensor) operation's.
//!
//! The operators return `Result`: the shapes cannot fail at run time, but the operation can
//! (a dtype without the operation, such as bool `-`; an integer division by zero; released
//! storage; a tensor of several subtensors), and those stay [`Error`](crate::Error)s.

use std::marker::PhantomData;
use std::ops::{Add, Div, Mul, Neg, Sub};

use super::code::{ShapeCode, StaticShape};
use super::tensor::StaticTensor;
use crate::dtype::Element;
use crate::error::Result;
use crate::pattern::{MSG_CAP, Msg, MsgState};
use crate::tensor::Tensor;

/// What elementwise operands must satisfy, said after the shapes.
const EQUAL_SHAPES: &str = "elementwise operands must have equal shapes; nothing broadcasts \
                            implicitly (repeat! or rearrange! an operand first)";

/// Whether two modes can be the same shape at run time, nesting included (`3` and `(3)`
/// differ as modes; `_` agrees with any extent: the run time checks it).
pub(super) const fn same_mode(a: &ShapeCode, b: &ShapeCode) -> bool {
    a.is_int() == b.is_int() && a.agrees(b)
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
    if a.is_poisoned() || b.is_poisoned() || a.agrees(b) {
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
        modes_differ(&mut m, "mode", i, a, b);
    }
    m.str("\n  ");
    m.str(EQUAL_SHAPES);
    Some(m.state())
}

/// Writes `op: the static shapes A and B`, the opening of the messages of the static
/// products.
pub(crate) const fn both_shapes(m: &mut Msg<'_>, op: &str, a: &ShapeCode, b: &ShapeCode) {
    m.str(op);
    m.str(": the static shapes ");
    m.shape(a.view());
    m.str(" and ");
    m.shape(b.view());
}

/// Writes `what i is X on the left and Y on the right`, `X` and `Y` being mode `i` of `a`
/// and of `b`.
pub(crate) const fn modes_differ(
    m: &mut Msg<'_>,
    what: &str,
    i: usize,
    a: &ShapeCode,
    b: &ShapeCode,
) {
    m.str(what);
    m.str(" ");
    m.int(i as i64);
    m.str(" is ");
    m.shape(a.mode(i).view());
    m.str(" on the left and ");
    m.shape(b.mode(i).view());
    m.str(" on the right");
}

/// The compile-time check of an elementwise operator: panics (a build error) with
/// [`elementwise_message`].
const fn check_elementwise(op: &str, a: &ShapeCode, b: &ShapeCode) {
    let mut buf = [0u8; MSG_CAP];
    if let Some(st) = elementwise_message(op, a, b, &mut buf) {
        panic!("{}", st.text(&buf));
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
pub(crate) mod tests {
    use super::*;
    use crate::Leaf;

    type L<const N: i64> = Leaf<N>;

    fn elementwise(a: &ShapeCode, b: &ShapeCode) -> Option<String> {
        let mut buf = [0u8; MSG_CAP];
        elementwise_message("add (`+`)", a, b, &mut buf).map(|st| st.text(&buf).to_string())
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

    /// Shapes whose pairs cover equal, permuted, re-nested, int-against-tuple and
    /// rank-differing operands.
    pub(crate) const SHAPES: &[&str] = &[
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
            }
        }
    }

    /// The compile-time message of a recorded ui case: the text after "evaluation
    /// panicked: ", with rustc's indentation of continuation lines removed.
    pub(crate) fn recorded(case: &str) -> String {
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

    /// The static code of a shape written in CuTe notation.
    pub(crate) fn code(s: &str) -> ShapeCode {
        ShapeCode::from_shape(&s.parse().unwrap()).unwrap()
    }

    #[test]
    fn the_ui_snapshots_record_these_messages() {
        let elementwise = |op, a, b| {
            let mut buf = [0u8; MSG_CAP];
            let st = elementwise_message(op, &code(a), &code(b), &mut buf).unwrap();
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
        ];
        for (case, message) in cases {
            assert_eq!(recorded(case), message, "{case}");
        }
    }
}
