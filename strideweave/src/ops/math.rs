//! The elementwise functions of a model: `exp`, `log`, `sqrt`, `abs`, `sin`, `cos`, `tanh`,
//! `sigmoid`, `relu`, `silu`, `gelu`, `powf`, `clamp`, with their backward rules. Each runs
//! the elementwise engine (`zip_map::map1`) with one closure per function; f16 and bf16 are
//! computed in f32.

use crate::autograd::node::{Cotangents, Rule, Step};
use crate::dtype::{Complex32, Complex64, DType, Scalar};
use crate::error::{Error, Result};
use crate::kernels::math::{Math, Real, RealWide, Wide};
use crate::kernels::num::{Dense, Num, with_real};
use crate::kernels::strided::walk2;
use crate::layout::Layout;
use crate::ops::elementwise::{same_shape, zip_with};
use crate::ops::zip_map::zip_fresh;
use crate::ops::{Dest, check_pair, finish, fresh};
use crate::tensor::Tensor;
use crate::tensor::read::read2;

/// An elementwise function.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Func {
    Exp,
    Log,
    Sqrt,
    Abs,
    Sin,
    Cos,
    Tanh,
    Sigmoid,
    Relu,
    Silu,
    Gelu,
    Powf(f64),
    Clamp(f64, f64),
}

impl Func {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Func::Exp => "exp",
            Func::Log => "log",
            Func::Sqrt => "sqrt",
            Func::Abs => "abs",
            Func::Sin => "sin",
            Func::Cos => "cos",
            Func::Tanh => "tanh",
            Func::Sigmoid => "sigmoid",
            Func::Relu => "relu",
            Func::Silu => "silu",
            Func::Gelu => "gelu",
            Func::Powf(_) => "powf",
            Func::Clamp(..) => "clamp",
        }
    }

    /// Whether the function is defined on complex numbers (holomorphic here).
    fn complex(self) -> bool {
        matches!(
            self,
            Func::Exp
                | Func::Log
                | Func::Sqrt
                | Func::Sin
                | Func::Cos
                | Func::Tanh
                | Func::Sigmoid
                | Func::Powf(_)
        )
    }
}

/// `√(2/π)`, the scale of the tanh form of GELU.
const SQRT_2_OVER_PI: f64 = 0.797_884_560_802_865_4;
/// The cubic coefficient of the tanh form of GELU.
const GELU_CUBIC: f64 = 0.044_715;

fn c<W: Num>(v: f64) -> W {
    W::from_f64(v)
}

fn sigmoid<W: Wide>(x: W) -> W {
    W::one() / (W::one() + (-x).exp())
}

fn gelu<W: RealWide>(x: W) -> W {
    let u = c::<W>(SQRT_2_OVER_PI) * (x + c::<W>(GELU_CUBIC) * x * x * x);
    c::<W>(0.5) * x * (W::one() + u.tanh())
}

/// PyTorch's sign: 1, -1, or 0 (for ±0 and NaN).
fn sign<W: RealWide>(x: W) -> W {
    let zero = c::<W>(0.0);
    match (x > zero, x < zero) {
        (true, _) => W::one(),
        (_, true) => -W::one(),
        _ => zero,
    }
}

/// The derivative of a function defined on complex numbers, at `x`.
fn slope<W: Wide>(f: Func, x: W) -> W {
    match f {
        Func::Exp => x.exp(),
        Func::Log => W::one() / x,
        Func::Sqrt => c::<W>(0.5) / x.sqrt(),
        Func::Sin => x.cos(),
        Func::Cos => -x.sin(),
        Func::Tanh => {
            let t = x.tanh();
            W::one() - t * t
        }
        Func::Sigmoid => {
            let s = sigmoid(x);
            s * (W::one() - s)
        }
        // PyTorch's rule: the exponent 0 gives a zero gradient everywhere (also at 0).
        Func::Powf(0.0) => c(0.0),
        Func::Powf(p) => c::<W>(p) * x.powf(p - 1.0),
        // unreachable from user input: real-only functions are refused on complex dtypes.
        _ => unreachable!("a real-only function on a complex dtype"),
    }
}

