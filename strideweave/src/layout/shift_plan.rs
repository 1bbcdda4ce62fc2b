//! `PlanCache`: the shift plan a `Layout` keeps for `index_of`, made on the first call.
//!
//! A layout whose extents are all powers of two maps ordinal `n` to
//! `L(n) = n·c_0 + Σ_k (n >> K_k)·c_k` (the telescoped sum of `layout/indexer.rs`, every
//! `P_k = 2^K_k`): a shift, a multiplication and an addition per term, no division and no
//! chain from leaf to leaf. The cache holds that sum for up to `TERMS` terms besides `c_0`,
//! a size below 2^32 and coefficients that fit in `i32`, in 24 bytes, so a `Layout` stays
//! small (views build one per call); other layouts keep the leaf-by-leaf path, and
//! [`Layout::indexer`](crate::Layout::indexer) serves any layout.
//!
//! It is filled through `&Layout` (shared between threads), so its fields are atomics: a
//! thread that finds it empty computes the plan and stores the same values any other thread
//! would, the coefficients and shifts first and then the size with `Release`; a reader that
//! loads a non-zero size with `Acquire` reads the plan written before it. Relaxed atomic loads
//! and stores are plain moves on the targets the crate builds for.

use std::hash::{Hash, Hasher};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU8, AtomicU32, Ordering};

use crate::layout::core::Layout;
use crate::layout::indexer::split_unit;

/// The number of terms besides `c_0` a plan holds.
const TERMS: usize = 3;

/// A layout's shift plan, made on first use. Layouts that differ only in it are equal and
/// hash alike; a clone starts empty; `Layout`'s in-place writers empty it.
pub(crate) struct PlanCache {
    /// The layout's size once a plan is made; 0 before, and for a layout without a plan.
    size: AtomicU32,
    /// `c_0`, then the coefficients of the shift terms (0 in unused slots).
    coef: [AtomicI32; TERMS + 1],
    /// `K_k` of the shift terms.
    shift: [AtomicU8; TERMS],
    /// Whether the plan was made (with or without a plan).
    made: AtomicBool,
}

impl PlanCache {
    #[inline(always)]
    pub(crate) const fn new() -> PlanCache {
        PlanCache {
            size: AtomicU32::new(0),
            coef: [const { AtomicI32::new(0) }; TERMS + 1],
            shift: [const { AtomicU8::new(0) }; TERMS],
            made: AtomicBool::new(false),
        }
    }

    /// Empties the cache of a layout being overwritten in place.
    #[inline(always)]
    pub(crate) fn clear(&mut self) {
        *self.size.get_mut() = 0;
        *self.made.get_mut() = false;
    }

    /// `L(n)` by the plan when it is made and `n < size`; `None` otherwise (no plan yet, no
    /// plan at all, or `n` outside the domain).
    #[inline(always)]
    pub(crate) fn eval(&self, n: u64) -> Option<i64> {
        if n >= u64::from(self.size.load(Ordering::Acquire)) {
            return None;
        }
        let c = |k: usize| i64::from(self.coef[k].load(Ordering::Relaxed));
        let mut acc = (n as i64).wrapping_mul(c(0));
        for k in 0..TERMS {
            let q = n.wrapping_shr(u32::from(self.shift[k].load(Ordering::Relaxed)));
            acc = acc.wrapping_add((q as i64).wrapping_mul(c(k + 1)));
        }
        Some(acc)
    }

    /// Whether the plan was made (it may have found no plan).
    #[inline(always)]
    pub(crate) fn made(&self) -> bool {
        self.made.load(Ordering::Acquire)
    }

