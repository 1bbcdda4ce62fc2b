//! The vector unit the elementwise engine runs on, chosen at run time: the engine's loops
//! compiled once more inside `#[target_feature]` functions (AVX2, AVX-512), entered only
//! when the processor has the feature, and the portable loops otherwise.
//!
//! The detection runs once per process and is cached; a thread can force a narrower unit
//! (the tests run the portable path on every machine this way). The unit is read once per
//! engine call and passed down, so every part of one call (and every thread of a split one)
//! runs the same code. The wide variants are the same Rust loops as the portable ones, so
//! they compute the same elements from the same operands: results are bit-identical on
//! every path (only the instructions that move the values differ).
//!
//! A [`Path`] adds the copy engine's streaming rule: a call writing at least
//! [`STREAM_MIN_BYTES`] of a plain element type on a vector unit writes its contiguous runs
//! with streaming stores ([`super::stream`]) and ends with a store fence.

use std::any::TypeId;
use std::cell::Cell;
use std::marker::PhantomData;
use std::sync::atomic::{AtomicU8, Ordering};

use super::super::copy::path::{STREAM_MIN_BYTES, plain};
use super::super::plan::Mode;
use super::Tiles;

/// A vector unit the engine can run on, narrowest first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Isa {
    /// The loops as compiled for the target's baseline (SSE2 on x86-64): always available.
    Portable,
    /// The same loops compiled with AVX2 (8 lanes of f32), and AVX transposes of 8×8 blocks.
    Avx2,
    /// The same loops compiled with AVX-512 F/BW/VL/DQ (16 lanes of f32).
    Avx512,
}

/// The detected unit, plus one (0: not detected yet).
static DETECTED: AtomicU8 = AtomicU8::new(0);

thread_local! {
    /// A narrower unit this thread's engine calls use (tests of the portable path).
    static FORCED: Cell<Option<Isa>> = const { Cell::new(None) };
    /// A lower streaming threshold for this thread's engine calls (tests of the streaming
    /// paths on small buffers).
    static STREAM_MIN: Cell<Option<usize>> = const { Cell::new(None) };
}

/// The widest unit this processor has (detected once, then cached).
pub(crate) fn detected() -> Isa {
    match DETECTED.load(Ordering::Relaxed) {
        1 => Isa::Portable,
        2 => Isa::Avx2,
        3 => Isa::Avx512,
        _ => {
            let isa = detect();
            DETECTED.store(isa as u8 + 1, Ordering::Relaxed);
            isa
        }
    }
}

#[cfg(target_arch = "x86_64")]
fn detect() -> Isa {
    if std::arch::is_x86_feature_detected!("avx512f")
        && std::arch::is_x86_feature_detected!("avx512bw")
        && std::arch::is_x86_feature_detected!("avx512vl")
        && std::arch::is_x86_feature_detected!("avx512dq")
    {
        Isa::Avx512
    } else if std::arch::is_x86_feature_detected!("avx2") {
        Isa::Avx2
    } else {
        Isa::Portable
    }
}

#[cfg(not(target_arch = "x86_64"))]
fn detect() -> Isa {
    Isa::Portable
}

/// The unit this thread's engine calls run on: the detected one, or the narrower one a
/// test forced.
pub(crate) fn isa() -> Isa {
    let widest = detected();
    FORCED.with(Cell::get).map_or(widest, |f| f.min(widest))
}

/// Runs `f` with this thread's engine calls on `isa` (or the detected unit, if narrower).
#[cfg(test)]
pub(crate) fn with_isa<R>(isa: Isa, f: impl FnOnce() -> R) -> R {
    let before = FORCED.with(|c| c.replace(Some(isa)));
    let out = f();
    FORCED.with(|c| c.set(before));
    out
}

/// Runs `f` with this thread's engine calls streaming from `bytes` written on (instead of
/// [`STREAM_MIN_BYTES`]).
#[cfg(test)]
pub(crate) fn with_stream_min<R>(bytes: usize, f: impl FnOnce() -> R) -> R {
    let before = STREAM_MIN.with(|c| c.replace(Some(bytes)));
    let out = f();
    STREAM_MIN.with(|c| c.set(before));
    out
}

/// The kernels of one engine call writing `T`s: the unit, and whether the destination is
/// written with streaming stores. Made only by [`Path::new`], so a streaming path proves
/// that the unit is at least [`Isa::Avx2`] (so AVX is present) and that `T` is
/// [`plain`] (every byte of every value initialised): the streaming kernels rely on both.
pub(crate) struct Path<T> {
    isa: Isa,
    stream: bool,
    of: PhantomData<fn() -> T>,
}

