use strideweave::rearrange;

fn main() {
    let v = vec![1, 2, 3];
    let _ = rearrange!(&v, "a -> a");
}
