//! Conversions of a whole tensor: `to_dtype` (Rust's `as` for each element), `real`,
//! `imag`, and `map` through a closure of the user's.

use crate::autograd::node::{attach, rule, wants};
use crate::dtype::{Complex32, Complex64, DType, Element, Scalar, with_plain};
use crate::error::{Error, Result};
use crate::kernels::num::{Num, with_num};
use crate::ops::zip_map::{map_fresh, map_fresh_serial};
use crate::tensor::Tensor;

impl Tensor {
    /// A new tensor of dtype `to` holding each element converted as Rust's `as` converts:
    ///
    /// - integers and bools to floats: exact where the value fits the float's precision,
    ///   rounded to nearest otherwise (`16777217i32` → `16777216f32`); `true` is 1;
    /// - floats to integers: truncated toward zero and saturated at the type's bounds, NaN
    ///   to 0 (`-1.7` → `-1`, `300.0` → `255u8`, `-inf` → `i32::MIN`);
    /// - numbers to bool: non-zero is `true` (NaN included);
    /// - between floats: rounded to nearest (overflow to ±inf); real to complex: imaginary
    ///   part 0; complex to complex: each part converted.
    ///
    /// Complex to real is refused (`Type`): say which part with [`real`](Self::real) or
    /// [`imag`](Self::imag). Differentiable between floating and complex dtypes (the
    /// cotangent converted back); the result of a conversion to or from an integer or bool
    /// dtype records nothing.
    ///
    /// ```
    /// use strideweave::{DType, Tensor};
    /// let t = Tensor::from_vec(vec![-1.7f64, 300.0, f64::NAN], &"3".parse().unwrap()).unwrap();
    /// assert_eq!(t.to_dtype(DType::U8).unwrap().to_vec::<u8>().unwrap(), [0, 255, 0]);
    /// assert_eq!(t.to_dtype(DType::I32).unwrap().to_vec::<i32>().unwrap(), [-1, 300, 0]);
    /// let i = Tensor::from_vec(vec![16777217i32], &"1".parse().unwrap()).unwrap();
    /// assert_eq!(i.to_dtype(DType::F32).unwrap().to_vec::<f32>().unwrap(), [16777216.0]);
    /// ```
    pub fn to_dtype(&self, to: DType) -> Result<Tensor> {
        const OP: &str = "to_dtype";
        self.require_single(OP)?;
        let from = self.dtype();
        if from.is_complex() && !to.is_complex() || !to.is_plain() {
            return Err(Error::WrongType {
                op: OP,
                expected: match to.is_plain() {
                    true => "a real source for a real dtype (take real() or imag() of a complex tensor first)".into(),
                    false => "a plain target dtype (a block-scaled one is made by quantizing)".into(),
                },
                found: format!("{from} to {to}"),
            });
        }
        let out = convert(OP, self, to)?;
        if !(from.is_differentiable() && to.is_differentiable() && wants(&[self])) {
            return Ok(out);
        }
        // The cotangent converted back to the source's dtype (a complex cotangent of a real
        // source: its real part).
        let grads = rule(move |step| {
            let (op, cot, inputs, _) = step.parts();
            let shape = inputs[0].shape();
            let c = with_num!(cot.dtype(), T => Tensor::from_vec(T::cotangent(op, cot)?, shape)?,
                _ => unreachable!("differentiable"));
            let back = convert(op, &c, from)?;
            let g = with_num!(from, T => T::dense(back.to_vec::<T>()?), _ => unreachable!("differentiable"));
            Ok(smallvec::smallvec![Some(g)])
        });
        Ok(attach(out, OP, &[self], grads))
    }
}

impl Tensor {
    /// The real parts of a complex tensor, as a fresh real tensor of the matching width
    /// (complex64 → f32); a real tensor's values, copied. Differentiable.
    ///
    /// ```
    /// use strideweave::{Complex64, Tensor};
    /// let z = Tensor::from_vec(vec![Complex64::new(1.0, 2.0)], &"1".parse().unwrap()).unwrap();
    /// assert_eq!(z.real().unwrap().to_vec::<f64>().unwrap(), [1.0]);
    /// assert_eq!(z.imag().unwrap().to_vec::<f64>().unwrap(), [2.0]);
    /// ```
    pub fn real(&self) -> Result<Tensor> {
        part(self, "real", false)
    }

