//! Random hierarchical layouts with signed and zero strides, for property tests against
//! naive references: the test binary declares this module once (`tests/main.rs`).

use proptest::prelude::*;
use strideweave::{Carrier, Element, Layout, Tensor};

/// The leaves of a hierarchical shape, grouped into top-level modes.
#[derive(Clone, Debug)]
pub struct Shape {
    pub groups: Vec<Vec<i64>>,
}

impl Shape {
    pub fn leaves(&self) -> Vec<i64> {
        self.groups.iter().flatten().copied().collect()
    }
    pub fn size(&self) -> i64 {
        self.leaves().iter().product()
    }
    /// The layout of this shape with the depth-first leaf strides `strides`.
    pub fn layout(&self, strides: &[i64]) -> Layout {
        let (mut sh, mut st, mut k) = (vec![], vec![], 0);
        for g in &self.groups {
            let e: Vec<String> = g.iter().map(|x| x.to_string()).collect();
            let d: Vec<String> = strides[k..k + g.len()]
                .iter()
                .map(|x| x.to_string())
                .collect();
            k += g.len();
            if g.len() == 1 {
                sh.push(e[0].clone());
                st.push(d[0].clone());
            } else {
                sh.push(format!("({})", e.join(",")));
                st.push(format!("({})", d.join(",")));
            }
        }
        format!("({}):({})", sh.join(","), st.join(","))
            .parse()
            .unwrap()
    }
}

/// How one side's strides are made from the shape.
#[derive(Clone, Debug)]
pub enum Strides {
    /// Any signed strides, zero included (a source may alias).
    Free(Vec<i64>),
    /// The compact strides of a permutation of the leaves (keys order them), each leaf's
    /// sign flipped or (`zero`, sources only) made stride 0, the whole scaled by `gap`.
    Permuted {
        keys: Vec<u8>,
        flips: Vec<bool>,
        zero: Vec<bool>,
        gap: i64,
    },
}

impl Strides {
    pub fn of(&self, extents: &[i64], allow_zero: bool) -> Vec<i64> {
        match self {
            Strides::Free(v) => v[..extents.len()].to_vec(),
            Strides::Permuted {
                keys,
                flips,
                zero,
                gap,
            } => {
                let mut order: Vec<usize> = (0..extents.len()).collect();
                order.sort_by_key(|&j| (keys[j], j));
                let (mut out, mut acc) = (vec![0; extents.len()], *gap);
                for j in order {
                    out[j] = if allow_zero && zero[j] {
                        0
                    } else if flips[j] {
                        -acc
                    } else {
                        acc
                    };
                    acc *= extents[j];
                }
                out
            }
        }
    }
}

pub fn extent() -> impl Strategy<Value = i64> {
    prop_oneof![4 => 1i64..=5, 1 => 8i64..=40]
}

pub fn shape() -> impl Strategy<Value = Shape> {
    let group = prop_oneof![3 => prop::collection::vec(extent(), 1..=1), 1 => prop::collection::vec(extent(), 1..=3)];
    prop::collection::vec(group, 0..=4)
        .prop_map(|groups| Shape { groups })
        .prop_filter("at most 6 leaves and 20000 elements", |s| {
            s.leaves().len() <= 6 && s.size() <= 20_000
        })
}

pub fn strides(free: bool) -> impl Strategy<Value = Strides> {
    let free_s = prop::collection::vec(-6i64..=6, 6).prop_map(Strides::Free);
    let permuted = (
        prop::collection::vec(0u8..6, 6),
        prop::collection::vec(prop::bool::weighted(0.3), 6),
        prop::collection::vec(prop::bool::weighted(0.2), 6),
        prop_oneof![3 => Just(1i64), 1 => Just(2i64)],
    )
        .prop_map(|(keys, flips, zero, gap)| Strides::Permuted {
            keys,
            flips,
            zero,
            gap,
        });
    if free {
        prop_oneof![1 => free_s, 2 => permuted].boxed()
    } else {
        permuted.boxed()
    }
}

/// A tensor of `layout` inside a carrier holding `fill(k)` at index `k`, with `pads`
/// elements before and after its reach.
pub fn placed<T: Element>(
    layout: Layout,
    pads: (usize, usize),
    fill: impl Fn(usize) -> T,
) -> Tensor {
    let (lo, hi) = layout.reach();
    let offset = (-lo) as usize + pads.0;
    let len = offset + hi.max(0) as usize + 1 + pads.1;
    let c = Carrier::from_vec((0..len).map(fill).collect::<Vec<T>>());
    Tensor::new(c, offset, layout).unwrap()
}
