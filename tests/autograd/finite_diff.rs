//! Central finite differences in f64 for every arithmetic operation, on strided, reversed,
//! nested and broadcast operands: the gradient of `L = Σ W ⊙ f(x…)` with respect to each
//! storage slot of each leaf against `(L(s + h) − L(s − h)) / 2h`.

use std::collections::BTreeMap;

use strideweave::{Carrier, Key, Tensor, no_grad};

use crate::autograd::support::{l, s};

/// A leaf: `layout` at `offset` over pseudo-random storage (seeded by `seed`).
pub(crate) struct Spec {
    pub(crate) layout: &'static str,
    pub(crate) offset: usize,
}

fn storage(spec: &Spec, seed: u64) -> Vec<f64> {
    let layout = l(spec.layout);
    let len = spec.offset + layout.reach().1 as usize + 1;
    (0..len)
        .map(|i| {
            let z = (i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ seed;
            // Values in [0.5, 2.5): away from zero for the divisions.
            0.5 + (z % 2000) as f64 / 1000.0
        })
        .collect()
}

fn build(spec: &Spec, data: Vec<f64>) -> Tensor {
    Tensor::new(Carrier::from_vec(data), spec.offset, l(spec.layout)).unwrap()
}

/// `Σ W ⊙ out` with fixed weights `W` of `out`'s shape.
fn loss(out: &Tensor) -> Tensor {
    let w: Vec<f64> = (0..out.size())
        .map(|i| 1.0 + ((i * 7) % 5) as f64 / 4.0 - 0.3 * (i % 2) as f64)
        .collect();
    out.mul(&Tensor::from_vec(w, out.shape()).unwrap())
        .unwrap()
        .sum()
        .unwrap()
}

pub(crate) fn check(name: &str, specs: &[Spec], f: impl Fn(&[Tensor]) -> Tensor) {
    let datas: Vec<Vec<f64>> = specs
        .iter()
        .enumerate()
        .map(|(k, spec)| storage(spec, 17 * k as u64 + 3))
        .collect();
    let leaves: Vec<Tensor> = specs
        .iter()
        .zip(&datas)
        .map(|(spec, d)| {
            let t = build(spec, d.clone());
            t.set_requires_grad(true).unwrap();
            t
        })
        .collect();
    loss(&f(&leaves)).backward().unwrap();
    let eval = |datas: &[Vec<f64>]| -> f64 {
        let _g = no_grad();
        let ts: Vec<Tensor> = specs
            .iter()
            .zip(datas)
            .map(|(spec, d)| build(spec, d.clone()))
            .collect();
        loss(&f(&ts)).to_vec::<f64>().unwrap()[0]
    };
    let h = 1e-6;
    for (k, (spec, leaf)) in specs.iter().zip(&leaves).enumerate() {
        let layout = l(spec.layout);
        let g = leaf.grad().unwrap().to_vec::<f64>().unwrap();
        let mut slots = BTreeMap::new();
        for (i, &gi) in g.iter().enumerate() {
            let slot = (spec.offset as i64 + layout.index_of(i).unwrap()) as usize;
            slots.entry(slot).or_insert(gi);
        }
        for (slot, analytic) in slots {
            let mut plus = datas.clone();
            plus[k][slot] += h;
            let mut minus = datas.clone();
            minus[k][slot] -= h;
            let numeric = (eval(&plus) - eval(&minus)) / (2.0 * h);
            assert!(
                (numeric - analytic).abs() <= 1e-6 * (1.0 + numeric.abs()),
                "{name}: leaf {k} slot {slot}: analytic {analytic}, numeric {numeric}"
            );
        }
    }
}

pub(crate) const STRIDED: Spec = Spec {
    layout: "(3,(2,2)):(5,(1,-2))",
    offset: 3,
};
pub(crate) const OTHER: Spec = Spec {
    layout: "(3,(2,2)):(1,(3,6))",
    offset: 1,
};
/// Aliases through a stride-zero mode (RT017 on the leaf).
const BROADCAST: Spec = Spec {
    layout: "(3,(2,2)):(1,(0,3))",
    offset: 0,
};

#[test]
fn finite_differences_add() {
    check("add", &[STRIDED, OTHER], |x| x[0].add(&x[1]).unwrap());
    check("add broadcast", &[STRIDED, BROADCAST], |x| {
        x[0].add(&x[1]).unwrap()
    });
}

#[test]
fn finite_differences_sub() {
    check("sub", &[STRIDED, OTHER], |x| x[0].sub(&x[1]).unwrap());
    check("sub self-view", &[STRIDED], |x| {
        x[0].sub(&x[0].reverse(0).unwrap()).unwrap()
    });
}

#[test]
fn finite_differences_mul() {
    check("mul", &[STRIDED, OTHER], |x| x[0].mul(&x[1]).unwrap());
    check("mul broadcast", &[BROADCAST, OTHER], |x| {
        x[0].mul(&x[1]).unwrap()
    });
    check("mul self", &[STRIDED], |x| x[0].mul(&x[0]).unwrap());
}

#[test]
fn finite_differences_div() {
    check("div", &[STRIDED, OTHER], |x| x[0].div(&x[1]).unwrap());
    check("div broadcast denominator", &[OTHER, BROADCAST], |x| {
        x[0].div(&x[1]).unwrap()
    });
}

#[test]
fn finite_differences_neg() {
    check("neg", &[STRIDED], |x| x[0].neg().unwrap());
}

#[test]
fn finite_differences_scalar_forms() {
    check("add_scalar", &[STRIDED], |x| x[0].add_scalar(1.5).unwrap());
    check("sub_scalar", &[STRIDED], |x| x[0].sub_scalar(1.5).unwrap());
    check("mul_scalar", &[STRIDED], |x| x[0].mul_scalar(-2.5).unwrap());
    check("div_scalar", &[BROADCAST], |x| {
        x[0].div_scalar(4.0).unwrap()
    });
}

#[test]
fn finite_differences_sum_and_mean() {
    check("sum", &[STRIDED], |x| x[0].sum().unwrap());
    check("sum broadcast", &[BROADCAST], |x| x[0].sum().unwrap());
    check("mean", &[OTHER], |x| x[0].mean().unwrap());
    check("sum_modes [0]", &[STRIDED], |x| {
        x[0].sum_modes(&[0]).unwrap()
    });
    check("sum_modes [1]", &[STRIDED], |x| {
        x[0].sum_modes(&[1]).unwrap()
    });
    check("sum_modes [0, 1]", &[OTHER], |x| {
        x[0].sum_modes(&[1, 0]).unwrap()
    });
    check("sum_modes of a view", &[OTHER], |x| {
        x[0].unsqueeze(1).unwrap().sum_modes(&[2]).unwrap()
    });
}

#[test]
fn finite_differences_matmul() {
    // Strided operands (one transposed view, one with a negative stride): the BLAS path.
    let a = Spec {
        layout: "(3,4):(4,1)",
        offset: 0,
    };
    let b = Spec {
        layout: "(4,2):(1,-5)",
        offset: 5,
    };
    check("matmul strided", &[a, b], |x| x[0].matmul(&x[1]).unwrap());
    // Nested modes that do not coalesce: the offset-table path.
    let a = Spec {
        layout: "((2,2),3):((1,6),2)",
        offset: 0,
    };
    let b = Spec {
        layout: "(3,(2,2)):(1,(3,7))",
        offset: 0,
    };
    check("matmul nested", &[a, b], |x| x[0].matmul(&x[1]).unwrap());
    // A broadcast (stride-zero) operand and a view chain.
    let a = Spec {
        layout: "(2,3):(0,1)",
        offset: 0,
    };
    let b = Spec {
        layout: "(4,3):(3,1)",
        offset: 0,
    };
    check("matmul broadcast", &[a, b], |x| {
        let every_other_row = x[1]
            .slice(&[Key::slice(Some(0), Some(4), Some(2)), Key::all()])
            .unwrap();
        x[0].matmul(&every_other_row.permute(&[1, 0]).unwrap())
            .unwrap()
    });
    // f32 goes through the same kernels; a quick value check against f64.
    let a32 = Tensor::from_vec((0..6).map(|i| i as f32).collect(), &s("(2,3)")).unwrap();
    let a64 = Tensor::from_vec((0..6).map(f64::from).collect(), &s("(2,3)")).unwrap();
    let p32 = a32.matmul(&a32.permute(&[1, 0]).unwrap()).unwrap();
    let p64 = a64.matmul(&a64.permute(&[1, 0]).unwrap()).unwrap();
    let v32: Vec<f64> = p32
        .to_vec::<f32>()
        .unwrap()
        .into_iter()
        .map(f64::from)
        .collect();
    assert_eq!(v32, p64.to_vec::<f64>().unwrap());
}

#[test]
fn f32_gradients_agree_with_f64() {
    // The f32 kernels (sgemm included) against the f64 ones on exact small integers.
    fn grads<T: strideweave::Element>(to: impl Fn(f64) -> T) -> Vec<Vec<f64>> {
        let a = Tensor::new(
            Carrier::from_vec((0..12).map(|i| to((i % 5) as f64 - 2.0)).collect()),
            0,
            l("(3,4):(4,1)"),
        )
        .unwrap();
        let b = Tensor::new(
            Carrier::from_vec((0..12).map(|i| to((i % 3) as f64)).collect()),
            3,
            l("(3,3):(-1,3)"),
        )
        .unwrap();
        a.set_requires_grad(true).unwrap();
        b.set_requires_grad(true).unwrap();
        let p = b.matmul(&a).unwrap(); // (3,4)
        let q = p.mul(&a).unwrap().sub(&a.reverse(1).unwrap()).unwrap();
        q.sum_modes(&[1])
            .unwrap()
            .sum()
            .unwrap()
            .backward()
            .unwrap();
        [&a, &b]
            .iter()
            .map(|t| {
                t.grad()
                    .unwrap()
                    .to_scalars()
                    .unwrap()
                    .iter()
                    .map(|s| s.to_f64())
                    .collect()
            })
            .collect()
    }
    assert_eq!(grads(|v| v as f32), grads(|v| v));
}