/// The derivative of any function at a real `x`, with PyTorch's values at kinks.
fn real_slope<W: RealWide>(f: Func, x: W) -> W {
    let zero = c::<W>(0.0);
    match f {
        Func::Abs => sign(x),
        Func::Relu => match x > zero {
            true => W::one(),
            false => zero,
        },
        Func::Silu => {
            let s = sigmoid(x);
            s * (W::one() + x * (W::one() - s))
        }
        Func::Gelu => {
            let u = c::<W>(SQRT_2_OVER_PI) * (x + c::<W>(GELU_CUBIC) * x * x * x);
            let t = u.tanh();
            let du = c::<W>(SQRT_2_OVER_PI) * (W::one() + c::<W>(3.0 * GELU_CUBIC) * x * x);
            c::<W>(0.5) * (W::one() + t) + c::<W>(0.5) * x * (W::one() - t * t) * du
        }
        // PyTorch's rule: the bounds themselves get no gradient.
        Func::Clamp(lo, hi) => match x.to_f64() > lo && x.to_f64() < hi {
            true => W::one(),
            false => zero,
        },
        f => slope(f, x),
    }
}

impl Tensor {
    /// `eˣ` of every element, into a fresh compact tensor of the same dtype: f32, f64,
    /// f16 and bf16 (computed in f32), complex64 and complex128. Differentiable.
    ///
    /// Every function of this family ([`log`](Self::log), [`sqrt`](Self::sqrt), …) follows
    /// IEEE arithmetic outside its domain, as numpy and PyTorch do: `log(-1)` and `sqrt(-1)`
    /// are NaN, `log(0)` is `-inf` — values, not errors. An integer or bool tensor is a
    /// `Type` error: convert it first with [`to_dtype`](Self::to_dtype).
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let t = Tensor::from_vec(vec![0.0f64, 1.0], &"2".parse().unwrap()).unwrap();
    /// assert_eq!(t.exp().unwrap().to_vec::<f64>().unwrap(), [1.0, std::f64::consts::E]);
    /// assert!(Tensor::arange::<i32>(&"2".parse().unwrap()).exp().is_err());
    /// ```
    pub fn exp(&self) -> Result<Tensor> {
        unary(self, Func::Exp)
    }

    /// The natural logarithm of every element (`log(0) = -inf`, `log(-1) = NaN`; complex:
    /// the principal branch). Differentiable (`1/x`).
    ///
    /// ```
    /// let t = strideweave::Tensor::from_vec(vec![1.0f64, 0.0, -1.0], &"3".parse().unwrap()).unwrap();
    /// let l = t.log().unwrap().to_vec::<f64>().unwrap();
    /// assert!(l[0] == 0.0 && l[1] == f64::NEG_INFINITY && l[2].is_nan());
    /// ```
    pub fn log(&self) -> Result<Tensor> {
        unary(self, Func::Log)
    }

    /// The square root of every element (`sqrt(-1) = NaN` for real dtypes; complex: the
    /// principal root). Differentiable (`1/(2√x)`, `inf` at 0).
    ///
    /// ```
    /// let t = strideweave::Tensor::from_vec(vec![4.0f32, 9.0], &"2".parse().unwrap()).unwrap();
    /// assert_eq!(t.sqrt().unwrap().to_vec::<f32>().unwrap(), [2.0, 3.0]);
    /// ```
    pub fn sqrt(&self) -> Result<Tensor> {
        unary(self, Func::Sqrt)
    }

    /// `|x|` of every element. A real floating tensor keeps its dtype; a complex one gives
    /// its moduli as the real dtype of its parts (complex128 → f64), as numpy and PyTorch.
    /// Differentiable: the gradient is the sign of `x` (`z/|z|` for complex), 0 at 0
    /// (PyTorch's rule).
    ///
    /// ```
    /// use strideweave::{Complex64, Tensor};
    /// let t = Tensor::from_vec(vec![-2.0f64, 0.0, 3.0], &"3".parse().unwrap()).unwrap();
    /// assert_eq!(t.abs().unwrap().to_vec::<f64>().unwrap(), [2.0, 0.0, 3.0]);
    /// let z = Tensor::from_vec(vec![Complex64::new(3.0, -4.0)], &"1".parse().unwrap()).unwrap();
    /// assert_eq!(z.abs().unwrap().to_vec::<f64>().unwrap(), [5.0]);
    /// ```
    pub fn abs(&self) -> Result<Tensor> {
        match self.dtype() {
            DType::ComplexF32 => modulus(
                self,
                |z: Complex32| z.norm(),
                |z| (z.re as f64, z.im as f64),
                |re, im| Complex32::new(re as f32, im as f32),
            ),
            DType::ComplexF64 => modulus(
                self,
                |z: Complex64| z.norm(),
                |z| (z.re, z.im),
                Complex64::new,
            ),
            _ => unary(self, Func::Abs),
        }
    }

