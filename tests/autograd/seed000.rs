//! Seed 000's last two requirements: one-subtensor view backward, and no-grad view creation,
//! with every scenario, one test each, named after them.

use strideweave::{Carrier, ErrorKind, Key, Tensor, Tree, no_grad};

use crate::autograd::support::{
    assert_close, compact, cotangent_like, grad_vals, l, leaf, s, vals,
};

// ---- Requirement: one-subtensor view backward applies the inverse logical transformation --

#[test]
fn one_subtensor_view_backward_applies_the_inverse_logical_transformation() {
    // gradient defaults to the unit cotangent of a scalar view (one extent-one leaf) with the
    // view's layout; backward returns nothing (`Ok(())`).
    let x = leaf("(2,3):(1,2)", 0);
    let one = x
        .slice(&[1.into(), Key::slice(Some(2), Some(3), None)])
        .unwrap();
    assert_eq!(one.layout(), &l("1:2"));
    assert_eq!(one.backward(), Ok(()));
    assert_eq!(grad_vals(&x), [0.0, 0.0, 0.0, 0.0, 0.0, 1.0]);

    // The view saves its source and the source carrier's version.
    let y = leaf("(2,3):(1,2)", 0);
    let v = y.permute(&[1, 0]).unwrap();
    assert_eq!(v.grad_op(), Some("permute"));
    assert!(!v.is_leaf() && v.requires_grad());

    // retain_graph = true keeps the graph for another call; false releases it.
    let c = cotangent_like(&v, |i| i as f64);
    v.backward_with(Some(&c), true).unwrap();
    v.backward_with(Some(&c), false).unwrap();
    // Two traversals accumulate: 2 × the inverse permutation of 0..6.
    assert_eq!(grad_vals(&y), [0.0, 6.0, 2.0, 8.0, 4.0, 10.0]);
    let err = v.backward_with(Some(&c), false).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Runtime);
    assert!(err.to_string().contains("retain_graph=true"), "{err}");
    assert_eq!(
        grad_vals(&y),
        [0.0, 6.0, 2.0, 8.0, 4.0, 10.0],
        "unchanged by the failure"
    );

    // The source gradient uses fresh storage of the source carrier's class, with the
    // (injective) source layout restored — here with holes and an offset.
    let z = leaf("(2,3):(1,4)", 3);
    let w = z
        .rearrange_tree(&Tree::node([Tree::id(1), Tree::id(0)]), None)
        .unwrap();
    w.backward_with(Some(&cotangent_like(&w, |i| 1.0 + i as f64)), false)
        .unwrap();
    let g = z.grad().unwrap();
    assert_eq!(g.layout(), z.layout());
    assert!(!Carrier::same(g.carrier(), z.carrier()));
    assert_eq!(g.carrier_class(), z.carrier_class());
    assert!(g.is_leaf() && !g.requires_grad());
    assert_eq!(vals(&g), [1.0, 4.0, 2.0, 5.0, 3.0, 6.0]);
}

