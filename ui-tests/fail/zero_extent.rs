use strideweave::layout;

fn main() {
    let _ = layout!((2, (0, 4)) : (1, (2, 6)));
}
