//! Random cotangents for `backward_with` and `autograd::grad` (issue 11, item 7): a leaf of
//! a random hierarchical shape, one recorded operation, and a cotangent of the right shape
//! and dtype, another dtype, another shape, or none. A gradient equals the naive one
//! (bit for bit: every rule here is one rounding per element); an error's message starts
//! with the operation called, and then no gradient was stored and no carrier changed.
//!
//! A few thousand cases in the test command; `STRIDEWEAVE_LONG=1` runs a million.

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use crate::hostile::config;
use strideweave::{Tensor, autograd};

use crate::hostile::layouts::{Shape, shape};

#[derive(Clone, Copy, Debug)]
enum Forward {
    Square,
    Scale(f64),
    Double,
}

#[derive(Clone, Debug)]
enum Cot {
    Same(u64),
    F32,
    Shape(Shape),
    None,
}

fn forward() -> impl Strategy<Value = Forward> {
    prop_oneof![
        Just(Forward::Square),
        (-8i32..8).prop_map(|v| Forward::Scale(f64::from(v) / 4.0)),
        Just(Forward::Double),
    ]
}

fn cot() -> impl Strategy<Value = Cot> {
    prop_oneof![
        4 => any::<u64>().prop_map(Cot::Same),
        1 => Just(Cot::F32),
        1 => shape().prop_map(Cot::Shape),
        1 => Just(Cot::None),
    ]
}

fn compact(s: &Shape) -> strideweave::Shape {
    s.layout(&vec![0; s.leaves().len()]).shape().clone()
}

fn check(s: &Shape, f: Forward, c: &Cot, through_grad: bool) -> Result<(), TestCaseError> {
    let n = s.size() as usize;
    let xs: Vec<f64> = (0..n).map(|k| 0.5 + k as f64 / 4.0).collect();
    let x = Tensor::from_vec(xs.clone(), &compact(s)).unwrap();
    x.set_requires_grad(true).unwrap();
    let y = match f {
        Forward::Square => x.mul(&x),
        Forward::Scale(v) => x.mul_scalar(v),
        Forward::Double => x.add(&x),
    }
    .unwrap();
    let cot = match c {
        Cot::Same(seed) => {
            let g: Vec<f64> = (0..n)
                .map(|k| ((seed.wrapping_mul(k as u64 + 1) >> 40) % 17) as f64 / 8.0 - 1.0)
                .collect();
            Some(Tensor::from_vec(g, &compact(s)).unwrap())
        }
        Cot::F32 => Some(Tensor::from_vec(vec![1.0f32; n], &compact(s)).unwrap()),
        Cot::Shape(t) => {
            Some(Tensor::from_vec(vec![1.0f64; t.size() as usize], &compact(t)).unwrap())
        }
        Cot::None => None,
    };
    let before = x.carrier().to_vec::<f64>().unwrap();
    let (op, got) = if through_grad {
        let r = autograd::grad(&[&y], &[&x], &[cot.as_ref()], false);
        ("autograd::grad", r.map(|g| g.into_iter().next().flatten()))
    } else {
        let r = y.backward_with(cot.as_ref(), false);
        ("backward_with", r.map(|()| x.grad()))
    };
    match got {
        Err(e) => {
            let msg = e.to_string();
            prop_assert!(
                msg.starts_with(&format!("{op}: ")) && msg.len() > op.len() + 8,
                "{msg}"
            );
            prop_assert!(x.grad().is_none(), "a failed {} stored a gradient", op);
            prop_assert_eq!(x.carrier().to_vec::<f64>().unwrap(), before);
            // Only a cotangent of the wrong kind is refused.
            let valid = match c {
                Cot::Same(_) => true,
                Cot::None => n == 1 && s.leaves().len() == 1,
                Cot::Shape(t) => compact(t) == compact(s),
                Cot::F32 => false,
            };
            prop_assert!(!valid || matches!(c, Cot::None), "{msg}");
        }
        Ok(g) => {
            let g = g.ok_or_else(|| TestCaseError::fail("no gradient"))?;
            let cots: Vec<f64> = match &cot {
                Some(t) => t
                    .to_vec::<f64>()
                    .map_err(|e| TestCaseError::fail(e.to_string()))?,
                None => vec![1.0; n],
            };
            let want: Vec<u64> = xs
                .iter()
                .zip(&cots)
                .map(|(&x, &c)| match f {
                    Forward::Square => c * x + c * x,
                    Forward::Scale(v) => c * v,
                    Forward::Double => c + c,
                })
                .map(f64::to_bits)
                .collect();
            let got: Vec<u64> = g
                .to_vec::<f64>()
                .unwrap()
                .into_iter()
                .map(f64::to_bits)
                .collect();
            prop_assert_eq!(got, want);
            prop_assert_eq!(x.carrier().to_vec::<f64>().unwrap(), before);
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(2000))]

    #[test]
    fn backward_and_grad_with_random_cotangents_are_errors_or_the_naive_gradient(
        s in shape(),
        f in forward(),
        c in cot(),
        through_grad in any::<bool>(),
    ) {
        check(&s, f, &c, through_grad)?;
    }
}
