//! Contracts §6, the autograd surface (upstream `openspec/specs/autograd/spec.md`): one test
//! per statement, named after it, plus RT008 for backward.

use strideweave::{
    Carrier, DType, ErrorKind, Key, Tensor, autograd, is_grad_enabled, no_grad, set_grad_enabled,
};

use crate::autograd::support::{
    assert_close, compact, cotangent_like, grad_vals, l, leaf, s, vals,
};

#[test]
fn backward_with_takes_an_optional_gradient_and_a_retain_flag() {
    // `None` is the unit cotangent of a tensor of one element.
    let x = leaf("3:1", 0);
    let y = x
        .mul(&x)
        .unwrap()
        .sum_modes(&[0])
        .unwrap()
        .reshape(&s("1"))
        .unwrap();
    assert_eq!(y.shape(), &s("1"));
    assert_eq!(y.backward_with(None, false), Ok(()));
    assert_eq!(grad_vals(&x), [20.0, 22.0, 24.0]);
    // The same with an explicit cotangent of 2, of the rank-0 sum's layout `()`.
    let x2 = leaf("3:1", 0);
    x2.mul(&x2)
        .unwrap()
        .sum()
        .unwrap()
        .backward_with(Some(&Tensor::scalar(2.0f64)), false)
        .unwrap();
    assert_eq!(grad_vals(&x2), [40.0, 44.0, 48.0]);
}

#[test]
fn full_reductions_are_rank_zero_and_backward_takes_them() {
    let x = leaf("3:1", 0);
    let sum = x.mul(&x).unwrap().sum().unwrap();
    let mean = x.mean().unwrap();
    for t in [&sum, &mean] {
        assert_eq!(
            (t.rank(), t.shape(), t.layout()),
            (0, Tensor::scalar(0.0f64).shape(), &l("():()"))
        );
    }
    assert_eq!(sum.item::<f64>().unwrap(), 100.0 + 121.0 + 144.0);
    assert_eq!(mean.item::<f64>().unwrap(), 11.0);
    assert_eq!(sum.backward(), Ok(()));
    assert_eq!(grad_vals(&x), [20.0, 22.0, 24.0]);
    // Summing every mode is the same full reduction.
    assert_eq!(x.sum_modes(&[0]).unwrap().rank(), 0);
}

#[test]
fn backward_takes_any_tensor_of_one_element() {
    let x = leaf("(1,1):(1,1)", 0);
    for t in [
        x.clone(),                         // (1,1): two modes
        x.reshape(&s("((1))")).unwrap(),   // one nested mode
        x.reshape(&s("(1,1,1)")).unwrap(), // three modes
        x.reshape(&s("()")).unwrap(),      // rank 0
    ] {
        t.backward().unwrap();
    }
    assert_eq!(grad_vals(&x), [4.0]);
    let err = leaf("2:1", 0)
        .mul_scalar(1.0)
        .unwrap()
        .backward()
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert_eq!(
        err.to_string(),
        "backward: the implicit unit cotangent exists only for a tensor of one element; this tensor's shape 2 has 2 elements; pass a cotangent of layout 2:1 to backward_with"
    );
}

