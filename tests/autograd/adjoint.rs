//! The adjoint identity ⟨V(x), c⟩ = ⟨x, Vᵀ(c)⟩ for random chains of 1–3 views on random
//! layouts: nested modes, stride-zero modes, negative strides, holes, offsets.
//!
//! `x` may alias through stride-zero modes; the identity then holds on storage, which is
//! what its gradient describes (RT017): Σ over distinct slots of value × gradient, where
//! every alias of a slot must carry the same gradient value. Values are small integers, so
//! both sides are exact.

use proptest::prelude::*;
use strideweave::{Carrier, IntTuple, Key, ProfileToken, Shape, Tensor, Tree};

use crate::autograd::support::cotangent_like;

/// splitmix64: a tiny deterministic generator driven by proptest's seeds.
pub(crate) struct Rng(pub(crate) u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub(crate) fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    pub(crate) fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as usize) as i64
    }
    pub(crate) fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    pub(crate) fn shuffle<T>(&mut self, v: &mut [T]) {
        for i in (1..v.len()).rev() {
            v.swap(i, self.below(i + 1));
        }
    }
}

/// Rebuilds a tuple from a profile and leaf values.
fn rebuild(profile: &[ProfileToken], leaves: &[i64]) -> IntTuple {
    let mut stack: Vec<Vec<IntTuple>> = vec![Vec::new()];
    let mut next = leaves.iter();
    for t in profile {
        match t {
            ProfileToken::Leaf => stack
                .last_mut()
                .unwrap()
                .push(IntTuple::int(*next.next().unwrap())),
            ProfileToken::Push => stack.push(Vec::new()),
            ProfileToken::Pop => {
                let done = stack.pop().unwrap();
                stack.last_mut().unwrap().push(IntTuple::tuple(done));
            }
        }
    }
    IntTuple::tuple(stack.pop().unwrap())
}

fn shape_of(t: IntTuple) -> Shape {
    Shape::new(t).unwrap()
}

/// A random leaf tensor: 1–5 leaves of extent 1–4, grouped into nested modes, strides from
/// a shuffled compact order with gaps, some zero, some negative, at an offset.
pub(crate) fn random_source(rng: &mut Rng) -> Tensor {
    let n = rng.range(1, 5) as usize;
    let extents: Vec<i64> = (0..n).map(|_| rng.range(1, 4)).collect();
    let mut order: Vec<usize> = (0..n).collect();
    rng.shuffle(&mut order);
    let mut strides = vec![0i64; n];
    let mut acc = rng.range(1, 2);
    for &k in &order {
        strides[k] = acc;
        acc *= extents[k] * rng.range(1, 2);
    }
    for d in strides.iter_mut() {
        if rng.chance(20) {
            *d = 0;
        } else if rng.chance(20) {
            *d = -*d;
        }
    }
    // Group consecutive leaves into top-level modes, some nested one level deeper.
    let mut shape_modes = Vec::new();
    let mut stride_modes = Vec::new();
    let mut k = 0;
    while k < n {
        let take = rng.range(1, (n - k).min(3) as i64) as usize;
        let (e, d) = (&extents[k..k + take], &strides[k..k + take]);
        if take == 1 && rng.chance(70) {
            shape_modes.push(IntTuple::int(e[0]));
            stride_modes.push(IntTuple::int(d[0]));
        } else if take == 3 && rng.chance(50) {
            shape_modes.push(IntTuple::tuple([
                IntTuple::int(e[0]),
                IntTuple::tuple([IntTuple::int(e[1]), IntTuple::int(e[2])]),
            ]));
            stride_modes.push(IntTuple::tuple([
                IntTuple::int(d[0]),
                IntTuple::tuple([IntTuple::int(d[1]), IntTuple::int(d[2])]),
            ]));
        } else {
            shape_modes.push(IntTuple::tuple(e.iter().map(|&v| IntTuple::int(v))));
            stride_modes.push(IntTuple::tuple(d.iter().map(|&v| IntTuple::int(v))));
        }
        k += take;
    }
    let layout = strideweave::Layout::new(
        Shape::new(IntTuple::tuple(shape_modes)).unwrap(),
        strideweave::Stride::new(IntTuple::tuple(stride_modes)).unwrap(),
    )
    .unwrap();
    let (lo, hi) = layout.reach();
    let offset = (-lo + rng.range(0, 2)) as usize;
    let len = offset + hi as usize + 1 + rng.below(3);
    let data: Vec<f64> = (0..len).map(|_| rng.range(-5, 5) as f64).collect();
    let t = Tensor::new(Carrier::from_vec(data), offset, layout).unwrap();
    t.set_requires_grad(true).unwrap();
    t
}

