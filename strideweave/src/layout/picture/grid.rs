//! `Layout::to_text_grid`: CuTe's `print_layout` table of indices.

use super::{Slot, grid_axes};
use crate::layout::Layout;
use std::fmt::Write;

impl Layout {
    /// The layout as a table of indices, as CuTe's `print_layout` prints it: the notation on
    /// the first line, the column coordinates, then one row per coordinate of mode 0 with the
    /// index `L(row, column)` in each cell. A rank-2 layout with flat modes prints exactly as
    /// CuTe prints it, except that the cells widen for a column label or index with more
    /// digits than the cosize (CuTe misaligns those).
    ///
    /// What is shown for other layouts (CuTe accepts only rank 2):
    ///
    /// - a **hierarchical mode** is read through its flat coordinate (its first child
    ///   fastest) and its groups — runs of its first child — are separated: by `‖` between
    ///   columns and by a `+===+` rule between rows;
    /// - **rank 1** is one row (row 0) with the mode across; **rank 0** is one cell;
    /// - **rank 3 and more**: mode 0 down, the modes from 1 on across as one hierarchical
    ///   mode (so a group is one coordinate of the modes after 1, and each run of mode 1
    ///   sits between `‖`s);
    /// - a mode longer than 64 positions shows its first and last 32, with `…` between.
    ///
    /// ```
    /// use strideweave::Layout;
    /// let l: Layout = "(2,3):(3,1)".parse()?;
    /// assert_eq!(l.to_text_grid(), concat!(
    ///     "(2,3):(3,1)\n",
    ///     "      0   1   2 \n",
    ///     "    +---+---+---+\n",
    ///     " 0  | 0 | 1 | 2 |\n",
    ///     "    +---+---+---+\n",
    ///     " 1  | 3 | 4 | 5 |\n",
    ///     "    +---+---+---+\n",
    /// ));
    /// let h: Layout = "(2,(2,2)):(4,(2,1))".parse()?;
    /// assert_eq!(h.to_text_grid(), concat!(
    ///     "(2,(2,2)):(4,(2,1))\n",
    ///     "      0   1   2   3 \n",
    ///     "    +---+---+---+---+\n",
    ///     " 0  | 0 | 2 ‖ 1 | 3 |\n",
    ///     "    +---+---+---+---+\n",
    ///     " 1  | 4 | 6 ‖ 5 | 7 |\n",
    ///     "    +---+---+---+---+\n",
    /// ));
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn to_text_grid(&self) -> String {
        let (rows, cols) = grid_axes(self);
        let (row_slots, col_slots) = (rows.slots(), cols.slots());
        let cell = |r: usize, c: usize| rows.offsets[r] + cols.offsets[c];
        // CuTe's cell width: the digits of the cosize; wider when an index or label needs it.
        let mut w = digits(self.cosize() as i64);
        for (r, c) in shown(&row_slots).flat_map(|r| shown(&col_slots).map(move |c| (r, c))) {
            w = w.max(digits(cell(r.0, c.0)));
        }
        for c in shown(&col_slots) {
            w = w.max(digits(c.1 as i64));
        }
        let label_w = shown(&row_slots)
            .map(|r| digits(r.1 as i64))
            .max()
            .unwrap_or(1)
            .max(2);
        let pad = " ".repeat(label_w + 2);
        let mut out = format!("{self}\n{pad}");
        for s in &col_slots {
            let _ = write!(out, "  {:>w$} ", label(s));
        }
        out.push('\n');
        let rule = |out: &mut String, fill: char| {
            out.push_str(&pad);
            for _ in &col_slots {
                out.push('+');
                out.extend(std::iter::repeat_n(fill, w + 2));
            }
            out.push_str("+\n");
        };
        for rs in &row_slots {
            let group = matches!(
                rs,
                Slot::Shown {
                    group_start: true,
                    ..
                }
            );
            rule(&mut out, if group { '=' } else { '-' });
            let _ = write!(out, "{:>label_w$}  ", label(rs));
            for cs in &col_slots {
                let bar = match cs {
                    Slot::Shown {
                        group_start: true, ..
                    } => '‖',
                    _ => '|',
                };
                let text = match (rs, cs) {
                    (Slot::Shown { k: r, .. }, Slot::Shown { k: c, .. }) => {
                        cell(*r, *c).to_string()
                    }
                    _ => "…".to_string(),
                };
                let _ = write!(out, "{bar} {text:>w$} ");
            }
            out.push_str("|\n");
        }
        rule(&mut out, '-');
        out
    }
}

/// The shown slots as `(k, position)`.
pub(super) fn shown(slots: &[Slot]) -> impl Iterator<Item = (usize, usize)> + Clone + '_ {
    slots.iter().filter_map(|s| match s {
        Slot::Shown { k, position, .. } => Some((*k, *position)),
        Slot::Skipped => None,
    })
}

/// A slot's label: its position, or `…`.
pub(super) fn label(slot: &Slot) -> String {
    match slot {
        Slot::Shown { position, .. } => position.to_string(),
        Slot::Skipped => "…".to_string(),
    }
}

/// The printed width of `v` (CuTe's `num_digits`, with the sign of a negative index).
fn digits(v: i64) -> usize {
    v.to_string().len()
}
