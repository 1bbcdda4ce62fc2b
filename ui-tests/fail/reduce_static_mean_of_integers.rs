use strideweave::{StaticTensor, reduce, shape_t};

fn main() {
    let t = StaticTensor::<i32, shape_t!(2, 3)>::arange();
    let _ = reduce!(&t, "a b -> a", mean);
}
