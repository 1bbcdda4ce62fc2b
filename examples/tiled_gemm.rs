//! A CPU GEMM written as CuTe writes a GPU one (`0x_gemm_tutorial`'s `sgemm_1`): the
//! matrices are tiled into blocks with `local_tile`, each block's elements are partitioned
//! over a 16×16 grid of logical threads with `local_partition`, and each thread accumulates
//! its 8×8 piece of C over the k-tiles. Blocks run in parallel on rayon; a block's threads
//! run one after another, k-tile by k-tile (each k-tile staged first, as CuTe copies it to
//! shared memory), as a GPU block's warps step through the main loop together. The result
//! is checked against `matmul`, and both are timed.
//!
//! `cargo run --release --example tiled_gemm [m n k]` (m and n multiples of 128, k of 8;
//! 512 each by default, 256 in an unoptimised build, which also times each kernel once)
//!
//! The views do the index math: the kernel reads each matrix's storage (one typed view) at
//! each partition's offset and strides, as a CuTe kernel reads memory through a tensor's
//! layout. The kernel is plain Rust without packing or SIMD intrinsics, so `matmul` (which
//! packs and uses the CPU's vector units) is several times faster; the example shows the
//! structure, not a competing kernel.

use std::time::Instant;

use rayon::prelude::*;
use strideweave::{IntTuple, Layout, Result, Shape, Tensor, Tiler};

/// The block tile: 128×128 of C, 8 deep in k.
const BM: i64 = 128;
const BN: i64 = 128;
const BK: i64 = 8;
/// Each of the 16×16 threads holds an 8×8 piece of the block of C.
const TM: usize = 8;
const TN: usize = 8;

/// An unoptimised build (`cargo run` without `--release`) is over 100 times slower: it
/// multiplies 256×256 matrices by default and times each kernel once, so that it still
/// finishes in seconds.
const DEV: bool = cfg!(debug_assertions);

fn parse_args(args: &[String]) -> (i64, i64, i64) {
    let v: Vec<i64> = args.iter().filter_map(|a| a.parse().ok()).collect();
    match v[..] {
        [m, n, k] if m % BM == 0 && n % BN == 0 && k % BK == 0 => (m, n, k),
        _ if DEV => (256, 256, 256),
        _ => (512, 512, 512),
    }
}

/// Deterministic values in (-1, 1).
fn values(seed: u64, n: usize) -> Vec<f32> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((s >> 40) as f32 / (1u64 << 24) as f32) * 2.0 - 1.0
        })
        .collect()
}

fn shape(s: &str) -> Result<Shape> {
    s.parse()
}

/// The 16×16 threads, column-major (CuTe's `tC`).
fn threads() -> Result<Layout> {
    "(16,16):(1,16)".parse()
}

/// For each thread, the ordinals of its `(TM, TN)` piece of a block of C:
/// `local_partition(gC, tC, thread)` of the block's ordinals (the same in every block).
fn pieces_of_c() -> Result<Vec<Vec<usize>>> {
    let block_c = Tensor::arange::<f32>(&shape(&format!("({BM},{BN})"))?);
    let t_c = threads()?;
    (0..t_c.size())
        .map(|thread| {
            let piece = block_c.local_partition(&t_c, thread)?.to_vec::<f32>()?;
            Ok(piece.into_iter().map(|o| o as usize).collect())
        })
        .collect()
}

