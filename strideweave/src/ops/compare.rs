//! Comparisons into bool tensors (`eq`, `ne`, `lt`, `le`, `gt`, `ge` and their `_scalar`
//! forms) and selection by a bool tensor (`where_cond`).

use crate::autograd::node::{attach, rule, wants};
use crate::dtype::{DType, Element, Scalar};
use crate::error::{Error, Result};
use crate::kernels::num::{Num, with_num};
use crate::ops::elementwise::same_shape;
use crate::ops::zip_map::{map_fresh, zip_fresh};
use crate::ops::{Accepts, check_operand_for, check_pair_for};
use crate::tensor::Tensor;

/// Runs `$body` with `$T` bound to the element type of an ordered plain dtype (every plain
/// dtype but complex).
macro_rules! with_ordered {
    ($d:expr, $T:ident => $body:expr) => {
        crate::kernels::num::dispatch!($d, $T => $body, _ => unreachable!("checked: an ordered dtype");
            F32 => f32,
            F64 => f64,
            I32 => i32,
            I64 => i64,
            U8 => u8,
            I8 => i8,
            Bool => bool,
            #[cfg(feature = "half")] F16 => half::f16,
            #[cfg(feature = "half")] BF16 => half::bf16,
        )
    };
}

/// A comparison.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Cmp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl Cmp {
    fn name(self, scalar: bool) -> &'static str {
        match (self, scalar) {
            (Cmp::Eq, false) => "eq",
            (Cmp::Ne, false) => "ne",
            (Cmp::Lt, false) => "lt",
            (Cmp::Le, false) => "le",
            (Cmp::Gt, false) => "gt",
            (Cmp::Ge, false) => "ge",
            (Cmp::Eq, true) => "eq_scalar",
            (Cmp::Ne, true) => "ne_scalar",
            (Cmp::Lt, true) => "lt_scalar",
            (Cmp::Le, true) => "le_scalar",
            (Cmp::Gt, true) => "gt_scalar",
            (Cmp::Ge, true) => "ge_scalar",
        }
    }

    /// IEEE comparison: every comparison with NaN is false but `ne`, which is true.
    fn test<T: PartialOrd>(self, x: T, y: T) -> bool {
        match self {
            Cmp::Eq => x == y,
            Cmp::Ne => x != y,
            Cmp::Lt => x < y,
            Cmp::Le => x <= y,
            Cmp::Gt => x > y,
            Cmp::Ge => x >= y,
        }
    }
}

