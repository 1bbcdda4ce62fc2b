//! Mixed element types (issue 13, item 6): binary arithmetic on two dtypes follows
//! `DType::promote`'s table, gradients convert back, and a pair no dtype holds is an error
//! naming both.

use strideweave::{Complex64, DType, ErrorKind, Tensor};

fn sh(s: &str) -> strideweave::Shape {
    s.parse().unwrap()
}

#[test]
fn mixed_dtypes_follow_the_promotion_table() {
    let i = Tensor::from_vec(vec![16_777_217i32, -3], &sh("2")).unwrap();
    let f = Tensor::from_vec(vec![0.5f32, 0.25], &sh("2")).unwrap();
    // i32 with f32 is f64: 2^24 + 1 is kept exactly.
    let s = i.add(&f).unwrap();
    assert_eq!(s.dtype(), DType::F64);
    assert_eq!(s.to_vec::<f64>().unwrap(), [16_777_217.5, -2.75]);
    let u = Tensor::from_vec(vec![200u8, 3], &sh("2")).unwrap();
    let k = Tensor::from_vec(vec![-100i8, 4], &sh("2")).unwrap();
    let p = u.mul(&k).unwrap();
    assert_eq!(p.dtype(), DType::I32);
    assert_eq!(p.to_vec::<i32>().unwrap(), [-20000, 12]);
    let c = Tensor::from_vec(vec![Complex64::new(1.0, 1.0); 2], &sh("2")).unwrap();
    let z = (&f * &c).unwrap();
    assert_eq!(z.dtype(), DType::ComplexF64);
    assert_eq!(
        z.to_vec::<Complex64>().unwrap()[0],
        Complex64::new(0.5, 0.5)
    );
}

#[test]
fn mixed_dtypes_without_a_common_dtype_are_an_error_naming_both() {
    let l = Tensor::arange::<i64>(&sh("2"));
    let f = Tensor::arange::<f32>(&sh("2"));
    let e = l.sub(&f).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Type);
    assert!(
        e.to_string().starts_with("sub: ") && e.to_string().contains("i64 and f32"),
        "{e}"
    );
    let b = Tensor::from_vec(vec![true, false], &sh("2")).unwrap();
    let e = b.add(&Tensor::arange::<i32>(&sh("2"))).unwrap_err();
    assert!(e.to_string().contains("bool and i32"), "{e}");
    // Shapes are still checked first-hand: unequal shapes are refused, nothing converted.
    let e = Tensor::arange::<i32>(&sh("3")).add(&f).unwrap_err();
    assert!(e.to_string().starts_with("add: "), "{e}");
}

#[test]
fn mixed_dtype_gradients_convert_back_to_each_operand() {
    let a = Tensor::from_vec(vec![1.5f32, -2.0], &sh("2")).unwrap();
    let b = Tensor::from_vec(vec![4.0f64, 0.5], &sh("2")).unwrap();
    a.set_requires_grad(true).unwrap();
    b.set_requires_grad(true).unwrap();
    a.mul(&b).unwrap().sum().unwrap().backward().unwrap();
    let ga = a.grad().unwrap();
    assert_eq!(ga.dtype(), DType::F32);
    assert_eq!(ga.to_vec::<f32>().unwrap(), [4.0, 0.5]);
    assert_eq!(b.grad().unwrap().to_vec::<f64>().unwrap(), [1.5, -2.0]);
    // A real operand of a complex product gets the real part of its cotangent.
    let r = Tensor::from_vec(vec![2.0f64], &sh("1")).unwrap();
    r.set_requires_grad(true).unwrap();
    let c = Tensor::from_vec(vec![Complex64::new(3.0, 4.0)], &sh("1")).unwrap();
    r.mul(&c).unwrap().sum().unwrap().backward().unwrap();
    // d(r·c)/dr = c; torch's convention gives conj(c) = 3 − 4i, whose real part is 3.
    assert_eq!(r.grad().unwrap().to_vec::<f64>().unwrap(), [3.0]);
}
