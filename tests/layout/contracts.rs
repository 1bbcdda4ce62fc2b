//! contracts §3 (L1–L15): one test per rule, worked example and upstream scenario.

use strideweave::{ErrorKind, IntTuple, Layout, ProfileToken::*, Shape, Stride, Tiler, Tree};

use crate::layout::support::{indices, l, s, t};

// ---- L1: IntTuple, Shape, Stride -------------------------------------------------------

#[test]
fn l1_int_tuple_integer_or_nested_tuple() {
    let x = IntTuple::tuple([IntTuple::int(2), IntTuple::from([3, 4])]);
    assert_eq!(x, t("(2,(3,4))"));
    assert_eq!(IntTuple::tuple([]).rank(), 0);
    assert_eq!(IntTuple::tuple([]).to_string(), "()");
    assert!(IntTuple::int(5).is_int());
    assert_ne!(
        IntTuple::int(24),
        IntTuple::from([24]),
        "(24) is not 24 as an IntTuple"
    );
}

#[test]
fn l1_construct_equivalent_hierarchical_values() {
    let a = Shape::new(IntTuple::tuple([IntTuple::int(2), IntTuple::from([3, 4])])).unwrap();
    let b: Shape = "[2, [3, 4]]".parse().unwrap();
    let c: Shape = "Shape([2, [3, 4]])".parse().unwrap();
    assert_eq!(a, b);
    assert_eq!(b, c);
    let d1: Stride = "(1,(2,6))".parse().unwrap();
    let d2 = Stride::new(t("[1, [2, 6]]")).unwrap();
    assert_eq!(d1, d2);
}

#[test]
fn l1_reject_invalid_leaves() {
    for bad in ["(2,0)", "(2,(3,-1))", "0", "((1),(0))"] {
        let err = Shape::new(t(bad)).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Value, "{bad}");
        assert!(err.to_string().contains("must be at least 1"), "{err}");
    }
    let err = Shape::new(t("(2,(3,-1))")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "Shape::new: extent -1 at mode 1.1 must be at least 1"
    );
}

#[test]
fn l1_signed_strides_are_legal() {
    let layout = l("(4,3):(-1,4)");
    assert_eq!(layout.index(&t("(3,0)")).unwrap(), -3);
    assert_eq!(layout.reach(), (-3, 8));
}

#[test]
fn l1_negative_strides_rejected_where_algebra_needs_non_negative() {
    let neg = l("(2,2):(1,-2)");
    for (op, r) in [
        ("complement", neg.complement(8)),
        ("right_inverse", neg.right_inverse()),
        ("left_inverse", neg.left_inverse()),
        ("logical_divide", l("8:1").logical_divide(&neg)),
        ("logical_product", l("2:1").logical_product(&neg)),
    ] {
        let err = r.unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Value, "{op}");
        assert!(err.to_string().contains("negative"), "{op}: {err}");
        assert!(err.to_string().contains("-2"), "{op}: {err}");
    }
}

#[test]
fn l1_empty_shape_has_size_one() {
    let e: Shape = "()".parse().unwrap();
    assert_eq!((e.size(), e.rank()), (1, 0));
    let layout = l("():()");
    assert_eq!((layout.size(), layout.cosize()), (1, 1));
    assert_eq!(layout.index(&IntTuple::tuple([])).unwrap(), 0);
}

// ---- L2: Layout congruence ---------------------------------------------------------------

#[test]
fn l2_reject_mismatched_shape_and_stride_tree() {
    let err = Layout::new(s("[2, [3, 4]]"), "[1, 2, 6]".parse().unwrap()).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    let msg = err.to_string();
    assert!(msg.contains("not congruent"), "{msg}");
    assert!(msg.contains("the root"), "{msg}");
    let err = Layout::new(s("(2,(3,4))"), "(1,(2,(6)))".parse().unwrap()).unwrap_err();
    assert!(err.to_string().contains("mode 1.1"), "{err}");
}

