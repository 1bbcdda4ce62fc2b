//! The one loop planner of the kernels: the joint plan of a destination and `N` sources of
//! one shape, and the walk over its outer leaves ([`outer`]). The copy engine
//! ([`copy`](super::copy)), the elementwise engine ([`zip`](super::zip)), the reductions
//! ([`fold`](super::fold)), the scatter-add kernel ([`scatter`](super::scatter)) and the
//! ordinal walks ([`strided`](super::strided)) all run on it and differ only in the
//! [`Order`] they ask for; the contraction kernel's batch loop is [`outer`] too.
//!
//! Extent-1 leaves are dropped, each leaf is turned so that the destination steps forward
//! (the offsets move to the leaf's last element; not in [`Order::Ordinal`]), the leaves are
//! ordered as asked, and neighbours are merged where the destination and every source step
//! regularly across them. Turning and reordering leaves changes only which element pairs
//! are visited when, never which pairs: every kernel on a plan writes each destination
//! index from the same source indices as the naive walk.

use smallvec::SmallVec;

/// One planned leaf: extent, destination stride, source strides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Mode<const N: usize> {
    pub(crate) e: i64,
    pub(crate) d: i64,
    pub(crate) s: [i64; N],
}

/// The planned leaves, innermost first.
pub(crate) type Modes<const N: usize> = SmallVec<[Mode<N>; 8]>;

/// One side of a plan: an offset and the depth-first leaf strides.
pub(crate) type Side<'a> = (i64, &'a [i64]);

/// The order of the planned leaves, innermost first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Order {
    /// Ordinal order, no leaf turned: the naive walk's visit order, for callers that see
    /// every element in turn.
    Ordinal,
    /// Ordinal order, leaves turned: each destination index still takes the contributions
    /// of its stride-0 leaves in ordinal order (reductions).
    Turned,
    /// By destination stride, then by the sources' absolute strides: the unit-stride run
    /// innermost (copies and elementwise maps, whose destination is written once per index).
    Strides,
    /// The leaves of non-zero destination stride as in [`Order::Strides`], then the
    /// stride-0 ones in ordinal order: each destination index takes its aliases'
    /// contributions in ordinal order, with the run over distinct indices innermost
    /// (scatter-add).
    Aliases,
}

