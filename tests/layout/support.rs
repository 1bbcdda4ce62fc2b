//! Helpers shared by the layout tests.

use proptest::prelude::*;
use strideweave::{IntTuple, Layout};

use crate::notation;
pub use notation::{l, s};

/// Parses an integer tuple.
pub fn t(text: &str) -> IntTuple {
    text.parse()
        .unwrap_or_else(|e| panic!("bad test tuple {text}: {e}"))
}

/// Every index of a layout in ordinal order.
pub fn indices(layout: &Layout) -> Vec<i64> {
    (0..layout.size())
        .map(|i| layout.index_of(i).unwrap())
        .collect()
}

/// `L(i)` with CuTe's extension: ordinals beyond the size extend the last leaf.
pub fn eval_extended(layout: &Layout, mut i: i64) -> i64 {
    let shape = layout.shape().leaves();
    let stride = layout.stride().leaves();
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

/// A random hierarchical layout: 0–4 top-level modes, each a leaf or a tuple of 1–3 leaves,
/// extents 1–5, strides from `stride`.
pub fn layout_with(stride: impl Strategy<Value = i64> + Clone) -> impl Strategy<Value = Layout> {
    let leaf = (1i64..=5, stride);
    let mode = prop_oneof![
        3 => leaf.clone().prop_map(|p| vec![p]).prop_map(|v| (false, v)),
        1 => prop::collection::vec(leaf, 1..=3).prop_map(|v| (true, v)),
    ];
    prop::collection::vec(mode, 0..=4).prop_map(|modes| {
        let (mut sh, mut st) = (vec![], vec![]);
        for (nested, leaves) in modes {
            let s: Vec<String> = leaves.iter().map(|p| p.0.to_string()).collect();
            let d: Vec<String> = leaves.iter().map(|p| p.1.to_string()).collect();
            if nested {
                sh.push(format!("({})", s.join(",")));
                st.push(format!("({})", d.join(",")));
            } else {
                sh.push(s[0].clone());
                st.push(d[0].clone());
            }
        }
        format!("({}):({})", sh.join(","), st.join(","))
            .parse()
            .unwrap()
    })
}
