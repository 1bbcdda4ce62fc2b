//! Every error message starts with the operation the user called, once (`permute: …`), never
//! with an internal helper's name: each public fallible method of `Tensor`, `StaticTensor` and
//! `Layout` called with a bad argument.

use strideweave::{
    Carrier, DType, Error, IntTuple, Key, Layout, Scalar, Shape, StaticTensor, Tensor, Tree,
    shape_t,
};

use super::support::{block_scaled, l, s, tensor};

/// The error of a call that must fail.
#[track_caller]
fn err<T: std::fmt::Debug>(r: Result<T, Error>) -> Error {
    r.expect_err("the call must fail")
}

/// `msg` starts with `op: ` exactly once, and the operation is not named again as the first
/// word (`permute: permute requires…`); `mode: mode index 2…` names a value, not the op.
fn assert_reported_as(op: &str, e: Error) {
    let msg = e.to_string();
    let prefix = format!("{op}: ");
    assert!(
        msg.starts_with(&prefix),
        "expected `{prefix}` at the start: {msg}"
    );
    assert_eq!(
        msg.matches(&prefix).count(),
        1,
        "`{prefix}` more than once: {msg}"
    );
    let name = op.rsplit("::").next().unwrap();
    let first = msg[prefix.len()..].split_whitespace().next();
    assert!(
        first != Some(name) || op == "mode",
        "the operation named twice: {msg}"
    );
}

#[test]
fn every_tensor_error_starts_with_the_called_operation_once() {
    let t = tensor("(2,3):(1,2)", 0);
    let bad = IntTuple::from([2, 0]);
    let released = tensor("(2,3):(1,2)", 0);
    released.carrier().release().unwrap();
    let c = Carrier::from_vec(vec![0f64; 10]);
    let cases: Vec<(&str, Error)> = vec![
        ("Tensor::new", err(Tensor::new(c, 5, l("(2,3):(1,2)")))),
        (
            "Tensor::from_vec",
            err(Tensor::from_vec(vec![1i32], &s("(2,3)"))),
        ),
        (
            "Tensor::from_vec_row_major",
            err(Tensor::from_vec_row_major(vec![1i32], &s("(2,3)"))),
        ),
        ("get", err(t.get(&bad))),
        ("get_ordinal", err(t.get_ordinal(6))),
        ("set", err(t.set(&bad, 1.0))),
        ("set_ordinal", err(t.set_ordinal(6, 1.0))),
        (
            "set",
            err(t.set(&IntTuple::from([0, 0]), Scalar::Bool(true))),
        ),
        ("fill", err(t.fill(Scalar::Bool(true)))),
        ("item", err(t.item::<f64>())),
        ("item", err(tensor("1:1", 0).item::<f32>())),
        ("to_vec", err(t.to_vec::<f32>())),
        ("to_vec_row_major", err(t.to_vec_row_major::<f32>())),
        ("iter", err(t.iter::<f32>())),
        ("to_scalars", err(released.to_scalars())),
        ("to_vec", err(released.to_vec::<f64>())),
        ("get", err(released.get(&IntTuple::from([0, 0])))),
        ("slice", err(t.slice(&[2.into(), Key::all()]))),
        ("slice", err(t.slice(&[Key::all()]))),
        ("index", err(t.index(&[2.into(), Key::all()]))),
        (
            "index",
            err(t.index(&[Key::all(), Key::slice(None, None, Some(0))])),
        ),
        ("permute", err(t.permute(&[0, 0]))),
        ("permute", err(t.permute(&[0]))),
        ("reshape", err(t.reshape(&s("7")))),
        ("reshape", err(tensor("(2,3):(3,1)", 0).reshape(&s("6")))),
        (
            "as_strided",
            err(t.as_strided(&s("(2,2)"), &"(1)".parse().unwrap())),
        ),
        (
            "as_strided",
            err(t.as_strided(&s("(2,2)"), &"(1,1)".parse().unwrap())),
        ),
        (
            "as_strided",
            err(t.as_strided(&s("7"), &"1".parse().unwrap())),
        ),
        ("broadcast_to", err(t.broadcast_to(&s("(3,3)")))),
        (
            "broadcast_in_dim",
            err(t.broadcast_in_dim(&s("(2,3)"), &[1, 0])),
        ),
        (
            "broadcast_in_dim",
            err(t.broadcast_in_dim(&s("(2,4)"), &[0, 1])),
        ),
        ("broadcast_right", err(t.broadcast_right(&s("3")))),
        ("broadcast_right", err(t.broadcast_right(&s("(4,3)")))),
        ("unsqueeze", err(t.unsqueeze(3))),
        ("squeeze", err(t.squeeze(2))),
        ("squeeze", err(t.squeeze(0))),
        ("reverse", err(t.reverse(2))),
        ("rearrange_tree", err(t.rearrange_tree(&Tree::id(5), None))),
        ("rearrange", err(t.rearrange("a b -> a", &[]))),
        ("compose", err(t.compose(&l("4:2")))),
        (
            "logical_divide",
            err(t.logical_divide(&(&s("(2,4)")).into())),
        ),
        ("zipped_divide", err(t.zipped_divide(&(&s("(4,3)")).into()))),
        ("tiled_divide", err(t.tiled_divide(&(&s("(2,2)")).into()))),
        ("flat_divide", err(t.flat_divide(&(&s("(2,3,2)")).into()))),
        (
            "local_tile",
            err(t.local_tile(&(&s("(2,3)")).into(), &IntTuple::from([1, 0]))),
        ),
        (
            "inner_partition",
            err(t.inner_partition(&(&s("(2,3)")).into(), &IntTuple::int(1))),
        ),
        (
            "outer_partition",
            err(t.outer_partition(&(&s("(2,3)")).into(), &IntTuple::from([0, 3]))),
        ),
        (
            "local_partition",
            err(t.local_partition(&l("(2,3):(1,2)"), 6)),
        ),
        ("partition_tv", err(t.partition_tv(&l("(2,3):(1,2)"), 2))),
        ("repeat", err(t.repeat("a b -> a b c", &[]))),
        ("add", err(t.add(&tensor("(3,2):(1,3)", 0)))),
        ("matmul", err(t.matmul(&t))),
        ("sum_modes", err(t.sum_modes(&[2]))),
        ("add_into", err(t.add_into(&t, &tensor("3:1", 0)))),
        ("backward", err(t.backward())),
        ("backward_with", err(t.backward_with(None, false))),
        ("dequantize", err(t.dequantize())),
        (
            "Tensor::block_scaled",
            err(Tensor::block_scaled(
                vec![0; 8],
                vec![1.0; 3],
                &s("(4,2)"),
                0,
                2,
            )),
        ),
        ("add", err(released.add(&released))),
        ("sum", err(released.sum())),
        ("sum_into", err(t.sum_into(&t))),
        (
            "matmul",
            err(released.matmul(&released.permute(&[1, 0]).unwrap())),
        ),
        (
            "set_requires_grad",
            err(Tensor::zeros::<i32>(&s("2")).set_requires_grad(true)),
        ),
        ("to_shape", err(t.clone().to_shape(&s("7")))),
        ("to_shape", err(t.clone().to_shape(&s("6")))),
        (
            "transfer_to",
            err(t.transfer_to(&strideweave::StorageRequest::named("nowhere"))),
        ),
        (
            "transfer_to",
            err(released.transfer_to(&strideweave::StorageRequest::host())),
        ),
    ];
    for (op, e) in cases {
        assert_reported_as(op, e);
    }
}

