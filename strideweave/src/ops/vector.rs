//! Vector algebra of the Shaped Types document: `magnitude`, `normalize` and `cross`, each
//! with its backward rule. (`dot` and `outer` are contractions: `ops/contract.rs`.)

use crate::autograd::node::{Cotangents, Step, rule};
use crate::dtype::Element;
use crate::error::{Error, Result};
use crate::kernels::int::{Int, with_int};
use crate::kernels::num::{Num, with_num, with_real};
use crate::layout::Shape;
use crate::ops::{Accepts, Dest, check_operand_for, check_pair_for, deliver, finish, fresh};
use crate::tensor::Tensor;

/// The Euclidean length of `x` (every element, in ordinal order), scaled by the largest
/// magnitude so that no square overflows or underflows; through `f64`.
fn length(x: &[f64]) -> f64 {
    let m = x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    if m == 0.0 || m.is_infinite() || x.iter().any(|v| v.is_nan()) {
        return if x.iter().any(|v| v.is_nan()) {
            f64::NAN
        } else {
            m
        };
    }
    m * x.iter().map(|v| (v / m) * (v / m)).sum::<f64>().sqrt()
}

/// The real floating dtypes these operations take, else `WrongType` naming the dtype.
fn check_real(op: &'static str, t: &Tensor) -> Result<()> {
    check_operand_for(op, t, Accepts::Float, "")?;
    if t.dtype().is_complex() {
        return Err(Error::WrongType {
            op,
            expected: "a real floating tensor (the length of a complex vector is real, and nothing changes dtype silently)".into(),
            found: format!("a {} tensor", t.dtype()),
        });
    }
    Ok(())
}

/// The elements of `t` (ordinal order) as `f64`, and back.
fn as_f64<T: Num>(t: &Tensor, op: &'static str) -> Result<Vec<f64>> {
    Ok(t.to_vec_as::<T>(op)?
        .into_iter()
        .map(|v| v.to_scalar().to_f64())
        .collect())
}

impl Tensor {
    /// The Euclidean length `√(Σ xᵢ²)` of every element (a vector's magnitude; the Frobenius
    /// norm of a matrix), as a rank-0 tensor of the tensor's dtype. Real floating dtypes only
    /// (`WrongType` otherwise: an integer length is not an integer, a complex one is real).
    /// Computed in `f64`, scaled by the largest magnitude, so no square overflows; a NaN
    /// element gives NaN.
    ///
    /// Gradient: `x / |x|`, and 0 at the zero vector (PyTorch's choice for `norm`).
    ///
    /// ```
    /// let v = strideweave::Tensor::from_vec(vec![3.0f64, 4.0], &"2".parse().unwrap()).unwrap();
    /// assert_eq!(v.magnitude().unwrap().item::<f64>().unwrap(), 5.0);
    /// assert_eq!(v.magnitude().unwrap().rank(), 0);
    /// ```
    pub fn magnitude(&self) -> Result<Tensor> {
        const OP: &str = "magnitude";
        check_real(OP, self)?;
        let values = with_real!(self.dtype(), T => {
            let s = length(&as_f64::<T>(self, OP)?);
            T::dense(vec![T::from_f64(s)])
        }, _ => unreachable!("checked: a real floating dtype"));
        fresh(finish(
            OP,
            Dest::Fresh,
            &[self],
            values,
            &Shape::empty(),
            // Backward: `c · x / |x|` (0 at the zero vector).
            || {
                rule(
                    |Step {
                         op, cot, inputs, ..
                     }| {
                        let g = with_real!(cot.dtype(), T => {
                    let c = T::cotangent(op, cot)?[0].to_scalar().to_f64();
                    let x = as_f64::<T>(&inputs[0], OP)?;
                    let s = length(&x);
                    T::dense(x.iter().map(|v| T::from_f64(if s == 0.0 { 0.0 } else { c * v / s })).collect())
                }, _ => unreachable!("real: checked"));
                        Ok(smallvec::smallvec![Some(g)])
                    },
                )
            },
        ))
    }

    /// The unit vector `x / |x|` (see [`magnitude`](Self::magnitude)), or `None` for a
    /// zero-magnitude tensor: a normal domain case, not an error. Real floating dtypes only.
    ///
    /// Gradient: `(c − y·(y·c)) / |x|` for the result `y` and cotangent `c`.
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let v = Tensor::from_vec(vec![3.0f64, 4.0], &"2".parse().unwrap()).unwrap();
    /// assert_eq!(v.normalize().unwrap().unwrap().to_vec::<f64>().unwrap(), [0.6, 0.8]);
    /// assert!(Tensor::zeros::<f64>(&"3".parse().unwrap()).normalize().unwrap().is_none());
    /// ```
    pub fn normalize(&self) -> Result<Option<Tensor>> {
        const OP: &str = "normalize";
        check_real(OP, self)?;
        let values = with_real!(self.dtype(), T => {
            let x = as_f64::<T>(self, OP)?;
            let s = length(&x);
            if s == 0.0 {
                return Ok(None);
            }
            T::dense(x.iter().map(|v| T::from_f64(v / s)).collect())
        }, _ => unreachable!("checked: a real floating dtype"));
        let shape = self.shape().clone();
        // Backward: `(c − y·(y·c)) / |x|` with `y = x / |x|`.
        finish(OP, Dest::Fresh, &[self], values, &shape, || {
            rule(|Step { op, cot, inputs, .. }| {
                let g = with_real!(cot.dtype(), T => {
                    let c: Vec<f64> = T::cotangent(op, cot)?.iter().map(|v| v.to_scalar().to_f64()).collect();
                    let x = as_f64::<T>(&inputs[0], OP)?;
                    let s = length(&x);
                    let y: Vec<f64> = x.iter().map(|v| v / s).collect();
                    let yc: f64 = y.iter().zip(&c).map(|(y, c)| y * c).sum();
                    T::dense(y.iter().zip(&c).map(|(y, c)| T::from_f64((c - y * yc) / s)).collect())
                }, _ => unreachable!("real: checked"));
                Ok(smallvec::smallvec![Some(g)])
            })
        })
        .map(|t| {
            // Unreachable from user input: the allocating form returns its result.
            Some(t.expect("an allocating form returns its result"))
        })
    }

