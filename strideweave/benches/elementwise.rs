//! Elementwise arithmetic and matmul (divan), side by side in one run: StrideWeave, ndarray
//! and a hand-written loop (elementwise), or `matrixmultiply` called directly with the same
//! strides (matmul).
//!
//! Run with `cargo bench -p strideweave --bench elementwise`; not part of the test command.
//!
//! StrideWeave tensors are compact first-mode-fastest, ndarray arrays standard row-major:
//! each library's native compact order, so each workload does the same memory traffic in
//! both. `fresh` forms allocate their result inside the timed loop (`a.add(&b)`,
//! `&a + &b`, a collected `Vec`); `into` forms write into a destination built outside it
//! (`add_into`, `Zip`, a loop over a `Vec`).

use divan::{Bencher, black_box};
use ndarray::{Array2, Zip};
use strideweave::{Key, Tensor};

mod common;

use common::{B, N, shape, sq};

fn main() {
    common::run();
}

fn arrays() -> (Array2<f32>, Array2<f32>) {
    let a = Array2::<f32>::from_shape_fn((N, N), |(i, j)| (i * N + j) as f32);
    let b = Array2::<f32>::from_shape_fn((N, N), |(i, j)| (j * N + i) as f32 * 0.5);
    (a, b)
}

fn vecs() -> (Vec<f32>, Vec<f32>) {
    let a: Vec<f32> = (0..N * N).map(|i| i as f32).collect();
    let b: Vec<f32> = (0..N * N).map(|i| i as f32 * 0.5).collect();
    (a, b)
}

/// `out[i + j·n] = a[i + j·n] + b[j + i·n]`, in 32×32 tiles (b read transposed).
fn hand_add_transposed(a: &[f32], b: &[f32], out: &mut [f32], n: usize) {
    for jb in (0..n).step_by(B) {
        for ib in (0..n).step_by(B) {
            for j in jb..(jb + B).min(n) {
                let (lo, hi) = (j * n + ib, j * n + (ib + B).min(n));
                for (k, (z, x)) in out[lo..hi].iter_mut().zip(&a[lo..hi]).enumerate() {
                    *z = x + b[j + (ib + k) * n];
                }
            }
        }
    }
}

/// `a + b`, both compact 4096² f32.
mod add_compact {
    use super::*;

    #[divan::bench]
    fn strideweave_fresh(b: Bencher) {
        let (x, y) = (
            Tensor::arange::<f32>(&sq()),
            Tensor::arange::<f32>(&sq()).mul_scalar(0.5f32).unwrap(),
        );
        b.bench_local(|| black_box(&x).add(black_box(&y)).unwrap());
    }

    #[divan::bench]
    fn strideweave_into(b: Bencher) {
        let (x, y) = (
            Tensor::arange::<f32>(&sq()),
            Tensor::arange::<f32>(&sq()).mul_scalar(0.5f32).unwrap(),
        );
        let out = Tensor::zeros::<f32>(&sq());
        b.bench_local(|| black_box(&x).add_into(black_box(&y), &out).unwrap());
    }

    #[divan::bench]
    fn ndarray_fresh(b: Bencher) {
        let (x, y) = arrays();
        b.bench_local(|| black_box(&x) + black_box(&y));
    }

    #[divan::bench]
    fn ndarray_zip_into(b: Bencher) {
        let (x, y) = arrays();
        let mut out = Array2::<f32>::zeros((N, N));
        b.bench_local(|| {
            Zip::from(&mut out)
                .and(black_box(&x))
                .and(black_box(&y))
                .for_each(|z, &p, &q| *z = p + q)
        });
    }

    #[divan::bench]
    fn hand_fresh(b: Bencher) {
        let (x, y) = vecs();
        b.bench_local(|| {
            let (x, y) = (black_box(&x), black_box(&y));
            x.iter().zip(y).map(|(p, q)| p + q).collect::<Vec<f32>>()
        });
    }

    #[divan::bench]
    fn hand_into(b: Bencher) {
        let (x, y) = vecs();
        let mut out = vec![0f32; N * N];
        b.bench_local(|| {
            for ((z, p), q) in out.iter_mut().zip(black_box(&x)).zip(black_box(&y)) {
                *z = p + q;
            }
        });
    }
}

