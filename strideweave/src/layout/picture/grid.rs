//! `Layout::to_text_grid`: CuTe's `print_layout` table of indices, and
//! `Layout::to_text_grid_tv`: the table of which thread and value hold each element.

use super::{Slot, grid_axes, holders};
use crate::error::Result;
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
        // CuTe's cell width: the digits of the cosize; wider when an index or label needs it.
        let w = digits(self.cosize() as i64);
        self.text_grid(&self.to_string(), w, |index| index.to_string())
    }

    /// The layout as a table of which thread and value hold each element, as
    /// [`to_svg_tv`](Self::to_svg_tv) draws it: the cells of
    /// [`to_text_grid`](Self::to_text_grid), each showing `T<thread>V<value>` for the first
    /// `(thread, value)` of the rank-2 thread-value layout `tv` that reaches its index (empty
    /// when none does).
    ///
    /// ```
    /// use strideweave::Layout;
    /// let tile: Layout = "(4,6):(1,4)".parse()?; // a 4×6 tile, column-major ordinals
    /// let tv = Layout::tv(&"(2,3):(3,1)".parse()?, &"(2,2):(2,1)".parse()?)?;
    /// let grid = tile.to_text_grid_tv(&tv)?;
    /// assert_eq!(grid.lines().nth(3).unwrap(),
    ///     " 0  | T0V0 | T0V1 | T1V0 | T1V1 | T2V0 | T2V1 |");
    /// assert_eq!(grid.lines().nth(9).unwrap(),
    ///     " 3  | T3V2 | T3V3 | T4V2 | T4V3 | T5V2 | T5V3 |");
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn to_text_grid_tv(&self, tv: &Layout) -> Result<String> {
        let lowest = holders("to_text_grid_tv", tv)?;
        let title = format!("{self} held by {tv}");
        Ok(self.text_grid(&title, 1, |index| match lowest.get(&index) {
            Some((t, v)) => format!("T{t}V{v}"),
            None => String::new(),
        }))
    }

    /// The table of [`to_text_grid`](Self::to_text_grid) under `title`, each cell showing
    /// `text(index)`, cells at least `w` characters wide.
    fn text_grid(&self, title: &str, w: usize, text: impl Fn(i64) -> String) -> String {
        let (rows, cols) = grid_axes(self);
        let (row_slots, col_slots) = (rows.slots(), cols.slots());
        let cell = |r: usize, c: usize| text(rows.offsets[r] + cols.offsets[c]);
        let mut w = w;
        for (r, c) in shown(&row_slots).flat_map(|r| shown(&col_slots).map(move |c| (r, c))) {
            w = w.max(cell(r.0, c.0).chars().count());
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
        let mut out = format!("{title}\n{pad}");
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
                    (Slot::Shown { k: r, .. }, Slot::Shown { k: c, .. }) => cell(*r, *c),
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
