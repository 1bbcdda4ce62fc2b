//! The integer element types (`i8`, `i32`, `i64`, `u8`) and their exact arithmetic:
//! addition, subtraction, multiplication and negation wrap as two's complement, division
//! truncates toward zero and reports a zero divisor instead of panicking.

use crate::dtype::Element;

/// An integer element type: what integer arithmetic and reductions run on. Integers have no
/// gradients, so nothing here meets autograd.
pub(crate) trait Int: Element {
    /// `self + o`, wrapping.
    fn wadd(self, o: Self) -> Self;
    /// `self - o`, wrapping.
    fn wsub(self, o: Self) -> Self;
    /// `self · o`, wrapping.
    fn wmul(self, o: Self) -> Self;
    /// `-self`, wrapping (`-MIN = MIN`; for `u8`, `256 - x`).
    fn wneg(self) -> Self;
    /// `self / o` truncated toward zero (`MIN / -1` wraps to `MIN`); `None` when `o` is 0.
    fn wdiv(self, o: Self) -> Option<Self>;
}

macro_rules! int {
    ($($t:ty),*) => {$(
        impl Int for $t {
            fn wadd(self, o: Self) -> Self {
                self.wrapping_add(o)
            }
            fn wsub(self, o: Self) -> Self {
                self.wrapping_sub(o)
            }
            fn wmul(self, o: Self) -> Self {
                self.wrapping_mul(o)
            }
            fn wneg(self) -> Self {
                self.wrapping_neg()
            }
            fn wdiv(self, o: Self) -> Option<Self> {
                (o != 0).then(|| self.wrapping_div(o))
            }
        }
    )*};
}

int!(i8, i32, i64, u8);

/// Runs `$body` with the type alias `$T` bound to the [`Int`] type of `$dtype`, or evaluates
/// `$other` for a dtype that has none.
macro_rules! with_int {
    ($dtype:expr, $T:ident => $body:expr, _ => $other:expr) => {
        $crate::kernels::num::dispatch!($dtype, $T => $body, _ => $other;
            I8 => i8,
            I32 => i32,
            I64 => i64,
            U8 => u8,
        )
    };
}
pub(crate) use with_int;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_arithmetic_wraps_as_twos_complement() {
        assert_eq!(127i8.wadd(1), -128);
        assert_eq!((-128i8).wsub(1), 127);
        assert_eq!(0u8.wsub(1), 255);
        assert_eq!(16i8.wmul(16), 0);
        assert_eq!(i64::MIN.wneg(), i64::MIN);
        assert_eq!(1u8.wneg(), 255);
    }

    #[test]
    fn integer_division_truncates_and_refuses_zero() {
        assert_eq!((-7i32).wdiv(2), Some(-3));
        assert_eq!(i8::MIN.wdiv(-1), Some(i8::MIN));
        assert_eq!(5u8.wdiv(0), None);
    }
}
