//! `autograd::Function`: user-defined operations recorded like built-in ones. Their
//! gradients against the built-in operations they restate, through views of leaves;
//! `None` gradients; every check of the returned gradients naming the function; in-place
//! modification of an input or the output; a retained graph traversed twice.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use strideweave::autograd::{self, Function};
use strideweave::{ErrorKind, Key, Result, Tensor, is_grad_enabled, no_grad};

use crate::autograd::support::{assert_close, grad_vals, leaf, s, vals};

/// `x²`, its backward written out; counts its backward calls.
#[derive(Default)]
struct Square {
    calls: Arc<AtomicUsize>,
}

impl Function for Square {
    fn forward(&self, x: &[&Tensor]) -> Result<Tensor> {
        assert!(!is_grad_enabled(), "forward runs with recording off");
        x[0].mul(x[0])
    }
    fn backward(&self, x: &[&Tensor], _: &Tensor, c: &Tensor) -> Result<Vec<Option<Tensor>>> {
        assert!(!is_grad_enabled(), "backward runs with recording off");
        self.calls.fetch_add(1, Ordering::Relaxed);
        Ok(vec![Some(c.mul(&x[0].mul_scalar(2.0)?)?)])
    }
}

/// `a·b + c`.
struct MulAdd;

impl Function for MulAdd {
    fn forward(&self, x: &[&Tensor]) -> Result<Tensor> {
        x[0].mul(x[1])?.add(x[2])
    }
    fn backward(&self, x: &[&Tensor], _: &Tensor, c: &Tensor) -> Result<Vec<Option<Tensor>>> {
        Ok(vec![
            Some(c.mul(x[1])?),
            Some(c.mul(x[0])?),
            Some(c.clone()),
        ])
    }
    fn name(&self) -> &'static str {
        "muladd"
    }
}

/// `x³`, whose backward checks that the output it receives is the forward's.
struct Cube;

impl Function for Cube {
    fn forward(&self, x: &[&Tensor]) -> Result<Tensor> {
        x[0].mul(x[0])?.mul(x[0])
    }
    fn backward(&self, x: &[&Tensor], out: &Tensor, c: &Tensor) -> Result<Vec<Option<Tensor>>> {
        let expected = x[0].mul(x[0])?.mul(x[0])?;
        assert_eq!(out.to_vec::<f64>()?, expected.to_vec::<f64>()?);
        Ok(vec![Some(c.mul(&x[0].mul(x[0])?.mul_scalar(3.0)?)?)])
    }
}

/// Loss weights `1 + k/4` over `t`'s elements, so that each element's gradient differs.
fn weighted(t: &Tensor) -> Tensor {
    let w: Vec<f64> = (0..t.size()).map(|k| 1.0 + k as f64 / 4.0).collect();
    t.mul(&Tensor::from_vec(w, t.shape()).unwrap())
        .unwrap()
        .sum()
        .unwrap()
}

#[test]
fn gradients_of_user_functions_match_the_built_in_operations() {
    let (x, y) = (leaf("(2,3):(3,1)", 1), leaf("(2,3):(3,1)", 1));
    weighted(&Square::default().apply(&[&x]).unwrap())
        .backward()
        .unwrap();
    weighted(&y.mul(&y).unwrap()).backward().unwrap();
    assert_eq!(grad_vals(&x), grad_vals(&y));

    let ours = [
        leaf("(2,2):(1,2)", 0),
        leaf("(2,2):(2,1)", 0),
        leaf("4:1", 2),
    ];
    let theirs = [
        leaf("(2,2):(1,2)", 0),
        leaf("(2,2):(2,1)", 0),
        leaf("4:1", 2),
    ];
    let c_ours = ours[2].reshape(&s("(2,2)")).unwrap();
    let c_theirs = theirs[2].reshape(&s("(2,2)")).unwrap();
    let out = MulAdd.apply(&[&ours[0], &ours[1], &c_ours]).unwrap();
    assert_eq!(out.grad_op(), Some("muladd"));
    weighted(&out).backward().unwrap();
    let reference = theirs[0].mul(&theirs[1]).unwrap().add(&c_theirs).unwrap();
    assert_eq!(vals(&out), vals(&reference));
    weighted(&reference).backward().unwrap();
    for (a, b) in ours.iter().zip(&theirs) {
        assert_eq!(grad_vals(a), grad_vals(b));
    }
}

