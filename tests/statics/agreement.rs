//! The macro path (static and dynamic) and the runtime path give identical views.

use strideweave::{StaticShape, StaticTensor, Tensor, rearrange, repeat, shape_t};

use crate::statics::support::{same_view, tensor};

/// `rearrange!` on a dynamic tensor against `Tensor::rearrange` with the same pattern and
/// keywords.
macro_rules! agree {
    ($t:expr, $pattern:tt $(, $k:ident = $v:expr)*) => {{
        let t: &Tensor = &$t;
        let by_macro = rearrange!(t, $pattern $(, $k = $v)*).unwrap();
        let by_runtime = t.rearrange($pattern, &[$((stringify!($k), $v as i64)),*]).unwrap();
        same_view(&by_macro, &by_runtime, &format!("rearrange {:?} on {}", $pattern, t.layout()));
    }};
}

/// `repeat!` against `Tensor::repeat`.
macro_rules! agree_repeat {
    ($t:expr, $pattern:tt $(, $k:ident = $v:expr)*) => {{
        let t: &Tensor = &$t;
        let by_macro = repeat!(t, $pattern $(, $k = $v)*).unwrap();
        let by_runtime = t.repeat($pattern, &[$((stringify!($k), $v as i64)),*]).unwrap();
        same_view(&by_macro, &by_runtime, &format!("repeat {:?} on {}", $pattern, t.layout()));
    }};
}

/// The same on a static tensor of shape `$s` over the given dynamic tensor: the result's
/// static shape is the runtime result's shape.
macro_rules! agree_static {
    ($s:ty, $t:expr, $mac:ident, $method:ident, $pattern:tt $(, $k:ident = $v:expr)*) => {{
        let t: Tensor = $t;
        let st = StaticTensor::<f64, $s>::try_from_dynamic(t.clone()).unwrap();
        let by_macro = $mac!(&st, $pattern $(, $k = $v)*);
        let by_runtime = t.$method($pattern, &[$((stringify!($k), $v)),*]).unwrap();
        assert_eq!(
            static_shape(&by_macro),
            by_runtime.shape().to_string(),
            "static shape of {:?}",
            $pattern
        );
        same_view(by_macro.as_dynamic(), &by_runtime, &format!("{:?} on static {}", $pattern, t.layout()));
    }};
}

fn static_shape<S: StaticShape>(_: &StaticTensor<f64, S>) -> String {
    S::SHAPE.to_string()
}

const H: i64 = 4;

#[test]
fn rearrange_agrees_on_compact_tensors() {
    let t = tensor("(12,5):(1,12)", 0);
    agree!(t, "(h w) c -> c h w", h = 4);
    agree!(t, "(h w) c -> h w c", w = 3);
    agree!(t, "(h w) c -> (w h) c", h = H);
    agree!(t, "(h w) c -> (h w) c", h = 2, w = 6);
    agree!(t, "(a 1 b) c -> b 1 a c", a = 2);
    agree!(t, "(a b) c -> a b c", a = 12);
    agree!(t, "a b -> b a", a = 12, b = 5);
    agree!(t, "a b -> (b a)");
    agree!(t, "a ... -> ... a");
    let t = tensor("(2,(3,4)):(1,(2,6))", 0);
    agree!(t, "a (b c) -> c b a");
    agree!(t, "a bc -> (bc a) 1");
    agree!(t, "a bc -> bc a", bc = 12);
    agree!(t, "a (b c) -> (c (b a))");
    let t = tensor("(2,3,4,5):(1,2,6,24)", 0);
    agree!(t, "a ... d -> d ... a");
    agree!(t, "... d -> d ...");
    agree!(t, "a b ... -> (... a) b");
    agree!(t, "a b c d ... -> d c b a ...");
    let t = tensor("(2,1,(3,4)):(1,2,(2,6))", 0);
    agree!(t, "a 1 (b c) -> c 1 b a", a = 2, c = 4);
    agree!(t, "a one bc -> bc a");
    agree!(t, "a one (b c) -> (a c) b one");
    let t = tensor("(24,2):(1,24)", 0);
    agree!(t, "((a b) c) d -> d c b a", a = 2, c = 3);
    agree!(t, "(a (b c)) d -> (c a) (d b)", a = 2, b = 3);
    agree!(t, "(a b c) d -> c (a b) d", a = 2, b = 3);
    let t = tensor("(1,6):(1,1)", 0);
    agree!(t, "1 x -> x");
    agree!(t, "one x -> x one 1");
    let t = tensor("8:1", 0);
    agree!(t, "a -> a 1");
    agree!(t, "(a b) -> b a", b = 2);
}