/// One random view of `t`, or `None` when the drawn arguments are not valid for it.
pub(crate) fn random_view(t: &Tensor, rng: &mut Rng) -> Option<(String, Tensor)> {
    let rank = t.rank();
    let modes: Vec<Shape> = (0..rank).map(|i| t.shape().mode(i).unwrap()).collect();
    let kind = rng.below(10);
    let (name, r) = match kind {
        0 => {
            let mut order: Vec<usize> = (0..rank).collect();
            rng.shuffle(&mut order);
            (format!("permute {order:?}"), t.permute(&order))
        }
        1 => {
            let keys: Vec<Key> = modes
                .iter()
                .map(|m| {
                    let size = m.size() as i64;
                    let leaf = m.as_int_tuple().is_int() || m.profile() == [ProfileToken::Leaf];
                    if rng.chance(25) {
                        Key::Int(rng.range(0, size - 1))
                    } else if !leaf || rng.chance(25) {
                        Key::all()
                    } else {
                        let step = rng.range(1, 2);
                        let start = rng.range(0, size - 1);
                        let count = rng.range(1, (size - start + step - 1) / step);
                        Key::slice(Some(start), Some(start + count * step), Some(step))
                    }
                })
                .collect();
            let shown: Vec<String> = keys.iter().map(|k| k.to_string()).collect();
            (
                format!("index [{}]", shown.join(", ")),
                t.index(&keys).and_then(|i| {
                    i.view().ok_or_else(|| strideweave::Error::Runtime {
                        op: "test",
                        detail: "all integers".into(),
                    })
                }),
            )
        }
        2 => {
            // Regroup the leaf extents (same first-mode-fastest order) into new modes.
            let leaves: Vec<i64> = t
                .shape()
                .leaves()
                .iter()
                .copied()
                .filter(|&e| e > 1)
                .collect();
            let mut groups = Vec::new();
            let mut k = 0;
            while k < leaves.len() {
                let take = rng.range(1, (leaves.len() - k).min(2) as i64) as usize;
                let size: i64 = leaves[k..k + take].iter().product();
                groups.push(if take > 1 && rng.chance(50) {
                    IntTuple::tuple(leaves[k..k + take].iter().map(|&e| IntTuple::int(e)))
                } else {
                    IntTuple::int(size)
                });
                k += take;
            }
            if groups.is_empty() || rng.chance(20) {
                groups.push(IntTuple::int(1));
            }
            let target = shape_of(IntTuple::tuple(groups));
            (format!("reshape {target}"), t.reshape(&target))
        }
        3 => {
            let d = rng.range(0, rank as i64) as usize;
            (format!("unsqueeze {d}"), t.unsqueeze(d))
        }
        4 => {
            let ones: Vec<usize> = (0..rank)
                .filter(|&i| modes[i].size() == 1 && modes[i].profile() == [ProfileToken::Leaf])
                .collect();
            let &d = ones.get(rng.below(ones.len()))?;
            (format!("squeeze {d}"), t.squeeze(d))
        }
        5 => {
            if rank == 0 {
                return None;
            }
            let m = rng.below(rank);
            (format!("reverse {m}"), t.reverse(m))
        }
        6 => {
            let widened: Vec<i64> = t
                .shape()
                .leaves()
                .iter()
                .map(|&e| if e == 1 { rng.range(1, 3) } else { e })
                .collect();
            let target = shape_of(rebuild(t.shape().profile(), &widened));
            (format!("broadcast_to {target}"), t.broadcast_to(&target))
        }
        7 => {
            // Insert one or two new modes; the source's modes keep their places in order.
            let new = rng.range(1, 2) as usize;
            let total = rank + new;
            let mut slots: Vec<bool> = (0..total).map(|i| i < rank).collect();
            rng.shuffle(&mut slots);
            let mut dims = Vec::new();
            let mut src = modes.iter();
            let target: Vec<IntTuple> = slots
                .iter()
                .enumerate()
                .map(|(i, &is_src)| {
                    if is_src {
                        dims.push(i);
                        src.next().unwrap().as_int_tuple().clone()
                    } else {
                        IntTuple::int(rng.range(1, 3))
                    }
                })
                .collect();
            let target = shape_of(IntTuple::tuple(target));
            (
                format!("broadcast_in_dim {target} {dims:?}"),
                t.broadcast_in_dim(&target, &dims),
            )
        }
        8 => {
            let size = t.size() as i64;
            let a = rng.range(1, size.min(3));
            let b = rng.range(1, (size / a).clamp(1, 3));
            let (da, db) = if rng.chance(50) { (1, a) } else { (b, 1) };
            let shape = shape_of(IntTuple::from([a, b]));
            let stride: strideweave::Stride = format!("({da},{db})").parse().unwrap();
            (
                format!("as_strided {shape}:{stride}"),
                t.as_strided(&shape, &stride),
            )
        }
        _ => {
            let mut ids: Vec<Tree> = (0..rank).map(Tree::id).collect();
            rng.shuffle(&mut ids);
            if rng.chance(40) {
                ids.insert(rng.below(ids.len() + 1), Tree::Leaf);
            }
            let tree = Tree::node(ids);
            (
                format!("rearrange_tree {tree:?}"),
                t.rearrange_tree(&tree, None),
            )
        }
    };
    r.ok().map(|v| (name, v))
}

