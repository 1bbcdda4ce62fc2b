//! Elementwise arithmetic on equal shapes, the scalar forms, and `copy_from`.

use crate::autograd::node::{Cotangents, Rule, Step};
use crate::budget::reserved_vec;
use crate::dtype::{DType, Scalar};
use crate::error::{Error, Result};
use crate::kernels::num::{Dense, Num, with_num};
use crate::kernels::strided::{walk1, walk2};
use crate::layout::Layout;
use crate::ops::zip_map::{map1, zip2};
use crate::ops::{
    Accepts, Dest, check_dest, check_operand_for, check_pair_for, exact, finish, fresh,
};
use crate::tensor::Tensor;
use crate::tensor::read::{read, read2};

#[derive(Clone, Copy, Debug)]
pub(super) enum Binary {
    Add,
    Sub,
    Mul,
    Div,
}

impl Binary {
    fn name(self) -> &'static str {
        match self {
            Binary::Add => "add",
            Binary::Sub => "sub",
            Binary::Mul => "mul",
            Binary::Div => "div",
        }
    }

    fn into_name(self) -> &'static str {
        match self {
            Binary::Add => "add_into",
            Binary::Sub => "sub_into",
            Binary::Mul => "mul_into",
            Binary::Div => "div_into",
        }
    }

    /// Integers for every operation; bool for `add` (or) and `mul` (and) only.
    fn accepts(self) -> Accepts {
        match self {
            Binary::Add | Binary::Mul => Accepts::IntBool,
            Binary::Sub | Binary::Div => Accepts::Int,
        }
    }
}

impl Tensor {
    /// `self + other`, elementwise, into a fresh compact tensor. Shapes must be equal
    /// (nothing broadcasts implicitly: use [`broadcast_to`](Self::broadcast_to)); the
    /// operands are read through their layouts, whatever they are.
    ///
    /// Every dtype with arithmetic takes part, and the result keeps the operands' dtype
    /// (both must have the same one): integers (`i8`, `i32`, `i64`, `u8`) **wrap as two's
    /// complement**, as Rust's `wrapping_add` does; on bool, `add` is logical or. Integer and
    /// bool results record nothing for autograd (they have no gradients).
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let i = Tensor::from_vec(vec![127i8, -128], &"2".parse().unwrap()).unwrap();
    /// assert_eq!(i.add(&i.reverse(0).unwrap()).unwrap().to_vec::<i8>().unwrap(), [-1, -1]);
    /// assert_eq!(i.add(&i).unwrap().to_vec::<i8>().unwrap(), [-2, 0]); // wraps
    /// let m = Tensor::from_vec(vec![true, false], &"2".parse().unwrap()).unwrap();
    /// assert_eq!(m.add(&m.reverse(0).unwrap()).unwrap().to_vec::<bool>().unwrap(), [true, true]);
    /// let a = Tensor::arange::<f64>(&"(2,3)".parse().unwrap());
    /// let b = a.permute(&[1, 0]).unwrap().permute(&[1, 0]).unwrap();
    /// assert_eq!(a.add(&b).unwrap().to_vec::<f64>().unwrap(), [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
    /// let row = Tensor::arange::<f64>(&"3".parse().unwrap()).unsqueeze(0).unwrap();
    /// assert!(a.add(&row).is_err()); // (1,3) is not (2,3) …
    /// let wide = row.broadcast_to(&"(2,3)".parse().unwrap()).unwrap();
    /// assert_eq!(a.add(&wide).unwrap().to_vec::<f64>().unwrap(), [0.0, 1.0, 3.0, 4.0, 6.0, 7.0]);
    /// ```
    pub fn add(&self, other: &Tensor) -> Result<Tensor> {
        fresh(binary(Binary::Add, self, other, Dest::Fresh))
    }

