//! Finite differences (central, f64) of `L = Σ W ⊙ f(a, b)` for every contraction form, on
//! strided, reversed and broadcast leaves: the gradient of each storage slot.

use strideweave::{Carrier, Tensor, no_grad};

/// A leaf: `layout` at `offset` over storage `data`.
fn leaf(layout: &str, offset: usize, data: &[f64]) -> Tensor {
    Tensor::new(
        Carrier::from_vec(data.to_vec()),
        offset,
        layout.parse().unwrap(),
    )
    .unwrap()
}

fn storage(len: usize, seed: u64) -> Vec<f64> {
    (0..len)
        .map(|i| {
            let z = (i as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ seed;
            (z % 2000) as f64 / 1000.0 - 1.0
        })
        .collect()
}

fn loss(out: &Tensor) -> Tensor {
    let w: Vec<f64> = (0..out.size())
        .map(|i| 1.0 + ((i * 7) % 5) as f64 / 4.0)
        .collect();
    out.mul(&Tensor::from_vec(w, out.shape()).unwrap())
        .unwrap()
        .sum()
        .unwrap()
}

/// Checks the analytic gradient of every storage slot of each leaf `(layout, offset, len)`.
fn check(name: &str, leaves: &[(&str, usize, usize)], f: impl Fn(&[Tensor]) -> Tensor) {
    let datas: Vec<Vec<f64>> = (leaves.iter().enumerate())
        .map(|(k, &(_, _, len))| storage(len, 31 * k as u64 + 5))
        .collect();
    let ts: Vec<Tensor> = (leaves.iter().zip(&datas))
        .map(|(&(l, o, _), d)| {
            let t = leaf(l, o, d);
            t.set_requires_grad(true).unwrap();
            t
        })
        .collect();
    loss(&f(&ts)).backward().unwrap();
    let eval = |datas: &[Vec<f64>]| {
        let _g = no_grad();
        let ts: Vec<Tensor> = (leaves.iter().zip(datas))
            .map(|(&(l, o, _), d)| leaf(l, o, d))
            .collect();
        loss(&f(&ts)).item::<f64>().unwrap()
    };
    let h = 1e-6;
    for (k, (&(layout, offset, _), t)) in leaves.iter().zip(&ts).enumerate() {
        let layout: strideweave::Layout = layout.parse().unwrap();
        let g = t.grad().unwrap().to_vec::<f64>().unwrap();
        let mut seen = std::collections::BTreeMap::new();
        for (i, &gi) in g.iter().enumerate() {
            seen.entry(offset as i64 + layout.index_of(i).unwrap())
                .or_insert(gi);
        }
        for (slot, analytic) in seen {
            let (mut plus, mut minus) = (datas.clone(), datas.clone());
            plus[k][slot as usize] += h;
            minus[k][slot as usize] -= h;
            let numeric = (eval(&plus) - eval(&minus)) / (2.0 * h);
            assert!(
                (numeric - analytic).abs() <= 1e-6 * (1.0 + numeric.abs()),
                "{name}: leaf {k} slot {slot}: analytic {analytic}, numeric {numeric}"
            );
        }
    }
}

#[test]
fn finite_differences_contract() {
    check(
        "contract",
        &[("(2,3,4):(12,1,3)", 0, 24), ("(4,5,3):(-1,4,20)", 3, 64)],
        |x| x[0].contract(&x[1], &[1, 2], &[2, 0]).unwrap(),
    );
    check(
        "contract to rank 0",
        &[("(3,2):(2,1)", 0, 6), ("(2,3):(1,2)", 0, 6)],
        |x| x[0].contract(&x[1], &[0, 1], &[1, 0]).unwrap(),
    );
}

#[test]
fn finite_differences_dot_and_outer() {
    check("dot", &[("5:-2", 8, 9), ("5:1", 0, 5)], |x| {
        x[0].dot(&x[1]).unwrap()
    });
    check("dot self", &[("4:1", 0, 4)], |x| x[0].dot(&x[0]).unwrap());
    check("outer broadcast", &[("3:0", 0, 1), ("4:2", 1, 8)], |x| {
        x[0].outer(&x[1]).unwrap()
    });
}

#[test]
fn finite_differences_matmul_forms() {
    check(
        "matrix x vector",
        &[("(3,4):(4,1)", 0, 12), ("4:1", 0, 4)],
        |x| x[0].matmul(&x[1]).unwrap(),
    );
    check(
        "vector x matrix",
        &[("3:1", 0, 3), ("(3,2):(1,3)", 0, 6)],
        |x| x[0].matmul(&x[1]).unwrap(),
    );
    check(
        "batched",
        &[("(2,3,4):(1,2,6)", 0, 24), ("(2,4,2):(8,1,-4)", 4, 16)],
        |x| x[0].matmul(&x[1]).unwrap(),
    );
    check(
        "integers' path off: nested modes",
        &[
            ("(2,(2,2)):(1,(2,4))", 0, 8),
            ("((2,2),3):((1,2),4)", 0, 12),
        ],
        |x| x[0].matmul(&x[1]).unwrap(),
    );
}

#[test]
fn finite_differences_einsum() {
    check(
        "attention",
        &[("(2,3,4):(1,2,6)", 0, 24), ("(2,5,4):(1,2,10)", 0, 40)],
        |x| Tensor::einsum("b q d, b k d -> b q k", &[&x[0], &x[1]]).unwrap(),
    );
    check(
        "one input sum and permute",
        &[("(3,4):(4,1)", 0, 12)],
        |x| Tensor::einsum("i j -> j", &[&x[0]]).unwrap(),
    );
    check(
        "split group and output group",
        &[("(6,2):(1,6)", 0, 12), ("(3,2):(2,1)", 0, 6)],
        |x| Tensor::einsum_with("(h w) k, w k -> (h k)", &[&x[0], &x[1]], &[("h", 2)]).unwrap(),
    );
    check(
        "separately summed",
        &[("(3,4):(1,3)", 0, 12), ("5:1", 0, 5)],
        |x| Tensor::einsum("i j, k -> i", &[&x[0], &x[1]]).unwrap(),
    );
}