    /// The sine of every element (radians). Differentiable.
    ///
    /// ```
    /// let t = strideweave::Tensor::from_vec(vec![0.0f64], &"1".parse().unwrap()).unwrap();
    /// assert_eq!(t.sin().unwrap().to_vec::<f64>().unwrap(), [0.0]);
    /// ```
    pub fn sin(&self) -> Result<Tensor> {
        unary(self, Func::Sin)
    }

    /// The cosine of every element (radians). Differentiable.
    ///
    /// ```
    /// let t = strideweave::Tensor::from_vec(vec![0.0f64], &"1".parse().unwrap()).unwrap();
    /// assert_eq!(t.cos().unwrap().to_vec::<f64>().unwrap(), [1.0]);
    /// ```
    pub fn cos(&self) -> Result<Tensor> {
        unary(self, Func::Cos)
    }

    /// The hyperbolic tangent of every element. Differentiable (`1 - tanh²`).
    ///
    /// ```
    /// let t = strideweave::Tensor::from_vec(vec![0.0f64, 1e4], &"2".parse().unwrap()).unwrap();
    /// assert_eq!(t.tanh().unwrap().to_vec::<f64>().unwrap(), [0.0, 1.0]);
    /// ```
    pub fn tanh(&self) -> Result<Tensor> {
        unary(self, Func::Tanh)
    }

    /// The logistic function `1 / (1 + e⁻ˣ)` of every element. Differentiable.
    ///
    /// ```
    /// let t = strideweave::Tensor::from_vec(vec![0.0f64, -1e4], &"2".parse().unwrap()).unwrap();
    /// assert_eq!(t.sigmoid().unwrap().to_vec::<f64>().unwrap(), [0.5, 0.0]);
    /// ```
    pub fn sigmoid(&self) -> Result<Tensor> {
        unary(self, Func::Sigmoid)
    }

    /// `max(x, 0)` of every element of a real floating tensor (NaN stays NaN).
    /// Differentiable: the gradient is 1 where `x > 0`, else 0 (also at 0, PyTorch's rule).
    ///
    /// ```
    /// let t = strideweave::Tensor::from_vec(vec![-1.0f32, 0.0, 2.0], &"3".parse().unwrap()).unwrap();
    /// assert_eq!(t.relu().unwrap().to_vec::<f32>().unwrap(), [0.0, 0.0, 2.0]);
    /// ```
    pub fn relu(&self) -> Result<Tensor> {
        unary(self, Func::Relu)
    }

    /// `x · sigmoid(x)` of every element of a real floating tensor (also called swish).
    /// Differentiable.
    ///
    /// ```
    /// let t = strideweave::Tensor::from_vec(vec![0.0f64], &"1".parse().unwrap()).unwrap();
    /// assert_eq!(t.silu().unwrap().to_vec::<f64>().unwrap(), [0.0]);
    /// ```
    pub fn silu(&self) -> Result<Tensor> {
        unary(self, Func::Silu)
    }

    /// The GELU of every element of a real floating tensor, in PyTorch's tanh form
    /// (`approximate="tanh"`): `0.5·x·(1 + tanh(√(2/π)·(x + 0.044715·x³)))`. Differentiable.
    ///
    /// ```
    /// let t = strideweave::Tensor::from_vec(vec![0.0f64, 10.0], &"2".parse().unwrap()).unwrap();
    /// assert_eq!(t.gelu().unwrap().to_vec::<f64>().unwrap(), [0.0, 10.0]);
    /// ```
    pub fn gelu(&self) -> Result<Tensor> {
        unary(self, Func::Gelu)
    }

