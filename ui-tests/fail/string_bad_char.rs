use strideweave::layout;

fn main() {
    let _ = layout!("(2,x):(1,2)");
}