#[test]
fn backward_with_takes_the_unit_cotangent_for_any_tensor_of_one_element() {
    let x = leaf("(1,1):(1,1)", 0);
    for t in [
        x.clone(),                         // (1,1): two modes
        x.reshape(&s("((1))")).unwrap(),   // one nested mode
        x.reshape(&s("(1,1,1)")).unwrap(), // three modes
        x.sum().unwrap(),                  // rank 0
    ] {
        t.backward_with(None, false).unwrap();
    }
    assert_eq!(grad_vals(&x), [4.0]);
    // A rank-0 loss kept for a second backward needs no explicit cotangent.
    let w = leaf("3:1", 0);
    let loss = w.mul(&w).unwrap().sum().unwrap();
    loss.backward_with(None, true).unwrap();
    loss.backward_with(None, false).unwrap();
    assert_eq!(grad_vals(&w), [40.0, 44.0, 48.0]);
    assert!(loss.backward_with(None, false).is_err(), "released");
    // Any other shape is refused as by backward().
    let y = leaf("2:1", 0);
    let err = y
        .mul_scalar(1.0)
        .unwrap()
        .backward_with(None, false)
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert_eq!(
        err.to_string(),
        "backward_with: the implicit unit cotangent exists only for a tensor of one element; this tensor's shape 2 has 2 elements; pass a cotangent of layout 2:1 to backward_with"
    );
    assert!(y.grad().is_none(), "no .grad changed");
    // Shape 1 (an integer root) and (1) (a one-mode tuple) are the same shape.
    let y = leaf("1:1", 0);
    y.backward_with(None, false).unwrap();
    let z = leaf("(1):(1)", 0);
    z.backward_with(None, false).unwrap();
    assert_eq!((grad_vals(&y), grad_vals(&z)), (vec![1.0], vec![1.0]));
}

#[test]
fn gradient_participation_follows_the_logical_dtype() {
    for d in [DType::F32, DType::F64, DType::ComplexF32, DType::ComplexF64] {
        let t = Tensor::zeros_of(d, &s("2")).unwrap();
        t.set_requires_grad(true).unwrap();
        assert!(t.requires_grad(), "{d}");
    }
    for d in [DType::I32, DType::I64, DType::U8, DType::I8, DType::Bool] {
        let t = Tensor::zeros_of(d, &s("2")).unwrap();
        assert_eq!(
            t.set_requires_grad(true).unwrap_err().kind(),
            ErrorKind::Runtime,
            "{d}"
        );
        assert!(!t.requires_grad());
        t.set_requires_grad(false).unwrap();
        assert_eq!(
            t.backward_with(Some(&t), false).unwrap_err().kind(),
            ErrorKind::Runtime,
            "backward on {d}"
        );
        // Views of an integer tensor record nothing.
        assert!(t.permute(&[0]).unwrap().is_leaf());
    }
}

#[test]
fn recording_is_thread_local_and_restorable() {
    assert!(is_grad_enabled(), "on by default");
    let x = leaf("(2,2):(1,2)", 0);
    {
        let _outer = no_grad();
        assert!(!is_grad_enabled());
        {
            let _inner = no_grad();
            assert!(!is_grad_enabled());
        }
        assert!(
            !is_grad_enabled(),
            "the inner guard restores the outer state"
        );
        // Another thread has its own state, on by default.
        let other = std::thread::spawn(is_grad_enabled).join().unwrap();
        assert!(other);
        // Nothing records: views and arithmetic alike.
        assert!(x.permute(&[1, 0]).unwrap().is_leaf());
        assert!(x.add(&x).unwrap().is_leaf());
        assert!(x.sum().unwrap().is_leaf());
    }
    assert!(is_grad_enabled());
    assert!(!x.add(&x).unwrap().is_leaf());
    // set_grad_enabled switches it directly; a guard restores what it found, even on unwind.
    set_grad_enabled(false);
    {
        let _g = no_grad();
    }
    assert!(!is_grad_enabled());
    set_grad_enabled(true);
    let unwound = std::panic::catch_unwind(|| {
        let _g = no_grad();
        panic!("inside no_grad");
    });
    assert!(unwound.is_err());
    assert!(is_grad_enabled());
}

#[test]
fn operations_record_only_when_an_input_requires_grad() {
    let plain = compact(vec![1.0, 2.0], "2");
    assert!(plain.mul(&plain).unwrap().is_leaf());
    assert!(plain.permute(&[0]).unwrap().is_leaf());
    let x = leaf("2:1", 0);
    let y = plain.mul(&x).unwrap();
    assert_eq!(y.grad_op(), Some("mul"));
    y.sum().unwrap().backward().unwrap();
    assert_eq!(grad_vals(&x), [1.0, 2.0]);
    assert!(plain.grad().is_none(), "a constant input receives nothing");
}