#[test]
fn l2_root_leaf_and_one_element_tuple_are_one_shape() {
    assert_eq!(s("24"), s("(24)"));
    assert_eq!(l("24:1"), l("(24):(1)"));
    assert_eq!(
        Layout::new(s("8"), "(2)".parse().unwrap()).unwrap(),
        l("8:2")
    );
    // Inside a tuple, a one-element tuple is a real level.
    assert_ne!(s("(3,(2))"), s("(3,2)"));
    assert_eq!(s("(3,(2))").depth(), 2);
}

// ---- L3: indexing --------------------------------------------------------------------------

#[test]
fn l3_index_a_nested_coordinate() {
    let layout = l("Layout(Shape([2, [3, 4]]), Stride([1, [10, 100]]))");
    assert_eq!(layout.index(&t("[1, [2, 3]]")).unwrap(), 321);
}

#[test]
fn l3_expand_a_linear_coordinate() {
    let layout = l("Layout(Shape([3, 4]), Stride([2, 10]))");
    assert_eq!(s("(3,4)").coordinate(5).unwrap(), t("(2,1)"));
    assert_eq!(layout.index(&5.into()).unwrap(), 14);
    assert_eq!(layout.index_of(5).unwrap(), 14);
}

#[test]
fn l3_mixed_coordinates_expand_at_any_level() {
    let layout = l("(3,(2,3)):(3,(12,1))");
    for c in ["16", "(1,5)", "(1,(1,2))"] {
        assert_eq!(layout.index(&t(c)).unwrap(), 17, "{c}");
    }
}

#[test]
fn l3_reject_an_out_of_domain_coordinate() {
    let layout = l("(3,4):(2,10)");
    for bad in ["(3,0)", "12", "(-1,0)", "-1", "(0,4)"] {
        let err = layout.index(&t(bad)).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Value, "{bad}");
        assert!(err.to_string().contains("outside"), "{bad}: {err}");
    }
    assert_eq!(
        layout.index(&t("(3,0)")).unwrap_err().to_string(),
        "index: coordinate 3 is outside mode 0 of extent 3 (valid: 0..3)"
    );
    assert!(layout.index_of(layout.size()).is_err());
}

#[test]
fn l3_reject_missing_or_extra_coordinates() {
    let layout = l("(2,(3,4)):(1,(2,6))");
    for bad in ["(1)", "(1,2,3)", "(1,(2))", "(1,(2,3,0))", "((0),1)"] {
        let err = layout.index(&t(bad)).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Value, "{bad}");
    }
}

// ---- L4: size, cosize, reach -----------------------------------------------------------

#[test]
fn l4_a_gapped_layout_has_a_larger_index_span_than_size() {
    let layout = l("Layout(Shape([2, 3]), Stride([1, 4]))");
    assert_eq!(layout.size(), 6);
    assert_eq!(layout.cosize(), 10);
}

#[test]
fn l4_reach_with_negative_strides() {
    let layout = l("(4,2):(-1,8)");
    assert_eq!(layout.reach(), (-3, 8));
    assert_eq!(layout.cosize(), 9);
    assert_eq!(l("4:-1").cosize(), 1);
    let idx = indices(&layout);
    assert_eq!(*idx.iter().min().unwrap(), -3);
    assert_eq!(*idx.iter().max().unwrap(), 8);
}

#[test]
fn l4_stride_zero_does_not_change_size() {
    let layout = l("(4,3):(0,1)");
    assert_eq!((layout.size(), layout.cosize()), (12, 3));
}

// ---- L5: profile ---------------------------------------------------------------------------

#[test]
fn l5_equal_hierarchy_yields_equal_profiles() {
    let a = l("(2,(3,4)):(1,(2,6))");
    let b = l("(7,(8,9)):(0,(5,3))");
    assert_eq!(a.profile(), &[Leaf, Push, Leaf, Leaf, Pop]);
    assert_eq!(a.profile(), b.profile());
    assert_ne!(l("(2,3,4):(1,2,6)").profile(), a.profile());
}