/// The block of C at `(bm, bn)`: `C = A · Bᵀ` with A `(m, k)` and B `(n, k)`, both
/// column-major, as the tutorial's `gemm_nt`. Returns the block's elements column-major.
fn block(a: &Tensor, b: &Tensor, bm: i64, bn: i64, pieces: &[Vec<usize>]) -> Result<Vec<f32>> {
    // gA = local_tile(mA, (BM,BK), (bm, _)): (BM, BK, k-tiles), likewise gB.
    let g_a = a.local_tile(
        &Tiler::from(&shape(&format!("({BM},{BK})"))?),
        &IntTuple::tuple([IntTuple::int(bm)]),
    )?;
    let g_b = b.local_tile(
        &Tiler::from(&shape(&format!("({BN},{BK})"))?),
        &IntTuple::tuple([IntTuple::int(bn)]),
    )?;
    // A thread at (tr, tc) of tC owns rows tr, tr+16, … of the block of A (CuTe's
    // Step<_1, X> projection of tC) and rows tc, tc+16, … of the block of B: 16 distinct
    // pieces of each, (TM, BK, k-tiles) and (TN, BK, k-tiles).
    let rows: Layout = "(16,1):(1,16)".parse()?;
    let part = |g: &Tensor| {
        (0..16)
            .map(|r| g.local_partition(&rows, r))
            .collect::<Result<Vec<_>>>()
    };
    let (parts_a, parts_b) = (part(&g_a)?, part(&g_b)?);
    // The kernel reads each carrier through one typed view (its host storage) and each
    // piece's offset and strides, as a CuTe kernel reads memory through a tensor's layout.
    let (view_a, view_b) = (a.typed_view::<f32>()?, b.typed_view::<f32>()?);
    let (data_a, data_b) = (view_a.view().host_storage()?, view_b.view().host_storage()?);
    let (pieces_a, pieces_b) = (
        parts_a.iter().map(Piece::of).collect::<Vec<_>>(),
        parts_b.iter().map(Piece::of).collect::<Vec<_>>(),
    );
    let t_c = threads()?;
    let coords = (0..t_c.size())
        .map(|thread| {
            let at = t_c.flat_coordinate(thread as i64)?;
            let coord = |i| at.get(i).and_then(|c| c.as_int()).unwrap_or(0) as usize;
            Ok((coord(0), coord(1)))
        })
        .collect::<Result<Vec<_>>>()?;
    // The main loop over k-tiles, as on a GPU: each k-tile of every piece is first staged
    // (CuTe's copy to shared memory), then every thread accumulates its contribution into
    // its registers (here, its slot of `acc`).
    let mut acc = vec![[[0f32; TM]; TN]; coords.len()];
    let mut staged_a = vec![[[0f32; TM]; BK as usize]; pieces_a.len()];
    let mut staged_b = vec![[[0f32; TN]; BK as usize]; pieces_b.len()];
    let tiles = pieces_a[0].depth / BK as usize;
    for kt in 0..tiles {
        for (stage, piece) in staged_a.iter_mut().zip(&pieces_a) {
            piece.stage(data_a, kt, stage);
        }
        for (stage, piece) in staged_b.iter_mut().zip(&pieces_b) {
            piece.stage(data_b, kt, stage);
        }
        for (slot, &(tr, tc)) in acc.iter_mut().zip(&coords) {
            micro_kernel(&staged_a[tr], &staged_b[tc], slot);
        }
    }
    let mut out = vec![0f32; (BM * BN) as usize];
    for (slot, piece) in acc.iter().zip(pieces) {
        for (value, &at) in slot.iter().flatten().zip(piece) {
            out[at] = *value;
        }
    }
    Ok(out)
}

/// Where a thread's `(rows, BK, k-tiles)` piece of A or B lies in its carrier: the view's
/// offset, its three strides and its depth (`BK` × k-tiles).
struct Piece {
    offset: usize,
    strides: [isize; 3],
    depth: usize,
}

impl Piece {
    fn of(t: &Tensor) -> Piece {
        let (s, d) = (t.shape().leaves(), t.layout().stride().leaves());
        Piece {
            offset: t.offset(),
            strides: [d[0] as isize, d[1] as isize, d[2] as isize],
            depth: (s[1] * s[2]) as usize,
        }
    }
}

impl Piece {
    /// Copies k-tile `kt` of the piece (`(rows, BK)`, read at its strides) into `stage`,
    /// `k` slowest.
    fn stage<const R: usize>(&self, data: &[f32], kt: usize, stage: &mut [[f32; R]; BK as usize]) {
        let s = self.strides;
        for (k, column) in stage.iter_mut().enumerate() {
            let base = self.offset as isize + k as isize * s[1] + kt as isize * s[2];
            for (i, v) in column.iter_mut().enumerate() {
                *v = data[(base + i as isize * s[0]) as usize];
            }
        }
    }
}

/// `acc[j][i] += Σ_k A(i, k) B(j, k)` over one staged k-tile of a thread's pieces of A and
/// B (column-major `acc`: `i` fastest).
fn micro_kernel(
    a: &[[f32; TM]; BK as usize],
    b: &[[f32; TN]; BK as usize],
    acc: &mut [[f32; TM]; TN],
) {
    // One column of `acc` at a time stays in registers across the k-tile.
    for (j, column) in acc.iter_mut().enumerate() {
        let mut c = *column;
        for (av, bv) in a.iter().zip(b) {
            for (ci, &ai) in c.iter_mut().zip(av) {
                *ci += ai * bv[j];
            }
        }
        *column = c;
    }
}

