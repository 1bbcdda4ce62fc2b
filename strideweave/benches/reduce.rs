//! `Tensor::reduce` (divan): a sum over a rank-4 f32 tensor, `[64,64,64,16]`, to its first
//! mode (`"a b c d -> a"`), against a hand loop over the same compact first-mode-fastest
//! buffer (the target: within 1.25× of the hand loop).
//!
//! Run with `cargo bench -p strideweave --bench reduce`; not part of the test command.

use divan::{Bencher, black_box};
use strideweave::{Reduction, Tensor};

fn main() {
    divan::Divan::default()
        .sample_count(20)
        .sample_size(1)
        .main();
}

const A: usize = 64;
const REST: usize = 64 * 64 * 16;

fn data() -> Vec<f32> {
    (0..A * REST).map(|i| (i % 1000) as f32 * 0.001).collect()
}

/// `out[a] += x[a + A·r]` for every `r`, in ordinal order: each output's terms in the same
/// order as the library's, and the inner loop over `a` vectorises without reassociating.
fn hand(x: &[f32]) -> Vec<f32> {
    let mut out = vec![0.0f32; A];
    for run in x.chunks_exact(A) {
        for (o, v) in out.iter_mut().zip(run) {
            *o += v;
        }
    }
    out
}

#[divan::bench]
fn reduce_sum_rank4_to_first_mode(bencher: Bencher) {
    let t = Tensor::from_vec(data(), &"(64,64,64,16)".parse().unwrap()).unwrap();
    bencher.bench_local(|| {
        black_box(&t)
            .reduce("a b c d -> a", Reduction::Sum, &[])
            .unwrap()
    });
}

#[divan::bench]
fn hand_sum_rank4_to_first_mode(bencher: Bencher) {
    let x = data();
    let t = Tensor::from_vec(x.clone(), &"(64,64,64,16)".parse().unwrap()).unwrap();
    // The two agree exactly: same terms, same order.
    let lib = t.reduce("a b c d -> a", Reduction::Sum, &[]).unwrap();
    assert_eq!(lib.to_vec::<f32>().unwrap(), hand(&x));
    bencher.bench_local(|| hand(black_box(&x)));
}