/// `a + bᵀ`, both stored compact 4096² f32, the second read through a transposed view.
mod add_transposed {
    use super::*;

    #[divan::bench]
    fn strideweave_fresh(b: Bencher) {
        let x = Tensor::arange::<f32>(&sq());
        let y = Tensor::arange::<f32>(&sq())
            .mul_scalar(0.5f32)
            .unwrap()
            .permute(&[1, 0])
            .unwrap();
        b.bench_local(|| black_box(&x).add(black_box(&y)).unwrap());
    }

    #[divan::bench]
    fn strideweave_into(b: Bencher) {
        let x = Tensor::arange::<f32>(&sq());
        let y = Tensor::arange::<f32>(&sq())
            .mul_scalar(0.5f32)
            .unwrap()
            .permute(&[1, 0])
            .unwrap();
        let out = Tensor::zeros::<f32>(&sq());
        b.bench_local(|| black_box(&x).add_into(black_box(&y), &out).unwrap());
    }

    #[divan::bench]
    fn ndarray_fresh(b: Bencher) {
        let (x, y) = arrays();
        b.bench_local(|| black_box(&x) + &black_box(&y).t());
    }

    #[divan::bench]
    fn ndarray_zip_into(b: Bencher) {
        let (x, y) = arrays();
        let mut out = Array2::<f32>::zeros((N, N));
        b.bench_local(|| {
            Zip::from(&mut out)
                .and(black_box(&x))
                .and(black_box(&y).t())
                .for_each(|z, &p, &q| *z = p + q)
        });
    }

    #[divan::bench]
    fn hand_blocked_fresh(b: Bencher) {
        let (x, y) = vecs();
        b.bench_local(|| {
            let mut out = vec![0f32; N * N];
            hand_add_transposed(black_box(&x), black_box(&y), &mut out, N);
            out
        });
    }

    #[divan::bench]
    fn hand_blocked_into(b: Bencher) {
        let (x, y) = vecs();
        let mut out = vec![0f32; N * N];
        b.bench_local(|| hand_add_transposed(black_box(&x), black_box(&y), &mut out, N));
    }
}

/// Matrix products of f32 and f64 operands, compact, transposed (a permuted view) or a
/// step-2 slice of a twice larger matrix, against `matrixmultiply` with the same strides
/// writing the same compact (column-major) output.
mod matmul {
    use super::*;
    use std::any::TypeId;
    use std::sync::Mutex;

    /// (m, k, n): a square product and a non-square one.
    const DIMS: [(usize, usize, usize); 2] = [(512, 512, 512), (384, 640, 256)];
    const LAYOUTS: [&str; 3] = ["compact", "transposed", "sliced"];

    /// A `rows × cols` f32/f64 tensor placed by `how`, and its (offset-free) row and column
    /// strides and carrier values.
    fn operand<T: strideweave::Element + Copy>(
        rows: usize,
        cols: usize,
        how: &str,
        value: impl Fn(usize) -> T,
    ) -> (Tensor, isize, isize, Vec<T>) {
        match how {
            "compact" => {
                let v: Vec<T> = (0..rows * cols).map(&value).collect();
                let t = Tensor::from_vec(v.clone(), &shape(&format!("({rows},{cols})")));
                (t.unwrap(), 1, rows as isize, v)
            }
            "transposed" => {
                let v: Vec<T> = (0..rows * cols).map(&value).collect();
                let t = Tensor::from_vec(v.clone(), &shape(&format!("({cols},{rows})")));
                (t.unwrap().permute(&[1, 0]).unwrap(), cols as isize, 1, v)
            }
            _ => {
                let (r2, c2) = (2 * rows, 2 * cols);
                let v: Vec<T> = (0..r2 * c2).map(&value).collect();
                let t = Tensor::from_vec(v.clone(), &shape(&format!("({r2},{c2})"))).unwrap();
                let two = Key::slice(None, None, Some(2));
                (t.slice(&[two, two]).unwrap(), 2, 2 * r2 as isize, v)
            }
        }
    }