#[test]
fn rearrange_agrees_on_views_with_offsets_and_negative_strides() {
    for (layout, offset) in [
        ("(12,5):(5,1)", 0),
        ("(12,5):(-1,12)", 11),
        ("(12,5):(10,-2)", 8),
        ("(12,5):(3,0)", 2),
        ("(12,5):(1,100)", 7),
    ] {
        let t = tensor(layout, offset);
        agree!(t, "(h w) c -> c h w", h = 4);
        agree!(t, "(h w) c -> (w c) h", w = 2);
        agree!(t, "a b -> b 1 a");
    }
    let t = tensor("(2,(3,4)):(-12,(4,-1))", 20);
    agree!(t, "a (b c) -> c b a");
    agree!(t, "a (b (c1 c2)) -> c2 (c1 b) a", c1 = 2);
}

#[test]
fn repeat_agrees() {
    let t = tensor("(2,3):(1,2)", 0);
    agree_repeat!(t, "h w -> h (w r) c", r = 2, c = 3);
    agree_repeat!(t, "h w -> b w h", b = 5);
    agree_repeat!(t, "h w -> (r h) w", r = 1);
    agree_repeat!(t, "h (w1 w2) -> h w2 w1 r", w1 = 3, r = 4);
    let t = tensor("(2,3,4):(12,-4,1)", 8);
    agree_repeat!(t, "... w -> ... (w r)", r = 2);
    agree_repeat!(t, "a ... -> x ... (a y)", x = 2, y = 3);
    let t = tensor("3:1", 0);
    agree_repeat!(t, "h -> (h r)", r = 2);
}

#[test]
fn static_tensors_agree_with_the_runtime() {
    agree_static!(
        shape_t!(12, 5),
        tensor("(12,5):(1,12)", 0),
        rearrange,
        rearrange,
        "(h w) c -> c h w",
        h = 4
    );
    agree_static!(
        shape_t!(12, 5),
        tensor("(12,5):(-1,12)", 11),
        rearrange,
        rearrange,
        "(h w) c -> (w c) h",
        w = 2
    );
    agree_static!(
        shape_t!(2, (3, 4)),
        tensor("(2,(3,4)):(-12,(4,-1))", 20),
        rearrange,
        rearrange,
        "a (b c) -> c b a"
    );
    agree_static!(
        shape_t!(2, 1, (3, 4)),
        tensor("(2,1,(3,4)):(1,2,(2,6))", 0),
        rearrange,
        rearrange,
        "a one bc -> bc a"
    );
    agree_static!(
        shape_t!(2, 3, 4, 5),
        tensor("(2,3,4,5):(1,2,6,24)", 0),
        rearrange,
        rearrange,
        "a ... d -> d ... a"
    );
    agree_static!(
        shape_t!(24, 2),
        tensor("(24,2):(1,24)", 0),
        rearrange,
        rearrange,
        "((a b) c) d -> d c b a",
        a = 2,
        c = 3
    );
    agree_static!(
        shape_t!(8),
        tensor("8:1", 0),
        rearrange,
        rearrange,
        "(a b) -> b a",
        b = 2
    );
    agree_static!(
        shape_t!(2, 3),
        tensor("(2,3):(3,1)", 0),
        repeat,
        repeat,
        "h w -> h (w r) c",
        r = 2,
        c = 3
    );
    agree_static!(
        shape_t!(2, 3, 4),
        tensor("(2,3,4):(12,-4,1)", 8),
        repeat,
        repeat,
        "a ... -> x ... (a y)",
        x = 2,
        y = 3
    );
}

#[test]
fn the_token_form_means_the_string_form() {
    let t = tensor("(12,5):(1,12)", 0);
    let a = rearrange!(&t, (h w) c -> c (w h), h = 4).unwrap();
    let b = rearrange!(&t, "(h w) c -> c (w h)", h = 4).unwrap();
    same_view(&a, &b, "token form");
    let a = repeat!(&t, a ... -> ... (a r), r = 2).unwrap();
    let b = repeat!(&t, "a ... -> ... (a r)", r = 2).unwrap();
    same_view(&a, &b, "token form with `...`");
}

#[test]
fn chains_keep_their_static_shapes() {
    let t = StaticTensor::<f64, shape_t!(12, 5)>::arange();
    let a = rearrange!(&t, "(h w) c -> c h w", h = 4);
    let b = rearrange!(a, "c h w -> h (w c)");
    let c = repeat!(b, "h wc -> h wc r", r = 2);
    let d = rearrange!(c, "h (w c) r -> (h w) c r");
    assert_eq!(static_shape(&d), "((4,3),5,2)");
    let runtime = t
        .as_dynamic()
        .rearrange("(h w) c -> c h w", &[("h", 4)])
        .and_then(|x| x.rearrange("c h w -> h (w c)", &[]))
        .and_then(|x| x.repeat("h wc -> h wc r", &[("r", 2)]))
        .and_then(|x| x.rearrange("h (w c) r -> (h w) c r", &[]))
        .unwrap();
    same_view(d.as_dynamic(), &runtime, "chain");
}
