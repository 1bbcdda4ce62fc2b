//! Helpers shared by the layout tests.

use strideweave::{IntTuple, Layout, Shape};

/// Parses a layout in either notation, panicking with the text on failure (tests only).
pub fn l(text: &str) -> Layout {
    text.parse()
        .unwrap_or_else(|e| panic!("bad test layout {text}: {e}"))
}

/// Parses a shape.
pub fn s(text: &str) -> Shape {
    text.parse()
        .unwrap_or_else(|e| panic!("bad test shape {text}: {e}"))
}

/// Parses an integer tuple.
pub fn t(text: &str) -> IntTuple {
    text.parse()
        .unwrap_or_else(|e| panic!("bad test tuple {text}: {e}"))
}

/// Every index of a layout in ordinal order.
pub fn indices(layout: &Layout) -> Vec<i64> {
    (0..layout.size() as i64)
        .map(|i| layout.index_of(i).unwrap())
        .collect()
}

/// `L(i)` with CuTe's extension: ordinals beyond the size extend the last leaf.
pub fn eval_extended(layout: &Layout, mut i: i64) -> i64 {
    let shape = layout.shape().extents();
    let stride = layout.stride().values();
    let n = shape.len();
    let mut acc = 0;
    for k in 0..n {
        if k + 1 == n {
            acc += i * stride[k];
        } else {
            acc += (i % shape[k]) * stride[k];
            i /= shape[k];
        }
    }
    acc
}