#[test]
fn backward_visits_each_node_once_in_topological_order() {
    // A diamond: h = 2x feeds both branches; y = h·h + h. Contributions to h are summed
    // before h's node runs, once: dy/dh = 2h + 1, dy/dx = 2(2h + 1).
    let x = leaf("3:1", 0);
    let h = x.mul_scalar(2.0).unwrap();
    h.retain_grad();
    let y = h.mul(&h).unwrap().add(&h).unwrap().sum().unwrap();
    y.backward().unwrap();
    let hv: Vec<f64> = vals(&h);
    assert_close(
        &grad_vals(&h),
        &hv.iter().map(|h| 2.0 * h + 1.0).collect::<Vec<_>>(),
        0.0,
    );
    assert_close(
        &grad_vals(&x),
        &hv.iter().map(|h| 2.0 * (2.0 * h + 1.0)).collect::<Vec<_>>(),
        0.0,
    );
    // A tensor added to itself receives both contributions.
    let z = leaf("2:1", 0);
    z.add(&z).unwrap().sum().unwrap().backward().unwrap();
    assert_eq!(grad_vals(&z), [2.0, 2.0]);
    // A long chain is traversed iteratively.
    let w = leaf("4:1", 0);
    let mut t = w.clone();
    for _ in 0..5000 {
        t = t.reverse(0).unwrap();
    }
    t.sum().unwrap().backward().unwrap();
    assert_eq!(grad_vals(&w), [1.0; 4]);
    // A deep graph that is never traversed drops without recursion.
    let mut t = w.clone();
    for _ in 0..200_000 {
        t = t.add_scalar(0.0).unwrap();
    }
    drop(t);
}

#[test]
fn a_cotangent_must_address_the_target_exactly() {
    // Injective target: exactly its layout (offset and carrier are free).
    let x = leaf("(3,2):(2,1)", 0);
    let v = x.permute(&[1, 0]).unwrap(); // (2,3):(1,2), which happens to be compact
    let mut buf = vec![0.0; 8];
    buf[2..].copy_from_slice(&[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]);
    let offset = Tensor::new(Carrier::from_vec(buf), 2, l("(2,3):(1,2)")).unwrap();
    v.backward_with(Some(&offset), true).unwrap();
    assert_eq!(grad_vals(&x), [1.0, 3.0, 5.0, 2.0, 4.0, 6.0]);
    // Same shape, other layout: refused, .grad unchanged.
    let row_major = Tensor::from_vec_row_major(vec![1.0; 6], &s("(2,3)")).unwrap();
    let err = v.backward_with(Some(&row_major), true).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Value);
    assert!(
        err.to_string().contains("(2,3):(1,2)") && err.to_string().contains("(2,3):(3,1)"),
        "{err}"
    );
    assert_eq!(grad_vals(&x), [1.0, 3.0, 5.0, 2.0, 4.0, 6.0]);
    // Broadcast target: its shape, any injective layout (row-major here).
    let b = leaf("(2,1):(1,1)", 0).broadcast_to(&s("(2,3)")).unwrap();
    b.backward_with(Some(&row_major), true).unwrap();
}

#[test]
fn leaves_accumulate_detached_gradients() {
    let x = leaf("3:1", 0);
    let c = compact(vec![1.0, 2.0, 3.0], "3");
    x.backward_with(Some(&c), false).unwrap(); // a leaf root: its own cotangent
    c.fill(100.0).unwrap(); // mutating the cotangent afterwards changes nothing
    let g = x.grad().unwrap();
    assert_eq!(vals(&g), [1.0, 2.0, 3.0]);
    assert!(!Carrier::same(g.carrier(), c.carrier()));
    assert_eq!(g.carrier_class(), x.carrier_class());
    assert!(g.is_leaf() && !g.requires_grad(), "detached");
    // Accumulation across a retained graph traversed twice and a second forward graph.
    let y = x.mul_scalar(3.0).unwrap();
    let ones = compact(vec![1.0; 3], "3");
    y.backward_with(Some(&ones), true).unwrap();
    y.backward_with(Some(&ones), false).unwrap();
    x.mul_scalar(1.0)
        .unwrap()
        .backward_with(Some(&ones), false)
        .unwrap();
    assert_eq!(grad_vals(&x), [8.0, 9.0, 10.0]);
    // The earlier gradient handle is a snapshot: accumulation made a fresh tensor.
    assert_eq!(vals(&g), [1.0, 2.0, 3.0]);
    x.zero_grad();
    assert!(x.grad().is_none());
}

