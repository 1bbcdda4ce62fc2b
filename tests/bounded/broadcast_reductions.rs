//! Reductions over broadcast modes (issue 27 item 4): a reduced stride-0 mode is read once,
//! and the partial takes the repeat `n` by one rule per reduction (sum `· n`, mean the sum
//! over the count, max/min the element, prod `^n` by binary exponentiation, logsumexp
//! `+ ln n`, a count `· n`, a first index unchanged). So a 2^40-element broadcast reduces
//! in microseconds (a walk would take hours), and small broadcasts give the naive values:
//! integers exactly, floats by the rule.

use strideweave::{Complex32, Reduction, Tensor};

/// `v` as a (1,1) tensor broadcast to (2^20, 2^20): 2^40 elements.
fn huge<T: strideweave::Element>(v: T) -> Tensor {
    Tensor::from_vec(vec![v], &"(1,1)".parse().unwrap())
        .unwrap()
        .broadcast_to(&"(1048576,1048576)".parse().unwrap())
        .unwrap()
}

const N: f64 = 1099511627776.0; // 2^40

#[test]
fn every_reduction_of_a_2_40_broadcast_returns_at_once() {
    let x = huge(1.5f32);
    assert_eq!(x.sum().unwrap().item::<f32>().unwrap(), 1.5 * N as f32);
    assert_eq!(x.mean().unwrap().item::<f32>().unwrap(), 1.5);
    let r = |t: &Tensor, red| t.reduce("a b ->", red, &[]).unwrap();
    assert_eq!(r(&x, Reduction::Max).item::<f32>().unwrap(), 1.5);
    assert_eq!(r(&x, Reduction::Min).item::<f32>().unwrap(), 1.5);
    assert_eq!(r(&x, Reduction::Prod).item::<f32>().unwrap(), f32::INFINITY);
    assert_eq!(
        r(&huge(1.0f64), Reduction::Prod).item::<f64>().unwrap(),
        1.0
    );
    assert_eq!(
        r(&huge(-1.0f64), Reduction::Prod).item::<f64>().unwrap(),
        1.0
    );
    let lse = r(&huge(0.0f64), Reduction::LogSumExp)
        .item::<f64>()
        .unwrap();
    assert_eq!(lse, N.ln());
    // One mode of two, by pattern and by whole modes: 2^20 outputs of 2^20 repeats each
    // would still walk 2^40; the broadcast mode is read once.
    let row = Tensor::from_vec(vec![1.0f64, 2.0, 3.0, 4.0], &"(1,4)".parse().unwrap())
        .unwrap()
        .broadcast_to(&"(274877906944,4)".parse().unwrap())
        .unwrap();
    let by_mode = row.sum_modes(&[0]).unwrap().to_vec::<f64>().unwrap();
    assert_eq!(by_mode, [1.0, 2.0, 3.0, 4.0].map(|v| v * N / 4.0));
    let by_pattern = row.reduce("a b -> b", Reduction::Mean, &[]).unwrap();
    assert_eq!(by_pattern.to_vec::<f64>().unwrap(), [1.0, 2.0, 3.0, 4.0]);
    let split = row
        .reduce("(a2 a) b -> b", Reduction::Max, &[("a2", 4)])
        .unwrap();
    assert_eq!(split.to_vec::<f64>().unwrap(), [1.0, 2.0, 3.0, 4.0]);
    assert_eq!(
        row.logsumexp(0).unwrap().to_vec::<f64>().unwrap()[0],
        1.0 + (N / 4.0).ln()
    );
    assert_eq!(row.argmax(0).unwrap().to_vec::<i64>().unwrap(), [0; 4]);
    assert_eq!(row.argmin(0).unwrap().to_vec::<i64>().unwrap(), [0; 4]);
    // Integers wrap exactly: 3 · 2^40 ≡ 0 (mod 2^32); 3^(2^40) ≡ 1 (mod 2^8).
    assert_eq!(huge(3i32).sum().unwrap().item::<i32>().unwrap(), 0);
    assert_eq!(huge(3i64).sum().unwrap().item::<i64>().unwrap(), 3 << 40);
    assert_eq!(r(&huge(3i8), Reduction::Prod).item::<i8>().unwrap(), 1);
    assert_eq!(r(&huge(7u8), Reduction::Max).item::<u8>().unwrap(), 7);
    // Bools: any, all; a count multiplies.
    assert!(r(&huge(true), Reduction::Min).item::<bool>().unwrap());
    assert!(!r(&huge(false), Reduction::Max).item::<bool>().unwrap());
    assert_eq!(
        huge(2i8).count_nonzero().unwrap().item::<i64>().unwrap(),
        1 << 40
    );
    assert_eq!(
        huge(0.0f32).count_nonzero().unwrap().item::<i64>().unwrap(),
        0
    );
    // Complex: both parts scale.
    let z = huge(Complex32::new(0.5, -2.0)).sum().unwrap();
    assert_eq!(
        z.item::<Complex32>().unwrap(),
        Complex32::new(0.5 * N as f32, -2.0 * N as f32)
    );
}

