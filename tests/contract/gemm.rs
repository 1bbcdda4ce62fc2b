//! Issue 27 item 2: matmul on the gemm kernel reads any operand placement in place —
//! transposed, sliced, reversed (negative strides), broadcast (stride 0) — at small odd sizes,
//! for every element type (f32, f64, c32, c64 on the kernel; integers on the loop), into fresh
//! results and into destinations at their own strides; and two threads give the bits of one.

use strideweave::{Complex32, Complex64, Element, Key, Tensor};

/// How an operand is placed.
const PLACES: [&str; 6] = [
    "compact",
    "transposed",
    "sliced",
    "reversed",
    "reversed rows",
    "broadcast",
];

/// A `rows × cols` matrix whose element `(i, j)` is `conv(val(i, j))`, placed by `how`, and
/// its values `val(i, j)` first mode fastest (a broadcast repeats row 0).
fn place<T: Element>(
    how: &str,
    (rows, cols): (usize, usize),
    val: &dyn Fn(usize, usize) -> i64,
    conv: fn(i64) -> T,
) -> (Tensor, Vec<i64>) {
    let shape = |r: usize, c: usize| format!("({r},{c})").parse().unwrap();
    let col_major = |r: usize, c: usize, f: &dyn Fn(usize, usize) -> i64| -> Vec<i64> {
        (0..r * c).map(|x| f(x % r, x / r)).collect()
    };
    let from =
        |v: Vec<i64>, r, c| Tensor::from_vec(v.into_iter().map(conv).collect(), &shape(r, c));
    let val = |i, j| {
        if how == "broadcast" {
            val(0, j)
        } else {
            val(i, j)
        }
    };
    let t = match how {
        "compact" => from(col_major(rows, cols, &val), rows, cols).unwrap(),
        "transposed" => from(col_major(cols, rows, &|j, i| val(i, j)), cols, rows)
            .unwrap()
            .permute(&[1, 0])
            .unwrap(),
        "sliced" => {
            // Every other row and column of a 2r×2c matrix, its other elements 99.
            let big = |i: usize, j: usize| {
                if i % 2 + j % 2 == 0 {
                    val(i / 2, j / 2)
                } else {
                    99
                }
            };
            let two = Key::slice(None, None, Some(2));
            from(col_major(2 * rows, 2 * cols, &big), 2 * rows, 2 * cols)
                .unwrap()
                .slice(&[two, two])
                .unwrap()
        }
        "reversed" => from(
            col_major(rows, cols, &|i, j| val(rows - 1 - i, cols - 1 - j)),
            rows,
            cols,
        )
        .unwrap()
        .reverse(0)
        .unwrap()
        .reverse(1)
        .unwrap(),
        "reversed rows" => from(
            col_major(cols, rows, &|j, i| val(rows - 1 - i, j)),
            cols,
            rows,
        )
        .unwrap()
        .permute(&[1, 0])
        .unwrap()
        .reverse(0)
        .unwrap(),
        _ => from(col_major(1, cols, &val), 1, cols)
            .unwrap()
            .broadcast_to(&shape(rows, cols))
            .unwrap(),
    };
    (t, col_major(rows, cols, &val))
}

/// The product of two column-major value matrices.
fn naive((m, k, n): (usize, usize, usize), a: &[i64], b: &[i64]) -> Vec<i64> {
    let mut c = vec![0; m * n];
    for j in 0..n {
        for p in 0..k {
            for i in 0..m {
                c[i + j * m] += a[i + p * m] * b[p + j * k];
            }
        }
    }
    c
}

/// Every placement pair at odd sizes: `matmul` and, where `into` (floating and complex
/// types), `matmul_into` (a transposed and a reversed destination) give `out(naive)` exactly.
fn check<T: Element + PartialEq + std::fmt::Debug>(
    conv: fn(i64) -> T,
    out: fn(i64) -> T,
    into: bool,
) {
    let va = |i: usize, j: usize| ((i * 3 + j * 5) % 7) as i64 - 3;
    let vb = |i: usize, j: usize| ((i * 2 + j * 7) % 5) as i64 - 2;
    for dims @ (m, k, n) in [(1, 1, 1), (3, 5, 7), (17, 2, 9), (33, 19, 31)] {
        for ha in PLACES {
            for hb in PLACES {
                let (a, xa) = place(ha, (m, k), &va, conv);
                let (b, xb) = place(hb, (k, n), &vb, conv);
                let want: Vec<T> = naive(dims, &xa, &xb).into_iter().map(out).collect();
                let got = a.matmul(&b).unwrap().to_vec::<T>().unwrap();
                assert_eq!(got, want, "{m}×{k}×{n}, A {ha}, B {hb}");
                if into && ha == hb {
                    for hc in ["transposed", "reversed"] {
                        let (c, _) = place(hc, (m, n), &|_, _| 0, conv);
                        a.matmul_into(&b, &c).unwrap();
                        assert_eq!(c.to_vec::<T>().unwrap(), want, "into {hc}: {ha}");
                    }
                }
            }
        }
    }
}