    /// `self - other`, elementwise (equal shapes). Integers wrap as two's complement
    /// (`0u8 - 1 = 255`); bool has no subtraction (`Type`).
    ///
    /// ```
    /// let u = strideweave::Tensor::arange::<u8>(&"2".parse().unwrap());
    /// assert_eq!(u.sub(&u.reverse(0).unwrap()).unwrap().to_vec::<u8>().unwrap(), [255, 1]);
    /// let a = strideweave::Tensor::arange::<f32>(&"3".parse().unwrap());
    /// assert_eq!(a.sub(&a.reverse(0).unwrap()).unwrap().to_vec::<f32>().unwrap(), [-2.0, 0.0, 2.0]);
    /// ```
    pub fn sub(&self, other: &Tensor) -> Result<Tensor> {
        fresh(binary(Binary::Sub, self, other, Dest::Fresh))
    }

    /// `self * other`, elementwise (equal shapes). Integers wrap as two's complement
    /// (`16i8 · 16 = 0`); on bool, `mul` is logical and.
    ///
    /// ```
    /// let i = strideweave::Tensor::from_vec(vec![16i8, 3], &"2".parse().unwrap()).unwrap();
    /// assert_eq!(i.mul(&i).unwrap().to_vec::<i8>().unwrap(), [0, 9]);
    /// let a = strideweave::Tensor::arange::<f32>(&"3".parse().unwrap());
    /// assert_eq!(a.mul(&a).unwrap().to_vec::<f32>().unwrap(), [0.0, 1.0, 4.0]);
    /// ```
    pub fn mul(&self, other: &Tensor) -> Result<Tensor> {
        fresh(binary(Binary::Mul, self, other, Dest::Fresh))
    }

    /// `self / other`, elementwise (equal shapes). Integer division truncates toward zero
    /// (`-7 / 2 = -3`; `MIN / -1` wraps to `MIN`), and a zero divisor is an
    /// [`Error::DivisionByZero`](crate::Error::DivisionByZero) naming the coordinate of the
    /// first one (first-mode-fastest); nothing is written then. Bool has no division.
    ///
    /// ```
    /// use strideweave::{Shape, Tensor};
    /// let s: Shape = "2".parse().unwrap();
    /// let i = Tensor::from_vec(vec![-7i32, 7], &s).unwrap();
    /// let two = Tensor::from_vec(vec![2i32, 2], &s).unwrap();
    /// assert_eq!(i.div(&two).unwrap().to_vec::<i32>().unwrap(), [-3, 3]);
    /// let zero = Tensor::from_vec(vec![2i32, 0], &s).unwrap();
    /// assert!(i.div(&zero).unwrap_err().to_string().contains("at coordinate 1 (ordinal 1)"));
    /// let a = strideweave::Tensor::from_vec(vec![1.0f64, 4.0], &"2".parse().unwrap()).unwrap();
    /// assert_eq!(a.div(&a.reverse(0).unwrap()).unwrap().to_vec::<f64>().unwrap(), [0.25, 4.0]);
    /// ```
    pub fn div(&self, other: &Tensor) -> Result<Tensor> {
        fresh(binary(Binary::Div, self, other, Dest::Fresh))
    }

    /// `-self`, elementwise. Integers wrap (`-(-128i8) = -128`, `-(1u8) = 255`); bool has
    /// no negation.
    ///
    /// ```
    /// let i = strideweave::Tensor::from_vec(vec![-128i8, 5], &"2".parse().unwrap()).unwrap();
    /// assert_eq!(i.neg().unwrap().to_vec::<i8>().unwrap(), [-128, -5]);
    /// let a = strideweave::Tensor::arange::<f64>(&"2".parse().unwrap());
    /// assert_eq!(a.neg().unwrap().to_vec::<f64>().unwrap(), [-0.0, -1.0]);
    /// ```
    pub fn neg(&self) -> Result<Tensor> {
        fresh(scalar(self, "neg", None, ScalarKind::Neg, Dest::Fresh))
    }

