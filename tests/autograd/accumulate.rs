//! Accumulation into an existing `.grad`: in place when no other handle reaches the
//! gradient's carrier, a new buffer otherwise, so a `.grad()` handle (or a view of it) taken
//! earlier never changes under its holder.

use strideweave::{Key, Tensor};

use crate::autograd::support::{grad_vals, leaf, vals};

/// `Σ 2·x` over a strided, reversed leaf view: the gradient is 2 at every element.
fn step(x: &Tensor) {
    x.reverse(0)
        .unwrap()
        .mul_scalar(2.0)
        .unwrap()
        .sum()
        .unwrap()
        .backward()
        .unwrap();
}

#[test]
fn accumulation_into_an_unshared_grad_is_in_place_with_the_same_values() {
    for layout in ["(3,2):(-2,1)", "(3,2):(1,0)", "((2,2),2):((1,5),2)"] {
        let x = leaf(layout, 4);
        step(&x);
        let first = grad_vals(&x);
        step(&x);
        step(&x);
        // Two writes into the first buffer's carrier (fresh carriers start at version 0).
        assert_eq!(x.grad().unwrap().carrier().version(), 2, "{layout}");
        let expected: Vec<f64> = first.iter().map(|g| 3.0 * g).collect();
        assert_eq!(grad_vals(&x), expected, "{layout}");
    }
}

#[test]
fn accumulation_leaves_an_earlier_grad_handle_unchanged() {
    let x = leaf("(3,2):(-2,1)", 4);
    step(&x);
    let held = x.grad().unwrap();
    let before = vals(&held);
    step(&x);
    assert_eq!(vals(&held), before);
    assert_eq!(held.carrier().version(), 0);
    let doubled: Vec<f64> = before.iter().map(|g| 2.0 * g).collect();
    assert_eq!(grad_vals(&x), doubled);
}

#[test]
fn accumulation_leaves_an_earlier_view_of_the_grad_unchanged() {
    let x = leaf("(3,2):(-2,1)", 4);
    step(&x);
    // Only a view of the gradient is kept: it shares the carrier, so no in-place write.
    let view = x
        .grad()
        .unwrap()
        .slice(&[Key::all(), Key::slice(Some(1), Some(2), None)])
        .unwrap();
    let before = vals(&view);
    step(&x);
    assert_eq!(vals(&view), before);
    let first = grad_vals(&x);
    step(&x);
    assert_eq!(vals(&view), before);
    assert_eq!(first.len(), 6);
}