// ---- L6: injectivity -------------------------------------------------------------------------

#[test]
fn l6_distinguish_holes_from_collisions() {
    assert!(l("([2, 3]):([1, 4])").is_injective() || l("(2,3):(1,4)").is_injective());
    assert!(l("(2,3):(1,4)").is_injective());
    assert!(!l("(4,2):(0,1)").is_injective());
    assert!(!l("(4,2):(1,1)").is_injective());
}

#[test]
fn l6_exact_beyond_the_sorted_stride_test() {
    // Injective although 3 < 2·2: decided exactly.
    assert!(l("(3,2):(2,3)").is_injective());
    // Not injective: 3·2+0·3 = 0·2+2·3.
    assert!(!l("(4,3):(2,3)").is_injective());
    assert!(l("(4,3):(3,2)").is_injective());
    // Negative strides and extent-1 modes.
    assert!(l("(4,1,2):(-1,0,4)").is_injective());
    assert!(!l("(2,2):(1,-1)").is_injective());
}

// ---- L7: uniform preimage extent ------------------------------------------------------------

#[test]
fn l7_prove_uniform_stride_zero_replication() {
    let layout = l("Layout(Shape([4, 3]), Stride([0, 1]))");
    assert_eq!(layout.uniform_preimage_extent(&s("3")), Some(4));
    let mut counts = [0; 3];
    indices(&layout)
        .into_iter()
        .for_each(|i| counts[i as usize] += 1);
    assert_eq!(counts, [4, 4, 4]);
}

#[test]
fn l7_reject_a_non_uniform_mapping() {
    let layout = l("Layout(Shape([2, 2]), Stride([1, 1]))");
    assert_eq!(layout.uniform_preimage_extent(&s("3")), None);
}

#[test]
fn l7_reject_gaps_and_wrong_target_size() {
    assert_eq!(l("(2,3):(1,4)").uniform_preimage_extent(&s("6")), None);
    assert_eq!(l("(2,3):(1,2)").uniform_preimage_extent(&s("7")), None);
    assert_eq!(
        l("(2,3):(3,1)").uniform_preimage_extent(&s("(2,3)")),
        Some(1)
    );
    assert_eq!(
        l("((2,2),3):((0,3),1)").uniform_preimage_extent(&s("6")),
        Some(2)
    );
    assert_eq!(l("4:-1").uniform_preimage_extent(&s("4")), None);
}

// ---- L8: compact ------------------------------------------------------------------------------

#[test]
fn l8_compact_strides_are_prefix_products() {
    let layout = Layout::compact(&s("((2,3),(2,1,2),(5,2,1))"));
    assert_eq!(
        layout.stride().to_string(),
        "((1,2),(6,12,12),(24,120,240))"
    );
    assert_eq!(Layout::compact(&s("(2,3)")).to_string(), "(2,3):(1,2)");
    assert_eq!(
        indices(&Layout::compact(&s("(2,(3,4))"))),
        (0..24).collect::<Vec<_>>()
    );
}

#[test]
fn l8_row_major_puts_the_last_leaf_fastest() {
    let layout = Layout::row_major(&s("(2,3)"));
    assert_eq!(layout.to_string(), "(2,3):(3,1)");
    assert_eq!(indices(&layout), [0, 3, 1, 4, 2, 5]);
}

// ---- L9: concat, append, sub-layouts ------------------------------------------------------

#[test]
fn l9_concatenate_and_append_a_nested_layout() {
    let a = Layout::compact(&s("[1, 2]"));
    let b = Layout::compact(&s("[3, 4]"));
    assert_eq!(a.concat(&b).unwrap().shape(), &s("[1, 2, 3, 4]"));
    assert_eq!(a.append(&b).unwrap().shape(), &s("[1, 2, [3, 4]]"));
    // A leaf second: append is concat.
    assert_eq!(a.append(&l("5:1")).unwrap(), a.concat(&l("5:1")).unwrap());
}

