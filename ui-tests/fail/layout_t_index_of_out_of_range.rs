// A static layout's index math in a `const` item is checked while the program is built: an
// ordinal outside the layout is a compile error at the item.
use strideweave::layout_t;

type Tile = layout_t!((4, 8) : (1, 4));

const LAST: i64 = Tile::index_of(32);

fn main() {
    println!("{LAST}");
}
