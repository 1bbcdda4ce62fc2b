//! Helpers shared by the autograd tests.

use strideweave::{Carrier, Tensor};

use crate::notation;
pub use notation::{l, s};

pub(crate) use crate::torch_programs;

/// An f64 tensor with `layout` at `offset` over a carrier holding `10 + i` at index `i`.
pub fn tensor(layout: &str, offset: usize) -> Tensor {
    let layout = l(layout);
    let (lo, hi) = layout.reach();
    assert!(offset as i64 + lo >= 0, "offset too small for {layout}");
    let len = (offset as i64 + hi + 1) as usize;
    Tensor::new(
        Carrier::from_vec((0..len).map(|i| 10.0 + i as f64).collect()),
        offset,
        layout,
    )
    .unwrap()
}

/// [`tensor`], marked as requiring gradients.
pub fn leaf(layout: &str, offset: usize) -> Tensor {
    let t = tensor(layout, offset);
    t.set_requires_grad(true).unwrap();
    t
}

/// A compact f64 tensor of `shape` holding `values` (first-mode-fastest).
pub fn compact(values: Vec<f64>, shape: &str) -> Tensor {
    Tensor::from_vec(values, &s(shape)).unwrap()
}

/// The values in first-mode-fastest order.
pub fn vals(t: &Tensor) -> Vec<f64> {
    t.to_vec::<f64>().unwrap()
}

/// The gradient's values in first-mode-fastest order.
pub fn grad_vals(t: &Tensor) -> Vec<f64> {
    vals(&t.grad().expect("a gradient"))
}

pub fn assert_close(found: &[f64], expected: &[f64], tol: f64) {
    assert_eq!(found.len(), expected.len(), "{found:?} vs {expected:?}");
    for (k, (a, b)) in found.iter().zip(expected).enumerate() {
        assert!(
            (a - b).abs() <= tol * (1.0 + b.abs()),
            "element {k}: {a} vs {b}\nfound    {found:?}\nexpected {expected:?}"
        );
    }
}

/// `1, 2, 3, …` as a compact cotangent with the layout of `t` (which must be compact or at
/// least injective: the cotangent gets `t`'s exact layout in a fresh carrier).
pub fn cotangent_like(t: &Tensor, values: impl Fn(usize) -> f64) -> Tensor {
    let layout = t.layout().clone();
    let (lo, hi) = layout.reach();
    let mut buf = vec![f64::NAN; (hi - lo + 1) as usize];
    for i in 0..layout.size() {
        buf[(layout.index_of(i).unwrap() - lo) as usize] = values(i);
    }
    Tensor::new(Carrier::from_vec(buf), (-lo) as usize, layout).unwrap()
}
