//! The layout half of CuTe's tensor partitioning (`include/cute/tensor_impl.hpp`):
//! `inner_partition` and `outer_partition` — a zipped divide sliced at a coordinate — and
//! the checks that keep a tensor's tiles inside its elements. Each function returns the
//! view's layout and the change of offset, so that the tensor wrappers and autograd apply
//! the same function to any layout.

use crate::error::{Error, Result};
use crate::layout::core::Layout;
use crate::layout::int_tuple::IntTuple;
use crate::layout::shape::Shape;
use crate::layout::structure::LayoutBuilder;
use crate::layout::tiler::{Tiler, halves};

/// The half of a zipped divide `((tiles…), (rests…))` that a partition's coordinate
/// selects in; the other half is kept whole.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Half {
    /// The tile modes (`outer_partition`: one element of every tile).
    Tile,
    /// The rest modes (`inner_partition`: one whole tile).
    Rest,
}

impl Layout {
    /// The zipped divide of `self` by `tiler`, sliced at `coord` in `half`, as CuTe's
    /// `inner_partition`/`outer_partition` slice it: an integer coordinate indexes the half
    /// flat (first mode fastest); a tuple indexes its leading top-level modes and keeps the
    /// trailing ones (CuTe's `append<R>(coord, _)`). The view keeps the tile modes left whole
    /// or unindexed, then the rest modes likewise, each as a top-level mode (a kept half of
    /// one mode stays as it is); the offset change is the index of the selected coordinate.
    ///
    /// The divide is read in the structure `like`, the shape of the divide of the tensor's
    /// own layout: the algebra refines a mode where the strides do not merge, and CuTe's
    /// coordinates follow that refinement; applied to another layout of the same shape (the
    /// tensor's ordinals, for autograd and the bounds check), the same structure gives the
    /// same elements. A layout whose divide is finer than `like` (a multi-subtensor tensor's
    /// `S_0`) keeps its own structure.
    pub(crate) fn partition_as(
        &self,
        op: &'static str,
        tiler: &Tiler,
        half: Half,
        coord: &IntTuple,
        like: &Shape,
    ) -> Result<(Layout, i64)> {
        let divided = self.zipped_divide_as(op, tiler)?;
        // A layout finer than `like` (a multi-subtensor tensor's `S_0`) keeps its own.
        let divided = if divided.shape() == like {
            divided
        } else {
            divided
                .compose_affine_as(op, &Layout::compact(like))
                .unwrap_or(divided)
        };
        let (tile_half, rest_half) = halves(&divided);
        let (tiles, rests) = (tile_half.top_layouts(), rest_half.top_layouts());
        let mut out = LayoutBuilder::default();
        // A kept half of one mode stays as it is (CuTe slices it with `_`, not `(_)`).
        let keep = |out: &mut LayoutBuilder, whole: &Layout, modes: &[Layout]| match modes {
            [_] => out.layout(whole),
            _ => modes.iter().for_each(|m| out.layout(m)),
        };
        let delta = match half {
            Half::Rest => {
                keep(&mut out, &tile_half, &tiles);
                select(op, half, &rests, coord, &mut out)?
            }
            Half::Tile => {
                let delta = select(op, half, &tiles, coord, &mut out)?;
                keep(&mut out, &rest_half, &rests);
                delta
            }
        };
        Ok((out.tuple(op)?, delta))
    }

    /// `(self ∘ tv)(thread, _)`: the values thread `thread` holds under the thread-value
    /// layout `tv`, a rank-1 view of `tv`'s value mode.
    pub(crate) fn thread_values_as(
        &self,
        op: &'static str,
        tv: &Layout,
        thread: usize,
    ) -> Result<(Layout, i64)> {
        let (threads, values) = tv_halves(op, tv)?;
        let threads_n = threads.size();
        if thread >= threads_n {
            return Err(thread_out_of_range(op, thread, threads_n, tv));
        }
        let composed = self.compose_in(op, tv)?;
        let (t, v) = halves(&composed);
        let mut out = LayoutBuilder::default();
        out.layout(&v);
        debug_assert_eq!(v.size(), values.size());
        Ok((out.tuple(op)?, t.eval(thread as i64)))
    }
}

/// The thread and value modes of a thread-value layout, which must have rank 2.
pub(crate) fn tv_halves(op: &'static str, tv: &Layout) -> Result<(Layout, Layout)> {
    if tv.rank() != 2 {
        return Err(Error::InvalidAxes {
            op,
            detail: format!(
                "the thread-value layout {tv} has rank {}; it must have rank 2 (thread, value)",
                tv.rank()
            ),
        });
    }
    Ok(halves(tv))
}