#[test]
fn a_multi_subtensor_rejection_names_the_called_operation_once() {
    let b = block_scaled();
    let cases: Vec<(&str, Error)> = vec![
        ("get", err(b.get(&IntTuple::from([0, 0])))),
        ("get_ordinal", err(b.get_ordinal(0))),
        ("set_ordinal", err(b.set_ordinal(0, 1.0))),
        ("item", err(b.item::<i8>())),
        ("to_vec", err(b.to_vec::<i8>())),
        ("to_shape", err(b.clone().to_shape(b.shape()))),
        (
            "transfer_to",
            err(b.transfer_to(&strideweave::StorageRequest::host())),
        ),
        ("reverse", err(b.reverse(0))),
        ("rearrange", err(b.rearrange("a b -> b a", &[]))),
        (
            "local_tile",
            err(b
                .local_tile(&b.shape().into(), &IntTuple::from([0, 0]))
                .and_then(|_| b.local_tile(&(&s("(1,1)")).into(), &IntTuple::from([1, 0])))),
        ),
        ("index", err(b.index(&[0.into(), 0.into()]))),
        ("slice", err(b.slice(&[1.into(), Key::all()]))),
    ];
    for (op, e) in cases {
        assert_reported_as(op, e);
    }
}

#[test]
fn every_static_tensor_error_starts_with_the_called_operation_once() {
    type T23 = StaticTensor<f64, shape_t!(2, 3)>;
    let t = T23::arange();
    let cases: Vec<(&str, Error)> = vec![
        ("StaticTensor::from_vec", err(T23::from_vec(vec![1.0]))),
        (
            "StaticTensor::try_from_dynamic",
            err(T23::try_from_dynamic(tensor("(3,2):(1,3)", 0))),
        ),
        (
            "StaticTensor::try_from_dynamic",
            err(T23::try_from_dynamic(Tensor::zeros::<f32>(&s("(2,3)")))),
        ),
        (
            "StaticTensor::try_cast",
            err(t.clone().try_cast::<shape_t!(3, 2)>()),
        ),
        ("get", err(t.get(&IntTuple::from([2, 0])))),
        ("get_ordinal", err(t.get_ordinal(6))),
        ("item", err(t.item())),
    ];
    for (op, e) in cases {
        assert_reported_as(op, e);
    }
}

