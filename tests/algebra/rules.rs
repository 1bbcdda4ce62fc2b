//! `Tensor::reduce`'s rules, one test each, named after them.

use strideweave::{Complex64, ErrorKind, Reduction, Shape, Tensor};

fn sh(s: &str) -> Shape {
    s.parse().unwrap()
}

fn f64s(t: &Tensor) -> Vec<f64> {
    t.to_vec::<f64>().unwrap()
}

/// (2,3): columns [0 1], [2 3], [4 5] (first mode fastest).
fn m23() -> Tensor {
    Tensor::from_vec(vec![1.0f64, 6.0, -2.0, 3.0, 5.0, 4.0], &sh("(2,3)")).unwrap()
}

#[test]
fn reduce_omitted_symbols_are_folded_by_each_reduction() {
    let t = m23();
    let by = |p, r| f64s(&t.reduce(p, r, &[]).unwrap());
    assert_eq!(by("a b -> a", Reduction::Sum), [4.0, 13.0]);
    assert_eq!(by("a b -> a", Reduction::Mean), [4.0 / 3.0, 13.0 / 3.0]);
    assert_eq!(by("a b -> a", Reduction::Max), [5.0, 6.0]);
    assert_eq!(by("a b -> a", Reduction::Min), [-2.0, 3.0]);
    assert_eq!(by("a b -> a", Reduction::Prod), [-10.0, 72.0]);
    assert_eq!(by("a b -> b", Reduction::Sum), [7.0, 1.0, 9.0]);
}

#[test]
fn reduce_kept_symbols_are_rearranged_like_rearrange() {
    let t = Tensor::arange::<f64>(&sh("(2,3,4)"));
    let r = t.reduce("a b c -> c a", Reduction::Sum, &[]).unwrap();
    assert_eq!(r.shape(), &sh("(4,2)"));
    let expected = t.rearrange("a b c -> c a b", &[]).unwrap();
    let e = f64s(&expected);
    let want: Vec<f64> = (0..8).map(|j| (0..3).map(|k| e[j + 8 * k]).sum()).collect();
    assert_eq!(f64s(&r), want);
    // Groups build nested modes, as in rearrange.
    let g = t.reduce("a b c -> (c a)", Reduction::Max, &[]).unwrap();
    assert_eq!(g.shape(), &sh("((4,2))"));
}

#[test]
fn reduce_split_leaf_with_keyword_pools() {
    // "(h h2) w -> h w" with h2 = 2 in einops (row-major) is "w (h2 h) -> w h" here.
    let t = Tensor::arange::<f64>(&sh("(4,2)"));
    let p = t
        .reduce("(h2 h) w -> h w", Reduction::Mean, &[("h2", 2)])
        .unwrap();
    assert_eq!(p.shape(), &sh("(2,2)"));
    assert_eq!(f64s(&p), [0.5, 2.5, 4.5, 6.5]);
    let q = t
        .reduce("(h h2) w -> h w", Reduction::Sum, &[("h2", 2)])
        .unwrap();
    assert_eq!(f64s(&q), [2.0, 4.0, 10.0, 12.0]);
}

#[test]
fn reduce_empty_right_side_gives_rank_zero() {
    let t = m23();
    let s = t.reduce("a b ->", Reduction::Sum, &[]).unwrap();
    assert_eq!((s.rank(), s.shape().to_string()), (0, "()".to_string()));
    assert_eq!(s.item::<f64>().unwrap(), 17.0);
    let s = t.reduce("a b -> ", Reduction::Max, &[]).unwrap();
    assert_eq!(s.item::<f64>().unwrap(), 6.0);
}

#[test]
fn reduce_ellipsis_keeps_captured_modes() {
    let t = Tensor::arange::<f64>(&sh("(2,3,4)"));
    let r = t.reduce("... c -> ...", Reduction::Sum, &[]).unwrap();
    assert_eq!(f64s(&r), f64s(&t.sum_modes(&[2]).unwrap()));
}