#[test]
fn non_leaves_retain_gradients_only_on_request() {
    let x = leaf("2:1", 0);
    let a = x.mul_scalar(2.0).unwrap();
    let b = a.mul_scalar(3.0).unwrap();
    let loss = b.sum().unwrap();
    b.retain_grad();
    assert!(b.retains_grad() && !a.retains_grad());
    loss.backward().unwrap();
    assert_eq!(grad_vals(&b), [1.0, 1.0]);
    assert!(a.grad().is_none() && loss.grad().is_none());
    assert_eq!(grad_vals(&x), [6.0, 6.0]);
}

#[test]
fn backward_releases_the_graph_unless_retained() {
    let x = leaf("2:1", 0);
    let shared = x.mul_scalar(2.0).unwrap();
    let first = shared.sum().unwrap();
    let second = shared.mean().unwrap();
    first
        .backward_with(Some(&Tensor::scalar(1.0f64)), true)
        .unwrap();
    first.backward().unwrap();
    assert_eq!(grad_vals(&x), [4.0, 4.0]);
    // Released: the former result is still not a leaf, and traversing it again — or the
    // shared subgraph from another root — is a RuntimeError naming retain_graph=true.
    assert!(!first.is_leaf());
    for root in [&first, &second] {
        let err = root.backward().unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Runtime);
        assert!(err.to_string().contains("retain_graph=true"), "{err}");
    }
    assert_eq!(grad_vals(&x), [4.0, 4.0], "failures change nothing");
}

#[test]
fn a_changed_saved_version_fails_before_any_grad_changes() {
    // Two leaves; only one is mutated; neither .grad changes.
    let a = leaf("2:1", 0);
    let b = leaf("2:1", 0);
    let y = a.mul(&b).unwrap().sum().unwrap();
    b.set_ordinal(0, 1.0).unwrap();
    let err = y.backward().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Runtime);
    let msg = err.to_string();
    assert!(msg.contains("`mul`") && msg.contains("input 1"), "{msg}");
    assert!(
        msg.contains("version 0") && msg.contains("version 1"),
        "{msg}"
    );
    assert!(a.grad().is_none() && b.grad().is_none());
    // Through a view of the source, too.
    let x = leaf("(2,2):(1,2)", 0);
    let z = x.slice(&[Key::all(), 0.into()]).unwrap();
    let loss = z.mul(&z).unwrap().sum().unwrap();
    x.slice(&[Key::all(), 1.into()]).unwrap().fill(0.0).unwrap();
    assert_eq!(loss.backward().unwrap_err().kind(), ErrorKind::Runtime);
    // The order forward → backward → mutate is fine; the old graph is then stale.
    let p = leaf("2:1", 0);
    let l1 = p.mul(&p).unwrap().sum().unwrap();
    let l2 = p.sum().unwrap();
    l1.backward().unwrap();
    {
        let _g = no_grad(); // an unrecorded write into a leaf that requires grad
        p.copy_from(&compact(vec![0.0, 0.0], "2")).unwrap();
    }
    assert_eq!(grad_vals(&p), [20.0, 22.0]);
    assert_eq!(l2.backward().unwrap_err().kind(), ErrorKind::Runtime);
}