#[test]
fn every_layout_error_starts_with_the_called_operation_once() {
    let a = l("(2,3):(1,2)");
    let shape = |t: &str| t.parse::<Shape>().unwrap();
    let cases: Vec<(&str, Error)> = vec![
        (
            "Layout::new",
            err(Layout::new(shape("(2,3)"), "(1)".parse().unwrap())),
        ),
        ("Shape::new", err(Shape::new(IntTuple::from([2, 0])))),
        ("coordinate", err(shape("(2,3)").coordinate(6))),
        ("index", err(a.index(&IntTuple::from([2, 0])))),
        ("index", err(a.index(&IntTuple::from([0])))),
        ("index_of", err(a.index_of(6))),
        ("slice", err(a.slice(&[2.into(), Key::all()]))),
        ("slice", err(a.slice(&[Key::all()]))),
        ("reshape", err(a.reshape(&shape("7")))),
        ("compose_affine", err(a.compose_affine(&l("7:1")))),
        (
            "compose_affine",
            err(l("(3,2):(1,10)").compose_affine(&l("(2,2):(1,2)"))),
        ),
        ("broadcast_to", err(a.broadcast_to(&shape("(3,3)")))),
        (
            "broadcast_in_dim",
            err(a.broadcast_in_dim(&shape("(2,4)"), &[0, 1])),
        ),
        (
            "broadcast_in_dim",
            err(a.broadcast_in_dim(&shape("(2,3)"), &[1])),
        ),
        ("broadcast_right", err(a.broadcast_right(&shape("(4,3)")))),
        ("broadcast_right", err(a.broadcast_right(&shape("3")))),
        ("unsqueeze", err(a.unsqueeze(3))),
        ("squeeze", err(a.squeeze(0))),
        ("reverse", err(a.reverse(2))),
        ("permute", err(a.permute(&[1, 1]))),
        ("mode", err(a.mode(2))),
        ("modes", err(a.modes(1..3))),
        ("select", err(a.select(&[2]))),
        (
            "coalesce_by",
            err(a.coalesce_by(&IntTuple::from([1, 1, 1]))),
        ),
        ("rearrange", err(a.rearrange("a b -> a", &[]))),
        ("repeat", err(a.repeat("a b -> a b c", &[]))),
        ("rearrange_tree", err(a.rearrange_tree(&Tree::id(5), None))),
        ("compose", err(a.compose(&l("3:-1")))),
        ("complement", err(l("(2,2):(1,-2)").complement(8))),
        ("logical_divide", err(l("4:1").logical_divide(&l("2:-1")))),
        (
            "logical_product",
            err(l("(2,2):(1,-2)").logical_product(&l("2:1"))),
        ),
        (
            "blocked_product",
            err(l("(2,2):(1,-2)").blocked_product(&l("(2,2):(1,2)"))),
        ),
        (
            "raked_product",
            err(l("(2,2):(1,-2)").raked_product(&l("(2,2):(1,2)"))),
        ),
        ("left_inverse", err(l("(2,2):(1,1)").left_inverse())),
        ("right_inverse", err(l("(2,2):(1,-2)").right_inverse())),
        ("Layout::tv", err(Layout::tv(&l("(2,2):(1,-2)"), &a))),
        ("Layout::tv", err(Layout::tv(&a, &l("(2,2):(4,1)")))),
        ("with_shape", err(a.with_shape(&shape("7")))),
        (
            "with_shape",
            err(l("(3,2):(1,10)").with_shape(&shape("(2,3)"))),
        ),
        ("flat_coordinate", err(a.flat_coordinate(6))),
        ("flat_coordinate", err(l("(2,2):(4,1)").flat_coordinate(2))),
        ("flat_divide", err(l("4:1").flat_divide(&l("2:-1").into()))),
    ];
    for (op, e) in cases {
        assert_reported_as(op, e);
    }
}

#[test]
fn a_dtype_without_host_zeros_is_reported_by_the_constructor() {
    let e = err(Tensor::zeros_of(DType::BlockScaledI8F32, &s("2")));
    assert_reported_as("Tensor::zeros_of", e);
}