#[test]
fn inputs_may_be_views_of_leaves_and_the_gradient_flows_through_them() {
    let views: [fn(&Tensor) -> Tensor; 4] = [
        |x| x.permute(&[1, 0]).unwrap(),
        |x| {
            x.slice(&[Key::all(), Key::slice(Some(1), None, None)])
                .unwrap()
        },
        |x| x.reverse(1).unwrap().reverse(0).unwrap(),
        |x| {
            x.slice(&[Key::Int(0), Key::all()])
                .unwrap()
                .broadcast_in_dim(&s("(3,2)"), &[0])
                .unwrap()
        },
    ];
    for (k, view) in views.iter().enumerate() {
        let (x, y) = (leaf("(2,3):(1,2)", 0), leaf("(2,3):(1,2)", 0));
        let f = Cube.apply(&[&view(&x)]).unwrap();
        assert!(f.requires_grad() && !f.is_leaf());
        weighted(&f).backward().unwrap();
        let vy = view(&y);
        weighted(&vy.mul(&vy).unwrap().mul(&vy).unwrap())
            .backward()
            .unwrap();
        assert_close(&grad_vals(&x), &grad_vals(&y), 1e-12);
        assert!(
            grad_vals(&x).iter().any(|&g| g != 0.0),
            "view {k} passes a gradient"
        );
    }
    // The output composes with views and with another function.
    let x = leaf("(2,3):(1,2)", 0);
    let sq = Square::default();
    let out = Square::default()
        .apply(&[&sq.apply(&[&x]).unwrap().permute(&[1, 0]).unwrap()])
        .unwrap();
    weighted(&out).backward().unwrap();
    let v = vals(&x);
    let g = grad_vals(&x);
    // d/dx of w·x⁴ (w read through the transposed output) is 4·w·x³.
    let w_of = |i: usize| 1.0 + ((i % 2) * 3 + i / 2) as f64 / 4.0;
    let expected: Vec<f64> = (0..6).map(|i| 4.0 * w_of(i) * v[i].powi(3)).collect();
    assert_close(&g, &expected, 1e-12);
}

/// `x·scale[idx]`-like: inputs (x, an integer tensor, an unused float); gradients for the
/// first only.
struct Partial;

impl Function for Partial {
    fn forward(&self, x: &[&Tensor]) -> Result<Tensor> {
        x[0].mul_scalar(3.0)
    }
    fn backward(&self, _: &[&Tensor], _: &Tensor, c: &Tensor) -> Result<Vec<Option<Tensor>>> {
        Ok(vec![Some(c.mul_scalar(3.0)?), None, None])
    }
}

#[test]
fn none_gradients_leave_their_inputs_without_one() {
    let x = leaf("3:1", 0);
    let unused = leaf("3:1", 0);
    let ints = Tensor::arange::<i64>(&s("3"));
    Partial
        .apply(&[&x, &ints, &unused])
        .unwrap()
        .sum()
        .unwrap()
        .backward()
        .unwrap();
    assert_eq!(grad_vals(&x), [3.0, 3.0, 3.0]);
    assert!(unused.grad().is_none());
    // autograd::grad reports the input the traversal reached without a gradient as None.
    let x = leaf("3:1", 0);
    let y = Partial.apply(&[&x, &ints, &unused]).unwrap().sum().unwrap();
    let g = autograd::grad(&[&y], &[&x, &unused], &[None], false).unwrap();
    assert_eq!(vals(g[0].as_ref().unwrap()), [3.0, 3.0, 3.0]);
    assert!(g[1].is_none());
}