#[test]
fn functional_grad_leaves_grad_untouched() {
    let a = leaf("2:1", 0);
    let b = leaf("2:1", 2);
    let h = a.mul(&b).unwrap();
    let y = h.add(&h).unwrap().sum().unwrap();
    let unrelated = leaf("3:1", 0);
    let g = autograd::grad(&[&y], &[&a, &b, &unrelated, &h], &[None], true).unwrap();
    assert_eq!(vals(g[0].as_ref().unwrap()), [24.0, 26.0]); // 2b
    assert_eq!(vals(g[1].as_ref().unwrap()), [20.0, 22.0]); // 2a
    assert!(g[2].is_none(), "unreachable input");
    assert_eq!(vals(g[3].as_ref().unwrap()), [2.0, 2.0], "a non-leaf input");
    assert!(a.grad().is_none() && b.grad().is_none() && h.grad().is_none());
    // The same as a later backward accumulates.
    y.backward().unwrap();
    assert_eq!(grad_vals(&a), [24.0, 26.0]);
    assert_eq!(grad_vals(&b), [20.0, 22.0]);
    // Released now: grad fails like backward.
    let err = autograd::grad(&[&y], &[&a], &[None], false).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Runtime);
    // Argument errors come first.
    let x = leaf("2:1", 0);
    let s2 = x.sum().unwrap();
    let ints = Tensor::zeros::<i32>(&s("2"));
    // A tensor without gradients is the same mistake as in set_requires_grad and backward.
    let err = autograd::grad(&[&s2], &[&ints], &[None], true).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Runtime);
    assert_eq!(
        err.to_string(),
        "autograd::grad: input 0 is a i32 tensor, which has no gradient; only floating and complex tensors do"
    );
    assert_eq!(
        autograd::grad(&[&s2], &[&x], &[], true).unwrap_err().kind(),
        ErrorKind::Value
    );
    let wrong = Tensor::from_vec(vec![1.0f32], &s("1")).unwrap();
    assert_eq!(
        autograd::grad(&[&s2], &[&x], &[Some(&wrong)], true)
            .unwrap_err()
            .kind(),
        ErrorKind::Type
    );
    // Several outputs: contributions add up.
    let g = autograd::grad(
        &[&s2, &x.mul_scalar(3.0).unwrap().sum().unwrap()],
        &[&x],
        &[None, None],
        false,
    )
    .unwrap();
    assert_eq!(vals(g[0].as_ref().unwrap()), [4.0, 4.0]);
    assert!(x.grad().is_none());
}

#[test]
fn arithmetic_records_its_backward_rules() {
    // A loss built only from views of one parameter carrier.
    let p = leaf("6:1", 0); // 10..16
    let w = p.reshape(&s("(2,3)")).unwrap(); // a 2×3 matrix
    let bias = p.slice(&[Key::slice(Some(4), Some(6), None)]).unwrap();
    let xs = compact(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0], "(3,2)");
    let out = w.matmul(&xs).unwrap(); // (2,2)
    let b = bias
        .unsqueeze(1)
        .unwrap()
        .broadcast_to(&s("(2,2)"))
        .unwrap();
    let r = out
        .add(&b)
        .unwrap()
        .sub(&compact(vec![1.0; 4], "(2,2)"))
        .unwrap();
    let loss = r.mul(&r).unwrap().mean().unwrap();
    for t in [&w, &bias, &out, &b, &r, &loss] {
        assert!(t.requires_grad() && !t.is_leaf(), "{t:?}");
    }
    loss.backward().unwrap();
    // Reference by hand: dL/dr = r/2; dL/dout = r/2; dL/dbias_i = Σ_j r_ij/2;
    // dL/dW = (r/2) · xsᵀ.
    let rv = vals(&r); // released graph, values still readable
    let d: Vec<f64> = rv.iter().map(|v| v / 2.0).collect();
    let xv = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]; // xs[k, j] = xv[k + 3j]
    let mut expected = vec![0.0; 6];
    for i in 0..2 {
        for k in 0..3 {
            expected[i + 2 * k] = (0..2).map(|j| d[i + 2 * j] * xv[k + 3 * j]).sum();
        }
    }
    expected[4] += d[0] + d[2];
    expected[5] += d[1] + d[3];
    assert_close(&grad_vals(&p), &expected, 1e-12);
}

