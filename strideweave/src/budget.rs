//! The work and memory one call may spend on a user's input: exact fallbacks that
//! enumerate stop at [`EXACT_STEPS`] and answer with [`Error::TooLarge`]; buffers whose length
//! comes from the user are reserved fallibly, so an impossible allocation is an error too.

use std::mem::MaybeUninit;

use crate::error::{Error, Result};

/// The most steps an exact fallback (an enumeration of coordinates or of coefficient vectors)
/// may take: 2^20, a few milliseconds in a release build.
pub(crate) const EXACT_STEPS: u128 = 1 << 20;

/// The error of an exact check that would take `steps` steps: `{op}: {what} is too large to
/// decide exactly (…)`.
pub(crate) fn too_large(op: &'static str, what: impl std::fmt::Display, steps: u128) -> Error {
    Error::TooLarge {
        op,
        detail: format!(
            "{what} is too large to decide exactly: the exact check takes {steps} steps, more than the budget of {EXACT_STEPS}"
        ),
    }
}

/// `len` copies of `value` in a new `Vec`, or an error naming `op` when that many elements
/// cannot be allocated (instead of a capacity-overflow panic or an allocation abort).
pub(crate) fn filled_vec<T: Clone>(op: &'static str, value: T, len: usize) -> Result<Vec<T>> {
    let mut v = reserved_vec(op, len)?;
    v.resize(len, value);
    Ok(v)
}

/// An empty `Vec` with room for `len` elements, or an error naming `op` when that many
/// elements cannot be allocated.
pub(crate) fn reserved_vec<T>(op: &'static str, len: usize) -> Result<Vec<T>> {
    let mut v = Vec::new();
    v.try_reserve_exact(len)
        .map_err(|e| cannot_allocate::<T>(op, len, e))?;
    Ok(v)
}

/// `{op}: cannot allocate {len} elements of {size} bytes each: {why}`.
pub(crate) fn cannot_allocate<T>(
    op: &'static str,
    len: usize,
    why: impl std::fmt::Display,
) -> Error {
    Error::TooLarge {
        op,
        detail: format!(
            "cannot allocate {len} elements of {} bytes each: {why}",
            std::mem::size_of::<T>()
        ),
    }
}

/// A new `Vec` of `len` elements that `write` writes straight into its reserved capacity,
/// which is never zero-filled first: the result buffers of the elementwise engine, of
/// `materialize` and of `to_vec` are then touched once, by the kernel, as a `collect`ed
/// `Vec` is (filling first cost a whole extra pass over the new memory: 1.17× ndarray's
/// time on a fresh 4096² `add`). An impossible `len` is [`Error::TooLarge`] naming `op`, as
/// for [`reserved_vec`]; an error from `write` is returned and the buffer dropped unread.
///
/// # Safety
///
/// When `write` returns `Ok`, it has written every one of the `len` elements of the slice it
/// was given.
#[allow(unsafe_code)]
pub(crate) unsafe fn written_vec<T>(
    op: &'static str,
    len: usize,
    write: impl FnOnce(&mut [MaybeUninit<T>]) -> Result<()>,
) -> Result<Vec<T>> {
    let mut v = reserved_vec(op, len)?;
    write(&mut v.spare_capacity_mut()[..len])?;
    // SAFETY: `reserved_vec` reserved room for `len` elements (the slice above would have
    // panicked otherwise), and `write` returned `Ok`, so by the caller's contract all `len`
    // of them are initialised values of `T`: the first `len` slots of the buffer may become
    // the vector's elements. A panic or an error above returns before this line, dropping a
    // vector of length 0 (nothing uninitialised is ever read or dropped).
    unsafe { v.set_len(len) };
    Ok(v)
}

/// `x` seen as possibly-uninitialised values, so that one copy kernel (generic over one
/// element type) can copy from it into the spare capacity of a [`written_vec`].
#[allow(unsafe_code)]
pub(crate) fn as_uninit<T: Copy>(x: &[T]) -> &[MaybeUninit<T>] {
    // SAFETY: `MaybeUninit<T>` has the size, alignment and ABI of `T` (it is
    // `repr(transparent)`), and every initialised `T` is a valid `MaybeUninit<T>`; the slice
    // is shared, so nothing can write an uninitialised value through it into `x`. Same
    // pointer, same length, same lifetime.
    unsafe { std::slice::from_raw_parts(x.as_ptr().cast::<MaybeUninit<T>>(), x.len()) }
}

#[cfg(test)]
#[allow(unsafe_code)] // exercises the two functions above
mod tests {
    use super::*;

    #[test]
    fn written_vec_holds_what_write_wrote() {
        // SAFETY: the closure writes all 5 elements before returning Ok.
        let v = unsafe {
            written_vec::<u64>("test", 5, |out| {
                for (k, x) in out.iter_mut().enumerate() {
                    x.write(k as u64 * 3);
                }
                Ok(())
            })
        };
        assert_eq!(v.unwrap(), [0, 3, 6, 9, 12]);
        // SAFETY: zero elements to write.
        let empty = unsafe { written_vec::<f32>("test", 0, |_| Ok(())) };
        assert!(empty.unwrap().is_empty());
    }

    #[test]
    fn written_vec_returns_the_error_of_write_and_too_large_for_impossible_sizes() {
        // SAFETY: `write` returns Err, so nothing is claimed initialised.
        let err = unsafe {
            written_vec::<u8>("test", 4, |_| {
                Err(Error::TooLarge {
                    op: "inner",
                    detail: "refused".into(),
                })
            })
        };
        assert!(err.unwrap_err().to_string().starts_with("inner"));
        // SAFETY: never reached: the reservation fails first.
        let huge = unsafe { written_vec::<u64>("Tensor::add", usize::MAX / 4, |_| Ok(())) };
        let msg = huge.unwrap_err().to_string();
        assert!(msg.starts_with("Tensor::add"), "{msg}");
        assert!(msg.contains("cannot allocate"), "{msg}");
    }

    #[test]
    fn as_uninit_keeps_every_element() {
        let x = [1.5f32, -2.0, 3.25];
        let u = as_uninit(&x);
        assert_eq!(u.len(), 3);
        // SAFETY: each element came from an initialised f32.
        let back: Vec<f32> = u.iter().map(|v| unsafe { v.assume_init() }).collect();
        assert_eq!(back, x);
    }
}
