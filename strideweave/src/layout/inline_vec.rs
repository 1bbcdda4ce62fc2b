//! `InlineVec`: a vector of `Copy` items that keeps up to `N` of them inline.
//!
//! Layout metadata is copied on every view, so copying must be cheap: an inline `InlineVec`
//! clones as one fixed-size block copy (no length-dependent `memcpy` call, no branch on the
//! element count) and never allocates. Beyond `N` items it moves everything to a `Vec`.
//! Safe code only: the inline array is always fully initialised (with `T::default()`).

use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::{Deref, DerefMut};

/// Up to `N` items inline, more on the heap.
#[derive(Clone)]
pub(crate) struct InlineVec<T: Copy + Default, const N: usize> {
    len: u32,
    inline: [T; N],
    /// All items when `len > N`; `None` otherwise. Boxed so that the inline case costs one
    /// word, which is cloned and dropped without a call.
    #[allow(clippy::box_collection)]
    heap: Option<Box<Vec<T>>>,
}

impl<T: Copy + Default, const N: usize> InlineVec<T, N> {
    pub(crate) fn new() -> Self {
        InlineVec {
            len: 0,
            inline: [T::default(); N],
            heap: None,
        }
    }

    pub(crate) fn from_slice(items: &[T]) -> Self {
        let mut v = InlineVec::new();
        v.extend_from_slice(items);
        v
    }

    #[inline]
    pub(crate) fn push(&mut self, item: T) {
        let len = self.len as usize;
        if len < N {
            self.inline[len] = item;
            self.len += 1;
        } else {
            self.push_spilled(item);
        }
    }

    /// `push` beyond the inline capacity: kept out of line so that the inline push inlines.
    #[cold]
    #[inline(never)]
    fn push_spilled(&mut self, item: T) {
        self.heap
            .get_or_insert_with(|| Box::new(self.inline.to_vec()))
            .push(item);
        self.len += 1;
    }

    #[inline]
    pub(crate) fn extend_from_slice(&mut self, items: &[T]) {
        let len = self.len as usize;
        let end = len + items.len();
        if end <= N {
            self.inline[len..end].copy_from_slice(items);
        } else {
            let inline = &self.inline[..len.min(N)];
            self.heap
                .get_or_insert_with(|| {
                    let mut heap = Vec::with_capacity(end);
                    heap.extend_from_slice(inline);
                    Box::new(heap)
                })
                .extend_from_slice(items);
        }
        // unreachable from user input: 2^32 leaves mean 32 GiB of leaf values already in memory (the parsers and every builder hold them before this push), long before the count passes u32.
        self.len = u32::try_from(end).expect("fewer than 2^32 leaves");
    }

    /// Items built inline by `item(j)` for `j in 0..len` (no per-item length checks or
    /// copy calls: the view fast paths build their few leaves this way).
    #[inline(always)]
    pub(crate) fn from_fn(len: usize, item: impl Fn(usize) -> T) -> Self {
        if len > N {
            return (0..len).map(item).collect();
        }
        let mut inline = [T::default(); N];
        for (j, slot) in inline.iter_mut().enumerate().take(len) {
            *slot = item(j);
        }
        InlineVec {
            len: len as u32,
            inline,
            heap: None,
        }
    }

    /// Overwrites the items with `item(j)` for `j in 0..len`, in place: inline when they
    /// fit (the old items beyond `len` stay as they are, unread), else on the heap.
    #[inline(always)]
    pub(crate) fn set_from_fn(&mut self, len: usize, mut item: impl FnMut(usize) -> T) {
        if len > N {
            *self = (0..len).map(item).collect();
            return;
        }
        self.heap = None;
        for (j, slot) in self.inline.iter_mut().enumerate().take(len) {
            *slot = item(j);
        }
        self.len = len as u32;
    }

    /// Overwrites the items with the first `len` of `items` (`len <= N`), in place: one
    /// fixed-size block copy.
    #[inline(always)]
    pub(crate) fn set_inline(&mut self, items: [T; N], len: usize) {
        debug_assert!(len <= N);
        self.heap = None;
        self.inline = items;
        self.len = len as u32;
    }

