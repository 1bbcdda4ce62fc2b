//! Random input for element access and the storage operations (issue 11, item 7): a random
//! hierarchical placement with signed and zero strides (it may alias) over an f64 carrier,
//! a second operand of the same shape, another dtype or another shape, and a random call
//! with valid or invalid arguments. Whatever the call returns: no panic; an error's message
//! starts with the operation called and says something after it, and then neither carrier
//! changed (values, bits and version); a result equals a naive reference computed here from
//! the leaves, the strides and the offset (first mode fastest), never through the library's
//! layout algebra.
//!
//! A few thousand cases in the test command; `STRIDEWEAVE_LONG=1` runs a million.

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

use crate::hostile::config;
use strideweave::{StorageRequest, Tensor};

use crate::hostile::layouts::{Shape, Strides, placed, shape, strides};

/// The second operand: the same shape (f64, an injective placement), the same shape in
/// f32, or another shape.
#[derive(Clone, Debug)]
enum Other {
    Same(Strides),
    F32,
    Shape(Shape),
}

#[derive(Clone, Debug)]
enum Op {
    Get(i64),
    GetOrdinal(usize),
    SetOrdinal(usize, f64),
    Fill(f64),
    ToVec,
    CopyFrom,
    AddInto,
    MaterializeInto,
    MulScalarInto(f64),
    Materialize,
    Relayout,
    TransferTo,
}

impl Op {
    fn name(&self) -> &'static str {
        match self {
            Op::Get(_) => "get",
            Op::GetOrdinal(_) => "get_ordinal",
            Op::SetOrdinal(..) => "set_ordinal",
            Op::Fill(_) => "fill",
            Op::ToVec => "to_vec",
            Op::CopyFrom => "copy_from",
            Op::AddInto => "add_into",
            Op::MaterializeInto => "materialize_into",
            Op::MulScalarInto(_) => "mul_scalar_into",
            Op::Materialize => "materialize",
            Op::Relayout => "relayout",
            Op::TransferTo => "transfer_to",
        }
    }
}

fn value() -> impl Strategy<Value = f64> {
    prop_oneof![
        4 => (-8i32..8).prop_map(|v| f64::from(v) / 4.0),
        1 => Just(1e300),
        1 => Just(f64::NAN),
        1 => Just(-0.0),
    ]
}

fn ordinal() -> impl Strategy<Value = usize> {
    prop_oneof![4 => 0usize..40, 1 => Just(usize::MAX), 1 => (1usize << 62)..]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (-3i64..40).prop_map(Op::Get),
        ordinal().prop_map(Op::GetOrdinal),
        (ordinal(), value()).prop_map(|(k, v)| Op::SetOrdinal(k, v)),
        value().prop_map(Op::Fill),
        Just(Op::ToVec),
        Just(Op::CopyFrom),
        Just(Op::AddInto),
        Just(Op::MaterializeInto),
        value().prop_map(Op::MulScalarInto),
        Just(Op::Materialize),
        Just(Op::Relayout),
        Just(Op::TransferTo),
    ]
}

fn other() -> impl Strategy<Value = Other> {
    prop_oneof![3 => strides(false).prop_map(Other::Same), 1 => Just(Other::F32), 1 => shape().prop_map(Other::Shape)]
}

/// The carrier index of ordinal `k` of a placement (first leaf fastest).
fn index(extents: &[i64], strides: &[i64], offset: usize, mut k: i64) -> usize {
    let mut at = offset as i64;
    for (&e, &d) in extents.iter().zip(strides) {
        at += (k % e) * d;
        k /= e;
    }
    at as usize
}

/// A tensor's values by the naive walk of its leaves (`f64` carrier).
struct Naive {
    extents: Vec<i64>,
    strides: Vec<i64>,
    offset: usize,
}

impl Naive {
    fn of(shape: &Shape, strides: Vec<i64>, t: &Tensor) -> Naive {
        Naive {
            extents: shape.leaves(),
            strides,
            offset: t.offset(),
        }
    }
    fn size(&self) -> usize {
        self.extents.iter().product::<i64>() as usize
    }
    fn at(&self, k: usize) -> usize {
        index(&self.extents, &self.strides, self.offset, k as i64)
    }
    fn values(&self, data: &[f64]) -> Vec<u64> {
        (0..self.size())
            .map(|k| data[self.at(k)].to_bits())
            .collect()
    }
}

/// A carrier's bits and version.
fn state(t: &Tensor) -> (Vec<u64>, u64) {
    let bits = match t.dtype() {
        strideweave::DType::F32 => t
            .carrier()
            .to_vec::<f32>()
            .unwrap()
            .iter()
            .map(|x| u64::from(x.to_bits()))
            .collect(),
        _ => t
            .carrier()
            .to_vec::<f64>()
            .unwrap()
            .iter()
            .map(|x| x.to_bits())
            .collect(),
    };
    (bits, t.carrier().version())
}

fn bits(v: &[f64]) -> Vec<u64> {
    v.iter().map(|x| x.to_bits()).collect()
}

/// `before` with the indices `naive` reaches overwritten by `values` (ordinal order).
fn written(before: &[u64], naive: &Naive, values: &[u64]) -> Vec<u64> {
    let mut out = before.to_vec();
    for (k, &v) in values.iter().enumerate() {
        out[naive.at(k)] = v;
    }
    out
}

