use strideweave::layout;

fn main() {
    let _ = layout!((2, 3) : (1, 99999999999999999999));
}
