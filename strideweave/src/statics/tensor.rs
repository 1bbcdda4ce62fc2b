//! `StaticTensor<T, S>`: a [`Tensor`] whose element type and shape the compiler knows.

use std::fmt;
use std::marker::PhantomData;

use super::code::{RUNTIME_EXTENT, ShapeCode, StaticShape};
use crate::carrier::{Carrier, CarrierClass};
use crate::dtype::{DType, Element, Scalar};
use crate::error::{Error, Result};
use crate::layout::{IntTuple, Layout, Shape};
use crate::repr::{Representation, Snapshot};
use crate::tensor::Tensor;

/// A [`Tensor`] of element type `T` whose shape is the static shape `S` (see
/// [`StaticShape`] and [`shape_t!`](crate::shape_t)).
///
/// The compiler checks [`rearrange!`](crate::rearrange) and [`repeat!`](crate::repeat) on a
/// `StaticTensor` against `S`, and the result's type carries the result's shape, so chained
/// calls keep checking. It is a cheap handle (an `Arc`) like `Tensor`: the conversions
/// [`as_dynamic`](StaticTensor::as_dynamic) and [`into_dynamic`](StaticTensor::into_dynamic)
/// are free, and [`try_from_dynamic`](StaticTensor::try_from_dynamic) checks the shape and the
/// dtype. Any layout of that shape is allowed (a permuted or sliced view, too).
///
/// ```
/// use strideweave::{StaticTensor, Tensor, rearrange, shape, shape_t};
/// let t = StaticTensor::<f32, shape_t!(12, 5)>::arange();
/// let v = rearrange!(t, "(h w) c -> h w c", h = 4); // no `Result`: checked at compile time
/// assert_eq!(v.shape(), &shape!(4, 3, 5));
/// assert_eq!(v.layout().to_string(), "(4,3,5):(1,4,12)");
///
/// let d: Tensor = v.into_dynamic();
/// let back = StaticTensor::<f32, shape_t!(4, 3, 5)>::try_from_dynamic(d).unwrap();
/// assert_eq!(back.to_vec().unwrap()[..5], [0.0, 1.0, 2.0, 3.0, 4.0]);
/// ```
pub struct StaticTensor<T: Element, S: StaticShape> {
    pub(super) tensor: Tensor,
    pub(super) marker: PhantomData<fn() -> (T, S)>,
}

impl<T: Element, S: StaticShape> Clone for StaticTensor<T, S> {
    fn clone(&self) -> Self {
        StaticTensor {
            tensor: self.tensor.clone(),
            marker: PhantomData,
        }
    }
}

impl<T: Element, S: StaticShape> fmt::Display for StaticTensor<T, S> {
    /// The values as [`Tensor`'s `Display`](Tensor#impl-Display-for-Tensor) prints them,
    /// under a header that names a `StaticTensor` (`{:#}`, `{:.N}` and summarising alike).
    ///
    /// ```
    /// use strideweave::{StaticTensor, shape_t};
    /// let t = StaticTensor::<i32, shape_t!(2, 3)>::arange();
    /// assert_eq!(t.to_string(), "\
    /// StaticTensor of i32, shape (2,3), layout (2,3):(1,2)
    /// [[0 2 4]
    ///  [1 3 5]]");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.tensor.write_display("StaticTensor", f)
    }
}

impl<T: Element, S: StaticShape> fmt::Debug for StaticTensor<T, S> {
    /// `StaticTensor<f32, (2,3)>(Tensor …)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "StaticTensor<{}, {}>({:?})",
            T::DTYPE,
            S::SHAPE,
            self.tensor
        )
    }
}