/// The joint plan of the leaves `extents` for the destination `dst` and the sources
/// `srcs` in the order `order`, with the offsets moved for the turned leaves; `None` when
/// the shape has no element.
pub(crate) fn plan<const N: usize>(
    extents: &[i64],
    dst: Side<'_>,
    srcs: [Side<'_>; N],
    order: Order,
) -> Option<(Modes<N>, i64, [i64; N])> {
    let (mut d_o, ds) = dst;
    let mut so = srcs.map(|s| s.0);
    let mut modes: Modes<N> = SmallVec::new();
    for (j, &e) in extents.iter().enumerate() {
        if e == 0 {
            return None;
        }
        if e == 1 {
            continue;
        }
        let (d, s) = (ds[j], std::array::from_fn(|k| srcs[k].1[j]));
        let m = if d < 0 && order != Order::Ordinal {
            // Walk the leaf backwards: same pairs of elements, destination stepping forward.
            d_o += (e - 1) * d;
            for k in 0..N {
                so[k] += (e - 1) * s[k];
            }
            Mode {
                e,
                d: -d,
                s: s.map(|x: i64| -x),
            }
        } else {
            Mode { e, d, s }
        };
        modes.push(m);
    }
    match order {
        Order::Ordinal | Order::Turned => {}
        Order::Strides => modes.sort_by_key(|m| (m.d, m.s.map(i64::abs))),
        Order::Aliases => modes.sort_by_key(|m| match m.d {
            0 => (true, 0, [0; N]),
            d => (false, d, m.s.map(i64::abs)),
        }),
    }
    Some((merge(modes), d_o, so))
}

/// Merges neighbours (in the given order) where every side steps regularly across them.
fn merge<const N: usize>(modes: Modes<N>) -> Modes<N> {
    let mut merged: Modes<N> = SmallVec::new();
    for m in modes {
        if let Some(last) = merged.last_mut()
            && m.d == last.d * last.e
            && (0..N).all(|k| m.s[k] == last.s[k] * last.e)
        {
            last.e *= m.e;
            continue;
        }
        merged.push(m);
    }
    merged
}

/// Calls `f(destination offset, source offsets)` for every index of the leaves `rest`
/// (first leaf fastest): the first leaf in a loop of its own, the others by an odometer.
#[inline]
pub(crate) fn outer<const N: usize>(
    rest: &[Mode<N>],
    d_o: i64,
    so: [i64; N],
    mut f: impl FnMut(i64, [i64; N]),
) {
    let Some((first, more)) = rest.split_first() else {
        f(d_o, so);
        return;
    };
    let mut ctr: SmallVec<[i64; 8]> = smallvec::smallvec![0; more.len()];
    let (mut d, mut s) = (d_o, so);
    loop {
        let (mut x, mut y) = (d, s);
        for _ in 0..first.e {
            f(x, y);
            x += first.d;
            for (v, st) in y.iter_mut().zip(first.s) {
                *v += st;
            }
        }
        let mut k = 0;
        loop {
            let Some(m) = more.get(k) else {
                return;
            };
            ctr[k] += 1;
            d += m.d;
            for (v, st) in s.iter_mut().zip(m.s) {
                *v += st;
            }
            if ctr[k] < m.e {
                break;
            }
            d -= m.d * m.e;
            for (v, st) in s.iter_mut().zip(m.s) {
                *v -= st * m.e;
            }
            ctr[k] = 0;
            k += 1;
        }
    }
}

/// The leaf to tile with the innermost one (unit-stride in the destination), and the source
/// that asks for it: the first source whose stride along the innermost leaf spans a cache
/// line while another leaf of at least 8 elements is faster for it.
pub(crate) fn transposed_partner<T, const N: usize>(modes: &[Mode<N>]) -> Option<usize> {
    let inner = modes.first()?;
    if inner.d != 1 || inner.e < 8 {
        return None;
    }
    let line = (64 / std::mem::size_of::<T>().max(1)) as i64;
    (0..N).find_map(|k| {
        if inner.s[k].abs() < line {
            return None;
        }
        let (j, m) = modes
            .iter()
            .enumerate()
            .skip(1)
            .filter(|(_, m)| m.s[k] != 0 && m.e >= 8)
            .min_by_key(|(_, m)| m.s[k].abs())?;
        (m.s[k].abs() < inner.s[k].abs()).then_some(j)
    })
}

/// The leaves of `modes` without the innermost one and the one at `k`.
pub(crate) fn without<const N: usize>(modes: &[Mode<N>], k: usize) -> Modes<N> {
    modes
        .iter()
        .enumerate()
        .filter(|&(j, _)| j != 0 && j != k)
        .map(|(_, m)| *m)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plan_merges_three_compact_sides_into_one_leaf() {
        let s: &[i64] = &[1, 2, 6];
        let (m, d_o, so) = plan(&[2, 3, 4], (0, s), [(0, s), (5, s)], Order::Strides).unwrap();
        assert_eq!((m.len(), m[0].e, d_o, so), (1, 24, 0, [0, 5]));
    }

    #[test]
    fn plan_turns_a_backward_destination_leaf_and_moves_every_offset() {
        let (m, d_o, so) = plan(&[3], (2, &[-1]), [(0, &[2]), (0, &[0])], Order::Strides).unwrap();
        assert_eq!((m[0].d, m[0].s, d_o, so), (1, [-2, 0], 0, [4, 0]));
    }

    #[test]
    fn plan_keeps_leaves_apart_where_one_source_steps_irregularly() {
        let (m, ..) = plan(
            &[4, 4],
            (0, &[1, 4]),
            [(0, &[1, 4]), (0, &[4, 1])],
            Order::Strides,
        )
        .unwrap();
        assert_eq!(m.len(), 2);
        assert_eq!(transposed_partner::<f32, 2>(&m), None); // a stride of 4 is not a line
        let (m, ..) = plan(
            &[64, 64],
            (0, &[1, 64]),
            [(0, &[1, 64]), (0, &[64, 1])],
            Order::Strides,
        )
        .unwrap();
        assert_eq!(transposed_partner::<f32, 2>(&m), Some(1));
    }

    #[test]
    fn an_empty_shape_has_no_plan() {
        assert!(plan(&[3, 0], (0, &[1, 3]), [(0, &[1, 3])], Order::Strides).is_none());
    }

    #[test]
    fn plan_merges_a_compact_pair_into_one_run() {
        let s: &[i64] = &[1, 2, 6];
        let (m, d_o, [so]) = plan(&[2, 3, 4], (0, s), [(0, s)], Order::Strides).unwrap();
        assert_eq!((m.len(), m[0].e, so, d_o), (1, 24, 0, 0));
    }

    #[test]
    fn plan_turns_a_backward_destination_leaf_and_moves_both_offsets() {
        let (m, d_o, [so]) = plan(&[3], (2, &[-1]), [(0, &[2])], Order::Strides).unwrap();
        assert_eq!((m[0].s[0], m[0].d, so, d_o), (-2, 1, 4, 0));
    }

    #[test]
    fn the_tile_partner_is_the_leaf_where_the_source_is_fastest() {
        let (e, ss, ds) = (
            [32, 64, 64, 32],
            [131072, 2048, 32, 1],
            [1, 32, 2048, 65536],
        );
        let (m, ..) = plan(&e, (0, &ds), [(0, &ss)], Order::Strides).unwrap();
        assert_eq!(transposed_partner::<f32, 1>(&m), Some(3));
        let (m, ..) = plan(&[64, 64], (0, &[1, 64]), [(0, &[2, 128])], Order::Strides).unwrap();
        assert_eq!(
            transposed_partner::<f32, 1>(&m),
            None,
            "short source stride: strided run"
        );
    }
}
