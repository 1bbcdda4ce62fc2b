//! Streaming stores for the elementwise engine (x86-64): a destination of at least the copy
//! engine's threshold is written past the caches, as the copy engine writes it, so the
//! processor does not read each destination line before overwriting it.
//!
//! The closure `f` is generic, so the values are computed by the portable Rust loops
//! ([`super::run`], compiled for the unit by the caller) into a small L1 buffer, [`CHUNK`]
//! elements at a time, whose bytes are then streamed out whole lines at a time; the
//! elements before the run's first 64-byte boundary and after its last whole chunk are
//! written with ordinary stores. Each element is still computed once by the same `f` from
//! the same operands: streaming changes how bytes reach memory, never which bytes.

use std::arch::x86_64::*;

use super::super::plan::Mode;

/// The elements computed into the buffer, then streamed, per step.
const CHUNK: usize = 256;

/// The shortest run streamed: one chunk after at most one line of head.
pub(super) const LEAST: i64 = 2 * CHUNK as i64;

/// One run of the innermost leaf `m` (unit destination stride) like [`super::run`], its
/// whole chunks streamed.
///
/// # Safety
/// AVX is present; `T` is [`plain`](crate::kernels::copy::path::plain) (every byte of every
/// value initialised).
#[inline(always)]
#[allow(unsafe_code)]
pub(super) unsafe fn run<A: Copy, B: Copy, T: Copy>(
    (a, x): (&[A], i64),
    (b, y): (&[B], i64),
    (dst, d): (&mut [T], i64),
    m: Mode<2>,
    f: &impl Fn(A, B) -> T,
) {
    let (e, d0, size) = (m.e as usize, d as usize, size_of::<T>());
    let skip = dst[d0..].as_ptr().addr().wrapping_neg() & 63;
    if m.d != 1 || size == 0 || !skip.is_multiple_of(size) || skip / size + CHUNK > e {
        super::run((a, x), (b, y), (dst, d), m, f);
        return;
    }
    // The sources and the destination from position `k` of the run, `n` elements.
    let part = |k: usize, n: usize| {
        let k = k as i64;
        let (x, y) = (x + k * m.s[0], y + k * m.s[1]);
        (x, y, Mode { e: n as i64, ..m })
    };
    let head = skip / size;
    if head > 0 {
        let (x, y, h) = part(0, head);
        super::run((a, x), (b, y), (dst, d), h, f);
    }
    let mut buf = [dst[d0]; CHUNK];
    let mut k = head;
    while k + CHUNK <= e {
        let (x, y, c) = part(k, CHUNK);
        super::run((a, x), (b, y), (&mut buf, 0), c, f);
        // SAFETY: the caller's contract (AVX, `T` plain); `buf` holds values `run` just
        // wrote (all CHUNK of them).
        unsafe { lines(&mut dst[d0 + k..d0 + k + CHUNK], &buf) };
        k += CHUNK;
    }
    if k < e {
        let (x, y, t) = part(k, e - k);
        super::run((a, x), (b, y), (dst, d + k as i64), t, f);
    }
}

/// `out.copy_from_slice(from)` with 32-byte streaming stores; falls back to ordinary
/// stores when the lengths differ, `out` is not 32-byte aligned or its size is not a
/// multiple of 32 bytes.
///
/// # Safety
/// AVX is present; `T` is [`plain`](crate::kernels::copy::path::plain).
#[target_feature(enable = "avx")]
#[inline]
#[allow(unsafe_code)]
unsafe fn lines<T: Copy>(out: &mut [T], from: &[T]) {
    let n = size_of_val(out);
    let to = out.as_mut_ptr().cast::<u8>();
    if out.len() != from.len() || !n.is_multiple_of(32) || !to.addr().is_multiple_of(32) {
        out.copy_from_slice(from);
        return;
    }
    let s = from.as_ptr().cast::<u8>();
    for k in (0..n).step_by(32) {
        // SAFETY: `k + 32 ≤ n`, the byte size of both slices (equal lengths, checked):
        // the load reads 32 initialised bytes of `from` (`T` plain, the contract), the
        // store writes 32 bytes of `out` (exclusively borrowed) at a 32-byte boundary
        // (`to` aligned, `k` a multiple of 32); the bytes written are those of `T` values,
        // so `out` holds valid values afterwards. AVX is present (the contract).
        unsafe { _mm256_stream_si256(to.add(k).cast(), _mm256_loadu_si256(s.add(k).cast())) };
    }
}
