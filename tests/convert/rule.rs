//! The casting rule of `Scalar::cast` checked over random scalars × dtypes against a
//! reference written from the rule's text: a value converts when it is representable, and
//! then it round-trips exactly (a narrower float: it is the nearest one and finite unless the
//! value was infinite or nan); otherwise `cast` is `None` and `set` a `NotCastable` error.

use proptest::prelude::*;
use strideweave::{Complex32, Complex64, DType, Error, Scalar, Tensor, shape};

/// The dtypes a scalar can be written as.
const DTYPES: [DType; 9] = [
    DType::F32,
    DType::F64,
    DType::I32,
    DType::I64,
    DType::U8,
    DType::I8,
    DType::Bool,
    DType::ComplexF32,
    DType::ComplexF64,
];

/// Floats near every boundary the rule has: integral and fractional, the i8/u8/i32/i64 and
/// f32 limits, 2^24 ± 1, 2^53 ± 1, infinities and nan.
fn float() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<f64>(),
        (-300i64..300).prop_map(|i| i as f64),
        (-300i64..300).prop_map(|i| i as f64 + 0.5),
        (0u32..64, -2i64..=2, any::<bool>()).prop_map(|(e, d, neg)| {
            let v = 2f64.powi(e as i32) + d as f64;
            if neg { -v } else { v }
        }),
        Just(f64::from(f32::MAX)),
        Just(f64::from(f32::MAX) * 1.0000001),
        Just(1e300),
        Just(f64::INFINITY),
        Just(f64::NEG_INFINITY),
        Just(f64::NAN),
    ]
}

/// Integers near the same boundaries, and anywhere.
fn int() -> impl Strategy<Value = i64> {
    prop_oneof![
        any::<i64>(),
        -300i64..300,
        (0u32..63, -2i64..=2, any::<bool>()).prop_map(|(e, d, neg)| {
            let v = (1i64 << e).saturating_add(d);
            if neg { -v } else { v }
        }),
        Just(i64::MIN),
        Just(i64::MAX),
    ]
}

fn scalar() -> impl Strategy<Value = Scalar> {
    prop_oneof![
        float().prop_map(Scalar::F64),
        float().prop_map(|v| Scalar::F32(v as f32)),
        int().prop_map(Scalar::I64),
        int().prop_map(|v| Scalar::I32(v as i32)),
        any::<u8>().prop_map(Scalar::U8),
        any::<i8>().prop_map(Scalar::I8),
        any::<bool>().prop_map(Scalar::Bool),
        (float(), prop_oneof![Just(0.0), float()])
            .prop_map(|(re, im)| Scalar::ComplexF64(Complex64::new(re, im))),
        (float(), prop_oneof![Just(0.0), float()])
            .prop_map(|(re, im)| Scalar::ComplexF32(Complex32::new(re as f32, im as f32))),
    ]
}

/// A scalar's exact value: an integer, or a complex of two floats (a real has im = 0), or a
/// bool.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Exact {
    Int(i128),
    Real(f64, f64),
    Bool(bool),
}

fn exact(s: Scalar) -> Exact {
    match s {
        Scalar::I64(v) => Exact::Int(v.into()),
        Scalar::I32(v) => Exact::Int(v.into()),
        Scalar::U8(v) => Exact::Int(v.into()),
        Scalar::I8(v) => Exact::Int(v.into()),
        Scalar::F64(v) => Exact::Real(v, 0.0),
        Scalar::F32(v) => Exact::Real(v.into(), 0.0),
        Scalar::ComplexF64(v) => Exact::Real(v.re, v.im),
        Scalar::ComplexF32(v) => Exact::Real(v.re.into(), v.im.into()),
        Scalar::Bool(v) => Exact::Bool(v),
        other => panic!("not generated: {other:?}"),
    }
}

/// Whether integer `i` is a float with `mantissa` significant bits (leading one included) and
/// largest finite value `max`: its odd part fits the mantissa.
fn int_fits_float(i: i128, mantissa: u32, max: f64) -> bool {
    if i == 0 {
        return true;
    }
    let a = i.unsigned_abs();
    let odd = a >> a.trailing_zeros();
    (128 - odd.leading_zeros()) <= mantissa && (a as f64) <= max
}

