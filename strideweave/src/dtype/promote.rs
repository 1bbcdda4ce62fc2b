//! The promotion rule of mixed element types (the Shaped Types document's `ProductElement`):
//! one rule, [`DType::promote`], and its table.

use super::DType;
use crate::error::{Error, Result};

/// What a dtype holds exactly, for the promotion rule: a class and a width.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    /// Signed or unsigned integers of `bits` value bits (sign excluded); `signed`.
    Int { bits: u32, signed: bool },
    /// Reals with `mantissa` significant bits and `exp` exponent bits; complex when `complex`.
    Float {
        mantissa: u32,
        exp: u32,
        complex: bool,
    },
}

/// The class and width of `d` (`None`: bool and block-scaled dtypes, which do not promote).
fn kind(d: DType) -> Option<Kind> {
    let int = |bits, signed| Some(Kind::Int { bits, signed });
    let float = |mantissa, exp| {
        let complex = d.is_complex();
        Some(Kind::Float {
            mantissa,
            exp,
            complex,
        })
    };
    match d {
        DType::I8 => int(7, true),
        DType::U8 => int(8, false),
        DType::I32 => int(31, true),
        DType::I64 => int(63, true),
        DType::F32 | DType::ComplexF32 => float(24, 8),
        DType::F64 | DType::ComplexF64 => float(53, 11),
        #[cfg(feature = "half")]
        DType::F16 => float(11, 5),
        #[cfg(feature = "half")]
        DType::BF16 => float(8, 8),
        _ => None,
    }
}

/// Whether every value of `from` is a value of `to`.
fn holds(to: Kind, from: Kind) -> bool {
    match (to, from) {
        (
            Kind::Int {
                bits: tb,
                signed: ts,
            },
            Kind::Int {
                bits: fb,
                signed: fs,
            },
        ) => (ts || !fs) && tb >= fb,
        // An integer of b value bits needs b significant bits (and the exponent range, which
        // every float here has for 63 bits but f16: 2^15 at most).
        (Kind::Float { mantissa, exp, .. }, Kind::Int { bits, .. }) => {
            mantissa >= bits && (1u32 << (exp - 1)) > bits
        }
        (Kind::Int { .. }, Kind::Float { .. }) => false,
        (
            Kind::Float {
                mantissa: tm,
                exp: te,
                complex: tc,
            },
            Kind::Float {
                mantissa: fm,
                exp: fe,
                complex: fc,
            },
        ) => tm >= fm && te >= fe && (tc || !fc),
    }
}

/// Every dtype promotion may pick, narrowest first within each class.
const CANDIDATES: &[DType] = &[
    DType::I8,
    DType::U8,
    DType::I32,
    DType::I64,
    #[cfg(feature = "half")]
    DType::BF16,
    #[cfg(feature = "half")]
    DType::F16,
    DType::F32,
    DType::F64,
    DType::ComplexF32,
    DType::ComplexF64,
];