/// C `(m, n)` by blocks in parallel, written back through `local_tile` views of C.
fn tiled_gemm(a: &Tensor, b: &Tensor, c: &Tensor) -> Result<()> {
    let (m, n) = (
        a.shape().mode(0).map_or(0, |s| s.size()) as i64,
        b.shape().mode(0).map_or(0, |s| s.size()) as i64,
    );
    let blocks: Vec<(i64, i64)> = (0..n / BN)
        .flat_map(|bn| (0..m / BM).map(move |bm| (bm, bn)))
        .collect();
    let pieces = pieces_of_c()?;
    let tiles: Vec<Vec<f32>> = blocks
        .par_iter()
        .map(|&(bm, bn)| block(a, b, bm, bn, &pieces))
        .collect::<Result<_>>()?;
    let tile_shape = shape(&format!("({BM},{BN})"))?;
    for ((bm, bn), tile) in blocks.into_iter().zip(tiles) {
        let g_c = c.local_tile(&Tiler::from(&tile_shape), &IntTuple::from([bm, bn]))?;
        g_c.copy_from(&Tensor::from_vec(tile, &tile_shape)?)?;
    }
    Ok(())
}

/// The best of `runs` timings of `f`, in milliseconds.
fn best_ms(runs: usize, mut f: impl FnMut() -> Result<()>) -> Result<f64> {
    let mut best = f64::INFINITY;
    for _ in 0..runs {
        let t = Instant::now();
        f()?;
        best = best.min(t.elapsed().as_secs_f64() * 1e3);
    }
    Ok(best)
}

fn main() -> Result<()> {
    run(&std::env::args().skip(1).collect::<Vec<_>>())
}

/// The example with its command-line arguments (`[m n k]`).
pub fn run(args: &[String]) -> Result<()> {
    let (m, n, k) = parse_args(args);
    let a = Tensor::from_vec(values(1, (m * k) as usize), &shape(&format!("({m},{k})"))?)?;
    let b = Tensor::from_vec(values(2, (n * k) as usize), &shape(&format!("({n},{k})"))?)?;
    let c = Tensor::zeros::<f32>(&shape(&format!("({m},{n})"))?);

    tiled_gemm(&a, &b, &c)?;
    let reference = a.matmul(&b.permute(&[1, 0])?)?;
    let (got, want) = (c.to_vec::<f32>()?, reference.to_vec::<f32>()?);
    let err = got
        .iter()
        .zip(&want)
        .map(|(x, y)| (x - y).abs())
        .fold(0f32, f32::max);
    println!("C = A·Bᵀ, A ({m},{k}), B ({n},{k}): max |tiled − matmul| = {err:.2e}");
    assert!(
        err < 1e-3 * k as f32,
        "the tiled GEMM disagrees with matmul"
    );

    let flops = 2.0 * (m * n * k) as f64;
    let threads = rayon::current_num_threads();
    let runs = if DEV { 1 } else { 3 };
    let tiled = best_ms(runs, || tiled_gemm(&a, &b, &c))?;
    let one = rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build()
        .map_err(|e| strideweave::Error::Runtime {
            op: "tiled_gemm",
            detail: e.to_string(),
        })?
        .install(|| best_ms(runs, || tiled_gemm(&a, &b, &c)))?;
    let matmul = best_ms(runs, || a.matmul(&b.permute(&[1, 0])?).map(|_| ()))?;
    let gflops = |ms: f64| flops / ms / 1e6;
    println!(
        "tiled, {threads} threads: {tiled:8.2} ms ({:6.2} GFLOP/s)",
        gflops(tiled)
    );
    println!(
        "tiled, 1 thread:   {one:8.2} ms ({:6.2} GFLOP/s)",
        gflops(one)
    );
    println!(
        "matmul, 1 thread:  {matmul:8.2} ms ({:6.2} GFLOP/s)",
        gflops(matmul)
    );
    println!("tiled (1 thread) / matmul: {:.2}×", one / matmul);
    if DEV {
        println!("(an unoptimised build: time it with `cargo run --release --example tiled_gemm`)");
    }
    Ok(())
}
