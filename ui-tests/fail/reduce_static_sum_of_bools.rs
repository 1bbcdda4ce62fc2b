use strideweave::{StaticTensor, reduce, shape_t};

fn main() {
    let t = StaticTensor::<bool, shape_t!(2, 3)>::zeros();
    let _ = reduce!(&t, "a b ->", sum);
}
