//! Spare handle allocations: per-thread free lists of the allocations that hold a
//! [`Tensor`](super::Tensor)'s representation and gradient state, and a borrowed
//! [`TensorView`](super::TensorView)'s offset and layout.
//!
//! Every view is a new handle, and each handle is one heap allocation of a few hundred
//! bytes — too large for the system allocator's fastest bins, so a program that keeps many
//! views alive at once and then drops them (a batch of views, a recorded graph) paid the
//! allocator's slow path per view. A handle dropped as the only owner of its allocation
//! leaves the emptied allocation here instead of freeing it (up to [`CAPACITY`] per
//! thread and list), and the next handle built on the same thread takes it back: a view
//! allocates at most once, and only when the list is empty.
//! Memory kept per thread is at most `CAPACITY` allocations per list (≈ 90 KiB each) plus
//! the lists, fixed arrays of `CAPACITY` pointers in thread-local storage (a list never
//! allocates); the allocations are freed with the thread.

use std::cell::RefCell;
use std::mem::MaybeUninit;
use std::sync::Arc;
use std::thread::LocalKey;

use super::TensorInner;

/// An emptied handle allocation: uniquely owned (strong count 1, no weak reference) and
/// uninitialised.
pub(super) type Slot = Arc<MaybeUninit<TensorInner>>;

/// The most spare allocations a thread keeps in each list.
pub(super) const CAPACITY: usize = 256;

/// The spare allocations `S` of one thread: a fixed array (the list itself never
/// allocates), filled from the front.
pub(super) struct List<S> {
    slots: [Option<S>; CAPACITY],
    len: usize,
}

impl<S> List<S> {
    /// An empty list.
    pub(super) const fn new() -> List<S> {
        List {
            slots: [const { None }; CAPACITY],
            len: 0,
        }
    }

    /// How many spare allocations the list holds.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// The allocation the next `pop` returns.
    #[cfg(test)]
    pub(super) fn last(&self) -> Option<&S> {
        self.slots[..self.len].last()?.as_ref()
    }
}

/// The last allocation put on this thread's `list`, if it has one (none while the thread
/// is exiting).
#[inline]
pub(super) fn pop<S: 'static>(list: &'static LocalKey<RefCell<List<S>>>) -> Option<S> {
    list.try_with(|s| {
        let mut s = s.try_borrow_mut().ok()?;
        let last = s.len.checked_sub(1)?;
        s.len = last;
        s.slots[last].take()
    })
    .ok()
    .flatten()
}

/// Keeps `slot` on this thread's `list` for the next view, or drops it when the list is
/// full (or the thread is exiting).
#[inline]
pub(super) fn push<S: 'static>(list: &'static LocalKey<RefCell<List<S>>>, slot: S) {
    let _ = list.try_with(move |s| {
        if let Ok(mut s) = s.try_borrow_mut()
            && s.len < CAPACITY
        {
            let at = s.len;
            s.slots[at] = Some(slot);
            s.len = at + 1;
        }
    });
}

thread_local! {
    static SPARE: RefCell<List<Slot>> = const { RefCell::new(List::new()) };
}

/// A uniquely owned, uninitialised handle allocation: a spare one when this thread has
/// one, a new one otherwise.
#[inline]
pub(super) fn take() -> Slot {
    // `Arc::new(MaybeUninit::uninit())` rather than `Arc::new_uninit()`: the same
    // allocation, with its size known at compile time (no out-of-line layout call).
    pop(&SPARE).unwrap_or_else(|| Arc::new(MaybeUninit::uninit()))
}

/// Keeps the emptied allocation `slot` for the next handle built on this thread, or frees
/// it when the list is full (or the thread is exiting).
#[inline]
pub(super) fn give(slot: Slot) {
    debug_assert_eq!(Arc::strong_count(&slot), 1);
    push(&SPARE, slot);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Carrier, Tensor};

    /// How many spare allocations this thread holds.
    fn held() -> usize {
        SPARE.with(|s| s.borrow().len())
    }

    fn source() -> Tensor {
        Tensor::arange::<f32>(&"(2,3,4)".parse().unwrap())
    }

    #[test]
    fn a_dropped_sole_handle_leaves_its_allocation_for_the_next_view() {
        let t = source();
        let v = t.permute(&[2, 0, 1]).unwrap();
        let at = Arc::as_ptr(&v.inner);
        let before = held();
        drop(v);
        assert_eq!(held(), before + 1);
        let w = t.broadcast_to(&"(2,3,4)".parse().unwrap()).unwrap();
        assert_eq!(
            Arc::as_ptr(&w.inner),
            at,
            "the spare allocation is taken back"
        );
        assert_eq!(held(), before);
        assert_eq!(w.layout(), t.layout(), "and holds the new view, whole");
        assert_eq!(w.to_vec::<f32>().unwrap(), t.to_vec::<f32>().unwrap());
    }

    #[test]
    fn a_shared_handle_is_not_recycled_until_its_last_clone_drops() {
        let t = source();
        let v = t.permute(&[1, 0, 2]).unwrap();
        let v2 = v.clone();
        let before = held();
        drop(v);
        assert_eq!(held(), before, "a clone still holds it");
        assert_eq!(v2.shape().to_string(), "(3,2,4)");
        drop(v2);
        assert_eq!(held(), before + 1);
    }

    #[test]
    fn a_recycled_handle_drops_its_contents_and_starts_with_fresh_gradient_state() {
        let c = Carrier::from_vec(vec![1f64; 6]);
        let t = Tensor::new(c.clone(), 0, "(2,3):(1,2)".parse().unwrap()).unwrap();
        t.set_requires_grad(true).unwrap();
        t.sum().unwrap().backward().unwrap();
        assert!(t.grad().is_some());
        drop(t);
        assert!(
            c.is_sole_handle(),
            "the dropped contents released the carrier"
        );
        let u = Tensor::new(c.clone(), 0, "(3,2):(2,1)".parse().unwrap()).unwrap();
        assert!(!u.requires_grad());
        assert!(u.grad().is_none());
        assert_eq!(u.shape().to_string(), "(3,2)");
    }

    #[test]
    fn a_thread_keeps_at_most_capacity_spare_allocations() {
        let t = source();
        let views: Vec<Tensor> = (0..CAPACITY + 40)
            .map(|_| t.permute(&[2, 1, 0]).unwrap())
            .collect();
        drop(views);
        assert_eq!(held(), CAPACITY);
    }

    #[test]
    fn handles_dropped_on_another_thread_go_to_that_threads_list_and_are_freed_with_it() {
        let t = source();
        let views: Vec<Tensor> = (0..8).map(|_| t.permute(&[0, 2, 1]).unwrap()).collect();
        let c = t.carrier().clone();
        std::thread::spawn(move || {
            drop(views);
            assert_eq!(held(), 8);
        })
        .join()
        .unwrap();
        drop(t);
        assert!(c.is_sole_handle(), "every view released the carrier");
    }
}
