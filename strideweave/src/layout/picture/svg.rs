//! `Layout::to_svg` and `Layout::to_svg_tv`: pictures of a layout as SVG, cells coloured by
//! index (CuTe's `print_latex`) or by thread (CuTe's `print_latex_tv`).

use super::grid::label;
use super::{Axis, Slot, grid_axes, holders};
use crate::error::Result;
use crate::layout::Layout;
use std::fmt::Write;

/// The side of one cell, in SVG user units.
const CELL: usize = 32;

/// CuTe's `print_latex` greys for `index % 8` (`black!00`, `black!40`, `black!20`, …) as RGB.
const GREYS: [u8; 8] = [255, 153, 204, 102, 230, 128, 179, 77];

/// CuTe's `print_latex_tv` colours for `thread % 8`.
const THREAD_COLOURS: [(u8, u8, u8); 8] = [
    (175, 175, 255),
    (175, 255, 175),
    (255, 255, 175),
    (255, 175, 175),
    (210, 210, 255),
    (210, 255, 210),
    (255, 255, 210),
    (255, 210, 210),
];

impl Layout {
    /// The layout as an SVG picture: one square per coordinate, laid out as in
    /// [`to_text_grid`](Self::to_text_grid) (mode 0 down, the rest across, `…` for the
    /// middle of a mode longer than 64), holding its index and filled with one of CuTe's
    /// `print_latex` greys by `index % 8`; row and column coordinates along the left and top
    /// edges, a thick line between the groups of a hierarchical mode, the notation as the
    /// `<title>`.
    ///
    /// ```
    /// use strideweave::Layout;
    /// let svg = "(2,3):(3,1)".parse::<Layout>()?.to_svg();
    /// assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    /// assert!(svg.contains("<title>(2,3):(3,1)</title>"));
    /// assert_eq!(svg.matches("<rect").count(), 6);
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn to_svg(&self) -> String {
        let (rows, cols) = grid_axes(self);
        picture(&self.to_string(), &rows, &cols, |index| {
            let g = GREYS[index.rem_euclid(8) as usize];
            let ink = if g <= 128 { "white" } else { "black" };
            Cell {
                fill: format!("rgb({g},{g},{g})"),
                ink,
                lines: vec![index.to_string()],
            }
        })
    }

    /// The layout as an SVG picture of which thread holds which element, CuTe's
    /// `print_latex_tv`: `self` places the cells as in [`to_svg`](Self::to_svg) (mode 0
    /// down, the rest across), and `tv`, a rank-2 thread-value layout
    /// `(thread, value) → index` into the same indices, says who holds each one. A cell shows
    /// `T<thread>` over `V<value>` for the first `(thread, value)` (lowest thread, then
    /// value) that reaches its index, filled with CuTe's colour of `thread % 8`; a cell no
    /// thread reaches is left white and empty.
    ///
    /// With `self` the compact layout of an `M × N` tile, this is CuTe's
    /// `print_latex_tv(tv, tile)`: `tv` maps to the column-major ordinal of `(m, n)`.
    ///
    /// ```
    /// use strideweave::Layout;
    /// let tile: Layout = "(4,2):(1,4)".parse()?;
    /// // 4 threads, 2 values each: thread t holds row t.
    /// let tv: Layout = "(4,2):(1,4)".parse()?;
    /// let svg = tile.to_svg_tv(&tv)?;
    /// assert!(svg.contains(">T3</text>") && svg.contains(">V1</text>"));
    /// let err = tile.to_svg_tv(&"(4,2,2):(1,4,8)".parse()?).unwrap_err();
    /// assert!(err.to_string().starts_with("to_svg_tv: the thread-value layout (4,2,2):(1,4,8) has rank 3"));
    /// # Ok::<(), strideweave::Error>(())
    /// ```
    pub fn to_svg_tv(&self, tv: &Layout) -> Result<String> {
        let lowest = holders("to_svg_tv", tv)?;
        let (rows, cols) = grid_axes(self);
        let title = format!("{self} held by {tv}");
        Ok(picture(&title, &rows, &cols, |index| {
            match lowest.get(&index) {
                Some(&(t, v)) => {
                    let (r, g, b) = THREAD_COLOURS[t % 8];
                    Cell {
                        fill: format!("rgb({r},{g},{b})"),
                        ink: "black",
                        lines: vec![format!("T{t}"), format!("V{v}")],
                    }
                }
                None => Cell {
                    fill: "white".into(),
                    ink: "black",
                    lines: Vec::new(),
                },
            }
        }))
    }
}

/// What one cell shows.
struct Cell {
    fill: String,
    ink: &'static str,
    lines: Vec<String>,
}

/// The SVG document of a grid of cells: `cell(index)` says how to draw the cell of each
/// shown coordinate.
fn picture(title: &str, rows: &Axis, cols: &Axis, cell: impl Fn(i64) -> Cell) -> String {
    let (row_slots, col_slots) = (rows.slots(), cols.slots());
    let (w, h) = ((col_slots.len() + 1) * CELL, (row_slots.len() + 1) * CELL);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"monospace\" font-size=\"12\" text-anchor=\"middle\" dominant-baseline=\"central\">\n<title>{title}</title>\n"
    );
    let text = |out: &mut String, x: usize, y: usize, ink: &str, s: &str| {
        let _ = writeln!(out, "<text x=\"{x}\" y=\"{y}\" fill=\"{ink}\">{s}</text>");
    };
    let centre = |slot: usize| slot * CELL + CELL + CELL / 2;
    for (c, s) in col_slots.iter().enumerate() {
        text(&mut out, centre(c), CELL / 2, "black", &label(s));
    }
    for (r, s) in row_slots.iter().enumerate() {
        text(&mut out, CELL / 2, centre(r), "black", &label(s));
    }
    for (r, rs) in row_slots.iter().enumerate() {
        for (c, cs) in col_slots.iter().enumerate() {
            let (x, y) = (CELL + c * CELL, CELL + r * CELL);
            let (Slot::Shown { k: rk, .. }, Slot::Shown { k: ck, .. }) = (rs, cs) else {
                text(&mut out, x + CELL / 2, y + CELL / 2, "black", "…");
                continue;
            };
            let Cell { fill, ink, lines } = cell(rows.offsets[*rk] + cols.offsets[*ck]);
            let _ = writeln!(
                out,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{fill}\" stroke=\"black\"/>"
            );
            let n = lines.len();
            for (i, line) in lines.iter().enumerate() {
                // n lines 12 units apart, centred in the cell
                let dy = (2 * i + 1) * 6 + CELL / 2 - 6 * n;
                text(&mut out, x + CELL / 2, y + dy, ink, line);
            }
        }
    }
    let line = |out: &mut String, (x1, y1): (usize, usize), (x2, y2): (usize, usize)| {
        let _ = writeln!(
            out,
            "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"black\" stroke-width=\"3\"/>"
        );
    };
    // A thick line before each group start: vertical across, horizontal down.
    for (across, slots) in [(true, &col_slots), (false, &row_slots)] {
        for (i, s) in slots.iter().enumerate() {
            if let Slot::Shown {
                group_start: true, ..
            } = s
            {
                let at = CELL + i * CELL;
                let (from, to) = if across {
                    ((at, CELL), (at, h))
                } else {
                    ((CELL, at), (w, at))
                };
                line(&mut out, from, to);
            }
        }
    }
    out.push_str("</svg>\n");
    out
}
