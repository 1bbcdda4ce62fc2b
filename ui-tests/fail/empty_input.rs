use strideweave::layout;

fn main() {
    let _ = layout!();
}
