//! Strided iteration: the carrier indices of one or more layouts of equal shape, visited in
//! first-mode-fastest order without materialising any of them.

use smallvec::SmallVec;

use crate::layout::Layout;

/// Leaves shared by `N` layouts of one shape, with extent-1 leaves dropped and neighbours
/// merged where every layout steps regularly across them.
struct Plan<const N: usize> {
    extents: SmallVec<[i64; 8]>,
    strides: SmallVec<[[i64; N]; 8]>,
}

impl<const N: usize> Plan<N> {
    fn new(extents: &[i64], strides: [&[i64]; N]) -> Plan<N> {
        let mut plan = Plan {
            extents: SmallVec::new(),
            strides: SmallVec::new(),
        };
        for (j, &e) in extents.iter().enumerate() {
            if e == 1 {
                continue;
            }
            let d: [i64; N] = std::array::from_fn(|k| strides[k][j]);
            if let (Some(pe), Some(pd)) = (plan.extents.last_mut(), plan.strides.last())
                && (0..N).all(|k| d[k] == pd[k] * *pe)
            {
                *pe *= e;
                continue;
            }
            plan.extents.push(e);
            plan.strides.push(d);
        }
        plan
    }
}

/// Calls `f([o_k + L_k(i)])` for `i = 0, 1, …, size − 1`, where every `L_k` has the leaves
/// `extents` (depth-first) with strides `strides[k]`. The indices are non-negative when the
/// layouts are placements inside their carriers, which callers guarantee.
#[inline]
pub(crate) fn walk<const N: usize>(
    extents: &[i64],
    strides: [&[i64]; N],
    offsets: [i64; N],
    mut f: impl FnMut([usize; N]),
) {
    let plan = Plan::new(extents, strides);
    let n = plan.extents.len();
    if n == 0 {
        f(offsets.map(|o| o as usize));
        return;
    }
    let (e0, s0) = (plan.extents[0], plan.strides[0]);
    let mut base = offsets;
    let mut ctr: SmallVec<[i64; 8]> = smallvec::smallvec![0; n];
    loop {
        let mut p = base;
        for _ in 0..e0 {
            f(p.map(|x| x as usize));
            for k in 0..N {
                p[k] += s0[k];
            }
        }
        let mut d = 1;
        loop {
            if d == n {
                return;
            }
            ctr[d] += 1;
            for (k, b) in base.iter_mut().enumerate() {
                *b += plan.strides[d][k];
            }
            if ctr[d] < plan.extents[d] {
                break;
            }
            for (k, b) in base.iter_mut().enumerate() {
                *b -= plan.strides[d][k] * plan.extents[d];
            }
            ctr[d] = 0;
            d += 1;
        }
    }
}

/// [`walk`] over one layout at an offset.
#[inline]
pub(crate) fn walk1(l: &Layout, offset: i64, f: impl FnMut(usize)) {
    let mut f = f;
    walk(
        l.shape().leaves(),
        [l.stride().leaves()],
        [offset],
        |[i]| f(i),
    );
}

/// [`walk`] over two layouts of one shape.
#[inline]
pub(crate) fn walk2(a: (&Layout, i64), b: (&Layout, i64), f: impl FnMut(usize, usize)) {
    let mut f = f;
    debug_assert_eq!(a.0.shape().leaves(), b.0.shape().leaves());
    walk(
        a.0.shape().leaves(),
        [a.0.stride().leaves(), b.0.stride().leaves()],
        [a.1, b.1],
        |[i, j]| f(i, j),
    );
}