#[test]
fn reduce_sum_agrees_with_sum_modes_bit_for_bit() {
    let t = Tensor::from_vec(
        (0..60).map(|i| (i as f32 * 0.37).sin()).collect::<Vec<_>>(),
        &sh("(3,4,5)"),
    )
    .unwrap();
    let a = t.reduce("a b c -> a c", Reduction::Sum, &[]).unwrap();
    let b = t.sum_modes(&[1]).unwrap();
    assert_eq!(a.to_vec::<f32>().unwrap(), b.to_vec::<f32>().unwrap());
}

#[test]
fn reduce_integer_sum_and_prod_wrap() {
    let t = Tensor::from_vec(vec![100i8, 27, 1, 64, 2, 1], &sh("(3,2)")).unwrap();
    let s = t.reduce("a b -> b", Reduction::Sum, &[]).unwrap();
    assert_eq!(s.dtype(), strideweave::DType::I8);
    assert_eq!(s.to_vec::<i8>().unwrap(), [-128, 67]);
    let p = t.reduce("a b -> b", Reduction::Prod, &[]).unwrap();
    assert_eq!(p.to_vec::<i8>().unwrap(), [(100i8).wrapping_mul(27), -128]);
}

#[test]
fn reduce_integer_max_and_min() {
    let t = Tensor::from_vec(vec![3i64, -7, 9, 0], &sh("(2,2)")).unwrap();
    let by = |r| {
        t.reduce("a b -> a", r, &[])
            .unwrap()
            .to_vec::<i64>()
            .unwrap()
    };
    assert_eq!(by(Reduction::Max), [9, 0]);
    assert_eq!(by(Reduction::Min), [3, -7]);
    let u = Tensor::from_vec(vec![200u8, 255, 0], &sh("3")).unwrap();
    assert_eq!(
        u.reduce("a ->", Reduction::Max, &[])
            .unwrap()
            .item::<u8>()
            .unwrap(),
        255
    );
}

#[test]
fn reduce_mean_of_integers_is_an_error_naming_the_dtype() {
    let t = Tensor::arange::<i32>(&sh("(2,2)"));
    let e = t.reduce("a b -> a", Reduction::Mean, &[]).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Type);
    let m = e.to_string();
    assert!(m.starts_with("reduce: "), "{m}");
    assert!(
        m.contains("i32") && m.contains("take the sum, then divide"),
        "{m}"
    );
}

#[test]
fn reduce_bool_max_min_prod_are_any_and_all() {
    let t = Tensor::from_vec(vec![true, false, false, false], &sh("(2,2)")).unwrap();
    let by = |r| {
        t.reduce("a b -> b", r, &[])
            .unwrap()
            .to_vec::<bool>()
            .unwrap()
    };
    assert_eq!(by(Reduction::Max), [true, false]);
    assert_eq!(by(Reduction::Min), [false, false]);
    assert_eq!(by(Reduction::Prod), [false, false]);
    let e = t.reduce("a b -> b", Reduction::Sum, &[]).unwrap_err();
    assert!(
        e.to_string().contains("bool") && e.to_string().contains("count"),
        "{e}"
    );
    assert!(t.reduce("a b -> b", Reduction::Mean, &[]).is_err());
}

#[test]
fn reduce_max_of_complex_is_an_error_naming_the_dtype() {
    let t = Tensor::from_vec(
        vec![Complex64::new(1.0, 2.0), Complex64::new(3.0, -1.0)],
        &sh("2"),
    )
    .unwrap();
    for r in [Reduction::Max, Reduction::Min] {
        let e = t.reduce("a ->", r, &[]).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Type);
        assert!(
            e.to_string().contains("complex128") && e.to_string().contains("order"),
            "{e}"
        );
    }
    let p = t.reduce("a ->", Reduction::Prod, &[]).unwrap();
    assert_eq!(p.item::<Complex64>().unwrap(), Complex64::new(5.0, 5.0));
    let s = t.reduce("a ->", Reduction::Mean, &[]).unwrap();
    assert_eq!(s.item::<Complex64>().unwrap(), Complex64::new(2.0, 0.5));
}

#[test]
fn reduce_max_and_min_propagate_nan() {
    let t = Tensor::from_vec(vec![1.0f64, f64::NAN, 3.0, 0.0, -1.0, 2.0], &sh("(3,2)")).unwrap();
    for r in [Reduction::Max, Reduction::Min] {
        let v = f64s(&t.reduce("a b -> b", r, &[]).unwrap());
        assert!(v[0].is_nan(), "{r}: {v:?}");
        assert!(!v[1].is_nan(), "{r}: {v:?}");
    }
}