#[test]
fn sum_and_mean_of_a_2_40_broadcast_backward_into_the_compact_source_at_once() {
    let src = Tensor::from_vec(vec![2.0f64], &"(1,1)".parse().unwrap()).unwrap();
    src.set_requires_grad(true).unwrap();
    let b = src
        .broadcast_to(&"(1048576,1048576)".parse().unwrap())
        .unwrap();
    b.sum().unwrap().backward().unwrap();
    let g = src.grad().unwrap();
    assert_eq!((g.size(), g.to_vec::<f64>().unwrap()), (1, vec![N]));
    src.zero_grad();
    let b = src
        .broadcast_to(&"(1048576,1048576)".parse().unwrap())
        .unwrap();
    b.mean().unwrap().backward().unwrap();
    assert_eq!(src.grad().unwrap().to_vec::<f64>().unwrap(), [1.0]);
    // Through a chain of views (permute, then broadcast): one placement, not walked.
    let (row, v) = permuted_broadcast([1.0, 2.0]);
    v.sum().unwrap().backward().unwrap();
    let g = row.grad().unwrap().to_vec::<f32>().unwrap();
    assert_eq!(g, [(N / 2.0) as f32; 2]);
}

/// A (2,1) source requiring gradients, and the view of it permuted to (1,2) then broadcast
/// to 2^39 rows: a chain of two views.
fn permuted_broadcast(values: [f32; 2]) -> (Tensor, Tensor) {
    let src = Tensor::from_vec(values.to_vec(), &"(2,1)".parse().unwrap()).unwrap();
    src.set_requires_grad(true).unwrap();
    let v = src
        .permute(&[1, 0])
        .unwrap()
        .broadcast_to(&"(549755813888,2)".parse().unwrap())
        .unwrap();
    (src, v)
}

/// `src`'s gradient after `(reduce(src broadcast along a new first mode to n rows, "a b ->
/// b", red) · w).sum()`: a non-splat cotangent `w` per output.
fn broadcast_grad(src: &[f64], rows: &str, red: Reduction, w: &[f64]) -> Vec<f64> {
    let shape = format!("(1,{})", src.len());
    let x = Tensor::from_vec(src.to_vec(), &shape.parse().unwrap()).unwrap();
    x.set_requires_grad(true).unwrap();
    let target = format!("({rows},{})", src.len());
    let b = x.broadcast_to(&target.parse().unwrap()).unwrap();
    let r = b.reduce("a b -> b", red, &[]).unwrap();
    let w = Tensor::from_vec(w.to_vec(), &src.len().to_string().parse().unwrap()).unwrap();
    r.mul(&w).unwrap().sum().unwrap().backward().unwrap();
    x.grad().unwrap().to_vec::<f64>().unwrap()
}

#[test]
fn every_reduction_of_a_2_40_broadcast_backward_into_its_source_at_once() {
    // 2^39 rows of (1, −1), the cotangent (3, 5) per output: each source value's gradient
    // is the sum over its copies, in closed form.
    let n = N / 2.0;
    let (src, w) = ([1.0, -1.0], [3.0, 5.0]);
    let g = |red| broadcast_grad(&src, "549755813888", red, &w);
    assert_eq!(g(Reduction::Sum), [3.0 * n, 5.0 * n]);
    assert_eq!(g(Reduction::Mean), [3.0, 5.0]);
    // The first copy takes the whole cotangent; the others none.
    assert_eq!(g(Reduction::Max), [3.0, 5.0]);
    assert_eq!(g(Reduction::Min), [3.0, 5.0]);
    // d(v^n)/dv = n·v^(n−1): (−1)^(n−1) = −1 for an even n.
    assert_eq!(g(Reduction::Prod), [3.0 * n, -5.0 * n]);
    // logsumexp = v + ln n: slope 1.
    assert_eq!(g(Reduction::LogSumExp), [3.0, 5.0]);
    // Through a chain of views (permute, then broadcast), over a split pattern.
    let (col, v) = permuted_broadcast([4.0, -2.0]);
    let m = v
        .reduce("(a2 a) b -> b", Reduction::Max, &[("a2", 4)])
        .unwrap();
    assert_eq!(m.to_vec::<f32>().unwrap(), [4.0, -2.0]);
    let w = Tensor::from_vec(vec![3.0f32, 5.0], &"2".parse().unwrap()).unwrap();
    m.mul(&w).unwrap().sum().unwrap().backward().unwrap();
    assert_eq!(col.grad().unwrap().to_vec::<f32>().unwrap(), [3.0, 5.0]);
}

