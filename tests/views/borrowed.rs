//! `Tensor::view`: borrowed views give the owned views' layouts, offsets, values, errors
//! and gradients.

use strideweave::{Carrier, Key, Shape, Tensor, Tree};

fn shape(text: &str) -> Shape {
    text.parse().unwrap()
}

/// (layout, offset, values) of an owned tensor.
fn seen(t: &Tensor) -> (String, usize, Vec<f64>) {
    (
        t.layout().to_string(),
        t.offset(),
        t.to_vec::<f64>().unwrap(),
    )
}

#[test]
fn a_chain_of_borrowed_views_equals_the_chain_of_owned_views() {
    let t = Tensor::arange::<f64>(&shape("(4,6,5)"));
    let keys = [(1..4).into(), Key::slice(None, None, Some(2)), Key::all()];
    let every_other = Key::slice(Some(1), Some(11), Some(2));
    // The same steps on a `Tensor` and on a `TensorView` (the methods share their names).
    macro_rules! chain {
        ($start:expr) => {
            $start
                .reshape(&shape("(24,5)"))
                .unwrap()
                .permute(&[1, 0])
                .unwrap()
                .slice(&[Key::all(), every_other])
                .unwrap()
                .unsqueeze(0)
                .unwrap()
                .broadcast_to(&shape("(2,5,5)"))
                .unwrap()
                .rearrange("r a b -> b (r a)", &[])
                .unwrap()
        };
    }
    let owned = chain!(t);
    let borrowed = chain!(t.view());
    assert_eq!(borrowed.layout(), owned.layout());
    assert_eq!(borrowed.offset(), owned.offset());
    assert_eq!(seen(&borrowed.to_tensor()), seen(&owned));
    assert_eq!(
        borrowed.to_vec::<f64>().unwrap(),
        owned.to_vec::<f64>().unwrap()
    );
    assert!(Carrier::same(borrowed.carrier(), t.carrier()));
    // A slice that moves the offset, then one more step from there.
    let s = t.view().slice(&keys).unwrap();
    assert_eq!(s.offset(), t.slice(&keys).unwrap().offset());
    assert_eq!(s.offset(), 1);
    let r = s.rearrange_tree(&Tree::node([Tree::id(2), Tree::id(0), Tree::id(1)]), None);
    let o = t
        .slice(&keys)
        .unwrap()
        .rearrange_tree(&Tree::node([Tree::id(2), Tree::id(0), Tree::id(1)]), None);
    assert_eq!(seen(&r.unwrap().to_tensor()), seen(&o.unwrap()));
}

#[test]
fn borrowed_view_errors_are_the_owned_views_errors() {
    let t = Tensor::arange::<f32>(&shape("(2,3)"));
    let v = t.view();
    let pairs = [
        (
            v.permute(&[0, 0]).unwrap_err(),
            t.permute(&[0, 0]).unwrap_err(),
        ),
        (
            v.reshape(&shape("(4,2)")).unwrap_err(),
            t.reshape(&shape("(4,2)")).unwrap_err(),
        ),
        (
            v.broadcast_to(&shape("(2,4)")).unwrap_err(),
            t.broadcast_to(&shape("(2,4)")).unwrap_err(),
        ),
        (
            v.slice(&[Key::all(), Key::slice(None, None, Some(0))])
                .unwrap_err(),
            t.slice(&[Key::all(), Key::slice(None, None, Some(0))])
                .unwrap_err(),
        ),
        (v.squeeze(0).unwrap_err(), t.squeeze(0).unwrap_err()),
        (v.unsqueeze(5).unwrap_err(), t.unsqueeze(5).unwrap_err()),
        (
            v.rearrange("a b c -> c b a", &[]).unwrap_err(),
            t.rearrange("a b c -> c b a", &[]).unwrap_err(),
        ),
        (
            v.repeat("a b -> a b r", &[]).unwrap_err(),
            t.repeat("a b -> a b r", &[]).unwrap_err(),
        ),
    ];
    for (b, o) in pairs {
        assert_eq!(b.to_string(), o.to_string());
        assert_eq!(b.kind(), o.kind());
    }
    assert!(
        t.view()
            .broadcast_to(&shape("(2,4)"))
            .unwrap_err()
            .to_string()
            .starts_with("broadcast_to")
    );
}

#[test]
fn borrowed_views_of_a_tensor_in_autograd_record_its_gradient() {
    let w = Tensor::arange::<f64>(&shape("(3,4)"));
    w.set_requires_grad(true).unwrap();
    let y = w
        .view()
        .permute(&[1, 0])
        .unwrap()
        .slice(&[Key::slice(None, None, Some(2)), Key::all()])
        .unwrap()
        .broadcast_to(&shape("(2,3)"))
        .unwrap()
        .unsqueeze(0)
        .unwrap()
        .repeat("o a b -> o a b r", &[("r", 2)])
        .unwrap()
        .to_tensor();
    y.sum().unwrap().backward().unwrap();
    // Columns 0 and 2 of `w` are read, each element twice (the repeat).
    let g = w.grad().unwrap().to_vec_row_major::<f64>().unwrap();
    assert_eq!(
        g,
        [2.0, 0.0, 2.0, 0.0, 2.0, 0.0, 2.0, 0.0, 2.0, 0.0, 2.0, 0.0]
    );
}

#[test]
fn borrowed_views_of_a_block_scaled_tensor_keep_its_scales() {
    let q = Tensor::block_scaled(vec![2, -4, 6, 8], vec![0.5, 0.25], &shape("4"), 0, 2).unwrap();
    let v = q.view().unsqueeze(0).unwrap();
    let o = q.unsqueeze(0).unwrap();
    assert_eq!(v.layout(), o.layout());
    assert_eq!(v.to_vec::<f32>().unwrap(), o.to_vec::<f32>().unwrap());
    assert_eq!(v.to_vec::<f32>().unwrap(), [1.0, -2.0, 1.5, 2.0]);
    assert_eq!(v.to_tensor().representation().subtensors().len(), 2);
}