/// The range of each integer dtype.
fn int_range(d: DType) -> Option<(i128, i128)> {
    Some(match d {
        DType::I64 => (i64::MIN.into(), i64::MAX.into()),
        DType::I32 => (i32::MIN.into(), i32::MAX.into()),
        DType::U8 => (0, 255),
        DType::I8 => (-128, 127),
        _ => return None,
    })
}

/// The reference: what the rule says `s.cast(d)` is, as an exact value (None: refused).
/// Float results narrower than the source are checked separately (round to nearest).
fn reference(s: Scalar, d: DType) -> Option<Exact> {
    if s.dtype() == d {
        return Some(exact(s));
    }
    let complex_target = matches!(d, DType::ComplexF32 | DType::ComplexF64);
    let (mantissa, max) = match d {
        DType::F32 | DType::ComplexF32 => (24, f64::from(f32::MAX)),
        _ => (53, f64::MAX),
    };
    match (exact(s), d) {
        (Exact::Bool(_), _) | (_, DType::Bool) => None,
        (Exact::Int(i), _) if int_range(d).is_some() => {
            let (lo, hi) = int_range(d).unwrap();
            (lo <= i && i <= hi).then_some(Exact::Int(i))
        }
        (Exact::Int(i), _) => {
            int_fits_float(i, mantissa, max).then_some(Exact::Real(i as f64, 0.0))
        }
        (Exact::Real(_, im), _) if !complex_target && im != 0.0 => None,
        (Exact::Real(re, _), _) if int_range(d).is_some() => {
            let (lo, hi) = int_range(d).unwrap();
            let integral = re.is_finite() && re.fract() == 0.0;
            (integral && lo as f64 <= re && re <= hi as f64 && (re as i128) <= hi)
                .then_some(Exact::Int(re as i128))
        }
        (Exact::Real(re, im), _) => {
            let narrow = |v: f64| {
                if mantissa == 24 {
                    let f = v as f32;
                    (f.is_finite() || !v.is_finite()).then_some(f64::from(f))
                } else {
                    Some(v)
                }
            };
            Some(Exact::Real(narrow(re)?, narrow(im)?))
        }
    }
}

/// Exact values compared with nan equal to nan and -0 distinct from +0 only in floats.
fn same(a: Exact, b: Exact) -> bool {
    match (a, b) {
        (Exact::Real(a, ai), Exact::Real(b, bi)) => {
            let eq = |x: f64, y: f64| x == y || (x.is_nan() && y.is_nan());
            eq(a, b) && eq(ai, bi)
        }
        _ => a == b,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        if std::env::var_os("STRIDEWEAVE_LONG").is_some() { 2_000_000 } else { 4_000 }
    ))]

    #[test]
    fn cast_follows_the_rule_and_set_agrees(s in scalar(), di in 0usize..DTYPES.len()) {
        let d = DTYPES[di];
        let got = s.cast(d);
        let want = reference(s, d);
        match (got, want) {
            (Some(g), Some(w)) => {
                prop_assert_eq!(g.dtype(), d);
                prop_assert!(same(exact(g), w), "{:?} as {}: got {:?}, rule says {:?}", s, d, g, w);
            }
            (None, None) => {}
            _ => prop_assert!(false, "{:?} as {}: got {:?}, rule says {:?}", s, d, got, want),
        }
        // set and fill apply the same rule; a refusal leaves the carrier untouched.
        let t = Tensor::zeros_of(d, &shape!(2)).unwrap();
        let before = t.carrier().version();
        match (t.set_ordinal(1, s), got) {
            (Ok(()), Some(g)) => prop_assert!(same(exact(t.get_ordinal(1).unwrap()), exact(g))),
            (Err(e @ Error::NotCastable { .. }), None) => {
                let msg = e.to_string();
                prop_assert!(msg.starts_with("set_ordinal: "), "{}", msg);
                prop_assert!(msg.contains(&d.to_string()), "{}", msg);
                prop_assert_eq!(t.carrier().version(), before);
            }
            (r, g) => prop_assert!(false, "set_ordinal {:?} as {}: {:?} vs cast {:?}", s, d, r, g),
        }
        prop_assert_eq!(t.fill(s).is_ok(), got.is_some());
    }
}