    /// `self + value` for every element. The result keeps the tensor's dtype; `value` must
    /// convert to it exactly (`NotCastable` otherwise: `2.5` or `300` for a `u8` tensor, any
    /// number for a bool one, which takes a bool). The scalar forms follow the rules of their
    /// tensor forms ([`add`](Self::add), …): integers wrap, integer division by a zero value
    /// is [`Error::DivisionByZero`](crate::Error::DivisionByZero).
    ///
    /// ```
    /// let u = strideweave::Tensor::from_vec(vec![250u8, 1], &"2".parse().unwrap()).unwrap();
    /// assert_eq!(u.add_scalar(10i64).unwrap().to_vec::<u8>().unwrap(), [4, 11]);
    /// assert!(u.add_scalar(300i64).is_err() && u.add_scalar(0.5).is_err());
    /// let a = strideweave::Tensor::arange::<f64>(&"2".parse().unwrap());
    /// assert_eq!(a.add_scalar(0.5).unwrap().to_vec::<f64>().unwrap(), [0.5, 1.5]);
    /// ```
    pub fn add_scalar(&self, value: impl Into<Scalar>) -> Result<Tensor> {
        fresh(scalar(
            self,
            "add_scalar",
            Some(value.into()),
            ScalarKind::Add,
            Dest::Fresh,
        ))
    }

    /// `self - value` for every element.
    ///
    /// ```
    /// let a = strideweave::Tensor::arange::<f64>(&"2".parse().unwrap());
    /// assert_eq!(a.sub_scalar(1.0).unwrap().to_vec::<f64>().unwrap(), [-1.0, 0.0]);
    /// ```
    pub fn sub_scalar(&self, value: impl Into<Scalar>) -> Result<Tensor> {
        fresh(scalar(
            self,
            "sub_scalar",
            Some(value.into()),
            ScalarKind::Sub,
            Dest::Fresh,
        ))
    }

    /// `self * value` for every element.
    ///
    /// ```
    /// let a = strideweave::Tensor::arange::<f32>(&"2".parse().unwrap());
    /// assert_eq!(a.mul_scalar(3.0f32).unwrap().to_vec::<f32>().unwrap(), [0.0, 3.0]);
    /// ```
    pub fn mul_scalar(&self, value: impl Into<Scalar>) -> Result<Tensor> {
        fresh(scalar(
            self,
            "mul_scalar",
            Some(value.into()),
            ScalarKind::Mul,
            Dest::Fresh,
        ))
    }

    /// `self / value` for every element.
    ///
    /// ```
    /// let a = strideweave::Tensor::arange::<f64>(&"2".parse().unwrap());
    /// assert_eq!(a.div_scalar(2.0).unwrap().to_vec::<f64>().unwrap(), [0.0, 0.5]);
    /// ```
    pub fn div_scalar(&self, value: impl Into<Scalar>) -> Result<Tensor> {
        fresh(scalar(
            self,
            "div_scalar",
            Some(value.into()),
            ScalarKind::Div,
            Dest::Fresh,
        ))
    }

    /// Writes `src`'s values into this tensor's elements (equal shapes and dtypes; this
    /// tensor's layout must be injective) and increments its carrier's version once. Not
    /// recorded: an in-place write, e.g. a parameter update after `backward`, so with
    /// recording on neither tensor may require gradients (`Runtime`; use `no_grad()`).
    ///
    /// ```
    /// let w = strideweave::Tensor::zeros::<f64>(&"(2,2)".parse().unwrap());
    /// let col = w.slice(&[strideweave::Key::all(), 1.into()]).unwrap();
    /// col.copy_from(&strideweave::Tensor::arange::<f64>(&"2".parse().unwrap()).add_scalar(1.0).unwrap()).unwrap();
    /// assert_eq!((w.to_vec::<f64>().unwrap(), w.carrier().version()), (vec![0.0, 0.0, 1.0, 2.0], 1));
    /// ```
    pub fn copy_from(&self, src: &Tensor) -> Result<()> {
        crate::tensor::materialize::write_into("copy_from", src, self)
    }

