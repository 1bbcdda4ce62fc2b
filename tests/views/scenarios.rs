//! Every requirement and scenario of seed 000 (core-tensor-views) except backward and
//! no-grad (the autograd issue), plus contracts C2–C4 and D1–D6.

use strideweave::{Carrier, ErrorKind, IntTuple, Key, Scalar, Tensor, Tree};

use crate::views::support::{block_scaled, carrier_state, l, s, tensor};

fn view(t: &Tensor, keys: &[Key]) -> Tensor {
    t.slice(keys).unwrap()
}

fn err_kind<T: std::fmt::Debug>(r: strideweave::Result<T>) -> ErrorKind {
    r.unwrap_err().kind()
}

// ---- Zero-copy views --------------------------------------------------------------------

#[test]
fn create_a_zero_copy_view() {
    let t = tensor("(2,3,4):(1,2,6)", 0);
    t.set_ordinal(0, 7.0).unwrap();
    let before = carrier_state(&t);
    let views = [
        view(&t, &[Key::all(), 1.into(), Key::all()]),
        t.permute(&[2, 0, 1]).unwrap(),
        t.reshape(&s("(6,4)")).unwrap(),
        t.as_strided(&s("(2,2)"), &"(1,2)".parse().unwrap())
            .unwrap(),
        t.unsqueeze(0)
            .unwrap()
            .broadcast_to(&s("(5,2,3,4)"))
            .unwrap(),
        t.broadcast_in_dim(&s("(2,3,4,2)"), &[0, 1, 2]).unwrap(),
        t.unsqueeze(1).unwrap().squeeze(1).unwrap(),
        t.reverse(2).unwrap(),
        t.rearrange_tree(&Tree::node([Tree::id(2), Tree::id(0), Tree::id(1)]), None)
            .unwrap(),
    ];
    for v in &views {
        assert!(Carrier::same(v.carrier(), t.carrier()), "{v:?}");
        assert_eq!(v.dtype(), t.dtype());
        assert!(
            !std::ptr::eq(v.representation(), t.representation()),
            "a fresh representation"
        );
    }
    assert_eq!(
        carrier_state(&t),
        before,
        "versions and release state unchanged"
    );
    assert_eq!(t.carrier().version(), 1);
}

#[test]
fn reject_an_invalid_transformed_representation() {
    // A selector beyond the source would place elements outside it: rejected, nothing changes.
    let t = tensor("(2,3):(1,2)", 0);
    let before = carrier_state(&t);
    let err = t
        .as_strided(&s("(4,2)"), &"(1,4)".parse().unwrap())
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert_eq!(carrier_state(&t), before);
    // The same validation that guards views guards every representation.
    let c = Carrier::from_vec(vec![0f32; 4]);
    let err = Tensor::new(c, 2, l("(2,2):(1,2)")).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert!(
        err.to_string().contains("reaches carrier indices 2..=5"),
        "{err}"
    );
}

// ---- Multi-subtensor views ------------------------------------------------------------------

#[test]
fn transform_a_multi_subtensor_leading_domain() {
    let t = block_scaled();
    let r = t.representation();
    let deeper = r.subtensors()[1].layout.clone();
    let values = t.dequantize().unwrap().to_vec::<f32>().unwrap();
    let shape = t.shape().clone(); // ((2,2),2)
    assert_eq!(shape, s("((2,2),2)"));
    let views = [
        t.permute(&[1, 0]).unwrap(),
        t.slice(&[Key::all(), Key::slice(Some(0), Some(1), None)])
            .unwrap(),
        t.as_strided(&s("(2,2)"), &"(1,4)".parse().unwrap())
            .unwrap(),
        t.unsqueeze(0)
            .unwrap()
            .broadcast_to(&s("(3,(2,2),2)"))
            .unwrap(),
        t.broadcast_in_dim(&s("((2,2),5,2)"), &[0, 2]).unwrap(),
        t.unsqueeze(2).unwrap().squeeze(2).unwrap(),
    ];
    for v in &views {
        let vr = v.representation();
        assert_eq!(v.dtype(), strideweave::DType::BlockScaledI8F32);
        assert_eq!(vr.subtensors().len(), 2);
        assert_eq!(
            vr.subtensors()[1].layout,
            deeper,
            "deeper layouts preserved"
        );
        for (a, b) in vr.subtensors().iter().zip(r.subtensors()) {
            assert!(Carrier::same(&a.carrier, &b.carrier));
            assert_eq!(a.offset, b.offset, "offsets preserved");
        }
        assert_eq!(
            vr.adjacent()[0].shape(),
            vr.subtensors()[0].layout.shape(),
            "S_0 follows L_0"
        );
    }
    // Reshape applies to both L_0 and S_0; with one scale per element both are regular.
    let fine = Tensor::block_scaled((0..8).collect(), vec![1.0; 8], &s("(4,2)"), 0, 1).unwrap();
    let r = fine.reshape(&s("(2,4)")).unwrap();
    assert_eq!(r.representation().adjacent()[0].to_string(), "(2,4):(1,2)");
    assert_eq!(
        r.dequantize().unwrap().to_vec::<f32>().unwrap(),
        fine.dequantize().unwrap().to_vec::<f32>().unwrap()
    );
    // The permuted view reads the same values in the permuted order.
    let p = views[0].dequantize().unwrap().to_vec::<f32>().unwrap();
    let expect: Vec<f32> = (0..8).map(|i| values[(i / 2) + 4 * (i % 2)]).collect();
    assert_eq!(p, expect);
}