fn check(shape: &Shape, a_strides: &Strides, other: &Other, op: &Op) -> Result<(), TestCaseError> {
    let e = shape.leaves();
    let da = a_strides.of(&e, true);
    let a = placed(shape.layout(&da), (1, 2), |k| 0.25 + k as f64);
    let na = Naive::of(shape, da, &a);
    let (b, nb) = match other {
        Other::Same(s) => {
            let db = s.of(&e, false);
            let b = placed(shape.layout(&db), (2, 1), |k| -(k as f64) - 0.5);
            let nb = Naive::of(shape, db, &b);
            (b, Some(nb))
        }
        Other::F32 => {
            let n = shape.size() as usize;
            let b = Tensor::from_vec(
                (0..n).map(|k| k as f32).collect(),
                &shape.layout(&vec![0; e.len()]).shape().clone(),
            )
            .unwrap();
            (b, None)
        }
        Other::Shape(s) => {
            let compact = Strides::Permuted {
                keys: vec![0; 6],
                flips: vec![false; 6],
                zero: vec![false; 6],
                gap: 1,
            };
            let db = compact.of(&s.leaves(), false);
            let b = placed(s.layout(&db), (0, 0), |k| k as f64 + 100.0);
            // A random shape may be the same one: then it is a valid operand.
            let nb = (b.shape() == a.shape()).then(|| Naive::of(s, db, &b));
            (b, nb)
        }
    };
    let (sa, sb) = (state(&a), state(&b));
    let before_a: Vec<f64> = a.carrier().to_vec().unwrap();
    let name = op.name();
    let result: strideweave::Result<Option<Vec<u64>>> = match op {
        Op::Get(i) => a
            .get(&(*i).into())
            .map(|v| Some(vec![v.to_f64().to_bits()])),
        Op::GetOrdinal(k) => a.get_ordinal(*k).map(|v| Some(vec![v.to_f64().to_bits()])),
        Op::SetOrdinal(k, v) => a.set_ordinal(*k, *v).map(|()| None),
        Op::Fill(v) => a.fill(*v).map(|()| None),
        Op::ToVec => a.to_vec::<f64>().map(|v| Some(bits(&v))),
        Op::CopyFrom => a.copy_from(&b).map(|()| None),
        Op::AddInto => b.add_into(&b, &a).map(|()| None),
        Op::MaterializeInto => b.materialize_into(&a).map(|()| None),
        Op::MulScalarInto(s) => b.mul_scalar_into(*s, &a).map(|()| None),
        Op::Materialize => a
            .materialize()
            .and_then(|t| t.to_vec::<f64>())
            .map(|v| Some(bits(&v))),
        Op::Relayout => a
            .relayout(&strideweave::Layout::compact(a.shape()))
            .and_then(|t| t.to_vec::<f64>())
            .map(|v| Some(bits(&v))),
        Op::TransferTo => a
            .transfer_to(&StorageRequest::host())
            .and_then(|t| t.to_vec::<f64>())
            .map(|v| Some(bits(&v))),
    };
    match result {
        Err(err) => {
            let msg = err.to_string();
            prop_assert!(
                msg.starts_with(&format!("{name}: ")) && msg.len() > name.len() + 8,
                "{msg}"
            );
            prop_assert_eq!(&state(&a), &sa, "{} changed its destination: {}", name, msg);
            prop_assert_eq!(&state(&b), &sb, "{} changed its source: {}", name, msg);
            if let Op::GetOrdinal(k) = op {
                prop_assert!(*k >= na.size(), "{msg}");
            }
        }
        Ok(read) => {
            prop_assert_eq!(&state(&b), &sb, "{} changed its source", name);
            let now = state(&a).0;
            let data = bits(&before_a);
            let want_now = match op {
                Op::Get(i) => {
                    prop_assert!((0..na.size() as i64).contains(i));
                    prop_assert_eq!(read, Some(vec![data[na.at(*i as usize)]]));
                    data
                }
                Op::GetOrdinal(k) => {
                    prop_assert_eq!(read, Some(vec![data[na.at(*k)]]));
                    data
                }
                Op::ToVec | Op::Materialize | Op::Relayout | Op::TransferTo => {
                    prop_assert_eq!(read, Some(na.values(&before_a)));
                    data
                }
                Op::SetOrdinal(k, v) => written(&data, &na, &[])
                    .into_iter()
                    .enumerate()
                    .map(|(i, x)| if i == na.at(*k) { v.to_bits() } else { x })
                    .collect(),
                Op::Fill(v) => written(&data, &na, &vec![v.to_bits(); na.size()]),
                Op::CopyFrom | Op::MaterializeInto => {
                    let nb = nb
                        .as_ref()
                        .ok_or_else(|| TestCaseError::fail("another shape or dtype accepted"))?;
                    let src: Vec<f64> = b.carrier().to_vec().unwrap();
                    written(&data, &na, &nb.values(&src))
                }
                Op::AddInto | Op::MulScalarInto(_) => {
                    let nb = nb
                        .as_ref()
                        .ok_or_else(|| TestCaseError::fail("another shape or dtype accepted"))?;
                    let src: Vec<f64> = b.carrier().to_vec().unwrap();
                    let f = |x: f64| match op {
                        Op::MulScalarInto(s) => x * s,
                        _ => x + x,
                    };
                    let vals: Vec<u64> =
                        (0..nb.size()).map(|k| f(src[nb.at(k)]).to_bits()).collect();
                    written(&data, &na, &vals)
                }
            };
            prop_assert_eq!(
                now,
                want_now,
                "{} wrote other values than the reference",
                name
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(3000))]

    #[test]
    fn access_and_storage_operations_on_random_input_are_errors_or_match_a_naive_reference(
        shape in shape(),
        a in strides(true),
        other in other(),
        op in op(),
    ) {
        check(&shape, &a, &other, &op)?;
    }
}
