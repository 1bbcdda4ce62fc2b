//! `std::ops` on `&Tensor`: `+ - * /` of two tensors, unary `-`, and the scalar forms that
//! read naturally (`&t + s`, `&t - s`, `&t * s`, `&t / s`, `s + &t`, `s * &t`). Each is the
//! named method (`add`, `sub`, …, `add_scalar`, …), so each returns `Result<Tensor>`: shapes
//! must be equal, dtypes must agree, a scalar must fit the tensor's dtype, and any of these
//! failing is an `Err`, never a panic. Chain with `?`: `(&(&a + &b)? * 2.0)?`. Scalars are
//! `f64` and `i64` (so that literals infer), converted to the tensor's dtype.

use std::ops::{Add, Div, Mul, Neg, Sub};

use crate::dtype::Scalar;
use crate::error::Result;
use crate::tensor::Tensor;

macro_rules! tensor_op {
    ($Trait:ident, $f:ident, $method:ident, $doc:literal) => {
        impl $Trait<&Tensor> for &Tensor {
            type Output = Result<Tensor>;
            #[doc = $doc]
            fn $f(self, other: &Tensor) -> Result<Tensor> {
                Tensor::$method(self, other)
            }
        }
    };
}

tensor_op!(
    Add,
    add,
    add,
    "[`Tensor::add`]: `&a + &b`.\n\n```\nlet a = strideweave::Tensor::arange::<f64>(&\"3\".parse().unwrap());\nassert_eq!((&a + &a).unwrap().to_vec::<f64>().unwrap(), [0.0, 2.0, 4.0]);\n```"
);
tensor_op!(
    Sub,
    sub,
    sub,
    "[`Tensor::sub`]: `&a - &b`.\n\n```\nlet a = strideweave::Tensor::arange::<i32>(&\"3\".parse().unwrap());\nassert_eq!((&a - &a).unwrap().to_vec::<i32>().unwrap(), [0, 0, 0]);\n```"
);
tensor_op!(
    Mul,
    mul,
    mul,
    "[`Tensor::mul`], elementwise: `&a * &b`.\n\n```\nlet a = strideweave::Tensor::arange::<f64>(&\"3\".parse().unwrap());\nassert_eq!((&a * &a).unwrap().to_vec::<f64>().unwrap(), [0.0, 1.0, 4.0]);\nlet b = strideweave::Tensor::arange::<f64>(&\"4\".parse().unwrap());\nassert!((&a * &b).is_err()); // no implicit broadcasting\n```"
);
tensor_op!(
    Div,
    div,
    div,
    "[`Tensor::div`]: `&a / &b`; an integer zero divisor is an `Err`.\n\n```\nlet a = strideweave::Tensor::arange::<i32>(&\"3\".parse().unwrap());\nassert!((&a / &a).unwrap_err().to_string().contains(\"ordinal 0\"));\n```"
);

impl Neg for &Tensor {
    type Output = Result<Tensor>;
    /// [`Tensor::neg`]: `-&a`.
    ///
    /// ```
    /// let a = strideweave::Tensor::arange::<f64>(&"2".parse().unwrap());
    /// assert_eq!((-&a).unwrap().to_vec::<f64>().unwrap(), [-0.0, -1.0]);
    /// ```
    fn neg(self) -> Result<Tensor> {
        Tensor::neg(self)
    }
}

macro_rules! scalar_ops {
    ($($s:ty),*) => {$(
        impl Add<$s> for &Tensor {
            type Output = Result<Tensor>;
            /// [`Tensor::add_scalar`]: `&t + s` (the scalar must fit the tensor's dtype).
            fn add(self, s: $s) -> Result<Tensor> {
                self.add_scalar(Scalar::from(s))
            }
        }
        impl Sub<$s> for &Tensor {
            type Output = Result<Tensor>;
            /// [`Tensor::sub_scalar`]: `&t - s`.
            fn sub(self, s: $s) -> Result<Tensor> {
                self.sub_scalar(Scalar::from(s))
            }
        }
        impl Mul<$s> for &Tensor {
            type Output = Result<Tensor>;
            /// [`Tensor::mul_scalar`]: `&t * s`.
            fn mul(self, s: $s) -> Result<Tensor> {
                self.mul_scalar(Scalar::from(s))
            }
        }
        impl Div<$s> for &Tensor {
            type Output = Result<Tensor>;
            /// [`Tensor::div_scalar`]: `&t / s`.
            fn div(self, s: $s) -> Result<Tensor> {
                self.div_scalar(Scalar::from(s))
            }
        }
        impl Add<&Tensor> for $s {
            type Output = Result<Tensor>;
            /// `s + &t`, which is `&t + s`.
            fn add(self, t: &Tensor) -> Result<Tensor> {
                t.add_scalar(Scalar::from(self))
            }
        }
        impl Mul<&Tensor> for $s {
            type Output = Result<Tensor>;
            /// `s * &t`, which is `&t * s`.
            fn mul(self, t: &Tensor) -> Result<Tensor> {
                t.mul_scalar(Scalar::from(self))
            }
        }
    )*};
}

// One float and one integer type, so that a literal (`&t * 2.0`, `&t + 1`) infers its type;
// the value converts to the tensor's dtype by the casting rule (`Scalar::cast`), and a value
// that does not fit is an error. Other scalar types: the named methods.
scalar_ops!(f64, i64);

#[cfg(test)]
mod tests {
    use crate::tensor::Tensor;

    #[test]
    fn operators_on_tensor_references_are_the_named_methods() {
        let a = Tensor::arange::<f64>(&"3".parse().unwrap());
        let b = Tensor::from_vec(vec![2.0f64, 4.0, 8.0], &"3".parse().unwrap()).unwrap();
        let v = |t: crate::error::Result<Tensor>| t.unwrap().to_vec::<f64>().unwrap();
        assert_eq!(v(&a + &b), [2.0, 5.0, 10.0]);
        assert_eq!(v(&a - &b), [-2.0, -3.0, -6.0]);
        assert_eq!(v(&a * &b), [0.0, 4.0, 16.0]);
        assert_eq!(v(&a / &b), [0.0, 0.25, 0.25]);
        assert_eq!(v(&a + 1.0), [1.0, 2.0, 3.0]);
        assert_eq!(v(&a - 1.0), [-1.0, 0.0, 1.0]);
        assert_eq!(v(&a * 2.0), [0.0, 2.0, 4.0]);
        assert_eq!(v(&a / 2.0), [0.0, 0.5, 1.0]);
        assert_eq!(v(1.0 + &a), [1.0, 2.0, 3.0]);
        assert_eq!(v(3.0 * &a), [0.0, 3.0, 6.0]);
        let i = Tensor::arange::<u8>(&"2".parse().unwrap());
        // A scalar that does not fit the dtype is an error, not a cast.
        assert!((&i + 300).unwrap_err().to_string().contains("300"));
        assert!((&i + 0.5).is_err());
        assert_eq!((&i + 1).unwrap().to_vec::<u8>().unwrap(), [1, 2]);
    }
}