#[test]
fn a_kept_broadcast_gradient_is_its_slots_sum_after_any_reduction() {
    // A broadcast's own gradient holds, at each coordinate, the sum over the coordinates
    // that share its storage slot: its source's gradient, repeated.
    for red in [
        Reduction::Max,
        Reduction::Sum,
        Reduction::Prod,
        Reduction::LogSumExp,
    ] {
        let x = Tensor::from_vec(vec![0.5f64, -1.5], &"(1,2)".parse().unwrap()).unwrap();
        x.set_requires_grad(true).unwrap();
        let b = x.broadcast_to(&"(3,2)".parse().unwrap()).unwrap();
        b.retain_grad();
        let r = b.reduce("a b -> b", red, &[]).unwrap();
        let w = Tensor::from_vec(vec![3.0f64, 5.0], &"2".parse().unwrap()).unwrap();
        r.mul(&w).unwrap().sum().unwrap().backward().unwrap();
        let g = x.grad().unwrap().to_vec::<f64>().unwrap();
        let kept = b.grad().unwrap().to_vec::<f64>().unwrap();
        assert_eq!(kept, [g[0], g[0], g[0], g[1], g[1], g[1]], "{red}");
    }
}

#[test]
fn reductions_of_small_broadcasts_backward_as_the_materialized_copies_do() {
    // Six rows of (0.5, −1.5, 0): every value below is exact, so the closed forms equal
    // the gradients the materialized six copies give term by term.
    let (src, w) = ([0.5, -1.5, 0.0], [3.0, 5.0, 7.0]);
    for red in crate::REDUCTIONS {
        let view = broadcast_grad(&src, "6", red, &w);
        let x = Tensor::from_vec(src.to_vec(), &"(1,3)".parse().unwrap()).unwrap();
        x.set_requires_grad(true).unwrap();
        let b = x.broadcast_to(&"(6,3)".parse().unwrap()).unwrap();
        let copies = b.materialize().unwrap();
        let r = copies.reduce("a b -> b", red, &[]).unwrap();
        let wt = Tensor::from_vec(w.to_vec(), &"3".parse().unwrap()).unwrap();
        r.mul(&wt).unwrap().sum().unwrap().backward().unwrap();
        let naive = x.grad().unwrap().to_vec::<f64>().unwrap();
        let close = view
            .iter()
            .zip(&naive)
            .all(|(a, b)| (a - b).abs() <= 1e-12 * b.abs().max(1.0));
        assert!(close, "{red}: {view:?} vs {naive:?}");
    }
    // Max: the first copy's; prod: n·v^(n−1) per source value, zero for a repeated zero.
    assert_eq!(broadcast_grad(&src, "6", Reduction::Max, &w), w);
    assert_eq!(
        broadcast_grad(&src, "6", Reduction::Prod, &w),
        [
            3.0 * 6.0 * 0.5f64.powi(5),
            5.0 * 6.0 * (-1.5f64).powi(5),
            0.0
        ]
    );
}

/// The materialized (naive) value of `f` on `b` and its value on the broadcast view.
fn both(b: &Tensor, f: impl Fn(&Tensor) -> Tensor) -> (Tensor, Tensor) {
    (f(&b.materialize().unwrap()), f(b))
}

