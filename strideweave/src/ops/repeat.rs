//! Reductions over broadcast modes without walking them. A reduced leaf that reads the
//! operand with stride 0 (a broadcast mode, or a leaf of one) repeats each of its terms
//! its extent times, so the fold walks it once (extent 1) and the partial result of each
//! output takes the repeat `n` (the product of those extents) by one rule per reduction:
//!
//! | reduction | rule for the repeated terms |
//! | --- | --- |
//! | `Sum` | `partial · n` (integers: wrapping, so exact; floats: one rounding, not `n` additions) |
//! | `Mean` | the sum above divided by the count of terms |
//! | `Max`, `Min` (any, all) | the partial itself |
//! | `Prod` | `partial^n` by right-to-left binary exponentiation ([`power`]; integers wrap, exact) |
//! | `LogSumExp` | `partial + ln(n)`, in the wide type |
//!
//! So no reduction's time grows with a broadcast extent (`count_nonzero` and `argmax`
//! skip stride-0 leaves the same way: a count multiplies, a first index is unchanged).

use crate::dtype::Scalar;
use crate::error::Result;
use crate::kernels::int::Int;
use crate::kernels::num::Num;
use crate::tensor::Tensor;

impl Tensor {
    /// The number of elements that are not zero, as a rank-0 `i64` tensor: the count of a
    /// bool mask's `true`s (a bool has no [`sum`](Self::sum): a count is not a bool), of an
    /// integer or floating tensor's non-zero values (`-0.0` is zero, NaN is not: numpy's
    /// `count_nonzero`), of a complex tensor's values with a non-zero part. Any layout,
    /// broadcast views included (each logical element counts once per coordinate: the
    /// elements a stride-0 mode repeats are read once and their count multiplied, so a
    /// broadcast costs what its source does); every dtype but the block-scaled one
    /// (dequantize it first). Not differentiable (a count has no gradient); the result does
    /// not record.
    ///
    /// ```
    /// use strideweave::Tensor;
    /// let mask = Tensor::from_vec(vec![true, false, true, true], &"(2,2)".parse().unwrap()).unwrap();
    /// assert_eq!(mask.count_nonzero().unwrap().item::<i64>().unwrap(), 3);
    /// let x = Tensor::from_vec(vec![0.0f64, -0.0, 2.5, f64::NAN], &"4".parse().unwrap()).unwrap();
    /// assert_eq!(x.count_nonzero().unwrap().item::<i64>().unwrap(), 2);
    /// let row = Tensor::arange::<i32>(&"(3,1)".parse().unwrap()); // 0, 1, 2
    /// let b = row.broadcast_to(&"(3,4)".parse().unwrap()).unwrap();
    /// assert_eq!(b.count_nonzero().unwrap().item::<i64>().unwrap(), 8);
    /// ```
    pub fn count_nonzero(&self) -> Result<Tensor> {
        const OP: &str = "count_nonzero";
        let s = self.require_single(OP)?;
        // Without its stride-0 leaves the layout reads each distinct element once; every
        // one of them is read `n` times by the whole layout.
        let (o, l) = (s.offset as i64, s.layout.filter());
        let n = (s.layout.size() / l.size()) as i64;
        let count = s.carrier.with_host(OP, |b| {
            Ok((0..l.size() as i64)
                .filter(|&i| nonzero(b.get((o + l.eval(i)) as usize)))
                .count())
        })?;
        Ok(Tensor::scalar(count as i64 * n))
    }
}

/// Whether `v` counts for [`Tensor::count_nonzero`]: `true`, a non-zero number (NaN
/// included), a complex value with a non-zero part.
fn nonzero(v: Scalar) -> bool {
    match v {
        Scalar::Bool(b) => b,
        Scalar::ComplexF32(z) => z.re != 0.0 || z.im != 0.0,
        Scalar::ComplexF64(z) => z.re != 0.0 || z.im != 0.0,
        // A non-zero integer is a non-zero `f64`; NaN compares unequal to 0.
        other => other.to_f64() != 0.0,
    }
}

