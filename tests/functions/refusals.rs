//! Random inputs to every fallible function of the family (dtypes, shapes, modes, bounds,
//! conditions): each call returns a value or an error that starts with the operation's
//! name — never a panic — and an error leaves every operand's carrier untouched.

use proptest::prelude::*;
use strideweave::{DType, Scalar, Shape, Tensor};

const DTYPES: [DType; 7] = [
    DType::F32,
    DType::F64,
    DType::I32,
    DType::I64,
    DType::U8,
    DType::Bool,
    DType::ComplexF64,
];

fn tensor(dtype: DType, shape: &Shape, seed: u64) -> Tensor {
    let n = shape.size();
    let v: Vec<f64> = (0..n)
        .map(|i| ((i as u64 * 2654435761 + seed) % 13) as f64 - 6.0)
        .collect();
    Tensor::from_vec(v, shape).unwrap().to_dtype(dtype).unwrap()
}

fn check(
    op: &str,
    result: strideweave::Result<Tensor>,
    operands: &[&Tensor],
    before: &[Vec<Scalar>],
) {
    if let Err(e) = result {
        let text = e.to_string();
        assert!(text.starts_with(&format!("{op}: ")), "{op}: {text}");
        for (t, b) in operands.iter().zip(before) {
            assert_eq!(&t.to_scalars().unwrap(), b, "{op} changed an operand");
            assert_eq!(t.carrier().version(), 0, "{op} wrote an operand");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn every_function_refuses_cleanly_and_leaves_operands_untouched(
        da in 0usize..7, db in 0usize..7, extents in prop::collection::vec(1i64..4, 1..4),
        other in prop::collection::vec(1i64..4, 1..4), dim in -5i64..5, p in -3.0f64..3.0,
        lo in -5.0f64..5.0, hi in -5.0f64..5.0, seed in 0u64..1000,
    ) {
        let sa: Shape = format!("({})", extents.iter().map(i64::to_string).collect::<Vec<_>>().join(",")).parse().unwrap();
        let sb: Shape = format!("({})", other.iter().map(i64::to_string).collect::<Vec<_>>().join(",")).parse().unwrap();
        let a = tensor(DTYPES[da], &sa, seed);
        let b = tensor(DTYPES[db], &sb, seed + 1);
        let c = tensor(DType::Bool, &sa, seed + 2);
        let before = [a.to_scalars().unwrap(), b.to_scalars().unwrap(), c.to_scalars().unwrap()];
        let unary: [(&str, strideweave::Result<Tensor>); 13] = [
            ("exp", a.exp()), ("log", a.log()), ("sqrt", a.sqrt()), ("abs", a.abs()),
            ("sin", a.sin()), ("cos", a.cos()), ("tanh", a.tanh()), ("sigmoid", a.sigmoid()),
            ("relu", a.relu()), ("silu", a.silu()), ("gelu", a.gelu()), ("powf", a.powf(p)),
            ("clamp", a.clamp(lo, hi)),
        ];
        for (op, r) in unary {
            check(op, r, &[&a], &before[..1]);
        }
        let along: [(&str, strideweave::Result<Tensor>); 5] = [
            ("softmax", a.softmax(dim)), ("log_softmax", a.log_softmax(dim)),
            ("logsumexp", a.logsumexp(dim)), ("argmax", a.argmax(dim)), ("argmin", a.argmin(dim)),
        ];
        for (op, r) in along {
            check(op, r, &[&a], &before[..1]);
        }
        let pairs: [(&str, strideweave::Result<Tensor>); 9] = [
            ("maximum", a.maximum(&b)), ("minimum", a.minimum(&b)), ("pow", a.pow(&b)),
            ("eq", a.eq(&b)), ("ne", a.ne(&b)), ("lt", a.lt(&b)), ("le", a.le(&b)),
            ("gt", a.gt(&b)), ("ge", a.ge(&b)),
        ];
        for (op, r) in pairs {
            check(op, r, &[&a, &b], &before[..2]);
        }
        check("lt_scalar", a.lt_scalar(p), &[&a], &before[..1]);
        check("eq_scalar", a.eq_scalar(Scalar::I64(seed as i64 % 7)), &[&a], &before[..1]);
        check("where_cond", c.where_cond(&a, &b), &[&c, &a, &b], &[before[2].clone(), before[0].clone(), before[1].clone()]);
        check("where_cond", a.where_cond(&a, &a), &[&a], &before[..1]);
        check("to_dtype", a.to_dtype(DTYPES[db]), &[&a], &before[..1]);
        check("real", a.real(), &[&a], &before[..1]);
        check("imag", a.imag(), &[&a], &before[..1]);
        check("map", a.map(|x: f32| x * 2.0), &[&a], &before[..1]);
    }
}
