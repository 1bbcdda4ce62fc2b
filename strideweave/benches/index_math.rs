//! Index math of a run-time `Layout` against the same arithmetic written with constants
//! (divan; issue 26). Run with `python3 scripts/bench_min.py index_math 10` (each benchmark's
//! fastest sample over the runs, with the ratios) or `cargo bench -p strideweave --bench
//! index_math`; not part of the test command.
//!
//! Every benchmark maps all ordinals of one layout to their indices, one call per ordinal,
//! each ordinal passed through `black_box` and each result given to `black_box`, so nothing
//! is folded; the layout (or indexer) is read through `black_box(&…)` on every call, so no
//! load of it is hoisted out of the loop either. The time per ordinal is the reported time
//! divided by the layout's size (the items counter prints it as a throughput).
//!
//! * `constants`: the hand-written arithmetic of the layout with its extents and strides as
//!   constants (the compiler turns power-of-two divisions into shifts and masks, the others
//!   into multiplications): what a static layout aims at.
//! * `strideweave_index_of`: `Layout::index_of(i).unwrap()` (checked; the first call makes
//!   the layout's shift plan when it has one).
//! * `strideweave_indexer`: `Layout::indexer()` made once outside the loop, then
//!   `Indexer::index_of` per ordinal (unchecked, precomputed division).
//! * `strideweave_indexer_checked`: the same through `Indexer::get` (checked, `Option`).
//!
//! Groups: `pow2` is `((4,8),(2,16)):((1,64),(4,512))` (1024 ordinals, every extent a power of
//! two: the layout of issue 26); `mixed` is `((3,5),(6,7)):((1,18),(3,90))` (630 ordinals, no
//! extent a power of two: `index_of` divides leaf by leaf, the indexer multiplies).

use divan::counter::ItemsCount;
use divan::{Bencher, black_box};
use strideweave::Layout;

fn main() {
    divan::Divan::default()
        .sample_count(200)
        .config_with_args()
        .main();
}

fn layout(text: &str) -> Layout {
    text.parse().unwrap()
}

/// `((4,8),(2,16)):((1,64),(4,512))`, 1024 ordinals.
mod pow2 {
    use super::*;

    const TEXT: &str = "((4,8),(2,16)):((1,64),(4,512))";
    const N: usize = 1024;

    #[divan::bench]
    fn constants(b: Bencher) {
        b.counter(ItemsCount::new(N)).bench_local(|| {
            for i in 0..N {
                let i = black_box(i);
                let k = i % 4 + (i / 4 % 8) * 64 + (i / 32 % 2) * 4 + (i / 64) * 512;
                black_box(k as i64);
            }
        });
    }

    #[divan::bench]
    fn strideweave_index_of(b: Bencher) {
        let l = layout(TEXT);
        assert_eq!(l.size(), N);
        b.counter(ItemsCount::new(N)).bench_local(|| {
            for i in 0..N {
                black_box(black_box(&l).index_of(black_box(i)).unwrap());
            }
        });
    }

    #[divan::bench]
    fn strideweave_indexer(b: Bencher) {
        let l = layout(TEXT);
        let ix = l.indexer();
        b.counter(ItemsCount::new(N)).bench_local(|| {
            for i in 0..N {
                black_box(black_box(&ix).index_of(black_box(i)));
            }
        });
    }

    #[divan::bench]
    fn strideweave_indexer_checked(b: Bencher) {
        let l = layout(TEXT);
        let ix = l.indexer();
        b.counter(ItemsCount::new(N)).bench_local(|| {
            for i in 0..N {
                black_box(black_box(&ix).get(black_box(i)));
            }
        });
    }
}

/// `((3,5),(6,7)):((1,18),(3,90))`, 630 ordinals, no extent a power of two.
mod mixed {
    use super::*;

    const TEXT: &str = "((3,5),(6,7)):((1,18),(3,90))";
    const N: usize = 630;

    #[divan::bench]
    fn constants(b: Bencher) {
        b.counter(ItemsCount::new(N)).bench_local(|| {
            for i in 0..N {
                let i = black_box(i);
                let k = i % 3 + (i / 3 % 5) * 18 + (i / 15 % 6) * 3 + (i / 90) * 90;
                black_box(k as i64);
            }
        });
    }

    #[divan::bench]
    fn strideweave_index_of(b: Bencher) {
        let l = layout(TEXT);
        assert_eq!(l.size(), N);
        b.counter(ItemsCount::new(N)).bench_local(|| {
            for i in 0..N {
                black_box(black_box(&l).index_of(black_box(i)).unwrap());
            }
        });
    }

    #[divan::bench]
    fn strideweave_indexer(b: Bencher) {
        let l = layout(TEXT);
        let ix = l.indexer();
        b.counter(ItemsCount::new(N)).bench_local(|| {
            for i in 0..N {
                black_box(black_box(&ix).index_of(black_box(i)));
            }
        });
    }

    #[divan::bench]
    fn strideweave_indexer_checked(b: Bencher) {
        let l = layout(TEXT);
        let ix = l.indexer();
        b.counter(ItemsCount::new(N)).bench_local(|| {
            for i in 0..N {
                black_box(black_box(&ix).get(black_box(i)));
            }
        });
    }
}