#[test]
fn reject_an_invalid_multi_subtensor_transformation() {
    let t = block_scaled();
    let before = carrier_state(&t);
    assert_eq!(err_kind(t.permute(&[0, 0])), ErrorKind::Value);
    assert_eq!(err_kind(t.reshape(&s("7"))), ErrorKind::Value);
    // S_0 steps irregularly (0 inside a block): no reshape without a copy.
    assert_eq!(err_kind(t.reshape(&s("(2,4)"))), ErrorKind::Value);
    assert_eq!(err_kind(t.squeeze(0)), ErrorKind::Value);
    assert_eq!(err_kind(t.reverse(0)), ErrorKind::NotImplemented);
    assert_eq!(
        err_kind(t.rearrange_tree(&Tree::node([Tree::id(1), Tree::id(0), Tree::id(2)]), None)),
        ErrorKind::NotImplemented
    );
    assert_eq!(carrier_state(&t), before);
}

// ---- Slice indexing ----------------------------------------------------------------------------

#[test]
fn slice_leaf_default_step() {
    let t = tensor("Layout(Shape([5, 10]), Stride([1, 5]))", 3);
    let v = view(&t, &[2.into(), Key::slice(Some(1), Some(9), None)]);
    let origin = t.layout().index(&"(2,1)".parse().unwrap()).unwrap();
    assert_eq!(v.offset() as i64, 3 + origin);
    assert_eq!(v.layout(), &l("Layout(Shape(8), Stride(5))"));
    assert_eq!(v.layout().to_string(), "8:5");
}

#[test]
fn slice_leaf_positive_step() {
    let t = tensor("Layout(Shape([5, 10]), Stride([1, 5]))", 0);
    let v = view(&t, &[2.into(), Key::slice(Some(1), Some(9), Some(2))]);
    assert_eq!(v.offset(), 7);
    assert_eq!(v.layout(), &l("Layout(Shape(4), Stride(10))"));
    assert_eq!(v.to_vec::<f64>().unwrap(), [7.0, 17.0, 27.0, 37.0]);
}

#[test]
fn slice_of_many_flat_modes_and_power_of_two_steps() {
    // Ten flat modes (beyond the eight kept inline) and steps 1, 2, 4 and 3.
    let t = Tensor::arange::<f64>(&s("(2,2,2,2,2,2,2,2,2,8)"));
    let mut keys = vec![Key::all(); 9];
    keys[0] = 1.into();
    keys[3] = Key::slice(None, None, Some(2));
    keys.push(Key::slice(Some(0), Some(8), Some(4)));
    let v = t.slice(&keys).unwrap();
    assert_eq!(
        v.layout().to_string(),
        "(2,2,1,2,2,2,2,2,2):(2,4,16,16,32,64,128,256,2048)"
    );
    assert_eq!(v.offset(), 1);
    let odd = t
        .slice(&[
            Key::all(),
            Key::all(),
            Key::all(),
            Key::all(),
            Key::all(),
            Key::all(),
            Key::all(),
            Key::all(),
            Key::all(),
            Key::slice(Some(1), Some(7), Some(3)),
        ])
        .unwrap();
    assert_eq!(odd.shape(), &s("(2,2,2,2,2,2,2,2,2,2)"));
    assert_eq!(odd.offset(), 512);
    let err = t.slice(&[Key::all(); 10]).map(|_| ()).and_then(|_| {
        let mut bad = vec![Key::all(); 9];
        bad.push(Key::slice(Some(0), Some(7), Some(4)));
        t.slice(&bad).map(|_| ())
    });
    assert!(
        err.unwrap_err()
            .to_string()
            .contains("the interval width 7 is not a multiple of the step 4")
    );
}