#[test]
fn reduce_max_gradient_goes_to_the_first_extremal_element() {
    // Ties: 5 at ordinals 1 and 3 of column 0; -1 twice in column 1 for min.
    let t = Tensor::from_vec(
        vec![2.0f64, 5.0, 1.0, 5.0, -1.0, 0.0, -1.0, 4.0],
        &sh("(4,2)"),
    )
    .unwrap();
    t.set_requires_grad(true).unwrap();
    t.reduce("a b -> b", Reduction::Max, &[])
        .unwrap()
        .sum()
        .unwrap()
        .backward()
        .unwrap();
    assert_eq!(
        f64s(&t.grad().unwrap()),
        [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]
    );
    t.zero_grad();
    t.reduce("a b -> b", Reduction::Min, &[])
        .unwrap()
        .sum()
        .unwrap()
        .backward()
        .unwrap();
    assert_eq!(
        f64s(&t.grad().unwrap()),
        [0.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0]
    );
}

#[test]
fn reduce_max_gradient_of_nan_goes_to_the_first_nan() {
    let t = Tensor::from_vec(vec![1.0f64, f64::NAN, 7.0, f64::NAN], &sh("4")).unwrap();
    t.set_requires_grad(true).unwrap();
    t.reduce("a ->", Reduction::Max, &[])
        .unwrap()
        .backward()
        .unwrap();
    assert_eq!(f64s(&t.grad().unwrap()), [0.0, 1.0, 0.0, 0.0]);
}

#[test]
fn reduce_prod_gradient_is_the_product_of_the_others_with_zeros() {
    let t = Tensor::from_vec(
        vec![2.0f64, 0.0, 3.0, 0.0, 0.0, 4.0, 5.0, 6.0, 7.0],
        &sh("(3,3)"),
    )
    .unwrap();
    t.set_requires_grad(true).unwrap();
    t.reduce("a b -> b", Reduction::Prod, &[])
        .unwrap()
        .sum()
        .unwrap()
        .backward()
        .unwrap();
    // Column 0 has one zero (its cofactor 6), column 1 two (all zero), column 2 none.
    assert_eq!(
        f64s(&t.grad().unwrap()),
        [0.0, 6.0, 0.0, 0.0, 0.0, 0.0, 42.0, 35.0, 30.0]
    );
}

#[test]
fn reduce_pattern_mistakes_are_errors_quoting_the_pattern() {
    let t = Tensor::arange::<f64>(&sh("(4,3)"));
    let cases = [
        ("a b -> a x", "unknown identifier `x`"),
        ("a b c -> a", "term"),
        ("(h w) c -> h c", "h"),
        ("a b -> a a", "a"),
        ("... b -> b", "..."),
        ("a b", "->"),
    ];
    for (p, says) in cases {
        let e = t.reduce(p, Reduction::Sum, &[]).unwrap_err();
        let m = e.to_string();
        assert!(
            m.starts_with("reduce: ") || m.starts_with("cannot parse"),
            "{p}: {m}"
        );
        assert!(m.contains(says), "{p}: {m}");
        assert_eq!(e.kind(), ErrorKind::Value, "{p}: {m}");
    }
    let e = t
        .reduce("(h w) c -> h", Reduction::Sum, &[("h", 3)])
        .unwrap_err();
    assert!(e.to_string().contains("does not divide"), "{e}");
    let e = t
        .reduce("(h w) c -> h", Reduction::Sum, &[("h", usize::MAX)])
        .unwrap_err();
    assert!(
        e.to_string()
            .starts_with("reduce: keyword `h = 18446744073709551615`"),
        "{e}"
    );
}

#[test]
fn reduce_failure_leaves_the_operand_untouched() {
    let t = m23();
    let before = (f64s(&t), t.layout().clone());
    assert!(t.reduce("a b -> c", Reduction::Sum, &[]).is_err());
    assert!(t.reduce("a b -> a", Reduction::Sum, &[("z", 2)]).is_err());
    assert_eq!((f64s(&t), t.layout().clone()), before);
}

