//! `Layout::to_svg` and `to_svg_tv`: well-formed SVG (parsed with roxmltree), one square per
//! shown coordinate holding the right index or thread and value.

use crate::display::snapshot;
use strideweave::Layout;

/// The texts of the `<text>` elements, in document order.
pub fn texts(svg: &str) -> Vec<String> {
    let doc = roxmltree::Document::parse(svg).expect("well-formed SVG");
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    root.children()
        .filter(|n| n.has_tag_name("text"))
        .map(|n| n.text().unwrap_or("").to_string())
        .collect()
}

#[test]
fn to_svg_is_valid_svg_with_one_coloured_cell_per_index() {
    let l: Layout = "(2,3):(3,1)".parse().unwrap();
    let svg = l.to_svg();
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let rects: Vec<_> = doc
        .descendants()
        .filter(|n| n.has_tag_name("rect"))
        .collect();
    assert_eq!(rects.len(), 6);
    // CuTe's print_latex greys: index 0 white (black!00), index 1 black!40, index 2 black!20.
    assert_eq!(rects[0].attribute("fill"), Some("rgb(255,255,255)"));
    assert_eq!(rects[1].attribute("fill"), Some("rgb(153,153,153)"));
    let title = doc.descendants().find(|n| n.has_tag_name("title")).unwrap();
    assert_eq!(title.text(), Some("(2,3):(3,1)"));
    // column labels 0..3, row labels 0..2, then the cells row by row
    assert_eq!(
        texts(&svg),
        ["0", "1", "2", "0", "1", "0", "1", "2", "3", "4", "5"]
    );
    snapshot("svg_2x3", &svg);
}

#[test]
fn to_svg_of_hierarchical_summarised_and_rank_0_layouts_parses() {
    for text in [
        "(2,(2,2)):(4,(2,1))",
        "(100,3):(3,1)",
        "():()",
        "8:1",
        "(2,3,4):(12,4,1)",
    ] {
        let l: Layout = text.parse().unwrap();
        let svg = l.to_svg();
        texts(&svg);
        let shown = (l.size() as f64).min(65.0 * 65.0);
        let rects = svg.matches("<rect").count();
        assert!(rects as f64 <= shown && rects >= 1, "{text}: {rects}");
    }
    let h = "(2,(2,2)):(4,(2,1))".parse::<Layout>().unwrap().to_svg();
    assert_eq!(
        h.matches("stroke-width=\"3\"").count(),
        1,
        "one group boundary"
    );
}

#[test]
fn to_svg_tv_labels_each_cell_with_its_thread_and_value() {
    // An 8×4 tile, 4 threads, 8 values each: thread t holds columns... (t,v) ↦ t·8 + v
    // (column-major ordinal of the tile), so thread t holds column t.
    let tile: Layout = "(8,4):(1,8)".parse().unwrap();
    let tv: Layout = "(4,8):(8,1)".parse().unwrap();
    let svg = tile.to_svg_tv(&tv).unwrap();
    let t = texts(&svg);
    let cells = &t[4 + 8..];
    // row 0: (0,0) is T0 V0, (0,1) is T1 V0, …
    assert_eq!(cells[..4], ["T0", "V0", "T1", "V0"]);
    // row 7, column 3: T3 V7
    assert_eq!(cells[cells.len() - 2..], ["T3", "V7"]);
    assert!(svg.contains("rgb(175,175,255)") && svg.contains("rgb(255,175,175)"));
    snapshot("svg_tv_8x4", &svg);
}

#[test]
fn to_svg_tv_leaves_unreached_cells_empty_and_refuses_bad_tv_layouts() {
    let tile: Layout = "(2,2):(1,2)".parse().unwrap();
    let svg = tile.to_svg_tv(&"(2,1):(1,0)".parse().unwrap()).unwrap();
    assert_eq!(svg.matches("fill=\"white\"").count(), 2);
    let err = tile.to_svg_tv(&"8:1".parse().unwrap()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "to_svg_tv: the thread-value layout 8:1 has rank 1; it must have rank 2 (thread, value)"
    );
    let big: Layout = "(1048576,2):(1,1048576)".parse().unwrap();
    let err = tile.to_svg_tv(&big).unwrap_err();
    assert!(err.to_string().starts_with("to_svg_tv: the thread-value layout (1048576,2):(1,1048576) has 2097152 (thread, value) pairs"), "{err}");
}
