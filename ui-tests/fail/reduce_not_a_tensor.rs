use strideweave::reduce;

fn main() {
    let v = vec![1.0f32, 2.0];
    let _ = reduce!(&v, "a -> ", sum);
}
