//! Random layouts and tensors: the grid's cells and the printed values agree with naive
//! references; `to_svg_tv` never panics, and its error names the operation.

use crate::display::grids::cute_print_layout;
use crate::display::svg::texts;
use proptest::prelude::*;
use strideweave::{Layout, Tensor};

/// A flat rank-2 layout with extents 1..=12 and strides -5..=20.
fn flat2() -> impl Strategy<Value = Layout> {
    (1i64..=12, 1i64..=12, -5i64..=20, -5i64..=20)
        .prop_map(|(a, b, s, t)| format!("({a},{b}):({s},{t})").parse().unwrap())
}

/// Eleven columns of index 0: the cells are as wide as the label `10`, where CuTe's would
/// keep the cosize's one digit and misalign the header.
#[test]
fn to_text_grid_widens_cells_for_a_label_wider_than_the_cosize() {
    let l: Layout = "(1,11):(0,0)".parse().unwrap();
    let rule = format!("    {}+\n", "+----".repeat(11));
    let header: String = (0..11).map(|n| format!("  {n:>2} ")).collect();
    let row: String = (0..11).map(|_| "|  0 ").collect();
    let want = format!("(1,11):(0,0)\n    {header}\n{rule} 0  {row}|\n{rule}");
    assert_eq!(l.to_text_grid(), want);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// On non-negative strides the grid is CuTe's wherever CuTe's cells hold their column
    /// labels; on any, each cell is `L(m, n)`.
    #[test]
    fn to_text_grid_cells_are_the_layout_indices(l in flat2()) {
        let g = l.to_text_grid();
        let digits = |x: i64| x.to_string().len();
        let cols = l.shape().mode(1).unwrap().size() as i64;
        // CuTe sizes a cell by the cosize's digits alone, so a label such as 10 over cells
        // of width 1 (`(1,11):(0,0)`) is misaligned there; the grid widens those cells.
        let labels_fit = digits(cols - 1) <= digits(l.cosize() as i64);
        if labels_fit && l.stride().leaves().iter().all(|&d| d >= 0) {
            prop_assert_eq!(&g, &cute_print_layout(&l));
        }
        let rows = l.shape().mode(0).unwrap().size();
        for (m, line) in g.lines().skip(3).step_by(2).take(rows).enumerate() {
            let cells: Vec<i64> = line.split('|').skip(1).filter(|c| !c.trim().is_empty())
                .map(|c| c.trim().parse().unwrap()).collect();
            let naive: Vec<i64> = (0..cells.len())
                .map(|n| l.index(&[m as i64, n as i64].into()).unwrap()).collect();
            prop_assert_eq!(cells, naive);
        }
    }

    /// Printed values, read back in order, are the row-major values (mode 0 outermost).
    #[test]
    fn display_values_are_the_row_major_values(l in flat2(), reverse in any::<bool>()) {
        let t = Tensor::arange::<i64>(l.shape());
        let t = if reverse { t.reverse(1).unwrap() } else { t.permute(&[0, 1]).unwrap() };
        let printed: Vec<i64> = format!("{t:#}")
            .split(|c: char| !(c.is_ascii_digit() || c == '-'))
            .filter(|s| !s.is_empty())
            .map(|s| s.parse().unwrap())
            .collect();
        prop_assert_eq!(printed, t.to_vec_row_major::<i64>().unwrap());
    }

    /// `to_svg_tv`: a result labels every reached cell with the lowest (thread, value) that
    /// reaches its index; an error starts with the operation's name.
    #[test]
    fn to_svg_tv_agrees_with_a_naive_search(tile in flat2(), tv in flat2(), rank3 in any::<bool>()) {
        let tv = if rank3 { tv.append(&"2:1".parse().unwrap()).unwrap() } else { tv };
        match tile.to_svg_tv(&tv) {
            Err(e) => {
                prop_assert!(rank3);
                prop_assert!(e.to_string().starts_with("to_svg_tv: "));
            }
            Ok(svg) => {
                let (rows, cols) = (tile.shape().mode(0).unwrap().size(), tile.shape().mode(1).unwrap().size());
                let threads = tv.shape().mode(0).unwrap().size();
                let values = tv.shape().mode(1).unwrap().size();
                let mut expect = Vec::new();
                for m in 0..rows {
                    for n in 0..cols {
                        let k = tile.index(&[m as i64, n as i64].into()).unwrap();
                        let hit = (0..threads).flat_map(|t| (0..values).map(move |v| (t, v)))
                            .find(|&(t, v)| tv.index(&[t as i64, v as i64].into()).unwrap() == k);
                        if let Some((t, v)) = hit {
                            expect.push(format!("T{t}"));
                            expect.push(format!("V{v}"));
                        }
                    }
                }
                let t = texts(&svg);
                prop_assert_eq!(&t[rows + cols..], &expect[..]);
            }
        }
    }
}
