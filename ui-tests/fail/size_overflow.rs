use strideweave::layout;

fn main() {
    let _ = layout!((4294967296, 4294967296) : (1, 0));
}
