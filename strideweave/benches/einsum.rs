//! `Tensor::einsum("b i k, b k j -> b i j")` against the gemm kernel StrideWeave uses (the
//! `gemm` crate, [`sgemm`] below) called once per batch index with the same strides, writing the same compact output (issue 13's target:
//! within 1.1×). b = 16, 128 × 128 × 128, f32.
//!
//! Run with `cargo bench -p strideweave --bench einsum`; not part of the test command.
//!
//! Two placements: the batch mode first (fastest: each matrix is strided by 16) as the
//! pattern reads, and the batch mode last (`"i k b, k j b -> i j b"`: each matrix compact).
//! A third case contracts two modes stored in opposite orders (`"i p q b, q p j b -> i j b"`,
//! p = 16, q = 8): the contracted class does not fold in the right operand, which is staged
//! through the copy engine per batch index; its baseline is the batch-last sgemm (the same
//! 128³ products, nothing staged).

use divan::{Bencher, black_box};
use strideweave::Tensor;

fn main() {
    divan::Divan::default()
        .sample_count(100)
        .sample_size(1)
        .main();
}

/// `matrixmultiply::sgemm`'s signature on the `gemm` crate (on rayon's pool, as StrideWeave
/// above its threshold, which 128³ reaches: `RAYON_NUM_THREADS=1` for one thread).
///
/// # Safety
/// Every index `i·rs + j·cs` of each matrix lies inside its allocation; `c`'s are distinct.
#[allow(clippy::too_many_arguments)]
unsafe fn sgemm(
    m: usize,
    k: usize,
    n: usize,
    alpha: f32,
    a: *const f32,
    rsa: isize,
    csa: isize,
    b: *const f32,
    rsb: isize,
    csb: isize,
    beta: f32,
    c: *mut f32,
    rsc: isize,
    csc: isize,
) {
    assert!(alpha == 1.0 && beta == 0.0);
    // SAFETY: the caller's contract; `read_dst = false` (`beta = 0`).
    unsafe {
        gemm::gemm(
            m,
            n,
            k,
            c,
            csc,
            rsc,
            false,
            a,
            csa,
            rsa,
            b,
            csb,
            rsb,
            0.0,
            1.0,
            false,
            false,
            false,
            gemm::Parallelism::Rayon(0),
        )
    }
}

const B: usize = 16;
const N: usize = 128;

fn operands() -> (Vec<f32>, Vec<f32>) {
    let a: Vec<f32> = (0..B * N * N).map(|i| (i % 97) as f32 * 0.25).collect();
    let b: Vec<f32> = (0..B * N * N).map(|i| (i % 89) as f32 * 0.5).collect();
    (a, b)
}

fn tensors() -> (Tensor, Tensor) {
    let (a, b) = operands();
    let shape = format!("({B},{N},{N})").parse().unwrap();
    (
        Tensor::from_vec(a, &shape).unwrap(),
        Tensor::from_vec(b, &shape).unwrap(),
    )
}

#[divan::bench]
fn einsum_batch_first(bencher: Bencher) {
    let (a, b) = tensors();
    bencher.bench_local(|| black_box(Tensor::einsum("b i k, b k j -> b i j", &[&a, &b]).unwrap()));
}

/// The same strides as `einsum_batch_first`: batch stride 1, rows 16, columns 16·128.
#[divan::bench]
fn sgemm_per_batch_batch_first(bencher: Bencher) {
    let (a, b) = operands();
    bencher.bench_local(|| {
        let mut c = vec![0.0f32; B * N * N];
        let (rs, cs) = (B as isize, (B * N) as isize);
        for p in 0..B {
            // SAFETY: every index p + i·16 + j·2048 (i, j < 128) is below 16·128·128, the
            // length of each buffer; `c` is written at distinct indices only.
            unsafe {
                sgemm(
                    N,
                    N,
                    N,
                    1.0,
                    a.as_ptr().add(p),
                    rs,
                    cs,
                    b.as_ptr().add(p),
                    rs,
                    cs,
                    0.0,
                    c.as_mut_ptr().add(p),
                    rs,
                    cs,
                );
            }
        }
        black_box(c)
    });
}

#[divan::bench]
fn einsum_batch_last(bencher: Bencher) {
    let (a, b) = operands();
    let shape = format!("({N},{N},{B})").parse().unwrap();
    let (a, b) = (
        Tensor::from_vec(a, &shape).unwrap(),
        Tensor::from_vec(b, &shape).unwrap(),
    );
    bencher.bench_local(|| black_box(Tensor::einsum("i k b, k j b -> i j b", &[&a, &b]).unwrap()));
}

/// The same strides as `einsum_batch_last`: rows 1, columns 128, batch 128·128.
#[divan::bench]
fn sgemm_per_batch_batch_last(bencher: Bencher) {
    let (a, b) = operands();
    bencher.bench_local(|| {
        let mut c = vec![0.0f32; B * N * N];
        for p in 0..B {
            let o = p * N * N;
            // SAFETY: every index o + i + j·128 (i, j < 128) lies in batch p's block of each
            // buffer; `c` is written at distinct indices only.
            unsafe {
                sgemm(
                    N,
                    N,
                    N,
                    1.0,
                    a.as_ptr().add(o),
                    1,
                    N as isize,
                    b.as_ptr().add(o),
                    1,
                    N as isize,
                    0.0,
                    c.as_mut_ptr().add(o),
                    1,
                    N as isize,
                );
            }
        }
        black_box(c)
    });
}

#[divan::bench]
fn einsum_staged_batch_last(bencher: Bencher) {
    let (a, b) = operands();
    let (p, q) = (16, 8);
    let sa = format!("({N},{p},{q},{B})").parse().unwrap();
    let sb = format!("({q},{p},{N},{B})").parse().unwrap();
    let (a, b) = (
        Tensor::from_vec(a, &sa).unwrap(),
        Tensor::from_vec(b, &sb).unwrap(),
    );
    bencher
        .bench_local(|| black_box(Tensor::einsum("i p q b, q p j b -> i j b", &[&a, &b]).unwrap()));
}
