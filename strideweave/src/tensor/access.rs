//! Element reads and writes. Reads never change a carrier; every write increments the
//! version of the carrier it writes (once per call). All require a one-subtensor tensor.

use crate::dtype::{Element, Scalar};
use crate::error::{Error, Result};
use crate::layout::IntTuple;
use crate::tensor::Tensor;

impl Tensor {
    /// The element at a coordinate (mirroring the shape, or integers at any level).
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<i32>(&"(2,(3,4))".parse().unwrap());
    /// assert_eq!(t.get(&"(1,(2,3))".parse().unwrap()).unwrap().to_f64(), 23.0);
    /// assert!(t.get(&"(2,(0,0))".parse().unwrap()).is_err());
    /// ```
    pub fn get(&self, coord: &IntTuple) -> Result<Scalar> {
        let s = self.require_single("get")?;
        let k = s.layout.index(coord)?;
        s.carrier.get((s.offset as i64 + k) as usize)
    }

    /// The element at a first-mode-fastest ordinal.
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<i32>(&"(2,3)".parse().unwrap()).permute(&[1, 0]).unwrap();
    /// assert_eq!(t.get_ordinal(1).unwrap().to_f64(), 2.0);
    /// ```
    pub fn get_ordinal(&self, ordinal: usize) -> Result<Scalar> {
        let s = self.require_single("get_ordinal")?;
        let k = s.layout.index_of(ordinal as i64)?;
        s.carrier.get((s.offset as i64 + k) as usize)
    }

    /// The elements in first-mode-fastest order, as `T` (the tensor's own element type).
    ///
    /// ```
    /// let t = strideweave::Tensor::from_vec(vec![1.0f32, 2.0, 3.0, 4.0], &"(2,2)".parse().unwrap()).unwrap();
    /// assert_eq!(t.permute(&[1, 0]).unwrap().to_vec::<f32>().unwrap(), [1.0, 3.0, 2.0, 4.0]);
    /// assert!(t.to_vec::<f64>().is_err());
    /// ```
    pub fn to_vec<T: Element>(&self) -> Result<Vec<T>> {
        let s = self.require_single("to_vec")?;
        let (o, l) = (s.offset as i64, &s.layout);
        s.carrier
            .read(|x: &[T]| {
                (0..l.size() as i64)
                    .map(|i| x[(o + l.eval(i)) as usize])
                    .collect()
            })
            .map_err(|e| rename(e, "to_vec"))
    }

    /// The elements in row-major order: the last leaf (depth-first) varies fastest.
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<i64>(&"(2,3)".parse().unwrap());
    /// assert_eq!(t.to_vec_row_major::<i64>().unwrap(), [0, 2, 4, 1, 3, 5]);
    /// ```
    pub fn to_vec_row_major<T: Element>(&self) -> Result<Vec<T>> {
        let s = self.require_single("to_vec_row_major")?;
        let (o, l) = (s.offset as i64, &s.layout);
        let extents = l.shape().extents();
        let strides = l.stride().values();
        s.carrier.read(|x: &[T]| {
            (0..l.size() as i64)
                .map(|mut r| {
                    let mut k = 0;
                    for (&e, &d) in extents.iter().zip(strides).rev() {
                        k += (r % e) * d;
                        r /= e;
                    }
                    x[(o + k) as usize]
                })
                .collect()
        })
    }

    /// The elements in first-mode-fastest order as [`Scalar`]s, whatever the dtype.
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<u8>(&"3".parse().unwrap());
    /// assert_eq!(t.to_scalars().unwrap()[2], strideweave::Scalar::U8(2));
    /// ```
    pub fn to_scalars(&self) -> Result<Vec<Scalar>> {
        let s = self.require_single("to_scalars")?;
        (0..s.layout.size() as i64)
            .map(|i| s.carrier.get((s.offset as i64 + s.layout.eval(i)) as usize))
            .collect()
    }

    /// An iterator over the elements in first-mode-fastest order.
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<i32>(&"(2,2)".parse().unwrap());
    /// assert_eq!(t.iter::<i32>().unwrap().sum::<i32>(), 6);
    /// ```
    pub fn iter<T: Element>(&self) -> Result<std::vec::IntoIter<T>> {
        Ok(self.to_vec::<T>()?.into_iter())
    }

    /// Sets the element at a first-mode-fastest ordinal; increments the carrier's version.
    /// The value converts to the tensor's dtype when nothing is lost.
    ///
    /// ```
    /// let t = strideweave::Tensor::zeros::<f32>(&"(2,2)".parse().unwrap());
    /// t.set(3, 1.5).unwrap();
    /// assert_eq!((t.to_vec::<f32>().unwrap()[3], t.carrier().version()), (1.5, 1));
    /// assert!(t.set(4, 1.0).is_err());
    /// ```
    pub fn set(&self, ordinal: usize, value: impl Into<Scalar>) -> Result<()> {
        const OP: &str = "set";
        let s = self.require_single(OP)?;
        let value = self.cast_value(OP, value.into())?;
        let k = s.offset as i64
            + s.layout
                .index_of(ordinal as i64)
                .map_err(|e| rename(e, OP))?;
        s.carrier.set(k as usize, value)
    }

    /// Sets the element at a coordinate; increments the carrier's version.
    ///
    /// ```
    /// let t = strideweave::Tensor::zeros::<i64>(&"(2,3)".parse().unwrap());
    /// t.set_at(&"(1,2)".parse().unwrap(), 7i64).unwrap();
    /// assert_eq!(t.to_vec::<i64>().unwrap()[5], 7);
    /// ```
    pub fn set_at(&self, coord: &IntTuple, value: impl Into<Scalar>) -> Result<()> {
        const OP: &str = "set_at";
        let s = self.require_single(OP)?;
        let value = self.cast_value(OP, value.into())?;
        let k = s.offset as i64 + s.layout.index(coord)?;
        s.carrier.set(k as usize, value)
    }

    /// Sets every element to `value`; increments the carrier's version once.
    ///
    /// ```
    /// let t = strideweave::Tensor::zeros::<f64>(&"(2,2)".parse().unwrap());
    /// t.index(&[1.into(), strideweave::Key::all()]).unwrap().view().unwrap().fill(2.0).unwrap();
    /// assert_eq!(t.to_vec::<f64>().unwrap(), [0.0, 2.0, 0.0, 2.0]);
    /// ```
    pub fn fill(&self, value: impl Into<Scalar>) -> Result<()> {
        const OP: &str = "fill";
        let s = self.require_single(OP)?;
        let value = self.cast_value(OP, value.into())?;
        let (o, l) = (s.offset as i64, &s.layout);
        s.carrier.with_host_mut(OP, |mut b| {
            for i in 0..l.size() as i64 {
                b.set((o + l.eval(i)) as usize, value);
            }
            Ok(())
        })
    }

    fn cast_value(&self, op: &'static str, value: Scalar) -> Result<Scalar> {
        value.cast(self.dtype()).ok_or_else(|| Error::WrongType {
            op,
            expected: format!("a value representable as {}", self.dtype()),
            found: format!("{value} ({})", value.dtype()),
        })
    }
}

fn rename(e: Error, op: &'static str) -> Error {
    match e {
        Error::OutOfDomain {
            what,
            value,
            place,
            bound,
            ..
        } => Error::OutOfDomain {
            op,
            what,
            value,
            place,
            bound,
        },
        e => e,
    }
}
