use strideweave::shape;

fn main() {
    let _ = shape!("Shape([2, [3, 4])");
    let _ = shape!("(2,-1)");
}
