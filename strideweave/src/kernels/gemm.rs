//! One `unsafe` block (docs/unsafe.md): `matrixmultiply`'s packed f32/f64 kernels, called with
//! signed (and zero) row and column strides straight from the operands' slices, writing
//! straight into the output slice at its own offset and strides (it packs what it needs
//! itself, so nothing is copied before or after the call).

use crate::kernels::num::Num;

/// `C ← A·B` for f32/f64 through `matrixmultiply` (see [`Num::gemm`]).
#[allow(unsafe_code)]
pub(crate) fn gemm_real<T: Num>(
    (m, k, n): (usize, usize, usize),
    (a, oa, rsa, csa): (&[T], i64, i64, i64),
    (b, ob, rsb, csb): (&[T], i64, i64, i64),
    (c, oc, rsc, csc): (&mut [T], i64, i64, i64),
) {
    use std::any::TypeId;
    // Every index the kernel reads, `o + i·rs + j·cs` for i < rows, j < cols, lies inside
    // the slice: check the extreme corners (the index is affine in i and j).
    let inside = |len: usize, o: i64, rows: usize, cols: usize, rs: i64, cs: i64| {
        let (r, q) = ((rows as i64 - 1) * rs, (cols as i64 - 1) * cs);
        let lo = o + r.min(0) + q.min(0);
        let hi = o + r.max(0) + q.max(0);
        lo >= 0 && hi < len as i64
    };
    assert!(inside(a.len(), oa, m, k, rsa, csa), "A inside its carrier");
    assert!(inside(b.len(), ob, k, n, rsb, csb), "B inside its carrier");
    assert!(inside(c.len(), oc, m, n, rsc, csc), "C inside its carrier");
    let (rsa, csa, rsb, csb) = (rsa as isize, csa as isize, rsb as isize, csb as isize);
    let (rsc, csc) = (rsc as isize, csc as isize);
    // One call for both element types: `$gemm` on `$t` pointers.
    macro_rules! gemm {
        ($gemm:path, $t:ty) => {
            $gemm(
                m,
                k,
                n,
                1.0,
                (a.as_ptr() as *const $t).wrapping_offset(oa as isize),
                rsa,
                csa,
                (b.as_ptr() as *const $t).wrapping_offset(ob as isize),
                rsb,
                csb,
                0.0,
                (c.as_mut_ptr() as *mut $t).wrapping_offset(oc as isize),
                rsc,
                csc,
            )
        };
    }
    // SAFETY: the asserts above prove that every element the kernel reads from `a` and `b`
    // and writes in `c` lies inside those slices; `c` is exclusively borrowed (callers pass
    // injective strides, so each element is written once; the kernel runs on this thread).
    // The pointers keep the provenance of the whole slices (`wrapping_offset` from
    // `as_ptr`), so negative strides stay in bounds.
    // beta = 0: `c` is not read. The TypeId checks make the casts identities.
    unsafe {
        if TypeId::of::<T>() == TypeId::of::<f32>() {
            gemm!(matrixmultiply::sgemm, f32);
        } else if TypeId::of::<T>() == TypeId::of::<f64>() {
            gemm!(matrixmultiply::dgemm, f64);
        } else {
            unreachable!("gemm_real is implemented for f32 and f64 only");
        }
    }
}
