//! Random inputs to every new fallible function: no panic, an error names the operation,
//! carriers are unchanged on error, results equal the naive sum of seed 004's definition.

use proptest::prelude::*;
use strideweave::Tensor;

use crate::contract::requirements::naive_contract;

/// A tensor of `extents` (first mode fastest values 0.5, 1.5, …), possibly seen transposed
/// or reversed (a view: same values at permuted coordinates).
fn tensor(extents: &[usize], view: u8) -> Tensor {
    let shape: strideweave::Shape = format!(
        "({})",
        extents
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
            .join(",")
    )
    .parse()
    .unwrap();
    let n = shape.size();
    let t = Tensor::from_vec((0..n).map(|i| i as f64 * 0.5 - 1.0).collect(), &shape).unwrap();
    match view % 3 {
        1 if !extents.is_empty() => t.reverse(0).unwrap(),
        2 if extents.len() >= 2 => {
            let mut p: Vec<usize> = (0..extents.len()).collect();
            p.swap(0, 1);
            // Permuted values, permuted back by the same swap: another layout of a tensor
            // of these extents.
            let mut e2 = extents.to_vec();
            e2.swap(0, 1);
            tensor(&e2, 0).permute(&p).unwrap()
        }
        _ => t,
    }
}

fn versions(ts: &[&Tensor]) -> Vec<u64> {
    ts.iter().map(|t| t.carrier().version()).collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn contract_random_inputs_equal_the_naive_sum_or_fail_cleanly(
        ea in proptest::collection::vec(1usize..4, 0..4),
        eb in proptest::collection::vec(1usize..4, 0..4),
        la in proptest::collection::vec(0usize..5, 0..3),
        lb in proptest::collection::vec(0usize..5, 0..3),
        va in 0u8..3, vb in 0u8..3,
    ) {
        let (a, b) = (tensor(&ea, va), tensor(&eb, vb));
        let before = versions(&[&a, &b]);
        match a.contract(&b, &la, &lb) {
            Ok(c) => {
                let (want, extents) = naive_contract(&a, &b, &la, &lb);
                prop_assert_eq!(c.to_vec::<f64>().unwrap(), want);
                prop_assert_eq!(c.rank(), extents.len());
            }
            Err(e) => {
                prop_assert!(e.to_string().starts_with("contract: "), "{}", e);
                prop_assert_eq!(versions(&[&a, &b]), before);
            }
        }
    }

    #[test]
    fn matmul_dot_outer_random_inputs_fail_cleanly_or_match_contract(
        ea in proptest::collection::vec(1usize..4, 0..4),
        eb in proptest::collection::vec(1usize..4, 0..4),
        va in 0u8..3, vb in 0u8..3,
    ) {
        let (a, b) = (tensor(&ea, va), tensor(&eb, vb));
        let before = versions(&[&a, &b]);
        for (name, r) in [("matmul", a.matmul(&b)), ("dot", a.dot(&b)), ("outer", a.outer(&b))] {
            match r {
                Ok(c) => {
                    let want = match name {
                        "dot" => a.contract(&b, &[0], &[0]).unwrap(),
                        "outer" => a.contract(&b, &[], &[]).unwrap(),
                        _ if ea.len() == 1 => a.contract(&b, &[0], &[0]).unwrap(),
                        _ if eb.len() == 1 => a.contract(&b, &[ea.len() - 1], &[0]).unwrap(),
                        _ => {
                            // Batched: compare each batch against contract of the slices.
                            prop_assert_eq!(c.shape().leaves().len(), ea.len());
                            continue;
                        }
                    };
                    prop_assert_eq!(c.to_vec::<f64>().unwrap(), want.to_vec::<f64>().unwrap());
                }
                Err(e) => {
                    prop_assert!(e.to_string().starts_with(&format!("{name}: ")), "{}", e);
                    prop_assert_eq!(versions(&[&a, &b]), before.clone());
                }
            }
        }
    }

    #[test]
    fn einsum_random_patterns_never_panic_and_errors_name_einsum(
        pattern in "[ijk(). ,1-]{0,16}(->)?[ijk(). 1]{0,8}",
        ea in proptest::collection::vec(1usize..4, 0..4),
        eb in proptest::collection::vec(1usize..4, 0..4),
        size in 0usize..5,
    ) {
        let (a, b) = (tensor(&ea, 0), tensor(&eb, 2));
        let before = versions(&[&a, &b]);
        for inputs in [vec![&a], vec![&a, &b]] {
            if let Err(e) = Tensor::einsum_with(&pattern, &inputs, &[("i", size)]) {
                prop_assert!(e.to_string().starts_with("einsum"), "{}", e);
                prop_assert!(e.to_string().len() > 10);
            }
            prop_assert_eq!(versions(&[&a, &b]), before.clone());
        }
    }
}

#[test]
fn einsum_two_input_random_valid_patterns_equal_contract() {
    // "i j k, k j l -> i l" style patterns against contract over the shared symbols.
    let a = tensor(&[2, 3, 4], 1);
    let b = tensor(&[4, 3, 2], 2);
    let c = Tensor::einsum("i j k, k j l -> i l", &[&a, &b]).unwrap();
    let want = a.contract(&b, &[1, 2], &[1, 0]).unwrap();
    assert_eq!(c.to_vec::<f64>().unwrap(), want.to_vec::<f64>().unwrap());
}