    /// Makes the plan of `layout` (the layout holding this cache).
    #[cold]
    #[inline(never)]
    pub(crate) fn make(&self, layout: &Layout) {
        let (terms, size) = layout.terms();
        let (c0, rest) = split_unit(&terms);
        let coefs = std::iter::once(c0).chain(rest.iter().map(|t| t.1));
        // With a power-of-two size every P_k (a divisor) is a power of two.
        let planned = size.is_power_of_two()
            && rest.len() <= TERMS
            && u32::try_from(size).is_ok()
            && coefs.clone().all(|c| i32::try_from(c).is_ok());
        if planned {
            for (k, c) in coefs
                .chain(std::iter::repeat(0))
                .take(TERMS + 1)
                .enumerate()
            {
                // Checked above: every coefficient fits.
                self.coef[k].store(c as i32, Ordering::Relaxed);
            }
            for k in 0..TERMS {
                let p = rest.get(k).map_or(1, |t| t.0);
                self.shift[k].store(p.trailing_zeros() as u8, Ordering::Relaxed);
            }
            // Checked above: the size fits.
            self.size.store(size as u32, Ordering::Release);
        }
        self.made.store(true, Ordering::Release);
    }
}

impl Clone for PlanCache {
    #[inline(always)]
    fn clone(&self) -> PlanCache {
        PlanCache::new()
    }
}

impl PartialEq for PlanCache {
    fn eq(&self, _: &PlanCache) -> bool {
        true
    }
}

impl Eq for PlanCache {}

impl Hash for PlanCache {
    fn hash<H: Hasher>(&self, _: &mut H) {}
}

#[cfg(test)]
mod tests {
    use crate::layout::Layout;

    #[test]
    fn shift_plan_is_made_for_power_of_two_layouts_of_up_to_three_terms() {
        for (text, planned) in [
            ("((4,8),(2,16)):((1,64),(4,512))", true),
            ("(8,4):(4,1)", true),
            ("(1,1):(3,4)", true),
            ("(4,8,2,(4,2)):(0,1,-32,(64,8))", false),
            ("((3,5),(6,7)):((1,18),(3,90))", false),
            ("(2,4,2,2,2):(1,-3,100,7,1000)", false),
            ("(2,4,2,2):(1,-3,100,200)", true),
            // A coefficient beyond i32, a size beyond u32.
            ("(2,2):(1,4294967296)", false),
            ("(65536,65536):(1,65536)", false),
        ] {
            let l: Layout = text.parse().unwrap();
            assert!(!l.plan.made());
            let n = l.size();
            let ordinals: Vec<usize> = (0..n.min(4096)).chain([n / 3, n - 1]).collect();
            let got: Vec<i64> = ordinals.iter().map(|&i| l.index_of(i).unwrap()).collect();
            assert!(l.plan.made());
            assert_eq!(l.plan.eval(0).is_some(), planned, "{text}");
            for (&i, &k) in ordinals.iter().zip(&got) {
                assert_eq!(k, l.eval_extended(i as i64), "{text} at {i}");
            }
            assert!(l.index_of(n).is_err());
        }
    }

    #[test]
    fn plan_cache_costs_a_layout_24_bytes() {
        // Views build a layout per call: the cache must stay small (issue 26).
        assert_eq!(std::mem::size_of::<super::PlanCache>(), 24);
    }

    #[test]
    fn plan_is_emptied_by_in_place_writes() {
        let mut l: Layout = "(4,8):(8,1)".parse().unwrap();
        assert_eq!(l.index_of(5).unwrap(), 9);
        assert!(l.plan.eval(5).is_some());
        // Overwritten in place with (2,16):(16,1): the old plan must not answer.
        l.set_flat_valid(2, false, |j| [2, 16][j], |j| [16, 1][j]);
        assert_eq!(l.to_string(), "(2,16):(16,1)");
        assert_eq!(l.plan.eval(5), None);
        assert_eq!(l.index_of(5).unwrap(), 16 + 2);
        assert!(l.index_of(32).is_err());
        let c = l.clone();
        assert!(!c.plan.made());
        assert_eq!(c.index_of(31).unwrap(), 31);
    }
}