    /// `xᵖ` of every element (IEEE `powf`: a negative base with a fractional exponent is
    /// NaN). Differentiable (`p·xᵖ⁻¹`; 0 everywhere for `p = 0`, PyTorch's rule).
    ///
    /// ```
    /// let t = strideweave::Tensor::from_vec(vec![2.0f64, 3.0], &"2".parse().unwrap()).unwrap();
    /// assert_eq!(t.powf(2.0).unwrap().to_vec::<f64>().unwrap(), [4.0, 9.0]);
    /// ```
    pub fn powf(&self, p: f64) -> Result<Tensor> {
        unary(self, Func::Powf(p))
    }

    /// Every element of a real floating tensor limited to `[min, max]` (NaN stays NaN; a
    /// `min` above `max` gives `max`, as PyTorch). Differentiable: the gradient passes where
    /// `min < x < max`, else 0 (at a bound too, as PyTorch). `min` and `max` must be real numbers that
    /// are not NaN (`Type` otherwise).
    ///
    /// ```
    /// let t = strideweave::Tensor::from_vec(vec![-2.0f64, 0.5, 2.0], &"3".parse().unwrap()).unwrap();
    /// assert_eq!(t.clamp(-1.0, 1.0).unwrap().to_vec::<f64>().unwrap(), [-1.0, 0.5, 1.0]);
    /// ```
    pub fn clamp(&self, min: impl Into<Scalar>, max: impl Into<Scalar>) -> Result<Tensor> {
        let (lo, hi) = (bound(min.into(), "min")?, bound(max.into(), "max")?);
        unary(self, Func::Clamp(lo, hi))
    }
}

/// `|z|` of a complex tensor into the real dtype `R`, recorded with the rule
/// `c · z/|z|` (0 at 0).
fn modulus<Z: Num, R: Num>(
    t: &Tensor,
    norm: fn(Z) -> R,
    parts: fn(Z) -> (f64, f64),
    make: fn(f64, f64) -> Z,
) -> Result<Tensor> {
    const OP: &str = "abs";
    t.require_single(OP)?;
    let out = Tensor::from_vec(crate::ops::zip_map::map_fresh(OP, t, norm)?, t.shape())?;
    if !crate::autograd::node::wants(&[t]) {
        return Ok(out);
    }
    let grads = crate::autograd::node::rule(move |step| {
        let (op, cot, inputs, _) = step.parts();
        let c: Vec<f64> = with_real!(cot.dtype(), T => T::cotangent(op, cot)?.into_iter().map(|c| crate::dtype::Element::to_scalar(c).to_f64()).collect(),
            _ => unreachable!("a real cotangent"));
        let g = zip_with_values(op, &c, &inputs[0], |c, z: Z| {
            let (re, im) = parts(z);
            let n = re.hypot(im);
            match n == 0.0 {
                true => make(0.0, 0.0),
                false => make(c * re / n, c * im / n),
            }
        })?;
        Ok(smallvec::smallvec![Some(Z::dense(g))])
    });
    Ok(crate::autograd::node::attach(out, OP, &[t], grads))
}

/// `f(c[k], t[k])` for every ordinal `k` of `t`, read in place.
fn zip_with_values<Z: Num>(
    op: &'static str,
    c: &[f64],
    t: &Tensor,
    f: impl Fn(f64, Z) -> Z,
) -> Result<Vec<Z>> {
    crate::tensor::read::read(t, op, |x: &[Z], o, l: &Layout| {
        let mut out = Vec::with_capacity(c.len());
        let mut k = 0;
        crate::kernels::strided::walk1(l, o, |i| {
            out.push(f(c[k], x[i]));
            k += 1;
        });
        out
    })
}

/// A bound of `clamp` as f64: a real number, not NaN.
fn bound(s: Scalar, which: &str) -> Result<f64> {
    match s.cast(DType::F64) {
        Some(Scalar::F64(v)) if !v.is_nan() => Ok(v),
        _ => Err(Error::WrongType {
            op: "clamp",
            expected: format!("a real {which} bound that is not NaN"),
            found: format!("{s}"),
        }),
    }
}