#[test]
fn l9_key_selects_a_mode_or_a_slice_of_modes() {
    let layout = l("(2,(3,4),5):(1,(2,6),24)");
    assert_eq!(layout.mode(1).unwrap(), l("(3,4):(2,6)"));
    assert_eq!(layout.mode(2).unwrap(), l("5:24"));
    assert_eq!(layout.modes(0..2).unwrap(), l("(2,(3,4)):(1,(2,6))"));
    assert_eq!(layout.modes(3..3).unwrap(), l("():()"));
    assert_eq!(layout.mode(3).unwrap_err().kind(), ErrorKind::Value);
    assert_eq!(layout.modes(2..4).unwrap_err().kind(), ErrorKind::Value);
}

// ---- L10: permutation ------------------------------------------------------------------------

#[test]
fn l10_permute_a_nested_top_level_mode() {
    let layout = l("Layout(Shape([2, [3, 4], 5]), Stride([1, [2, 6], 24]))");
    let p = layout.permute(&[1, 0, 2]).unwrap();
    assert_eq!(p.shape(), &s("[[3, 4], 2, 5]"));
    assert_eq!(p.stride(), &"[[2, 6], 1, 24]".parse::<Stride>().unwrap());
}

#[test]
fn l10_inverse_order_restores_the_layout() {
    let layout = l("((2,3),4,(5,(1,2))):((1,2),6,(24,(0,120)))");
    let order = [2, 0, 1];
    let inverse = [1, 2, 0];
    assert_eq!(
        layout.permute(&order).unwrap().permute(&inverse).unwrap(),
        layout
    );
}

#[test]
fn l10_reject_an_invalid_permutation() {
    let layout = l("(2,3,4):(1,2,6)");
    for (bad, needle) in [
        (&[0, 1][..], "omits mode 2"),
        (&[0, 1, 1][..], "names mode 1 twice"),
        (
            &[0, 1, 3][..],
            "mode index 3 is outside the 3 top-level modes",
        ),
        (&[0, 1, 2, 0][..], "twice"),
    ] {
        let err = layout.permute(bad).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Value);
        assert!(err.to_string().contains(needle), "{bad:?}: {err}");
    }
    assert_eq!(l("():()").permute(&[]).unwrap(), l("():()"));
}

// ---- L11: broadcasting -----------------------------------------------------------------------

#[test]
fn l11_widen_a_nested_singleton_leaf() {
    let layout = l("Layout(Shape([2, [1, 3]]), Stride([1, [2, 2]]))");
    let b = layout.broadcast_to(&s("Shape([2, [4, 3]])")).unwrap();
    assert_eq!(b, l("Layout(Shape([2, [4, 3]]), Stride([1, [0, 2]]))"));
}

#[test]
fn l11_reject_implicit_structural_alignment() {
    let layout = l("(2,1,3):(1,2,2)");
    let err = layout.broadcast_to(&s("(2,(4,3))")).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert!(err.to_string().contains("profile"), "{err}");
}

#[test]
fn l11_reject_changing_a_non_singleton_extent() {
    let err = l("(2,3):(1,2)").broadcast_to(&s("(2,6)")).unwrap_err();
    assert_eq!(
        err.to_string(),
        "broadcast_to: cannot broadcast (2,3) to (2,6): mode 1 has extent 3, which is not 1 and differs from the target extent 6"
    );
}

#[test]
fn l11_a_singleton_staying_singleton_keeps_its_stride() {
    let b = l("(2,1):(1,7)").broadcast_to(&s("(2,1)")).unwrap();
    assert_eq!(b, l("(2,1):(1,7)"));
}

// ---- L12: trees and rearrangement -------------------------------------------------------------

