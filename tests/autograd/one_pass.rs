//! Issue 10 item 4: the backward of a chain of views writes the source's gradient in one
//! strided pass through the chain's composed placement. The gradients through random chains
//! of up to 10 views (permutes, reversals, slices — of reversed views too, so with negative
//! strides —, reshapes, broadcasts, unsqueeze/squeeze, as_strided, tree rearrangements) on
//! random leaves (nested modes, signed and zero strides, offsets) equal, bit for bit, a
//! naive reference: each view coordinate's cotangent added, in ordinal order, into the
//! source slot it reads. The cotangent values are not small integers, so a different
//! summation order would show.

use proptest::prelude::*;
use strideweave::{Carrier, Complex32, Key, Tensor, autograd};

use crate::autograd::adjoint::{Rng, random_source, random_view};
use crate::autograd::support::{cotangent_like, leaf, s};

/// The carrier index each coordinate of `t` reads, in first-mode-fastest order.
fn slots(t: &Tensor) -> Vec<i64> {
    (0..t.size())
        .map(|i| t.offset() as i64 + t.layout().index_of(i).unwrap())
        .collect()
}

/// The naive gradient of `x` for the cotangent `c` of its view `v`: `c[i]` added, in
/// ordinal order, into the slot that `v`'s coordinate `i` reads (from zero), then read back
/// at each coordinate of `x` (its aliases share their slot's sum).
fn naive(x: &Tensor, v: &Tensor, c: &[f64]) -> Vec<f64> {
    let mut sums = std::collections::HashMap::new();
    for (p, &ci) in slots(v).iter().zip(c) {
        *sums.entry(*p).or_insert(0.0) += ci;
    }
    slots(x)
        .iter()
        .map(|p| sums.get(p).copied().unwrap_or(0.0))
        .collect()
}

/// A random chain of `steps` views of a random leaf, with a readable trail.
fn chain(rng: &mut Rng, steps: usize) -> (Tensor, Tensor, Vec<String>) {
    let x = random_source(rng);
    let mut v = x.clone();
    let mut trail = vec![format!("x = {}", x.layout())];
    let mut applied = 0;
    for _ in 0..steps * 4 {
        if applied == steps {
            break;
        }
        if let Some((name, next)) = random_view(&v, rng) {
            trail.push(format!("{name} -> {}", next.layout()));
            v = next;
            applied += 1;
        }
    }
    if applied == 0 {
        v = x.permute(&(0..x.rank()).collect::<Vec<_>>()).unwrap();
    }
    (x, v, trail)
}

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// Tenths of varied magnitude: sums of them round differently in another order.
fn random_cotangent(rng: &mut Rng, n: usize) -> Vec<f64> {
    (0..n)
        .map(|_| rng.range(1, 999) as f64 * 0.1 * if rng.chance(50) { -1.0 } else { 1e3 })
        .collect()
}

/// The gradient of `x` for the root `y` and its cotangent `cot`, compared with `want`: bit
/// for bit when `x` is injective; else (a source that aliases sums per storage slot after
/// per-ordinal sums, RT017, as before) up to the order of those sums.
fn grad_matches(
    (x, y, cot): (&Tensor, &Tensor, &Tensor),
    want: &[f64],
    trail: &str,
) -> Result<Vec<f64>, TestCaseError> {
    let g = autograd::grad(&[y], &[x], &[Some(cot)], true)
        .map_err(|e| TestCaseError::fail(format!("grad failed: {e}\n{trail}")))?;
    let g = g[0]
        .as_ref()
        .expect("x is reached")
        .to_vec::<f64>()
        .unwrap();
    if x.layout().is_injective() {
        prop_assert_eq!(bits(&g), bits(want), "{:?} vs {:?}\n{}", g, want, trail);
    } else {
        for (a, b) in g.iter().zip(want) {
            prop_assert!(
                (a - b).abs() <= 1e-9 * (1.0 + b.abs()),
                "{a} vs {b}\n{trail}"
            );
        }
    }
    Ok(g)
}

