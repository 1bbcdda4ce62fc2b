use strideweave::layout;

fn main() {
    let _ = layout!((2, 3) : (1, 2) : (4, 5));
}
