// The same composition written with `LayoutCode`'s const fns in a `const` item: the error
// points at the item.
use strideweave::{LayoutCode, StaticLayout, layout_t};

const TILE: LayoutCode = <layout_t!((4, 6) : (1, 10))>::LAYOUT.compose(&LayoutCode::leaf(6, 1));

fn main() {
    println!("{TILE}");
}
