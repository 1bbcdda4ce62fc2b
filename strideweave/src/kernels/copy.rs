//! The copy engine: writes the elements of one strided placement into another of the same
//! shape, straight into the destination slice (no intermediate buffer, no division).
//!
//! The leaves of both placements are planned jointly: extent-1 leaves dropped, each leaf
//! turned so that the destination steps forward, ordered by the destination's strides, and
//! neighbours merged where both sides step regularly across them. The innermost leaf then
//! picks the kernel: a contiguous run on both sides is `copy_from_slice` (memcpy); a
//! stride-0 source is `fill`; a source whose fastest leaf is another one is copied in 32×32
//! cache blocks (transposing); anything else is a strided loop over iterators (no bounds
//! check per element).

use smallvec::SmallVec;

/// One planned leaf: extent, source stride, destination stride.
#[derive(Clone, Copy, Debug)]
struct Mode {
    e: i64,
    s: i64,
    d: i64,
}

/// The side of a tile in the blocked (transposing) kernel.
const TILE: i64 = 32;

/// Copies `src[so + S(i)]` to `dst[do + D(i)]` for every `i` of the leaves `extents`, where
/// `S` and `D` have the strides `ss` and `ds` (depth-first leaves of one shape). Callers
/// guarantee that every index is inside its slice (validated placements); the source may
/// alias itself through stride 0. A non-injective `D` (which only `fill` passes) gets some
/// element of the source at each index it reaches.
pub(crate) fn copy<T: Copy>(
    extents: &[i64],
    (src, so, ss): (&[T], i64, &[i64]),
    (dst, d_o, ds): (&mut [T], i64, &[i64]),
) {
    let Some((modes, so, d_o)) = plan(extents, ss, ds, so, d_o) else {
        return;
    };
    let Some(&inner) = modes.first() else {
        dst[d_o as usize] = src[so as usize];
        return;
    };
    if inner.d == 1
        && inner.s != 1
        && inner.s != 0
        && let Some(k) = transposed_partner::<T>(&modes)
    {
        let pair = modes[k];
        let rest: SmallVec<[Mode; 8]> = modes
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != 0 && j != k)
            .map(|(_, m)| *m)
            .collect();
        outer(&rest, so, d_o, |s, d| blocked(src, s, dst, d, inner, pair));
        return;
    }
    outer(&modes[1..], so, d_o, |s, d| run(src, s, dst, d, inner));
}

/// The joint plan of the leaves ([`super::plan`], shared with the elementwise engine), with
/// the offsets moved for the turned leaves; `None` when the shape has no element.
fn plan(
    extents: &[i64],
    ss: &[i64],
    ds: &[i64],
    so: i64,
    d_o: i64,
) -> Option<(SmallVec<[Mode; 8]>, i64, i64)> {
    let (modes, d_o, [so]) = super::plan::plan(extents, (d_o, ds), [(so, ss)])?;
    let modes = modes.iter().map(|m| Mode {
        e: m.e,
        s: m.s[0],
        d: m.d,
    });
    Some((modes.collect(), so, d_o))
}

/// The leaf to tile with the (unit-stride in the destination) innermost one, when the
/// source is fastest along it and the innermost leaf's source stride spans a cache line.
fn transposed_partner<T>(modes: &[Mode]) -> Option<usize> {
    let inner = modes[0];
    let line = (64 / std::mem::size_of::<T>().max(1)) as i64;
    if inner.s.abs() < line || inner.e < 8 {
        return None;
    }
    let (k, m) = modes
        .iter()
        .enumerate()
        .skip(1)
        .filter(|(_, m)| m.s != 0 && m.e >= 8)
        .min_by_key(|(_, m)| m.s.abs())?;
    (m.s.abs() < inner.s.abs()).then_some(k)
}

/// Calls `f(source offset, destination offset)` for every index of the leaves `rest`.
#[inline]
fn outer(rest: &[Mode], so: i64, d_o: i64, mut f: impl FnMut(i64, i64)) {
    let n = rest.len();
    if n == 0 {
        f(so, d_o);
        return;
    }
    let mut ctr: SmallVec<[i64; 8]> = smallvec::smallvec![0; n];
    let (mut s, mut d) = (so, d_o);
    loop {
        f(s, d);
        let mut k = 0;
        loop {
            if k == n {
                return;
            }
            ctr[k] += 1;
            s += rest[k].s;
            d += rest[k].d;
            if ctr[k] < rest[k].e {
                break;
            }
            s -= rest[k].s * rest[k].e;
            d -= rest[k].d * rest[k].e;
            ctr[k] = 0;
            k += 1;
        }
    }
}

/// One run of the innermost leaf `m` from source offset `s` to destination offset `d`.
#[inline]
fn run<T: Copy>(src: &[T], s: i64, dst: &mut [T], d: i64, m: Mode) {
    let (e, s0, d0) = (m.e as usize, s as usize, d as usize);
    if m.d == 1 {
        let out = &mut dst[d0..d0 + e];
        match m.s {
            1 => out.copy_from_slice(&src[s0..s0 + e]),
            0 => out.fill(src[s0]),
            st if st > 0 => {
                for (x, y) in out.iter_mut().zip(src[s0..].iter().step_by(st as usize)) {
                    *x = *y;
                }
            }
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
        dst[d0] = src[(s + (m.e - 1) * m.s) as usize];
        return;
    }
    let out = dst[d0..].iter_mut().step_by(m.d as usize).take(e);
    match m.s {
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

/// The two leaves `a` (unit destination stride) and `b` copied in `TILE × TILE` blocks:
/// along `b` the source is fast, along `a` the destination, so each block's cache lines are
/// used whole on both sides.
#[inline]
fn blocked<T: Copy>(src: &[T], s: i64, dst: &mut [T], d: i64, a: Mode, b: Mode) {
    for jb in (0..b.e).step_by(TILE as usize) {
        for ib in (0..a.e).step_by(TILE as usize) {
            let row = Mode {
                e: TILE.min(a.e - ib),
                ..a
            };
            for j in jb..(jb + TILE).min(b.e) {
                run(src, s + j * b.s + ib * a.s, dst, d + j * b.d + ib, row);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plan_merges_a_compact_pair_into_one_run() {
        let (m, so, d_o) = plan(&[2, 3, 4], &[1, 2, 6], &[1, 2, 6], 0, 0).unwrap();
        assert_eq!((m.len(), m[0].e, so, d_o), (1, 24, 0, 0));
    }

    #[test]
    fn plan_turns_a_backward_destination_leaf_and_moves_both_offsets() {
        let (m, so, d_o) = plan(&[3], &[2], &[-1], 0, 2).unwrap();
        assert_eq!((m[0].s, m[0].d, so, d_o), (-2, 1, 4, 0));
    }

    #[test]
    fn a_transposed_square_is_copied_in_blocks() {
        let n = 70;
        let src: Vec<u32> = (0..n * n).collect();
        let mut dst = vec![0u32; (n * n) as usize];
        let e = [n as i64, n as i64];
        copy(&e, (&src, 0, &[n as i64, 1]), (&mut dst, 0, &[1, n as i64]));
        for i in 0..n {
            for j in 0..n {
                assert_eq!(dst[(i + j * n) as usize], j + i * n);
            }
        }
    }
}