impl<T> Clone for Path<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Path<T> {}

impl<T: 'static> Path<T> {
    /// The path of a call on this thread's unit ([`isa`]) writing `bytes` bytes: streaming
    /// from [`STREAM_MIN_BYTES`] on (the copy engine's threshold), on a vector unit, for a
    /// [`plain`] `T`.
    pub(crate) fn new(bytes: usize) -> Path<T> {
        let isa = isa();
        let least = STREAM_MIN.with(Cell::get).unwrap_or(STREAM_MIN_BYTES);
        Path {
            isa,
            stream: cfg!(target_arch = "x86_64")
                && isa >= Isa::Avx2
                && plain::<T>()
                && bytes >= least,
            of: PhantomData,
        }
    }
}

impl<T> Path<T> {
    /// Whether stores stream.
    #[cfg(test)]
    pub(crate) fn stream(self) -> bool {
        self.stream
    }
}

/// Orders this thread's streaming stores before whatever it does next (they are weakly
/// ordered): called once at the end of every call (every half of a split call) whose path
/// streams.
pub(super) fn fence<T>(path: Path<T>) {
    #[cfg(target_arch = "x86_64")]
    if path.stream {
        // SAFETY: SSE is part of the x86-64 baseline; `sfence` has no operands.
        #[allow(unsafe_code)]
        unsafe {
            std::arch::x86_64::_mm_sfence()
        };
    }
    let _ = path;
}

/// Runs shorter than this stay in the portable loop, inlined in the outer walk: a call into
/// a wide variant costs more than its lanes save on a short run.
const WIDE: i64 = 32;

/// One run of the innermost leaf (see [`super::run`]) on the path's unit, its whole lines
/// streamed when the path streams and the destination is contiguous.
#[inline(always)]
pub(super) fn run<A: Copy, B: Copy, T: Copy>(
    path: Path<T>,
    a: (&[A], i64),
    b: (&[B], i64),
    dst: (&mut [T], i64),
    m: Mode<2>,
    f: &impl Fn(A, B) -> T,
) {
    #[cfg(target_arch = "x86_64")]
    if m.e >= WIDE {
        if path.stream && m.d == 1 && m.e >= super::stream::LEAST {
            match path.isa {
                // SAFETY: a streaming path proves its unit detected (`Path::new` takes it
                // from `isa()`, never wider than `detected()`, which answers `Avx512` only
                // when the processor reports AVX-512 F, BW, VL and DQ, and `Avx2` only with
                // AVX2: the target features of the called function are present) and `T`
                // plain, the function's contract.
                #[allow(unsafe_code)]
                Isa::Avx512 => return unsafe { x86::stream_avx512(a, b, dst, m, f) },
                // SAFETY: as above.
                #[allow(unsafe_code)]
                Isa::Avx2 => return unsafe { x86::stream_avx2(a, b, dst, m, f) },
                Isa::Portable => {}
            }
        }
        match path.isa {
            // SAFETY: `path.isa` comes from `isa()`, which never answers a unit wider than
            // `detected()`, and `detect` answers `Avx512` only when the processor reports
            // AVX-512 F, BW, VL and DQ (and `Avx2` only with AVX2): the target features of
            // the called function are present. The function itself is safe code.
            #[allow(unsafe_code)]
            Isa::Avx512 => return unsafe { x86::run_avx512(a, b, dst, m, f) },
            // SAFETY: as above, `Avx2` is answered only when the processor reports AVX2.
            #[allow(unsafe_code)]
            Isa::Avx2 => return unsafe { x86::run_avx2(a, b, dst, m, f) },
            Isa::Portable => {}
        }
    }
    let _ = path;
    super::run(a, b, dst, m, f);
}

