//! Elementwise arithmetic on equal shapes, the scalar forms, and `copy_from`.

use crate::autograd::node::{self, Cotangents, Rule};
use crate::dtype::Scalar;
use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::ops::num::{Dense, Num, with_num};
use crate::ops::strided::{read, read2, walk1, walk2};
use crate::ops::{check_operand, check_pair};
use crate::tensor::Tensor;

#[derive(Clone, Copy, Debug)]
enum Binary {
    Add,
    Sub,
    Mul,
    Div,
}

impl Binary {
    fn name(self) -> &'static str {
        match self {
            Binary::Add => "add",
            Binary::Sub => "sub",
            Binary::Mul => "mul",
            Binary::Div => "div",
        }
    }

    fn apply<T: Num>(self, x: T, y: T) -> T {
        match self {
            Binary::Add => x + y,
            Binary::Sub => x - y,
            Binary::Mul => x * y,
            Binary::Div => x / y,
        }
    }
}

impl Tensor {
    /// `self + other`, elementwise, into a fresh compact tensor. Shapes must be equal
    /// (nothing broadcasts implicitly: use [`broadcast_to`](Self::broadcast_to)); the
    /// operands are read through their layouts, whatever they are.
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let a = Tensor::arange::<f64>(&"(2,3)".parse().unwrap());
    /// let b = a.permute(&[1, 0]).unwrap().permute(&[1, 0]).unwrap();
    /// assert_eq!(a.add(&b).unwrap().to_vec::<f64>().unwrap(), [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]);
    /// let row = Tensor::arange::<f64>(&"3".parse().unwrap()).unsqueeze(0).unwrap();
    /// assert!(a.add(&row).is_err()); // (1,3) is not (2,3) …
    /// let wide = row.broadcast_to(&"(2,3)".parse().unwrap()).unwrap();
    /// assert_eq!(a.add(&wide).unwrap().to_vec::<f64>().unwrap(), [0.0, 1.0, 3.0, 4.0, 6.0, 7.0]);
    /// ```
    pub fn add(&self, other: &Tensor) -> Result<Tensor> {
        binary(Binary::Add, self, other)
    }

    /// `self - other`, elementwise (equal shapes).
    ///
    /// ```
    /// let a = strideweave::Tensor::arange::<f32>(&"3".parse().unwrap());
    /// assert_eq!(a.sub(&a.reverse(0).unwrap()).unwrap().to_vec::<f32>().unwrap(), [-2.0, 0.0, 2.0]);
    /// ```
    pub fn sub(&self, other: &Tensor) -> Result<Tensor> {
        binary(Binary::Sub, self, other)
    }

    /// `self * other`, elementwise (equal shapes).
    ///
    /// ```
    /// let a = strideweave::Tensor::arange::<f32>(&"3".parse().unwrap());
    /// assert_eq!(a.mul(&a).unwrap().to_vec::<f32>().unwrap(), [0.0, 1.0, 4.0]);
    /// ```
    pub fn mul(&self, other: &Tensor) -> Result<Tensor> {
        binary(Binary::Mul, self, other)
    }

    /// `self / other`, elementwise (equal shapes).
    ///
    /// ```
    /// let a = strideweave::Tensor::from_vec(vec![1.0f64, 4.0], &"2".parse().unwrap()).unwrap();
    /// assert_eq!(a.div(&a.reverse(0).unwrap()).unwrap().to_vec::<f64>().unwrap(), [0.25, 4.0]);
    /// ```
    pub fn div(&self, other: &Tensor) -> Result<Tensor> {
        binary(Binary::Div, self, other)
    }

    /// `-self`, elementwise.
    ///
    /// ```
    /// let a = strideweave::Tensor::arange::<f64>(&"2".parse().unwrap());
    /// assert_eq!(a.neg().unwrap().to_vec::<f64>().unwrap(), [-0.0, -1.0]);
    /// ```
    pub fn neg(&self) -> Result<Tensor> {
        scalar(self, "neg", None, ScalarKind::Neg)
    }

    /// `self + value` for every element (`value` converts to the tensor's dtype).
    ///
    /// ```
    /// let a = strideweave::Tensor::arange::<f64>(&"2".parse().unwrap());
    /// assert_eq!(a.add_scalar(0.5).unwrap().to_vec::<f64>().unwrap(), [0.5, 1.5]);
    /// ```
    pub fn add_scalar(&self, value: impl Into<Scalar>) -> Result<Tensor> {
        scalar(self, "add_scalar", Some(value.into()), ScalarKind::Add)
    }

    /// `self - value` for every element.
    ///
    /// ```
    /// let a = strideweave::Tensor::arange::<f64>(&"2".parse().unwrap());
    /// assert_eq!(a.sub_scalar(1.0).unwrap().to_vec::<f64>().unwrap(), [-1.0, 0.0]);
    /// ```
    pub fn sub_scalar(&self, value: impl Into<Scalar>) -> Result<Tensor> {
        scalar(self, "sub_scalar", Some(value.into()), ScalarKind::Sub)
    }