    /// The cross product `a × b` of two vectors of extent 3 (rank 1, three elements) and
    /// one dtype: `(a₁b₂ − a₂b₁, a₂b₀ − a₀b₂, a₀b₁ − a₁b₀)`, in `a`'s shape. Any other
    /// extent is a `DimensionMismatch` naming both shapes: the product is not generalised
    /// to other dimensions. Floating, complex and integer dtypes (integers wrap).
    ///
    /// Gradients: `conj(b) × c` for `a` and `c × conj(a)` for `b` (the real case: `b × c`,
    /// `c × a`).
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let x = Tensor::from_vec(vec![1.0f64, 0.0, 0.0], &"3".parse().unwrap()).unwrap();
    /// let y = Tensor::from_vec(vec![0.0f64, 1.0, 0.0], &"3".parse().unwrap()).unwrap();
    /// assert_eq!(x.cross(&y).unwrap().to_vec::<f64>().unwrap(), [0.0, 0.0, 1.0]);
    /// let z = Tensor::zeros::<f64>(&"4".parse().unwrap());
    /// assert_eq!(x.cross(&z).unwrap_err().to_string(),
    ///     "cross: needs two vectors of extent 3, found shapes 3 and 4");
    /// ```
    pub fn cross(&self, other: &Tensor) -> Result<Tensor> {
        const OP: &str = "cross";
        check_pair_for(OP, self, other, Accepts::Int, "")?;
        let is3 = |t: &Tensor| t.rank() == 1 && t.size() == 3;
        if !is3(self) || !is3(other) {
            return Err(Error::DimensionMismatch {
                op: OP,
                detail: format!(
                    "needs two vectors of extent 3, found shapes {} and {}",
                    self.shape(),
                    other.shape()
                ),
            });
        }
        let shape = self.shape().clone();
        if self.dtype().is_integer() {
            return with_int!(self.dtype(), T => {
                let (a, b) = (self.to_vec_as::<T>(OP)?, other.to_vec_as::<T>(OP)?);
                let at = |v: &[T], i: usize| v[i % 3];
                let c: Vec<T> = (0..3)
                    .map(|i| at(&a, i + 1).wmul(at(&b, i + 2)).wsub(at(&a, i + 2).wmul(at(&b, i + 1))))
                    .collect();
                fresh(deliver(OP, Dest::Fresh, c, &shape))
            }, _ => unreachable!("checked: an integer dtype"));
        }
        let values = with_num!(self.dtype(), T => {
            T::dense(cross3(&self.to_vec_as::<T>(OP)?, &other.to_vec_as::<T>(OP)?))
        }, _ => unreachable!("checked: a floating or complex dtype"));
        fresh(finish(
            OP,
            Dest::Fresh,
            &[self, other],
            values,
            &shape,
            || {
                rule(
                    |step| with_num!(step.cot.dtype(), T => cross_backward::<T>(step), _ => unreachable!("differentiable")),
                )
            },
        ))
    }
}

/// `a × b` of two three-element slices.
fn cross3<T: Num>(a: &[T], b: &[T]) -> Vec<T> {
    (0..3)
        .map(|i| a[(i + 1) % 3] * b[(i + 2) % 3] - a[(i + 2) % 3] * b[(i + 1) % 3])
        .collect()
}

/// Backward of `cross`: `conj(b) × c` and `c × conj(a)`.
fn cross_backward<T: Num>(step: Step<'_>) -> Result<Cotangents> {
    let (op, cot, inputs, needs) = step.parts();
    let c = T::cotangent(op, cot)?;
    let conj = |t: &Tensor| -> Result<Vec<T>> {
        Ok(t.to_vec_as::<T>("cross")?
            .into_iter()
            .map(T::conj)
            .collect())
    };
    let da = match needs[0] {
        true => Some(T::dense(cross3(&conj(&inputs[1])?, &c))),
        false => None,
    };
    let db = match needs[1] {
        true => Some(T::dense(cross3(&c, &conj(&inputs[0])?))),
        false => None,
    };
    Ok(smallvec::smallvec![da, db])
}