/// What `Bad`'s backward returns, given the cotangent.
type Returns = fn(&Tensor) -> Vec<Option<Tensor>>;

/// A function whose backward returns what it is told to.
struct Bad(Returns);

impl Function for Bad {
    fn forward(&self, x: &[&Tensor]) -> Result<Tensor> {
        x[0].mul_scalar(1.0)
    }
    fn backward(&self, _: &[&Tensor], _: &Tensor, c: &Tensor) -> Result<Vec<Option<Tensor>>> {
        Ok((self.0)(c))
    }
    fn name(&self) -> &'static str {
        "bad"
    }
}

#[test]
fn gradients_that_do_not_fit_are_refused_naming_the_function() {
    let cases: [(Returns, ErrorKind, &str); 5] = [
        (
            |c| vec![Some(c.clone()), None],
            ErrorKind::Value,
            "backward: the backward of `bad` returned 2 gradients for 1 inputs; return one per input, None where an input needs none",
        ),
        (
            |_| vec![],
            ErrorKind::Value,
            "backward: the backward of `bad` returned 0 gradients for 1 inputs",
        ),
        (
            |_| vec![Some(Tensor::zeros::<f64>(&s("(3,2)")))],
            ErrorKind::Value,
            "backward: the backward of `bad` returned a gradient of shape (3,2) for input 0, whose shape is (2,3)",
        ),
        (
            |_| vec![Some(Tensor::zeros::<f32>(&s("(2,3)")))],
            ErrorKind::Type,
            "backward: expected a f64 gradient for input 0 of `bad` (the input's dtype), found a f32 gradient",
        ),
        (
            |_| vec![Some(Tensor::zeros::<f64>(&s("6")))],
            ErrorKind::Value,
            "backward: the backward of `bad` returned a gradient of shape 6 for input 0",
        ),
    ];
    for (returns, kind, prefix) in cases {
        let x = leaf("(2,3):(1,2)", 0);
        x.mul_scalar(2.0)
            .unwrap()
            .sum()
            .unwrap()
            .backward()
            .unwrap();
        let before = grad_vals(&x);
        let y = Bad(returns).apply(&[&x]).unwrap();
        let err = y.sum().unwrap().backward().unwrap_err();
        assert_eq!(err.kind(), kind, "{err}");
        assert!(err.to_string().starts_with(prefix), "{err}");
        assert_eq!(grad_vals(&x), before, "no .grad changed");
    }
    // A gradient for an input that has none.
    struct ForInts;
    impl Function for ForInts {
        fn forward(&self, x: &[&Tensor]) -> Result<Tensor> {
            x[0].mul_scalar(1.0)
        }
        fn backward(&self, x: &[&Tensor], _: &Tensor, c: &Tensor) -> Result<Vec<Option<Tensor>>> {
            Ok(vec![Some(c.clone()), Some(x[1].clone())])
        }
    }
    let x = leaf("2:1", 0);
    let ints = Tensor::arange::<i64>(&s("2"));
    let err = ForInts
        .apply(&[&x, &ints])
        .unwrap()
        .sum()
        .unwrap()
        .backward()
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Runtime);
    assert!(
        err.to_string().starts_with("backward: the backward of `")
            && err.to_string().contains("ForInts` returned a gradient for input 1, a i64 tensor, which has no gradient; return None for it"),
        "{err}"
    );
    // An error of the user's own backward comes back as it is.
    struct Failing;
    impl Function for Failing {
        fn forward(&self, x: &[&Tensor]) -> Result<Tensor> {
            x[0].mul_scalar(1.0)
        }
        fn backward(&self, x: &[&Tensor], _: &Tensor, c: &Tensor) -> Result<Vec<Option<Tensor>>> {
            Ok(vec![Some(c.matmul(x[0])?)])
        }
    }
    let err = Failing
        .apply(&[&x])
        .unwrap()
        .sum()
        .unwrap()
        .backward()
        .unwrap_err();
    assert!(err.to_string().starts_with("matmul: "), "{err}");
    assert!(x.grad().is_none());
}

