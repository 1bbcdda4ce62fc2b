//! Matrix products (divan), side by side in one run: `Tensor::matmul_into` against the same
//! product by one direct call of the `gemm` crate (StrideWeave's kernel, so the difference
//! is StrideWeave's own cost) and of `matrixmultiply` (the kernel before), on the same
//! buffers at the same strides, writing the same compact (column-major) result.
//!
//! Run with `cargo bench -p strideweave --bench matmul`; not part of the test command.
//! `RAYON_NUM_THREADS=1` for one thread; unset (or 2) for both cores: StrideWeave and the
//! direct `gemm` call then run on rayon's pool (matrixmultiply is built without threads and
//! stays on one). Cases: square 512³ and 1024³ and the non-square 384×640×256, operands
//! compact (`A·B`), the left transposed (`Aᵀ·B`, a permuted view), the right transposed
//! (`A·Bᵀ`) or both every other row and column of a twice larger matrix (`sliced`).
//!
//! The yardstick is numpy's OpenBLAS (0.3.31, `np.matmul(x, y, out=out)` on C-ordered
//! arrays and their `.T` views — the same problems transposed), measured outside the
//! repository in rounds alternated with this bench on a quiet host. One thread, GFLOP/s from
//! the wall-clock minimum over five rounds (two threads: docs/performance.md); SW / numpy:
//!
//! | case | SW | gemm direct | numpy | SW / numpy |
//! | --- | --- | --- | --- | --- |
//! | f32 512 A·B / Aᵀ·B / A·Bᵀ | 166 / 154 / 153 | 167 / 154 / 149 | 155 / 153 / 149 | 1.07 / 1.01 / 1.03 |
//! | f64 512 A·B / Aᵀ·B / A·Bᵀ | 81 / 80 / 76 | 82 / 80 / 75 | 70 / 69 / 71 | 1.16 / 1.16 / 1.07 |
//! | f32 1024 A·B / Aᵀ·B / A·Bᵀ | 165 / 155 / 155 | 165 / 157 / 156 | 155 / 152 / 154 | 1.06 / 1.02 / 1.01 |
//! | f64 1024 A·B / Aᵀ·B / A·Bᵀ | 80 / 80 / 77 | 80 / 80 / 77 | 74 / 73 / 74 | 1.08 / 1.10 / 1.04 |

use divan::{Bencher, black_box};
use std::any::TypeId;
use std::sync::Mutex;
use strideweave::{Key, Shape, Tensor};

fn main() {
    divan::Divan::default()
        .sample_count(12)
        .sample_size(1)
        .config_with_args()
        .main();
}

fn shape(text: &str) -> Shape {
    text.parse().unwrap()
}

/// (m, k, n) of each size argument.
const DIMS: [(usize, usize, usize); 3] = [(512, 512, 512), (1024, 1024, 1024), (384, 640, 256)];
/// How both operands are placed, by layout argument: `A·B`, `Aᵀ·B`, `A·Bᵀ`, sliced.
const LAYOUTS: [(&str, &str); 4] = [
    ("compact", "compact"),
    ("transposed", "compact"),
    ("compact", "transposed"),
    ("sliced", "sliced"),
];
/// The (size, layout) cases each function runs.
const ARGS: [(usize, usize); 10] = [
    (0, 0),
    (0, 1),
    (0, 2),
    (0, 3),
    (1, 0),
    (1, 1),
    (1, 2),
    (2, 0),
    (2, 1),
    (2, 3),
];

/// A `rows × cols` tensor placed by `how`, and its (offset-free) row and column strides.
fn operand<T: strideweave::Element + Copy>(
    rows: usize,
    cols: usize,
    how: &str,
    value: impl Fn(usize) -> T,
) -> (Tensor, isize, isize) {
    match how {
        "compact" => {
            let v: Vec<T> = (0..rows * cols).map(&value).collect();
            let t = Tensor::from_vec(v, &shape(&format!("({rows},{cols})")));
            (t.unwrap(), 1, rows as isize)
        }
        "transposed" => {
            let v: Vec<T> = (0..rows * cols).map(&value).collect();
            let t = Tensor::from_vec(v, &shape(&format!("({cols},{rows})")));
            (t.unwrap().permute(&[1, 0]).unwrap(), cols as isize, 1)
        }
        _ => {
            let (r2, c2) = (2 * rows, 2 * cols);
            let v: Vec<T> = (0..r2 * c2).map(&value).collect();
            let t = Tensor::from_vec(v, &shape(&format!("({r2},{c2})"))).unwrap();
            let two = Key::slice(None, None, Some(2));
            (t.slice(&[two, two]).unwrap(), 2, 2 * r2 as isize)
        }
    }
}

/// One product's operands (with their row and column strides) and result tensor.
type Case = ((Tensor, isize, isize), (Tensor, isize, isize), Tensor);