    /// The imaginary parts of a complex tensor, as a fresh real tensor (see
    /// [`real`](Self::real)); a real tensor has none (`Type`). Differentiable.
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<f64>(&"2".parse().unwrap());
    /// assert!(t.imag().unwrap_err().to_string().starts_with("imag: "));
    /// ```
    pub fn imag(&self) -> Result<Tensor> {
        part(self, "imag", true)
    }

    /// `f` of every element into a fresh compact tensor of `f`'s result type, for any
    /// element types (`T` must be this tensor's: `Type` otherwise). Not recorded for
    /// autograd: `f` is opaque, so the result takes no part in gradients (write a
    /// [`Function`](crate::autograd::Function) for a differentiable one).
    ///
    /// ```
    /// let t = strideweave::Tensor::arange::<f32>(&"3".parse().unwrap());
    /// let d = t.map(|x: f32| x as f64 * 2.0).unwrap();
    /// assert_eq!(d.to_vec::<f64>().unwrap(), [0.0, 2.0, 4.0]);
    /// let b = t.map(|x: f32| x > 0.5).unwrap();
    /// assert_eq!(b.to_vec::<bool>().unwrap(), [false, true, true]);
    /// assert!(t.map(|x: i32| x).is_err());
    /// ```
    pub fn map<T: Element, U: Element>(&self, f: impl Fn(T) -> U) -> Result<Tensor> {
        const OP: &str = "map";
        self.require_single(OP)?;
        if self.dtype() != T::DTYPE {
            return Err(Error::WrongType {
                op: OP,
                expected: format!("a closure taking {} (the tensor's dtype)", self.dtype()),
                found: format!("a closure taking {}", T::DTYPE),
            });
        }
        Tensor::from_vec(map_fresh_serial(OP, self, f)?, self.shape())
    }
}

/// The real (`imag = false`) or imaginary part of every element.
fn part(t: &Tensor, op: &'static str, imag: bool) -> Result<Tensor> {
    t.require_single(op)?;
    let d = t.dtype();
    let values = match d {
        DType::ComplexF32 => Tensor::from_vec(
            map_fresh(op, t, |z: Complex32| if imag { z.im } else { z.re })?,
            t.shape(),
        )?,
        DType::ComplexF64 => Tensor::from_vec(
            map_fresh(op, t, |z: Complex64| if imag { z.im } else { z.re })?,
            t.shape(),
        )?,
        d if d.is_plain() && !imag => return t.to_dtype(d),
        d => {
            return Err(Error::WrongType {
                op,
                expected: match imag {
                    true => "a complex tensor (a real one has no imaginary part)",
                    false => "a complex or real plain tensor",
                }
                .into(),
                found: format!("a {d} tensor"),
            });
        }
    };
    if !wants(&[t]) {
        return Ok(values);
    }
    // The cotangent `c` of a part is `c + 0i` (real) or `0 + ci` (imag) on the source.
    let grads = rule(move |step| {
        let (op, cot, _, _) = step.parts();
        let g = with_num!(cot.dtype(), T => {
            let c = T::cotangent(op, cot)?;
            let z = |c: T| {
                let c = c.to_scalar().to_f64();
                if imag { (0.0, c) } else { (c, 0.0) }
            };
            match d {
                DType::ComplexF32 => Complex32::dense(c.into_iter().map(|c| { let (re, im) = z(c); Complex32::new(re as f32, im as f32) }).collect()),
                _ => Complex64::dense(c.into_iter().map(|c| { let (re, im) = z(c); Complex64::new(re, im) }).collect()),
            }
        }, _ => unreachable!("differentiable"));
        Ok(smallvec::smallvec![Some(g)])
    });
    Ok(attach(values, op, &[t], grads))
}