    /// [`add`](Self::add) into `out`'s elements, allocating nothing: `out` must have the
    /// result's dtype and shape and an injective layout; its carrier's version increments
    /// once. Not recorded: with recording on, no operand and not `out` may require
    /// gradients (`Runtime`). `out` may alias an operand.
    ///
    /// ```
    /// let a = strideweave::Tensor::arange::<f64>(&"3".parse().unwrap());
    /// let out = strideweave::Tensor::zeros::<f64>(&"3".parse().unwrap());
    /// a.add_into(&a, &out).unwrap();
    /// a.mul_into(&out, &a).unwrap(); // in place: a ← a · (a + a)
    /// assert_eq!(a.to_vec::<f64>().unwrap(), [0.0, 2.0, 8.0]);
    /// ```
    pub fn add_into(&self, other: &Tensor, out: &Tensor) -> Result<()> {
        binary(Binary::Add, self, other, Dest::Into(out)).map(|_| ())
    }

    /// [`sub`](Self::sub) into `out` (see [`add_into`](Self::add_into)).
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let a = Tensor::arange::<f64>(&"3".parse().unwrap());
    /// let out = Tensor::zeros::<f64>(&"3".parse().unwrap());
    /// a.sub_into(&a.add_scalar(1.0).unwrap(), &out).unwrap();
    /// assert_eq!(out.to_vec::<f64>().unwrap(), [-1.0, -1.0, -1.0]);
    /// ```
    pub fn sub_into(&self, other: &Tensor, out: &Tensor) -> Result<()> {
        binary(Binary::Sub, self, other, Dest::Into(out)).map(|_| ())
    }

    /// [`mul`](Self::mul) into `out` (see [`add_into`](Self::add_into)).
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let a = Tensor::arange::<f64>(&"3".parse().unwrap());
    /// let out = Tensor::zeros::<f64>(&"3".parse().unwrap());
    /// a.mul_into(&a, &out).unwrap();
    /// assert_eq!(out.to_vec::<f64>().unwrap(), [0.0, 1.0, 4.0]);
    /// ```
    pub fn mul_into(&self, other: &Tensor, out: &Tensor) -> Result<()> {
        binary(Binary::Mul, self, other, Dest::Into(out)).map(|_| ())
    }

    /// [`div`](Self::div) into `out` (see [`add_into`](Self::add_into)).
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let a = Tensor::arange::<f64>(&"3".parse().unwrap());
    /// let out = Tensor::zeros::<f64>(&"3".parse().unwrap());
    /// a.div_into(&a.add_scalar(1.0).unwrap(), &out).unwrap();
    /// assert_eq!(out.to_vec::<f64>().unwrap(), [0.0, 0.5, 2.0 / 3.0]);
    /// ```
    pub fn div_into(&self, other: &Tensor, out: &Tensor) -> Result<()> {
        binary(Binary::Div, self, other, Dest::Into(out)).map(|_| ())
    }

    /// [`neg`](Self::neg) into `out` (see [`add_into`](Self::add_into)).
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let a = Tensor::arange::<f64>(&"3".parse().unwrap());
    /// let out = Tensor::zeros::<f64>(&"3".parse().unwrap());
    /// a.neg_into(&out).unwrap();
    /// assert_eq!(out.to_vec::<f64>().unwrap(), [-0.0, -1.0, -2.0]);
    /// ```
    pub fn neg_into(&self, out: &Tensor) -> Result<()> {
        scalar(self, "neg_into", None, ScalarKind::Neg, Dest::Into(out)).map(|_| ())
    }

    /// [`add_scalar`](Self::add_scalar) into `out` (see [`add_into`](Self::add_into)).
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let a = Tensor::arange::<f64>(&"3".parse().unwrap());
    /// let out = Tensor::zeros::<f64>(&"3".parse().unwrap());
    /// a.add_scalar_into(1.0, &out).unwrap();
    /// assert_eq!(out.to_vec::<f64>().unwrap(), [1.0, 2.0, 3.0]);
    /// ```
    pub fn add_scalar_into(&self, value: impl Into<Scalar>, out: &Tensor) -> Result<()> {
        let v = Some(value.into());
        scalar(self, "add_scalar_into", v, ScalarKind::Add, Dest::Into(out)).map(|_| ())
    }

