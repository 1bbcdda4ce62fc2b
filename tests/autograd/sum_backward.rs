//! `sum`'s and `sum_modes`'s backward read the one cotangent value (or the kept-mode
//! cotangents) through stride 0: the gradient through strided, reversed, sliced, permuted
//! and broadcast views equals, bit for bit, the gradient of the same loss written as an
//! elementwise product with explicitly broadcast weights (`mul`'s backward, no sum rule
//! involved beyond the total).

use strideweave::{Key, Tensor};

use crate::autograd::support::{grad_vals, leaf, s};

/// A fresh leaf and a rank-2 view of it of shape `(4,6)`.
type Case = (&'static str, fn() -> (Tensor, Tensor));

fn cases() -> Vec<Case> {
    vec![
        ("permuted", || {
            let x = leaf("(6,4):(1,6)", 0);
            let v = x.permute(&[1, 0]).unwrap();
            (x, v)
        }),
        ("reversed, negative strides", || {
            let x = leaf("(4,6):(-6,1)", 18);
            let v = x.reverse(1).unwrap();
            (x, v)
        }),
        ("sliced with a step", || {
            let x = leaf("(9,6):(1,9)", 0);
            let v = x
                .slice(&[Key::slice(Some(1), Some(9), Some(2)), Key::all()])
                .unwrap();
            (x, v)
        }),
        ("broadcast view", || {
            let x = leaf("(4):(2)", 1);
            let v = x.unsqueeze(1).unwrap().broadcast_to(&s("(4,6)")).unwrap();
            (x, v)
        }),
        ("stride-0 leaf", || {
            let x = leaf("(4,6):(1,0)", 0);
            let v = x.reverse(0).unwrap();
            (x, v)
        }),
    ]
}

/// Weights `1, 1.25, …` of `shape`'s size, compact.
fn weights(shape: &strideweave::Shape) -> Tensor {
    let w: Vec<f64> = (0..shape.size()).map(|i| 1.0 + 0.25 * i as f64).collect();
    Tensor::from_vec(w, shape).unwrap()
}

#[test]
fn sum_backward_reads_the_cotangent_through_stride_zero_with_exact_gradients() {
    for (name, make) in cases() {
        for modes in [&[0][..], &[1], &[0, 1], &[1, 0]] {
            // Through the sum rule.
            let (x, v) = make();
            let out = v.sum_modes(modes).unwrap();
            let w = weights(out.shape());
            out.mul(&w).unwrap().sum().unwrap().backward().unwrap();
            let found = grad_vals(&x);
            // The same loss with the weights broadcast explicitly over the summed modes.
            let (y, u) = make();
            let mut sorted = modes.to_vec();
            sorted.sort_unstable();
            let mut wb = w.clone();
            for &m in &sorted {
                wb = wb.unsqueeze(m).unwrap();
            }
            let wb = wb.broadcast_to(u.shape()).unwrap().materialize().unwrap();
            u.mul(&wb).unwrap().sum().unwrap().backward().unwrap();
            let expected = grad_vals(&y);
            assert_eq!(found, expected, "{name}, sum_modes {modes:?}");
        }
        // The total: every element of the view receives the one cotangent value.
        let (x, v) = make();
        v.sum()
            .unwrap()
            .mul_scalar(3.0)
            .unwrap()
            .backward()
            .unwrap();
        let (y, u) = make();
        let threes = Tensor::from_vec(vec![3.0f64; u.size()], u.shape()).unwrap();
        u.mul(&threes).unwrap().sum().unwrap().backward().unwrap();
        assert_eq!(grad_vals(&x), grad_vals(&y), "{name}, sum");
    }
}