    /// `self * value` for every element.
    ///
    /// ```
    /// let a = strideweave::Tensor::arange::<f32>(&"2".parse().unwrap());
    /// assert_eq!(a.mul_scalar(3.0f32).unwrap().to_vec::<f32>().unwrap(), [0.0, 3.0]);
    /// ```
    pub fn mul_scalar(&self, value: impl Into<Scalar>) -> Result<Tensor> {
        scalar(self, "mul_scalar", Some(value.into()), ScalarKind::Mul)
    }

    /// `self / value` for every element.
    ///
    /// ```
    /// let a = strideweave::Tensor::arange::<f64>(&"2".parse().unwrap());
    /// assert_eq!(a.div_scalar(2.0).unwrap().to_vec::<f64>().unwrap(), [0.0, 0.5]);
    /// ```
    pub fn div_scalar(&self, value: impl Into<Scalar>) -> Result<Tensor> {
        scalar(self, "div_scalar", Some(value.into()), ScalarKind::Div)
    }

    /// Writes `src`'s values into this tensor's elements (equal shapes and dtypes; this
    /// tensor's layout must be injective) and increments its carrier's version once. Not
    /// recorded: an in-place write, e.g. a parameter update after `backward`.
    ///
    /// ```
    /// let w = strideweave::Tensor::zeros::<f64>(&"(2,2)".parse().unwrap());
    /// let col = w.index(&[strideweave::Key::all(), 1.into()]).unwrap().view().unwrap();
    /// col.copy_from(&strideweave::Tensor::arange::<f64>(&"2".parse().unwrap()).add_scalar(1.0).unwrap()).unwrap();
    /// assert_eq!((w.to_vec::<f64>().unwrap(), w.carrier().version()), (vec![0.0, 0.0, 1.0, 2.0], 1));
    /// ```
    pub fn copy_from(&self, src: &Tensor) -> Result<()> {
        const OP: &str = "copy_from";
        check_pair(OP, self, src)?;
        same_shape(OP, self, src)?;
        if !self.layout().is_injective() {
            return Err(Error::NotInjective {
                op: OP,
                layout: format!(
                    "{} (the destination of a copy must not alias)",
                    self.layout()
                ),
            });
        }
        with_num!(self.dtype(), T => copy::<T>(self, src), _ => unreachable!("checked"))
    }
}

fn copy<T: Num>(dst: &Tensor, src: &Tensor) -> Result<()> {
    const OP: &str = "copy_from";
    let values = crate::ops::strided::gather::<T>(src, OP)?;
    let (o, l) = (dst.offset() as i64, dst.layout());
    dst.carrier().write(|x: &mut [T]| {
        let mut k = 0;
        walk1(l, o, |i| {
            x[i] = values[k];
            k += 1;
        });
    })
}

fn same_shape(op: &'static str, a: &Tensor, b: &Tensor) -> Result<()> {
    if a.shape() != b.shape() {
        return Err(Error::ShapeMismatch {
            op,
            expected: a.shape().to_string(),
            found: b.shape().to_string(),
            detail: "elementwise operands must have equal shapes; nothing broadcasts implicitly (broadcast_to or broadcast_in_dim first)".into(),
        });
    }
    Ok(())
}

fn binary(kind: Binary, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let op = kind.name();
    check_pair(op, a, b)?;
    same_shape(op, a, b)?;
    let out =
        with_num!(a.dtype(), T => binary_kernel::<T>(kind, a, b)?, _ => unreachable!("checked"));
    if !node::wants(&[a, b]) {
        return Ok(out);
    }
    Ok(node::attach(out, op, &[a, b], Box::new(BinaryRule(kind))))
}

fn binary_kernel<T: Num>(kind: Binary, a: &Tensor, b: &Tensor) -> Result<Tensor> {
    let v = read2(
        a,
        b,
        kind.name(),
        |(x, ox, lx): (&[T], i64, &Layout), (y, oy, ly)| {
            let mut out = Vec::with_capacity(lx.size());
            walk2((lx, ox), (ly, oy), |i, j| out.push(kind.apply(x[i], y[j])));
            out
        },
    )?;
    Tensor::from_vec(v, a.shape())
}

struct BinaryRule(Binary);

impl Rule for BinaryRule {
    fn backward(&self, cot: Dense, inputs: &[Tensor], needs: &[bool]) -> Result<Cotangents> {
        with_num!(cot.dtype(), T => binary_backward::<T>(self.0, cot, inputs, needs), _ => unreachable!("differentiable"))
    }
}

