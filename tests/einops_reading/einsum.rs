//! `einops::einsum`: groups read as einops reads them, an output group one flat mode.

use strideweave::{Tensor, einops, shape};

use super::numpy_values;

fn arange(shape: &strideweave::Shape) -> Tensor {
    let n = shape.size();
    Tensor::from_vec_row_major((0..n).map(|v| v as f64).collect(), shape).unwrap()
}

#[test]
fn without_groups_it_is_tensor_einsum() {
    let a = arange(&shape!(2, 3));
    let b = arange(&shape!(3, 4));
    let c = einops::einsum("i k, k j -> i j", &[&a, &b]).unwrap();
    let want = Tensor::einsum("i k, k j -> i j", &[&a, &b]).unwrap();
    assert_eq!(c.shape(), &shape!(2, 4));
    assert_eq!(numpy_values::<f64>(&c), numpy_values::<f64>(&want));
    let t = einops::einsum("i j -> j", &[&a]).unwrap();
    assert_eq!(t.to_vec::<f64>().unwrap(), [3.0, 5.0, 7.0]);
}

#[test]
fn output_groups_are_flat_in_einops_order() {
    let a = arange(&shape!(2, 3));
    let b = arange(&shape!(3, 4));
    let m = a.matmul(&b).unwrap();
    // (i j): j fastest, numpy's m.reshape(8).
    let c = einops::einsum("i k, k j -> (i j)", &[&a, &b]).unwrap();
    assert_eq!(c.shape(), &shape!(8));
    assert_eq!(numpy_values::<f64>(&c), numpy_values::<f64>(&m));
    // (j i): numpy's m.T.reshape(8).
    let d = einops::einsum("i k, k j -> (j i)", &[&a, &b]).unwrap();
    let mt = m.permute(&[1, 0]).unwrap();
    assert_eq!(d.to_vec::<f64>().unwrap(), numpy_values::<f64>(&mt));
}

#[test]
fn input_groups_split_in_einops_order() {
    // x of shape (6, 2) read as (i j) k with j = 3 fastest: x[i·3 + j, k].
    let x = arange(&shape!(6, 2));
    let y = arange(&shape!(2));
    let s = einops::einsum!(&x, &y, "(i j) k, k -> i j", j = 3).unwrap();
    assert_eq!(s.shape(), &shape!(2, 3));
    // s[i, j] = Σ_k x[3i + j, k]·k = x[3i + j, 1] = 2(3i + j) + 1.
    let want: Vec<f64> = (0..2)
        .flat_map(|i| (0..3).map(move |j| (2 * (3 * i + j) + 1) as f64))
        .collect();
    assert_eq!(numpy_values::<f64>(&s), want);
    // The function takes no keyword extents: a split it cannot infer is an error of its own.
    let err = einops::einsum("(i j) k, k -> i j", &[&x, &y]).unwrap_err();
    assert!(
        err.to_string().starts_with("einops::einsum (input 0): "),
        "{err}"
    );
    assert!(
        err.to_string().contains("\n  (i j) k, k -> i j\n  ^^^^^"),
        "{err}"
    );
}
