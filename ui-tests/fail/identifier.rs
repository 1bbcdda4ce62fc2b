use strideweave::layout;

const N: i64 = 4;

fn main() {
    let _ = layout!((2, N) : (1, 2));
}