    /// The whole inline array (the items, then unspecified values up to `N`) when the items
    /// are inline: one fixed-size block to copy.
    #[inline(always)]
    pub(crate) fn inline_items(&self) -> Option<&[T; N]> {
        match self.heap {
            None => Some(&self.inline),
            Some(_) => None,
        }
    }

    /// Overwrites the items with `len` copies of `T::default()`, in place (one fixed-size
    /// block store when they fit inline).
    #[inline(always)]
    pub(crate) fn set_default(&mut self, len: usize) {
        if len > N {
            *self = (0..len).map(|_| T::default()).collect();
            return;
        }
        self.heap = None;
        self.inline = [T::default(); N];
        self.len = len as u32;
    }

    /// Overwrites the items with a copy of `other`'s, in place (one fixed-size block copy
    /// when they are inline).
    #[inline(always)]
    pub(crate) fn set_from(&mut self, other: &Self) {
        match &other.heap {
            None => {
                self.heap = None;
                self.inline = other.inline;
                self.len = other.len;
            }
            Some(_) => *self = other.clone(),
        }
    }

    /// `xs` with `x` inserted before position `i` (`i <= xs.len()`).
    #[inline]
    pub(crate) fn spliced(xs: &[T], i: usize, x: T) -> Self {
        InlineVec::from_fn(xs.len() + 1, |j| match j.cmp(&i) {
            std::cmp::Ordering::Less => xs[j],
            std::cmp::Ordering::Equal => x,
            std::cmp::Ordering::Greater => xs[j - 1],
        })
    }

    /// `xs` without the item at position `i` (`i < xs.len()`).
    #[inline]
    pub(crate) fn cut(xs: &[T], i: usize) -> Self {
        InlineVec::from_fn(xs.len() - 1, |j| if j < i { xs[j] } else { xs[j + 1] })
    }

    /// Keeps the first `len` items (all of them when there are fewer); items that fit
    /// inline again move back inline.
    pub(crate) fn truncate(&mut self, len: usize) {
        if len >= self.len as usize {
            return;
        }
        if let Some(heap) = self.heap.take() {
            if len > N {
                let mut heap = heap;
                heap.truncate(len);
                self.heap = Some(heap);
            } else {
                self.inline[..len].copy_from_slice(&heap[..len]);
            }
        }
        self.len = len as u32;
    }

    /// The inline array and the number of items in it, unless the items are on the heap.
    #[inline(always)]
    pub(crate) fn inline(&self) -> Option<(&[T; N], usize)> {
        match self.heap {
            None => Some((&self.inline, self.len as usize)),
            Some(_) => None,
        }
    }

    #[inline]
    pub(crate) fn as_slice(&self) -> &[T] {
        match &self.heap {
            None => &self.inline[..self.len as usize],
            Some(heap) => heap,
        }
    }

    #[inline]
    fn as_mut_slice(&mut self) -> &mut [T] {
        match &mut self.heap {
            None => &mut self.inline[..self.len as usize],
            Some(heap) => heap,
        }
    }
}

impl<T: Copy + Default, const N: usize> Default for InlineVec<T, N> {
    fn default() -> Self {
        InlineVec::new()
    }
}

impl<T: Copy + Default, const N: usize> Deref for InlineVec<T, N> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        self.as_slice()
    }
}

impl<T: Copy + Default, const N: usize> DerefMut for InlineVec<T, N> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        self.as_mut_slice()
    }
}

impl<T: Copy + Default, const N: usize> FromIterator<T> for InlineVec<T, N> {
    #[inline]
    fn from_iter<I: IntoIterator<Item = T>>(items: I) -> Self {
        let mut v = InlineVec::new();
        let mut items = items.into_iter();
        // Fill the inline array directly; spill only if there is more.
        for slot in v.inline.iter_mut() {
            match items.next() {
                Some(x) => {
                    *slot = x;
                    v.len += 1;
                }
                None => return v,
            }
        }
        items.for_each(|x| v.push(x));
        v
    }
}