#[test]
fn l12_identified_leaves_retain_leaf_structure() {
    let tree = Tree::node([Tree::id(2)]);
    assert_eq!(tree.recipe(), [Leaf]);
    assert_eq!(tree.size(), 1);
}

#[test]
fn l12_reorder_sources_and_insert_a_singleton() {
    let layout = l("Layout(Shape([2, 3]), Stride([1, 2]))");
    let out = Tree::node([Tree::id(1), Tree::Leaf, Tree::id(0)]);
    let r = layout.rearrange_tree(&out, None).unwrap();
    assert_eq!(r.shape(), &s("[3, 1, 2]"));
    assert_eq!(r.stride(), &"[2, 0, 1]".parse::<Stride>().unwrap());
}

#[test]
fn l12_select_a_nested_subtree_as_one_source() {
    let layout = l("Layout(Shape([1, [2, 3]]), Stride([5, [7, 14]]))");
    let sel = Tree::node([Tree::Leaf, Tree::Leaf]);
    let out = Tree::node([Tree::id(1), Tree::id(0)]);
    let r = layout.rearrange_tree(&out, Some(&sel)).unwrap();
    assert_eq!(r, l("Layout(Shape([[2, 3], 1]), Stride([[7, 14], 5]))"));
}

#[test]
fn l12_default_selection_extracts_every_leaf_depth_first() {
    let layout = l("(2,(3,4)):(1,(2,6))");
    let out = Tree::node([Tree::id(2), Tree::node([Tree::id(0), Tree::id(1)])]);
    assert_eq!(
        layout.rearrange_tree(&out, None).unwrap(),
        l("(4,(2,3)):(6,(1,2))")
    );
}

#[test]
fn l12_reject_missing_non_singleton_sources() {
    let err = l("(2,3):(1,2)")
        .rearrange_tree(&Tree::node([Tree::id(0)]), None)
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert!(
        err.to_string().contains("omits extracted sublayout #1"),
        "{err}"
    );
    // A size-1 source may be omitted.
    let r = l("(2,1):(1,9)")
        .rearrange_tree(&Tree::node([Tree::id(0)]), None)
        .unwrap();
    assert_eq!(r, l("(2):(1)"));
}

#[test]
fn l12_reject_duplicated_or_out_of_range_identifiers() {
    let layout = l("(2,3):(1,2)");
    let dup = Tree::node([Tree::id(0), Tree::id(0), Tree::id(1)]);
    assert!(
        layout
            .rearrange_tree(&dup, None)
            .unwrap_err()
            .to_string()
            .contains("more than once")
    );
    let oor = Tree::node([Tree::id(0), Tree::id(2)]);
    assert!(
        layout
            .rearrange_tree(&oor, None)
            .unwrap_err()
            .to_string()
            .contains("out of range")
    );
}

#[test]
fn l12_reject_a_selection_that_does_not_mirror_the_source() {
    let layout = l("(2,(3,4)):(1,(2,6))");
    let out = Tree::node([Tree::id(0), Tree::id(1)]);
    for sel in [
        Tree::node([Tree::Leaf]),
        Tree::node([Tree::node([Tree::Leaf]), Tree::Leaf]),
        Tree::node([Tree::Leaf, Tree::node([Tree::Leaf])]),
    ] {
        let err = layout.rearrange_tree(&out, Some(&sel)).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Value, "{sel}");
        assert!(err.to_string().contains("does not mirror"), "{err}");
    }
}

// ---- L13: the algebra's named examples --------------------------------------------------------

#[test]
fn l13_compose_two_layouts() {
    let r = l("Layout(Shape(20), Stride(2))")
        .compose(&l("Layout(Shape([5, 4]), Stride([4, 1]))"))
        .unwrap();
    assert_eq!(r, l("Layout(Shape([5, 4]), Stride([8, 2]))"));
}

#[test]
fn l13_complement_a_gapped_injective_layout() {
    let r = l("Layout(Shape([2, 2]), Stride([1, 6]))")
        .complement(24)
        .unwrap();
    assert_eq!(r, l("Layout(Shape([3, 2]), Stride([2, 12]))"));
}