/// A thread index outside the `threads` of `layout`.
pub(crate) fn thread_out_of_range(
    op: &'static str,
    thread: usize,
    threads: usize,
    layout: &Layout,
) -> Error {
    Error::OutOfDomain {
        op,
        what: "thread",
        value: i64::try_from(thread).unwrap_or(i64::MAX),
        place: format!("the {threads} threads of {layout}"),
        bound: threads as i64,
    }
}

/// Slices the `modes` of one half of a zipped divide at `coord`, appending the modes it
/// keeps to `out`, and returns the index of the selected coordinate.
fn select(
    op: &'static str,
    half: Half,
    modes: &[Layout],
    coord: &IntTuple,
    out: &mut LayoutBuilder,
) -> Result<i64> {
    if let Some(c) = coord.as_int() {
        let n: i64 = modes.iter().map(|m| m.size() as i64).product();
        check_coordinate(op, half, c, n, None)?;
        // The flat coordinate's digits, first mode fastest.
        let (mut rest, mut delta) = (c, 0i64);
        for m in modes {
            let n = m.size() as i64;
            delta += m.eval(rest % n);
            rest /= n;
        }
        return Ok(delta);
    }
    if coord.rank() > modes.len() {
        return Err(Error::RankMismatch {
            op,
            what: match half {
                Half::Rest => "tile coordinates (at most one per mode of the tile grid)",
                Half::Tile => "coordinates within the tile (at most one per mode of the tile)",
            },
            expected: modes.len(),
            found: coord.rank(),
        });
    }
    let mut delta = 0i64;
    for (j, m) in modes.iter().enumerate() {
        let Some(c) = coord.get(j) else {
            out.layout(m);
            continue;
        };
        delta += match c.as_int() {
            Some(c) => {
                check_coordinate(op, half, c, m.size() as i64, Some(j))?;
                m.eval(c)
            }
            None => m.index_as(op, &c)?,
        };
    }
    Ok(delta)
}

/// Refuses a coordinate `c` outside `[0, n)` of a half (of its mode `mode`, if given).
fn check_coordinate(
    op: &'static str,
    half: Half,
    c: i64,
    n: i64,
    mode: Option<usize>,
) -> Result<()> {
    if (0..n).contains(&c) {
        return Ok(());
    }
    let (what, place) = match (half, mode) {
        (Half::Rest, None) => ("tile coordinate", format!("the {n} tiles")),
        (Half::Rest, Some(j)) => ("tile coordinate", format!("the {n} tiles along mode {j}")),
        (Half::Tile, None) => (
            "coordinate within the tile",
            format!("the tile of {n} elements"),
        ),
        (Half::Tile, Some(j)) => (
            "coordinate within the tile",
            format!("mode {j} of the tile, of extent {n}"),
        ),
    };
    Err(Error::OutOfDomain {
        op,
        what,
        value: c,
        place,
        bound: n,
    })
}

/// Refuses a tiler whose tiles would reach past the elements of a tensor of `shape` (the
/// residue CuTe leaves to predication): with a layout, over all of them; with a by-mode
/// tiler, mode by mode. Run after the algebra accepted `tiler` (which bounds its nesting).
pub(crate) fn check_tiles(op: &'static str, shape: &Shape, tiler: &Tiler) -> Result<()> {
    match tiler {
        Tiler::Keep => Ok(()),
        Tiler::Layout(b) => fits(op, "the tensor", shape.size(), b),
        Tiler::ByMode(ts) => check_modes(op, "", shape, ts),
    }
}

/// [`check_tiles`] for the modes of `shape` (at `path`) by a by-mode tiler.
fn check_modes(op: &'static str, path: &str, shape: &Shape, tilers: &[Tiler]) -> Result<()> {
    for (i, t) in tilers.iter().enumerate() {
        let Some(mode) = shape.mode(i) else {
            return Ok(()); // the algebra reports the rank
        };
        let here = format!("{path}{i}");
        match t {
            Tiler::Keep => {}
            Tiler::Layout(b) => fits(op, &format!("mode {here}"), mode.size(), b)?,
            Tiler::ByMode(ts) => check_modes(op, &format!("{here}."), &mode, ts)?,
        }
    }
    Ok(())
}

/// The tiles of `b` stay inside `n` elements: the divide of `n:1` by `b` reaches below `n`.
fn fits(op: &'static str, what: &str, n: usize, b: &Layout) -> Result<()> {
    let divided = Layout::compact(&Shape(IntTuple::int(n as i64))).logical_divide_in(op, b)?;
    let (lo, hi) = divided.reach();
    if lo < 0 || hi >= n as i64 {
        return Err(Error::ViewOutOfBounds {
            op,
            detail: format!(
                "the tile {b} of {} elements does not divide {what} of extent {n}: its tiles would reach index {hi} (CuTe leaves this residue to predication; pad the tensor or choose a tile that divides it)",
                b.size()
            ),
        });
    }
    Ok(())
}