#[test]
fn preserve_a_non_leaf_mode_with_a_whole_slice() {
    let t = tensor("(10,(2,3)):(1,(10,20))", 0);
    let v = view(&t, &[0.into(), Key::all()]);
    assert_eq!(v.shape(), &s("((2,3))"));
    assert_eq!(v.layout().to_string(), "((2,3)):((10,20))");
}

#[test]
fn d2_a_whole_slice_however_spelled() {
    let t = tensor("(10,(2,3)):(1,(10,20))", 0);
    for k in [
        Key::all(),
        (0..6).into(),
        Key::slice(None, Some(100), None),
        Key::slice(Some(-6), None, Some(1)),
    ] {
        let v = view(&t, &[Key::all(), k]);
        assert_eq!(v.layout().to_string(), "(10,(2,3)):(1,(10,20))", "{k}");
    }
}

#[test]
fn python_slice_normalisation() {
    let t = tensor("10:1", 0);
    let cases: [(Key, &str, usize); 4] = [
        (Key::slice(Some(-3), None, None), "3:1", 7),
        (Key::slice(None, Some(-8), None), "2:1", 0),
        (Key::slice(Some(-100), Some(100), Some(5)), "2:5", 0),
        (Key::slice(Some(4), Some(10), Some(3)), "2:3", 4),
    ];
    for (k, layout, offset) in cases {
        let v = view(&t, &[k]);
        assert_eq!(
            (v.layout().to_string(), v.offset()),
            (layout.to_string(), offset),
            "{k}"
        );
    }
}

#[test]
fn an_all_integer_key_returns_the_value() {
    let t = tensor("(5,10):(1,5)", 2);
    let before = carrier_state(&t);
    let v = t.index(&[3.into(), 4.into()]).unwrap().value().unwrap();
    assert_eq!(v, Scalar::F64(2.0 + 3.0 + 20.0));
    assert_eq!(carrier_state(&t), before);
}

#[test]
fn d3_an_empty_key_on_a_rank_zero_tensor_is_the_value() {
    let t = Tensor::new(Carrier::from_vec(vec![1.0f32, 2.0, 3.0]), 2, l("():()")).unwrap();
    assert_eq!(t.index(&[]).unwrap().value().unwrap(), Scalar::F32(3.0));
}

#[test]
fn reject_an_invalid_slice_key() {
    let t = tensor("(5,(2,5)):(1,(5,10))", 0);
    let before = carrier_state(&t);
    let bad: Vec<(Vec<Key>, &str)> = vec![
        (vec![Key::all()], "expected 2 keys"),
        (vec![Key::all(), Key::all(), Key::all()], "expected 2 keys"),
        (
            vec![5.into(), Key::all()],
            "integer key 5 is outside mode 0 of extent 5",
        ),
        (vec![(-1).into(), Key::all()], "integer key -1 is outside"),
        (vec![Key::all(), 10.into()], "outside mode 1 of extent 10"),
        (
            vec![Key::slice(None, None, Some(0)), Key::all()],
            "step 0 on mode 0 must be positive",
        ),
        (
            vec![Key::slice(None, None, Some(-1)), Key::all()],
            "must be positive",
        ),
        (
            vec![Key::slice(Some(3), Some(3), None), Key::all()],
            "is empty",
        ),
        (
            vec![Key::slice(Some(4), Some(1), None), Key::all()],
            "is empty",
        ),
        (
            vec![Key::slice(Some(0), Some(5), Some(2)), Key::all()],
            "interval width 5 is not a multiple of the step 2",
        ),
        (
            vec![Key::all(), (0..5).into()],
            "mode 1 is nested (shape (2,5))",
        ),
        (
            vec![Key::all(), Key::slice(None, None, Some(2))],
            "only a whole slice or one integer",
        ),
    ];
    for (keys, needle) in bad {
        let err = t.index(&keys).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Value, "{keys:?}");
        assert!(err.to_string().contains(needle), "{keys:?}: {err}");
    }
    assert_eq!(carrier_state(&t), before);
}

