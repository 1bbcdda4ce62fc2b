// One mistake, one error: the result of a failed check (and of a pattern that did not
// compile) is accepted silently by the next checked call.
use strideweave::{StaticTensor, einsum, shape_t};

fn main() {
    let a = StaticTensor::<f32, shape_t!(2, 3)>::zeros();
    let b = StaticTensor::<f32, shape_t!(4, 5)>::zeros();
    let c = einsum!(&a, &b, "i k, k j -> i j").unwrap();
    let d = einsum!(&c, &a, "i j, j k -> i k").unwrap();
    let e = einsum!(&a, &b, "i k, k j -> i x").unwrap();
    let _ = einsum!(&d, &e, "i j, j k -> i k").unwrap();
    let _ = (&d + &e).unwrap();
}
