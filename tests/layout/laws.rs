//! Laws of the algebra as property tests over random small layouts: each checks a
//! post-condition over every index, not a hand-picked answer.

use proptest::prelude::*;
use strideweave::{Layout, Shape};

use crate::layout::support::{eval_extended, indices, layout_with};

fn non_negative() -> impl Strategy<Value = Layout> {
    layout_with(0i64..=24)
}

fn signed() -> impl Strategy<Value = Layout> {
    layout_with(-12i64..=12)
}

/// An injective layout whose sorted strides divide one another: a compact layout with its
/// top-level modes permuted, scaled by `scale`.
fn permuted_compact() -> impl Strategy<Value = Layout> {
    permuted_compact_scaled(1..=3)
}

fn permuted_compact_scaled(scale: std::ops::RangeInclusive<i64>) -> impl Strategy<Value = Layout> {
    (
        prop::collection::vec(1i64..=4, 1..=4),
        scale,
        any::<prop::sample::Index>(),
    )
        .prop_map(|(extents, scale, pick)| {
            let shape: Shape = format!(
                "({})",
                extents
                    .iter()
                    .map(|e| e.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            )
            .parse()
            .unwrap();
            let compact = Layout::compact(&shape);
            let strides: Vec<i64> = compact
                .stride()
                .leaves()
                .iter()
                .map(|d| d * scale)
                .collect();
            let scaled: Layout = format!(
                "{}:({})",
                shape,
                strides
                    .iter()
                    .map(|d| d.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            )
            .parse()
            .unwrap();
            // A rotation of the modes is always a permutation.
            let n = extents.len();
            let r = pick.index(n);
            let order: Vec<usize> = (0..n).map(|i| (i + r) % n).collect();
            scaled.permute(&order).unwrap()
        })
}

fn brute_force_injective(l: &Layout) -> bool {
    let mut all = indices(l);
    all.sort_unstable();
    all.windows(2).all(|w| w[0] != w[1])
}

/// Whether each stride, in increasing order, is a multiple of the extent the smaller modes
/// cover (so the holes between them form a layout).
fn strides_divide(l: &Layout) -> bool {
    let mut modes: Vec<(i64, i64)> = l
        .stride()
        .leaves()
        .iter()
        .zip(l.shape().leaves())
        .map(|(&d, &s)| (d, s))
        .filter(|&(d, s)| d != 0 && s != 1)
        .collect();
    modes.sort_unstable();
    let mut covered = 1;
    modes.iter().all(|&(d, s)| {
        let ok = d % covered == 0;
        covered = d * s;
        ok
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn law_compose_is_function_composition(a in non_negative(), b in non_negative()) {
        if let Ok(r) = a.compose(&b) {
            prop_assert_eq!(r.size(), b.size(), "{} ∘ {} = {}", a, b, r);
            for i in 0..b.size() {
                let bi = b.index_of(i).unwrap();
                prop_assert_eq!(r.index_of(i).unwrap(), eval_extended(&a, bi), "{} ∘ {} = {} at {}", a, b, r, i);
            }
        }
    }

    #[test]
    fn law_compose_with_one_leaf_is_function_composition(a in non_negative(), n in 1i64..=6, d in 0i64..=8) {
        let b: Layout = format!("{n}:{d}").parse().unwrap();
        if let Ok(r) = a.compose(&b) {
            prop_assert_eq!(r.size(), b.size());
            for i in 0..n {
                prop_assert_eq!(r.index_of(i as usize).unwrap(), eval_extended(&a, i * d), "{} ∘ {} = {}", a, b, r);
            }
        }
    }

    #[test]
    fn law_compose_with_the_identity_is_the_layout(a in signed()) {
        let identity: Layout = format!("{}:1", a.size()).parse().unwrap();
        let r = a.compose(&identity).unwrap();
        prop_assert_eq!(indices(&r), indices(&a));
    }

    #[test]
    fn law_compose_hierarchy_follows_b(a in non_negative(), b in non_negative()) {
        if let Ok(r) = a.compose(&b) {
            prop_assert_eq!(r.rank(), b.rank());
        }
    }

    #[test]
    fn law_coalesce_keeps_the_index_function(a in signed()) {
        let c = a.coalesce();
        prop_assert_eq!(c.size(), a.size());
        prop_assert!(c.depth() <= 1);
        prop_assert_eq!(indices(&c), indices(&a));
        prop_assert_eq!(indices(&a.filter()).len() <= a.size(), true);
        prop_assert_eq!(indices(&a.flatten()), indices(&a));
    }

    #[test]
    fn law_complement_concatenation_is_injective(a in non_negative(), k in 1usize..=4) {
        let n = a.cosize().max(a.size()) * k;
        if let Ok(r) = a.complement(n) {
            // Stride-0 modes are ignored: A without them, concatenated with R, is injective.
            let live = a.filter();
            let both = Layout::make(&[live.clone(), r.clone()]).unwrap();
            prop_assert!(brute_force_injective(&both), "({}, {}) overlaps", live, r);
            prop_assert!(both.cosize() >= n, "({}, {}) does not reach {}", live, r, n);
            let ri = indices(&r);
            prop_assert!(ri.windows(2).all(|w| w[0] < w[1]), "{} is not ordered", r);
            let image = indices(&a);
            prop_assert!(ri.iter().skip(1).all(|x| !image.contains(x)));
            if live.size() * r.size() == n {
                let mut all = indices(&both);
                all.sort_unstable();
                prop_assert_eq!(all, (0..n as i64).collect::<Vec<_>>());
            }
        } else {
            // Rejected only for a reason the contract names: overlapping modes once the
            // stride-0 modes are ignored, or holes that strides not dividing leave.
            prop_assert!(
                !a.filter().is_injective() || !strides_divide(&a.filter()),
                "{} rejected", a
            );
        }
    }

    #[test]
    fn law_complement_ignores_stride_zero_and_extent_one_modes(a in non_negative(), n in 1usize..=600) {
        prop_assert_eq!(a.complement(n).ok(), a.filter().complement(n).ok());
    }

    #[test]
    fn law_complement_below_the_covered_extent_adds_no_repetition(a in permuted_compact_scaled(1..=3), n in 1usize..=600) {
        // The covered extent: the largest extent × stride among the modes that complement
        // sees (extent-one and stride-zero modes are ignored, so `(1):(3)` covers 1, not 3).
        let top = a.shape().leaves().iter().zip(a.stride().leaves())
            .filter(|&(s, d)| *s > 1 && *d != 0)
            .map(|(s, d)| s * d).max().unwrap_or(1);
        let r = a.complement(n).unwrap();
        if n as i64 <= top {
            prop_assert_eq!(&r, &a.complement(1).unwrap(), "complement({}, {})", a, n);
            prop_assert!(r.cosize() as i64 <= top, "complement({}, {}) = {}", a, n, r);
        }
    }

    #[test]
    fn law_complement_of_a_permuted_compact_layout_covers_exactly(a in permuted_compact(), k in 1usize..=3) {
        // The covered extent: the largest extent × stride among the modes.
        let top = a.shape().leaves().iter().zip(a.stride().leaves()).map(|(s, d)| s * d).max().unwrap_or(1).max(1);
        let n = (top as usize) * k;
        let r = a.complement(n).unwrap();
        let both = Layout::make(&[a.clone(), r]).unwrap();
        let mut all = indices(&both);
        all.sort_unstable();
        prop_assert_eq!(all, (0..n as i64).collect::<Vec<_>>());
    }

    #[test]
    fn law_right_inverse(a in non_negative()) {
        let r = a.right_inverse().unwrap();
        for i in 0..r.size() {
            let x = r.index_of(i).unwrap() as usize;
            prop_assert_eq!(a.index_of(x).unwrap(), i as i64, "L = {}, R = {}", a, r);
        }
    }

    #[test]
    fn law_left_inverse(a in non_negative()) {
        if let Ok(r) = a.left_inverse() {
            prop_assert!(a.is_injective());
            for i in 0..a.size() {
                prop_assert_eq!(eval_extended(&r, a.index_of(i).unwrap()), i as i64, "L = {}, R = {}", a, r);
            }
        } else {
            prop_assert!(!brute_force_injective(&a) || a.size() > 1);
        }
    }

    #[test]
    fn law_left_inverse_of_a_permuted_compact_layout(a in permuted_compact()) {
        let r = a.left_inverse().unwrap();
        for i in 0..a.size() {
            let x = a.index_of(i).unwrap() as usize;
            prop_assert_eq!(r.index_of(x).unwrap(), i as i64);
        }
        let r = a.right_inverse().unwrap();
        if a.index_of(1).ok() == Some(1) || a.size() == 1 {
            prop_assert!(r.size() > 1 || a.size() == 1);
        }
    }

    #[test]
    fn law_notation_round_trips(a in signed()) {
        prop_assert_eq!(a.to_string().parse::<Layout>().unwrap(), a.clone());
        prop_assert_eq!(format!("{a:?}").parse::<Layout>().unwrap(), a.clone());
        prop_assert_eq!(a.to_string().parse::<Layout>().unwrap().to_string(), a.to_string());
    }

    #[test]
    fn law_injectivity_matches_brute_force(a in signed()) {
        prop_assert_eq!(a.is_injective(), brute_force_injective(&a), "{}", a);
    }

    #[test]
    fn law_uniform_preimage_extent_is_sound(a in non_negative(), n in 1usize..=60) {
        let target: Shape = n.to_string().parse().unwrap();
        if let Some(k) = a.uniform_preimage_extent(&target) {
            let mut counts = vec![0usize; n];
            for i in indices(&a) {
                prop_assert!((0..n as i64).contains(&i));
                counts[i as usize] += 1;
            }
            prop_assert!(counts.iter().all(|&c| c as i64 == k), "{} against {}: {:?}", a, n, counts);
        }
    }

    #[test]
    fn law_uniform_preimage_extent_finds_replicated_compact(a in permuted_compact_scaled(1..=1), r in 1i64..=4) {
        // A compact permutation with a stride-zero mode of extent r added.
        let widened = Layout::make(&[a.clone(), format!("{r}:0").parse().unwrap()]).unwrap();
        let target: Shape = a.size().to_string().parse().unwrap();
        prop_assert_eq!(a.uniform_preimage_extent(&target), Some(1));
        prop_assert_eq!(widened.uniform_preimage_extent(&target), Some(r));
    }

    #[test]
    fn law_coordinates_and_ordinals_agree(a in signed()) {
        for i in 0..a.size() {
            let c = a.shape().coordinate(i).unwrap();
            prop_assert_eq!(a.index(&c).unwrap(), a.index_of(i).unwrap());
        }
        prop_assert!(a.index_of(a.size()).is_err());
    }

    #[test]
    fn law_logical_divide_mode_zero_is_the_composition(a in non_negative(), b in permuted_compact()) {
        if let Ok(d) = a.logical_divide(&b) {
            let c = a.compose(&b).unwrap();
            prop_assert_eq!(indices(&d.mode(0).unwrap()), indices(&c));
            prop_assert!(d.size() >= a.size());
        }
    }

    #[test]
    fn law_logical_product_mode_zero_is_a(a in permuted_compact(), b in permuted_compact()) {
        match a.logical_product(&b) {
            Ok(p) => {
                prop_assert_eq!(p.mode(0).unwrap(), a.clone());
                prop_assert_eq!(p.mode(1).unwrap().size(), b.size());
                prop_assert!(brute_force_injective(&p));
            }
            // With holes in A the repetition need not be a layout; without, it always is.
            Err(e) => prop_assert!(a.cosize() > a.size(), "{} ⊗ {}: {}", a, b, e),
        }
    }

    #[test]
    fn law_permute_inverse_restores(a in signed(), seed in any::<prop::sample::Index>()) {
        let n = a.rank();
        if n == 0 {
            return Ok(());
        }
        let r = seed.index(n);
        let order: Vec<usize> = (0..n).map(|i| (i + r) % n).collect();
        let inverse: Vec<usize> = (0..n).map(|i| (i + n - r) % n).collect();
        prop_assert_eq!(a.permute(&order).unwrap().permute(&inverse).unwrap(), a);
    }
}

/// Strides near the edges of `i64`: every operation answers, none panics.
fn extreme() -> impl Strategy<Value = Layout> {
    let stride = prop_oneof![
        Just(0i64),
        Just(1i64),
        Just(1i64 << 40),
        Just(i64::MAX / 3),
        Just(i64::MAX / 2),
        Just(-(1i64 << 40)),
        1i64..=8,
    ];
    (prop::collection::vec((1i64..=4, stride), 1..=4)).prop_filter_map("fits", |leaves| {
        let s: Vec<String> = leaves.iter().map(|p| p.0.to_string()).collect();
        let d: Vec<String> = leaves.iter().map(|p| p.1.to_string()).collect();
        format!("({}):({})", s.join(","), d.join(",")).parse().ok()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1024))]

    #[test]
    fn law_no_operation_panics_near_the_edges_of_i64(a in extreme(), b in extreme(), n in 1usize..=64) {
        let r = std::panic::catch_unwind(|| {
            let _ = a.compose(&b);
            let _ = a.complement(n);
            let _ = a.complement(usize::MAX / 2);
            let _ = a.logical_divide(&b);
            let _ = a.logical_product(&b);
            let _ = a.blocked_product(&b);
            let _ = a.raked_product(&b);
            let _ = a.right_inverse();
            let _ = a.left_inverse();
            let _ = a.coalesce();
            let _ = a.filter();
            let _ = a.is_injective();
            let _ = a.compose_affine(&b);
            let _ = a.reshape(&a.shape().clone());
        });
        prop_assert!(r.is_ok(), "panicked on {} and {}", a, b);
    }
}

/// The selection that extracts every leaf of `l` in depth-first order (the default one),
/// written out: a leaf per top-level leaf, a node of leaves per nested mode.
fn every_leaf(l: &Layout) -> strideweave::Tree {
    use strideweave::Tree;
    let s = l.shape();
    Tree::node((0..s.rank()).map(|i| {
        let m = s.mode(i).unwrap();
        if m.to_string().starts_with('(') {
            Tree::node((0..m.leaves().len()).map(|_| Tree::Leaf))
        } else {
            Tree::Leaf
        }
    }))
}

/// A flat output tree over `n` extracted leaves: each identifier once (shuffled, some
/// dropped) with `inserts` plain leaves.
fn flat_output(n: usize) -> impl Strategy<Value = strideweave::Tree> {
    (0usize..=2, 0usize..=1).prop_flat_map(move |(inserts, drop)| {
        let ids: Vec<Option<usize>> = (0..n.saturating_sub(drop))
            .map(Some)
            .chain(std::iter::repeat_n(None, inserts))
            .collect();
        Just(ids).prop_shuffle().prop_map(|ids| {
            strideweave::Tree::node(ids.into_iter().map(|i| match i {
                Some(i) => strideweave::Tree::id(i),
                None => strideweave::Tree::Leaf,
            }))
        })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// The one-pass path of `rearrange_tree` (default selection, flat output of
    /// identifiers and plain leaves) gives what the general path gives with the same
    /// selection written out, results and errors alike.
    #[test]
    fn law_rearrange_tree_flat_output_matches_the_general_path(
        (l, out) in layout_with(-6i64..=6).prop_flat_map(|l| {
            let n = l.shape().leaves().len();
            (Just(l), prop_oneof![flat_output(n), prop::collection::vec(
                prop_oneof![Just(strideweave::Tree::Leaf), (0usize..6).prop_map(strideweave::Tree::id)],
                0..=6,
            ).prop_map(strideweave::Tree::node)])
        })
    ) {
        let fast = l.rearrange_tree(&out, None).map_err(|e| e.to_string());
        let general = l.rearrange_tree(&out, Some(&every_leaf(&l))).map_err(|e| e.to_string());
        prop_assert_eq!(fast, general);
    }
}