#[test]
fn slice_errors_name_mode_interval_and_step() {
    let t = tensor("(5,10):(1,5)", 0);
    let err = t
        .index(&[Key::all(), Key::slice(Some(1), Some(8), Some(3))])
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "index: slice 1:8:3 on mode 1 (extent 10): the interval width 7 is not a multiple of the step 3"
    );
}

#[test]
fn an_integer_over_a_non_leaf_mode_selects_first_mode_fastest() {
    let t = tensor("(3,(2,5)):(1,(3,6))", 0);
    let v = view(&t, &[Key::all(), 7.into()]);
    // 7 = (1,3) in (2,5): index 1·3 + 3·6 = 21.
    assert_eq!(
        (v.offset(), v.layout().to_string()),
        (21, "3:1".to_string())
    );
}

#[test]
fn reject_a_nonzero_multi_subtensor_slice_origin() {
    let t = block_scaled();
    let before = carrier_state(&t);
    assert_eq!(
        err_kind(t.index(&[Key::all(), Key::slice(Some(1), None, None)])),
        ErrorKind::NotImplemented
    );
    assert_eq!(
        err_kind(t.index(&[1.into(), Key::all()])),
        ErrorKind::NotImplemented
    );
    assert_eq!(
        err_kind(t.index(&[0.into(), 0.into()])),
        ErrorKind::NotImplemented,
        "coordinate access"
    );
    // Zero origin works.
    let v = view(&t, &[0.into(), Key::all()]);
    assert_eq!(v.representation().subtensors().len(), 2);
    assert_eq!(carrier_state(&t), before);
}

// ---- Rearrange --------------------------------------------------------------------------------

#[test]
fn rearrange_a_one_subtensor_tensor() {
    let t = tensor("(2,3):(1,2)", 4);
    let v = t
        .rearrange_tree(&Tree::node([Tree::id(1), Tree::Leaf, Tree::id(0)]), None)
        .unwrap();
    assert!(Carrier::same(v.carrier(), t.carrier()));
    assert_eq!(v.offset(), 4);
    assert_eq!(v.layout().to_string(), "(3,1,2):(2,0,1)");
}

#[test]
fn use_the_default_rearrangement_selection() {
    let t = tensor("(2,(3,4)):(1,(2,6))", 0);
    let v = t
        .rearrange_tree(&Tree::node([Tree::id(2), Tree::id(1), Tree::id(0)]), None)
        .unwrap();
    assert_eq!(v.layout().to_string(), "(4,3,2):(6,2,1)");
    let sel = Tree::node([Tree::Leaf, Tree::Leaf]);
    let v = t
        .rearrange_tree(&Tree::node([Tree::id(1), Tree::id(0)]), Some(&sel))
        .unwrap();
    assert_eq!(v.layout().to_string(), "((3,4),2):((2,6),1)");
}

#[test]
fn reject_an_invalid_rearrangement() {
    let t = tensor("(2,3):(1,2)", 0);
    let before = carrier_state(&t);
    for out in [
        Tree::node([Tree::id(0)]),
        Tree::node([Tree::id(0), Tree::id(0), Tree::id(1)]),
        Tree::node([Tree::id(0), Tree::id(5)]),
    ] {
        assert_eq!(
            err_kind(t.rearrange_tree(&out, None)),
            ErrorKind::Value,
            "{out}"
        );
    }
    let bad_sel = Tree::node([Tree::Leaf]);
    assert_eq!(
        err_kind(t.rearrange_tree(&Tree::node([Tree::id(0)]), Some(&bad_sel))),
        ErrorKind::Value
    );
    assert_eq!(carrier_state(&t), before);
}

// ---- Permute -----------------------------------------------------------------------------------

#[test]
fn permute_hierarchical_top_level_modes() {
    let t = tensor("((2,3),4,5):((1,2),6,24)", 1);
    let v = t.permute(&[1, 0, 2]).unwrap();
    assert_eq!(v.shape(), &s("[4, [2, 3], 5]"));
    assert_eq!(v.offset(), 1);
    assert!(Carrier::same(v.carrier(), t.carrier()));
}