/// Each element of `t` converted to `to` as [`as_dtype`] says, into a fresh compact tensor.
fn convert(op: &'static str, t: &Tensor, to: DType) -> Result<Tensor> {
    with_plain!(t.dtype(), S => with_plain!(to, U => {
        let v: Vec<U> = map_fresh(op, t, |x: S| {
            // unreachable from user input: `as_dtype` gives a scalar of dtype `to`, checked
            // convertible by the caller.
            U::from_scalar(as_dtype(x.to_scalar(), to)).expect("a scalar of the target dtype")
        })?;
        Tensor::from_vec(v, t.shape())
    }, else unreachable!("checked: a plain dtype")), else unreachable!("checked: a plain dtype"))
}

/// `s` converted to `to` as Rust's `as` converts (complex to real takes the real part; the
/// callers refuse it first).
fn as_dtype(s: Scalar, to: DType) -> Scalar {
    // The value as the widest form of its kind: exact for every source.
    enum Wide {
        Int(i64),
        Float(f64),
        Complex(Complex64),
    }
    let w = match s {
        Scalar::F32(v) => Wide::Float(v as f64),
        Scalar::F64(v) => Wide::Float(v),
        Scalar::I32(v) => Wide::Int(v as i64),
        Scalar::I64(v) => Wide::Int(v),
        Scalar::U8(v) => Wide::Int(v as i64),
        Scalar::I8(v) => Wide::Int(v as i64),
        Scalar::Bool(v) => Wide::Int(v as i64),
        Scalar::ComplexF32(v) => Wide::Complex(Complex64::new(v.re as f64, v.im as f64)),
        Scalar::ComplexF64(v) => Wide::Complex(v),
        #[cfg(feature = "half")]
        Scalar::F16(v) => Wide::Float(v.to_f64()),
        #[cfg(feature = "half")]
        Scalar::BF16(v) => Wide::Float(v.to_f64()),
    };
    macro_rules! to {
        ($v:ident => $e:expr) => {
            match w {
                Wide::Int($v) => $e,
                Wide::Float($v) => $e,
                Wide::Complex(z) => {
                    let $v = z.re;
                    $e
                }
            }
        };
    }
    match to {
        DType::F32 => Scalar::F32(to!(v => v as f32)),
        DType::F64 => Scalar::F64(to!(v => v as f64)),
        DType::I32 => Scalar::I32(to!(v => v as i32)),
        DType::I64 => Scalar::I64(to!(v => v as i64)),
        DType::U8 => Scalar::U8(to!(v => v as u8)),
        DType::I8 => Scalar::I8(to!(v => v as i8)),
        DType::Bool => Scalar::Bool(match w {
            Wide::Int(v) => v != 0,
            Wide::Float(v) => v != 0.0,
            Wide::Complex(z) => z.re != 0.0 || z.im != 0.0,
        }),
        DType::ComplexF32 | DType::ComplexF64 => {
            let z = match w {
                Wide::Int(v) => Complex64::new(v as f64, 0.0),
                Wide::Float(v) => Complex64::new(v, 0.0),
                Wide::Complex(z) => z,
            };
            match to {
                DType::ComplexF32 => Scalar::ComplexF32(Complex32::new(z.re as f32, z.im as f32)),
                _ => Scalar::ComplexF64(z),
            }
        }
        #[cfg(feature = "half")]
        DType::F16 => Scalar::F16(match w {
            Wide::Int(v) => half::f16::from_f32(v as f32),
            _ => half::f16::from_f64(to!(v => v as f64)),
        }),
        #[cfg(feature = "half")]
        DType::BF16 => Scalar::BF16(match w {
            Wide::Int(v) => half::bf16::from_f32(v as f32),
            _ => half::bf16::from_f64(to!(v => v as f64)),
        }),
        // unreachable from user input: `to_dtype` refuses a target that is not plain.
        DType::BlockScaledI8F32 => unreachable!("checked: a plain target"),
    }
}