    /// [`sub_scalar`](Self::sub_scalar) into `out` (see [`add_into`](Self::add_into)).
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let a = Tensor::arange::<f64>(&"3".parse().unwrap());
    /// let out = Tensor::zeros::<f64>(&"3".parse().unwrap());
    /// a.sub_scalar_into(1.0, &out).unwrap();
    /// assert_eq!(out.to_vec::<f64>().unwrap(), [-1.0, 0.0, 1.0]);
    /// ```
    pub fn sub_scalar_into(&self, value: impl Into<Scalar>, out: &Tensor) -> Result<()> {
        let v = Some(value.into());
        scalar(self, "sub_scalar_into", v, ScalarKind::Sub, Dest::Into(out)).map(|_| ())
    }

    /// [`mul_scalar`](Self::mul_scalar) into `out` (see [`add_into`](Self::add_into)).
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let a = Tensor::arange::<f64>(&"3".parse().unwrap());
    /// let out = Tensor::zeros::<f64>(&"3".parse().unwrap());
    /// a.mul_scalar_into(2.0, &out).unwrap();
    /// assert_eq!(out.to_vec::<f64>().unwrap(), [0.0, 2.0, 4.0]);
    /// ```
    pub fn mul_scalar_into(&self, value: impl Into<Scalar>, out: &Tensor) -> Result<()> {
        let v = Some(value.into());
        scalar(self, "mul_scalar_into", v, ScalarKind::Mul, Dest::Into(out)).map(|_| ())
    }

    /// [`div_scalar`](Self::div_scalar) into `out` (see [`add_into`](Self::add_into)).
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let a = Tensor::arange::<f64>(&"3".parse().unwrap());
    /// let out = Tensor::zeros::<f64>(&"3".parse().unwrap());
    /// a.div_scalar_into(2.0, &out).unwrap();
    /// assert_eq!(out.to_vec::<f64>().unwrap(), [0.0, 0.5, 1.0]);
    /// ```
    pub fn div_scalar_into(&self, value: impl Into<Scalar>, out: &Tensor) -> Result<()> {
        let v = Some(value.into());
        scalar(self, "div_scalar_into", v, ScalarKind::Div, Dest::Into(out)).map(|_| ())
    }
}

/// Why a bool operand is refused by `sub`, `div` and `neg`.
const BOOL_ONLY: &str = " (bool has add, a logical or, and mul, a logical and, only)";

pub(crate) fn same_shape(op: &'static str, a: &Tensor, b: &Tensor) -> Result<()> {
    if a.shape() != b.shape() {
        return Err(Error::ShapeMismatch {
            op,
            expected: a.shape().to_string(),
            found: b.shape().to_string(),
            detail: "elementwise operands must have equal shapes; nothing broadcasts implicitly (broadcast_to or broadcast_in_dim first)".into(),
        });
    }
    Ok(())
}

fn binary(kind: Binary, a: &Tensor, b: &Tensor, dest: Dest<'_>) -> Result<Option<Tensor>> {
    let op = match dest {
        Dest::Fresh => kind.name(),
        Dest::Into(_) => kind.into_name(),
    };
    if a.dtype() != b.dtype() {
        // Mixed element types: both in the promoted dtype (or an error naming both).
        let d = DType::promote_as(op, a.dtype(), b.dtype())?;
        same_shape(op, a, b)?;
        let (a, b) = (
            super::promote::convert(op, a, d)?,
            super::promote::convert(op, b, d)?,
        );
        return binary(kind, &a, &b, dest);
    }
    check_pair_for(op, a, b, kind.accepts(), BOOL_ONLY)?;
    same_shape(op, a, b)?;
    check_dest(op, dest, &[a, b], a.dtype(), a.shape())?;
    if !a.dtype().is_differentiable() {
        return exact::binary(op, kind, a, b, dest);
    }
    let values = with_num!(a.dtype(), T => match binary_kernel::<T>(op, kind, a, b, dest)? {
        Some(v) => T::dense(v),
        None => return Ok(None),
    }, _ => unreachable!("checked"));
    finish(op, dest, &[a, b], values, a.shape(), || {
        Box::new(BinaryRule(kind))
    })
}

