//! Element reads and writes. Reads never change a carrier; every write increments the
//! version of the carrier it writes (once per call). All require a one-subtensor tensor.
//!
//! One element is addressed either by a coordinate (`get`, `set`) or by a
//! first-mode-fastest ordinal (`get_ordinal`, `set_ordinal`).

use crate::dtype::{DType, Element, Scalar};
use crate::error::{Error, Result};
use crate::layout::{IntTuple, Layout};
use crate::tensor::{Tensor, materialize};

impl Tensor {
    /// The element at a coordinate (mirroring the shape, or integers at any level).
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<i32>(&"(2,(3,4))".parse().unwrap());
    /// assert_eq!(t.get(&"(1,(2,3))".parse().unwrap()).unwrap().to_f64(), 23.0);
    /// let err = t.get(&"(2,(0,0))".parse().unwrap()).unwrap_err();
    /// assert_eq!(err.to_string(), "get: coordinate 2 is outside mode 0 of extent 2 (valid: 0..2)");
    /// ```
    pub fn get(&self, coord: &IntTuple) -> Result<Scalar> {
        const OP: &str = "get";
        let s = self.require_single(OP)?;
        let k = s.layout.index_as(OP, coord)?;
        self.read_at(OP, k)
    }

    /// The element at a first-mode-fastest ordinal.
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<i32>(&"(2,3)".parse().unwrap()).permute(&[1, 0]).unwrap();
    /// assert_eq!(t.get_ordinal(1).unwrap().to_f64(), 2.0);
    /// assert!(t.get_ordinal(6).unwrap_err().to_string().starts_with("get_ordinal: ordinal 6"));
    /// ```
    pub fn get_ordinal(&self, ordinal: usize) -> Result<Scalar> {
        const OP: &str = "get_ordinal";
        let s = self.require_single(OP)?;
        let k = s.layout.index_of_as(OP, ordinal)?;
        self.read_at(OP, k)
    }

    /// The value of a tensor of exactly one element (any shape of size 1: `()`, `1`,
    /// `(1,(1))`, …) as `T`, the tensor's own element type.
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let t = Tensor::arange::<f64>(&"(2,3)".parse().unwrap());
    /// assert_eq!(t.sum().unwrap().item::<f64>().unwrap(), 15.0);
    /// assert_eq!(Tensor::scalar(7i32).item::<i32>().unwrap(), 7);
    /// assert_eq!(
    ///     t.item::<f64>().unwrap_err().to_string(),
    ///     "item: shape (2,3) does not match a shape of size 1: only a tensor of one element has an item; this one has 6"
    /// );
    /// ```
    pub fn item<T: Element>(&self) -> Result<T> {
        const OP: &str = "item";
        let s = self.require_single(OP)?;
        if s.layout.size() != 1 {
            return Err(Error::ShapeMismatch {
                op: OP,
                expected: "a shape of size 1".into(),
                found: self.shape().to_string(),
                detail: format!(
                    "only a tensor of one element has an item; this one has {}",
                    s.layout.size()
                ),
            });
        }
        let k = s.offset as i64 + s.layout.eval(0);
        self.read_host(OP, |x: &[T]| x[k as usize])
    }

