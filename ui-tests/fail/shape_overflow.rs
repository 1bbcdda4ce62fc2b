use strideweave::shape;

fn main() {
    let _ = shape!(65536, (65536, 65536), 65536);
}
