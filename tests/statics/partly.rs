//! Partly static shapes (issue 25 items 1, 2, 5): `_` in `shape_t!` is an extent known at run
//! time. What the pattern and the static extents decide is a compile error
//! (`ui-tests/fail/partly_static_*`); what needs a run-time extent is checked here: an `Err`
//! that starts with the macro's name and words the mistake as the compile-time check does.

use proptest::prelude::*;
use strideweave::{
    Dyn, ErrorKind, Extents, Leaf, Partly, RUNTIME_EXTENT, ShapeCode, StaticShape, StaticTensor,
    Tensor, einsum, rearrange, reduce, repeat, shape, shape_t,
};

type Tokens = shape_t!(_, 512);

fn batch(b: i64) -> StaticTensor<f32, Tokens> {
    StaticTensor::arange_with(&[b]).unwrap()
}

fn message<T>(r: strideweave::Result<T>) -> String {
    match r {
        Ok(_) => panic!("expected an error"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn underscore_in_shape_t_is_a_runtime_extent_marker() {
    let _: (Dyn, Leaf<512>) = <Tokens as Default>::default();
    let _: (Dyn, (Leaf<4>, Dyn)) = <shape_t!(_, (4, _)) as Default>::default();
    let _: Dyn = <shape_t!(_) as Default>::default();
    assert_eq!(Tokens::SHAPE.to_string(), "(_,512)");
    assert_eq!(Tokens::SHAPE.leaves(), &[RUNTIME_EXTENT, 512]);
    assert_eq!(<shape_t!((_, 4), 8)>::SHAPE.to_string(), "((_,4),8)");
    const { assert!(<<Tokens as StaticShape>::Extents as Extents>::RUNTIME) };
    const { assert!(!<<shape_t!(2, 512) as StaticShape>::Extents as Extents>::RUNTIME) };
    fn partly<S: StaticShape<Extents = Partly>>() {}
    partly::<shape_t!(2, (3, _))>();
}

#[test]
fn partly_static_shape_reports_the_actual_shape() {
    let t = batch(3);
    assert_eq!(t.shape(), &shape!(3, 512));
    assert_eq!(
        format!("{t:?}"),
        "StaticTensor<f32, (_,512)>(Tensor(f32 (3,512):(1,3)))"
    );
    let nested = StaticTensor::<i32, shape_t!((_, 4), 8)>::zeros_with(&[2]).unwrap();
    assert_eq!(nested.shape(), &shape!((2, 4), 8));
}

#[test]
fn try_from_dynamic_checks_static_extents_and_accepts_runtime_ones() {
    for b in [1, 2, 7] {
        let want: strideweave::Shape = format!("({b},512)").parse().unwrap();
        let d = Tensor::zeros::<f32>(&want);
        let s = StaticTensor::<f32, Tokens>::try_from_dynamic(d).unwrap();
        assert_eq!(s.shape(), &want);
    }
    let wrong = Tensor::zeros::<f32>(&shape!(3, 256));
    assert_eq!(
        message(StaticTensor::<f32, Tokens>::try_from_dynamic(wrong)),
        "StaticTensor::try_from_dynamic: shape (3,256) does not match (_,512): the static shape differs"
    );
    let nesting = Tensor::zeros::<f32>(&shape!((3, 1), 512));
    assert!(StaticTensor::<f32, Tokens>::try_from_dynamic(nesting).is_err());
}

#[test]
fn constructors_take_the_runtime_extents() {
    let t = StaticTensor::<i64, shape_t!(_, (2, _))>::arange_with(&[2, 3]).unwrap();
    assert_eq!(t.shape(), &shape!(2, (2, 3)));
    assert_eq!(t.to_vec().unwrap(), (0..12).collect::<Vec<i64>>());
    let v = StaticTensor::<i32, shape_t!(_, 2)>::from_vec_with(vec![1, 2, 3, 4], &[2]).unwrap();
    assert_eq!(v.to_vec().unwrap(), [1, 2, 3, 4]);
    let inferred = StaticTensor::<i32, shape_t!(2, _)>::from_vec((0..10).collect()).unwrap();
    assert_eq!(inferred.shape(), &shape!(2, 5));
    // Fully static shapes take no run-time extent.
    let s = StaticTensor::<u8, shape_t!(2, 3)>::zeros_with(&[]).unwrap();
    assert_eq!(s.shape(), &shape!(2, 3));
    assert_eq!(
        message(StaticTensor::<u8, shape_t!(2, 3)>::zeros_with(&[4])),
        "StaticTensor::zeros_with: expected 0 run-time extents, found 1"
    );
    assert_eq!(
        message(StaticTensor::<u8, shape_t!(_, (2, _))>::zeros_with(&[4, 0])),
        "StaticTensor::zeros_with: extent 0 at mode 1.1 must be at least 1"
    );
    let err = StaticTensor::<u8, shape_t!(_, _)>::zeros_with(&[i64::MAX, 2]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "StaticTensor::zeros_with: integer overflow while computing the size of the shape"
    );
    assert_eq!(
        message(StaticTensor::<u8, shape_t!(_, _)>::from_vec(vec![0; 4])),
        "StaticTensor::from_vec: 4 elements do not fill the shape (_,_): the shape has 2 \
         run-time extents; give them with from_vec_with"
    );
    assert_eq!(
        message(StaticTensor::<u8, shape_t!(_, 3)>::from_vec(Vec::new())),
        "StaticTensor::from_vec: 0 elements do not fill the shape (_,3): their number must be a multiple of 3"
    );
}

#[test]
fn rearrange_of_a_partly_static_shape_keeps_the_static_extents() {
    let t = batch(3);
    let v = rearrange!(&t, "b (h d) -> b h d", h = 8).unwrap();
    assert_eq!(
        <_ as Into<Tensor>>::into(v.clone()).shape(),
        &shape!(3, 8, 64)
    );
    assert_eq!(
        format!("{v:?}"),
        "StaticTensor<f32, (_,8,64)>(Tensor(f32 (3,8,64):(1,3,24)))"
    );
    let d = Tensor::arange::<f32>(&shape!(3, 512));
    let expected = d.rearrange("b (h d) -> b h d", &[("h", 8)]).unwrap();
    assert_eq!(v.to_vec().unwrap(), expected.to_vec::<f32>().unwrap());
    // Chains keep checking: the result's static shape is (_,8,64).
    let w = rearrange!(v, "b h d -> h b d").unwrap();
    assert_eq!(w.layout().to_string(), "(8,3,64):(3,1,24)");
    // A keyword split of the run-time extent itself keeps the static factor.
    let s = rearrange!(&t, "(b2 b) c -> b2 b c", b2 = 2);
    let s = s.map(|_| ()).unwrap_err();
    assert_eq!(
        s.to_string(),
        "rearrange!: b2 = 2 does not divide extent 3 of mode 0, which the group `(b2 b)` on the left, term 0 splits\n  \
         (b2 b) c -> b2 b c\n  ^^^^^^\n  the tensor's shape is (3,512)"
    );
    let ok = rearrange!(&batch(4), "(b2 b) c -> b2 b c", b2 = 2).unwrap();
    assert_eq!(ok.shape(), &shape!(2, 2, 512));
    // The keyword's factor is static in the result's type.
    assert!(
        format!("{ok:?}").starts_with("StaticTensor<f32, (2,_,512)>"),
        "{ok:?}"
    );
}

#[test]
fn runtime_checks_of_partly_static_patterns_word_the_static_messages() {
    let t = batch(3);
    // A keyword that asserts a run-time extent: the result's type holds it.
    let fixed = rearrange!(&batch(4), "b c -> c b", b = 4).unwrap();
    assert!(
        format!("{fixed:?}").starts_with("StaticTensor<f32, (512,4)>"),
        "{fixed:?}"
    );
    let err = message(rearrange!(&t, "b c -> c b", b = 4));
    assert!(
        err.starts_with("rearrange!: keyword b = 4 disagrees with extent 3 of mode 0"),
        "{err}"
    );
    // `1` on the left, and an omitted symbol, need extent 1.
    let err = message(rearrange!(&t, "1 c -> c"));
    assert!(
        err.starts_with("rearrange!: `1` on the left, term 0 matches mode 0 of extent 3"),
        "{err}"
    );
    assert!(rearrange!(&batch(1), "1 c -> c").is_ok());
    let err = message(rearrange!(&t, "b c -> c"));
    assert!(err.starts_with("rearrange!: "), "{err}");
    assert!(err.contains("`b`"), "{err}");
    // Each one is the message the dynamic path gives on the same shape.
    let d = Tensor::zeros::<f32>(&shape!(3, 512));
    assert_eq!(err, message(rearrange!(&d, "b c -> c")));
    // repeat! and reduce! alike.
    let r = repeat!(&t, "b c -> b c r", r = 2).unwrap();
    assert_eq!(r.shape(), &shape!(3, 512, 2));
    let err = message(reduce!(&t, "(b2 b) c -> c", sum, b2 = 2));
    assert!(
        err.starts_with("reduce!: b2 = 2 does not divide extent 3 of mode 0"),
        "{err}"
    );
    let m = reduce!(&t, "b c -> c", mean).unwrap();
    assert_eq!(m.shape(), &shape!(512));
    assert_eq!(m.to_vec().unwrap()[..2], [1.0, 4.0]);
}

#[test]
fn einsum_of_partly_static_operands_checks_runtime_extents_at_run_time() {
    let x = StaticTensor::<f32, shape_t!(_, 3)>::arange_with(&[5]).unwrap();
    let w = StaticTensor::<f32, shape_t!(3, 4)>::arange();
    let y = einsum!(&x: shape_t!(_, 3), &w, "b k, k j -> b j").unwrap();
    assert_eq!(y.shape(), &shape!(5, 4));
    let want = x.as_dynamic().matmul(w.as_dynamic()).unwrap();
    assert_eq!(y.to_vec().unwrap(), want.to_vec::<f32>().unwrap());
    // Two run-time extents that must agree.
    let a = StaticTensor::<f32, shape_t!(_, 3)>::zeros_with(&[5]).unwrap();
    let b = StaticTensor::<f32, shape_t!(_, 3)>::zeros_with(&[6]).unwrap();
    let err = message(einsum!(&a, &b, "i k, i j -> k j"));
    assert!(err.starts_with("einsum!: "), "{err}");
    assert!(err.contains('5') && err.contains('6'), "{err}");
    assert_eq!(
        einsum!(&a, &a, "i k, i j -> k j").unwrap().shape(),
        &shape!(3, 3)
    );
}

#[test]
fn static_arithmetic_checks_runtime_extents_at_run_time() {
    let a = StaticTensor::<f32, shape_t!(_, 3)>::zeros_with(&[4]).unwrap();
    let b = StaticTensor::<f32, shape_t!(_, 3)>::zeros_with(&[5]).unwrap();
    let err = message(&a + &b);
    assert!(
        err.starts_with("add: shape (5,3) does not match (4,3)"),
        "{err}"
    );
    let s = StaticTensor::<f32, shape_t!(4, 3)>::arange();
    assert_eq!((&a + &s).unwrap().shape(), &shape!(4, 3));
    let w = StaticTensor::<f32, shape_t!(3, 2)>::arange();
    assert_eq!(a.matmul(&w).unwrap().shape(), &shape!(4, 2));
    let l = StaticTensor::<f32, shape_t!(4, _)>::zeros_with(&[3]).unwrap();
    let r = StaticTensor::<f32, shape_t!(_, 2)>::zeros_with(&[5]).unwrap();
    let err = message(l.matmul(&r));
    assert!(err.starts_with("matmul: "), "{err}");
    // cast may forget a static extent; try_cast fixes a run-time one, checked.
    let forgot: StaticTensor<f32, shape_t!(_, 3)> = s.clone().cast();
    assert_eq!(forgot.shape(), &shape!(4, 3));
    assert!(a.clone().try_cast::<shape_t!(4, 3)>().is_ok());
    let err = message(b.try_cast::<shape_t!(4, 3)>());
    assert_eq!(
        err,
        "StaticTensor::try_cast: shape (5,3) does not match (4,3): the static shape differs"
    );
}

#[test]
fn with_runtime_fills_the_underscores_in_order() {
    let code = <shape_t!(_, (4, _), _)>::SHAPE;
    assert_eq!(code.with_runtime(&[1, 2, 3]).unwrap(), shape!(1, (4, 2), 3));
    assert!(ShapeCode::RUNTIME.agrees(&ShapeCode::leaf(9)));
    assert!(!ShapeCode::RUNTIME.same_shape(&ShapeCode::leaf(9)));
    assert_eq!(
        code.with_runtime(&[1]).unwrap_err().kind(),
        ErrorKind::Value
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Every constructor that takes run-time extents answers any input with a value or an
    /// error naming it, never a panic, and never allocates beyond what the shape needs.
    #[test]
    fn runtime_extent_constructors_never_panic(
        extents in proptest::collection::vec(prop_oneof![-3i64..6, Just(i64::MAX), Just(i64::MIN), Just(1i64 << 40)], 0..4),
        len in 0usize..40,
    ) {
        let code = <shape_t!(_, (2, _))>::SHAPE;
        match code.with_runtime(&extents) {
            Ok(s) => prop_assert_eq!(s.size() as i64, 2 * extents[0] * extents[1]),
            Err(e) => prop_assert!(e.to_string().starts_with("ShapeCode::with_runtime: ")),
        }
        let small: Vec<i64> = extents.iter().map(|&e| e.clamp(-2, 9)).collect();
        match StaticTensor::<u8, shape_t!(_, (2, _))>::zeros_with(&small) {
            Ok(t) => prop_assert_eq!(t.size() as i64, 2 * small[0] * small[1]),
            Err(e) => prop_assert!(e.to_string().starts_with("StaticTensor::zeros_with: ")),
        }
        match StaticTensor::<u8, shape_t!(_, (2, _))>::arange_with(&small) {
            Ok(t) => prop_assert_eq!(t.size() as i64, 2 * small[0] * small[1]),
            Err(e) => prop_assert!(e.to_string().starts_with("StaticTensor::arange_with: ")),
        }
        match StaticTensor::<u8, shape_t!(_, (2, _))>::from_vec_with(vec![0; len], &small) {
            Ok(t) => prop_assert_eq!(t.size(), len),
            Err(e) => prop_assert!(e.to_string().starts_with("StaticTensor::from_vec_with: ")),
        }
        match StaticTensor::<u8, shape_t!(2, _)>::from_vec(vec![0; len]) {
            Ok(t) => prop_assert_eq!(t.shape().to_string(), format!("(2,{})", len / 2)),
            Err(e) => prop_assert!(len % 2 == 1 || len == 0, "{}", e),
        }
    }
}

#[test]
fn einsum_places_the_compilers_plans_on_runtime_extents() {
    // Splits, groups on the output and shared run-time symbols, against the dynamic einsum.
    for b in [1i64, 2, 3] {
        let x = StaticTensor::<f64, shape_t!(_, 6)>::arange_with(&[2 * b]).unwrap();
        let w = StaticTensor::<f64, shape_t!(3, _)>::arange_with(&[b + 1]).unwrap();
        let got = einsum!(&x, &w, "(b2 b) (h k), k j -> (b h) b2 j", b2 = 2, h = 2).unwrap();
        let want = Tensor::einsum_with(
            "(b2 b) (h k), k j -> (b h) b2 j",
            &[x.as_dynamic(), w.as_dynamic()],
            &[("b2", 2), ("h", 2)],
        )
        .unwrap();
        assert_eq!(got.shape(), want.shape(), "b = {b}");
        assert_eq!(
            got.to_vec().unwrap(),
            want.to_vec::<f64>().unwrap(),
            "b = {b}"
        );
        let a = StaticTensor::<f64, shape_t!(_, _)>::arange_with(&[b, 4]).unwrap();
        let c = einsum!(&a, &a, "i k, i j -> (k j)").unwrap();
        let want = Tensor::einsum("i k, i j -> (k j)", &[a.as_dynamic(), a.as_dynamic()]).unwrap();
        assert_eq!(
            c.to_vec().unwrap(),
            want.to_vec::<f64>().unwrap(),
            "b = {b}"
        );
    }
    let x = StaticTensor::<f64, shape_t!(_, 6)>::zeros_with(&[3]).unwrap();
    let w = StaticTensor::<f64, shape_t!(3, _)>::zeros_with(&[2]).unwrap();
    let err = message(einsum!(
        &x,
        &w,
        "(b2 b) (h k), k j -> b b2 h j",
        b2 = 2,
        h = 2
    ));
    assert!(
        err.starts_with("einsum! (input 0): b2 = 2 does not divide extent 3 of mode 0"),
        "{err}"
    );
}

#[test]
fn einops_macros_on_partly_static_shapes() {
    use strideweave::einops;
    // numpy-ordered data: row-major strides over the run-time batch.
    let b = 3;
    let d = Tensor::from_vec_row_major((0..b * 512).map(|v| v as f32).collect(), &shape!(3, 512));
    let t = StaticTensor::<f32, Tokens>::try_from_dynamic(d.unwrap()).unwrap();
    let heads = einops::rearrange!(&t, "b (h d) -> b h d", h = 8).unwrap();
    assert_eq!(heads.shape(), &shape!(3, 8, 64));
    // einops' reading: h slowest, so [b, h, d] is element b * 512 + h * 64 + d.
    assert_eq!(
        heads.get(&[2, 3, 5].into()).unwrap(),
        (2 * 512 + 3 * 64 + 5) as f32
    );
    let back = einops::rearrange!(&heads, "b h d -> b (h d)").unwrap();
    assert_eq!(back.shape(), &shape!(3, 512));
    assert_eq!(back.to_vec().unwrap(), t.to_vec().unwrap());
    assert!(
        format!("{back:?}").starts_with("StaticTensor<f32, (_,512)>"),
        "{back:?}"
    );
    let err = message(einops::rearrange!(&t, "(b2 b) c -> b2 b c", b2 = 2));
    assert!(
        err.starts_with("einops::rearrange!: b2 = 2 does not divide extent 3"),
        "{err}"
    );
}

#[test]
fn an_omitted_runtime_symbol_must_be_extent_one_at_run_time() {
    let one = StaticTensor::<f32, shape_t!(_, 4)>::zeros_with(&[1]).unwrap();
    assert_eq!(
        rearrange!(&one, "b c -> c", b = 1).unwrap().shape(),
        &shape!(4)
    );
    assert_eq!(rearrange!(&one, "b c -> c").unwrap().shape(), &shape!(4));
    let two = StaticTensor::<f32, shape_t!(_, 4)>::zeros_with(&[2]).unwrap();
    let err = message(rearrange!(&two, "b c -> c", b = 1));
    assert!(
        err.starts_with("rearrange!: keyword b = 1 disagrees with extent 2"),
        "{err}"
    );
    let err = message(rearrange!(&two, "b c -> c"));
    assert!(err.starts_with("rearrange!: omitted source: `b`"), "{err}");
}
