//! Central finite differences in f64 for every new gradient: the reductions by pattern,
//! `magnitude`, `normalize`, `cross`. `L = Σ W ⊙ f(x…)` against `(L(x + h) − L(x − h)) / 2h`
//! per element, on transposed (strided) operands.

use strideweave::{Reduction, Tensor, no_grad};

/// A leaf of shape `(rows, cols)` read through a transposed view of a compact
/// `(cols, rows)` tensor, with distinct values (no ties for max/min).
fn leaf(data: &[f64], rows: usize, cols: usize) -> Tensor {
    let base =
        Tensor::from_vec(data.to_vec(), &format!("({cols},{rows})").parse().unwrap()).unwrap();
    base.permute(&[1, 0]).unwrap()
}

fn loss(out: &Tensor) -> Tensor {
    let w: Vec<f64> = (0..out.size()).map(|i| 0.7 + 0.45 * i as f64).collect();
    out.mul(&Tensor::from_vec(w, out.shape()).unwrap())
        .unwrap()
        .sum()
        .unwrap()
}

/// Checks the gradients of `f` with respect to each leaf (given as the data of its base).
fn check(name: &str, datas: &[(Vec<f64>, usize, usize)], f: impl Fn(&[Tensor]) -> Tensor) {
    let bases: Vec<Tensor> = datas
        .iter()
        .map(|(d, r, c)| {
            let b = Tensor::from_vec(d.clone(), &format!("({c},{r})").parse().unwrap()).unwrap();
            b.set_requires_grad(true).unwrap();
            b
        })
        .collect();
    let leaves: Vec<Tensor> = bases.iter().map(|b| b.permute(&[1, 0]).unwrap()).collect();
    loss(&f(&leaves)).backward().unwrap();
    let eval = |ds: &[Vec<f64>]| -> f64 {
        let _g = no_grad();
        let ts: Vec<Tensor> = ds
            .iter()
            .zip(datas)
            .map(|(d, (_, r, c))| leaf(d, *r, *c))
            .collect();
        loss(&f(&ts)).item::<f64>().unwrap()
    };
    let h = 1e-6;
    let plain: Vec<Vec<f64>> = datas.iter().map(|(d, _, _)| d.clone()).collect();
    for (k, b) in bases.iter().enumerate() {
        let g = b.grad().unwrap().to_vec::<f64>().unwrap();
        for i in 0..plain[k].len() {
            let (mut p, mut m) = (plain.clone(), plain.clone());
            p[k][i] += h;
            m[k][i] -= h;
            let numeric = (eval(&p) - eval(&m)) / (2.0 * h);
            assert!(
                (numeric - g[i]).abs() <= 1e-6 * (1.0 + numeric.abs()),
                "{name}: input {k} element {i}: analytic {}, numeric {numeric}",
                g[i]
            );
        }
    }
}

fn data(n: usize, seed: u64) -> Vec<f64> {
    // Distinct values in [0.5, 2.5), at least 1e-3 apart.
    let mut v: Vec<f64> = (0..n)
        .map(|i| 0.5 + ((i as u64 * 7919 + seed * 31) % 2000) as f64 / 1000.0)
        .collect();
    v.iter_mut()
        .enumerate()
        .for_each(|(i, x)| *x += i as f64 * 1e-5);
    v
}

#[test]
fn finite_differences_reduce_each_reduction() {
    for r in [
        Reduction::Sum,
        Reduction::Mean,
        Reduction::Max,
        Reduction::Min,
        Reduction::Prod,
    ] {
        check(
            &format!("reduce {r} a b -> a"),
            &[(data(12, 1), 3, 4)],
            |x| x[0].reduce("a b -> a", r, &[]).unwrap(),
        );
        check(
            &format!("reduce {r} (h2 h) w -> w h"),
            &[(data(12, 2), 4, 3)],
            |x| x[0].reduce("(h2 h) w -> w h", r, &[("h2", 2)]).unwrap(),
        );
        check(&format!("reduce {r} a b ->"), &[(data(6, 3), 2, 3)], |x| {
            x[0].reduce("a b ->", r, &[]).unwrap()
        });
    }
}

#[test]
fn finite_differences_magnitude() {
    check("magnitude", &[(data(6, 4), 2, 3)], |x| {
        x[0].magnitude().unwrap()
    });
}

#[test]
fn finite_differences_normalize() {
    check("normalize", &[(data(6, 5), 3, 2)], |x| {
        x[0].normalize().unwrap().unwrap()
    });
}

#[test]
fn finite_differences_cross() {
    check("cross", &[(data(3, 6), 3, 1), (data(3, 7), 3, 1)], |x| {
        let a = x[0].reshape(&"3".parse().unwrap()).unwrap();
        let b = x[1].reshape(&"3".parse().unwrap()).unwrap();
        a.cross(&b).unwrap()
    });
}