#[test]
fn reject_an_invalid_permutation() {
    let t = tensor("(2,3,4):(1,2,6)", 0);
    let before = carrier_state(&t);
    for order in [&[0, 1][..], &[0, 1, 1], &[0, 1, 3], &[0, 1, 2, 3]] {
        assert_eq!(err_kind(t.permute(order)), ErrorKind::Value, "{order:?}");
    }
    assert_eq!(carrier_state(&t), before);
    let scalar = tensor("():()", 0);
    assert_eq!(scalar.permute(&[]).unwrap().layout(), scalar.layout());
}

// ---- Reshape -----------------------------------------------------------------------------------

#[test]
fn reshape_a_layout_with_regular_holes() {
    let t = tensor("Layout(Shape([2, 3]), Stride([2, 4]))", 3);
    let v = t.reshape(&s("Shape([3, [2]])")).unwrap();
    assert_eq!(v.layout(), &l("Layout(Shape([3, [2]]), Stride([2, [6]]))"));
    assert_eq!(v.offset(), 3);
    assert_eq!(v.to_vec::<f64>().unwrap(), t.to_vec::<f64>().unwrap());
}

#[test]
fn reject_a_size_mismatch() {
    let t = tensor("(2,3):(1,2)", 0);
    let before = carrier_state(&t);
    let err = t.reshape(&s("(4,2)")).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert!(err.to_string().contains("size 6"), "{err}");
    assert_eq!(carrier_state(&t), before);
}

#[test]
fn reject_a_reshape_that_requires_copying() {
    let t = tensor("(2,3):(3,1)", 0);
    let before = carrier_state(&t);
    let err = t.reshape(&s("6")).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert!(err.to_string().contains("would need a copy"), "{err}");
    assert_eq!(carrier_state(&t), before);
    // Stride-zero sources reshape only when everything is one element repeated.
    let b = tensor("(1,3):(0,1)", 0).broadcast_to(&s("(4,3)")).unwrap();
    assert_eq!(err_kind(b.reshape(&s("12"))), ErrorKind::Value);
    let z = tensor("1:0", 0).broadcast_to(&s("6")).unwrap();
    assert_eq!(
        z.reshape(&s("(2,3)")).unwrap().layout().to_string(),
        "(2,3):(0,0)"
    );
}

// ---- as_strided ------------------------------------------------------------------------------

#[test]
fn select_source_ordinals_from_a_noncanonical_layout() {
    let t = tensor("Layout(Shape([5, 4]), Stride([4, 1]))", 2);
    let v = t
        .as_strided(&s("Shape([2, 2])"), &"Stride([1, 2])".parse().unwrap())
        .unwrap();
    assert_eq!(v.layout(), &l("Layout(Shape([2, 2]), Stride([4, 8]))"));
    assert_eq!(v.offset(), 2);
    assert!(Carrier::same(v.carrier(), t.carrier()));
    for q in 0..4 {
        let b = [0, 1, 2, 3][q];
        let ordinal = (b % 2) + 2 * (b / 2);
        assert_eq!(v.get_ordinal(q).unwrap(), t.get_ordinal(ordinal).unwrap());
    }
}

#[test]
fn reject_an_aliasing_selector_layout() {
    let t = tensor("(5,4):(4,1)", 0);
    let err = t
        .as_strided(&s("(2,2)"), &"(1,1)".parse().unwrap())
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert!(err.to_string().contains("not injective"), "{err}");
}

#[test]
fn reject_a_selector_layout_outside_the_source() {
    let t = tensor("(5,4):(4,1)", 0);
    let err = t
        .as_strided(&s("(3,4)"), &"(1,6)".parse().unwrap())
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert!(
        err.to_string().contains("outside the source's 20 elements"),
        "{err}"
    );
    assert_eq!(
        err_kind(t.as_strided(&s("2"), &"(-1)".parse().unwrap())),
        ErrorKind::Value
    );
}

#[test]
fn reject_an_aliasing_composed_placement() {
    let t = tensor("(1,2):(0,1)", 0).broadcast_to(&s("(4,2)")).unwrap();
    let err = t
        .as_strided(&s("(2,2)"), &"(1,2)".parse().unwrap())
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert!(
        err.to_string().contains("aliases carrier elements"),
        "{err}"
    );
}