#[test]
fn backward_requires_a_one_subtensor_tensor() {
    let t = Tensor::block_scaled(
        (0..8).collect(),
        vec![1.0, 0.5, 2.0, 0.25],
        &s("(4,2)"),
        0,
        2,
    )
    .unwrap();
    assert_eq!(
        t.set_requires_grad(true).unwrap_err().kind(),
        ErrorKind::NotImplemented
    );
    let c = compact(vec![1.0; 8], "(4,2)");
    assert_eq!(
        t.backward_with(Some(&c), false).unwrap_err().kind(),
        ErrorKind::NotImplemented
    );
    assert_eq!(
        autograd::grad(&[&t], &[], &[Some(&c)], false)
            .unwrap_err()
            .kind(),
        ErrorKind::NotImplemented
    );
    // Views of it never record.
    assert!(t.permute(&[1, 0]).unwrap().is_leaf());
    assert!(t.grad().is_none());
}

#[test]
fn cotangent_leaves_unread_holes() {
    // A cotangent with holes (NaN there) is read only through its layout.
    let x = leaf("(2,2):(1,4)", 0);
    let v = x.permute(&[1, 0]).unwrap();
    v.backward_with(Some(&cotangent_like(&v, |i| i as f64)), false)
        .unwrap();
    assert_eq!(grad_vals(&x), [0.0, 2.0, 1.0, 3.0]);
    assert!(vals(&x.grad().unwrap()).iter().all(|v| v.is_finite()));
}

#[test]
fn view_chains_are_crossed_in_one_step_only_when_no_intermediate_is_needed() {
    // The traversal fuses a chain of views into one scatter onto the chain's first tensor
    // unless an intermediate has another consumer, is retained, requested or a root. Every
    // variant must give the same gradients.
    let run = |variant: usize| -> (Vec<f64>, Option<Vec<f64>>) {
        let x = leaf("(2,3):(1,2)", 0);
        let a = x.permute(&[1, 0]).unwrap(); // (3,2)
        let b = a.reverse(0).unwrap();
        let c = b
            .slice(&[Key::slice(Some(1), None, None), Key::all()])
            .unwrap();
        let d = c.unsqueeze(0).unwrap().broadcast_to(&s("(2,2,2)")).unwrap();
        let w = compact((1..=8).map(f64::from).collect(), "(2,2,2)");
        let mut loss = d.mul(&w).unwrap().sum().unwrap();
        match variant {
            1 => {
                loss = loss
                    .add(&a.mul_scalar(10.0).unwrap().sum().unwrap())
                    .unwrap()
            }
            2 => b.retain_grad(),
            _ => {}
        }
        if variant == 3 {
            let g = autograd::grad(&[&loss], &[&x, &b], &[None], false).unwrap();
            return (vals(g[0].as_ref().unwrap()), g[1].as_ref().map(vals));
        }
        loss.backward().unwrap();
        (grad_vals(&x), b.grad().map(|g| vals(&g)))
    };
    // By hand: d[(i,(j,k))] = c[j,k] = b[j+1, k] = a[1-j, k] = x[k, 1-j] (a = xᵀ reversed
    // along its first mode, after dropping row 0 of b). Weights w[i + 2j + 4k] = 1 + ….
    let mut expected = vec![0.0; 6];
    for i in 0..2 {
        for j in 0..2 {
            for k in 0..2 {
                expected[k + 2 * (1 - j)] += (1 + i + 2 * j + 4 * k) as f64;
            }
        }
    }
    let (plain, none) = run(0);
    assert_eq!(plain, expected);
    assert!(none.is_none());
    let (shared, _) = run(1);
    assert_eq!(
        shared,
        expected.iter().map(|v| v + 10.0).collect::<Vec<_>>()
    );
    let (retained, gb) = run(2);
    assert_eq!(retained, expected);
    let (requested, gb3) = run(3);
    assert_eq!(requested, expected);
    assert_eq!(gb, gb3, "the retained and the requested intermediate agree");
    // b = a reversed: row 0 of b is never read, rows 1–2 carry the summed weights.
    let gb = gb.unwrap();
    assert_eq!(gb[0], 0.0);
    assert_eq!(gb.iter().sum::<f64>(), expected.iter().sum::<f64>());
}
