use strideweave::{StaticTensor, rearrange, reduce, shape_t};

// A failed check poisons the result's shape: the calls after it stay silent (one mistake,
// one error).
fn main() {
    let t = StaticTensor::<f32, shape_t!(10, 4)>::arange();
    let m = reduce!(&t, "a b c -> a", sum).unwrap();
    let r = rearrange!(&m, "x y -> y x");
    let _ = reduce!(&r, "x y z ->", max);
}