/// Sets to 1 the extents of the reduced leaves (gather stride 0) that the operand reads with
/// stride 0 (`strides`: the operand's leaf strides over the same leaves), and returns the
/// product of the extents it removed: how often each remaining term repeats (1: none).
pub(super) fn collapse(extents: &mut [i64], gather: &[i64], strides: &[i64]) -> i64 {
    let mut n = 1i64;
    for ((e, &g), &s) in extents.iter_mut().zip(gather).zip(strides) {
        if g == 0 && s == 0 && *e > 1 {
            // The extents multiply to the operand's size, which fits `i64`.
            n *= *e;
            *e = 1;
        }
    }
    n
}

/// Whether some reduced leaf of extent > 1 reads the operand with stride 0.
pub(super) fn repeats(extents: &[i64], gather: &[i64], strides: &[i64]) -> bool {
    (0..extents.len()).any(|k| gather[k] == 0 && strides[k] == 0 && extents[k] > 1)
}

/// `x^n` (`n ≥ 1`) by right-to-left binary exponentiation: for each set bit of `n`, least
/// significant first, the result so far times the current square (the first set bit takes
/// the square itself, so `x^1` is `x`, never `1 · x`); the square is squared between bits.
/// `mul` is the element type's product (wrapping for integers, so an integer power is the
/// exact product modulo 2^bits).
pub(super) fn power<T: Copy>(x: T, n: i64, mul: impl Fn(T, T) -> T) -> T {
    let (mut square, mut n, mut acc) = (x, n as u64, None::<T>);
    loop {
        if n & 1 == 1 {
            acc = Some(acc.map_or(square, |a| mul(a, square)));
        }
        n >>= 1;
        if n == 0 {
            return acc.unwrap_or(x);
        }
        square = mul(square, square);
    }
}

/// An integer sum's repeat: `v · n`, wrapping (exactly the sum of `n` copies modulo 2^bits).
pub(super) fn int_times<T: Int>(v: &mut [T], n: i64) {
    // `from_ordinal` wraps (`as`), so this is `n mod 2^bits`, which is all a wrapping product
    // needs.
    let n = T::from_ordinal(n as usize);
    v.iter_mut().for_each(|x| *x = x.wmul(n));
}

/// A floating or complex sum's repeat: `v · n` (one rounding; a complex value scales both
/// parts).
pub(super) fn num_times<T: Num>(v: &mut [T], n: i64) {
    v.iter_mut().for_each(|x| *x = x.times(n as f64));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn power_is_binary_exponentiation_and_exact_for_wrapping_integers() {
        let wmul = |a: i8, b: i8| a.wrapping_mul(b);
        for n in 1..200i64 {
            let naive = (1..n).fold(3i8, |a, _| a.wrapping_mul(3));
            assert_eq!(power(3i8, n, wmul), naive, "3^{n} wrapping");
        }
        assert_eq!(power(2.0f64, 10, |a, b| a * b), 1024.0);
        assert_eq!(power(1.5f32, 1, |a, b| a * b), 1.5);
        // 2^40 squarings of a value just above 1: no walk, a finite answer.
        let v = power(1.0f64 + 1e-15, 1 << 40, |a, b| a * b);
        assert!((v - (1.0995e-3f64).exp()).abs() < 1e-3, "{v}");
    }

    #[test]
    fn collapse_removes_only_reduced_stride_zero_leaves() {
        let mut e = [4, 3, 5, 1];
        // leaf 0: reduced, stride 0; leaf 1: kept, stride 0; leaf 2: reduced, stride 1.
        let n = collapse(&mut e, &[0, 1, 0, 0], &[0, 0, 1, 0]);
        assert_eq!((n, e), (4, [1, 3, 5, 1]));
        assert!(!repeats(&e, &[0, 1, 0, 0], &[0, 0, 1, 0]));
    }
}