    /// The elements in first-mode-fastest order, as `T` (the tensor's own element type; a
    /// block-scaled tensor reads as its dequantized `f32` values, as in
    /// [`dequantize`](Self::dequantize)). [`to_vec_row_major`](Self::to_vec_row_major) and
    /// [`iter`](Self::iter) read the same way.
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let t = Tensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0], &"(2,2)".parse().unwrap()).unwrap();
    /// assert_eq!(t.permute(&[1, 0]).unwrap().to_vec::<f32>().unwrap(), [1.0, 3.0, 2.0, 4.0]);
    /// assert!(t.to_vec::<f64>().is_err());
    /// let q = Tensor::block_scaled(vec![2, -4], vec![0.5], &"2".parse().unwrap(), 0, 2).unwrap();
    /// assert_eq!(q.to_vec::<f32>().unwrap(), [1.0, -2.0]);
    /// ```
    pub fn to_vec<T: Element>(&self) -> Result<Vec<T>> {
        self.to_vec_as("to_vec")
    }

    /// [`to_vec`](Self::to_vec) reporting errors as `op`, the operation called.
    pub(crate) fn to_vec_as<T: Element>(&self, op: &'static str) -> Result<Vec<T>> {
        self.to_vec_ordered(op, &Layout::compact(self.shape()))
    }

    /// The elements placed by `order` (a compact layout of the shape at offset 0) in a new
    /// `Vec`, written by the copy engine.
    pub(crate) fn to_vec_ordered<T: Element>(
        &self,
        op: &'static str,
        order: &Layout,
    ) -> Result<Vec<T>> {
        if self.dtype() == DType::BlockScaledI8F32 {
            if T::DTYPE != DType::F32 {
                // Its codes and scales are not readable one by one (RT008).
                return Err(Error::NotImplemented {
                    op,
                    reason: format!(
                        "requires a one-subtensor Tensor to read {} elements; a block-scaled tensor reads only as its dequantized f32 values",
                        T::DTYPE
                    ),
                });
            }
            return self.dequantize_as(op)?.to_vec_ordered(op, order);
        }
        let s = self.require_single(op)?;
        self.read_host(op, |x: &[T]| {
            materialize::to_vec_in(x, s.offset as i64, &s.layout, order, op)
        })?
    }

    /// The elements in row-major order: the last leaf (depth-first) varies fastest.
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<i64>(&"(2,3)".parse().unwrap());
    /// assert_eq!(t.to_vec_row_major::<i64>().unwrap(), [0, 2, 4, 1, 3, 5]);
    /// ```
    pub fn to_vec_row_major<T: Element>(&self) -> Result<Vec<T>> {
        self.to_vec_ordered("to_vec_row_major", &Layout::row_major(self.shape()))
    }

    /// The elements in first-mode-fastest order as [`Scalar`]s, whatever the dtype.
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<u8>(&"3".parse().unwrap());
    /// assert_eq!(t.to_scalars().unwrap()[2], strideweave::Scalar::U8(2));
    /// ```
    pub fn to_scalars(&self) -> Result<Vec<Scalar>> {
        const OP: &str = "to_scalars";
        let s = self.require_single(OP)?;
        let (o, l) = (s.offset as i64, &s.layout);
        let mut out = crate::budget::reserved_vec(OP, l.size())?;
        s.carrier.with_host(OP, |b| {
            out.extend((0..l.size() as i64).map(|i| b.get((o + l.eval(i)) as usize)));
            Ok(out)
        })
    }

    /// An iterator over the elements in first-mode-fastest order.
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<i32>(&"(2,2)".parse().unwrap());
    /// assert_eq!(t.iter::<i32>().unwrap().sum::<i32>(), 6);
    /// ```
    pub fn iter<T: Element>(&self) -> Result<std::vec::IntoIter<T>> {
        Ok(self.to_vec_as::<T>("iter")?.into_iter())
    }

    /// Sets the element at a coordinate; increments the carrier's version. The value
    /// converts to the tensor's dtype by the casting rule of [`Scalar::cast`] (a
    /// `NotCastable` error otherwise); a view that reaches one element by several
    /// coordinates (a broadcast) is `NotInjective`.
    ///
    /// ```
    /// let t = strideweave::Tensor::zeros::<i64>(&"(2,3)".parse().unwrap());
    /// t.set(&"(1,2)".parse().unwrap(), 7i64).unwrap();
    /// assert_eq!((t.to_vec::<i64>().unwrap()[5], t.carrier().version()), (7, 1));
    /// assert!(t.set(&"(2,0)".parse().unwrap(), 1i64).is_err());
    /// ```
    pub fn set(&self, coord: &IntTuple, value: impl Into<Scalar>) -> Result<()> {
        const OP: &str = "set";
        let s = self.require_single(OP)?;
        self.require_injective(OP)?;
        let value = value.into().cast_for(OP, self.dtype())?;
        let k = s.layout.index_as(OP, coord)?;
        self.write_at(OP, k, value)
    }

    /// Sets the element at a first-mode-fastest ordinal; increments the carrier's version.
    /// The value converts by the casting rule of [`Scalar::cast`]; a non-injective view
    /// (a broadcast) is `NotInjective`.
    ///
    /// ```
    /// let t = strideweave::Tensor::zeros::<f32>(&"(2,2)".parse().unwrap());
    /// t.set_ordinal(3, 1.5).unwrap();
    /// assert_eq!((t.to_vec::<f32>().unwrap()[3], t.carrier().version()), (1.5, 1));
    /// assert!(t.set_ordinal(4, 1.0).is_err());
    /// ```
    pub fn set_ordinal(&self, ordinal: usize, value: impl Into<Scalar>) -> Result<()> {
        const OP: &str = "set_ordinal";
        let s = self.require_single(OP)?;
        self.require_injective(OP)?;
        let value = value.into().cast_for(OP, self.dtype())?;
        let k = s.layout.index_of_as(OP, ordinal)?;
        self.write_at(OP, k, value)
    }

    /// Sets every element to `value`; increments the carrier's version once. The value
    /// converts by the casting rule of [`Scalar::cast`] (`1e300` into `f32` is an error, not
    /// `inf`); a view that reaches one element by several coordinates (a broadcast) is a
    /// `NotInjective` error, returned before any element is written.
    ///
    /// ```
    /// use strideweave::{Tensor, s};
    /// let t = Tensor::zeros::<f64>(&"(2,2)".parse().unwrap());
    /// t.slice(&s![1, ..]).unwrap().fill(2.0).unwrap();
    /// assert_eq!(t.to_vec::<f64>().unwrap(), [0.0, 2.0, 0.0, 2.0]);
    /// ```
    pub fn fill(&self, value: impl Into<Scalar>) -> Result<()> {
        const OP: &str = "fill";
        self.require_single(OP)?;
        self.require_injective(OP)?;
        let value = value.into().cast_for(OP, self.dtype())?;
        materialize::fill(OP, self, value)
    }

    /// Refuses a layout that reaches one element by several coordinates (a broadcast view,
    /// an overlapping `as_strided`): decided from the strides before any element is touched,
    /// as for the destination of `copy_from`.
    fn require_injective(&self, op: &'static str) -> Result<()> {
        let layout = self.layout();
        if layout.is_injective() {
            return Ok(());
        }
        Err(Error::NotInjective {
            op,
            layout: format!("{layout} (a written view must not alias)"),
        })
    }

    /// The element at layout index `k` of subtensor zero (inside the carrier: validated).
    fn read_at(&self, op: &'static str, k: i64) -> Result<Scalar> {
        let s = &self.representation().subtensors()[0];
        let at = (s.offset as i64 + k) as usize;
        s.carrier.with_host(op, |b| Ok(b.get(at)))
    }

    /// Writes `value` (already of the tensor's dtype) at layout index `k` of subtensor zero.
    fn write_at(&self, op: &'static str, k: i64, value: Scalar) -> Result<()> {
        let s = &self.representation().subtensors()[0];
        let at = (s.offset as i64 + k) as usize;
        s.carrier.with_host_mut(op, |mut b| {
            b.set(at, value);
            Ok(())
        })
    }

    /// Runs `f` on the host elements of subtensor zero as `&[T]`; `T` must be the dtype.
    fn read_host<T: Element, R>(&self, op: &'static str, f: impl FnOnce(&[T]) -> R) -> Result<R> {
        let wrong = || Error::WrongType {
            op,
            expected: format!("{} (the tensor's dtype)", self.dtype()),
            found: T::DTYPE.to_string(),
        };
        if T::DTYPE != self.dtype() {
            return Err(wrong());
        }
        let s = &self.representation().subtensors()[0];
        s.carrier
            .with_host(op, |b| T::slice(b).map(f).ok_or_else(wrong))
    }
}
