//! Issue 26's faster run-time index math (`Layout::index_of`'s shift plan, `Layout::indexer`):
//! every result and error is the one of a plain coordinate-by-coordinate reference, on random
//! hierarchical layouts that mix power-of-two and other extents, extent-1 leaves, stride 0,
//! negative and contiguous strides, and up to 12 leaves (so every path: the kept shift plan,
//! the leaf-by-leaf walk, the indexer's shifts, multiplications and wide terms).

use proptest::prelude::*;
use strideweave::{Layout, Shape, Tensor};

/// `L(i)` by the definition: `i`'s first-mode-fastest coordinate in each leaf times its stride,
/// in `i128` (no shortcut shared with the library).
fn reference(layout: &Layout, i: usize) -> i64 {
    let mut rest = i as i128;
    let mut index = 0i128;
    for (&e, &d) in layout.shape().leaves().iter().zip(layout.stride().leaves()) {
        index += (rest % i128::from(e)) * i128::from(d);
        rest /= i128::from(e);
    }
    assert_eq!(rest, 0, "the reference is called inside the domain");
    i64::try_from(index).unwrap()
}

/// A random layout: 1–4 top-level modes, each a leaf or a tuple of 1–3 leaves; extents
/// favour powers of two; a stride is random, 0, or the one that continues the leaf before
/// it (so that terms merge).
fn layout() -> impl Strategy<Value = Layout> {
    let extent = prop_oneof![
        3 => prop::sample::select(vec![1i64, 2, 4, 8, 16, 32]),
        1 => prop::sample::select(vec![3i64, 5, 6, 7, 12]),
    ];
    let stride = prop_oneof![
        4 => -600i64..=600,
        1 => Just(0i64),
        2 => Just(i64::MIN), // "continue the leaf before": resolved below
    ];
    let mode = prop::collection::vec((extent, stride), 1..=3);
    prop::collection::vec(mode, 1..=4).prop_filter_map("size and reach fit in i64", |modes| {
        let (mut prev, mut sh, mut st) = ((1i64, 0i64), vec![], vec![]);
        for leaves in modes {
            let mut s = vec![];
            let mut d = vec![];
            for (e, mut k) in leaves {
                if k == i64::MIN {
                    k = prev.0.checked_mul(prev.1).unwrap_or(1);
                }
                prev = (e, if k == 0 { 1 } else { k });
                s.push(e.to_string());
                d.push(k.to_string());
            }
            if s.len() == 1 {
                sh.push(s.remove(0));
                st.push(d.remove(0));
            } else {
                sh.push(format!("({})", s.join(",")));
                st.push(format!("({})", d.join(",")));
            }
        }
        format!("({}):({})", sh.join(","), st.join(","))
            .parse()
            .ok()
    })
}

/// Every ordinal of a small layout; of a large one the first 2048, a spread of 2048 and the
/// last ones.
fn ordinals(size: usize) -> Vec<usize> {
    if size <= 4096 {
        return (0..size).collect();
    }
    let step = size / 2048;
    (0..2048)
        .chain((0..size).step_by(step))
        .chain(size - 16..size)
        .collect()
}

fn cases() -> ProptestConfig {
    let long = std::env::var_os("STRIDEWEAVE_LONG").is_some();
    ProptestConfig {
        cases: if long { 20_000 } else { 200 },
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(cases())]

    /// `Layout::index_of` on the first call (which makes the plan) and on later calls
    /// (which run it), and its error beyond the domain, word for word.
    #[test]
    fn index_of_agrees_with_the_reference_on_random_layouts(l in layout()) {
        let size = l.size();
        for pass in 0..2 {
            for i in ordinals(size) {
                prop_assert_eq!(l.index_of(i).unwrap(), reference(&l, i), "{} at {} (pass {})", l, i, pass);
            }
        }
        for bad in [size, size + 1, usize::MAX] {
            let shown = i64::try_from(bad).unwrap_or(i64::MAX);
            prop_assert_eq!(
                l.index_of(bad).unwrap_err().to_string(),
                format!("index_of: ordinal {shown} is outside the layout of size {size} (valid: 0..{size})")
            );
        }
        // A clone and an integer coordinate take the same path.
        let c = l.clone();
        prop_assert_eq!(c.index_of(size - 1).unwrap(), reference(&l, size - 1));
        prop_assert_eq!(l.index(&((size - 1) as i64).into()).unwrap(), reference(&l, size - 1));
        prop_assert!(l.index(&(-1i64).into()).is_err());
    }

    /// `Layout::indexer`: unchecked `index_of` and checked `get` in the domain, `None` beyond.
    #[test]
    fn indexer_agrees_with_the_reference_on_random_layouts(l in layout()) {
        let ix = l.indexer();
        prop_assert_eq!(ix.size(), l.size());
        for i in ordinals(l.size()) {
            let want = reference(&l, i);
            prop_assert_eq!(ix.index_of(i), want, "{} at {}", l, i);
            prop_assert_eq!(ix.get(i), Some(want), "{} at {}", l, i);
        }
        prop_assert_eq!(ix.get(l.size()), None);
        prop_assert_eq!(ix.get(usize::MAX), None);
    }
}

/// The issue's layout and a layout without a plan, as the benchmark maps them.
#[test]
fn index_of_of_the_issues_layout_is_unchanged() {
    for text in [
        "((4,8),(2,16)):((1,64),(4,512))",
        "((3,5),(6,7)):((1,18),(3,90))",
    ] {
        let l: Layout = text.parse().unwrap();
        let ix = l.indexer();
        for i in 0..l.size() {
            assert_eq!(l.index_of(i).unwrap(), reference(&l, i), "{text} at {i}");
            assert_eq!(ix.index_of(i), reference(&l, i), "{text} at {i}");
        }
    }
    let l: Layout = "((4,8),(2,16)):((1,64),(4,512))".parse().unwrap();
    let hand = |i: usize| (i % 4 + (i / 4 % 8) * 64 + (i / 32 % 2) * 4 + (i / 64) * 512) as i64;
    assert!((0..1024).all(|i| l.index_of(i).unwrap() == hand(i)));
}

/// Views write their layouts in place into recycled handle allocations: an element read
/// through each view (which makes that layout's plan) is the one its own layout names,
/// whatever layout the allocation held before.
#[test]
fn index_of_through_recycled_views_reads_each_views_own_layout() {
    let shape: Shape = "(4,8,2,16)".parse().unwrap();
    let t = Tensor::arange::<i64>(&shape);
    for round in 0..50 {
        let order = [[3, 1, 0, 2], [0, 1, 2, 3], [2, 3, 1, 0]][round % 3];
        let v = t.permute(&order).unwrap();
        let w = v
            .slice(&[
                (0..3).into(),
                strideweave::Key::all(),
                (1..2).into(),
                strideweave::Key::all(),
            ])
            .unwrap();
        for view in [&v, &w] {
            let l = view.layout();
            for i in (0..l.size()).step_by(7) {
                let want = view.offset() as i64 + reference(l, i);
                assert_eq!(
                    view.get_ordinal(i).unwrap().to_f64(),
                    want as f64,
                    "round {round}, ordinal {i}"
                );
            }
        }
    }
}