fn check(seed: u64, steps: usize) -> Result<(), TestCaseError> {
    let mut rng = Rng(seed);
    let (x, v, trail) = chain(&mut rng, steps);
    let trail = trail.join("\n");
    let c = random_cotangent(&mut rng, v.size());
    let cot = if v.layout().is_injective() {
        cotangent_like(&v, |i| c[i])
    } else {
        Tensor::from_vec(c.clone(), v.shape()).unwrap()
    };
    let g = grad_matches((&x, &v, &cot), &naive(&x, &v, &c), &trail)?;
    // The same gradient through backward into .grad, twice (the second accumulates into
    // the first in place).
    v.backward_with(Some(&cot), true).unwrap();
    let once = x.grad().unwrap().to_vec::<f64>().unwrap();
    prop_assert_eq!(bits(&once), bits(&g), "{}", trail);
    v.backward_with(Some(&cot), false).unwrap();
    let twice: Vec<f64> = x.grad().unwrap().to_vec::<f64>().unwrap();
    let doubled: Vec<f64> = g.iter().map(|v| v + v).collect();
    prop_assert_eq!(bits(&twice), bits(&doubled), "{}", trail);
    Ok(())
}

/// An identity rule above the chain (`add_scalar`, `sub` of a constant, `add` of the view to
/// itself) hands the caller's cotangent on where it lies: the gradient still equals the
/// naive reference bit for bit (twice the naive one for `v + v`).
fn check_identity_rules(seed: u64, steps: usize) -> Result<(), TestCaseError> {
    let mut rng = Rng(seed);
    let (x, v, trail) = chain(&mut rng, steps);
    let trail = trail.join("\n");
    let c = random_cotangent(&mut rng, v.size());
    let cot = Tensor::from_vec(c.clone(), v.shape()).unwrap();
    let want = naive(&x, &v, &c);
    let konst = Tensor::from_vec(vec![0.5; v.size()], v.shape()).unwrap();
    let results = [
        (v.add_scalar(0.0).unwrap(), 1.0),
        (v.sub(&konst).unwrap(), 1.0),
        (v.add(&v).unwrap(), 2.0),
    ];
    for (y, k) in results {
        let want: Vec<f64> = want.iter().map(|w| w * k).collect();
        grad_matches((&x, &y, &cot), &want, &trail)?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn identity_rules_hand_the_cotangent_to_view_chains_unchanged(
        seed in any::<u64>(),
        steps in 1usize..=10,
    ) {
        check_identity_rules(seed, steps)?;
    }

    #[test]
    fn gradients_through_long_view_chains_equal_the_naive_reference_bit_for_bit(
        seed in any::<u64>(),
        steps in 1usize..=10,
    ) {
        check(seed, steps)?;
    }
}

/// `sum` of a chain of views: its one cotangent value, read through stride 0, lands on
/// every source slot once per view coordinate reading it.
#[test]
fn sum_backward_through_view_chains_counts_each_read_of_a_slot() {
    for seed in 0..64 {
        let mut rng = Rng(seed);
        let (x, v, trail) = chain(&mut rng, 6);
        let ones = vec![1.0; v.size()];
        let want = naive(&x, &v, &ones);
        let sum = v.sum().unwrap();
        let g = autograd::grad(&[&sum], &[&x], &[None], true).unwrap();
        let g = g[0].as_ref().unwrap().to_vec::<f64>().unwrap();
        assert_eq!(g, want, "{}", trail.join("\n"));
        v.mean().unwrap().backward().unwrap();
        let n = v.size() as f64;
        let want = naive(&x, &v, &vec![1.0 / n; v.size()]);
        let g = x.grad().unwrap().to_vec::<f64>().unwrap();
        // Another order of the same terms: per-ordinal sums, then per-slot sums (RT017)
        // when `x` aliases; and `1/n · k` once for the `k` reads through broadcast leaves
        // (the splat's rule) rather than `k` additions of `1/n`.
        for (a, b) in g.iter().zip(&want) {
            assert!((a - b).abs() < 1e-12, "{a} vs {b}\n{}", trail.join("\n"));
        }
    }
}

/// Several chains out of one leaf (and an op between views) add their contributions in
/// arrival order: the gradient equals the naive sum.
#[test]
fn several_view_chains_of_one_leaf_add_their_contributions() {
    let x = leaf("(4,6):(-6,1)", 18);
    let a = x.permute(&[1, 0]).unwrap().reverse(0).unwrap();
    let b = x
        .reverse(1)
        .unwrap()
        .slice(&[Key::slice(None, None, Some(2)), Key::all()])
        .unwrap();
    let r = x.slice(&[Key::Int(2), Key::all()]).unwrap();
    let bc = r.unsqueeze(0).unwrap().broadcast_to(&s("(3,6)")).unwrap();
    let wa: Vec<f64> = (0..24).map(|i| 0.1 * (i as f64 + 1.0)).collect();
    let wb: Vec<f64> = (0..12).map(|i| -0.3 * (i as f64 + 2.0)).collect();
    let wc: Vec<f64> = (0..18).map(|i| 0.7 * (i as f64 - 4.0)).collect();
    let loss = a
        .mul(&Tensor::from_vec(wa.clone(), a.shape()).unwrap())
        .unwrap()
        .sum()
        .unwrap()
        .add(
            &b.mul(&Tensor::from_vec(wb.clone(), b.shape()).unwrap())
                .unwrap()
                .sum()
                .unwrap(),
        )
        .unwrap()
        .add(
            &bc.mul(&Tensor::from_vec(wc.clone(), bc.shape()).unwrap())
                .unwrap()
                .sum()
                .unwrap(),
        )
        .unwrap();
    loss.backward().unwrap();
    let mut want = vec![0.0; 24];
    for (view, w) in [(&a, &wa), (&b, &wb), (&bc, &wc)] {
        let part = naive(&x, view, w);
        for (acc, p) in want.iter_mut().zip(part) {
            *acc += p;
        }
    }
    let g = x.grad().unwrap().to_vec::<f64>().unwrap();
    for (a, b) in g.iter().zip(&want) {
        assert!((a - b).abs() < 1e-12, "{g:?} vs {want:?}");
    }
}

/// f32 and complex gradients take the same one-pass path as f64.
#[test]
fn one_pass_view_gradients_work_for_f32_and_complex() {
    let x32 = Tensor::from_vec((0..12).map(|i| i as f32).collect::<Vec<_>>(), &s("(3,4)")).unwrap();
    x32.set_requires_grad(true).unwrap();
    let v = x32
        .permute(&[1, 0])
        .unwrap()
        .reverse(1)
        .unwrap()
        .slice(&[Key::slice(Some(1), None, None), Key::all()])
        .unwrap();
    v.sum().unwrap().backward().unwrap();
    assert_eq!(
        x32.grad().unwrap().to_vec::<f32>().unwrap(),
        [0.0, 0.0, 0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0]
    );
    let z: Vec<Complex32> = (0..6).map(|i| Complex32::new(i as f32, 1.0)).collect();
    let xc = Tensor::new(Carrier::from_vec(z), 0, "(2,3):(3,1)".parse().unwrap()).unwrap();
    xc.set_requires_grad(true).unwrap();
    let v = xc
        .permute(&[1, 0])
        .unwrap()
        .unsqueeze(2)
        .unwrap()
        .broadcast_to(&s("(3,2,2)"))
        .unwrap();
    let c: Vec<Complex32> = (0..12).map(|i| Complex32::new(i as f32, -1.0)).collect();
    let cot = Tensor::from_vec(c.clone(), v.shape()).unwrap();
    v.backward_with(Some(&cot), false).unwrap();
    // v[i, j, k] reads x[j, i]; its ordinal is i + 3j + 6k.
    let mut want = vec![Complex32::new(0.0, 0.0); 6];
    for k in 0..2 {
        for j in 0..2 {
            for i in 0..3 {
                want[j + 2 * i] += c[i + 3 * j + 6 * k];
            }
        }
    }
    assert_eq!(xc.grad().unwrap().to_vec::<Complex32>().unwrap(), want);
}