/// The constructors of a static shape: for a shape with `_` (extents known only at run time),
/// [`zeros_with`](StaticTensor::zeros_with) and its twins take those extents.
impl<T: Element, S: StaticShape> StaticTensor<T, S> {
    /// A tensor over `data` with the compact (first-mode-fastest) layout of `S`; the length
    /// must be `S`'s size. A shape with one `_` takes its extent from the length (as numpy's
    /// `reshape(-1, …)`); with several, [`from_vec_with`](Self::from_vec_with) takes them.
    ///
    /// ```
    /// use strideweave::{StaticTensor, shape_t};
    /// let t = StaticTensor::<i32, shape_t!(2, 3)>::from_vec(vec![1, 2, 3, 4, 5, 6]).unwrap();
    /// assert_eq!(t.layout().to_string(), "(2,3):(1,2)");
    /// let err = StaticTensor::<i32, shape_t!(2, 3)>::from_vec(vec![1, 2]).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "StaticTensor::from_vec: expected 6 elements, found 2"
    /// );
    /// let batch = StaticTensor::<i32, shape_t!(_, 3)>::from_vec((0..12).collect()).unwrap();
    /// assert_eq!(batch.shape().to_string(), "(4,3)");
    /// let err = StaticTensor::<i32, shape_t!(_, 3)>::from_vec(vec![1, 2]).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "StaticTensor::from_vec: 2 elements do not fill the shape (_,3): their number must be a multiple of 3"
    /// );
    /// ```
    pub fn from_vec(data: Vec<T>) -> Result<Self> {
        let op = "StaticTensor::from_vec";
        let shape = match S::SHAPE.is_static() {
            true => S::SHAPE.to_shape(),
            false => S::SHAPE.inferred_from(op, data.len())?,
        };
        Tensor::from_vec_with(data, Layout::compact(&shape), op).map(Self::new_unchecked)
    }

    /// A compact tensor holding `0, 1, 2, …` in first-mode-fastest order.
    ///
    /// ```
    /// use strideweave::{StaticTensor, shape_t};
    /// let t = StaticTensor::<i64, shape_t!(2, 2)>::arange();
    /// assert_eq!(t.to_vec().unwrap(), [0, 1, 2, 3]);
    /// ```
    ///
    /// # Panics
    ///
    /// As [`Tensor::arange`]: when the shape's elements cannot be allocated (checked before
    /// allocating, never an abort). A shape with `_` is a build error: its run-time extents
    /// go to [`arange_with`](Self::arange_with). [`Tensor::try_arange`] then
    /// [`try_from_dynamic`](Self::try_from_dynamic) returns that case as an error.
    pub fn arange() -> Self {
        const { needs_static(&S::SHAPE, "StaticTensor::arange", "arange_with") };
        StaticTensor {
            tensor: Tensor::arange::<T>(&S::SHAPE.to_shape()),
            marker: PhantomData,
        }
    }

    /// A compact tensor of zeros.
    ///
    /// ```
    /// use strideweave::{StaticTensor, shape_t};
    /// let t = StaticTensor::<f64, shape_t!(3)>::zeros();
    /// assert_eq!(t.to_vec().unwrap(), [0.0; 3]);
    /// ```
    ///
    /// # Panics
    ///
    /// As [`Tensor::zeros`]: when the shape's elements cannot be allocated (checked before
    /// allocating, never an abort). A shape with `_` is a build error: its run-time extents
    /// go to [`zeros_with`](Self::zeros_with). [`Tensor::zeros_of`] then
    /// [`try_from_dynamic`](Self::try_from_dynamic) returns that case as an error.
    pub fn zeros() -> Self {
        const { needs_static(&S::SHAPE, "StaticTensor::zeros", "zeros_with") };
        StaticTensor {
            tensor: Tensor::zeros::<T>(&S::SHAPE.to_shape()),
            marker: PhantomData,
        }
    }
}

/// The constructors of any static shape, given the extents known only at run time (the `_` of
/// `S`, depth-first; none for a fully static shape).
impl<T: Element, S: StaticShape> StaticTensor<T, S> {
    /// A tensor over `data` with the compact layout of `S`, its `_` extents set to `runtime`.
    ///
    /// ```
    /// use strideweave::{StaticTensor, shape, shape_t};
    /// let t = StaticTensor::<i32, shape_t!(_, 2)>::from_vec_with((0..6).collect(), &[3]).unwrap();
    /// assert_eq!(t.layout().to_string(), "(3,2):(1,3)");
    /// let err = StaticTensor::<i32, shape_t!(_, 2)>::from_vec_with(vec![1, 2], &[3]).unwrap_err();
    /// assert_eq!(err.to_string(), "StaticTensor::from_vec_with: expected 6 elements, found 2");
    /// ```
    pub fn from_vec_with(data: Vec<T>, runtime: &[i64]) -> Result<Self> {
        let op = "StaticTensor::from_vec_with";
        let layout = Layout::compact(&S::SHAPE.with_runtime_as(op, runtime)?);
        Tensor::from_vec_with(data, layout, op).map(Self::new_unchecked)
    }