impl DType {
    /// The dtype of an operation on elements of dtypes `a` and `b` (the document's
    /// `ProductElement[L, R]`): **the narrowest dtype that holds every value of both exactly**;
    /// when none does, a `Type` error naming both. Bool mixes with nothing (its arithmetic is
    /// logical), and the block-scaled dtype with nothing (`dequantize` first). Equal dtypes
    /// give themselves. The rule never loses a value, so `i64` with any float is refused
    /// (numpy would round to `f64`): convert explicitly first.
    ///
    /// | | i8 | u8 | i32 | i64 | f32 | f64 | complex64 | complex128 |
    /// | --- | --- | --- | --- | --- | --- | --- | --- | --- |
    /// | **i8** | i8 | i32 | i32 | i64 | f32 | f64 | complex64 | complex128 |
    /// | **u8** | i32 | u8 | i32 | i64 | f32 | f64 | complex64 | complex128 |
    /// | **i32** | i32 | i32 | i32 | i64 | f64 | f64 | complex128 | complex128 |
    /// | **i64** | i64 | i64 | i64 | i64 | — | — | — | — |
    /// | **f32** | f32 | f32 | f64 | — | f32 | f64 | complex64 | complex128 |
    /// | **f64** | f64 | f64 | f64 | — | f64 | f64 | complex128 | complex128 |
    /// | **complex64** | complex64 | complex64 | complex128 | — | complex64 | complex128 | complex64 | complex128 |
    /// | **complex128** | complex128 | complex128 | complex128 | — | complex128 | complex128 | complex128 | complex128 |
    ///
    /// (— : an error. `u8` with `i8` is `i32`, there being no `i16`.) With the `half`
    /// feature: `f16`/`bf16` with `i8`/`u8` give themselves, with each other `f32`, with
    /// `f32`/`f64`/complex the wider float; with `i32` `f64`.
    ///
    /// Binary arithmetic (`add`, `sub`, `mul`, `div` and their operators) on two dtypes
    /// converts the other operand into this dtype first (a fresh compact copy, recorded for
    /// gradients: the cotangent converts back, a complex one to its real part).
    ///
    /// ```
    /// use strideweave::DType;
    /// assert_eq!(DType::promote(DType::I8, DType::U8).unwrap(), DType::I32);
    /// assert_eq!(DType::promote(DType::I32, DType::F32).unwrap(), DType::F64);
    /// assert_eq!(DType::promote(DType::F64, DType::ComplexF32).unwrap(), DType::ComplexF64);
    /// let err = DType::promote(DType::I64, DType::F64).unwrap_err();
    /// assert_eq!(err.to_string(),
    ///     "promote: expected two dtypes that one dtype holds exactly, found i64 and f64 (no dtype holds every value of both; convert one explicitly)");
    /// ```
    pub fn promote(a: DType, b: DType) -> Result<DType> {
        DType::promote_as("promote", a, b)
    }

    /// [`promote`](DType::promote) with the calling operation's name in the error.
    pub(crate) fn promote_as(op: &'static str, a: DType, b: DType) -> Result<DType> {
        if a == b {
            return Ok(a);
        }
        let refuse = |why: &str| Error::WrongType {
            op,
            expected: "two dtypes that one dtype holds exactly".into(),
            found: format!("{a} and {b} ({why})"),
        };
        let (Some(ka), Some(kb)) = (kind(a), kind(b)) else {
            return Err(refuse(
                "bool mixes with no other dtype, and a block-scaled tensor must be dequantized first",
            ));
        };
        CANDIDATES
            .iter()
            .copied()
            .find(|&d| kind(d).is_some_and(|k| holds(k, ka) && holds(k, kb)))
            .ok_or_else(|| refuse("no dtype holds every value of both; convert one explicitly"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn promotion_table_is_symmetric_and_as_documented() {
        use DType::*;
        let names = [I8, U8, I32, I64, F32, F64, ComplexF32, ComplexF64];
        let [i8, u8, i32, i64, f32, f64, c64, c128] = names.map(Some);
        let no = None;
        let table: [[Option<DType>; 8]; 8] = [
            [i8, i32, i32, i64, f32, f64, c64, c128],
            [i32, u8, i32, i64, f32, f64, c64, c128],
            [i32, i32, i32, i64, f64, f64, c128, c128],
            [i64, i64, i64, i64, no, no, no, no],
            [f32, f32, f64, no, f32, f64, c64, c128],
            [f64, f64, f64, no, f64, f64, c128, c128],
            [c64, c64, c128, no, c64, c128, c64, c128],
            [c128, c128, c128, no, c128, c128, c128, c128],
        ];
        for (i, &a) in names.iter().enumerate() {
            for (j, &b) in names.iter().enumerate() {
                let got = DType::promote(a, b).ok();
                assert_eq!(got, table[i][j], "{a} with {b}");
                assert_eq!(got, DType::promote(b, a).ok(), "{a} with {b}: symmetric");
            }
            let e = DType::promote(a, Bool).unwrap_err().to_string();
            assert!(e.contains(&a.to_string()) && e.contains("bool"), "{e}");
        }
        assert_eq!(DType::promote(Bool, Bool).unwrap(), Bool);
    }

    #[cfg(feature = "half")]
    #[test]
    fn promotion_of_half_dtypes() {
        use DType::*;
        assert_eq!(DType::promote(F16, U8).unwrap(), F16);
        assert_eq!(DType::promote(BF16, I8).unwrap(), BF16);
        assert_eq!(DType::promote(F16, BF16).unwrap(), F32);
        assert_eq!(DType::promote(F16, I32).unwrap(), F64);
        assert_eq!(DType::promote(BF16, ComplexF32).unwrap(), ComplexF32);
    }
}
