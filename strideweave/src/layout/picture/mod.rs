//! Pictures of layouts: [`Layout::to_text_grid`] (CuTe's `print_layout`) and
//! [`Layout::to_svg`] / [`Layout::to_svg_tv`] (CuTe's `print_latex`/`print_svg`, drawn as
//! SVG), plus the [`Axis`] that the tensor printer shares with them.

mod axis;
mod grid;
mod svg;

pub(crate) use axis::{Axis, Slot};

use crate::layout::Layout;

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
