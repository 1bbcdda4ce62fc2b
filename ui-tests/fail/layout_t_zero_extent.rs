// `layout_t!` reads and checks its literal as `layout!` does: an extent below 1 is refused at
// the offending token.
use strideweave::layout_t;

type Tile = layout_t!((4, (0, 2)) : (1, (4, 8)));

fn main() {
    let _ = Tile::size();
}