/// The engine on `a kind b`, one monomorphic loop per operation (so each vectorises).
fn binary_kernel<T: Num>(
    op: &'static str,
    kind: Binary,
    a: &Tensor,
    b: &Tensor,
    dest: Dest<'_>,
) -> Result<Option<Vec<T>>> {
    match kind {
        Binary::Add => zip2(op, a, b, dest, |x: T, y| x + y),
        Binary::Sub => zip2(op, a, b, dest, |x: T, y| x - y),
        Binary::Mul => zip2(op, a, b, dest, |x: T, y| x * y),
        Binary::Div => zip2(op, a, b, dest, |x: T, y| x / y),
    }
}

struct BinaryRule(Binary);

impl Rule for BinaryRule {
    fn backward(&self, step: Step<'_>) -> Result<Cotangents> {
        with_num!(step.cot.dtype(), T => binary_backward::<T>(self.0, step), _ => unreachable!("differentiable"))
    }

    fn passes_through(&self, k: usize) -> bool {
        matches!((self.0, k), (Binary::Add, _) | (Binary::Sub, 0))
    }
}

/// `f(c[k], t[k])` for every ordinal `k`, reading `t` in place (the result reserved
/// fallibly, before the read).
pub(crate) fn zip_with<T: Num>(
    op: &'static str,
    c: &[T],
    t: &Tensor,
    f: impl Fn(T, T) -> T,
) -> Result<Vec<T>> {
    let mut out = reserved_vec(op, c.len())?;
    read(t, op, |x: &[T], o, l: &Layout| {
        let mut k = 0;
        walk1(l, o, |i| {
            out.push(f(c[k], x[i]));
            k += 1;
        });
    })?;
    Ok(out)
}

/// The cotangents of a binary operation's two inputs (`None`: not needed).
type Pair<T> = (Option<Vec<T>>, Option<Vec<T>>);

/// The cotangents `(c, f(c))` of the inputs that need them: `c`'s own vector is reused,
/// and a copy (reserved fallibly) made only when both inputs need it.
fn split<T: Num>(
    op: &'static str,
    mut c: Vec<T>,
    needs: &[bool],
    f: impl Fn(T) -> T,
) -> Result<Pair<T>> {
    let ga = match (needs[0], needs[1]) {
        (false, _) => None,
        (true, false) => return Ok((Some(c), None)),
        (true, true) => {
            let mut v = reserved_vec(op, c.len())?;
            v.extend_from_slice(&c);
            Some(v)
        }
    };
    if !needs[1] {
        return Ok((ga, None));
    }
    c.iter_mut().for_each(|x| *x = f(*x));
    Ok((ga, Some(c)))
}

fn binary_backward<T: Num>(kind: Binary, step: Step<'_>) -> Result<Cotangents> {
    let (op, cot, inputs, needs) = step.parts();
    let c = T::cotangent(op, cot)?;
    let (a, b) = (&inputs[0], &inputs[1]);
    let (ga, gb): Pair<T> = match kind {
        Binary::Add => split(op, c, needs, |x| x)?,
        Binary::Sub => split(op, c, needs, |x| -x)?,
        Binary::Mul => (
            match needs[0] {
                true => Some(zip_with(op, &c, b, |c, y| c * y.conj())?),
                false => None,
            },
            match needs[1] {
                true => Some(zip_with(op, &c, a, |c, x| c * x.conj())?),
                false => None,
            },
        ),
        Binary::Div => (
            match needs[0] {
                true => Some(zip_with(op, &c, b, |c, y| c / y.conj())?),
                false => None,
            },
            match needs[1] {
                // d(x/y)/dy = -x/y²
                true => {
                    let mut out = reserved_vec(op, c.len())?;
                    read2(
                        a,
                        b,
                        op,
                        |(x, ox, lx): (&[T], i64, &Layout), (y, oy, ly)| {
                            let mut k = 0;
                            walk2((lx, ox), (ly, oy), |i, j| {
                                out.push(-(c[k] * (x[i] / (y[j] * y[j])).conj()));
                                k += 1;
                            });
                        },
                    )?;
                    Some(out)
                }
                false => None,
            },
        ),
    };
    Ok(smallvec::smallvec![ga.map(T::dense), gb.map(T::dense)])
}