#[test]
fn matmul_reads_transposed_sliced_reversed_and_broadcast_operands_of_every_type_in_place() {
    check::<f64>(|x| x as f64, |x| x as f64, true);
    check::<f32>(|x| x as f32, |x| x as f32, true);
    // (x − xi)(y − yi) = −2xy·i: real and imaginary parts both take part.
    check::<Complex64>(
        |x| Complex64::new(x as f64, -x as f64),
        |x| Complex64::new(0.0, -2.0 * x as f64),
        true,
    );
    check::<Complex32>(
        |x| Complex32::new(x as f32, -x as f32),
        |x| Complex32::new(0.0, -2.0 * x as f32),
        true,
    );
    check::<i32>(|x| x as i32, |x| x as i32, false);
    // u8 wraps: the sum modulo 256 is the sum of the residues.
    check::<u8>(|x| x as u8, |x| x as u8, false);
}

#[test]
fn batched_matmul_and_einsum_of_complex_and_transposed_operands_run_the_gemm_path() {
    // (b, m, k) · (b, k, n) with a transposed in its last two modes; einsum with the batch
    // last in the operands: each batch index's product equals the naive one.
    let (bs, m, k, n) = (3, 5, 4, 6);
    let z = |x: i64| Complex64::new(x as f64, 1.0);
    let av: Vec<Complex64> = (0..bs * m * k).map(|x| z((x % 7) as i64 - 3)).collect();
    let bv: Vec<Complex64> = (0..bs * k * n).map(|x| z((x % 5) as i64 - 2)).collect();
    let a = Tensor::from_vec(av.clone(), &format!("({bs},{k},{m})").parse().unwrap())
        .unwrap()
        .permute(&[0, 2, 1])
        .unwrap();
    let b = Tensor::from_vec(bv.clone(), &format!("({bs},{k},{n})").parse().unwrap()).unwrap();
    let c = a.matmul(&b).unwrap().to_vec::<Complex64>().unwrap();
    let e = Tensor::einsum("b i k, b k j -> i j b", &[&a, &b])
        .unwrap()
        .to_vec::<Complex64>()
        .unwrap();
    for q in 0..bs {
        for i in 0..m {
            for j in 0..n {
                let mut s = Complex64::new(0.0, 0.0);
                for p in 0..k {
                    s += av[q + bs * (p + k * i)] * bv[q + bs * (p + k * j)];
                }
                assert_eq!(c[q + bs * (i + m * j)], s, "matmul {q} {i} {j}");
                assert_eq!(e[i + m * (j + n * q)], s, "einsum {q} {i} {j}");
            }
        }
    }
}

#[test]
fn matmul_on_two_threads_is_bit_identical_to_one_thread() {
    // Above the parallel threshold (2^21 multiply-adds) with values that round.
    let (m, k, n) = (130, 300, 70);
    let v = |len: usize, s: f64| -> Vec<f64> {
        (0..len)
            .map(|i| ((i as f64 * s).fract() - 0.5) * 3.0)
            .collect()
    };
    let a = Tensor::from_vec(v(m * k, 0.618), &format!("({k},{m})").parse().unwrap())
        .unwrap()
        .permute(&[1, 0])
        .unwrap();
    let b = Tensor::from_vec(v(k * n, 0.414), &format!("({k},{n})").parse().unwrap()).unwrap();
    let on = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| a.matmul(&b).unwrap().to_vec::<f64>().unwrap())
    };
    let (one, two) = (on(1), on(2));
    assert!(
        one.iter()
            .zip(&two)
            .all(|(x, y)| x.to_bits() == y.to_bits())
    );
    assert!(one.iter().any(|x| x.fract() != 0.0), "the values round");
}
