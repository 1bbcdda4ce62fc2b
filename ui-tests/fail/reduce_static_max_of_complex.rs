use strideweave::{Complex32, Reduction, StaticTensor, reduce, shape_t};

fn main() {
    let t = StaticTensor::<Complex32, shape_t!(2, 3)>::zeros();
    let _ = reduce!(&t, "a b -> a", Reduction::Max);
}
