//! The work and memory one call may spend on a user's input (issue 11): exact fallbacks that
//! enumerate stop at [`EXACT_STEPS`] and answer with [`Error::TooLarge`]; buffers whose length
//! comes from the user are reserved fallibly, so an impossible allocation is an error too.

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
    v.try_reserve_exact(len).map_err(|e| Error::TooLarge {
        op,
        detail: format!(
            "cannot allocate {len} elements of {} bytes each: {e}",
            std::mem::size_of::<T>()
        ),
    })?;
    Ok(v)
}
