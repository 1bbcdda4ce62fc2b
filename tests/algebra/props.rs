//! Random inputs: `Tensor::reduce` over random shapes, kept subsets, orders and strided
//! (permuted) operands equals a naive loop over the operand's ordinals, bit for bit; random
//! pattern text never panics, and a failure starts with `reduce:` and changes nothing.

use proptest::prelude::*;
use strideweave::{Reduction, Shape, Tensor};

const NAMES: [&str; 4] = ["a", "b", "c", "d"];

fn shape_of(e: &[i64]) -> Shape {
    let s: Vec<String> = e.iter().map(|v| v.to_string()).collect();
    format!("({})", s.join(",")).parse().unwrap()
}

/// The naive reduction: every ordinal of `x`, in order, folded into its output.
fn naive<T: Copy>(
    vals: &[T],
    extents: &[i64],
    kept: &[usize],
    init: T,
    f: impl Fn(T, T) -> T,
) -> Vec<T> {
    let nout: i64 = kept.iter().map(|&k| extents[k]).product();
    let mut out = vec![init; nout as usize];
    for (i, &v) in vals.iter().enumerate() {
        let mut rest = i as i64;
        let coord: Vec<i64> = extents
            .iter()
            .map(|&e| {
                let c = rest % e;
                rest /= e;
                c
            })
            .collect();
        let (mut j, mut step) = (0i64, 1i64);
        for &k in kept {
            j += coord[k] * step;
            step *= extents[k];
        }
        out[j as usize] = f(out[j as usize], v);
    }
    out
}

fn case() -> impl Strategy<Value = (Vec<i64>, Vec<usize>, Vec<usize>, usize)> {
    (1usize..=4)
        .prop_flat_map(|rank| {
            (
                proptest::collection::vec(1i64..=4, rank),
                Just((0..rank).collect::<Vec<usize>>()).prop_shuffle(),
                Just((0..rank).collect::<Vec<usize>>()).prop_shuffle(),
                0usize..=rank,
            )
        })
        .prop_map(|(e, perm, order, nkept)| (e, perm, order[..nkept].to_vec(), 0))
}

fn pattern(rank: usize, kept: &[usize]) -> String {
    let left: Vec<&str> = NAMES[..rank].to_vec();
    let right: Vec<&str> = kept.iter().map(|&k| NAMES[k]).collect();
    format!("{} -> {}", left.join(" "), right.join(" "))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn reduce_equals_a_naive_loop_on_strided_operands((extents, perm, kept, _) in case(), seed in 0u64..1000) {
        let rank = extents.len();
        // A compact base of the permuted extents, viewed back: a strided operand.
        let mut base_extents = vec![0; rank];
        for (k, &p) in perm.iter().enumerate() {
            base_extents[k] = extents[p];
        }
        let n: i64 = extents.iter().product();
        let data: Vec<f64> = (0..n).map(|i| (((i as u64 * 2654435761 + seed) % 997) as f64 - 498.0) / 7.0).collect();
        let base = Tensor::from_vec(data, &shape_of(&base_extents)).unwrap();
        let mut inverse = vec![0; rank];
        for (k, &p) in perm.iter().enumerate() {
            inverse[p] = k;
        }
        let x = base.permute(&inverse).unwrap();
        prop_assert_eq!(x.shape(), &shape_of(&extents));
        let vals = x.to_vec::<f64>().unwrap();
        let p = pattern(rank, &kept);
        type F = fn(f64, f64) -> f64;
        let table: [(Reduction, f64, F); 4] = [
            (Reduction::Sum, 0.0, |a, b| a + b),
            (Reduction::Prod, 1.0, |a, b| a * b),
            (Reduction::Max, f64::NEG_INFINITY, |a, b| if b > a { b } else { a }),
            (Reduction::Min, f64::INFINITY, |a, b| if b < a { b } else { a }),
        ];
        for (r, init, f) in table {
            let got = x.reduce(&p, r, &[]).unwrap();
            let want = naive(&vals, &extents, &kept, init, f);
            prop_assert_eq!(got.to_vec::<f64>().unwrap(), want, "{} {}", p, r);
        }
        // Integers: wrapping sums and products.
        let ints: Vec<i32> = vals.iter().map(|v| (*v * 1000.0) as i32).collect();
        let xi = Tensor::from_vec(ints.clone(), &shape_of(&extents)).unwrap();
        let s = xi.reduce(&p, Reduction::Sum, &[]).unwrap();
        prop_assert_eq!(s.to_vec::<i32>().unwrap(), naive(&ints, &extents, &kept, 0, i32::wrapping_add));
        let m = xi.reduce(&p, Reduction::Prod, &[]).unwrap();
        prop_assert_eq!(m.to_vec::<i32>().unwrap(), naive(&ints, &extents, &kept, 1, i32::wrapping_mul));
    }

    #[test]
    fn reduce_random_pattern_text_never_panics(text in "[ab()1. >-]{0,14}", r in 0usize..5) {
        let t = Tensor::arange::<f64>(&"(2,3)".parse().unwrap());
        let before = t.to_vec::<f64>().unwrap();
        let r = [Reduction::Sum, Reduction::Mean, Reduction::Max, Reduction::Min, Reduction::Prod][r];
        match t.reduce(&text, r, &[("a", 2)]) {
            Ok(out) => prop_assert!(out.size() <= 6),
            Err(e) => {
                let m = e.to_string();
                prop_assert!(m.starts_with("reduce: ") && m.len() > 10, "{}", m);
            }
        }
        prop_assert_eq!(t.to_vec::<f64>().unwrap(), before);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// `count_nonzero` on permuted operands with zeros equals a naive count, for a bool mask and
    /// integers alike, and changes nothing.
    #[test]
    fn count_nonzero_equals_a_naive_count_on_strided_operands((extents, perm, _, _) in case(), seed in 0u64..1000) {
        let rank = extents.len();
        let mut base_extents = vec![0; rank];
        for (k, &p) in perm.iter().enumerate() {
            base_extents[k] = extents[p];
        }
        let n: i64 = extents.iter().product();
        let ints: Vec<i32> = (0..n).map(|i| ((i as u64 * 2654435761 + seed) % 5) as i32 - 2).collect();
        let mut inverse = vec![0; rank];
        for (k, &p) in perm.iter().enumerate() {
            inverse[p] = k;
        }
        let x = Tensor::from_vec(ints, &shape_of(&base_extents)).unwrap().permute(&inverse).unwrap();
        let vals = x.to_vec::<i32>().unwrap();
        let want = vals.iter().filter(|&&v| v != 0).count() as i64;
        prop_assert_eq!(x.count_nonzero().unwrap().item::<i64>().unwrap(), want);
        let mask: Vec<bool> = vals.iter().map(|&v| v > 0).collect();
        let m = Tensor::from_vec(mask.clone(), &shape_of(&extents)).unwrap();
        let want = mask.iter().filter(|&&b| b).count() as i64;
        prop_assert_eq!(m.count_nonzero().unwrap().item::<i64>().unwrap(), want);
        prop_assert_eq!(x.to_vec::<i32>().unwrap(), vals);
    }
}