    /// `0, 1, 2, …` in first-mode-fastest order, the `_` extents of `S` set to `runtime`.
    ///
    /// ```
    /// use strideweave::{StaticTensor, shape_t};
    /// let t = StaticTensor::<i64, shape_t!(2, _)>::arange_with(&[2]).unwrap();
    /// assert_eq!(t.to_vec().unwrap(), [0, 1, 2, 3]);
    /// let err = StaticTensor::<i64, shape_t!(2, _)>::arange_with(&[]).unwrap_err();
    /// assert_eq!(err.to_string(), "StaticTensor::arange_with: expected 1 run-time extents, found 0");
    /// ```
    pub fn arange_with(runtime: &[i64]) -> Result<Self> {
        let op = "StaticTensor::arange_with";
        Tensor::try_arange::<T>(&S::SHAPE.with_runtime_as(op, runtime)?).map(Self::new_unchecked)
    }

    /// Zeros, the `_` extents of `S` set to `runtime`.
    ///
    /// ```
    /// use strideweave::{StaticTensor, shape, shape_t};
    /// let t = StaticTensor::<f32, shape_t!(_, (4, _))>::zeros_with(&[2, 3]).unwrap();
    /// assert_eq!(t.shape(), &shape!(2, (4, 3)));
    /// let err = StaticTensor::<f32, shape_t!(_, 4)>::zeros_with(&[-1]).unwrap_err();
    /// assert_eq!(err.to_string(), "StaticTensor::zeros_with: extent -1 at mode 0 must be at least 1");
    /// ```
    pub fn zeros_with(runtime: &[i64]) -> Result<Self> {
        let op = "StaticTensor::zeros_with";
        Tensor::zeros_of(T::DTYPE, &S::SHAPE.with_runtime_as(op, runtime)?).map(Self::new_unchecked)
    }
}

impl<T: Element, S: StaticShape> StaticTensor<T, S> {
    /// Wraps a tensor known to have dtype `T` and shape `S`.
    pub(crate) fn new_unchecked(tensor: Tensor) -> Self {
        // No debug assertion here: this is instantiated once per static shape, and every line
        // of it costs compile time in each user's crate (the callers build the right shape).
        StaticTensor {
            tensor,
            marker: PhantomData,
        }
    }

    /// The shape `S` as a constant.
    ///
    /// ```
    /// use strideweave::{StaticTensor, shape_t};
    /// assert_eq!(StaticTensor::<u8, shape_t!(2, 3)>::SHAPE.size(), 6);
    /// ```
    pub const SHAPE: ShapeCode = S::SHAPE;

    /// Checks that `tensor` has dtype `T` and shape `S` (at the root an integer `n` and the
    /// one-mode tuple `(n)` agree) and wraps it, without copying.
    ///
    /// ```
    /// use strideweave::{StaticTensor, Tensor, shape, shape_t, ErrorKind};
    /// let t = Tensor::arange::<f32>(&shape!(3, 2)).permute(&[1, 0]).unwrap();
    /// let s = StaticTensor::<f32, shape_t!(2, 3)>::try_from_dynamic(t.clone()).unwrap();
    /// assert_eq!(s.layout().to_string(), "(2,3):(3,1)");
    ///
    /// let err = StaticTensor::<f32, shape_t!(3, 2)>::try_from_dynamic(t.clone()).unwrap_err();
    /// assert_eq!(err.to_string(), "StaticTensor::try_from_dynamic: shape (2,3) does not match (3,2): the static shape differs");
    /// let err = StaticTensor::<i32, shape_t!(2, 3)>::try_from_dynamic(t).unwrap_err();
    /// assert_eq!(err.kind(), ErrorKind::Type);
    /// assert_eq!(err.to_string(), "StaticTensor::try_from_dynamic: expected dtype i32, found f32");
    /// ```
    pub fn try_from_dynamic(tensor: Tensor) -> Result<Self> {
        Self::try_from_dynamic_as("StaticTensor::try_from_dynamic", tensor)
    }

