//! One run of the innermost leaf: memcpy, fill, or a strided loop over slices.

use super::path::Path;
use super::x86;
use crate::kernels::plan::Mode;

/// One run of the innermost leaf `m` from source offset `s` to destination offset `d`, on
/// the vector kernels of `path` where it has them.
#[inline]
pub(super) fn run<T: Copy>(src: &[T], s: i64, dst: &mut [T], d: i64, m: Mode<1>, path: Path<T>) {
    let (e, s0, d0) = (m.e as usize, s as usize, d as usize);
    if m.d == 1 {
        let out = &mut dst[d0..d0 + e];
        match m.s[0] {
            1 => {
                let from = &src[s0..s0 + e];
                if !x86::try_contiguous(out, from, path) {
                    forward(out, from);
                }
            }
            0 => out.fill(src[s0]),
            2 if x86::try_step2(out, &src[s0..=s0 + (e - 1) * 2], path) => {}
            st if st > 0 => gather(out, &src[s0..=s0 + (e - 1) * st as usize], st as usize),
            st => {
                let first = s0 - (e - 1) * st.unsigned_abs() as usize;
                let from = src[first..=s0].iter().step_by(st.unsigned_abs() as usize);
                for (x, y) in out.iter_mut().rev().zip(from) {
                    *x = *y;
                }
            }
        }
        return;
    }
    if m.d == 0 {
        // An aliasing destination (only `fill` passes one): the last write wins.
        dst[d0] = src[(s + (m.e - 1) * m.s[0]) as usize];
        return;
    }
    let out = dst[d0..].iter_mut().step_by(m.d as usize).take(e);
    match m.s[0] {
        0 => out.for_each(|x| *x = src[s0]),
        st if st > 0 => {
            for (x, y) in out.zip(src[s0..].iter().step_by(st as usize)) {
                *x = *y;
            }
        }
        st => {
            for (k, x) in out.enumerate() {
                *x = src[s0 - k * st.unsigned_abs() as usize];
            }
        }
    }
}

/// `out.copy_from_slice(from)` as a forward loop over 16-element chunks, which the compiler
/// turns into inline vector moves rather than a call to `memcpy`. Measured on the project's
/// machine (glibc 2.36, AMD EPYC, `benches/copy.rs`): `memcpy` of a 64 MiB `f32` run took
/// 1.2× as long as such a loop (ndarray's `assign` is one), 16 KiB rows 1.07× as long.
#[inline]
pub(super) fn forward<T: Copy>(out: &mut [T], from: &[T]) {
    const K: usize = 16;
    let (mut o, mut f) = (out.chunks_exact_mut(K), from.chunks_exact(K));
    for (x, y) in (&mut o).zip(&mut f) {
        // unreachable from user input: `chunks_exact(K)` yields chunks of exactly K.
        let y: &[T; K] = y.try_into().expect("a chunk of K elements");
        x.copy_from_slice(y);
    }
    o.into_remainder().copy_from_slice(f.remainder());
}

/// `out[k] = from[k · step]`, where `from` ends at the last element read. Steps 2 to 4 go
/// through fixed-width chunks, which the compiler turns into shuffles instead of a loop of
/// single loads.
#[inline]
fn gather<T: Copy>(out: &mut [T], from: &[T], step: usize) {
    match step {
        2 => gather_n::<T, 2>(out, from),
        3 => gather_n::<T, 3>(out, from),
        4 => gather_n::<T, 4>(out, from),
        _ => {
            for (x, y) in out.iter_mut().zip(from.iter().step_by(step)) {
                *x = *y;
            }
        }
    }
}

#[inline]
fn gather_n<T: Copy, const N: usize>(out: &mut [T], from: &[T]) {
    let Some((last, body)) = out.split_last_mut() else {
        return;
    };
    for (x, c) in body.iter_mut().zip(from.chunks_exact(N)) {
        *x = c[0];
    }
    *last = from[from.len() - 1];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_step_run_reads_every_step_th_element_up_to_the_last() {
        let src: Vec<u16> = (0..40).collect();
        for step in 1..=6i64 {
            for e in 1..=7i64 {
                let mut dst = vec![0u16; 9];
                run(
                    &src,
                    3,
                    &mut dst,
                    1,
                    Mode { e, d: 1, s: [step] },
                    Path::portable(),
                );
                let want: Vec<u16> = (0..e).map(|k| (3 + k * step) as u16).collect();
                assert_eq!(
                    &dst[1..1 + e as usize],
                    want.as_slice(),
                    "step {step}, extent {e}"
                );
                assert_eq!((dst[0], dst[1 + e as usize]), (0, 0));
            }
        }
    }
}
