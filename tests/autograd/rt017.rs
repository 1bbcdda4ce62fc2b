//! Contracts RT017: gradient buffers are injective; broadcast aliasing is summed per slot
//! and replicated; other aliasing is refused.

use strideweave::{Carrier, ErrorKind, Tensor};

use crate::autograd::support::{compact, grad_vals, l, leaf, s, vals};

/// A leaf with `layout` over `len` carrier elements `1, 2, …`.
fn aliased_leaf(layout: &str, len: usize) -> Tensor {
    let t = Tensor::new(
        Carrier::from_vec((1..=len).map(|i| i as f64).collect()),
        0,
        l(layout),
    )
    .unwrap();
    t.set_requires_grad(true).unwrap();
    t
}

#[test]
fn rt017_an_injective_target_keeps_its_layout() {
    // Holes, a negative stride and an offset: the gradient has the same layout, its own
    // carrier just long enough for the reach, zeros in the holes.
    let x = leaf("(2,3):(-1,4)", 1);
    x.backward_with(Some(&x.detach()), false).unwrap();
    let g = x.grad().unwrap();
    assert_eq!(g.layout(), x.layout());
    assert!(g.layout().is_injective());
    assert_eq!(g.carrier().len(), 10);
    assert_eq!(g.offset(), 1);
    assert_eq!(vals(&g), vals(&x));
    assert_eq!(g.carrier().to_vec::<f64>().unwrap()[2..4], [0.0, 0.0]);
}

#[test]
fn rt017_sum_contributions_of_a_top_level_broadcast_mode() {
    let x = aliased_leaf("(4,2):(0,1)", 2);
    // Contributions 1..8 (first-mode-fastest): slot 0 gets 1+2+3+4, slot 1 gets 5+6+7+8.
    x.backward_with(
        Some(&compact((1..=8).map(f64::from).collect(), "(4,2)")),
        false,
    )
    .unwrap();
    let g = x.grad().unwrap();
    assert_eq!(
        g.layout(),
        &l("(4,2):(1,4)"),
        "the compact injective layout"
    );
    assert_eq!(vals(&g), [10.0, 10.0, 10.0, 10.0, 26.0, 26.0, 26.0, 26.0]);
    // Accumulation keeps the replicated sums consistent.
    x.mul_scalar(1.0)
        .unwrap()
        .backward_with(Some(&compact(vec![1.0; 8], "(4,2)")), false)
        .unwrap();
    assert_eq!(
        grad_vals(&x),
        [14.0, 14.0, 14.0, 14.0, 30.0, 30.0, 30.0, 30.0]
    );
}

#[test]
fn rt017_sum_contributions_at_hierarchy_depth() {
    // Shape (2,(4,3)) with the nested extent-4 mode broadcast: slot of (i,(j,k)) is i + 2k.
    let x = aliased_leaf("(2,(4,3)):(1,(0,2))", 6);
    let c: Vec<f64> = (0..24).map(f64::from).collect();
    x.backward_with(Some(&compact(c.clone(), "(2,(4,3))")), false)
        .unwrap();
    let g = x.grad().unwrap();
    assert_eq!(g.layout(), &l("(2,(4,3)):(1,(2,8))"));
    let gv = vals(&g);
    for i in 0..2 {
        for k in 0..3 {
            let slot_sum: f64 = (0..4).map(|j| c[i + 2 * j + 8 * k]).sum();
            for j in 0..4 {
                assert_eq!(gv[i + 2 * j + 8 * k], slot_sum, "({i},({j},{k}))");
            }
        }
    }
}

#[test]
fn rt017_a_broadcast_view_of_an_injective_leaf_sums_into_the_leaf() {
    // The view aliases, the leaf does not: the leaf's gradient keeps its layout.
    let x = leaf("(2,1):(1,1)", 0);
    let b = x.broadcast_to(&s("(2,5)")).unwrap();
    b.backward_with(Some(&compact(vec![1.0; 10], "(2,5)")), false)
        .unwrap();
    assert_eq!(x.grad().unwrap().layout(), x.layout());
    assert_eq!(grad_vals(&x), [5.0, 5.0]);
    // A retained broadcast non-leaf follows the leaf rule: compact, per-slot sums.
    let y = leaf("2:1", 0);
    let v = y.unsqueeze(0).unwrap().broadcast_to(&s("(3,2)")).unwrap();
    v.retain_grad();
    v.sum().unwrap().backward().unwrap();
    let gv = v.grad().unwrap();
    assert_eq!(gv.layout(), &l("(3,2):(1,3)"));
    assert_eq!(vals(&gv), [3.0; 6]);
    assert_eq!(grad_vals(&y), [3.0, 3.0]);
}

#[test]
fn rt017_refuse_aliasing_that_broadcast_modes_do_not_explain() {
    let x = aliased_leaf("(4,2):(1,1)", 5);
    let err = x
        .backward_with(Some(&compact(vec![1.0; 8], "(4,2)")), false)
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert!(err.to_string().contains("(4,2):(1,1)"), "{err}");
    assert!(x.grad().is_none());
    // Reached through a graph, too: nothing is under-counted, nothing changes.
    let y = x.permute(&[1, 0]).unwrap();
    let err = y.sum().unwrap().backward().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert!(x.grad().is_none());
}
