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
        let (extents, strides) = (&self.shape.0.vals, &self.stride.0.vals);
        let mut live: SmallVec<[(i128, i128); 8]> = SmallVec::from_elem((0, 0), extents.len());
        let Some(n) = live_modes(extents, strides, skip_broadcast, &mut live) else {
            return Ok(false);
        };
        let mut scratch: SmallVec<[i128; 9]> = SmallVec::from_elem(0, n + 1);
        injective_rule(&mut live[..n], &mut scratch)
            .map_err(|steps| too_large(op, format_args!("whether {self} is injective"), steps))
    }
}

/// Fills `live` with `(|stride|, extent)` of the leaves that matter (extent > 1; stride-0
/// leaves skipped when `skip_broadcast`) and returns their number, or `None` when a stride-0
/// leaf of extent > 1 counts: a relation, so not injective. `live` has room for every leaf.
pub(crate) const fn live_modes(
    extents: &[i64],
    strides: &[i64],
    skip_broadcast: bool,
    live: &mut [(i128, i128)],
) -> Option<usize> {
    let (mut n, mut k) = (0, 0);
    while k < extents.len() {
        let (s, d) = (extents[k], strides[k]);
        k += 1;
        if s == 1 || (d == 0 && skip_broadcast) {
            continue;
        }
        if d == 0 {
            return None;
        }
        live[n] = ((d as i128).abs(), s as i128);
        n += 1;
    }
    Some(n)
}

/// The decision of the module doc on `live` (from [`live_modes`]; reordered here) with
/// `scratch` of at least `live.len() + 1` values: whether no relation exists, or `Err(steps)`
/// when the enumeration would take more than [`EXACT_STEPS`]. A `const fn` over slices: the
/// run-time layouts and the static layouts (`layout/fixed`) both call it.
pub(crate) const fn injective_rule(
    live: &mut [(i128, i128)],
    scratch: &mut [i128],
) -> std::result::Result<bool, u128> {
    match sorted_stride_test(live) {
        Some(answer) => Ok(answer),
        None => decide_tangled(live, scratch),
    }
}

/// The sorted-stride test on `live` (sorted here): `Some(true)` when sorted strides each
/// exceed the span of the ones before, `Some(false)` on equal strides, `None` when undecided.
const fn sorted_stride_test(live: &mut [(i128, i128)]) -> Option<bool> {
    sort(live);
    let mut span = 0i128; // the largest index the modes so far reach
    let mut decided = true;
    let mut w = 0;
    while w < live.len() {
        let (d, s) = live[w];
        if w > 0 && live[w - 1].0 == d {
            return Some(false); // equal strides: (1,0,…) and (0,1,…) collide
        }
        decided &= d > span;
        span += (s - 1) * d;
        w += 1;
    }
    if decided { Some(true) } else { None }
}

/// Steps 2–5 of the module doc on sorted, stride-non-zero modes; `Err(steps)` when the
/// enumeration would take more than the budget.
const fn decide_tangled(
    live: &mut [(i128, i128)],
    scratch: &mut [i128],
) -> std::result::Result<bool, u128> {
    // A common factor of all strides changes no relation.
    let mut g = 0;
    let mut k = 0;
    while k < live.len() {
        g = gcd(g, live[k].0);
        k += 1;
    }
    let mut k = 0;
    while k < live.len() {
        live[k].0 /= g;
        k += 1;
    }
    let mut n = live.len();
    while peel(live, n, scratch) {
        n -= 1;
    }
    if n <= 1 {
        return Ok(true);
    }
    if n == 2 {
        let ((d1, s1), (d2, s2)) = (live[0], live[1]);
        let g = gcd(d1, d2);
        return Ok(d2 / g >= s1 || d1 / g >= s2);
    }
    // Pigeonhole: the reach [0, Σ (s-1)·d] must hold Π s distinct indices.
    let (mut reach, mut size, mut k) = (0i128, Some(1i128), 0);
    while k < n {
        let (d, s) = live[k];
        reach += (s - 1) * d;
        size = match size {
            Some(p) => p.checked_mul(s),
            None => None,
        };
        k += 1;
    }
    match size {
        Some(size) if reach + 1 >= size => {}
        _ => return Ok(false),
    }
    // The widest mode (the last of equals) is solved for; every coefficient vector of the
    // others is tried.
    let mut widest = 0;
    let mut k = 1;
    while k < n {
        if live[k].1 >= live[widest].1 {
            widest = k;
        }
        k += 1;
    }
    let (dw, sw) = live[widest];
    let mut k = widest;
    while k + 1 < n {
        live[k] = live[k + 1];
        k += 1;
    }
    let others = live.split_at(n - 1).0;
    let mut steps = Some(1u128);
    let mut k = 0;
    while k < others.len() {
        steps = match steps {
            Some(p) => p.checked_mul((2 * others[k].1 - 1) as u128),
            None => None,
        };
        k += 1;
    }
    let steps = match steps {
        Some(steps) => steps,
        None => u128::MAX,
    };
    if steps > EXACT_STEPS {
        return Err(steps);
    }
    Ok(!has_relation(others, dw, sw, scratch))
}

