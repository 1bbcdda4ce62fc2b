//! Pictures of layouts: [`Layout::to_text_grid`] (CuTe's `print_layout`) and
//! [`Layout::to_text_grid_tv`], [`Layout::to_svg`] / [`Layout::to_svg_tv`] (CuTe's `print_latex`/`print_svg`, drawn as
//! SVG), plus the [`Axis`] that the tensor printer shares with them.

mod axis;
mod grid;
mod svg;

pub(crate) use axis::{Axis, Slot};

use crate::budget::EXACT_STEPS;
use crate::error::{Error, Result};
use crate::layout::Layout;
use crate::layout::partition::tv_halves;
use std::collections::HashMap;

/// A mode longer than `2 × PICTURE_EDGE` positions is drawn as its first and last
/// `PICTURE_EDGE` positions with a `…` between them, so a picture has at most 65 rows and 65
/// columns whatever the layout's size.
pub(crate) const PICTURE_EDGE: usize = 32;

/// The rows and columns of a picture of `layout`: rank 0 is one cell, rank 1 one row (its
/// mode along the columns), rank 2 mode 0 down and mode 1 across, and a higher rank mode 0
/// down and the modes from 1 on across, read as one hierarchical mode whose groups are the
/// runs of mode 1.
pub(crate) fn grid_axes(layout: &Layout) -> (Axis, Axis) {
    let edge = Some(PICTURE_EDGE);
    let modes = layout.top_layouts();
    match modes.len() {
        0 => (Axis::unit(), Axis::unit()),
        1 => (Axis::unit(), Axis::of(&modes[0], edge)),
        2 => (Axis::of(&modes[0], edge), Axis::of(&modes[1], edge)),
        _ => {
            let across = layout
                .modes(1..)
                // unreachable from user input: the rank is at least 3 in this arm
                .expect("modes 1.. of a layout of rank 3 or more exist");
            (Axis::of(&modes[0], edge), Axis::of(&across, edge))
        }
    }
}

/// Who holds each index under the thread-value layout `tv` (rank 2, `(thread, value) →
/// index`): the first `(thread, value)` — lowest thread, then value — that reaches it.
pub(crate) fn holders(op: &'static str, tv: &Layout) -> Result<HashMap<i64, (usize, usize)>> {
    tv_halves(op, tv)?;
    let size = tv.size();
    if size as u128 > EXACT_STEPS {
        return Err(Error::TooLarge {
            op,
            detail: format!(
                "the thread-value layout {tv} has {size} (thread, value) pairs, more than the {EXACT_STEPS} a picture reads"
            ),
        });
    }
    let threads = tv.shape().mode(0).map_or(1, |s| s.size());
    let mut lowest: HashMap<i64, (usize, usize)> = HashMap::new();
    lowest.try_reserve(size).map_err(|e| Error::TooLarge {
        op,
        detail: format!("cannot allocate the map of {size} (thread, value) pairs: {e}"),
    })?;
    for i in 0..size {
        let (t, v) = (i % threads, i / threads);
        let e = lowest.entry(tv.eval(i as i64)).or_insert((t, v));
        *e = (*e).min((t, v));
    }
    Ok(lowest)
}