#[test]
fn d6_as_strided_requires_affine_leaves() {
    let t = tensor("(3,4):(1,10)", 0);
    // Ordinals 0,2,4 cross the mode boundary of extent 3 unevenly.
    let err = t.as_strided(&s("3"), &"2".parse().unwrap()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert!(
        err.to_string().contains("not affine") || err.to_string().contains("not a layout"),
        "{err}"
    );
    // Ordinals 0,3,6,9 are affine: stride 10.
    assert_eq!(
        t.as_strided(&s("4"), &"3".parse().unwrap())
            .unwrap()
            .layout()
            .to_string(),
        "4:10"
    );
}

// ---- Broadcasts -----------------------------------------------------------------------------------

#[test]
fn broadcast_a_nested_singleton_leaf() {
    let t = tensor("Layout(Shape([2, [1, 3]]), Stride([1, [2, 2]]))", 1);
    let v = t.broadcast_to(&s("Shape([2, [4, 3]])")).unwrap();
    assert_eq!(
        v.layout(),
        &l("Layout(Shape([2, [4, 3]]), Stride([1, [0, 2]]))")
    );
    assert_eq!(v.offset(), 1);
    assert!(Carrier::same(v.carrier(), t.carrier()));
}

#[test]
fn reject_an_incompatible_broadcast_target() {
    let t = tensor("(2,1,3):(1,2,2)", 0);
    let before = carrier_state(&t);
    assert_eq!(err_kind(t.broadcast_to(&s("(2,(4,3))"))), ErrorKind::Value);
    assert_eq!(err_kind(t.broadcast_to(&s("(3,4,3)"))), ErrorKind::Value);
    assert_eq!(err_kind(t.broadcast_to(&s("(2,4)"))), ErrorKind::Value);
    assert_eq!(carrier_state(&t), before);
}

#[test]
fn d4_an_extent_one_leaf_that_stays_keeps_its_stride() {
    let t = tensor("(2,1):(1,5)", 0);
    assert_eq!(
        t.broadcast_to(&s("(2,1)")).unwrap().layout().to_string(),
        "(2,1):(1,5)"
    );
}

#[test]
fn insert_an_omitted_leading_mode() {
    let t = tensor("Layout(Shape(2), Stride(1))", 0);
    let v = t.broadcast_in_dim(&s("Shape([3, 2])"), &[1]).unwrap();
    assert_eq!(v.layout(), &l("Layout(Shape([3, 2]), Stride([0, 1]))"));
    assert_eq!(v.offset(), 0);
    assert!(Carrier::same(v.carrier(), t.carrier()));
}

#[test]
fn reject_an_invalid_target_mode_sequence() {
    let t = tensor("(2,3):(1,2)", 0);
    let before = carrier_state(&t);
    let target = s("(2,5,3)");
    for dims in [&[0][..], &[0, 1, 2], &[0, 3], &[2, 0], &[0, 0], &[1, 1]] {
        assert_eq!(
            err_kind(t.broadcast_in_dim(&target, dims)),
            ErrorKind::Value,
            "{dims:?}"
        );
    }
    // A named target mode that changes a non-unit extent reports broadcast_to's failure.
    let err = t.broadcast_in_dim(&target, &[0, 1]).unwrap_err();
    assert!(err.to_string().contains("cannot broadcast"), "{err}");
    assert_eq!(
        t.broadcast_in_dim(&target, &[0, 2])
            .unwrap()
            .layout()
            .to_string(),
        "(2,5,3):(1,0,2)"
    );
    assert_eq!(carrier_state(&t), before);
}

#[test]
fn c3_right_aligned_broadcast() {
    let t = tensor("(3,1):(1,0)", 0);
    let v = t.broadcast_right(&s("(2,3,4)")).unwrap();
    assert_eq!(v.layout().to_string(), "(2,3,4):(0,1,0)");
    assert_eq!(err_kind(t.broadcast_right(&s("3"))), ErrorKind::Value);
}

// ---- Squeeze / unsqueeze -------------------------------------------------------------------------

#[test]
fn insert_and_remove_a_singleton_top_level_mode() {
    let t = tensor("((2,3),4):((1,2),6)", 5);
    for dim in [0, 1, 2] {
        let u = t.unsqueeze(dim).unwrap();
        assert_eq!(u.rank(), 3);
        let back = u.squeeze(dim).unwrap();
        assert_eq!(back.layout(), t.layout(), "dim {dim}");
        assert_eq!((u.offset(), back.offset()), (5, 5));
        assert!(Carrier::same(back.carrier(), t.carrier()));
    }
}

/// Seed 000: "a negative dim identifies the corresponding mode by counting backward from the
/// applicable insertion or source-mode range" (contracts D1: only squeeze/unsqueeze's dim is
/// normalised).
#[test]
fn a_negative_dim_counts_back_from_the_insertion_or_mode_range() {
    let t = tensor("((2,3),4):((1,2),6)", 5);
    // Insertion positions 0..=2 are -3..=-1.
    for (neg, pos) in [(-3, 0usize), (-2, 1), (-1, 2)] {
        let u = t.unsqueeze(neg).unwrap();
        assert_eq!(u.layout(), t.unsqueeze(pos).unwrap().layout(), "dim {neg}");
        // Source modes 0..=2 of the result are -3..=-1.
        assert_eq!(u.squeeze(neg).unwrap().layout(), t.layout(), "dim {neg}");
    }
    let before = carrier_state(&t);
    for bad in [-4isize, 3] {
        let err = t.unsqueeze(bad).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Value);
        assert!(
            err.to_string()
                .starts_with(&format!("unsqueeze: dim {bad} is outside")),
            "{err}"
        );
    }
    assert_eq!(
        t.squeeze(-3i64).unwrap_err().to_string(),
        "squeeze: dim -3 is outside the 2 top-level modes, where -2..=-1 count back from the end (valid: 0..2)"
    );
    assert_eq!(carrier_state(&t), before);
}