/// The dtype rule of every function: floating dtypes, and complex ones for the functions
/// defined there.
pub(crate) fn check_function(op: &'static str, t: &Tensor, complex: bool) -> Result<()> {
    t.require_single(op)?;
    let d = t.dtype();
    if d.is_float() || (complex && d.is_complex()) {
        return Ok(());
    }
    let expected = match complex {
        true => "a floating or complex tensor",
        false => "a real floating tensor (f32, f64, f16, bf16)",
    };
    let hint = match d.is_complex() {
        true => " (take real() or imag() first)",
        false => " (convert it first, e.g. with to_dtype(DType::F32))",
    };
    Err(Error::WrongType {
        op,
        expected: format!("{expected}{hint}"),
        found: format!("a {d} tensor"),
    })
}

fn unary(t: &Tensor, f: Func) -> Result<Tensor> {
    let op = f.name();
    check_function(op, t, f.complex())?;
    let values = match t.dtype() {
        DType::ComplexF32 => Complex32::dense(forward::<Complex32>(op, t, f)?),
        DType::ComplexF64 => Complex64::dense(forward::<Complex64>(op, t, f)?),
        d => {
            with_real!(d, T => T::dense(forward_real::<T>(op, t, f)?), _ => unreachable!("checked"))
        }
    };
    fresh(finish(op, Dest::Fresh, &[t], values, t.shape(), || {
        Box::new(FuncRule(f))
    }))
}

/// Runs `$body` on every element `$x` (in the wide type) of `$t` into a fresh vector.
macro_rules! each {
    ($op:expr, $t:expr, $T:ty, |$x:ident| $body:expr) => {
        crate::ops::zip_map::map_fresh($op, $t, |v: $T| {
            let $x = v.widen();
            <$T>::narrow($body)
        })
    };
}

/// The functions defined on complex numbers, on any type.
fn forward<T: Math>(op: &'static str, t: &Tensor, f: Func) -> Result<Vec<T>> {
    match f {
        Func::Exp => each!(op, t, T, |x| x.exp()),
        Func::Log => each!(op, t, T, |x| x.ln()),
        Func::Sqrt => each!(op, t, T, |x| x.sqrt()),
        Func::Sin => each!(op, t, T, |x| x.sin()),
        Func::Cos => each!(op, t, T, |x| x.cos()),
        Func::Tanh => each!(op, t, T, |x| x.tanh()),
        Func::Sigmoid => each!(op, t, T, |x| sigmoid(x)),
        // PyTorch's special exponents: √x (so `(-inf)^0.5` is NaN), x·x and 1/x.
        Func::Powf(0.5) => each!(op, t, T, |x| x.sqrt()),
        Func::Powf(2.0) => each!(op, t, T, |x| x * x),
        Func::Powf(-1.0) => each!(op, t, T, |x| T::Wide::one() / x),
        Func::Powf(p) => each!(op, t, T, |x| x.powf(p)),
        // unreachable from user input: check_function refused real-only functions here.
        _ => unreachable!("a real-only function on a complex dtype"),
    }
}

/// Every function, on a real type.
fn forward_real<T: Real>(op: &'static str, t: &Tensor, f: Func) -> Result<Vec<T>> {
    let zero = c::<T::Wide>(0.0);
    match f {
        // ±0 gives +0.
        Func::Abs => each!(op, t, T, |x| if x <= zero { zero - x } else { x }),
        // NaN stays NaN: `x < 0` is false for it.
        Func::Relu => each!(op, t, T, |x| if x < zero { zero } else { x }),
        Func::Silu => each!(op, t, T, |x| x * sigmoid(x)),
        Func::Gelu => each!(op, t, T, |x| gelu(x)),
        Func::Clamp(lo, hi) => {
            let (lo, hi) = (c::<T::Wide>(lo), c::<T::Wide>(hi));
            // PyTorch's order: min first, then max (so min > max gives max); NaN stays.
            each!(op, t, T, |x| {
                let y = if x < lo { lo } else { x };
                if y > hi { hi } else { y }
            })
        }
        f => forward::<T>(op, t, f),
    }
}

/// The backward rule of a function: the cotangent times the conjugate of the derivative at
/// the saved input.
struct FuncRule(Func);

impl Rule for FuncRule {
    fn backward(&self, step: Step<'_>) -> Result<Cotangents> {
        let f = self.0;
        let (op, cot, inputs, _) = step.parts();
        let g = match cot.dtype() {
            DType::ComplexF32 => Complex32::dense(grad(op, cot, &inputs[0], |x| slope(f, x))?),
            DType::ComplexF64 => Complex64::dense(grad(op, cot, &inputs[0], |x| slope(f, x))?),
            d => {
                with_real!(d, T => T::dense(grad::<T>(op, cot, &inputs[0], |x| real_slope(f, x))?),
                _ => unreachable!("differentiable"))
            }
        };
        Ok(smallvec::smallvec![Some(g)])
    }
}

