//! Static layouts against hand-written constants and ndarray (divan), side by side in one
//! run on one thread:
//!
//! - `index_math`: the index of every ordinal of `((4,8),(2,16)):((1,64),(4,512))` — the
//!   static layout's `index_of` against the same arithmetic written with constants (no range
//!   check) — with the ordinals read from a slice (`from_memory`: their range is unknown, so
//!   `index_of` checks each one; `hand_written_checked` adds that check to the hand-written
//!   code) and from a loop over the domain whose end is only known at run time
//!   (`domain_loop`: the loop bounds the ordinals, so the check folds away); `*_each` write
//!   every index to a buffer, the static side through `index_of_each` (one range check for
//!   the slice);
//! - `element_access`: 4096 reads of a 64×64 `u32` matrix stored row-major, through
//!   `StaticLayoutView` with `[[i, j]]` and through ndarray's `Array2` with `[[i, j]]`: a
//!   sweep of every element row by row (`sweep`), and coordinates read from a shuffled list
//!   (`scattered`: one index computation and load per read, nothing to vectorise).
//!
//! Inputs go through `black_box` (the ordinals, coordinates, loop ends, data and views), so
//! nothing folds at compile time. Compare the `fastest` column. Run with
//! `cargo bench -p strideweave --bench static_layout`; not part of the test command.

use divan::{Bencher, black_box};
use strideweave::{StaticLayoutView, layout_t};

fn main() {
    divan::main();
}

type Tv = layout_t!(((4, 8), (2, 16)) : ((1, 64), (4, 512)));
const SIZE: usize = 4 * 8 * 2 * 16;

mod index_math {
    use super::*;

    /// `(i % 4)·1 + (i / 4 % 8)·64 + (i / 32 % 2)·4 + (i / 64)·512`, written by hand.
    #[inline(always)]
    fn by_hand(i: usize) -> i64 {
        ((i % 4) + (i / 4 % 8) * 64 + (i / 32 % 2) * 4 + (i / 64) * 512) as i64
    }

    mod from_memory {
        use super::*;

        fn ordinals() -> Vec<usize> {
            (0..SIZE).collect()
        }

        #[divan::bench(sample_count = 200, sample_size = 100)]
        fn static_layout(b: Bencher) {
            let ords = ordinals();
            b.bench_local(|| {
                let mut acc = 0i64;
                for &i in black_box(&ords[..]) {
                    acc = acc.wrapping_add(Tv::index_of(i));
                }
                acc
            });
        }

        #[divan::bench(sample_count = 200, sample_size = 100)]
        fn hand_written(b: Bencher) {
            let ords = ordinals();
            b.bench_local(|| {
                let mut acc = 0i64;
                for &i in black_box(&ords[..]) {
                    acc = acc.wrapping_add(by_hand(i));
                }
                acc
            });
        }

        /// Every index written to a buffer by [`index_of_each`](strideweave::LayoutT::index_of_each)
        /// (the range checked once for the whole slice).
        #[divan::bench(sample_count = 200, sample_size = 100)]
        fn static_layout_each(b: Bencher) {
            let ords = ordinals();
            let mut out = vec![0i64; SIZE];
            b.bench_local(|| {
                Tv::index_of_each(black_box(&ords[..]), black_box(&mut out[..])).unwrap();
                black_box(&out);
            });
        }

        /// The same buffer written with the hand-written arithmetic.
        #[divan::bench(sample_count = 200, sample_size = 100)]
        fn hand_written_each(b: Bencher) {
            let ords = ordinals();
            let mut out = vec![0i64; SIZE];
            b.bench_local(|| {
                let out = black_box(&mut out[..]);
                for (o, &i) in out.iter_mut().zip(black_box(&ords[..])) {
                    *o = by_hand(i);
                }
                black_box(&out);
            });
        }

