//! Buffers of zeros from zeroed allocations: every [`Element`]'s zero is all-zero bytes.

use std::alloc::Layout;

use super::Element;
use crate::budget::cannot_allocate;
use crate::error::Result;

/// `len` zeros in a new `Vec`, from a zeroed allocation (`calloc`): a large buffer comes as
/// fresh pages the system has already zeroed, so making it costs no pass over the memory and
/// each page is first touched by whoever writes it, as numpy's and ndarray's zeros are. An
/// impossible `len` is [`TooLarge`](crate::Error::TooLarge) naming `op`, as for
/// [`reserved_vec`](crate::budget::reserved_vec).
#[allow(unsafe_code)]
pub(crate) fn zeroed_vec<T: Element>(op: &'static str, len: usize) -> Result<Vec<T>> {
    let layout = Layout::array::<T>(len).map_err(|e| cannot_allocate::<T>(op, len, e))?;
    if layout.size() == 0 {
        return Ok(Vec::new());
    }
    // SAFETY: `layout` has a non-zero size (checked above).
    let ptr = unsafe { std::alloc::alloc_zeroed(layout) }.cast::<T>();
    if ptr.is_null() {
        return Err(cannot_allocate::<T>(op, len, "the allocator refused"));
    }
    // SAFETY: `ptr` is a live allocation of the global allocator with `Layout::array::<T>(len)`
    // (the alignment of `T`, `len` elements' bytes, at most `isize::MAX` bytes, as
    // `Layout::array` checks), which is the layout a `Vec<T>` of capacity `len` frees with.
    // Its bytes are all zero, and all-zero bytes are a valid `T` for every `Element` (the
    // trait is sealed; each of its types is an integer, a bool, an IEEE float or a pair of
    // floats, whose zero is all-zero bytes, as `zeroed_vec_matches_element_zero_for_every_type`
    // checks), so all `len` elements are initialised. The vector takes sole ownership.
    Ok(unsafe { Vec::from_raw_parts(ptr, len, len) })
}

#[cfg(test)]
#[allow(unsafe_code)] // reads the bytes of each element type's zero
mod tests {
    use super::*;

    #[test]
    fn zeroed_vec_matches_element_zero_for_every_type() {
        fn check<T: Element>() {
            for len in [0, 1, 7, 1 << 20] {
                // Test code (this module is `#[cfg(test)]`): at most 2^20 elements, no user
                // input; a refusal here is the failure the test reports.
                let v = zeroed_vec::<T>("test", len).unwrap();
                assert_eq!(v.len(), len);
                assert_eq!(v.capacity(), len);
                assert!(v.iter().all(|x| *x == T::zero()), "{:?}", T::DTYPE);
            }
            // SAFETY: reads the bytes of an initialised `T` (no padding in any Element type).
            let bytes = unsafe {
                std::slice::from_raw_parts(
                    (&T::zero() as *const T).cast::<u8>(),
                    std::mem::size_of::<T>(),
                )
            };
            assert!(bytes.iter().all(|&b| b == 0), "{:?}", T::DTYPE);
        }
        check::<f32>();
        check::<f64>();
        check::<i32>();
        check::<i64>();
        check::<u8>();
        check::<i8>();
        check::<bool>();
        check::<num_complex::Complex32>();
        check::<num_complex::Complex64>();
        #[cfg(feature = "half")]
        {
            check::<half::f16>();
            check::<half::bf16>();
        }
    }

    #[test]
    fn zeroed_vec_is_too_large_for_impossible_sizes() {
        // Sizes `Layout` refuses, then 2^61 bytes: a valid layout that the allocator refuses.
        for len in [usize::MAX, usize::MAX / 8 + 1, 1 << 60, 1 << 58] {
            let msg = zeroed_vec::<f64>("Tensor::zeros", len)
                .unwrap_err()
                .to_string();
            assert!(msg.starts_with("Tensor::zeros"), "{msg}");
            assert!(msg.contains("cannot allocate"), "{msg}");
            assert_eq!(
                msg.contains("the allocator refused"),
                len == 1 << 58,
                "{msg}"
            );
        }
    }
}