    /// [`try_from_dynamic`](Self::try_from_dynamic) reporting errors as `op`, the operation
    /// called.
    fn try_from_dynamic_as(op: &'static str, tensor: Tensor) -> Result<Self> {
        if tensor.dtype() != T::DTYPE {
            return Err(Error::WrongType {
                op,
                expected: format!("dtype {}", T::DTYPE),
                found: format!("{}", tensor.dtype()),
            });
        }
        let same = ShapeCode::from_shape(tensor.shape()).is_some_and(|c| S::SHAPE.agrees(&c));
        if !same {
            return Err(Error::ShapeMismatch {
                op,
                expected: S::SHAPE.to_string(),
                found: tensor.shape().to_string(),
                detail: "the static shape differs".to_string(),
            });
        }
        Ok(StaticTensor {
            tensor,
            marker: PhantomData,
        })
    }

    /// The same tensor as a dynamic [`Tensor`] (free).
    ///
    /// ```
    /// use strideweave::{StaticTensor, shape_t};
    /// let t = StaticTensor::<f32, shape_t!(2, 3)>::zeros();
    /// assert_eq!(t.as_dynamic().rank(), 2);
    /// ```
    pub fn as_dynamic(&self) -> &Tensor {
        &self.tensor
    }

    /// The dynamic [`Tensor`] (free).
    ///
    /// ```
    /// use strideweave::{StaticTensor, Tensor, shape_t};
    /// let t: Tensor = StaticTensor::<f32, shape_t!(2, 3)>::zeros().into_dynamic();
    /// assert_eq!(t.size(), 6);
    /// ```
    pub fn into_dynamic(self) -> Tensor {
        self.tensor
    }

    /// The runtime shape, equal to `S`'s.
    ///
    /// ```
    /// use strideweave::{StaticTensor, shape, shape_t};
    /// assert_eq!(StaticTensor::<u8, shape_t!(2, (3, 4))>::zeros().shape(), &shape!(2, (3, 4)));
    /// ```
    pub fn shape(&self) -> &Shape {
        self.tensor.shape()
    }

    /// The placement layout (of subtensor zero).
    ///
    /// ```
    /// use strideweave::{StaticTensor, shape_t};
    /// assert_eq!(StaticTensor::<u8, shape_t!(2, 3)>::zeros().layout().to_string(), "(2,3):(1,2)");
    /// ```
    pub fn layout(&self) -> &Layout {
        self.tensor.layout()
    }

    /// The logical dtype, `T`'s.
    ///
    /// ```
    /// use strideweave::{DType, StaticTensor, shape_t};
    /// assert_eq!(StaticTensor::<u8, shape_t!(2)>::zeros().dtype(), DType::U8);
    /// ```
    pub fn dtype(&self) -> DType {
        self.tensor.dtype()
    }

    /// The number of elements, `S`'s size.
    ///
    /// ```
    /// use strideweave::{StaticTensor, shape_t};
    /// assert_eq!(StaticTensor::<u8, shape_t!(2, (3, 4))>::zeros().size(), 24);
    /// ```
    pub fn size(&self) -> usize {
        self.tensor.size()
    }

    /// The number of top-level modes of `S`.
    ///
    /// ```
    /// use strideweave::{StaticTensor, shape_t};
    /// assert_eq!(StaticTensor::<u8, shape_t!(2, (3, 4))>::zeros().rank(), 2);
    /// ```
    pub fn rank(&self) -> usize {
        self.tensor.rank()
    }

    /// The offset in the carrier of the element at the origin.
    ///
    /// ```
    /// use strideweave::{StaticTensor, shape_t};
    /// assert_eq!(StaticTensor::<u8, shape_t!(2, 3)>::zeros().offset(), 0);
    /// ```
    pub fn offset(&self) -> usize {
        self.tensor.offset()
    }

    /// The carrier holding the elements.
    ///
    /// ```
    /// use strideweave::{StaticTensor, shape_t};
    /// assert_eq!(StaticTensor::<u8, shape_t!(2, 3)>::zeros().carrier().len(), 6);
    /// ```
    pub fn carrier(&self) -> &Carrier {
        self.tensor.carrier()
    }

