// After a pattern mistake the macro still returns a value of the right type (its shape
// marked as the result of an error), so the code after it type-checks silently.
use strideweave::{StaticTensor, rearrange, shape_t};

fn main() {
    let t = StaticTensor::<f32, shape_t!(2, 3)>::arange();
    let v = rearrange!(&t, "a b -> b a x");
    let w = rearrange!(v, "b a -> a b");
    let n: usize = w.shape().size();
    println!("{n}");
}
