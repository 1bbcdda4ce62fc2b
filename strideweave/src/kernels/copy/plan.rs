//! The joint plan of two placements' leaves, and the walk over the outer leaves.

use smallvec::SmallVec;

/// One planned leaf: extent, source stride, destination stride.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Mode {
    pub(super) e: i64,
    pub(super) s: i64,
    pub(super) d: i64,
}

/// The joint plan of the leaves ([`crate::kernels::plan`], shared with the elementwise
/// engine), innermost first, with the offsets moved for the turned leaves; `None` when the
/// shape has no element.
pub(super) fn plan(
    extents: &[i64],
    ss: &[i64],
    ds: &[i64],
    so: i64,
    d_o: i64,
) -> Option<(SmallVec<[Mode; 8]>, i64, i64)> {
    let (modes, d_o, [so]) = crate::kernels::plan::plan(extents, (d_o, ds), [(so, ss)])?;
    let modes = modes.iter().map(|m| Mode {
        e: m.e,
        s: m.s[0],
        d: m.d,
    });
    Some((modes.collect(), so, d_o))
}

/// The leaves as the shared plan's one-source modes.
fn shared(modes: &[Mode]) -> crate::kernels::plan::Modes<1> {
    let m = modes.iter().map(|m| crate::kernels::plan::Mode {
        e: m.e,
        d: m.d,
        s: [m.s],
    });
    m.collect()
}

/// The leaf to tile with the innermost one (unit stride in the destination), when the
/// source is fastest along it and the innermost leaf's source stride spans a cache line
/// ([`crate::kernels::plan::transposed_partner`] for one source).
pub(super) fn transposed_partner<T>(modes: &[Mode]) -> Option<usize> {
    crate::kernels::plan::transposed_partner::<T, 1>(&shared(modes))
}

/// Calls `f(source offset, destination offset)` for every index of the leaves `rest`
/// ([`crate::kernels::plan::outer`] for one source).
#[inline]
pub(super) fn outer(rest: &[Mode], so: i64, d_o: i64, mut f: impl FnMut(i64, i64)) {
    crate::kernels::plan::outer(&shared(rest), d_o, [so], |d, [s]| f(s, d));
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
    fn the_tile_partner_is_the_leaf_where_the_source_is_fastest() {
        let (m, ..) = plan(
            &[32, 64, 64, 32],
            &[131072, 2048, 32, 1],
            &[1, 32, 2048, 65536],
            0,
            0,
        )
        .unwrap();
        assert_eq!(transposed_partner::<f32>(&m), Some(3));
        let (m, ..) = plan(&[64, 64], &[2, 128], &[1, 64], 0, 0).unwrap();
        assert_eq!(
            transposed_partner::<f32>(&m),
            None,
            "short source stride: strided run"
        );
    }
}
