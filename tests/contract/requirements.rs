//! Seed 004's contraction family and issue 13's items 2–4, one test per requirement.

use strideweave::{Carrier, ErrorKind, Tensor};

fn t(shape: &str) -> Tensor {
    // Distinct small values: 1, 2, 3, … first mode fastest.
    let shape = shape.parse().unwrap();
    let n = strideweave::Shape::size(&shape);
    Tensor::from_vec((1..=n).map(|x| x as f64).collect(), &shape).unwrap()
}

/// Values of a flat tensor, first mode fastest, and its extents.
fn flat(t: &Tensor) -> (Vec<f64>, Vec<usize>) {
    (
        t.to_vec::<f64>().unwrap(),
        t.shape().leaves().iter().map(|&e| e as usize).collect(),
    )
}

/// The ordinal of a coordinate, first mode fastest.
fn ord(c: &[usize], e: &[usize]) -> usize {
    c.iter().zip(e).rev().fold(0, |acc, (&x, &n)| acc * n + x)
}

/// Every coordinate of `e`, first mode fastest.
fn coords(e: &[usize]) -> Vec<Vec<usize>> {
    let n: usize = e.iter().product();
    (0..n)
        .map(|mut i| {
            e.iter()
                .map(|&x| {
                    let q = i % x;
                    i /= x;
                    q
                })
                .collect()
        })
        .collect()
}

/// Seed 004's Contract, written out: sum over the paired axes of products.
pub fn naive_contract(
    a: &Tensor,
    b: &Tensor,
    la: &[usize],
    lb: &[usize],
) -> (Vec<f64>, Vec<usize>) {
    let ((va, ea), (vb, eb)) = (flat(a), flat(b));
    let fa: Vec<usize> = (0..ea.len()).filter(|i| !la.contains(i)).collect();
    let fb: Vec<usize> = (0..eb.len()).filter(|i| !lb.contains(i)).collect();
    let eo: Vec<usize> = fa
        .iter()
        .map(|&i| ea[i])
        .chain(fb.iter().map(|&i| eb[i]))
        .collect();
    let ek: Vec<usize> = la.iter().map(|&i| ea[i]).collect();
    let mut out = vec![0.0; eo.iter().product()];
    for o in coords(&eo) {
        let mut s = 0.0;
        for k in coords(&ek) {
            let mut ca = vec![0; ea.len()];
            let mut cb = vec![0; eb.len()];
            for (j, &i) in fa.iter().enumerate() {
                ca[i] = o[j];
            }
            for (j, &i) in fb.iter().enumerate() {
                cb[i] = o[fa.len() + j];
            }
            for (j, (&p, &q)) in la.iter().zip(lb).enumerate() {
                ca[p] = k[j];
                cb[q] = k[j];
            }
            s += va[ord(&ca, &ea)] * vb[ord(&cb, &eb)];
        }
        out[ord(&o, &eo)] = s;
    }
    (out, eo)
}

#[test]
fn contract_pairs_axes_by_position_as_the_seeds_example() {
    // AxisList {1, 3} with {0, 2}: left 1 ↔ right 0, left 3 ↔ right 2.
    let a = t("(2,3,2,4)");
    let b = t("(3,5,4)");
    let c = a.contract(&b, &[1, 3], &[0, 2]).unwrap();
    let (want, extents) = naive_contract(&a, &b, &[1, 3], &[0, 2]);
    assert_eq!(c.to_vec::<f64>().unwrap(), want);
    assert_eq!(extents, [2, 2, 5]);
}

#[test]
fn contract_result_axes_are_uncontracted_left_then_uncontracted_right() {
    let a = t("(2,3,4)");
    let b = t("(5,3,6)");
    let c = a.contract(&b, &[1], &[1]).unwrap();
    assert_eq!(c.shape().to_string(), "(2,4,5,6)");
    assert_eq!(
        c.to_vec::<f64>().unwrap(),
        naive_contract(&a, &b, &[1], &[1]).0
    );
}

#[test]
fn contract_result_rank_is_l_plus_r_minus_twice_the_count() {
    let a = t("(2,3,4)");
    let b = t("(4,3,2)");
    for (la, lb) in [
        (&[][..], &[][..]),
        (&[2][..], &[0][..]),
        (&[1, 2][..], &[1, 0][..]),
    ] {
        let c = a.contract(&b, la, lb).unwrap();
        assert_eq!(c.rank(), 3 + 3 - 2 * la.len());
        assert_eq!(c.to_vec::<f64>().unwrap(), naive_contract(&a, &b, la, lb).0);
    }
}

#[test]
fn contract_of_every_axis_is_a_rank_zero_scalar() {
    let a = t("(2,3)");
    let b = t("(3,2)");
    let c = a.contract(&b, &[0, 1], &[1, 0]).unwrap();
    assert_eq!(c.rank(), 0);
    assert_eq!(
        c.item::<f64>().unwrap(),
        naive_contract(&a, &b, &[0, 1], &[1, 0]).0[0]
    );
}

