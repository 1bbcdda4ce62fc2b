//! `magnitude`, `normalize`, `cross`: one test per requirement of the item 1, named
//! after it, with values computed by hand (numpy gives the same: `np.linalg.norm`,
//! `x / np.linalg.norm(x)`, `np.cross`).

use strideweave::{Complex64, ErrorKind, Shape, Tensor};

fn sh(s: &str) -> Shape {
    s.parse().unwrap()
}

fn v(x: &[f64]) -> Tensor {
    Tensor::from_vec(x.to_vec(), &sh(&x.len().to_string())).unwrap()
}

#[test]
fn magnitude_is_a_rank_zero_tensor() {
    let m = v(&[2.0, -3.0, 6.0]).magnitude().unwrap();
    assert_eq!((m.rank(), m.shape().to_string()), (0, "()".to_string()));
    assert_eq!(m.item::<f64>().unwrap(), 7.0);
    let f = Tensor::from_vec(vec![3.0f32, 4.0], &sh("2")).unwrap();
    assert_eq!(f.magnitude().unwrap().item::<f32>().unwrap(), 5.0);
}

#[test]
fn magnitude_does_not_overflow_or_underflow() {
    let big = v(&[3e200, 4e200])
        .magnitude()
        .unwrap()
        .item::<f64>()
        .unwrap();
    assert!((big / 5e200 - 1.0).abs() < 1e-15, "{big}");
    let tiny = v(&[3e-200, 4e-200])
        .magnitude()
        .unwrap()
        .item::<f64>()
        .unwrap();
    assert!((tiny - 5e-200).abs() < 1e-214, "{tiny}");
    assert_eq!(
        v(&[0.0, 0.0]).magnitude().unwrap().item::<f64>().unwrap(),
        0.0
    );
    assert!(
        v(&[1.0, f64::NAN])
            .magnitude()
            .unwrap()
            .item::<f64>()
            .unwrap()
            .is_nan()
    );
}

#[test]
fn magnitude_of_a_matrix_is_the_frobenius_norm() {
    let t = Tensor::from_vec(vec![1.0f64, 2.0, 2.0, 4.0], &sh("(2,2)")).unwrap();
    assert_eq!(t.magnitude().unwrap().item::<f64>().unwrap(), 5.0);
}

#[test]
fn magnitude_of_integers_or_complex_is_an_error_naming_the_dtype() {
    let i = Tensor::arange::<i32>(&sh("3"));
    let e = i.magnitude().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Type);
    assert!(
        e.to_string().starts_with("magnitude: ") && e.to_string().contains("i32"),
        "{e}"
    );
    let c = Tensor::from_vec(vec![Complex64::new(1.0, 1.0)], &sh("1")).unwrap();
    let e = c.normalize().unwrap_err();
    assert!(
        e.to_string().starts_with("normalize: ") && e.to_string().contains("complex128"),
        "{e}"
    );
}

#[test]
fn magnitude_gradient_at_zero_is_zero() {
    let x = v(&[0.0, 0.0, 0.0]);
    x.set_requires_grad(true).unwrap();
    x.magnitude().unwrap().backward().unwrap();
    assert_eq!(x.grad().unwrap().to_vec::<f64>().unwrap(), [0.0, 0.0, 0.0]);
    let y = v(&[3.0, 4.0]);
    y.set_requires_grad(true).unwrap();
    y.magnitude().unwrap().backward().unwrap();
    assert_eq!(y.grad().unwrap().to_vec::<f64>().unwrap(), [0.6, 0.8]);
}

#[test]
fn normalize_returns_the_unit_vector() {
    let n = v(&[2.0, -3.0, 6.0]).normalize().unwrap().unwrap();
    let got = n.to_vec::<f64>().unwrap();
    for (g, w) in got.iter().zip([2.0 / 7.0, -3.0 / 7.0, 6.0 / 7.0]) {
        assert!((g - w).abs() < 1e-15, "{got:?}");
    }
    assert!((n.magnitude().unwrap().item::<f64>().unwrap() - 1.0).abs() < 1e-15);
    assert_eq!(n.shape(), &sh("3"));
}

#[test]
fn normalize_of_a_zero_vector_is_none_not_an_error() {
    assert!(v(&[0.0, 0.0, 0.0]).normalize().unwrap().is_none());
    assert!(
        Tensor::zeros::<f32>(&sh("4"))
            .normalize()
            .unwrap()
            .is_none()
    );
}

#[test]
fn cross_of_extent_three_vectors() {
    let a = v(&[1.0, 2.0, 3.0]);
    let b = v(&[4.0, 5.0, 6.0]);
    let c = a.cross(&b).unwrap();
    assert_eq!(c.to_vec::<f64>().unwrap(), [-3.0, 6.0, -3.0]);
    assert_eq!(
        b.cross(&a).unwrap().to_vec::<f64>().unwrap(),
        [3.0, -6.0, 3.0]
    );
    let i = Tensor::from_vec(vec![1i64, 2, 3], &sh("3")).unwrap();
    let j = Tensor::from_vec(vec![4i64, 5, 6], &sh("3")).unwrap();
    assert_eq!(i.cross(&j).unwrap().to_vec::<i64>().unwrap(), [-3, 6, -3]);
    // A strided (reversed) operand is read through its layout.
    let r = b.reverse(0).unwrap();
    assert_eq!(
        a.cross(&r).unwrap().to_vec::<f64>().unwrap(),
        [-7.0, 14.0, -7.0]
    );
}

#[test]
fn cross_of_other_extents_is_an_error_naming_the_extents() {
    let a = v(&[1.0, 2.0, 3.0]);
    for (other, shape) in [(v(&[1.0, 2.0]), "2"), (v(&[1.0, 2.0, 3.0, 4.0]), "4")] {
        let e = a.cross(&other).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Value);
        assert_eq!(
            e.to_string(),
            format!("cross: needs two vectors of extent 3, found shapes 3 and {shape}")
        );
    }
    let m = Tensor::zeros::<f64>(&sh("(3,3)"));
    let e = m.cross(&a).unwrap_err();
    assert!(e.to_string().contains("(3,3)"), "{e}");
    let i = Tensor::from_vec(vec![1i32, 2, 3], &sh("3")).unwrap();
    let e = a.cross(&i).unwrap_err();
    assert!(
        e.to_string().contains("f64") && e.to_string().contains("i32"),
        "{e}"
    );
}

#[test]
fn cross_gradients_are_b_cross_c_and_c_cross_a() {
    let a = v(&[1.0, 2.0, 3.0]);
    let b = v(&[4.0, 5.0, 6.0]);
    a.set_requires_grad(true).unwrap();
    b.set_requires_grad(true).unwrap();
    let w = v(&[1.0, -1.0, 2.0]);
    a.cross(&b)
        .unwrap()
        .mul(&w)
        .unwrap()
        .sum()
        .unwrap()
        .backward()
        .unwrap();
    // b × w and w × a.
    assert_eq!(
        a.grad().unwrap().to_vec::<f64>().unwrap(),
        [16.0, -2.0, -9.0]
    );
    assert_eq!(
        b.grad().unwrap().to_vec::<f64>().unwrap(),
        [-7.0, -1.0, 3.0]
    );
}