    /// The class of the carrier (where the elements live).
    ///
    /// ```
    /// use strideweave::{StaticTensor, shape_t};
    /// assert_eq!(StaticTensor::<u8, shape_t!(2)>::zeros().carrier_class().name(), "host");
    /// ```
    pub fn carrier_class(&self) -> CarrierClass {
        self.tensor.carrier_class()
    }

    /// Whether the tensor takes part in autograd (see [`Tensor::requires_grad`]).
    ///
    /// ```
    /// use strideweave::{StaticTensor, shape_t};
    /// let t = StaticTensor::<f64, shape_t!(2)>::zeros();
    /// assert!(!t.requires_grad());
    /// t.as_dynamic().set_requires_grad(true).unwrap();
    /// assert!(t.requires_grad() && t.is_leaf());
    /// ```
    pub fn requires_grad(&self) -> bool {
        self.tensor.requires_grad()
    }

    /// Whether no recorded operation produced this tensor (see [`Tensor::is_leaf`]).
    ///
    /// ```
    /// use strideweave::{StaticTensor, shape_t};
    /// assert!(StaticTensor::<f64, shape_t!(2)>::zeros().is_leaf());
    /// ```
    pub fn is_leaf(&self) -> bool {
        self.tensor.is_leaf()
    }

    /// The name of the operation that produced this tensor, for a non-leaf (see
    /// [`Tensor::grad_op`]).
    ///
    /// ```
    /// use strideweave::{StaticTensor, rearrange, shape_t};
    /// let t = StaticTensor::<f64, shape_t!(2, 3)>::zeros();
    /// t.as_dynamic().set_requires_grad(true).unwrap();
    /// assert_eq!(rearrange!(t, "a b -> b a").grad_op(), Some("rearrange!"));
    /// ```
    pub fn grad_op(&self) -> Option<&'static str> {
        self.tensor.grad_op()
    }

    /// The accumulated gradient, of this tensor's shape (see [`Tensor::grad`]).
    ///
    /// ```
    /// use strideweave::{StaticTensor, shape_t};
    /// let t = StaticTensor::<f64, shape_t!(2)>::zeros();
    /// t.as_dynamic().set_requires_grad(true).unwrap();
    /// assert!(t.grad().is_none());
    /// t.as_dynamic().sum().unwrap().backward().unwrap();
    /// assert_eq!(t.grad().unwrap().to_vec().unwrap(), [1.0, 1.0]);
    /// ```
    pub fn grad(&self) -> Option<StaticTensor<T, S>> {
        self.tensor.grad().map(Self::new_unchecked)
    }

    /// Whether this non-leaf keeps its gradient (see [`Tensor::retains_grad`]).
    ///
    /// ```
    /// use strideweave::{StaticTensor, shape_t};
    /// assert!(!StaticTensor::<f64, shape_t!(2)>::zeros().retains_grad());
    /// ```
    pub fn retains_grad(&self) -> bool {
        self.tensor.retains_grad()
    }

    /// The element at a coordinate (see [`Tensor::get`]).
    ///
    /// ```
    /// use strideweave::{IntTuple, StaticTensor, shape_t};
    /// let t = StaticTensor::<i32, shape_t!(2, 3)>::arange();
    /// assert_eq!(t.get(&IntTuple::from([1, 2])).unwrap(), 5);
    /// assert!(t.get(&IntTuple::from([2, 0])).unwrap_err().to_string().starts_with("get: "));
    /// ```
    pub fn get(&self, coord: &IntTuple) -> Result<T> {
        // Unreachable: a StaticTensor<T, _> is built only with T's dtype, so its scalar is a T.
        let v = self.tensor.get(coord)?;
        // unreachable from user input: a StaticTensor<T, _> is built only with T's dtype, so its scalar is a T.
        Ok(T::from_scalar(v).expect("a StaticTensor<T, _> holds T"))
    }

    /// The element at a first-mode-fastest ordinal (see [`Tensor::get_ordinal`]).
    ///
    /// ```
    /// use strideweave::{StaticTensor, shape_t};
    /// let t = StaticTensor::<i32, shape_t!(2, 3)>::arange();
    /// assert_eq!(t.get_ordinal(4).unwrap(), 4);
    /// assert!(t.get_ordinal(6).is_err());
    /// ```
    pub fn get_ordinal(&self, ordinal: usize) -> Result<T> {
        // Unreachable: a StaticTensor<T, _> is built only with T's dtype, so its scalar is a T.
        let v = self.tensor.get_ordinal(ordinal)?;
        // unreachable from user input: a StaticTensor<T, _> is built only with T's dtype, so its scalar is a T.
        Ok(T::from_scalar(v).expect("a StaticTensor<T, _> holds T"))
    }

    /// The value of a one-element tensor (see [`Tensor::item`]).
    ///
    /// ```
    /// use strideweave::{StaticTensor, shape_t};
    /// assert_eq!(StaticTensor::<f64, shape_t!(1, 1)>::zeros().item().unwrap(), 0.0);
    /// assert!(StaticTensor::<f64, shape_t!(2)>::zeros().item().is_err());
    /// ```
    pub fn item(&self) -> Result<T> {
        self.tensor.item::<T>()
    }

    /// The elements in first-mode-fastest order (fails only on released storage).
    ///
    /// ```
    /// use strideweave::{StaticTensor, shape_t};
    /// assert_eq!(StaticTensor::<i32, shape_t!(3)>::arange().to_vec().unwrap(), [0, 1, 2]);
    /// ```
    pub fn to_vec(&self) -> Result<Vec<T>> {
        self.tensor.to_vec::<T>()
    }

    /// The elements in row-major order: the last leaf varies fastest.
    ///
    /// ```
    /// use strideweave::{StaticTensor, shape_t};
    /// let t = StaticTensor::<i32, shape_t!(2, 3)>::arange();
    /// assert_eq!(t.to_vec_row_major().unwrap(), [0, 2, 4, 1, 3, 5]);
    /// ```
    pub fn to_vec_row_major(&self) -> Result<Vec<T>> {
        self.tensor.to_vec_row_major::<T>()
    }

    /// The elements in first-mode-fastest order as [`Scalar`]s.
    ///
    /// ```
    /// use strideweave::{Scalar, StaticTensor, shape_t};
    /// let t = StaticTensor::<u8, shape_t!(3)>::arange();
    /// assert_eq!(t.to_scalars().unwrap()[2], Scalar::U8(2));
    /// ```
    pub fn to_scalars(&self) -> Result<Vec<Scalar>> {
        self.tensor.to_scalars()
    }

    /// An iterator over the elements in first-mode-fastest order.
    ///
    /// ```
    /// use strideweave::{StaticTensor, shape_t};
    /// assert_eq!(StaticTensor::<i32, shape_t!(2, 2)>::arange().iter().unwrap().sum::<i32>(), 6);
    /// ```
    pub fn iter(&self) -> Result<std::vec::IntoIter<T>> {
        self.tensor.iter::<T>()
    }

    /// The whole representation: dtype, subtensors, adjacent layouts.
    ///
    /// ```
    /// use strideweave::{StaticTensor, shape_t};
    /// assert_eq!(StaticTensor::<u8, shape_t!(2)>::zeros().representation().subtensors().len(), 1);
    /// ```
    pub fn representation(&self) -> &Representation {
        self.tensor.representation()
    }

    /// The mutation snapshot of the carriers.
    ///
    /// ```
    /// use strideweave::{StaticTensor, shape_t};
    /// assert_eq!(StaticTensor::<u8, shape_t!(2)>::zeros().snapshot().entries().len(), 1);
    /// ```
    pub fn snapshot(&self) -> Snapshot {
        self.tensor.snapshot()
    }

    /// The same tensor with another static shape `S2` that denotes the same shape, checked
    /// at compile time: a mismatch is a build error (like `rearrange!`'s static checks, it is
    /// reported by `cargo build`, not by `cargo check`).
    ///
    /// Use it to name a result's shape in a signature, and to cut long chains of
    /// `rearrange!`: each result's type nests its source's, and the compiler's work on a
    /// chain grows faster than its length; a cast starts the nesting afresh.
    ///
    /// ```
    /// use strideweave::{StaticTensor, rearrange, shape_t};
    /// type Hwc = shape_t!(4, 3, 5);
    /// fn split(t: StaticTensor<f32, shape_t!(12, 5)>) -> StaticTensor<f32, Hwc> {
    ///     rearrange!(t, "(h w) c -> h w c", h = 4).cast()
    /// }
    /// assert_eq!(split(StaticTensor::arange()).layout().to_string(), "(4,3,5):(1,4,12)");
    /// ```
    pub fn cast<S2: StaticShape>(self) -> StaticTensor<T, S2> {
        const { check_cast(&S::SHAPE, &S2::SHAPE) };
        StaticTensor {
            tensor: self.tensor,
            marker: PhantomData,
        }
    }

    /// The same tensor with another static shape `S2` that denotes the same shape (for
    /// example a named type for a result of `rearrange!`); checked at run time.
    ///
    /// ```
    /// use strideweave::{StaticTensor, rearrange, shape_t};
    /// type Hwc = shape_t!(4, 3, 5);
    /// fn split(t: StaticTensor<f32, shape_t!(12, 5)>) -> StaticTensor<f32, Hwc> {
    ///     rearrange!(t, "(h w) c -> h w c", h = 4).try_cast().unwrap()
    /// }
    /// assert_eq!(split(StaticTensor::arange()).layout().to_string(), "(4,3,5):(1,4,12)");
    /// assert!(StaticTensor::<f32, shape_t!(2, 3)>::zeros().try_cast::<shape_t!(3, 2)>().is_err());
    /// ```
    pub fn try_cast<S2: StaticShape>(self) -> Result<StaticTensor<T, S2>> {
        StaticTensor::try_from_dynamic_as("StaticTensor::try_cast", self.tensor)
    }
}