/// One block of the tiled kernel (see [`Tiles::blocked`]) on the path's unit: the fused
/// kernel ([`super::fused`]) when a transposed operand is a plain 4-byte type on a vector
/// unit, the buffered one otherwise; tiles are never streamed (see [`super::fused`]).
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(super) fn blocked<A: Copy + 'static, B: Copy + 'static, T: Copy>(
    path: Path<T>,
    tiles: &mut Tiles<A, B>,
    a: (&[A], i64),
    b: (&[B], i64),
    dst: (&mut [T], i64),
    inner: Mode<2>,
    pair: Mode<2>,
    f: &impl Fn(A, B) -> T,
) {
    #[cfg(target_arch = "x86_64")]
    if path.isa >= Isa::Avx2 && super::fused::applies::<A, B>(inner, pair) {
        match path.isa {
            // SAFETY: as in `run`: the unit is never wider than the detected one.
            #[allow(unsafe_code)]
            Isa::Avx512 => {
                return unsafe { x86::fused_avx512(a, b, dst, inner, pair, f) };
            }
            // SAFETY: as above.
            #[allow(unsafe_code)]
            Isa::Avx2 => {
                return unsafe { x86::fused_avx2(a, b, dst, inner, pair, f) };
            }
            Isa::Portable => {}
        }
    }
    #[cfg(target_arch = "x86_64")]
    match path.isa {
        // SAFETY: as in `run`: the unit is never wider than the detected one.
        #[allow(unsafe_code)]
        Isa::Avx512 => return unsafe { x86::blocked_avx512(tiles, a, b, dst, inner, pair, f) },
        // SAFETY: as in `run`.
        #[allow(unsafe_code)]
        Isa::Avx2 => return unsafe { x86::blocked_avx2(tiles, a, b, dst, inner, pair, f) },
        Isa::Portable => {}
    }
    tiles.blocked(Isa::Portable, a, b, dst, inner, pair, f);
}

/// Whether `S` is a 4-byte type without padding whose every bit pattern is valid (`f32`,
/// `i32`, `u32`): its values may travel through the lanes of an `__m256` unchanged.
pub(super) fn plain32<S: 'static>() -> bool {
    let t = TypeId::of::<S>();
    t == TypeId::of::<f32>() || t == TypeId::of::<i32>() || t == TypeId::of::<u32>()
}

