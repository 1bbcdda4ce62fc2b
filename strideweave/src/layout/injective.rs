//! Injectivity, decided from the strides: bounded work, no allocation.
//!
//! Distinct coordinates reach one index exactly when some non-zero vector `e` with
//! `|e_k| < s_k` has `Σ e_k·d_k = 0` (a *relation*). Flipping a stride's sign does not change
//! that, so only `|d_k|` matters. The decision, cheapest first:
//! 1. the sorted-stride test: a stride-0 leaf of extent > 1 is a relation; sorted strides that
//!    each exceed the span of the smaller ones admit none;
//! 2. peeling: a mode that no relation can involve is dropped — the largest stride when it
//!    exceeds the span of all the others, or a mode whose span stays below the gcd of the
//!    other strides (the other modes then move only in multiples of that gcd);
//! 3. pigeonhole: fewer reachable indices than coordinates means a relation;
//! 4. two modes left: the smallest relation is `(d₂/g, -d₁/g)` with `g = gcd(d₁, d₂)`;
//! 5. otherwise every coefficient vector of all modes but the widest is tried, within
//!    [`EXACT_STEPS`]; beyond it the question is [`Error::TooLarge`].

use smallvec::SmallVec;

use crate::budget::{EXACT_STEPS, too_large};
use crate::error::Result;
use crate::layout::core::Layout;

/// `(|stride|, extent)` of the modes that matter, extent > 1.
type Live = SmallVec<[(i128, i128); 8]>;

impl Layout {
    /// Whether distinct coordinates reach distinct indices, decided from the
    /// strides (see [`try_is_injective`](Self::try_is_injective)). When the exact answer
    /// would take more than the work budget, the layout counts as possibly overlapping and
    /// the answer is `false`.
    ///
    /// ```
    /// let inj = |s: &str| s.parse::<strideweave::Layout>().unwrap().is_injective();
    /// assert!(inj("(2,3):(1,4)"));
    /// assert!(!inj("(4,2):(0,1)"));
    /// assert!(!inj("(4,2):(1,1)"));
    /// assert!(inj("(3,2):(2,3)")); // 2 and 3 are coprime: the smallest relation is (3,-2)
    /// assert!(inj("(1099511627776,15):(16,7)")); // 2^40 elements, decided at once
    /// ```
    pub fn is_injective(&self) -> bool {
        self.try_is_injective().unwrap_or(false)
    }

    /// Whether distinct coordinates reach distinct indices, or `TooLarge` when no closed form
    /// applies and the exact check would exceed the work budget (2^20 steps). The sorted-stride
    /// test, the two-mode gcd test and peeling decide the common layouts at once, whatever
    /// their size.
    ///
    /// ```
    /// let l: strideweave::Layout = "(1099511627776,15):(16,7)".parse().unwrap();
    /// assert!(l.try_is_injective().unwrap());
    /// let knot: strideweave::Layout = "(2048,2048,2048):(10000019,10000079,10000103)".parse().unwrap();
    /// let err = knot.try_is_injective().unwrap_err();
    /// assert!(err.to_string().starts_with("try_is_injective: "));
    /// assert!(err.to_string().contains("too large to decide exactly"));
    /// ```
    pub fn try_is_injective(&self) -> Result<bool> {
        self.injective_in("try_is_injective")
    }

    /// [`try_is_injective`](Self::try_is_injective) reporting errors as `op`.
    pub(crate) fn injective_in(&self, op: &'static str) -> Result<bool> {
        self.decide(op, false)
    }

    /// Whether the layout is injective once its stride-0 (broadcast) modes are ignored, i.e.
    /// whether [`filter`](Self::filter) of it is injective; errors as `op`.
    pub(crate) fn injective_ignoring_broadcast_in(&self, op: &'static str) -> Result<bool> {
        self.decide(op, true)
    }

    fn decide(&self, op: &'static str, skip_broadcast: bool) -> Result<bool> {
        let mut live = Live::new();
        for (&s, &d) in self.leaves() {
            if s == 1 || (d == 0 && skip_broadcast) {
                continue;
            }
            if d == 0 {
                return Ok(false);
            }
            live.push((i128::from(d).abs(), i128::from(s)));
        }
        if let Some(answer) = sorted_stride_test(&mut live) {
            return Ok(answer);
        }
        decide_tangled(live)
            .map_err(|steps| too_large(op, format_args!("whether {self} is injective"), steps))
    }
}