/// Drops one mode of `live[..n]` that no relation can involve, keeping the others in order
/// at the start; `false` when there is none. `after` is scratch for `n + 1` values.
const fn peel(live: &mut [(i128, i128)], n: usize, after: &mut [i128]) -> bool {
    if n < 2 {
        return false;
    }
    let mut total = 0i128;
    let mut k = 0;
    while k < n {
        total += (live[k].1 - 1) * live[k].0;
        k += 1;
    }
    // The largest stride (live is sorted) beyond the span of all the others.
    let (dl, sl) = live[n - 1];
    if dl > total - (sl - 1) * dl {
        return true;
    }
    // gcd of the strides before k and after k: O(leaves) per pass (a size that fits i64
    // leaves at most 63 modes of extent > 1).
    after[n] = 0;
    let mut k = n;
    while k > 0 {
        k -= 1;
        after[k] = gcd(after[k + 1], live[k].0);
    }
    let mut before = 0;
    let mut k = 0;
    while k < n {
        let others = gcd(before, after[k + 1]);
        before = gcd(before, live[k].0);
        let (d, s) = live[k];
        if others > (s - 1) * d {
            let mut j = k;
            while j + 1 < n {
                live[j] = live[j + 1];
                j += 1;
            }
            return true;
        }
        k += 1;
    }
    false
}

/// Whether some coefficient vector `e` of `others` (`|e_k| < s_k`) and `f` (`|f| < sw`), not
/// all zero, has `Σ e_k·d_k + f·dw = 0`: every `e` is tried, `f` is solved for. `e` is
/// scratch for `others.len()` values.
const fn has_relation(others: &[(i128, i128)], dw: i128, sw: i128, e: &mut [i128]) -> bool {
    let mut sum = 0i128;
    let mut k = 0;
    while k < others.len() {
        let (d, s) = others[k];
        e[k] = 1 - s;
        sum += (1 - s) * d;
        k += 1;
    }
    loop {
        let mut zero = true;
        let mut k = 0;
        while k < others.len() {
            zero &= e[k] == 0;
            k += 1;
        }
        if !zero && sum % dw == 0 && (sum / dw).abs() < sw {
            return true;
        }
        // Odometer step over e_k ∈ [1 - s_k, s_k - 1].
        let mut k = 0;
        loop {
            if k == others.len() {
                return false;
            }
            let (d, s) = others[k];
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

/// Sorts ascending (insertion sort: a `const fn`, and a layout has few leaves).
const fn sort(live: &mut [(i128, i128)]) {
    let mut i = 1;
    while i < live.len() {
        let mut j = i;
        while j > 0
            && (live[j].0 < live[j - 1].0
                || (live[j].0 == live[j - 1].0 && live[j].1 < live[j - 1].1))
        {
            let t = live[j];
            live[j] = live[j - 1];
            live[j - 1] = t;
            j -= 1;
        }
        i += 1;
    }
}

const fn gcd(mut a: i128, mut b: i128) -> i128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a.abs()
}
