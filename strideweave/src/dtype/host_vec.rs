//! The host carrier's owned elements: a `Vec` whose elements may begin past the start of its
//! allocation, so that a large fresh buffer begins on a 64-byte cache line, as PyTorch's CPU
//! allocator places its tensors. A row of a copy then spans the fewest lines: a 128-byte
//! row that starts 16 bytes into a line touches three lines instead of two, and the
//! permute benchmark ran up to 1.3× slower from such a start (docs/performance.md).

use std::ops::{Deref, DerefMut};

use super::{Element, zeroed_vec};
use crate::error::Result;

/// The cache line fresh buffers start on, in bytes.
pub(crate) const LINE: usize = 64;

/// Buffers of at least this many bytes start on a [`LINE`]; smaller ones are not padded.
const LINED_FROM: usize = 4096;

/// Elements `vec[start..]`: the vector's first `start` elements are padding (zeros) that
/// place the first element on a cache line.
#[doc(hidden)]
#[derive(Debug)]
pub struct HostVec<T> {
    vec: Vec<T>,
    start: usize,
}

impl<T: Clone> Clone for HostVec<T> {
    /// A copy of the elements (not of the padding).
    fn clone(&self) -> HostVec<T> {
        HostVec::from(self.to_vec())
    }
}

impl<T> From<Vec<T>> for HostVec<T> {
    /// The vector's elements as they are (no padding, no copy).
    fn from(vec: Vec<T>) -> HostVec<T> {
        HostVec { vec, start: 0 }
    }
}

impl<T> HostVec<T> {
    /// The elements `vec[start..]` (`start` at most `vec.len()`).
    #[cfg(any(feature = "ndarray", test))]
    pub(crate) fn from_parts(vec: Vec<T>, start: usize) -> HostVec<T> {
        let start = start.min(vec.len());
        HostVec { vec, start }
    }

    /// The vector and the index of the first element in it.
    #[cfg(any(feature = "ndarray", test))]
    pub(crate) fn into_parts(self) -> (Vec<T>, usize) {
        (self.vec, self.start)
    }

    /// The elements as a `Vec` of their own: the vector itself, with any padding removed by
    /// shifting the elements to its front (in place, no new allocation).
    #[cfg(feature = "ndarray")]
    pub(crate) fn into_front(self) -> Vec<T> {
        let mut vec = self.vec;
        vec.drain(..self.start);
        vec
    }

    /// Moves the elements out, leaving no elements.
    #[cfg(feature = "ndarray")]
    pub(crate) fn take(&mut self) -> HostVec<T> {
        std::mem::replace(self, HostVec::from(Vec::new()))
    }
}

impl<T: Element> HostVec<T> {
    /// `len` zeros from a zeroed allocation (see [`zeroed_vec`]); from 4 KiB up the first
    /// element sits on a 64-byte line. An impossible `len` is `TooLarge` naming `op` and
    /// `len`.
    pub(crate) fn zeroed(op: &'static str, len: usize) -> Result<HostVec<T>> {
        let size = std::mem::size_of::<T>();
        if len.saturating_mul(size) < LINED_FROM {
            return zeroed_vec(op, len).map(HostVec::from);
        }
        // Every element type's alignment is at least 1 and divides its size, so at most
        // `(LINE - 1) / size` elements of padding reach the next line.
        let pad = (LINE - 1) / size;
        let Some(Ok(mut vec)) = len.checked_add(pad).map(|n| zeroed_vec::<T>(op, n)) else {
            // The padding alone may be what the allocator refuses: the unpadded request
            // either succeeds or reports `len`, the size the caller asked for.
            return zeroed_vec(op, len).map(HostVec::from);
        };
        let start = match vec.as_ptr().align_offset(LINE) {
            s if s <= pad => s,
            _ => 0,
        };
        vec.truncate(start + len);
        Ok(HostVec { vec, start })
    }
}

impl<T> Deref for HostVec<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        &self.vec[self.start..]
    }
}

impl<T> DerefMut for HostVec<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.vec[self.start..]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lined<T: Element>(len: usize) -> Result<HostVec<T>> {
        HostVec::<T>::zeroed("test", len)
    }

    #[test]
    fn large_zeroed_buffers_start_on_a_cache_line() -> Result<()> {
        fn check<T: Element>() -> Result<()> {
            for len in [4096, 5000, 1 << 20, (1 << 20) + 3] {
                let v = lined::<T>(len)?;
                assert_eq!(v.len(), len);
                assert_eq!(v.as_ptr() as usize % LINE, 0, "{:?} {len}", T::DTYPE);
                assert!(v.iter().all(|x| *x == T::zero()));
            }
            Ok(())
        }
        check::<f32>()?;
        check::<f64>()?;
        check::<u8>()?;
        check::<i64>()?;
        check::<num_complex::Complex64>()
    }

    #[test]
    fn small_buffers_are_not_padded() -> Result<()> {
        let (vec, start) = lined::<f32>(1023)?.into_parts();
        assert_eq!((vec.len(), start), (1023, 0));
        Ok(())
    }

    #[test]
    fn the_parts_give_back_the_elements_and_their_start() -> Result<()> {
        let mut v = lined::<f64>(1024)?;
        v[1023] = 5.0;
        let copy = v.clone();
        assert_eq!((copy.len(), copy[1023]), (1024, 5.0));
        let ptr = v.as_ptr();
        let (vec, start) = v.into_parts();
        assert_eq!((vec.len() - start, vec[start + 1023]), (1024, 5.0));
        let back = HostVec::from_parts(vec, start);
        assert_eq!((back.len(), back[1023], back.as_ptr()), (1024, 5.0, ptr));
        Ok(())
    }

    #[test]
    fn an_impossible_size_names_the_size_asked_for() {
        let Err(err) = HostVec::<f64>::zeroed("Tensor::zeros", usize::MAX / 8) else {
            panic!("an impossible size was allocated");
        };
        let msg = err.to_string();
        assert!(
            msg.starts_with(&format!(
                "Tensor::zeros: cannot allocate {} elements",
                usize::MAX / 8
            )),
            "{msg}"
        );
    }
}
