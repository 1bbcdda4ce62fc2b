use strideweave::{Complex64, DType, Shape, Tensor};

use crate::autograd::finite_diff::{OTHER, STRIDED, check};

fn s(text: &str) -> Shape {
    text.parse().unwrap()
}

fn v64(t: &Tensor) -> Vec<f64> {
    t.to_vec::<f64>().unwrap()
}

/// A (2,3) f64 tensor transposed and reversed: values read through a strided layout.
fn strided() -> (Tensor, Vec<f64>) {
    let base = Tensor::from_vec(vec![-2.0, -0.5, 0.0, 0.25, 1.5, 3.0], &s("(3,2)")).unwrap();
    let t = base.permute(&[1, 0]).unwrap().reverse(1).unwrap();
    let expect = t.to_vec::<f64>().unwrap();
    (t, expect)
}

#[test]
fn unary_functions_match_their_definitions_on_a_strided_view() {
    let (t, x) = strided();
    let gelu =
        |x: f64| 0.5 * x * (1.0 + (0.797_884_560_802_865_4 * (x + 0.044715 * x * x * x)).tanh());
    let sig = |x: f64| 1.0 / (1.0 + (-x).exp());
    type Case = (&'static str, Tensor, Box<dyn Fn(f64) -> f64>);
    let cases: Vec<Case> = vec![
        ("exp", t.exp().unwrap(), Box::new(f64::exp)),
        ("log", t.log().unwrap(), Box::new(f64::ln)),
        ("sqrt", t.sqrt().unwrap(), Box::new(f64::sqrt)),
        ("abs", t.abs().unwrap(), Box::new(f64::abs)),
        ("sin", t.sin().unwrap(), Box::new(f64::sin)),
        ("cos", t.cos().unwrap(), Box::new(f64::cos)),
        ("tanh", t.tanh().unwrap(), Box::new(f64::tanh)),
        ("sigmoid", t.sigmoid().unwrap(), Box::new(sig)),
        ("relu", t.relu().unwrap(), Box::new(|x: f64| x.max(0.0))),
        (
            "silu",
            t.silu().unwrap(),
            Box::new(move |x: f64| x * sig(x)),
        ),
        ("gelu", t.gelu().unwrap(), Box::new(gelu)),
        ("powf", t.powf(3.0).unwrap(), Box::new(|x: f64| x.powf(3.0))),
        (
            "clamp",
            t.clamp(-1.0, 1.0).unwrap(),
            Box::new(|x: f64| x.clamp(-1.0, 1.0)),
        ),
    ];
    for (name, got, f) in cases {
        assert_eq!(got.shape(), t.shape(), "{name}");
        for (g, x) in v64(&got).iter().zip(&x) {
            let want = f(*x);
            assert!(
                (g.is_nan() && want.is_nan())
                    || *g == want
                    || (g - want).abs() <= 1e-15 * (1.0 + want.abs()),
                "{name}({x}) = {g}, expected {want}"
            );
        }
    }
}

#[test]
fn unary_functions_give_ieee_values_outside_their_domain() {
    let t = Tensor::from_vec(vec![-1.0f64, 0.0, f64::INFINITY, f64::NAN], &s("4")).unwrap();
    let log = v64(&t.log().unwrap());
    assert!(
        log[0].is_nan()
            && log[1] == f64::NEG_INFINITY
            && log[2] == f64::INFINITY
            && log[3].is_nan()
    );
    assert!(v64(&t.sqrt().unwrap())[0].is_nan());
    let relu = v64(&t.relu().unwrap());
    assert!(relu[0] == 0.0 && relu[2] == f64::INFINITY && relu[3].is_nan());
    let clamp = v64(&t.clamp(-0.5, 0.5).unwrap());
    assert!(clamp[0] == -0.5 && clamp[2] == 0.5 && clamp[3].is_nan());
    // PyTorch: min above max gives max.
    assert_eq!(v64(&t.clamp(2.0, 1.0).unwrap())[..3], [1.0, 1.0, 1.0]);
    assert_eq!(v64(&t.sigmoid().unwrap())[2], 1.0);
}

#[test]
fn unary_functions_run_on_f32_f16_and_complex() {
    let f = Tensor::from_vec(vec![0.5f32, 2.0], &s("2")).unwrap();
    assert_eq!(
        f.exp().unwrap().to_vec::<f32>().unwrap(),
        [0.5f32.exp(), 2.0f32.exp()]
    );
    let h = f.to_dtype(DType::F16).unwrap();
    let e = h.exp().unwrap();
    assert_eq!(e.dtype(), DType::F16);
    assert_eq!(
        e.to_vec::<half::f16>().unwrap(),
        [
            half::f16::from_f32(0.5f32.exp()),
            half::f16::from_f32(2.0f32.exp())
        ]
    );
    let z = Complex64::new(0.5, -1.25);
    let c = Tensor::from_vec(vec![z], &s("1")).unwrap();
    assert_eq!(c.exp().unwrap().to_vec::<Complex64>().unwrap(), [z.exp()]);
    assert_eq!(c.log().unwrap().to_vec::<Complex64>().unwrap(), [z.ln()]);
    assert_eq!(c.tanh().unwrap().to_vec::<Complex64>().unwrap(), [z.tanh()]);
    let err = c.relu().unwrap_err().to_string();
    assert!(
        err.starts_with("relu: expected a real floating tensor"),
        "{err}"
    );
}

#[test]
fn unary_functions_refuse_integers_naming_to_dtype() {
    let i = Tensor::arange::<i32>(&s("3"));
    for err in [i.exp(), i.log(), i.relu(), i.softmax(0), i.powf(2.0)] {
        let e = err.unwrap_err().to_string();
        assert!(
            e.contains("to_dtype") && e.contains("found a i32 tensor") || e.contains("i32"),
            "{e}"
        );
    }
    assert!(i.exp().unwrap_err().to_string().starts_with("exp: "));
    let t = Tensor::arange::<f64>(&s("3"));
    assert!(
        t.clamp(f64::NAN, 1.0)
            .unwrap_err()
            .to_string()
            .starts_with("clamp: ")
    );
}

#[test]
fn unary_gradients_match_finite_differences() {
    type F = fn(&Tensor) -> Tensor;
    let fs: [(&str, F); 13] = [
        ("exp", |t| t.exp().unwrap()),
        ("log", |t| t.log().unwrap()),
        ("sqrt", |t| t.sqrt().unwrap()),
        ("abs", |t| t.sub_scalar(1.5001).unwrap().abs().unwrap()),
        ("sin", |t| t.sin().unwrap()),
        ("cos", |t| t.cos().unwrap()),
        ("tanh", |t| t.tanh().unwrap()),
        ("sigmoid", |t| t.sigmoid().unwrap()),
        ("relu", |t| t.sub_scalar(1.5001).unwrap().relu().unwrap()),
        ("silu", |t| t.sub_scalar(1.5001).unwrap().silu().unwrap()),
        ("gelu", |t| t.sub_scalar(1.5001).unwrap().gelu().unwrap()),
        ("powf", |t| t.powf(2.5).unwrap()),
        ("clamp", |t| t.clamp(1.0001, 2.0001).unwrap()),
    ];
    for (name, f) in fs {
        check(name, &[STRIDED], |x| f(&x[0]));
    }
}

#[test]
fn binary_functions_match_definitions_and_finite_differences() {
    let a = Tensor::from_vec(vec![1.0f64, 5.0, f64::NAN, 2.0], &s("4")).unwrap();
    let b = Tensor::from_vec(vec![2.0f64, 3.0, 0.0, 2.0], &s("4")).unwrap();
    let m = v64(&a.maximum(&b).unwrap());
    assert!(m[0] == 2.0 && m[1] == 5.0 && m[2].is_nan() && m[3] == 2.0);
    let n = v64(&a.minimum(&b).unwrap());
    assert!(n[0] == 1.0 && n[1] == 3.0 && n[2].is_nan());
    assert_eq!(v64(&a.pow(&b).unwrap())[..2], [1.0, 125.0]);
    assert!(
        a.maximum(&Tensor::arange::<f64>(&s("3")))
            .unwrap_err()
            .to_string()
            .starts_with("maximum: ")
    );
    check("maximum", &[STRIDED, OTHER], |x| {
        x[0].maximum(&x[1]).unwrap()
    });
    check("minimum", &[STRIDED, OTHER], |x| {
        x[0].minimum(&x[1]).unwrap()
    });
    check("pow", &[STRIDED, OTHER], |x| x[0].pow(&x[1]).unwrap());
}

#[test]
fn maximum_splits_the_gradient_at_ties_as_pytorch() {
    let a = Tensor::from_vec(vec![2.0f64, 1.0], &s("2")).unwrap();
    let b = Tensor::from_vec(vec![2.0f64, 3.0], &s("2")).unwrap();
    a.set_requires_grad(true).unwrap();
    b.set_requires_grad(true).unwrap();
    a.maximum(&b).unwrap().sum().unwrap().backward().unwrap();
    assert_eq!(v64(&a.grad().unwrap()), [0.5, 0.0]);
    assert_eq!(v64(&b.grad().unwrap()), [0.5, 1.0]);
}

#[test]
fn softmax_is_stable_sums_to_one_and_works_over_nested_and_negative_modes() {
    let t = Tensor::from_vec(vec![1e4f64, -1e4, 1e4, 0.0, 1.0, 2.0], &s("(3,2)")).unwrap();
    let y = t.softmax(0).unwrap();
    let v = v64(&y);
    assert_eq!(&v[..3], &[0.5, 0.0, 0.5]);
    let e: Vec<f64> = [0.0f64, 1.0, 2.0].iter().map(|x| x.exp()).collect();
    let z: f64 = e.iter().sum();
    for k in 0..3 {
        assert!((v[3 + k] - e[k] / z).abs() < 1e-15);
    }
    // -2 is mode 0 of a rank-2 tensor; a nested mode is one mode over its leaves.
    assert_eq!(v64(&t.softmax(-2).unwrap()), v);
    let nested = t.reshape(&s("((3,2))")).unwrap().softmax(0).unwrap();
    assert!((v64(&nested).iter().sum::<f64>() - 1.0).abs() < 1e-12);
    let ls = v64(&t.log_softmax(0).unwrap());
    assert!((ls[0] + std::f64::consts::LN_2).abs() < 1e-12 && ls[1] < -1e4);
    // A transposed operand: the result is laid out like it and reads the same.
    let tt = t.permute(&[1, 0]).unwrap();
    let yt = tt.softmax(1).unwrap();
    assert_eq!(yt.permute(&[1, 0]).unwrap().to_vec::<f64>().unwrap(), v);
    assert!(
        t.softmax(2)
            .unwrap_err()
            .to_string()
            .starts_with("softmax: dim 2 is outside")
    );
}

#[test]
fn logsumexp_and_argmax_remove_the_mode() {
    let t = Tensor::from_vec(vec![1.0f64, 3.0, 3.0, f64::NAN, 0.0, -1.0], &s("(3,2)")).unwrap();
    let l = v64(&t.logsumexp(0).unwrap());
    let want = (1.0f64.exp() + 3.0f64.exp() + 3.0f64.exp()).ln();
    assert!((l[0] - want).abs() < 1e-12 && l[1].is_nan());
    let l0 = t.logsumexp(0).unwrap();
    assert_eq!((l0.rank(), l0.size()), (1, 2));
    // First index on ties; NaN wins argmax and argmin.
    assert_eq!(t.argmax(0).unwrap().to_vec::<i64>().unwrap(), [1, 0]);
    assert_eq!(t.argmin(0).unwrap().to_vec::<i64>().unwrap(), [0, 0]);
    let i = Tensor::from_vec(vec![4i32, 9, 9], &s("3")).unwrap();
    assert_eq!(i.argmax(0).unwrap().item::<i64>().unwrap(), 1);
    let big = Tensor::from_vec(vec![1e4f64, 1e4], &s("2")).unwrap();
    assert!(
        (big.logsumexp(-1).unwrap().item::<f64>().unwrap() - 1e4 - std::f64::consts::LN_2).abs()
            < 1e-9
    );
}

#[test]
fn functions_along_a_mode_have_gradients_matching_finite_differences() {
    check("softmax", &[STRIDED], |x| x[0].softmax(1).unwrap());
    check("softmax nested", &[STRIDED], |x| x[0].softmax(-1).unwrap());
    check("log_softmax", &[STRIDED], |x| x[0].log_softmax(0).unwrap());
    check("logsumexp", &[STRIDED], |x| x[0].logsumexp(1).unwrap());
}

#[test]
fn comparisons_follow_ieee_and_where_cond_routes_gradients() {
    let a = Tensor::from_vec(vec![1.0f64, f64::NAN, 3.0], &s("3")).unwrap();
    let b = Tensor::from_vec(vec![1.0f64, f64::NAN, 2.0], &s("3")).unwrap();
    let bools = |t: Tensor| t.to_vec::<bool>().unwrap();
    assert_eq!(bools(a.eq(&b).unwrap()), [true, false, false]);
    assert_eq!(bools(a.ne(&b).unwrap()), [false, true, true]);
    assert_eq!(bools(a.gt(&b).unwrap()), [false, false, true]);
    assert_eq!(bools(a.le_scalar(1.0).unwrap()), [true, false, false]);
    assert!(
        a.lt(&Tensor::arange::<f32>(&s("3")))
            .unwrap_err()
            .to_string()
            .starts_with("lt: ")
    );
    let z = Tensor::from_vec(vec![Complex64::new(1.0, 1.0)], &s("1")).unwrap();
    assert!(z.lt(&z).unwrap_err().to_string().starts_with("lt: "));
    assert_eq!(bools(z.eq(&z).unwrap()), [true]);
    let cond = a.gt_scalar(1.5).unwrap();
    let x = Tensor::from_vec(vec![10.0f64, 20.0, 30.0], &s("3")).unwrap();
    let y = x.neg().unwrap().detach();
    x.set_requires_grad(true).unwrap();
    y.set_requires_grad(true).unwrap();
    let w = cond.where_cond(&x, &y).unwrap();
    assert_eq!(v64(&w), [-10.0, -20.0, 30.0]);
    w.sum().unwrap().backward().unwrap();
    assert_eq!(v64(&x.grad().unwrap()), [0.0, 0.0, 1.0]);
    assert_eq!(v64(&y.grad().unwrap()), [1.0, 1.0, 0.0]);
    assert!(
        x.where_cond(&x, &y)
            .unwrap_err()
            .to_string()
            .starts_with("where_cond: ")
    );
}

#[test]
fn to_dtype_converts_as_rust_as_and_is_differentiable_between_floats() {
    let t = Tensor::from_vec(vec![-1.7f64, 300.0, f64::NAN, f64::NEG_INFINITY], &s("4")).unwrap();
    assert_eq!(
        t.to_dtype(DType::U8).unwrap().to_vec::<u8>().unwrap(),
        [0, 255, 0, 0]
    );
    assert_eq!(
        t.to_dtype(DType::I32).unwrap().to_vec::<i32>().unwrap(),
        [-1, 300, 0, i32::MIN]
    );
    assert_eq!(
        t.to_dtype(DType::Bool).unwrap().to_vec::<bool>().unwrap(),
        [true, true, true, true]
    );
    let z = Tensor::from_vec(vec![Complex64::new(1.0, 2.0)], &s("1")).unwrap();
    assert!(
        z.to_dtype(DType::F64)
            .unwrap_err()
            .to_string()
            .contains("real()")
    );
    assert_eq!(z.imag().unwrap().to_vec::<f64>().unwrap(), [2.0]);
    // Through f32 and back: the cotangent is converted at each step (finite differences
    // would measure f32's rounding).
    let x = Tensor::from_vec(vec![0.1f64, 0.2, 0.3], &s("3")).unwrap();
    x.set_requires_grad(true).unwrap();
    let y = x.to_dtype(DType::F32).unwrap().mul_scalar(2.0f32).unwrap();
    let w = Tensor::from_vec(vec![1.0f64, -2.0, 0.5], &s("3")).unwrap();
    y.to_dtype(DType::F64)
        .unwrap()
        .mul(&w)
        .unwrap()
        .sum()
        .unwrap()
        .backward()
        .unwrap();
    assert_eq!(v64(&x.grad().unwrap()), [2.0, -4.0, 1.0]);
    let m = t.map(|x: f64| x.is_nan()).unwrap();
    assert_eq!(m.to_vec::<bool>().unwrap(), [false, false, true, false]);
}

#[test]
fn static_tensors_keep_their_shape_through_the_functions() {
    use strideweave::{StaticTensor, shape_t};
    let t = StaticTensor::<f64, shape_t!(2, 3)>::from_vec(vec![1.0, -2.0, 0.5, 3.0, -1.0, 2.0])
        .unwrap();
    t.as_dynamic().set_requires_grad(true).unwrap();
    let y: StaticTensor<f64, shape_t!(2, 3)> = t.softmax(1).unwrap().clamp(0.0, 0.9).unwrap();
    let d = t.as_dynamic().softmax(1).unwrap().clamp(0.0, 0.9).unwrap();
    assert_eq!(y.to_vec().unwrap(), v64(&d));
    let g: StaticTensor<f64, shape_t!(2, 3)> =
        t.gelu().unwrap().maximum(&t.tanh().unwrap()).unwrap();
    g.as_dynamic().sum().unwrap().backward().unwrap();
    assert_eq!(t.grad().unwrap().to_vec().unwrap().len(), 6);
}

#[test]
fn abs_of_complex_gives_the_real_modulus_with_pytorchs_gradient() {
    let z = Tensor::from_vec(
        vec![Complex64::new(3.0, -4.0), Complex64::new(0.0, 0.0)],
        &s("2"),
    )
    .unwrap();
    z.set_requires_grad(true).unwrap();
    let a = z.abs().unwrap();
    assert_eq!((a.dtype(), v64(&a)), (DType::F64, vec![5.0, 0.0]));
    let w = Tensor::from_vec(vec![2.0f64, 1.0], &s("2")).unwrap();
    a.mul(&w).unwrap().sum().unwrap().backward().unwrap();
    // PyTorch: grad · sgn(z), sgn(0) = 0.
    let g = z.grad().unwrap().to_vec::<Complex64>().unwrap();
    assert_eq!(g, [Complex64::new(1.2, -1.6), Complex64::new(0.0, 0.0)]);
    let f = Tensor::from_vec(vec![strideweave::Complex32::new(0.0, -2.0)], &s("1")).unwrap();
    assert_eq!(f.abs().unwrap().to_vec::<f32>().unwrap(), [2.0]);
}