/// The sorted-stride test on `live` (sorted here): `Some(true)` when sorted strides each
/// exceed the span of the ones before, `Some(false)` on equal strides, `None` when undecided.
fn sorted_stride_test(live: &mut Live) -> Option<bool> {
    live.sort_unstable();
    let mut span = 0i128; // the largest index the modes so far reach
    let mut decided = true;
    for w in 0..live.len() {
        let (d, s) = live[w];
        if w > 0 && live[w - 1].0 == d {
            return Some(false); // equal strides: (1,0,…) and (0,1,…) collide
        }
        decided &= d > span;
        span += (s - 1) * d;
    }
    decided.then_some(true)
}

/// Steps 2–5 of the module doc on sorted, stride-non-zero modes; `Err(steps)` when the
/// enumeration would take more than the budget.
fn decide_tangled(mut live: Live) -> std::result::Result<bool, u128> {
    // A common factor of all strides changes no relation.
    let g = live.iter().fold(0, |g, &(d, _)| gcd(g, d));
    live.iter_mut().for_each(|m| m.0 /= g);
    while peel(&mut live) {}
    match live.as_slice() {
        [] | [_] => return Ok(true),
        [(d1, s1), (d2, s2)] => {
            let g = gcd(*d1, *d2);
            return Ok(d2 / g >= *s1 || d1 / g >= *s2);
        }
        _ => {}
    }
    // Pigeonhole: the reach [0, Σ (s-1)·d] must hold Π s distinct indices.
    let reach: i128 = live.iter().map(|&(d, s)| (s - 1) * d).sum();
    let size = live.iter().try_fold(1i128, |p, &(_, s)| p.checked_mul(s));
    if size.is_none_or(|n| reach + 1 < n) {
        return Ok(false);
    }
    let widest = (0..live.len()).max_by_key(|&k| live[k].1).unwrap_or(0);
    let (dw, sw) = live.remove(widest);
    let steps = live
        .iter()
        .try_fold(1u128, |p, &(_, s)| p.checked_mul((2 * s - 1) as u128))
        .unwrap_or(u128::MAX);
    if steps > EXACT_STEPS {
        return Err(steps);
    }
    Ok(!has_relation(&live, dw, sw))
}

/// Drops one mode that no relation can involve; `false` when there is none.
fn peel(live: &mut Live) -> bool {
    if live.len() < 2 {
        return false;
    }
    let total: i128 = live.iter().map(|&(d, s)| (s - 1) * d).sum();
    // The largest stride (live is sorted) beyond the span of all the others.
    let &(dl, sl) = live.last().unwrap_or(&(0, 1));
    if dl > total - (sl - 1) * dl {
        live.pop();
        return true;
    }
    // gcd of the strides before k and after k: O(leaves) per pass (a size that fits i64
    // leaves at most 63 modes of extent > 1).
    let n = live.len();
    let mut after: SmallVec<[i128; 8]> = SmallVec::from_elem(0, n + 1);
    for k in (0..n).rev() {
        after[k] = gcd(after[k + 1], live[k].0);
    }
    let mut before = 0;
    for k in 0..n {
        let others = gcd(before, after[k + 1]);
        before = gcd(before, live[k].0);
        let (d, s) = live[k];
        if others > (s - 1) * d {
            live.remove(k);
            return true;
        }
    }
    false
}

/// Whether some coefficient vector `e` of `others` (`|e_k| < s_k`) and `f` (`|f| < sw`), not
/// all zero, has `Σ e_k·d_k + f·dw = 0`: every `e` is tried, `f` is solved for.
fn has_relation(others: &[(i128, i128)], dw: i128, sw: i128) -> bool {
    let mut e: SmallVec<[i128; 8]> = others.iter().map(|&(_, s)| 1 - s).collect();
    let mut sum: i128 = others.iter().map(|&(d, s)| (1 - s) * d).sum();
    loop {
        let zero = e.iter().all(|&x| x == 0);
        if !zero && sum % dw == 0 && (sum / dw).abs() < sw {
            return true;
        }
        // Odometer step over e_k ∈ [1 - s_k, s_k - 1].
        let mut k = 0;
        loop {
            let Some(&(d, s)) = others.get(k) else {
                return false;
            };
            if e[k] < s - 1 {
                e[k] += 1;
                sum += d;
                break;
            }
            e[k] = 1 - s;
            sum -= 2 * (s - 1) * d;
            k += 1;
        }
    }
}

fn gcd(mut a: i128, mut b: i128) -> i128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.abs()
}
