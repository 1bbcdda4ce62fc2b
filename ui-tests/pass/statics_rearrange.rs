//! `rearrange!` and `repeat!` on static and dynamic tensors: layouts, values, chains.

use strideweave::{
    ErrorKind, Leaf, Rearranged, StaticShape, StaticTensor, Tensor, rearrange, repeat, shape,
    shape_t,
};

const H: i64 = 4;

fn shape_of<T: strideweave::Element, S: StaticShape>(_: &StaticTensor<T, S>) -> String {
    S::SHAPE.to_string()
}

// A result's shape is a type too; a function returns it as `impl StaticShape` or casts it to
// a named shape.
fn to_hwc(t: &StaticTensor<f32, shape_t!(12, 5)>) -> StaticTensor<f32, impl StaticShape> {
    rearrange!(t, "(h w) c -> h w c", h = H)
}

fn named(t: &StaticTensor<f32, shape_t!(12, 5)>) -> StaticTensor<f32, shape_t!(5, 12)> {
    rearrange!(t, "a b -> b a").try_cast().unwrap()
}

// `cast` checks the shapes at compile time (and starts a chain's type nesting afresh).
fn named_checked(t: &StaticTensor<f32, shape_t!(12, 5)>) -> StaticTensor<f32, shape_t!(5, 12)> {
    rearrange!(t, "a b -> b a").cast()
}

// The tensor's shape written after it: the check is then an item-level constant too, which
// `cargo check` evaluates.
fn annotated(t: &StaticTensor<f32, shape_t!(12, 5)>) -> StaticTensor<f32, impl StaticShape> {
    let hwc = rearrange!(t: shape_t!(12, 5), "(h w) c -> h w c", h = H);
    repeat!(hwc.cast::<shape_t!(4, 3, 5)>(): shape_t!(4, 3, 5), (h) w c -> (h 1) w c r, r = 2)
}

fn main() {
    let t = StaticTensor::<f32, shape_t!(12, 5)>::arange();
    assert_eq!(named_checked(&t).to_vec().unwrap(), named(&t).to_vec().unwrap());
    assert_eq!(shape_of(&annotated(&t)), "((4,1),3,5,2)");
    // Static: the result's type carries its shape; no `Result`.
    let t = StaticTensor::<f32, shape_t!(12, 5)>::arange();
    let v = rearrange!(&t, "(h w) c -> c h w", h = H);
    assert_eq!(shape_of(&v), "(5,4,3)");
    assert_eq!(v.layout().to_string(), "(5,4,3):(12,1,4)");
    assert_eq!(v.to_vec().unwrap()[..6], [0.0, 12.0, 24.0, 36.0, 48.0, 1.0]);

    // Chained: each call is checked against the previous result's static shape.
    let back = rearrange!(rearrange!(v, "c h w -> h w c"), "h w c -> (h w) c");
    assert_eq!(back.shape(), &shape!((4, 3), 5));
    assert_eq!(back.to_vec().unwrap(), t.to_vec().unwrap());
    let flat = rearrange!(back, "(h w) c -> (c h w)");
    assert_eq!(flat.layout().to_string(), "((5,4,3)):((12,1,4))");

    // Keyword assertions, `1` on both sides, omitted extent-one modes, `...`.
    let u = StaticTensor::<i32, shape_t!(2, 1, (3, 4))>::arange();
    let w = rearrange!(&u, "a 1 (b c) -> c 1 b a", a = 2, c = 4);
    assert_eq!(w.layout().to_string(), "(4,1,3,2):(6,0,2,1)");
    let w = rearrange!(&u, "a one bc -> bc a");
    assert_eq!(w.layout().to_string(), "((3,4),2):((2,6),1)");
    let e = rearrange!(&u, "a ... -> ... a");
    assert_eq!(e.layout().to_string(), "(1,(3,4),2):(2,(2,6),1)");
    assert_eq!(shape_of(&e), "(1,(3,4),2)");

    // Functions naming results.
    assert_eq!(to_hwc(&t).layout().to_string(), "(4,3,5):(1,4,12)");
    assert_eq!(named(&t).layout().to_string(), "(5,12):(12,1)");
    let _: StaticTensor<f32, Rearranged<(Leaf<12>, Leaf<5>), _>> = rearrange!(&t, "a b -> a b");

    // Repeat: stride-0 modes, inside a group too.
    let s = StaticTensor::<i64, shape_t!(2, 3)>::arange();
    let r = repeat!(&s, "h w -> h (w r) c", r = 2, c = 3);
    assert_eq!(r.layout().to_string(), "(2,(3,2),3):(1,(2,0),0)");
    assert_eq!(shape_of(&r), "(2,(3,2),3)");
    assert_eq!(
        r.to_vec().unwrap()[..12],
        [0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5]
    );
    let rr = rearrange!(r, "h (w r) c -> (h w) (r c)");
    assert_eq!(rr.layout().to_string(), "((2,3),(2,3)):((1,2),(0,0))");

    // The token form.
    let v = rearrange!(&t, (h w) c -> c h w, h = 4);
    assert_eq!(v.layout().to_string(), "(5,4,3):(12,1,4)");

    // Dynamic: the same rules at run time, a `Result`, the compile-time message text.
    let d = Tensor::arange::<f32>(&shape!(12, 5));
    let v = rearrange!(&d, "(h w) c -> c h w", h = H).unwrap();
    assert_eq!(v.layout().to_string(), "(5,4,3):(12,1,4)");
    let r = repeat!(
        rearrange!(d.clone(), "a b -> b a").unwrap(),
        "b a -> b a k",
        k = 2
    )
    .unwrap();
    assert_eq!(r.layout().to_string(), "(5,12,2):(12,1,0)");
    let err = rearrange!(&d, "(h w) c -> h w c", h = 5).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert_eq!(
        err.to_string(),
        "rearrange!: h = 5 does not divide extent 12 of mode 0, which the group `(h w)` on the left, term 0 splits\n  (h w) c -> h w c\n  ^^^^^\n  the tensor's shape is (12,5)"
    );

    // Static and dynamic agree with the runtime API.
    let p = t
        .as_dynamic()
        .rearrange("(h w) c -> c h w", &[("h", 4)])
        .unwrap();
    assert_eq!(
        p.layout(),
        rearrange!(&t, "(h w) c -> c h w", h = 4).layout()
    );
}