#[test]
fn scatter_a_slice_cotangent() {
    // A positive-step slice of a (5,10) source: mode 0 = 2, mode 1 = 1:9:2.
    let x = leaf("(5,10):(1,5)", 0);
    let v = x
        .slice(&[2.into(), Key::slice(Some(1), Some(9), Some(2))])
        .unwrap();
    assert_eq!(
        (v.layout().to_string(), v.offset()),
        ("4:10".to_string(), 7)
    );
    v.backward_with(Some(&cotangent_like(&v, |i| 1.0 + i as f64)), false)
        .unwrap();
    let g = grad_vals(&x);
    let mut expected = vec![0.0; 50];
    for (k, j) in [1, 3, 5, 7].into_iter().enumerate() {
        expected[2 + 5 * j] = 1.0 + k as f64; // ordinal of (2, j)
    }
    assert_eq!(g, expected);

    // as_strided scatters the same way: selected ordinals get their values, others zero.
    let y = leaf("(4,3):(3,1)", 0);
    let a = y
        .as_strided(&s("(2,2)"), &"(1,4)".parse().unwrap())
        .unwrap();
    a.backward_with(Some(&cotangent_like(&a, |i| 1.0 + i as f64)), false)
        .unwrap();
    assert_eq!(
        grad_vals(&y),
        [1.0, 2.0, 0.0, 0.0, 3.0, 4.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    );
}

#[test]
fn reduce_a_broadcast_cotangent() {
    // broadcast_to: (2,1) → (2,4): each source coordinate receives the sum of its four.
    let x = leaf("(2,1):(1,2)", 0);
    let b = x.broadcast_to(&s("(2,4)")).unwrap();
    assert!(!b.layout().is_injective());
    // A broadcast view takes an injective cotangent of its shape (any injective layout).
    let c = Tensor::from_vec_row_major((1..=8).map(f64::from).collect(), &s("(2,4)")).unwrap();
    b.backward_with(Some(&c), false).unwrap();
    // Row-major values: row 0 = 1,2,3,4 and row 1 = 5,6,7,8.
    assert_eq!(grad_vals(&x), [10.0, 26.0]);
    assert_eq!(x.grad().unwrap().layout(), x.layout());

    // broadcast_in_dim composes unsqueeze and broadcast_to.
    let y = leaf("2:1", 0);
    let d = y.broadcast_in_dim(&s("(3,2)"), &[1]).unwrap();
    d.backward_with(
        Some(&compact((1..=6).map(f64::from).collect(), "(3,2)")),
        false,
    )
    .unwrap();
    assert_eq!(grad_vals(&y), [1.0 + 2.0 + 3.0, 4.0 + 5.0 + 6.0]);

    // Broadcasting inside a nested mode, and repeat (a stride-0 view), sum the same way.
    let z = leaf("(2,(1,3)):(1,(2,2))", 0);
    let e = z.broadcast_to(&s("(2,(4,3))")).unwrap();
    e.backward_with(Some(&compact(vec![1.0; 24], "(2,(4,3))")), false)
        .unwrap();
    assert_eq!(grad_vals(&z), [4.0; 6]);
    let r = leaf("(2,3):(1,2)", 0);
    let rep = r.repeat("h w -> h w c", &[("c", 4)]).unwrap();
    rep.backward_with(
        Some(&compact((0..24).map(f64::from).collect(), "(2,3,4)")),
        false,
    )
    .unwrap();
    let expected: Vec<f64> = (0..6)
        .map(|i| (0..4).map(|c| (i + 6 * c) as f64).sum())
        .collect();
    assert_eq!(grad_vals(&r), expected);
}

#[test]
fn invert_a_structural_view() {
    // Each view's gradient must carry cotangent value v at the source coordinate the view
    // read it from, and restore the injective source layout (not compact: strides (2,8)
    // with holes and offset 1, so a compact gradient would fail the layout check).
    type View = fn(&Tensor) -> Tensor;
    let cases: [(&str, &str, View); 8] = [
        ("(4,3):(2,8)", "permute", |t| t.permute(&[1, 0]).unwrap()),
        ("(4,3):(2,8)", "reshape", |t| {
            t.reshape(&s("(2,(2,3))")).unwrap()
        }),
        ("(4,3):(2,8)", "rearrange", |t| {
            t.rearrange("(h w) c -> c w h", &[("h", 2)]).unwrap()
        }),
        ("(4,3):(2,8)", "rearrange_tree", |t| {
            t.rearrange_tree(&Tree::node([Tree::id(1), Tree::Leaf, Tree::id(0)]), None)
                .unwrap()
        }),
        ("(4,3):(2,8)", "unsqueeze", |t| t.unsqueeze(1).unwrap()),
        ("(4,1,3):(2,7,8)", "squeeze", |t| t.squeeze(1).unwrap()),
        ("(4,3):(2,8)", "reverse", |t| t.reverse(0).unwrap()),
        ("(4,3):(2,8)", "reshape+permute", |t| {
            t.reshape(&s("(3,(2,2))"))
                .unwrap()
                .permute(&[1, 0])
                .unwrap()
        }),
    ];
    for (layout, name, view) in cases {
        let x = leaf(layout, 1);
        let v = view(&x);
        // Tag every view element with the source value it reads: the gradient must put
        // that tag back where the value came from, i.e. grad == x's own values.
        let tags = vals(&v);
        v.backward_with(Some(&cotangent_like(&v, |i| tags[i])), false)
            .unwrap();
        let g = x.grad().unwrap();
        assert_eq!(
            g.layout(),
            x.layout(),
            "{name}: the source layout is restored"
        );
        assert_eq!(vals(&g), vals(&x), "{name}: the inverse transformation");
    }
}

#[test]
fn reject_an_invalid_view_cotangent() {
    let x = leaf("(4,3):(1,4)", 0);
    // An injective view (layout 3:4) takes a cotangent with exactly its layout.
    let injective = x.slice(&[0.into(), Key::all()]).unwrap();
    let bad_layout = compact(vec![1.0; 3], "3");
    let err = injective
        .backward_with(Some(&bad_layout), true)
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value, "{err}");
    assert!(err.to_string().contains("3:4"), "{err}");

    // A broadcast view: wrong shape, then a non-injective layout.
    let b = leaf("(4,1):(1,4)", 0).broadcast_to(&s("(4,3)")).unwrap();
    let wrong_shape = compact(vec![1.0; 12], "(3,4)");
    assert_eq!(
        b.backward_with(Some(&wrong_shape), true)
            .unwrap_err()
            .kind(),
        ErrorKind::Value
    );
    let aliased = Tensor::new(Carrier::from_vec(vec![1.0f64; 4]), 0, l("(4,3):(1,0)")).unwrap();
    assert_eq!(
        b.backward_with(Some(&aliased), true).unwrap_err().kind(),
        ErrorKind::Value
    );
    // Another dtype is a TypeError.
    let f32s = Tensor::from_vec(vec![1.0f32; 3], &s("3")).unwrap();
    let t = x.slice(&[0.into(), Key::all()]).unwrap();
    assert_eq!(
        t.backward_with(Some(&f32s), true).unwrap_err().kind(),
        ErrorKind::Type
    );
    // No cotangent for a non-scalar view.
    assert_eq!(
        t.backward_with(None, true).unwrap_err().kind(),
        ErrorKind::Value
    );

    // None of these changed the source's .grad.
    assert!(x.grad().is_none());
}

