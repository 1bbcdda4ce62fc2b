//! The stride-based injectivity decision against enumeration, on small layouts whose strides
//! are chosen to tangle (small values, mixed signs, common factors), where the sorted-stride
//! test rarely decides and peeling, the gcd test and the bounded enumeration do.

use proptest::prelude::*;
use strideweave::Layout;

/// Flat layouts of 1 to `modes` leaves with extents in `extents` and strides in `strides`.
fn flat(
    modes: usize,
    extents: std::ops::RangeInclusive<i64>,
    strides: std::ops::RangeInclusive<i64>,
) -> impl Strategy<Value = Layout> {
    prop::collection::vec((extents, strides), 1..=modes).prop_map(|modes| {
        let (s, d): (Vec<_>, Vec<_>) = modes.into_iter().unzip();
        let join = |v: Vec<i64>| {
            v.iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        format!("({}):({})", join(s), join(d)).parse().unwrap()
    })
}

/// Strides chosen to tangle: small values, mixed signs, common factors.
fn tangled() -> impl Strategy<Value = Layout> {
    flat(4, 1..=7, -13..=13)
}

fn enumerated_injective(l: &Layout) -> bool {
    let mut all: Vec<i64> = (0..l.size()).map(|i| l.index_of(i).unwrap()).collect();
    all.sort_unstable();
    all.windows(2).all(|w| w[0] != w[1])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn try_is_injective_matches_enumeration_on_tangled_strides(l in tangled()) {
        prop_assert_eq!(l.try_is_injective().unwrap(), enumerated_injective(&l), "{}", l);
    }
}

/// Small layouts with non-negative strides up to `max_stride`, as sources and selectors of
/// `compose_affine`.
fn small(max_stride: i64) -> impl Strategy<Value = Layout> {
    flat(3, 1..=6, 0..=max_stride)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 1500,
        max_global_rejects: 1 << 20,
        ..ProptestConfig::default()
    })]

    #[test]
    fn compose_affine_decided_without_a_walk_matches_enumeration(a in small(9), b in small(3)) {
        let (lo, hi) = b.reach();
        prop_assume!(lo >= 0 && (hi as usize) < a.size());
        let read = |q: usize| a.index_of(b.index_of(q).unwrap() as usize).unwrap();
        match a.compose_affine(&b) {
            Ok(r) => {
                for q in 0..b.size() {
                    prop_assert_eq!(r.index_of(q).unwrap(), read(q), "{} through {}", a, b);
                }
            }
            Err(e) => {
                // Some coordinate must break the only candidate: leaf k steps by a(d_k).
                let shape = b.shape().leaves().to_vec();
                let strides: Vec<i64> = shape
                    .iter()
                    .zip(b.stride().leaves())
                    .map(|(&s, &d)| if s == 1 { 0 } else { a.index_of(d as usize).unwrap() })
                    .collect();
                let candidate = |mut q: usize| {
                    let mut acc = 0;
                    for (s, d) in shape.iter().zip(&strides) {
                        acc += (q % *s as usize) as i64 * d;
                        q /= *s as usize;
                    }
                    acc
                };
                prop_assert!((0..b.size()).any(|q| read(q) != candidate(q)), "{} through {}: {}", a, b, e);
            }
        }
    }
}