#[derive(Clone, Copy, Debug)]
pub(super) enum ScalarKind {
    Neg,
    Add,
    Sub,
    Mul,
    Div,
}

fn scalar(
    t: &Tensor,
    op: &'static str,
    value: Option<Scalar>,
    kind: ScalarKind,
    dest: Dest<'_>,
) -> Result<Option<Tensor>> {
    let accepts = match kind {
        ScalarKind::Add | ScalarKind::Mul => Accepts::IntBool,
        ScalarKind::Neg | ScalarKind::Sub | ScalarKind::Div => Accepts::Int,
    };
    check_operand_for(op, t, accepts, BOOL_ONLY)?;
    let value = value.map(|v| v.cast_for(op, t.dtype())).transpose()?;
    check_dest(op, dest, &[t], t.dtype(), t.shape())?;
    if !t.dtype().is_differentiable() {
        return exact::scalar(op, t, kind, value, dest);
    }
    let s = value.unwrap_or_else(|| {
        Scalar::F64(0.0)
            .cast(t.dtype())
            // Unreachable: this path runs for differentiable (float/complex) dtypes only.
            // unreachable from user input: this path runs for differentiable (float/complex) dtypes only.
            .expect("zero casts to every float dtype")
    });
    let values = with_num!(t.dtype(), T => match scalar_kernel::<T>(op, t, kind, s, dest)? {
        Some(v) => T::dense(v),
        None => return Ok(None),
    }, _ => unreachable!("checked"));
    finish(op, dest, &[t], values, t.shape(), || {
        Box::new(ScalarRule { kind, value: s })
    })
}

/// The engine on `t kind s`, one monomorphic loop per operation.
fn scalar_kernel<T: Num>(
    op: &'static str,
    t: &Tensor,
    kind: ScalarKind,
    s: Scalar,
    dest: Dest<'_>,
) -> Result<Option<Vec<T>>> {
    // unreachable from user input: the caller cast the scalar to the tensor's dtype (Scalar::cast_for) and refused it otherwise.
    let s = T::from_scalar(s).expect("cast to the tensor's dtype");
    match kind {
        ScalarKind::Neg => map1(op, t, dest, |x: T| -x),
        ScalarKind::Add => map1(op, t, dest, |x: T| x + s),
        ScalarKind::Sub => map1(op, t, dest, |x: T| x - s),
        ScalarKind::Mul => map1(op, t, dest, |x: T| x * s),
        ScalarKind::Div => map1(op, t, dest, |x: T| x / s),
    }
}

struct ScalarRule {
    kind: ScalarKind,
    value: Scalar,
}

impl Rule for ScalarRule {
    fn backward(&self, Step { op, cot, .. }: Step<'_>) -> Result<Cotangents> {
        fn go<T: Num>(op: &'static str, kind: ScalarKind, s: Scalar, cot: Dense) -> Result<Dense> {
            let mut c = T::cotangent(op, cot)?;
            // unreachable from user input: the scalar was cast to T when the op was recorded.
            let s = T::from_scalar(s).expect("cast when recorded");
            // In place: the cotangent's own vector becomes the input's.
            match kind {
                ScalarKind::Add | ScalarKind::Sub => {}
                ScalarKind::Neg => c.iter_mut().for_each(|x| *x = -*x),
                ScalarKind::Mul => c.iter_mut().for_each(|x| *x = *x * s.conj()),
                ScalarKind::Div => c.iter_mut().for_each(|x| *x = *x / s.conj()),
            }
            Ok(T::dense(c))
        }
        let g = with_num!(cot.dtype(), T => go::<T>(op, self.kind, self.value, cot)?, _ => unreachable!("differentiable"));
        Ok(smallvec::smallvec![Some(g)])
    }

    fn passes_through(&self, _k: usize) -> bool {
        matches!(self.kind, ScalarKind::Add | ScalarKind::Sub)
    }
}