macro_rules! comparisons {
    ($($(#[$doc:meta])* $name:ident, $scalar:ident, $cmp:ident;)*) => {
        impl Tensor {
            $(
                $(#[$doc])*
                pub fn $name(&self, other: &Tensor) -> Result<Tensor> {
                    compare(self, other, Cmp::$cmp)
                }

                #[doc = concat!("[`", stringify!($name), "`](Self::", stringify!($name), ") against one value, which must convert exactly to the tensor's dtype (`NotCastable` otherwise).")]
                ///
                /// ```
                /// let t = strideweave::Tensor::arange::<i32>(&"3".parse().unwrap());
                #[doc = concat!("let m = t.", stringify!($scalar), "(1).unwrap();")]
                /// assert_eq!(m.dtype(), strideweave::DType::Bool);
                /// ```
                pub fn $scalar(&self, value: impl Into<Scalar>) -> Result<Tensor> {
                    compare_scalar(self, value.into(), Cmp::$cmp)
                }
            )*
        }
    };
}

comparisons! {
    /// `self == other` at every element, as a bool tensor (equal shapes and dtypes; every
    /// plain dtype). NaN equals nothing, itself included (IEEE, as numpy and PyTorch).
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let a = Tensor::from_vec(vec![1.0f64, f64::NAN], &"2".parse().unwrap()).unwrap();
    /// assert_eq!(a.eq(&a).unwrap().to_vec::<bool>().unwrap(), [true, false]);
    /// ```
    eq, eq_scalar, Eq;
    /// `self != other` at every element (NaN differs from everything, itself included).
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let a = Tensor::from_vec(vec![1.0f64, f64::NAN], &"2".parse().unwrap()).unwrap();
    /// assert_eq!(a.ne(&a).unwrap().to_vec::<bool>().unwrap(), [false, true]);
    /// ```
    ne, ne_scalar, Ne;
    /// `self < other` at every element (real dtypes and bool, `false < true`; complex numbers
    /// have no order). Any comparison with NaN is false.
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let a = Tensor::arange::<f32>(&"3".parse().unwrap());
    /// let b = a.reverse(0).unwrap();
    /// assert_eq!(a.lt(&b).unwrap().to_vec::<bool>().unwrap(), [true, false, false]);
    /// ```
    lt, lt_scalar, Lt;
    /// `self <= other` at every element (see [`lt`](Self::lt)).
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let a = Tensor::arange::<f32>(&"3".parse().unwrap());
    /// assert_eq!(a.le(&a.reverse(0).unwrap()).unwrap().to_vec::<bool>().unwrap(), [true, true, false]);
    /// ```
    le, le_scalar, Le;
    /// `self > other` at every element (see [`lt`](Self::lt)).
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let a = Tensor::arange::<i64>(&"3".parse().unwrap());
    /// assert_eq!(a.gt(&a.reverse(0).unwrap()).unwrap().to_vec::<bool>().unwrap(), [false, false, true]);
    /// ```
    gt, gt_scalar, Gt;
    /// `self >= other` at every element (see [`lt`](Self::lt)).
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let a = Tensor::arange::<u8>(&"3".parse().unwrap());
    /// assert_eq!(a.ge(&a.reverse(0).unwrap()).unwrap().to_vec::<bool>().unwrap(), [false, true, true]);
    /// ```
    ge, ge_scalar, Ge;
}

/// The dtype rule of a comparison: every plain dtype; complex only for `eq` and `ne`.
fn check_comparable(op: &'static str, t: &Tensor, cmp: Cmp) -> Result<()> {
    t.require_single(op)?;
    let d = t.dtype();
    if !d.is_plain() || (d.is_complex() && !matches!(cmp, Cmp::Eq | Cmp::Ne)) {
        return Err(Error::WrongType {
            op,
            expected: "a real, integer or bool tensor (complex numbers have eq and ne only)".into(),
            found: format!("a {d} tensor"),
        });
    }
    Ok(())
}

fn compare(a: &Tensor, b: &Tensor, cmp: Cmp) -> Result<Tensor> {
    let op = cmp.name(false);
    check_comparable(op, a, cmp)?;
    check_comparable(op, b, cmp)?;
    if a.dtype() != b.dtype() {
        return Err(Error::WrongType {
            op,
            expected: format!("two tensors of one dtype ({} on the left)", a.dtype()),
            found: format!("a {} tensor on the right", b.dtype()),
        });
    }
    same_shape(op, a, b)?;
    let values = match a.dtype() {
        DType::ComplexF32 => zip_fresh(op, a, b, |x: crate::Complex32, y| {
            (x == y) == (cmp == Cmp::Eq)
        })?,
        DType::ComplexF64 => zip_fresh(op, a, b, |x: crate::Complex64, y| {
            (x == y) == (cmp == Cmp::Eq)
        })?,
        d => with_ordered!(d, T => zip_fresh(op, a, b, |x: T, y| cmp.test(x, y))?),
    };
    Tensor::from_vec(values, a.shape())
}

fn compare_scalar(t: &Tensor, value: Scalar, cmp: Cmp) -> Result<Tensor> {
    let op = cmp.name(true);
    check_comparable(op, t, cmp)?;
    let v = value.cast_for(op, t.dtype())?;
    let values = match v {
        Scalar::ComplexF32(v) => {
            map_fresh(op, t, |x: crate::Complex32| (x == v) == (cmp == Cmp::Eq))?
        }
        Scalar::ComplexF64(v) => {
            map_fresh(op, t, |x: crate::Complex64| (x == v) == (cmp == Cmp::Eq))?
        }
        _ => with_ordered!(t.dtype(), T => {
            // unreachable from user input: `cast_for` gave a value of the tensor's dtype.
            let v = T::from_scalar(v).expect("cast to the tensor's dtype");
            map_fresh(op, t, |x: T| cmp.test(x, v))?
        }),
    };
    Tensor::from_vec(values, t.shape())
}

impl Tensor {
    /// `on_true` where this bool tensor is `true`, `on_false` elsewhere (candle's name;
    /// numpy's and PyTorch's `where`), into a fresh compact tensor. All three have one shape
    /// (nothing broadcasts implicitly: use [`broadcast_to`](Self::broadcast_to)) and the two
    /// branches one dtype, any plain one. Differentiable in both branches: each gets the
    /// cotangent where it was chosen, zero elsewhere.
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let s = "3".parse().unwrap();
    /// let x = Tensor::from_vec(vec![-1.0f64, 2.0, -3.0], &s).unwrap();
    /// let keep = x.gt_scalar(0.0).unwrap();
    /// let y = keep.where_cond(&x, &Tensor::zeros::<f64>(&s)).unwrap();
    /// assert_eq!(y.to_vec::<f64>().unwrap(), [0.0, 2.0, 0.0]);
    /// ```
    pub fn where_cond(&self, on_true: &Tensor, on_false: &Tensor) -> Result<Tensor> {
        const OP: &str = "where_cond";
        self.require_single(OP)?;
        if self.dtype() != DType::Bool {
            return Err(Error::WrongType {
                op: OP,
                expected: "a bool condition (make one with lt, eq, … or to_dtype(DType::Bool))"
                    .into(),
                found: format!("a {} condition", self.dtype()),
            });
        }
        let accepts = Accepts::IntBool;
        check_operand_for(OP, on_true, accepts, "")?;
        check_pair_for(OP, on_true, on_false, accepts, "")?;
        same_shape(OP, self, on_true)?;
        same_shape(OP, self, on_false)?;
        let mask: Vec<bool> = map_fresh(OP, self, |b: bool| b)?;
        let d = on_true.dtype();
        let out = crate::dtype::with_plain!(d, T => {
            let (a, b): (Vec<T>, Vec<T>) = (map_fresh(OP, on_true, |x| x)?, map_fresh(OP, on_false, |x| x)?);
            let v: Vec<T> = mask.iter().zip(a).zip(b).map(|((m, a), b)| if *m { a } else { b }).collect();
            Tensor::from_vec(v, self.shape())?
        }, else unreachable!("checked: a plain dtype"));
        if !d.is_differentiable() || !wants(&[on_true, on_false]) {
            return Ok(out);
        }
        let grads = rule(move |step| {
            let (op, cot, _, needs) = step.parts();
            with_num!(cot.dtype(), T => {
                let c = T::cotangent(op, cot)?;
                let pick = |side: bool| -> Vec<T> {
                    c.iter().zip(&mask).map(|(c, m)| if *m == side { *c } else { T::zero() }).collect()
                };
                Ok(smallvec::smallvec![
                    needs[0].then(|| T::dense(pick(true))),
                    needs[1].then(|| T::dense(pick(false))),
                ])
            }, _ => unreachable!("differentiable"))
        });
        Ok(attach(out, OP, &[on_true, on_false], grads))
    }
}