/// `f(c[k], t[k])` for every ordinal `k`, reading `t` in place.
fn zip_with<T: Num>(c: &[T], t: &Tensor, f: impl Fn(T, T) -> T) -> Result<Vec<T>> {
    read(t, "backward", |x: &[T], o, l: &Layout| {
        let mut out = Vec::with_capacity(c.len());
        let mut k = 0;
        walk1(l, o, |i| {
            out.push(f(c[k], x[i]));
            k += 1;
        });
        out
    })
}

fn binary_backward<T: Num>(
    kind: Binary,
    cot: Dense,
    inputs: &[Tensor],
    needs: &[bool],
) -> Result<Cotangents> {
    let c = T::undense(cot).expect("the result's dtype");
    let (a, b) = (&inputs[0], &inputs[1]);
    let (ga, gb): (Option<Vec<T>>, Option<Vec<T>>) = match kind {
        Binary::Add => (needs[0].then(|| c.clone()), needs[1].then(|| c.clone())),
        Binary::Sub => (
            needs[0].then(|| c.clone()),
            needs[1].then(|| c.iter().map(|&x| -x).collect()),
        ),
        Binary::Mul => (
            match needs[0] {
                true => Some(zip_with(&c, b, |c, y| c * y.conj())?),
                false => None,
            },
            match needs[1] {
                true => Some(zip_with(&c, a, |c, x| c * x.conj())?),
                false => None,
            },
        ),
        Binary::Div => (
            match needs[0] {
                true => Some(zip_with(&c, b, |c, y| c / y.conj())?),
                false => None,
            },
            match needs[1] {
                // d(x/y)/dy = -x/y²
                true => Some(read2(
                    a,
                    b,
                    "backward",
                    |(x, ox, lx): (&[T], i64, &Layout), (y, oy, ly)| {
                        let mut out = Vec::with_capacity(c.len());
                        let mut k = 0;
                        walk2((lx, ox), (ly, oy), |i, j| {
                            out.push(-(c[k] * (x[i] / (y[j] * y[j])).conj()));
                            k += 1;
                        });
                        out
                    },
                )?),
                false => None,
            },
        ),
    };
    Ok(smallvec::smallvec![ga.map(T::dense), gb.map(T::dense)])
}

#[derive(Clone, Copy, Debug)]
enum ScalarKind {
    Neg,
    Add,
    Sub,
    Mul,
    Div,
}

fn scalar(t: &Tensor, op: &'static str, value: Option<Scalar>, kind: ScalarKind) -> Result<Tensor> {
    check_operand(op, t)?;
    let s = match value {
        None => Scalar::F64(0.0)
            .cast(t.dtype())
            .expect("zero casts to every float dtype"),
        Some(v) => v.cast(t.dtype()).ok_or_else(|| Error::WrongType {
            op,
            expected: format!("a value representable as {}", t.dtype()),
            found: format!("{v} ({})", v.dtype()),
        })?,
    };
    let out = with_num!(t.dtype(), T => scalar_kernel::<T>(op, t, kind, s)?, _ => unreachable!("checked"));
    if !node::wants(&[t]) {
        return Ok(out);
    }
    Ok(node::attach(
        out,
        op,
        &[t],
        Box::new(ScalarRule { kind, value: s }),
    ))
}

fn scalar_kernel<T: Num>(
    op: &'static str,
    t: &Tensor,
    kind: ScalarKind,
    s: Scalar,
) -> Result<Tensor> {
    let s = T::from_scalar(s).expect("cast to the tensor's dtype");
    let f = move |x: T| match kind {
        ScalarKind::Neg => -x,
        ScalarKind::Add => x + s,
        ScalarKind::Sub => x - s,
        ScalarKind::Mul => x * s,
        ScalarKind::Div => x / s,
    };
    let v = read(t, op, |x: &[T], o, l| {
        let mut out = Vec::with_capacity(l.size());
        walk1(l, o, |i| out.push(f(x[i])));
        out
    })?;
    Tensor::from_vec(v, t.shape())
}

struct ScalarRule {
    kind: ScalarKind,
    value: Scalar,
}

impl Rule for ScalarRule {
    fn backward(&self, cot: Dense, _inputs: &[Tensor], _needs: &[bool]) -> Result<Cotangents> {
        fn go<T: Num>(kind: ScalarKind, s: Scalar, cot: Dense) -> Dense {
            let c = T::undense(cot).expect("the result's dtype");
            let s = T::from_scalar(s).expect("cast when recorded");
            match kind {
                ScalarKind::Add | ScalarKind::Sub => T::dense(c),
                ScalarKind::Neg => T::dense(c.into_iter().map(|x| -x).collect()),
                ScalarKind::Mul => T::dense(c.into_iter().map(|x| x * s.conj()).collect()),
                ScalarKind::Div => T::dense(c.into_iter().map(|x| x / s.conj()).collect()),
            }
        }
        let g = with_num!(cot.dtype(), T => go::<T>(self.kind, self.value, cot), _ => unreachable!("differentiable"));
        Ok(smallvec::smallvec![Some(g)])
    }
}