#[test]
fn reject_an_invalid_singleton_mode_transformation() {
    let t = tensor("((2,1),1,4):((1,0),0,2)", 0);
    let before = carrier_state(&t);
    assert_eq!(err_kind(t.unsqueeze(4)), ErrorKind::Value);
    assert_eq!(err_kind(t.squeeze(3)), ErrorKind::Value);
    assert!(t.squeeze(0).unwrap_err().to_string().contains("nested"));
    assert!(t.squeeze(2).unwrap_err().to_string().contains("extent 4"));
    assert_eq!(
        t.squeeze(1).unwrap().layout().to_string(),
        "((2,1),4):((1,0),2)"
    );
    assert_eq!(carrier_state(&t), before);
}

// ---- Reversal (C2) -------------------------------------------------------------------------------

#[test]
fn c2_reversal_is_an_explicit_view() {
    let t = tensor("(2,(2,3)):(1,(2,4))", 0);
    let r = t.reverse(1).unwrap();
    assert_eq!(
        (r.layout().to_string(), r.offset()),
        ("(2,(2,3)):(1,(-2,-4))".to_string(), 10)
    );
    let fwd = t.to_vec::<f64>().unwrap();
    let rev = r.to_vec::<f64>().unwrap();
    for i in 0..2 {
        for j in 0..6 {
            assert_eq!(rev[i + 2 * j], fwd[i + 2 * (5 - j)]);
        }
    }
    assert_eq!(r.reverse(1).unwrap().layout(), t.layout());
    assert_eq!(err_kind(t.reverse(2)), ErrorKind::Value);
}

// ---- Values through chains of views -----------------------------------------------------------------

#[test]
fn chained_views_read_the_source_values() {
    let t = Tensor::arange::<i64>(&s("(4,6)"));
    let v = view(
        &t,
        &[
            Key::slice(Some(1), None, None),
            Key::slice(None, None, Some(2)),
        ],
    )
    .permute(&[1, 0])
    .unwrap()
    .unsqueeze(0)
    .unwrap()
    .broadcast_to(&s("(2,3,3)"))
    .unwrap();
    let got = v.to_vec::<i64>().unwrap();
    assert_eq!(got.len(), 18);
    // v[b, c, r] = t[1 + r, 2c]; first-mode-fastest: b, then c, then r.
    let mut want = vec![];
    for r in 0..3i64 {
        for c in 0..3i64 {
            for _b in 0..2 {
                want.push((1 + r) + 4 * (2 * c));
            }
        }
    }
    assert_eq!(got, want);
}