#[test]
fn l13_reject_complement_of_an_overlapping_layout() {
    let err = l("(4,2):(1,1)").complement(8).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert!(err.to_string().contains("not injective"), "{err}");
}

#[test]
fn l13_complement_ignores_stride_zero_modes() {
    assert_eq!(l("3:0").complement(12).unwrap(), l("12:1"));
    // As if the broadcast mode were not there: the complement of 4:2.
    assert_eq!(
        l("(3,4):(0,2)").complement(24).unwrap(),
        l("4:2").complement(24).unwrap()
    );
    assert_eq!(l("(3,4):(0,2)").complement(24).unwrap(), l("(2,3):(1,8)"));
    // Overlapping modes besides the broadcast ones are still rejected, and the message shows
    // what is left once the stride-0 modes are ignored.
    let err = l("(3,4,2):(0,1,1)").complement(8).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert_eq!(
        err.to_string(),
        "complement: layout (3,4,2):(0,1,1) (without its stride-0 modes: (4,2):(1,1)) is not injective (two coordinates reach the same index)"
    );
}

#[test]
fn l13_complement_with_a_cotarget_below_the_size_is_trivial() {
    assert_eq!(l("(4,2):(1,4)").complement(4).unwrap(), l("1:0"));
    assert_eq!(l("12:1").complement(1).unwrap(), l("1:0"));
    // A layout with holes keeps them: only the repetitions beyond it are dropped.
    assert_eq!(l("4:2").complement(3).unwrap(), l("2:1"));
    assert_eq!(l("4:2").complement(0).unwrap(), l("2:1"));
}

#[test]
fn l13_reject_complement_whose_strides_do_not_divide() {
    // pycute and CuTe floor-divide and lose the hole at 4.
    let err = l("(4,2):(1,5)").complement(10).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert_eq!(
        err.to_string(),
        "complement: stride 5 of (4,2):(1,5) is not a multiple of 4, the extent the smaller modes cover; the holes between them are not a layout"
    );
}

#[test]
fn l13_product_of_a_broadcast_layout() {
    let r = l("3:0").logical_product(&l("4:1")).unwrap();
    assert_eq!(r, l("(3,4):(0,1)"));
    let r = l("(2,3):(0,1)")
        .zipped_product(&Tiler::by_mode([
            Tiler::from(l("2:1")),
            Tiler::from(l("4:1")),
        ]))
        .unwrap();
    assert_eq!(r, l("((2,3),(2,4)):((0,1),(1,3))"));
}

#[test]
fn l13_divide_by_a_broadcast_tile() {
    assert_eq!(
        l("8:1").logical_divide(&l("2:0")).unwrap(),
        l("(2,8):(0,1)")
    );
    assert_eq!(
        l("(4,6):(1,4)").logical_divide(&l("(2,2):(0,1)")).unwrap(),
        l("((2,2),12):((0,1),2)")
    );
}

#[test]
fn l13_divide_one_layout() {
    let r = l("Layout(Shape([4, 2, 3]), Stride([2, 1, 8]))")
        .logical_divide(&l("Layout(Shape(4), Stride(2))"))
        .unwrap();
    assert_eq!(
        r,
        l("Layout(Shape([[2, 2], [2, 3]]), Stride([[4, 1], [2, 8]]))")
    );
}

#[test]
fn l13_results_that_are_not_layouts_are_errors_not_truncations() {
    // pycute returns 4:1 here, a layout smaller than B.
    let err = l("(4,6):(1,10)").compose(&l("6:1")).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert!(err.to_string().contains("shape divisibility"), "{err}");
    // C++ returns (2,2):(9,1) here, which is not A∘B.
    assert!(l("(4,3):(3,1)").compose(&l("4:3")).is_err());
}

