//! `StaticTensor`: constructors checked against the static shape, free conversions, checked
//! conversions back.

use strideweave::{
    Carrier, ErrorKind, Leaf, ShapeCode, StaticShape, StaticTensor, Tensor, rearrange, shape,
    shape_t,
};

#[test]
fn constructors_follow_the_static_shape() {
    type S = shape_t!(2, (3, 4));
    let t = StaticTensor::<i32, S>::arange();
    assert_eq!(t.layout().to_string(), "(2,(3,4)):(1,(2,6))");
    assert_eq!(t.to_vec().unwrap(), (0..24).collect::<Vec<_>>());
    let z = StaticTensor::<f64, S>::zeros();
    assert_eq!(z.to_vec().unwrap(), vec![0.0; 24]);
    let v = StaticTensor::<u8, S>::from_vec((0..24).collect()).unwrap();
    assert_eq!(v.shape(), &shape!(2, (3, 4)));
    let err = StaticTensor::<u8, S>::from_vec(vec![0; 23]).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert_eq!(
        err.to_string(),
        "StaticTensor::from_vec: expected 24 elements, found 23"
    );
    assert_eq!(StaticTensor::<u8, S>::SHAPE, S::SHAPE);
    assert_eq!(
        format!("{:?}", StaticTensor::<u8, shape_t!(2)>::zeros())
            .split('(')
            .next(),
        Some("StaticTensor<u8, 2>")
    );
}

#[test]
fn integer_and_one_mode_shapes_agree_at_the_root() {
    let t = Tensor::arange::<f32>(&shape!(8));
    assert!(StaticTensor::<f32, shape_t!(8)>::try_from_dynamic(t.clone()).is_ok());
    assert!(StaticTensor::<f32, shape_t!(8,)>::try_from_dynamic(t.clone()).is_ok());
    assert!(StaticTensor::<f32, (Leaf<8>,)>::try_from_dynamic(t).is_ok());
    assert!(<Leaf<8>>::SHAPE.same_shape(&<(Leaf<8>,)>::SHAPE));
    assert_ne!(<Leaf<8>>::SHAPE, <(Leaf<8>,)>::SHAPE);
}

#[test]
fn conversions_are_free_and_checked_back() {
    let c = Carrier::from_vec((0..6).map(|i| i as f32).collect());
    let d = Tensor::new(c.clone(), 0, "(3,2):(2,1)".parse().unwrap()).unwrap();
    let s = StaticTensor::<f32, shape_t!(3, 2)>::try_from_dynamic(d.clone()).unwrap();
    assert!(Carrier::same(s.as_dynamic().carrier(), &c));
    assert_eq!(s.as_dynamic().layout(), d.layout());
    let back: Tensor = s.clone().into();
    assert!(Carrier::same(back.carrier(), &c));
    let again: StaticTensor<f32, shape_t!(3, 2)> = back.try_into().unwrap();
    assert_eq!(again.to_vec().unwrap(), d.to_vec::<f32>().unwrap());

    let wrong_shape = StaticTensor::<f32, shape_t!(2, 3)>::try_from_dynamic(d.clone()).unwrap_err();
    assert_eq!(wrong_shape.kind(), ErrorKind::Value);
    assert_eq!(
        wrong_shape.to_string(),
        "StaticTensor::try_from_dynamic: shape (3,2) does not match (2,3): the static shape differs"
    );
    let nested = StaticTensor::<f32, shape_t!((3, 2))>::try_from_dynamic(d.clone()).unwrap_err();
    assert_eq!(nested.kind(), ErrorKind::Value);
    let wrong_dtype = StaticTensor::<f64, shape_t!(3, 2)>::try_from_dynamic(d).unwrap_err();
    assert_eq!(wrong_dtype.kind(), ErrorKind::Type);
}

#[test]
fn results_can_be_named() {
    let t = StaticTensor::<f32, shape_t!(12, 5)>::arange();
    let v: StaticTensor<f32, shape_t!(4, 3, 5)> = rearrange!(&t, "(h w) c -> h w c", h = 4)
        .try_cast()
        .unwrap();
    assert_eq!(v.layout().to_string(), "(4,3,5):(1,4,12)");
    let wrong = rearrange!(&t, "(h w) c -> h w c", h = 4).try_cast::<shape_t!(4, 15)>();
    assert!(wrong.is_err());
}

#[test]
fn shape_codes_round_trip_and_respect_their_capacity() {
    let s = shape!(2, (3, (4, 1)), ());
    let c = ShapeCode::from_shape(&s).unwrap();
    assert_eq!(c.to_shape(), s);
    assert_eq!(c.to_string(), "(2,(3,(4,1)),())");
    assert_eq!((c.rank(), c.size()), (3, 24));
    let wide: strideweave::Shape = format!("({})", vec!["1"; 33].join(",")).parse().unwrap();
    assert_eq!(ShapeCode::from_shape(&wide), None);
    // The macros on a dynamic tensor run the engine with scratch sized from the shape: the
    // code's capacity does not apply to them.
    let t = Tensor::zeros::<f32>(&wide);
    let v = rearrange!(&t, "a ... -> ... a").unwrap();
    assert_eq!(
        v.layout(),
        t.rearrange("a ... -> ... a", &[]).unwrap().layout()
    );
    assert_eq!(v.shape().rank(), 33);
}