#[test]
fn modifying_an_input_or_the_output_in_place_makes_backward_fail() {
    let x = leaf("3:1", 0);
    let y = Square::default().apply(&[&x]).unwrap();
    x.set_ordinal(0, 5.0f64).unwrap();
    let err = y.sum().unwrap().backward().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Runtime);
    let msg = err.to_string();
    assert!(
        msg.starts_with("backward: input 0 of `")
            && msg.contains(
                "Square` — a leaf (f64 tensor, layout 3:1) — was modified in place after"
            ),
        "{msg}"
    );
    // The built-in operations give the same error.
    let z = leaf("3:1", 0);
    let w = z.mul(&z).unwrap();
    z.set_ordinal(0, 5.0f64).unwrap();
    let builtin = w.sum().unwrap().backward().unwrap_err();
    assert_eq!(builtin.kind(), ErrorKind::Runtime);
    assert!(
        builtin
            .to_string()
            .starts_with("backward: input 0 of `mul` — a leaf")
    );
    // The output too, which the backward receives (here the root of the backward, so
    // that no other operation saved it).
    let x = leaf("3:1", 0);
    let y = MulAdd.apply(&[&x, &x, &x]).unwrap();
    y.set_ordinal(1, 0.0f64).unwrap();
    let ones = Tensor::from_vec(vec![1.0f64; 3], &s("3")).unwrap();
    let err = y.backward_with(Some(&ones), false).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Runtime);
    assert!(
        err.to_string().starts_with(
            "backward_with: the output of `muladd` (f64 tensor, layout 3:1) was modified in place after `muladd` saved it: its carrier was at version 0 when saved and is at version 1 now"
        ),
        "{err}"
    );
    assert!(x.grad().is_none());
}

#[test]
fn a_retained_graph_runs_the_users_backward_again() {
    let f = Square::default();
    let calls = f.calls.clone();
    let x = leaf("(2,2):(2,1)", 0);
    let loss = f.apply(&[&x]).unwrap().sum().unwrap();
    loss.backward_with(None, true).unwrap();
    loss.backward_with(None, false).unwrap();
    assert_eq!(calls.load(Ordering::Relaxed), 2);
    let v = vals(&x);
    assert_eq!(grad_vals(&x), v.iter().map(|x| 4.0 * x).collect::<Vec<_>>());
    let err = loss.backward_with(None, false).unwrap_err();
    assert!(err.to_string().contains("already released"), "{err}");
}

#[test]
fn nothing_is_recorded_without_an_input_in_autograd_or_with_recording_off() {
    let x = Tensor::arange::<f64>(&s("3"));
    let y = Square::default().apply(&[&x]).unwrap();
    assert!(y.is_leaf() && !y.requires_grad());
    assert_eq!(vals(&y), [0.0, 1.0, 4.0]);
    let w = leaf("3:1", 0);
    let _g = no_grad();
    assert!(Square::default().apply(&[&w]).unwrap().is_leaf());
    // A forward that returns its input unchanged gives a result of its own when recording.
    drop(_g);
    struct Identity;
    impl Function for Identity {
        fn forward(&self, x: &[&Tensor]) -> Result<Tensor> {
            Ok(x[0].clone())
        }
        fn backward(&self, _: &[&Tensor], _: &Tensor, c: &Tensor) -> Result<Vec<Option<Tensor>>> {
            Ok(vec![Some(c.mul_scalar(2.0)?)])
        }
    }
    let r = Identity.apply(&[&w]).unwrap();
    assert!(w.is_leaf() && !r.is_leaf());
    assert!(r.grad_op().unwrap().ends_with("Identity"));
    r.sum().unwrap().backward().unwrap();
    assert_eq!(grad_vals(&w), [2.0, 2.0, 2.0]);
}
