use strideweave::layout;

fn main() {
    let _ = layout!((2, (3 4)) : (1, (2, 6)));
}
