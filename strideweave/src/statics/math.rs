//! The functions of a model on a [`StaticTensor`]: the result keeps the static shape (and
//! the element type), the work is `Tensor`'s.

use crate::dtype::{Element, Scalar};
use crate::error::Result;
use crate::layout::Dim;
use crate::statics::{StaticShape, StaticTensor};

/// Forwards unary functions to `Tensor`'s, keeping the static shape.
macro_rules! same_shape_functions {
    ($($(#[$doc:meta])* $name:ident($($arg:ident: $ty:ty),*);)*) => {
        impl<T: Element, S: StaticShape> StaticTensor<T, S> {
            $(
                $(#[$doc])*
                pub fn $name(&self $(, $arg: $ty)*) -> Result<StaticTensor<T, S>> {
                    self.as_dynamic().$name($($arg),*).map(StaticTensor::new_unchecked)
                }
            )*
        }
    };
}

same_shape_functions! {
    /// [`Tensor::exp`](crate::Tensor::exp), keeping the static shape.
    ///
    /// ```
    /// use strideweave::{StaticTensor, shape_t};
    /// let t = StaticTensor::<f64, shape_t!(2, 3)>::zeros();
    /// let e: StaticTensor<f64, shape_t!(2, 3)> = t.exp().unwrap();
    /// assert_eq!(e.to_vec().unwrap(), [1.0; 6]);
    /// ```
    exp();
    /// [`Tensor::log`](crate::Tensor::log), keeping the static shape.
    ///
    /// ```
    /// let t = strideweave::StaticTensor::<f64, strideweave::shape_t!(2)>::from_vec(vec![1.0, 1.0]).unwrap();
    /// assert_eq!(t.log().unwrap().to_vec().unwrap(), [0.0; 2]);
    /// ```
    log();
    /// [`Tensor::sqrt`](crate::Tensor::sqrt), keeping the static shape.
    ///
    /// ```
    /// let t = strideweave::StaticTensor::<f32, strideweave::shape_t!(2)>::from_vec(vec![4.0, 9.0]).unwrap();
    /// assert_eq!(t.sqrt().unwrap().to_vec().unwrap(), [2.0, 3.0]);
    /// ```
    sqrt();
    /// [`Tensor::abs`](crate::Tensor::abs), keeping the static shape.
    ///
    /// ```
    /// let t = strideweave::StaticTensor::<f64, strideweave::shape_t!(2)>::from_vec(vec![-1.0, 2.0]).unwrap();
    /// assert_eq!(t.abs().unwrap().to_vec().unwrap(), [1.0, 2.0]);
    /// ```
    abs();
    /// [`Tensor::sin`](crate::Tensor::sin), keeping the static shape.
    ///
    /// ```
    /// let t = strideweave::StaticTensor::<f64, strideweave::shape_t!(1)>::zeros();
    /// assert_eq!(t.sin().unwrap().to_vec().unwrap(), [0.0]);
    /// ```
    sin();
    /// [`Tensor::cos`](crate::Tensor::cos), keeping the static shape.
    ///
    /// ```
    /// let t = strideweave::StaticTensor::<f64, strideweave::shape_t!(1)>::zeros();
    /// assert_eq!(t.cos().unwrap().to_vec().unwrap(), [1.0]);
    /// ```
    cos();
    /// [`Tensor::tanh`](crate::Tensor::tanh), keeping the static shape.
    ///
    /// ```
    /// let t = strideweave::StaticTensor::<f64, strideweave::shape_t!(1)>::zeros();
    /// assert_eq!(t.tanh().unwrap().to_vec().unwrap(), [0.0]);
    /// ```
    tanh();
    /// [`Tensor::sigmoid`](crate::Tensor::sigmoid), keeping the static shape.
    ///
    /// ```
    /// let t = strideweave::StaticTensor::<f64, strideweave::shape_t!(1)>::zeros();
    /// assert_eq!(t.sigmoid().unwrap().to_vec().unwrap(), [0.5]);
    /// ```
    sigmoid();
    /// [`Tensor::relu`](crate::Tensor::relu), keeping the static shape.
    ///
    /// ```
    /// let t = strideweave::StaticTensor::<f32, strideweave::shape_t!(2)>::from_vec(vec![-1.0, 1.0]).unwrap();
    /// assert_eq!(t.relu().unwrap().to_vec().unwrap(), [0.0, 1.0]);
    /// ```
    relu();
    /// [`Tensor::silu`](crate::Tensor::silu), keeping the static shape.
    ///
    /// ```
    /// let t = strideweave::StaticTensor::<f64, strideweave::shape_t!(1)>::zeros();
    /// assert_eq!(t.silu().unwrap().to_vec().unwrap(), [0.0]);
    /// ```
    silu();
    /// [`Tensor::gelu`](crate::Tensor::gelu), keeping the static shape.
    ///
    /// ```
    /// let t = strideweave::StaticTensor::<f64, strideweave::shape_t!(1)>::zeros();
    /// assert_eq!(t.gelu().unwrap().to_vec().unwrap(), [0.0]);
    /// ```
    gelu();
    /// [`Tensor::powf`](crate::Tensor::powf), keeping the static shape.
    ///
    /// ```
    /// let t = strideweave::StaticTensor::<f64, strideweave::shape_t!(2)>::from_vec(vec![2.0, 3.0]).unwrap();
    /// assert_eq!(t.powf(2.0).unwrap().to_vec().unwrap(), [4.0, 9.0]);
    /// ```
    powf(p: f64);
    /// [`Tensor::softmax`](crate::Tensor::softmax), keeping the static shape.
    ///
    /// ```
    /// let t = strideweave::StaticTensor::<f64, strideweave::shape_t!(2, 2)>::zeros();
    /// assert_eq!(t.softmax(-1).unwrap().to_vec().unwrap(), [0.5; 4]);
    /// ```
    softmax(dim: impl Dim);
    /// [`Tensor::log_softmax`](crate::Tensor::log_softmax), keeping the static shape.
    ///
    /// ```
    /// let t = strideweave::StaticTensor::<f64, strideweave::shape_t!(2)>::zeros();
    /// assert_eq!(t.log_softmax(0).unwrap().to_vec().unwrap(), [-std::f64::consts::LN_2; 2]);
    /// ```
    log_softmax(dim: impl Dim);
}

impl<T: Element, S: StaticShape> StaticTensor<T, S> {
    /// [`Tensor::clamp`](crate::Tensor::clamp), keeping the static shape.
    ///
    /// ```
    /// let t = strideweave::StaticTensor::<f64, strideweave::shape_t!(2)>::from_vec(vec![-2.0, 2.0]).unwrap();
    /// assert_eq!(t.clamp(-1.0, 1.0).unwrap().to_vec().unwrap(), [-1.0, 1.0]);
    /// ```
    pub fn clamp(
        &self,
        min: impl Into<Scalar>,
        max: impl Into<Scalar>,
    ) -> Result<StaticTensor<T, S>> {
        let t = self.as_dynamic().clamp(min, max)?;
        Ok(StaticTensor::new_unchecked(t))
    }

    /// [`Tensor::maximum`](crate::Tensor::maximum) of two tensors of one static shape.
    ///
    /// ```
    /// use strideweave::{StaticTensor, shape_t};
    /// let a = StaticTensor::<f64, shape_t!(2)>::from_vec(vec![1.0, 4.0]).unwrap();
    /// let b = StaticTensor::<f64, shape_t!(2)>::from_vec(vec![3.0, 2.0]).unwrap();
    /// assert_eq!(a.maximum(&b).unwrap().to_vec().unwrap(), [3.0, 4.0]);
    /// assert_eq!(a.minimum(&b).unwrap().to_vec().unwrap(), [1.0, 2.0]);
    /// assert_eq!(a.pow(&b).unwrap().to_vec().unwrap(), [1.0, 16.0]);
    /// ```
    pub fn maximum(&self, other: &StaticTensor<T, S>) -> Result<StaticTensor<T, S>> {
        let t = self.as_dynamic().maximum(other.as_dynamic())?;
        Ok(StaticTensor::new_unchecked(t))
    }

    /// [`Tensor::minimum`](crate::Tensor::minimum) of two tensors of one static shape.
    ///
    /// ```
    /// use strideweave::{StaticTensor, shape_t};
    /// let a = StaticTensor::<f32, shape_t!(1)>::zeros();
    /// assert_eq!(a.minimum(&a).unwrap().to_vec().unwrap(), [0.0]);
    /// ```
    pub fn minimum(&self, other: &StaticTensor<T, S>) -> Result<StaticTensor<T, S>> {
        let t = self.as_dynamic().minimum(other.as_dynamic())?;
        Ok(StaticTensor::new_unchecked(t))
    }

    /// [`Tensor::pow`](crate::Tensor::pow) of two tensors of one static shape.
    ///
    /// ```
    /// use strideweave::{StaticTensor, shape_t};
    /// let a = StaticTensor::<f64, shape_t!(1)>::from_vec(vec![2.0]).unwrap();
    /// assert_eq!(a.pow(&a).unwrap().to_vec().unwrap(), [4.0]);
    /// ```
    pub fn pow(&self, other: &StaticTensor<T, S>) -> Result<StaticTensor<T, S>> {
        let t = self.as_dynamic().pow(other.as_dynamic())?;
        Ok(StaticTensor::new_unchecked(t))
    }
}
