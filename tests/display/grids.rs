//! `Layout::to_text_grid` against CuTe's `print_layout` (cute/util/print_layout.hpp: the
//! notation, the column indices, `+----` rules and `| %*d ` cells, width
//! `num_digits(cosize) + 2`), re-done here line by line from that printf code as the
//! reference for flat rank-2 layouts; snapshots for what CuTe does not print.

use crate::display::snapshot;
use strideweave::Layout;

/// CuTe's `print_layout(layout)` for a flat rank-2 layout, following its printf calls.
pub fn cute_print_layout(l: &Layout) -> String {
    let (m_size, n_size) = (
        l.shape().mode(0).unwrap().size(),
        l.shape().mode(1).unwrap().size(),
    );
    let num_digits = |x: usize| x.to_string().len();
    let idx_width = num_digits(l.cosize()) + 2;
    let delim = "+-----------------------";
    let mut s = format!("{l}\n");
    s += "    ";
    for n in 0..n_size {
        s += &format!("  {:>w$} ", n, w = idx_width - 2);
    }
    s += "\n";
    let rule = |s: &mut String| {
        *s += "    ";
        for _ in 0..n_size {
            *s += &delim[..idx_width + 1];
        }
        *s += "+\n";
    };
    for m in 0..m_size {
        rule(&mut s);
        s += &format!("{m:>2}  ");
        for n in 0..n_size {
            let idx = l.index(&[m as i64, n as i64].into()).unwrap();
            s += &format!("| {:>w$} ", idx, w = idx_width - 2);
        }
        s += "|\n";
    }
    rule(&mut s);
    s
}

#[test]
fn to_text_grid_matches_cute_print_layout_on_flat_rank_2_layouts() {
    for text in [
        "(2,3):(3,1)",
        "(4,2):(2,1)",
        "(8,8):(1,8)",
        "(4,4):(4,1)",
        "(2,5):(5,1)",
        "(3,4):(0,1)",
        "(16,4):(1,16)",
    ] {
        let l: Layout = text.parse().unwrap();
        assert_eq!(l.to_text_grid(), cute_print_layout(&l), "{text}");
    }
}

#[test]
fn to_text_grid_cute_reference_output_by_hand() {
    // What CuTe prints for make_layout(make_shape(2,3), make_stride(3,1)).
    let l: Layout = "(2,3):(3,1)".parse().unwrap();
    assert_eq!(
        l.to_text_grid(),
        "(2,3):(3,1)\n      0   1   2 \n    +---+---+---+\n 0  | 0 | 1 | 2 |\n    +---+---+---+\n 1  | 3 | 4 | 5 |\n    +---+---+---+\n"
    );
}

#[test]
fn to_text_grid_flattens_hierarchical_modes_with_separators() {
    snapshot(
        "grid_hier_columns",
        &"(2,(2,2)):(4,(2,1))"
            .parse::<Layout>()
            .unwrap()
            .to_text_grid(),
    );
    snapshot(
        "grid_hier_rows",
        &"((2,2),3):((1,6),2)"
            .parse::<Layout>()
            .unwrap()
            .to_text_grid(),
    );
}

#[test]
fn to_text_grid_rank_0_1_and_3() {
    snapshot(
        "grid_rank0",
        &"():()".parse::<Layout>().unwrap().to_text_grid(),
    );
    snapshot(
        "grid_rank1",
        &"8:2".parse::<Layout>().unwrap().to_text_grid(),
    );
    snapshot(
        "grid_rank3",
        &"(2,3,2):(1,2,6)".parse::<Layout>().unwrap().to_text_grid(),
    );
}

#[test]
fn to_text_grid_summarises_modes_longer_than_64() {
    let l: Layout = "(3,100):(100,1)".parse().unwrap();
    let g = l.to_text_grid();
    assert_eq!(g.lines().count(), 2 + 2 * 3 + 1);
    let first_row = g.lines().nth(3).unwrap();
    assert!(first_row.contains("|  31 |   … |  68 |"), "{first_row}");
    let huge: Layout = "(1048576,1048576):(0,0)".parse().unwrap();
    assert!(huge.to_text_grid().lines().count() < 2 * 66 + 3);
}