/// Every public operation of the algebra names itself, never a helper it calls (a divide
/// computes a complement and a composition; a product a complement, a composition and
/// sub-layouts).
#[test]
fn l13_algebra_errors_start_with_the_operation_called() {
    let overlap = l("(4,2):(1,1)"); // not injective: no complement
    let truncating = l("(4,6):(1,10)"); // ∘ 6:1 would truncate
    let by_mode = |ls: &[&str]| Tiler::by_mode(ls.iter().map(|x| Tiler::from(l(x))));
    let too_long = by_mode(&["2:1", "2:1", "2:1"]);
    let cases = [
        ("complement", overlap.complement(8)),
        ("compose", truncating.compose(&l("6:1"))),
        (
            "compose_tiler",
            truncating.compose_tiler(&Tiler::from(l("6:1"))),
        ),
        ("compose_tiler", l("(4,6):(1,4)").compose_tiler(&too_long)),
        ("logical_divide", l("8:1").logical_divide(&overlap)),
        ("logical_divide", truncating.logical_divide(&l("6:1"))),
        ("logical_divide", l("8:1").logical_divide(&l("2:-1"))),
        (
            "logical_divide_tiler",
            l("(8,8):(1,8)").logical_divide_tiler(&by_mode(&["2:1", "(4,2):(1,1)"])),
        ),
        (
            "logical_divide_tiler",
            l("(8,8):(1,8)").logical_divide_tiler(&too_long),
        ),
        (
            "zipped_divide",
            l("(8,8):(1,8)").zipped_divide(&by_mode(&["2:1", "(4,2):(1,1)"])),
        ),
        ("zipped_divide", l("(8,8):(1,8)").zipped_divide(&too_long)),
        (
            "zipped_divide",
            truncating.zipped_divide(&Tiler::from(l("6:1"))),
        ),
        (
            "tiled_divide",
            l("(8,8):(1,8)").tiled_divide(&by_mode(&["2:1", "(4,2):(1,1)"])),
        ),
        ("tiled_divide", l("(8,8):(1,8)").tiled_divide(&too_long)),
        ("logical_product", overlap.logical_product(&l("2:1"))),
        ("logical_product", l("2:1").logical_product(&l("2:-1"))),
        (
            "logical_product_tiler",
            l("((4,2),3):((1,1),8)").logical_product_tiler(&by_mode(&["2:1"])),
        ),
        (
            "logical_product_tiler",
            l("(8,8):(1,8)").logical_product_tiler(&too_long),
        ),
        (
            "zipped_product",
            l("((4,2),3):((1,1),8)").zipped_product(&by_mode(&["2:1"])),
        ),
        ("zipped_product", l("(8,8):(1,8)").zipped_product(&too_long)),
        (
            "tiled_product",
            l("((4,2),3):((1,1),8)").tiled_product(&by_mode(&["2:1"])),
        ),
        (
            "tiled_product",
            overlap.tiled_product(&Tiler::from(l("2:1"))),
        ),
        (
            "blocked_product",
            overlap.blocked_product(&l("(2,2):(1,2)")),
        ),
        ("raked_product", overlap.raked_product(&l("(2,2):(1,2)"))),
        ("right_inverse", l("(2,2):(1,-2)").right_inverse()),
        ("left_inverse", overlap.left_inverse()),
        ("coalesce_by", l("(2,3):(1,2)").coalesce_by(&t("(1,1,1)"))),
    ];
    for (op, r) in cases {
        let msg = r.unwrap_err().to_string();
        assert!(msg.starts_with(&format!("{op}: ")), "{op}: {msg}");
        for helper in ["complement:", "compose:", "mode:", "make:", "coalesce:"] {
            assert!(
                helper == format!("{op}:") || !msg.contains(helper),
                "{op} reports a helper: {msg}"
            );
        }
    }
}

// ---- L14: checked arithmetic -----------------------------------------------------------------

