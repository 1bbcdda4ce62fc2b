// The algebra on static layouts runs while the program is built: a composition the run-time
// algebra refuses (6 elements do not tile the left operand's first mode of 4) is a compile
// error with the run-time message.
use strideweave::{Compose, layout_t};

type Tile = Compose<layout_t!((4, 6) : (1, 10)), layout_t!(6 : 1)>;

fn main() {
    println!("{}", Tile::index_of(0));
}