#[test]
fn reduce_reads_strided_and_broadcast_operands_in_place() {
    let base = Tensor::arange::<f64>(&sh("(3,4)"));
    let tr = base.permute(&[1, 0]).unwrap();
    let r = tr.reduce("a b -> a", Reduction::Sum, &[]).unwrap();
    assert_eq!(
        f64s(&r),
        f64s(&base.reduce("a b -> b", Reduction::Sum, &[]).unwrap())
    );
    let row = Tensor::from_vec(vec![1.0f64, 2.0, 3.0], &sh("(1,3)")).unwrap();
    let b = row.broadcast_to(&sh("(4,3)")).unwrap();
    assert_eq!(
        f64s(&b.reduce("a b -> b", Reduction::Sum, &[]).unwrap()),
        [4.0, 8.0, 12.0]
    );
}

#[test]
fn count_nonzero_counts_a_bool_masks_true_elements() {
    let mask = Tensor::from_vec(vec![true, false, true, true, false, true], &sh("(2,3)")).unwrap();
    let c = mask.count_nonzero().unwrap();
    assert_eq!((c.rank(), c.dtype()), (0, strideweave::DType::I64));
    assert_eq!(c.item::<i64>().unwrap(), 4);
    // Through a view: the transposed mask and one column.
    let t = mask.permute(&[1, 0]).unwrap();
    assert_eq!(t.count_nonzero().unwrap().item::<i64>().unwrap(), 4);
    let col = mask
        .slice(&[strideweave::Key::Int(0), strideweave::Key::all()])
        .unwrap();
    // Elements (0, j) are ordinals 0, 2, 4 (first mode fastest): true, true, false.
    assert_eq!(col.count_nonzero().unwrap().item::<i64>().unwrap(), 2);
}

#[test]
fn count_nonzero_counts_non_zero_numbers_of_every_dtype() {
    let f = Tensor::from_vec(vec![0.0f32, -0.0, 1.5, f32::NAN], &sh("4")).unwrap();
    assert_eq!(f.count_nonzero().unwrap().item::<i64>().unwrap(), 2);
    let i = Tensor::from_vec(vec![0i8, -1, 0, 127], &sh("4")).unwrap();
    assert_eq!(i.count_nonzero().unwrap().item::<i64>().unwrap(), 2);
    let u = Tensor::from_vec(vec![0u8, 255], &sh("2")).unwrap();
    assert_eq!(u.count_nonzero().unwrap().item::<i64>().unwrap(), 1);
    let big = Tensor::from_vec(vec![i64::MIN, 0, 1 << 60], &sh("3")).unwrap();
    assert_eq!(big.count_nonzero().unwrap().item::<i64>().unwrap(), 2);
    let z = vec![
        Complex64::new(0.0, 0.0),
        Complex64::new(0.0, 2.0),
        Complex64::new(-1.0, 0.0),
    ];
    let c = Tensor::from_vec(z, &sh("3")).unwrap();
    assert_eq!(c.count_nonzero().unwrap().item::<i64>().unwrap(), 2);
}

#[test]
fn count_nonzero_of_a_broadcast_counts_every_coordinate() {
    let row = Tensor::from_vec(vec![0i32, 1, 2], &sh("(3,1)")).unwrap();
    let b = row.broadcast_to(&sh("(3,4)")).unwrap();
    assert_eq!(b.count_nonzero().unwrap().item::<i64>().unwrap(), 8);
    // The count does not record: nothing to differentiate.
    let x = Tensor::from_vec(vec![1.0f64, 0.0], &sh("2")).unwrap();
    x.set_requires_grad(true).unwrap();
    assert!(!x.count_nonzero().unwrap().requires_grad());
}

#[test]
fn count_nonzero_of_a_block_scaled_tensor_is_an_error_naming_the_operation() {
    let codes: Vec<i8> = (0..8).collect();
    let t = Tensor::block_scaled(codes, vec![1.0, 0.5, 2.0, 0.25], &sh("(4,2)"), 0, 2).unwrap();
    let err = t.count_nonzero().unwrap_err().to_string();
    assert!(err.starts_with("count_nonzero"), "{err}");
    let d = t.dequantize().unwrap();
    assert_eq!(d.count_nonzero().unwrap().item::<i64>().unwrap(), 7);
}