impl<T: Element, S: StaticShape> From<StaticTensor<T, S>> for Tensor {
    /// [`StaticTensor::into_dynamic`].
    fn from(t: StaticTensor<T, S>) -> Tensor {
        t.tensor
    }
}

impl<T: Element, S: StaticShape> TryFrom<Tensor> for StaticTensor<T, S> {
    type Error = Error;

    /// [`StaticTensor::try_from_dynamic`].
    fn try_from(t: Tensor) -> Result<Self> {
        StaticTensor::try_from_dynamic(t)
    }
}

/// The compile-time check of a constructor (`op`) that needs every extent: a shape with `_`
/// is a build error naming the constructor (`with`) that takes the run-time extents.
const fn needs_static(shape: &ShapeCode, op: &str, with: &str) {
    if shape.is_static() {
        return;
    }
    let mut buf = [0u8; crate::pattern::MSG_CAP];
    let mut m = crate::pattern::Msg::new(&mut buf);
    m.str(op);
    m.str(": the shape ");
    m.shape(shape.view());
    m.str(" has extents known only at run time (`_`); give them with `StaticTensor::");
    m.str(with);
    m.str("(&[…])`");
    panic!("{}", m.as_str());
}

/// `StaticTensor::cast`'s compile-time check: the two static shapes must agree, and every
/// extent `to` fixes must be static in `from` too (`to` may leave any extent to run time).
const fn check_cast(from: &ShapeCode, to: &ShapeCode) {
    if from.is_poisoned() || to.is_poisoned() {
        return;
    }
    let mut buf = [0u8; crate::pattern::MSG_CAP];
    let mut m = crate::pattern::Msg::new(&mut buf);
    m.str("StaticTensor::cast: the tensor's static shape ");
    m.shape(from.view());
    if !from.agrees(to) {
        m.str(" differs from the shape cast to, ");
        m.shape(to.view());
        panic!("{}", m.as_str());
    }
    let mut i = 0;
    while i < from.nleaves as usize {
        let (f, t) = (from.extents[i], to.extents[i]);
        if f == RUNTIME_EXTENT && t != RUNTIME_EXTENT {
            m.str(" has an extent known only at run time where the shape cast to, ");
            m.shape(to.view());
            m.str(", fixes ");
            m.int(t);
            m.str(" (leaf ");
            m.int(i as i64);
            m.str("); `try_cast` checks it at run time");
            panic!("{}", m.as_str());
        }
        i += 1;
    }
}