#[test]
fn reject_a_view_whose_source_was_mutated() {
    let x = leaf("(2,3):(1,2)", 0);
    let v = x.permute(&[1, 0]).unwrap();
    let c = cotangent_like(&v, |_| 1.0);
    x.set_ordinal(4, 99.0).unwrap(); // version 0 → 1
    let err = v.backward_with(Some(&c), false).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Runtime);
    let msg = err.to_string();
    assert!(msg.contains("permute"), "{msg}");
    assert!(msg.contains("(2,3):(1,2)"), "names the tensor: {msg}");
    assert!(
        msg.contains("version 0") && msg.contains("version 1"),
        "{msg}"
    );
    assert!(x.grad().is_none());

    // A mutation through another view of the same carrier counts too, and a failure deep
    // in a chain leaves every .grad as it was (here: an earlier gradient).
    let y = leaf("(2,3):(1,2)", 0);
    let w = y.reshape(&s("6")).unwrap();
    w.backward_with(Some(&cotangent_like(&w, |_| 1.0)), false)
        .unwrap();
    let chain = y.reshape(&s("6")).unwrap().reverse(0).unwrap();
    let alias = Tensor::new(y.carrier().clone(), 0, l("6:1")).unwrap();
    alias.fill(0.0).unwrap();
    let err = chain
        .backward_with(Some(&cotangent_like(&chain, |_| 5.0)), false)
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Runtime, "{err}");
    assert_eq!(grad_vals(&y), [1.0; 6]);
}

// ---- Requirement: no-grad view creation detaches the view from its source ---------------

#[test]
fn no_grad_view_creation_detaches_the_view_from_its_source() {
    let x = leaf("(2,3):(1,2)", 0);
    let v = {
        let _g = no_grad();
        x.slice(&[Key::all(), Key::slice(Some(1), None, None)])
            .unwrap()
    };
    assert!(v.is_leaf() && v.grad_op().is_none() && !v.requires_grad());
    assert!(
        Carrier::same(v.carrier(), x.carrier()),
        "still a zero-copy view"
    );
    assert_eq!(
        v.backward_with(Some(&cotangent_like(&v, |i| i as f64)), false),
        Ok(())
    );
    assert_eq!(grad_vals(&v), [0.0, 1.0, 2.0, 3.0]);
    assert!(x.grad().is_none());
}

#[test]
fn backward_through_a_no_grad_view() {
    let x = leaf("(4,3):(3,1)", 0);
    let v = {
        let _g = no_grad();
        x.permute(&[1, 0]).unwrap()
    };
    // Recording resumed after the block.
    assert!(x.permute(&[1, 0]).unwrap().requires_grad());
    let c = cotangent_like(&v, |i| 1.0 + i as f64);
    v.backward_with(Some(&c), false).unwrap();
    v.backward_with(Some(&c), false).unwrap(); // a leaf has no graph to release
    let g = v.grad().unwrap();
    assert_eq!(g.layout(), v.layout());
    assert_close(
        &vals(&g),
        &(1..=12).map(|i| 2.0 * i as f64).collect::<Vec<_>>(),
        0.0,
    );
    assert!(x.grad().is_none(), "the source's .grad is unchanged");
}

#[test]
fn reject_an_invalid_cotangent_for_a_no_grad_view() {
    let x = leaf("(4,3):(1,4)", 0);
    let v = {
        let _g = no_grad();
        x.permute(&[1, 0]).unwrap()
    };
    // A non-Tensor cotangent does not compile (see the compile_fail example on
    // `Tensor::backward`); the dynamic "wrong kind" is a cotangent of another dtype.
    let f32s = Tensor::from_vec(vec![1.0f32; 12], &s("(3,4)")).unwrap();
    assert_eq!(
        v.backward_with(Some(&f32s), false).unwrap_err().kind(),
        ErrorKind::Type
    );
    // An invalid layout (compact instead of the view's (3,4):(4,1)).
    let compact_c = compact(vec![1.0; 12], "(3,4)");
    assert_eq!(
        v.backward_with(Some(&compact_c), false).unwrap_err().kind(),
        ErrorKind::Value
    );
    assert_eq!(v.backward().unwrap_err().kind(), ErrorKind::Value);
    assert!(v.grad().is_none() && x.grad().is_none());
}