impl<T: Copy + Default, const N: usize> Extend<T> for InlineVec<T, N> {
    fn extend<I: IntoIterator<Item = T>>(&mut self, items: I) {
        items.into_iter().for_each(|x| self.push(x));
    }
}

impl<T: Copy + Default, const N: usize> From<&[T]> for InlineVec<T, N> {
    fn from(items: &[T]) -> Self {
        InlineVec::from_slice(items)
    }
}

impl<'a, T: Copy + Default, const N: usize> IntoIterator for &'a InlineVec<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.as_slice().iter()
    }
}

impl<T: Copy + Default + PartialEq, const N: usize> PartialEq for InlineVec<T, N> {
    fn eq(&self, other: &Self) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl<T: Copy + Default + Eq, const N: usize> Eq for InlineVec<T, N> {}

impl<T: Copy + Default + Hash, const N: usize> Hash for InlineVec<T, N> {
    fn hash<H: Hasher>(&self, h: &mut H) {
        self.as_slice().hash(h)
    }
}

impl<T: Copy + Default + fmt::Debug, const N: usize> fmt::Debug for InlineVec<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.as_slice().fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::InlineVec;

    #[test]
    fn spills_to_the_heap_and_back_to_slices() {
        let mut v: InlineVec<i64, 2> = InlineVec::new();
        v.push(1);
        v.extend_from_slice(&[2]);
        assert_eq!(&*v, &[1, 2]);
        v.push(3);
        v.extend_from_slice(&[4, 5]);
        assert_eq!(&*v, &[1, 2, 3, 4, 5]);
        let w = v.clone();
        assert_eq!(w, v);
        let mut u: InlineVec<i64, 2> = InlineVec::from_slice(&[9]);
        u.extend_from_slice(&[8, 7]);
        assert_eq!(&*u, &[9, 8, 7]);
        u.reverse();
        assert_eq!(&*u, &[7, 8, 9]);
        let c: InlineVec<i64, 2> = (0..4).collect();
        assert_eq!(&*c, &[0, 1, 2, 3]);
    }

    #[test]
    fn set_gather_splice_and_cut_match_the_slice_operations_inline_and_spilled() {
        for n in 0..6usize {
            let xs: Vec<i64> = (10..10 + n as i64).collect();
            let order: Vec<usize> = (0..n).rev().collect();
            let mut g: InlineVec<i64, 3> = InlineVec::from_slice(&[7, 8, 9, 10]);
            g.set_from_fn(n, |j| xs[order[j]]);
            assert_eq!(&*g, &order.iter().map(|&i| xs[i]).collect::<Vec<_>>()[..]);
            let mut h: InlineVec<i64, 3> = InlineVec::from_slice(&[7]);
            h.set_from(&g);
            assert_eq!(h, g);
            h.set_default(n);
            assert_eq!(&*h, &vec![0; n][..]);
            if n <= 3 {
                h.set_inline([xs.first().copied().unwrap_or(0); 3], n);
                assert_eq!(&*h, &vec![xs.first().copied().unwrap_or(0); n][..]);
            }
            for keep in 0..=n + 1 {
                let mut t: InlineVec<i64, 3> = InlineVec::from_slice(&xs);
                t.truncate(keep);
                assert_eq!(&*t, &xs[..keep.min(n)]);
                t.push(-5);
                assert_eq!(t.last(), Some(&-5));
                assert_eq!(t.len(), keep.min(n) + 1);
            }
            for i in 0..=n {
                let mut want = xs.clone();
                want.insert(i, -1);
                assert_eq!(&*InlineVec::<i64, 3>::spliced(&xs, i, -1), &want[..]);
                if i < n {
                    let mut want = xs.clone();
                    want.remove(i);
                    assert_eq!(&*InlineVec::<i64, 3>::cut(&xs, i), &want[..]);
                }
            }
        }
    }
}