    /// One product's operands (with their row and column strides) and result tensor.
    type Case = ((Tensor, isize, isize), (Tensor, isize, isize), Tensor);

    /// The operands and result of the product `(dims, how)` of `T`s, built on first use and
    /// then shared by both sides of the comparison, so that both run on the same buffers:
    /// the alignment of a buffer to cache lines varies between allocations and moved one
    /// side's time by up to 7% when each side had buffers of its own.
    fn case<T: strideweave::Element + Copy + 'static>(
        (dims, how): (usize, usize),
        value: fn(usize, bool) -> T,
    ) -> Case {
        /// The cases built so far, by element type, size and layout.
        type Cases = Vec<((TypeId, usize, usize), Case)>;
        static CASES: Mutex<Cases> = Mutex::new(Vec::new());
        let key = (TypeId::of::<T>(), dims, how);
        let mut cases = CASES.lock().unwrap();
        if let Some((_, c)) = cases.iter().find(|(k, _)| *k == key) {
            return c.clone();
        }
        let (m, k, n) = DIMS[dims];
        let (x, rsa, csa, _) = operand::<T>(m, k, LAYOUTS[how], |i| value(i, true));
        let (y, rsb, csb, _) = operand::<T>(k, n, LAYOUTS[how], |i| value(i, false));
        let out = Tensor::zeros::<T>(&shape(&format!("({m},{n})")));
        let c = ((x, rsa, csa), (y, rsb, csb), out);
        cases.push((key, c.clone()));
        c
    }

    macro_rules! gemm_benches {
        ($t:ty, $gemm:path, $sw:ident, $mm:ident) => {
            #[divan::bench(args = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)])]
            fn $sw(b: Bencher, arg: (usize, usize)) {
                let ((x, ..), (y, ..), out) =
                    case::<$t>(arg, |i, a| (i % if a { 7 } else { 5 }) as $t);
                b.bench_local(|| black_box(&x).matmul_into(black_box(&y), &out).unwrap());
            }

            /// The same product by one direct `matrixmultiply` call on the same buffers
            /// ([`case`]): the two sides differ only in the code between the call and the
            /// kernel.
            #[divan::bench(args = [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)])]
            #[allow(unsafe_code)]
            fn $mm(b: Bencher, arg: (usize, usize)) {
                let (m, k, n) = DIMS[arg.0];
                let ((x, rsa, csa), (y, rsb, csb), out) =
                    case::<$t>(arg, |i, a| (i % if a { 7 } else { 5 }) as $t);
                let (ox, oy) = (x.offset(), y.offset());
                b.bench_local(|| {
                    x.carrier()
                        .read::<$t, _>(|xs| {
                            y.carrier().read::<$t, _>(|ys| {
                                out.carrier().write::<$t, _>(|cs| {
                                    let (ra, ca) = (rsa as usize, csa as usize);
                                    assert!(
                                        cs.len() == m * n
                                            && ox + (m - 1) * ra + (k - 1) * ca < xs.len()
                                    );
                                    let (rb, cb) = (rsb as usize, csb as usize);
                                    assert!(oy + (k - 1) * rb + (n - 1) * cb < ys.len());
                                    // SAFETY: the asserts above place every index
                                    // `o + i·rs + j·cs` the kernel reads inside `xs`/`ys`
                                    // (positive strides), and `cs` holds exactly m·n
                                    // elements with strides (1, m).
                                    unsafe {
                                        $gemm(
                                            m,
                                            k,
                                            n,
                                            1.0,
                                            black_box(xs.as_ptr().add(ox)),
                                            rsa,
                                            csa,
                                            black_box(ys.as_ptr().add(oy)),
                                            rsb,
                                            csb,
                                            0.0,
                                            cs.as_mut_ptr(),
                                            1,
                                            m as isize,
                                        )
                                    }
                                })
                            })
                        })
                        .unwrap()
                        .unwrap()
                        .unwrap()
                });
            }
        };
    }

    gemm_benches!(
        f32,
        matrixmultiply::sgemm,
        strideweave_f32,
        matrixmultiply_f32
    );
    gemm_benches!(
        f64,
        matrixmultiply::dgemm,
        strideweave_f64,
        matrixmultiply_f64
    );
}