#[test]
fn contract_paired_extents_must_match_exactly_no_broadcasting() {
    let a = t("(2,3)");
    let b = t("(1,2)");
    let err = a.contract(&b, &[1], &[0]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert!(
        matches!(err, strideweave::Error::InvalidContraction { .. }),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "contract: left axis 1 (extent 3) and right axis 0 (extent 1) are paired but differ: paired extents must match exactly"
    );
}

#[test]
fn contract_unequal_axis_counts_are_an_invalid_contraction() {
    let err = t("(2,3)").contract(&t("(3,2)"), &[0, 1], &[1]).unwrap_err();
    assert!(
        matches!(err, strideweave::Error::InvalidContraction { .. }),
        "{err:?}"
    );
    assert!(
        err.to_string()
            .starts_with("contract: 2 left axes [0, 1] but 1 right axes [1]")
    );
}

#[test]
fn contract_out_of_range_axis_is_an_invalid_axis() {
    let err = t("(2,3)").contract(&t("(3,2)"), &[2], &[0]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "contract: axis 2 of the left operand is out of range for rank 2"
    );
    let err = t("(2,3)").contract(&t("(3,2)"), &[1], &[7]).unwrap_err();
    assert!(matches!(
        err,
        strideweave::Error::InvalidAxis {
            operand: "right",
            axis: 7,
            rank: 2,
            ..
        }
    ));
}

#[test]
fn contract_duplicate_axis_is_a_duplicate_axis() {
    let err = t("(3,3)")
        .contract(&t("(3,3)"), &[0, 0], &[0, 1])
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "contract: axis 0 appears more than once in the left operand's axes"
    );
}

#[test]
fn contract_reads_transposed_reversed_and_broadcast_operands_in_place() {
    let a = t("(4,3)").permute(&[1, 0]).unwrap(); // (3,4), strides (4,1)
    let b = t("(4,5)").reverse(1).unwrap();
    let c = a.contract(&b, &[1], &[0]).unwrap();
    assert_eq!(
        c.to_vec::<f64>().unwrap(),
        naive_contract(&a, &b, &[1], &[0]).0
    );
    let v = Tensor::from_vec(vec![2.0f64, 3.0], &"(2)".parse().unwrap()).unwrap();
    let bc = v
        .unsqueeze(1)
        .unwrap()
        .broadcast_to(&"(2,3)".parse().unwrap())
        .unwrap();
    let c = bc.contract(&t("(3,4)"), &[1], &[0]).unwrap();
    assert_eq!(
        c.to_vec::<f64>().unwrap(),
        naive_contract(&bc, &t("(3,4)"), &[1], &[0]).0
    );
}

#[test]
fn contract_of_integers_wraps_as_twos_complement() {
    let a = Tensor::from_vec(vec![100i8, 100], &"(2)".parse().unwrap()).unwrap();
    let d = a.dot(&a).unwrap();
    assert_eq!(
        d.item::<i8>().unwrap(),
        100i8
            .wrapping_mul(100)
            .wrapping_add(100i8.wrapping_mul(100))
    );
    let m = Tensor::from_vec(vec![1u8, 2, 3, 4], &"(2,2)".parse().unwrap()).unwrap();
    assert_eq!(
        m.matmul(&m).unwrap().to_vec::<u8>().unwrap(),
        [7, 10, 15, 22]
    );
    let x = Tensor::from_vec(vec![i64::MAX, 2], &"(2)".parse().unwrap()).unwrap();
    assert_eq!(
        x.outer(&x).unwrap().to_vec::<i64>().unwrap()[0],
        i64::MAX.wrapping_mul(i64::MAX)
    );
}

#[test]
fn contract_of_complex_tensors_multiplies_without_conjugating() {
    use strideweave::Complex64;
    let a = Tensor::from_vec(
        vec![Complex64::new(1.0, 2.0), Complex64::new(0.0, -1.0)],
        &"(2)".parse().unwrap(),
    )
    .unwrap();
    let d = a.dot(&a).unwrap().item::<Complex64>().unwrap();
    assert_eq!(
        d,
        Complex64::new(1.0, 2.0) * Complex64::new(1.0, 2.0)
            + Complex64::new(0.0, -1.0) * Complex64::new(0.0, -1.0)
    );
}

#[test]
fn dot_of_equal_length_vectors_is_a_rank_zero_tensor() {
    let a = t("(4)");
    let d = a.dot(&a.reverse(0).unwrap()).unwrap();
    assert_eq!(d.rank(), 0);
    assert_eq!(
        d.item::<f64>().unwrap(),
        1.0 * 4.0 + 2.0 * 3.0 + 3.0 * 2.0 + 4.0 * 1.0
    );
}

#[test]
fn dot_of_unequal_lengths_is_a_dimension_mismatch_naming_both() {
    let err = t("(3)").dot(&t("(4)")).unwrap_err();
    assert!(matches!(err, strideweave::Error::DimensionMismatch { .. }));
    assert_eq!(
        err.to_string(),
        "dot: the operands' lengths differ: (3) on the left, (4) on the right"
    );
    let err = t("(3)").dot(&t("(3,1)")).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
}