fn check(seed: u64, steps: usize) -> Result<(), TestCaseError> {
    let mut rng = Rng(seed);
    let x = random_source(&mut rng);
    let mut v = x.clone();
    let mut trail = vec![format!("x = {:?}", x)];
    let mut applied = 0;
    for _ in 0..steps * 4 {
        if applied == steps {
            break;
        }
        if let Some((name, next)) = random_view(&v, &mut rng) {
            trail.push(format!("{name} -> {}", next.layout()));
            v = next;
            applied += 1;
        }
    }
    if applied == 0 {
        v = x.permute(&(0..x.rank()).collect::<Vec<_>>()).unwrap();
        trail.push("permute identity".into());
    }
    let c: Vec<f64> = (0..v.size()).map(|_| rng.range(-5, 5) as f64).collect();
    let cot = if v.layout().is_injective() {
        cotangent_like(&v, |i| c[i])
    } else {
        Tensor::from_vec(c.clone(), v.shape()).unwrap()
    };
    let lhs: f64 = v
        .to_vec::<f64>()
        .unwrap()
        .iter()
        .zip(&c)
        .map(|(a, b)| a * b)
        .sum();
    v.backward_with(Some(&cot), false)
        .map_err(|e| TestCaseError::fail(format!("backward failed: {e}\n{}", trail.join("\n"))))?;
    let g = x.grad().unwrap();
    prop_assert!(g.layout().is_injective(), "RT017: {}", g.layout());
    if x.layout().is_injective() {
        prop_assert_eq!(g.layout(), x.layout());
    }
    // ⟨x, g⟩ over distinct storage slots; every alias of a slot carries the same gradient.
    let xs = x.to_vec::<f64>().unwrap();
    let gs = g.to_vec::<f64>().unwrap();
    let mut by_slot = std::collections::BTreeMap::new();
    for i in 0..x.size() {
        let slot = x.layout().index_of(i).unwrap();
        if let Some(&(gv, _)) = by_slot.get(&slot) {
            prop_assert_eq!(
                gv,
                gs[i],
                "aliases of slot {} differ\n{}",
                slot,
                trail.join("\n")
            );
        } else {
            by_slot.insert(slot, (gs[i], xs[i]));
        }
    }
    let rhs: f64 = by_slot.values().map(|(g, x)| g * x).sum();
    prop_assert_eq!(lhs, rhs, "⟨V(x), c⟩ ≠ ⟨x, Vᵀ(c)⟩\n{}", trail.join("\n"));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(768))]

    #[test]
    fn adjoint_identity_of_random_view_chains(seed in any::<u64>(), steps in 1usize..=3) {
        check(seed, steps)?;
    }
}