#[test]
fn reductions_of_small_broadcasts_match_the_naive_loop_integers_exactly() {
    // (3,1,2) → (3,5,2), and a nested broadcast mode ((1,4),3) → ((5,4),3) read permuted.
    let a = Tensor::from_vec(
        (1..=6i32).map(|v| v * 37 - 90).collect(),
        &"(3,1,2)".parse().unwrap(),
    )
    .unwrap()
    .broadcast_to(&"(3,5,2)".parse().unwrap())
    .unwrap();
    let nested = Tensor::from_vec(
        (1..=12i32).map(|v| v * 3 - 20).collect(),
        &"((1,4),3)".parse().unwrap(),
    )
    .unwrap()
    .broadcast_to(&"((5,4),3)".parse().unwrap())
    .unwrap()
    .permute(&[1, 0])
    .unwrap();
    let cases = [
        (
            a,
            &["a b c ->", "a b c -> a c", "a b c -> b", "a b c -> c a"][..],
        ),
        (nested, &["a b ->", "a b -> a", "a b -> b"][..]),
    ];
    for (t, patterns) in cases {
        for red in [
            Reduction::Sum,
            Reduction::Prod,
            Reduction::Max,
            Reduction::Min,
        ] {
            for p in patterns {
                let (naive, got) = both(&t, |x| x.reduce(p, red, &[]).unwrap());
                assert_eq!(
                    got.to_vec::<i32>().unwrap(),
                    naive.to_vec::<i32>().unwrap(),
                    "{red} {p}"
                );
            }
        }
        let (naive, got) = both(&t, |x| x.count_nonzero().unwrap());
        assert_eq!(got.item::<i64>().unwrap(), naive.item::<i64>().unwrap());
        for dim in 0..t.rank() {
            let (naive, got) = both(&t, |x| x.argmax(dim).unwrap());
            assert_eq!(got.to_vec::<i64>().unwrap(), naive.to_vec::<i64>().unwrap());
            let (naive, got) = both(&t, |x| x.argmin(dim).unwrap());
            assert_eq!(got.to_vec::<i64>().unwrap(), naive.to_vec::<i64>().unwrap());
        }
    }
    // i8 wraps: the naive 5-fold product and sum equal the rule's `^5` and `· 5`.
    let w = Tensor::from_vec(vec![100i8, -77], &"(2,1)".parse().unwrap())
        .unwrap()
        .broadcast_to(&"(2,5)".parse().unwrap())
        .unwrap();
    for red in [Reduction::Sum, Reduction::Prod] {
        let (naive, got) = both(&w, |x| x.reduce("a b -> a", red, &[]).unwrap());
        assert_eq!(
            got.to_vec::<i8>().unwrap(),
            naive.to_vec::<i8>().unwrap(),
            "{red}"
        );
    }
}

#[test]
fn float_reductions_of_small_broadcasts_follow_the_repeat_rule() {
    // 0.1 repeated 10 times: the naive loop adds ten times (0.9999999), the rule
    // multiplies once (1.0).
    let x = Tensor::from_vec(vec![0.1f32, 0.7], &"(1,2)".parse().unwrap())
        .unwrap()
        .broadcast_to(&"(10,2)".parse().unwrap())
        .unwrap();
    let s = x.sum_modes(&[0]).unwrap().to_vec::<f32>().unwrap();
    assert_eq!(s, [0.1f32 * 10.0, 0.7f32 * 10.0]);
    let naive: f32 = (0..10).map(|_| 0.1f32).sum();
    assert_ne!(naive, s[0], "the departure this rule makes");
    assert!((naive - s[0]).abs() <= 1e-6);
    // Whole tensor: the distinct terms in ordinal order, then `· 10` once.
    assert_eq!(
        x.sum().unwrap().item::<f32>().unwrap(),
        (0.1f32 + 0.7) * 10.0
    );
    assert_eq!(
        x.mean().unwrap().item::<f32>().unwrap(),
        (0.1f32 + 0.7) * 10.0 / 20.0
    );
    // Prod: binary exponentiation of the partial, x^10 = (x^2)·(x^8).
    let p = x
        .reduce("a b -> b", Reduction::Prod, &[])
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    let pow10 = |v: f32| {
        let (x2, x4) = (v * v, v * v * (v * v));
        x2 * (x4 * x4)
    };
    assert_eq!(p, [pow10(0.1), pow10(0.7)]);
    // Max, min and a first index are the naive ones, NaN included.
    let m = Tensor::from_vec(vec![f64::NAN, 2.0, -0.0, 0.0], &"(1,4)".parse().unwrap())
        .unwrap()
        .broadcast_to(&"(3,4)".parse().unwrap())
        .unwrap();
    for red in [Reduction::Max, Reduction::Min] {
        let (naive, got) = both(&m, |t| t.reduce("a b -> b", red, &[]).unwrap());
        let bits = |t: Tensor| {
            t.to_vec::<f64>()
                .unwrap()
                .iter()
                .map(|v| v.to_bits())
                .collect::<Vec<_>>()
        };
        assert_eq!(bits(got), bits(naive), "{red}");
    }
    // logsumexp: the partial plus ln(n), in f64 for f32.
    let l = x.logsumexp(0).unwrap().to_vec::<f32>().unwrap();
    let ln10 = 10f64.ln() as f32;
    assert_eq!(l, [0.1f32 + ln10, 0.7f32 + ln10]);
    // A splat cotangent through the broadcast: `1 · 10` per source element.
    let src = Tensor::from_vec(vec![0.1f32, 0.7], &"(1,2)".parse().unwrap()).unwrap();
    src.set_requires_grad(true).unwrap();
    let v = src.broadcast_to(&"(10,2)".parse().unwrap()).unwrap();
    v.sum().unwrap().backward().unwrap();
    assert_eq!(src.grad().unwrap().to_vec::<f32>().unwrap(), [10.0, 10.0]);
}