#[test]
fn l14_overflow_is_a_value_error_naming_the_operation() {
    let big = 1i64 << 40;
    let err = Shape::new(IntTuple::from([big, big])).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert!(err.to_string().contains("overflow"), "{err}");
    let err = Layout::new(
        s("(2,2)"),
        Stride::new(IntTuple::from([1, i64::MAX])).unwrap(),
    )
    .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert!(
        err.to_string().starts_with("Layout::new: integer overflow"),
        "{err}"
    );
    let wide = Layout::new(
        s("(2,2)"),
        Stride::new(IntTuple::from([1, 1i64 << 62])).unwrap(),
    )
    .unwrap();
    let err = wide.compose(&l("(2,2):(1,4)")).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert!(err.to_string().contains("compose"), "{err}");
}

#[test]
fn l14_parse_rejects_integers_beyond_i64() {
    let err = "(2,99999999999999999999):(1,2)"
        .parse::<Layout>()
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert_eq!(
        err.to_string(),
        "cannot parse layout: integer `99999999999999999999` does not fit in i64 \
         (from -9223372036854775808 to 9223372036854775807)\n  \
         (2,99999999999999999999):(1,2)\n     ^^^^^^^^^^^^^^^^^^^^"
    );
}

#[test]
fn l14_parse_reports_size_and_reach_overflow_at_the_offending_part() {
    let err = "(4294967296,4294967296):(1,0)"
        .parse::<Layout>()
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert_eq!(
        err.to_string(),
        "cannot parse layout: the size of the shape, the product of its extents, overflows i64 \
         at mode 1: 4294967296 × 4294967296 > 9223372036854775807\n  \
         (4294967296,4294967296):(1,0)\n              ^^^^^^^^^^"
    );
    let err = "(2,2):(9223372036854775807,1)"
        .parse::<Layout>()
        .unwrap_err();
    let strideweave::Error::Parse { position, .. } = &err else {
        panic!("expected a parse error, got {err:?}")
    };
    assert_eq!(
        *position, 27,
        "the caret is under the stride that overflows: {err}"
    );
    let err = "(65536,(65536,65536),65536)".parse::<Shape>().unwrap_err();
    assert!(
        err.to_string().starts_with(
            "cannot parse Shape: the size of the shape, the product of its extents, overflows \
             i64 at mode 2"
        ),
        "{err}"
    );
}

// ---- L15: notation ---------------------------------------------------------------------------

#[test]
fn l15_display_and_debug_notations() {
    let layout = l("(2,(3,4)):(1,(2,6))");
    assert_eq!(layout.to_string(), "(2,(3,4)):(1,(2,6))");
    assert_eq!(
        format!("{layout:?}"),
        "Layout(Shape([2, [3, 4]]), Stride([1, [2, 6]]))"
    );
    assert_eq!(format!("{:?}", l("8:5")), "Layout(Shape(8), Stride(5))");
}

#[test]
fn l15_both_notations_parse_back() {
    for text in [
        "(2,(3,4)):(1,(2,6))",
        "8:-1",
        "():()",
        "((1),(2,(3))):((0),(1,(-2)))",
    ] {
        let layout = l(text);
        assert_eq!(l(&layout.to_string()), layout);
        assert_eq!(l(&format!("{layout:?}")), layout);
        assert_eq!(layout.to_string(), text);
    }
}

#[test]
fn l15_parse_errors_point_at_the_offending_character() {
    let err = "(2,(3,x)):(1,(2,6))".parse::<Layout>().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    let strideweave::Error::Parse {
        position, message, ..
    } = &err
    else {
        panic!("expected a parse error, got {err:?}")
    };
    assert_eq!(*position, 6);
    assert!(
        message.ends_with("(2,(3,x)):(1,(2,6))\n        ^"),
        "{message}"
    );
    let err = "(2,(3,4)):(1,2)".parse::<Layout>().unwrap_err();
    assert!(err.to_string().contains("mode 1"), "{err}");
}