        /// The hand-written arithmetic with `index_of`'s range check, `assert!(i < 1024)`:
        /// what the check costs when nothing bounds the ordinals.
        #[divan::bench(sample_count = 200, sample_size = 100)]
        fn hand_written_checked(b: Bencher) {
            let ords = ordinals();
            b.bench_local(|| {
                let mut acc = 0i64;
                for &i in black_box(&ords[..]) {
                    assert!(i < SIZE, "ordinal {i} is outside the layout of size {SIZE}");
                    acc = acc.wrapping_add(by_hand(i));
                }
                acc
            });
        }
    }

    mod domain_loop {
        use super::*;

        #[divan::bench(sample_count = 200, sample_size = 100)]
        fn static_layout(b: Bencher) {
            b.bench_local(|| {
                let n = black_box(SIZE).min(Tv::size());
                let mut acc = 0i64;
                for i in 0..n {
                    acc = acc.wrapping_add(Tv::index_of(i));
                }
                acc
            });
        }

        #[divan::bench(sample_count = 200, sample_size = 100)]
        fn hand_written(b: Bencher) {
            b.bench_local(|| {
                let n = black_box(SIZE).min(SIZE);
                let mut acc = 0i64;
                for i in 0..n {
                    acc = acc.wrapping_add(by_hand(i));
                }
                acc
            });
        }
    }
}

mod element_access {
    use super::*;

    const N: usize = 64;
    type RowMajor = layout_t!((64, 64) : (64, 1));

    fn data() -> Vec<u32> {
        (0..(N * N) as u32).collect()
    }

    /// Every coordinate once, shuffled (a fixed linear congruential permutation).
    fn scattered() -> Vec<[usize; 2]> {
        let mut c: Vec<[usize; 2]> = (0..N * N).map(|k| [k % N, k / N]).collect();
        let mut x = 12345u64;
        for k in (1..c.len()).rev() {
            x = x
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            c.swap(k, (x >> 33) as usize % (k + 1));
        }
        c
    }

    mod sweep {
        use super::*;

        #[divan::bench(sample_count = 200, sample_size = 20)]
        fn static_layout_view(b: Bencher) {
            let data = data();
            let view = StaticLayoutView::<_, RowMajor>::new(&data).unwrap();
            b.bench_local(|| {
                let v = black_box(&view);
                let mut acc = 0u32;
                for i in 0..N {
                    for j in 0..N {
                        acc = acc.wrapping_add(v[[i, j]]);
                    }
                }
                acc
            });
        }

        #[divan::bench(sample_count = 200, sample_size = 20)]
        fn ndarray_array2(b: Bencher) {
            let a = ndarray::Array2::from_shape_vec((N, N), data()).unwrap();
            b.bench_local(|| {
                let a = black_box(&a);
                let mut acc = 0u32;
                for i in 0..N {
                    for j in 0..N {
                        acc = acc.wrapping_add(a[[i, j]]);
                    }
                }
                acc
            });
        }
    }

    mod scattered {
        use super::*;

        #[divan::bench(sample_count = 200, sample_size = 20)]
        fn static_layout_view(b: Bencher) {
            let (data, coords) = (data(), super::scattered());
            let view = StaticLayoutView::<_, RowMajor>::new(&data).unwrap();
            b.bench_local(|| {
                let v = black_box(&view);
                let mut acc = 0u32;
                for &[i, j] in black_box(&coords[..]) {
                    acc = acc.wrapping_add(v[[i, j]]);
                }
                acc
            });
        }

        #[divan::bench(sample_count = 200, sample_size = 20)]
        fn ndarray_array2(b: Bencher) {
            let coords = super::scattered();
            let a = ndarray::Array2::from_shape_vec((N, N), data()).unwrap();
            b.bench_local(|| {
                let a = black_box(&a);
                let mut acc = 0u32;
                for &[i, j] in black_box(&coords[..]) {
                    acc = acc.wrapping_add(a[[i, j]]);
                }
                acc
            });
        }
    }
}
