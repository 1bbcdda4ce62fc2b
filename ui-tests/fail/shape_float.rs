use strideweave::shape;

fn main() {
    let _ = shape!(2, 3.0);
}