/// Copies the full `TILE × TILE` block `src[s0 + i·si + j]` into `buf[j·TILE + i]` with
/// 8×8 transposes in registers when the unit has them and `S` is a plain 4-byte type;
/// answers whether it did (else the caller copies element by element).
#[inline(always)]
pub(super) fn transpose_block<S: Copy + 'static>(
    isa: Isa,
    src: &[S],
    s0: i64,
    si: i64,
    buf: &mut [S],
) -> bool {
    #[cfg(target_arch = "x86_64")]
    if isa >= Isa::Avx2 && plain32::<S>() {
        // SAFETY: `isa` is at least `Avx2`, so the processor has AVX2 and so AVX (`run`'s
        // argument); `plain32` proved `S` is f32, i32 or u32, which is what `transpose32`
        // requires.
        #[allow(unsafe_code)]
        unsafe {
            x86::transpose32(src, s0, si, buf)
        };
        return true;
    }
    let _ = (isa, src, s0, si, buf);
    false
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    use std::arch::x86_64::*;

    use super::super::super::plan::Mode;
    use super::super::{TILE, Tiles};
    use super::Isa;
    use crate::kernels::lanes::transpose8;

    /// [`super::super::run`] compiled with AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) fn run_avx2<A: Copy, B: Copy, T: Copy>(
        a: (&[A], i64),
        b: (&[B], i64),
        dst: (&mut [T], i64),
        m: Mode<2>,
        f: &impl Fn(A, B) -> T,
    ) {
        super::super::run(a, b, dst, m, f);
    }

    /// [`super::super::run`] compiled with AVX-512.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
    pub(super) fn run_avx512<A: Copy, B: Copy, T: Copy>(
        a: (&[A], i64),
        b: (&[B], i64),
        dst: (&mut [T], i64),
        m: Mode<2>,
        f: &impl Fn(A, B) -> T,
    ) {
        super::super::run(a, b, dst, m, f);
    }

    /// [`super::super::stream::run`] compiled with AVX2.
    ///
    /// # Safety
    /// AVX2 is present; `T` is [`plain`](super::plain).
    #[target_feature(enable = "avx2")]
    #[allow(unsafe_code)]
    pub(super) unsafe fn stream_avx2<A: Copy, B: Copy, T: Copy>(
        a: (&[A], i64),
        b: (&[B], i64),
        dst: (&mut [T], i64),
        m: Mode<2>,
        f: &impl Fn(A, B) -> T,
    ) {
        // SAFETY: this function's contract (AVX2 implies AVX) is `stream::run`'s.
        unsafe { super::super::stream::run(a, b, dst, m, f) }
    }

    /// [`super::super::stream::run`] compiled with AVX-512.
    ///
    /// # Safety
    /// AVX-512 F, BW, VL and DQ are present; `T` is [`plain`](super::plain).
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
    #[allow(unsafe_code)]
    pub(super) unsafe fn stream_avx512<A: Copy, B: Copy, T: Copy>(
        a: (&[A], i64),
        b: (&[B], i64),
        dst: (&mut [T], i64),
        m: Mode<2>,
        f: &impl Fn(A, B) -> T,
    ) {
        // SAFETY: as in `stream_avx2` (AVX-512 F implies AVX).
        unsafe { super::super::stream::run(a, b, dst, m, f) }
    }

    /// [`super::super::fused::blocked`] compiled with AVX2.
    ///
    /// # Safety
    /// AVX2 is present.
    #[target_feature(enable = "avx2")]
    #[allow(unsafe_code)]
    pub(super) unsafe fn fused_avx2<A: Copy + 'static, B: Copy + 'static, T: Copy>(
        a: (&[A], i64),
        b: (&[B], i64),
        dst: (&mut [T], i64),
        inner: Mode<2>,
        pair: Mode<2>,
        f: &impl Fn(A, B) -> T,
    ) {
        // SAFETY: this function's contract (AVX2 implies AVX) is `fused::blocked`'s.
        unsafe { super::super::fused::blocked(a, b, dst, inner, pair, f) }
    }

    /// [`super::super::fused::blocked`] compiled with AVX-512.
    ///
    /// # Safety
    /// AVX-512 F, BW, VL and DQ are present.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
    #[allow(unsafe_code)]
    pub(super) unsafe fn fused_avx512<A: Copy + 'static, B: Copy + 'static, T: Copy>(
        a: (&[A], i64),
        b: (&[B], i64),
        dst: (&mut [T], i64),
        inner: Mode<2>,
        pair: Mode<2>,
        f: &impl Fn(A, B) -> T,
    ) {
        // SAFETY: as in `fused_avx2` (AVX-512 F implies AVX).
        unsafe { super::super::fused::blocked(a, b, dst, inner, pair, f) }
    }

    /// [`Tiles::blocked`] compiled with AVX2.
    #[target_feature(enable = "avx2")]
    pub(super) fn blocked_avx2<A: Copy + 'static, B: Copy + 'static, T: Copy>(
        tiles: &mut Tiles<A, B>,
        a: (&[A], i64),
        b: (&[B], i64),
        dst: (&mut [T], i64),
        inner: Mode<2>,
        pair: Mode<2>,
        f: &impl Fn(A, B) -> T,
    ) {
        tiles.blocked(Isa::Avx2, a, b, dst, inner, pair, f);
    }

    /// [`Tiles::blocked`] compiled with AVX-512.
    #[target_feature(enable = "avx512f,avx512bw,avx512vl,avx512dq")]
    pub(super) fn blocked_avx512<A: Copy + 'static, B: Copy + 'static, T: Copy>(
        tiles: &mut Tiles<A, B>,
        a: (&[A], i64),
        b: (&[B], i64),
        dst: (&mut [T], i64),
        inner: Mode<2>,
        pair: Mode<2>,
        f: &impl Fn(A, B) -> T,
    ) {
        tiles.blocked(Isa::Avx512, a, b, dst, inner, pair, f);
    }

    /// `buf[j·TILE + i] = src[s0 + i·si + j]` for `i, j < TILE`, by 8×8 blocks transposed
    /// in registers.
    ///
    /// # Safety
    /// `S` is `f32`, `i32` or `u32` (4 bytes, no padding, every bit pattern valid).
    #[target_feature(enable = "avx")]
    #[allow(unsafe_code)]
    pub(super) unsafe fn transpose32<S: Copy>(src: &[S], s0: i64, si: i64, buf: &mut [S]) {
        const T: usize = TILE as usize;
        let buf = &mut buf[..T * T];
        // Each source row of the block, bounds-checked once.
        let rows: [&[S]; T] = std::array::from_fn(|i| {
            let at = (s0 + i as i64 * si) as usize;
            &src[at..at + T]
        });
        for i0 in (0..T).step_by(8) {
            for j0 in (0..T).step_by(8) {
                let r = std::array::from_fn(|k| {
                    let row = &rows[i0 + k][j0..j0 + 8];
                    // SAFETY: `row` holds 8 elements of 4 bytes (the contract on `S`):
                    // 32 readable bytes, read unaligned, every bit pattern a valid lane.
                    unsafe { _mm256_loadu_ps(row.as_ptr().cast()) }
                });
                for (j, c) in transpose8(r).into_iter().enumerate() {
                    let out = &mut buf[(j0 + j) * T + i0..][..8];
                    // SAFETY: `out` holds 8 elements of 4 bytes, borrowed exclusively; the
                    // lanes written are bit patterns read from `S` values above, so each
                    // is a valid `S` (the contract).
                    unsafe { _mm256_storeu_ps(out.as_mut_ptr().cast(), c) };
                }
            }
        }
    }
}