/// The operands and result of the product `(size, layout)` of `T`s, built on first use and
/// then shared by every side of the comparison, so that all run on the same buffers: the
/// alignment of a buffer to cache lines varies between allocations and moved one side's
/// time by up to 7% when each side had buffers of its own.
fn case<T: strideweave::Element + Copy + Small + 'static>((size, how): (usize, usize)) -> Case {
    /// The cases built so far, by element type, size and layout.
    type Cases = Vec<((TypeId, usize, usize), Case)>;
    static CASES: Mutex<Cases> = Mutex::new(Vec::new());
    let key = (TypeId::of::<T>(), size, how);
    let mut cases = CASES.lock().unwrap();
    if let Some((_, c)) = cases.iter().find(|(k, _)| *k == key) {
        return c.clone();
    }
    let (m, k, n) = DIMS[size];
    let (ha, hb) = LAYOUTS[how];
    let (x, rsa, csa) = operand::<T>(m, k, ha, |i| T::from_small(i % 7));
    let (y, rsb, csb) = operand::<T>(k, n, hb, |i| T::from_small(i % 5));
    let out = Tensor::zeros::<T>(&shape(&format!("({m},{n})")));
    let c = ((x, rsa, csa), (y, rsb, csb), out);
    cases.push((key, c.clone()));
    c
}

/// Small integers as an element type.
trait Small {
    fn from_small(i: usize) -> Self;
}
impl Small for f32 {
    fn from_small(i: usize) -> Self {
        i as f32
    }
}
impl Small for f64 {
    fn from_small(i: usize) -> Self {
        i as f64
    }
}

/// Runs `f` on the operands' and result's storage (offsets applied by `f`).
fn with_storage<T: strideweave::Element + Copy + 'static>(
    (x, y, out): (&Tensor, &Tensor, &Tensor),
    f: impl Fn(&[T], &[T], &mut [T]),
) {
    x.carrier()
        .read::<T, _>(|xs| {
            y.carrier()
                .read::<T, _>(|ys| out.carrier().write::<T, _>(|cs| f(xs, ys, cs)))
        })
        .unwrap()
        .unwrap()
        .unwrap();
}

macro_rules! gemm_benches {
    ($t:ty, $mm:path, $sw:ident, $gemm:ident, $mmname:ident) => {
        /// `matmul_into` a compact result.
        #[divan::bench(args = ARGS)]
        fn $sw(b: Bencher, arg: (usize, usize)) {
            let ((x, ..), (y, ..), out) = case::<$t>(arg);
            b.bench_local(|| black_box(&x).matmul_into(black_box(&y), &out).unwrap());
        }

        /// The same product by one direct `gemm::gemm` call on the same buffers ([`case`]),
        /// on rayon's pool (as StrideWeave above its threshold, which every case passes).
        #[divan::bench(args = ARGS)]
        #[allow(unsafe_code)]
        fn $gemm(b: Bencher, arg: (usize, usize)) {
            let (m, k, n) = DIMS[arg.0];
            let ((x, rsa, csa), (y, rsb, csb), out) = case::<$t>(arg);
            let (ox, oy) = (x.offset(), y.offset());
            b.bench_local(|| {
                with_storage::<$t>((&x, &y, &out), |xs, ys, cs| {
                    let (ra, ca, rb, cb) = (rsa as usize, csa as usize, rsb as usize, csb as usize);
                    assert!(cs.len() == m * n && ox + (m - 1) * ra + (k - 1) * ca < xs.len());
                    assert!(oy + (k - 1) * rb + (n - 1) * cb < ys.len());
                    // SAFETY: the asserts above place every index `o + i·rs + j·cs` the
                    // kernel reads inside `xs`/`ys` (positive strides), and `cs` holds
                    // exactly m·n elements with strides (1, m), written only.
                    unsafe {
                        gemm::gemm(
                            m,
                            n,
                            k,
                            cs.as_mut_ptr(),
                            m as isize,
                            1,
                            false,
                            black_box(xs.as_ptr().add(ox)),
                            csa,
                            rsa,
                            black_box(ys.as_ptr().add(oy)),
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
                })
            });
        }

        /// The same product by one direct `matrixmultiply` call (its AVX-512 kernels, one
        /// thread).
        #[divan::bench(args = ARGS)]
        #[allow(unsafe_code)]
        fn $mmname(b: Bencher, arg: (usize, usize)) {
            let (m, k, n) = DIMS[arg.0];
            let ((x, rsa, csa), (y, rsb, csb), out) = case::<$t>(arg);
            let (ox, oy) = (x.offset(), y.offset());
            b.bench_local(|| {
                with_storage::<$t>((&x, &y, &out), |xs, ys, cs| {
                    let (ra, ca, rb, cb) = (rsa as usize, csa as usize, rsb as usize, csb as usize);
                    assert!(cs.len() == m * n && ox + (m - 1) * ra + (k - 1) * ca < xs.len());
                    assert!(oy + (k - 1) * rb + (n - 1) * cb < ys.len());
                    // SAFETY: as above.
                    unsafe {
                        $mm(
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
            });
        }
    };
}

gemm_benches!(
    f32,
    matrixmultiply::sgemm,
    strideweave_f32,
    gemm_f32,
    matrixmultiply_f32
);
gemm_benches!(
    f64,
    matrixmultiply::dgemm,
    strideweave_f64,
    gemm_f64,
    matrixmultiply_f64
);