/// `c · conj(d(x))` for every element, `d` computed in the wide type.
fn grad<T: Math>(
    op: &'static str,
    cot: Dense,
    x: &Tensor,
    d: impl Fn(T::Wide) -> T::Wide,
) -> Result<Vec<T>> {
    let c = T::cotangent(op, cot)?;
    zip_with(op, &c, x, |c: T, x: T| {
        T::narrow(c.widen() * d(x.widen()).conj())
    })
}

/// A binary function of two tensors of equal shape and dtype.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Pair {
    Maximum,
    Minimum,
    Pow,
}

impl Pair {
    fn name(self) -> &'static str {
        match self {
            Pair::Maximum => "maximum",
            Pair::Minimum => "minimum",
            Pair::Pow => "pow",
        }
    }
}

impl Tensor {
    /// The larger of `self` and `other` at every element (equal shapes and dtypes, real
    /// floating; nothing broadcasts implicitly). NaN propagates: a NaN on either side gives
    /// NaN. Differentiable with PyTorch's rule: where the two are equal each gets half the
    /// cotangent.
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let s = "3".parse().unwrap();
    /// let a = Tensor::from_vec(vec![1.0f64, 5.0, f64::NAN], &s).unwrap();
    /// let b = Tensor::from_vec(vec![2.0f64, 3.0, 0.0], &s).unwrap();
    /// let m = a.maximum(&b).unwrap().to_vec::<f64>().unwrap();
    /// assert!(m[0] == 2.0 && m[1] == 5.0 && m[2].is_nan());
    /// ```
    pub fn maximum(&self, other: &Tensor) -> Result<Tensor> {
        pair(self, other, Pair::Maximum)
    }

    /// The smaller of `self` and `other` at every element (see [`maximum`](Self::maximum)).
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let s = "2".parse().unwrap();
    /// let a = Tensor::from_vec(vec![1.0f32, 5.0], &s).unwrap();
    /// let b = Tensor::from_vec(vec![2.0f32, 3.0], &s).unwrap();
    /// assert_eq!(a.minimum(&b).unwrap().to_vec::<f32>().unwrap(), [1.0, 3.0]);
    /// ```
    pub fn minimum(&self, other: &Tensor) -> Result<Tensor> {
        pair(self, other, Pair::Minimum)
    }

    /// `selfᵒᵗʰᵉʳ` at every element (equal shapes and dtypes, floating or complex).
    /// Differentiable in both: `b·aᵇ⁻¹` (0 where `b = 0`) and `aᵇ·ln a` (0 where `a = 0`
    /// and `b ≥ 0`), PyTorch's rules.
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let s = "2".parse().unwrap();
    /// let a = Tensor::from_vec(vec![2.0f64, 9.0], &s).unwrap();
    /// let b = Tensor::from_vec(vec![3.0f64, 0.5], &s).unwrap();
    /// assert_eq!(a.pow(&b).unwrap().to_vec::<f64>().unwrap(), [8.0, 3.0]);
    /// ```
    pub fn pow(&self, other: &Tensor) -> Result<Tensor> {
        pair(self, other, Pair::Pow)
    }
}

