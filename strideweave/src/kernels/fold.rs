//! Reductions read in place: `acc[G(i)] = f(acc[G(i)], x[X(i)])` for every index `i` of one
//! shape, where `G` has stride 0 on the reduced leaves — no gather of the operand into a
//! fresh vector, no bounds check per element on the runs.
//!
//! Each output element receives its terms in first-mode-fastest (ordinal) order of the
//! reduced leaves, exactly as a naive walk adds them, so floating sums keep their bits. The
//! plan ([`super::plan`] in [`Order::Turned`]) therefore keeps the leaves in ordinal order
//! (extent-1 leaves dropped, kept leaves turned forward, regular neighbours merged, which
//! keeps the order) and moves only a kept leaf, unit-stride on both sides, innermost: its
//! run updates consecutive outputs from consecutive inputs, a loop the compiler vectorises
//! without reassociating any sum.

use super::plan::{Mode, Order, outer, plan};
use super::zip::lane;

mod parallel;

/// Folds the elements of `x` (offset `xo`, leaf strides `xs`) into `acc` (offset `ao`)
/// through the leaf strides `gs` (0 on the reduced leaves), in ordinal order per output.
/// Callers guarantee that every index lies inside its slice. With injective `gs` this is
/// an in-place update, `acc[G(i)] = f(acc[G(i)], x[X(i)])` once per element.
pub(crate) fn fold<T: Copy + Send, A: Copy + Sync>(
    extents: &[i64],
    (x, xo, xs): (&[A], i64, &[i64]),
    (acc, ao, gs): (&mut [T], i64, &[i64]),
    f: impl Fn(T, A) -> T + Sync,
) {
    // Kept leaves walked backwards reach other outputs, so no sum changes order.
    let Some((mut modes, ao, [xo])) = plan(extents, (ao, gs), [(xo, xs)], Order::Turned) else {
        return;
    };
    if let Some(k) = modes.iter().position(|m| m.d == 1 && m.s[0] == 1) {
        let unit = modes.remove(k);
        modes.insert(0, unit);
    }
    parallel::fold(&modes, (x, xo), (acc, ao), &f);
}

/// The fold of the planned leaves `modes` (ordinal order per output, a kept unit-stride
/// leaf first) from source offset `xo` into the outputs from `ao`.
fn folded<T: Copy, A: Copy>(
    modes: &[Mode<1>],
    (x, xo): (&[A], i64),
    (acc, ao): (&mut [T], i64),
    f: &impl Fn(T, A) -> T,
) {
    let Some(&inner) = modes.first() else {
        acc[ao as usize] = f(acc[ao as usize], x[xo as usize]);
        return;
    };
    if let Some(&next) = modes.get(1)
        && (inner.d, inner.s[0], next.d) == (1, 1, 0)
    {
        // A kept unit-stride run under a reduced leaf (a sum over the slow modes): the
        // reduced leaf is walked here, so a short run costs no call of the outer walk each;
        // every output still receives its terms in the same order.
        let (e, step) = (inner.e as usize, next.s[0]);
        outer(&modes[2..], ao, [xo], |d, [s]| {
            let out = &mut acc[d as usize..d as usize + e];
            for r in 0..next.e {
                let s0 = (s + r * step) as usize;
                for (z, &p) in out.iter_mut().zip(&x[s0..s0 + e]) {
                    *z = f(*z, p);
                }
            }
        });
        return;
    }
    outer(&modes[1..], ao, [xo], |d, [s]| run(x, s, acc, d, inner, f));
}

/// One run of the innermost leaf `m` from source offset `s` into the outputs from `d`.
#[inline(always)]
fn run<T: Copy, A: Copy>(
    x: &[A],
    s: i64,
    acc: &mut [T],
    d: i64,
    m: Mode<1>,
    f: &impl Fn(T, A) -> T,
) {
    let (e, s0, d0) = (m.e as usize, s as usize, d as usize);
    match (m.d, m.s[0]) {
        (0, 1) => {
            let mut v = acc[d0];
            for &p in &x[s0..s0 + e] {
                v = f(v, p);
            }
            acc[d0] = v;
        }
        (0, st) => {
            let mut v = acc[d0];
            for p in lane(x, s, st, e) {
                v = f(v, p);
            }
            acc[d0] = v;
        }
        (1, 1) => {
            for (z, &p) in acc[d0..d0 + e].iter_mut().zip(&x[s0..s0 + e]) {
                *z = f(*z, p);
            }
        }
        (g, st) => {
            let out = acc[d0..].iter_mut().step_by(g as usize).take(e);
            for (z, p) in out.zip(lane(x, s, st, e)) {
                *z = f(*z, p);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_sum_adds_in_ordinal_order() {
        // ordinal order of (2,3):(3,1) reads 0, 3, 1, 4, 2, 5
        let x = [1.0f32, 1e8, -1e8, 1.0, 1.0, 1.0];
        let mut acc = [0.0f32];
        fold(&[2, 3], (&x, 0, &[3, 1]), (&mut acc, 0, &[0, 0]), |a, p| {
            a + p
        });
        let want = [0usize, 3, 1, 4, 2, 5]
            .iter()
            .fold(0.0f32, |a, &i| a + x[i]);
        assert_eq!(acc[0].to_bits(), want.to_bits());
    }

    #[test]
    fn a_kept_unit_leaf_runs_innermost_and_each_output_gets_its_own_terms() {
        // sum over mode 1 of a compact (3, 4): out[i] = Σ_j x[i + 3j]
        let x: Vec<i64> = (0..12).collect();
        let mut acc = [0i64; 3];
        fold(&[3, 4], (&x, 0, &[1, 3]), (&mut acc, 0, &[1, 0]), |a, p| {
            a + p
        });
        assert_eq!(acc, [18, 22, 26]);
        // over mode 0, read reversed: out[j] = Σ_i x[11 - i - 3j]
        let mut acc = [0i64; 4];
        fold(
            &[3, 4],
            (&x, 11, &[-1, -3]),
            (&mut acc, 0, &[0, 1]),
            |a, p| a + p,
        );
        assert_eq!(acc, [30, 21, 12, 3]);
    }
}
