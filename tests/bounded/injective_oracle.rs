//! The stride-based injectivity decision against enumeration, on small layouts whose strides
//! are chosen to tangle (small values, mixed signs, common factors), where the sorted-stride
//! test rarely decides and peeling, the gcd test and the bounded enumeration do.

use proptest::prelude::*;
use strideweave::Layout;

fn tangled() -> impl Strategy<Value = Layout> {
    prop::collection::vec((1i64..=7, -13i64..=13), 1..=4).prop_map(|modes| {
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