fn pair(a: &Tensor, b: &Tensor, f: Pair) -> Result<Tensor> {
    let op = f.name();
    let complex = f == Pair::Pow;
    check_function(op, a, complex)?;
    check_function(op, b, complex)?;
    check_pair(op, a, b)?;
    same_shape(op, a, b)?;
    let values = match a.dtype() {
        DType::ComplexF32 => Complex32::dense(zip_fresh(op, a, b, pow::<Complex32>)?),
        DType::ComplexF64 => Complex64::dense(zip_fresh(op, a, b, pow::<Complex64>)?),
        d => with_real!(d, T => T::dense(match f {
            Pair::Maximum => zip_fresh(op, a, b, |x: T, y| extreme(x, y, true))?,
            Pair::Minimum => zip_fresh(op, a, b, |x: T, y| extreme(x, y, false))?,
            Pair::Pow => zip_fresh(op, a, b, pow::<T>)?,
        }), _ => unreachable!("checked")),
    };
    fresh(finish(op, Dest::Fresh, &[a, b], values, a.shape(), || {
        crate::autograd::node::rule(move |step| {
            let (op, cot, inputs, needs) = step.parts();
            let (ga, gb) = match cot.dtype() {
                DType::ComplexF32 => dense2(pair_grads::<Complex32>(
                    op, f, cot, inputs, needs, pow_slopes,
                )?),
                DType::ComplexF64 => dense2(pair_grads::<Complex64>(
                    op, f, cot, inputs, needs, pow_slopes,
                )?),
                d => {
                    with_real!(d, T => dense2(pair_grads::<T>(op, f, cot, inputs, needs, real_pair_slopes)?),
                    _ => unreachable!("differentiable"))
                }
            };
            Ok(smallvec::smallvec![ga, gb])
        })
    }))
}

fn dense2<T: Num>((a, b): (Option<Vec<T>>, Option<Vec<T>>)) -> (Option<Dense>, Option<Dense>) {
    (a.map(T::dense), b.map(T::dense))
}

/// The larger (or smaller) of two reals, NaN if either is.
fn extreme<T: Real>(x: T, y: T, largest: bool) -> T {
    #[allow(clippy::eq_op)]
    match (x != x, y != y) {
        (true, _) => x,
        (_, true) => y,
        _ if (x > y) == largest || x == y => x,
        _ => y,
    }
}

fn pow<T: Math>(x: T, y: T) -> T {
    T::narrow(x.widen().pow(y.widen()))
}

/// The two partial derivatives of `pow` at `(x, y)`, PyTorch's values at 0.
fn pow_slopes<W: Wide>(_: Pair, x: W, y: W) -> (W, W) {
    let zero = c::<W>(0.0);
    let dx = match y == zero {
        true => zero,
        false => y * x.pow(y - W::one()),
    };
    let dy = match x == zero {
        true => zero,
        false => x.pow(y) * x.ln(),
    };
    (dx, dy)
}

/// The partial derivatives of a real binary function, with PyTorch's rule at ties (half
/// each) and NaN (both sides get the cotangent).
fn real_pair_slopes<W: RealWide>(f: Pair, x: W, y: W) -> (W, W) {
    let (one, zero, half) = (W::one(), c::<W>(0.0), c::<W>(0.5));
    let (lose_x, lose_y) = match f {
        Pair::Maximum => (x < y, x > y),
        Pair::Minimum => (x > y, x < y),
        Pair::Pow => {
            let (dx, dy) = pow_slopes(f, x, y);
            // The real pow of a negative base: PyTorch's ln of it is NaN, as here.
            return (dx, if x == zero && y >= zero { zero } else { dy });
        }
    };
    match (x == y, lose_x, lose_y) {
        (true, ..) => (half, half),
        (_, true, _) => (zero, one),
        (_, _, true) => (one, zero),
        _ => (one, one),
    }
}

/// The cotangents of a binary function's inputs: `c · conj(∂f)` for each input that needs
/// one, reading both operands.
#[allow(clippy::type_complexity)]
fn pair_grads<T: Math>(
    op: &'static str,
    f: Pair,
    cot: Dense,
    inputs: &[Tensor],
    needs: &[bool],
    slopes: fn(Pair, T::Wide, T::Wide) -> (T::Wide, T::Wide),
) -> Result<(Option<Vec<T>>, Option<Vec<T>>)> {
    let c = T::cotangent(op, cot)?;
    let (mut ga, mut gb) = (Vec::new(), Vec::new());
    read2(
        &inputs[0],
        &inputs[1],
        op,
        |(x, ox, lx): (&[T], i64, &Layout), (y, oy, ly)| {
            let mut k = 0;
            walk2((lx, ox), (ly, oy), |i, j| {
                let (dx, dy) = slopes(f, x[i].widen(), y[j].widen());
                let ck = c[k].widen();
                ga.push(T::narrow(ck * dx.conj()));
                gb.push(T::narrow(ck * dy.conj()));
                k += 1;
            });
        },
    )?;
    Ok((needs[0].then_some(ga), needs[1].then_some(gb)))
}