#[test]
fn reading_through_a_view_of_a_released_carrier_is_a_runtime_error() {
    let t = tensor("(2,3):(1,2)", 0);
    let v = t.permute(&[1, 0]).unwrap();
    t.carrier().release().unwrap();
    assert!(v.carrier().is_released());
    assert_eq!(err_kind(v.to_vec::<f64>()), ErrorKind::Runtime);
    assert_eq!(err_kind(v.index(&[0.into(), 0.into()])), ErrorKind::Runtime);
    // Building views is metadata-only and still works.
    assert!(v.permute(&[1, 0]).is_ok());
}

#[test]
fn d1_negative_integer_keys_are_not_wrapped() {
    let t = tensor("(2,3):(1,2)", 0);
    assert_eq!(
        err_kind(t.index(&[(-1).into(), 0.into()])),
        ErrorKind::Value
    );
    assert_eq!(
        err_kind(
            t.broadcast_in_dim(&s("(2,3)"), &[0, 1])
                .and_then(|_| t.get(&IntTuple::from([-1, 0])))
        ),
        ErrorKind::Value
    );
    // Squeeze/unsqueeze dims are mode indices (`usize`, like every axis): the last
    // insertion position is `rank`.
    assert_eq!(
        t.unsqueeze(t.rank()).unwrap().layout().to_string(),
        "(2,3,1):(1,2,0)"
    );
}

#[test]
fn element_writes_bump_the_version() {
    let t = tensor("(2,3):(1,2)", 0);
    let v = t.permute(&[1, 0]).unwrap();
    v.set_ordinal(1, 42.0).unwrap();
    assert_eq!(t.carrier().version(), 1);
    assert_eq!(t.to_vec::<f64>().unwrap()[2], 42.0);
    v.fill(1.0).unwrap();
    assert_eq!(t.carrier().version(), 2);
    // The casting rule: a value that does not convert is a ValueError naming it.
    let err = t.set_ordinal(0, Scalar::Bool(true)).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert_eq!(
        err.to_string(),
        "set_ordinal: the value true (bool) is not representable as f64"
    );
    assert_eq!(t.carrier().version(), 2, "a failed write changes nothing");
    let b = block_scaled();
    assert_eq!(err_kind(b.set_ordinal(0, 1.0)), ErrorKind::NotImplemented);
    assert_eq!(err_kind(b.to_vec::<i8>()), ErrorKind::NotImplemented);
}

#[test]
fn rearrange_a_one_subtensor_tensor_by_pattern() {
    let t = tensor("(2,(3,4)):(1,(2,6))", 3);
    let v = t.rearrange("a (b c) -> c b a", &[]).unwrap();
    assert_eq!(
        (v.layout().to_string(), v.offset()),
        ("(4,3,2):(6,2,1)".to_string(), 3)
    );
    assert!(Carrier::same(v.carrier(), t.carrier()));
    // Same result as the tree form with the default selection.
    let tree = t
        .rearrange_tree(&Tree::node([Tree::id(2), Tree::id(1), Tree::id(0)]), None)
        .unwrap();
    assert_eq!(tree.layout(), v.layout());
    let split = tensor("(12,5):(1,12)", 0)
        .rearrange("(h w) c -> c (h w)", &[("w", 3)])
        .unwrap();
    assert_eq!(split.layout().to_string(), "(5,(4,3)):(12,(1,4))");
}

#[test]
fn reject_an_invalid_rearrangement_pattern() {
    let t = tensor("(2,3):(1,2)", 0);
    let before = carrier_state(&t);
    for (pattern, needle) in [
        ("a b -> a", "omitted source"),
        ("a b -> a b c", "unknown identifier"),
        ("a b c -> a b c", "3 terms"),
        ("a (b -> a b", "unbalanced"),
        ("a b => b a", "unknown character"),
    ] {
        let err = t.rearrange(pattern, &[]).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Value, "{pattern}");
        assert!(err.to_string().contains(needle), "{pattern}: {err}");
    }
    assert_eq!(
        err_kind(block_scaled().rearrange("a b -> b a", &[])),
        ErrorKind::NotImplemented
    );
    assert_eq!(carrier_state(&t), before);
}

#[test]
fn repeat_is_a_zero_copy_view() {
    let t = tensor("(2,3):(1,2)", 0);
    let v = t.repeat("h w -> h (w r)", &[("r", 2)]).unwrap();
    assert_eq!(v.layout().to_string(), "(2,(3,2)):(1,(2,0))");
    assert!(Carrier::same(v.carrier(), t.carrier()));
}
