//! Scalar operands on static tensors: `&a + s`, `&a - s`, `&a * s`, `&a / s`, `s + &a` and
//! `s * &a`, as on `&Tensor` (`ops/operators.rs`): each is the `Tensor`'s scalar method
//! (`add_scalar`, …), so values, dtype rules (a scalar must fit the tensor's dtype), errors
//! and gradients are that method's; the result keeps the static shape `S`. Scalars are `f64`
//! and `i64`, so that literals infer (`&a * 2.0`, `&a + 1`).

use std::marker::PhantomData;
use std::ops::{Add, Div, Mul, Sub};

use super::code::StaticShape;
use super::tensor::StaticTensor;
use crate::dtype::{Element, Scalar};
use crate::error::Result;
use crate::tensor::Tensor;

/// The static tensor of `t`'s shape holding `f(t)`.
fn keep<T: Element, S: StaticShape>(
    t: &StaticTensor<T, S>,
    f: impl FnOnce(&Tensor) -> Result<Tensor>,
) -> Result<StaticTensor<T, S>> {
    Ok(StaticTensor {
        tensor: f(&t.tensor)?,
        marker: PhantomData,
    })
}

macro_rules! static_scalar_ops {
    ($($s:ty),*) => {$(
        /// `&a + s`: [`Tensor::add_scalar`], of `a`'s static shape (the scalar must fit the
        /// dtype: `&a + 0.5` on an integer tensor is an `Err`).
        ///
        /// ```
        /// use strideweave::{StaticTensor, shape_t};
        /// let a = StaticTensor::<f32, shape_t!(2, 2)>::arange();
        /// let b: StaticTensor<f32, shape_t!(2, 2)> = (&(&a * 2.0).unwrap() + 1).unwrap();
        /// assert_eq!(b.to_vec().unwrap(), [1.0, 3.0, 5.0, 7.0]);
        /// assert_eq!((2.0 * &a).unwrap().to_vec().unwrap(), [0.0, 2.0, 4.0, 6.0]);
        /// let i = StaticTensor::<i32, shape_t!(2)>::arange();
        /// assert!((&i + 0.5).is_err());
        /// ```
        impl<T: Element, S: StaticShape> Add<$s> for &StaticTensor<T, S> {
            type Output = Result<StaticTensor<T, S>>;
            fn add(self, s: $s) -> Self::Output {
                keep(self, |t| t.add_scalar(Scalar::from(s)))
            }
        }
        /// `&a - s`: [`Tensor::sub_scalar`], of `a`'s static shape.
        ///
        /// ```
        /// use strideweave::{StaticTensor, shape_t};
        /// let a = StaticTensor::<i64, shape_t!(3)>::arange();
        /// assert_eq!((&a - 1).unwrap().to_vec().unwrap(), [-1, 0, 1]);
        /// ```
        impl<T: Element, S: StaticShape> Sub<$s> for &StaticTensor<T, S> {
            type Output = Result<StaticTensor<T, S>>;
            fn sub(self, s: $s) -> Self::Output {
                keep(self, |t| t.sub_scalar(Scalar::from(s)))
            }
        }
        /// `&a * s`: [`Tensor::mul_scalar`], of `a`'s static shape.
        ///
        /// ```
        /// use strideweave::{StaticTensor, shape_t};
        /// let a = StaticTensor::<f64, shape_t!(2)>::arange();
        /// assert_eq!((&a * 3.0).unwrap().to_vec().unwrap(), [0.0, 3.0]);
        /// ```
        impl<T: Element, S: StaticShape> Mul<$s> for &StaticTensor<T, S> {
            type Output = Result<StaticTensor<T, S>>;
            fn mul(self, s: $s) -> Self::Output {
                keep(self, |t| t.mul_scalar(Scalar::from(s)))
            }
        }
        /// `&a / s`: [`Tensor::div_scalar`], of `a`'s static shape (an integer division by
        /// zero is an `Err`).
        ///
        /// ```
        /// use strideweave::{StaticTensor, shape_t};
        /// let a = StaticTensor::<i32, shape_t!(2)>::from_vec(vec![7, -7]).unwrap();
        /// assert_eq!((&a / 2).unwrap().to_vec().unwrap(), [3, -3]);
        /// assert!((&a / 0).is_err());
        /// ```
        impl<T: Element, S: StaticShape> Div<$s> for &StaticTensor<T, S> {
            type Output = Result<StaticTensor<T, S>>;
            fn div(self, s: $s) -> Self::Output {
                keep(self, |t| t.div_scalar(Scalar::from(s)))
            }
        }
        /// `s + &a`, which is `&a + s`.
        ///
        /// ```
        /// use strideweave::{StaticTensor, shape_t};
        /// let a = StaticTensor::<f64, shape_t!(2)>::arange();
        /// assert_eq!((1.0 + &a).unwrap().to_vec().unwrap(), [1.0, 2.0]);
        /// ```
        impl<T: Element, S: StaticShape> Add<&StaticTensor<T, S>> for $s {
            type Output = Result<StaticTensor<T, S>>;
            fn add(self, a: &StaticTensor<T, S>) -> Self::Output {
                keep(a, |t| t.add_scalar(Scalar::from(self)))
            }
        }
        /// `s * &a`, which is `&a * s`.
        ///
        /// ```
        /// use strideweave::{StaticTensor, shape_t};
        /// let a = StaticTensor::<i32, shape_t!(2)>::arange();
        /// assert_eq!((3 * &a).unwrap().to_vec().unwrap(), [0, 3]);
        /// ```
        impl<T: Element, S: StaticShape> Mul<&StaticTensor<T, S>> for $s {
            type Output = Result<StaticTensor<T, S>>;
            fn mul(self, a: &StaticTensor<T, S>) -> Self::Output {
                keep(a, |t| t.mul_scalar(Scalar::from(self)))
            }
        }
    )*};
}

// One float and one integer type, as on `&Tensor`: a literal infers its type, the value
// converts to the tensor's dtype by the casting rule, and a value that does not fit is an
// error. Other scalar types: the named methods on `as_dynamic()`.
static_scalar_ops!(f64, i64);
