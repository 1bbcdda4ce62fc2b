//! Helpers shared by the view tests.

use strideweave::{Carrier, Tensor};

use crate::notation;
pub use notation::{l, s};

/// A tensor with `layout` over a carrier holding 0, 1, 2, … (f64), at `offset`.
pub fn tensor(layout: &str, offset: usize) -> Tensor {
    let layout = l(layout);
    let len = offset + layout.cosize();
    Tensor::new(
        Carrier::from_vec((0..len).map(|i| i as f64).collect()),
        offset,
        layout,
    )
    .unwrap()
}

/// Each carrier's values, version and release state.
pub fn carrier_state(t: &Tensor) -> Vec<(Vec<String>, u64, bool)> {
    t.representation()
        .subtensors()
        .iter()
        .map(|s| {
            let c = &s.carrier;
            let values = (0..c.len())
                .map(|i| c.get(i).map(|v| v.to_string()).unwrap_or_default())
                .collect();
            (values, c.version(), c.is_released())
        })
        .collect()
}

/// A block-scaled tensor: codes 0..8 over (4,2) with blocks of 2 along mode 0.
pub fn block_scaled() -> Tensor {
    Tensor::block_scaled(
        (0..8).collect(),
        vec![1.0, 0.5, 2.0, 0.25],
        &s("(4,2)"),
        0,
        2,
    )
    .unwrap()
}