#[test]
fn outer_of_vectors_is_rank_two() {
    let c = t("(2)").outer(&t("(3)")).unwrap();
    assert_eq!(c.shape().to_string(), "(2,3)");
    assert_eq!(c.to_vec::<f64>().unwrap(), [1.0, 2.0, 2.0, 4.0, 3.0, 6.0]);
    assert!(t("(2,2)").outer(&t("(3)")).is_err());
}

#[test]
fn matmul_matrix_by_vector_treats_the_vector_as_a_column() {
    let m = t("(2,3)");
    let v = t("(3)");
    let r = m.matmul(&v).unwrap();
    assert_eq!(r.shape().to_string(), "(2)");
    assert_eq!(
        r.to_vec::<f64>().unwrap(),
        naive_contract(&m, &v, &[1], &[0]).0
    );
}

#[test]
fn matmul_vector_by_matrix_gives_a_vector() {
    let v = t("(2)");
    let m = t("(2,3)");
    let r = m.permute(&[1, 0]).unwrap().matmul(&t("(2)")).unwrap();
    assert_eq!(
        v.matmul(&m).unwrap().to_vec::<f64>().unwrap(),
        r.to_vec::<f64>().unwrap()
    );
    assert_eq!(v.matmul(&m).unwrap().shape().to_string(), "(3)");
}

#[test]
fn matmul_batched_over_leading_modes_of_equal_extents() {
    let a = t("(2,3,4,5)");
    let b = t("(2,3,5,2)");
    let c = a.matmul(&b).unwrap();
    assert_eq!(c.shape().to_string(), "(2,3,4,2)");
    for i in 0..2i64 {
        for j in 0..3i64 {
            let key = [
                strideweave::Key::Int(i),
                strideweave::Key::Int(j),
                strideweave::Key::all(),
                strideweave::Key::all(),
            ];
            let want = a
                .slice(&key)
                .unwrap()
                .matmul(&b.slice(&key).unwrap())
                .unwrap();
            assert_eq!(
                c.slice(&key).unwrap().to_vec::<f64>().unwrap(),
                want.to_vec::<f64>().unwrap()
            );
        }
    }
}

#[test]
fn matmul_batch_modes_do_not_broadcast() {
    let err = t("(2,3,4)").matmul(&t("(1,4,3)")).unwrap_err();
    assert!(
        matches!(err, strideweave::Error::DimensionMismatch { .. }),
        "{err:?}"
    );
    assert!(
        err.to_string()
            .contains("batch mode 0 has extent 2 on the left and 1 on the right"),
        "{err}"
    );
    assert!(t("(2,3,4)").matmul(&t("(4,3)")).is_err());
}

#[test]
fn matmul_mismatched_inner_extents_name_both() {
    for (a, b) in [
        ("(2,3)", "(4,2)"),
        ("(2,3)", "(4)"),
        ("(3)", "(4,2)"),
        ("(5,2,3)", "(5,4,2)"),
    ] {
        let err = t(a).matmul(&t(b)).unwrap_err();
        assert!(
            matches!(err, strideweave::Error::DimensionMismatch { .. }),
            "{a} {b}: {err:?}"
        );
        assert!(
            err.to_string()
                .starts_with("matmul: the left operand's column extent"),
            "{err}"
        );
        assert!(
            err.to_string()
                .contains("extent 3 and the right operand's row extent 4"),
            "{err}"
        );
    }
}

#[test]
fn matmul_of_two_vectors_points_to_dot_and_outer() {
    let err = t("(3)").matmul(&t("(3)")).unwrap_err();
    assert!(err.to_string().contains("use dot or outer"), "{err}");
}

#[test]
fn a_failed_contraction_leaves_every_carrier_untouched() {
    let a = t("(2,3)");
    let b = t("(4,2)");
    let (va, vb) = (a.carrier().version(), b.carrier().version());
    assert!(a.contract(&b, &[1], &[0]).is_err());
    assert!(a.matmul(&b).is_err());
    assert!(Tensor::einsum("i k, k j -> i j", &[&a, &b]).is_err());
    assert_eq!((a.carrier().version(), b.carrier().version()), (va, vb));
    assert_eq!(
        a.to_vec::<f64>().unwrap(),
        t("(2,3)").to_vec::<f64>().unwrap()
    );
    let _ = Carrier::same(a.carrier(), b.carrier());
}

#[test]
fn contract_of_huge_broadcast_operands_is_too_large_not_an_abort() {
    // An integer dot over 2^40 broadcast elements needs an offset table of 2^40 entries.
    let v = Tensor::new(
        Carrier::from_vec(vec![1i64]),
        0,
        "1099511627776:0".parse().unwrap(),
    )
    .unwrap();
    let err = v.dot(&v).unwrap_err();
    assert!(
        matches!(err, strideweave::Error::TooLarge { .. }),
        "{err:?}"
    );
    assert!(err.to_string().starts_with("dot: cannot allocate"), "{err}");
}
