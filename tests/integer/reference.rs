//! Every integer dtype and every operation against a naive reference (`get_ordinal` per
//! element, Rust's wrapping arithmetic), over random hierarchical layouts with signed and
//! zero strides (reversed and broadcast operands), into fresh tensors and into strided
//! destinations.

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use strideweave::{Carrier, Element, Layout, Shape, Tensor};

/// The reference arithmetic: Rust's own wrapping operations.
trait W: Element + Default {
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    fn mul(self, o: Self) -> Self;
    fn neg(self) -> Self;
    fn div(self, o: Self) -> Self;
    fn from_bits(b: u64) -> Self;
    fn to_i64(self) -> i64;
}

macro_rules! w {
    ($($t:ty),*) => {$(
        impl W for $t {
            fn add(self, o: Self) -> Self { self.wrapping_add(o) }
            fn sub(self, o: Self) -> Self { self.wrapping_sub(o) }
            fn mul(self, o: Self) -> Self { self.wrapping_mul(o) }
            fn neg(self) -> Self { self.wrapping_neg() }
            fn div(self, o: Self) -> Self { self.wrapping_div(o) }
            fn from_bits(b: u64) -> Self { b as $t }
            fn to_i64(self) -> i64 { self as i64 }
        }
    )*};
}
w!(i8, i32, i64, u8);

/// A shape of one to three top-level modes, each a leaf or a pair of leaves, with two
/// stride choices per leaf (one per operand) in `-4..=4`.
#[derive(Clone, Debug)]
struct Case {
    modes: Vec<Vec<i64>>,
    strides: [Vec<i64>; 2],
    bits: [Vec<u64>; 2],
    summed: Vec<bool>,
    scalar: u64,
}

fn case() -> impl Strategy<Value = Case> {
    let mode = prop_oneof![
        (1i64..5).prop_map(|e| vec![e]),
        (1i64..4, 1i64..4).prop_map(|(a, b)| vec![a, b])
    ];
    prop::collection::vec(mode, 1..4).prop_flat_map(|modes| {
        let leaves: usize = modes.iter().map(Vec::len).sum();
        let stride = || prop::collection::vec(-4i64..=4, leaves);
        // small values (zeros among them, to meet division by zero) and arbitrary bits
        let value = prop_oneof![0u64..4, any::<u64>()];
        let values = move || prop::collection::vec(value.clone(), 64);
        let rank = modes.len();
        (
            Just(modes),
            stride(),
            stride(),
            values(),
            values(),
            prop::collection::vec(any::<bool>(), rank),
            prop_oneof![Just(0u64), 1u64..200, any::<u64>()],
        )
            .prop_map(|(modes, s0, s1, b0, b1, summed, scalar)| Case {
                modes,
                strides: [s0, s1],
                bits: [b0, b1],
                summed,
                scalar,
            })
    })
}

fn tuple(modes: &[Vec<i64>], leaves: &[i64]) -> String {
    let mut it = leaves.iter();
    let parts: Vec<String> = modes
        .iter()
        .map(|m| {
            let v: Vec<String> = m.iter().map(|_| it.next().unwrap().to_string()).collect();
            match v.len() {
                1 => v[0].clone(),
                _ => format!("({})", v.join(",")),
            }
        })
        .collect();
    format!("({})", parts.join(","))
}

impl Case {
    fn extents(&self) -> Vec<i64> {
        self.modes.concat()
    }

    fn shape(&self) -> Shape {
        tuple(&self.modes, &self.extents()).parse().unwrap()
    }

    /// Operand `k`: a carrier of values from `bits[k]` read through the `k`-th strides, at
    /// the offset that keeps every index inside it.
    fn operand<T: W>(&self, k: usize) -> Tensor {
        let ext = self.extents();
        let s = &self.strides[k];
        let low: i64 = ext.iter().zip(s).map(|(e, s)| (s * (e - 1)).min(0)).sum();
        let high: i64 = ext.iter().zip(s).map(|(e, s)| (s * (e - 1)).max(0)).sum();
        let len = (high - low + 1) as usize;
        let data: Vec<T> = (0..len)
            .map(|i| T::from_bits(self.bits[k][i % 64].rotate_left(i as u32)))
            .collect();
        let layout: Layout = format!("{}:{}", tuple(&self.modes, &ext), tuple(&self.modes, s))
            .parse()
            .unwrap();
        Tensor::new(Carrier::from_vec(data), (-low) as usize, layout).unwrap()
    }
}

fn values<T: Element>(t: &Tensor) -> Vec<T> {
    (0..t.size())
        .map(|k| T::from_scalar(t.get_ordinal(k).unwrap()).unwrap())
        .collect()
}

/// A destination of `shape` that is neither compact nor forward: row-major, mode 0 reversed.
fn strided_dest<T: Element>(shape: &Shape) -> Tensor {
    Tensor::from_vec_row_major(vec![T::zero(); shape.size()], shape)
        .unwrap()
        .reverse(0)
        .unwrap()
}

fn eq<T: Element>(what: &str, got: &Tensor, want: &[T]) -> Result<(), TestCaseError> {
    prop_assert_eq!(got.dtype(), T::DTYPE, "{}", what);
    prop_assert_eq!(&values::<T>(got), want, "{}", what);
    Ok(())
}

fn check<T: W>(c: &Case) -> Result<(), TestCaseError> {
    let (a, b) = (c.operand::<T>(0), c.operand::<T>(1));
    let (x, y) = (values::<T>(&a), values::<T>(&b));
    let shape = c.shape();
    let zip = |f: fn(T, T) -> T| -> Vec<T> { x.iter().zip(&y).map(|(&p, &q)| f(p, q)).collect() };
    type Op = fn(&Tensor, &Tensor) -> strideweave::Result<Tensor>;
    type Into = fn(&Tensor, &Tensor, &Tensor) -> strideweave::Result<()>;
    type Ref<T> = fn(T, T) -> T;
    let cases = [
        (
            "add",
            Tensor::add as Op,
            Tensor::add_into as Into,
            W::add as Ref<T>,
        ),
        ("sub", Tensor::sub, Tensor::sub_into, W::sub),
        ("mul", Tensor::mul, Tensor::mul_into, W::mul),
    ];
    for (name, op, into, f) in cases {
        let want = zip(f);
        eq(name, &op(&a, &b).unwrap(), &want)?;
        let out = strided_dest::<T>(&shape);
        into(&a, &b, &out).unwrap();
        eq(name, &out, &want)?;
    }
    // division: the first zero divisor (first-mode-fastest) is reported, else the quotients
    match y.iter().position(|&q| q == T::zero()) {
        Some(k) => {
            let msg = a.div(&b).unwrap_err().to_string();
            let at = format!("coordinate {} (ordinal {k})", shape.coordinate(k).unwrap());
            prop_assert!(msg.ends_with(&at), "{} vs {}", msg, at);
            let out = strided_dest::<T>(&shape);
            prop_assert!(a.div_into(&b, &out).is_err());
            prop_assert_eq!(out.carrier().version(), 0);
        }
        None => {
            let want = zip(W::div);
            eq("div", &a.div(&b).unwrap(), &want)?;
            let out = strided_dest::<T>(&shape);
            a.div_into(&b, &out).unwrap();
            eq("div_into", &out, &want)?;
        }
    }
    let neg: Vec<T> = x.iter().map(|&p| p.neg()).collect();
    eq("neg", &a.neg().unwrap(), &neg)?;
    let out = strided_dest::<T>(&shape);
    a.neg_into(&out).unwrap();
    eq("neg_into", &out, &neg)?;
    // a scalar of the tensor's dtype, given as an i64
    let s = T::from_bits(c.scalar);
    let si = s.to_i64();
    let map = |f: fn(T, T) -> T| -> Vec<T> { x.iter().map(|&p| f(p, s)).collect() };
    eq("add_scalar", &a.add_scalar(si).unwrap(), &map(W::add))?;
    eq("sub_scalar", &a.sub_scalar(si).unwrap(), &map(W::sub))?;
    eq("mul_scalar", &a.mul_scalar(si).unwrap(), &map(W::mul))?;
    match s == T::zero() {
        true => prop_assert!(a.div_scalar(si).is_err()),
        false => eq("div_scalar", &a.div_scalar(si).unwrap(), &map(W::div))?,
    }
    // sums, wrapping in the dtype
    let total = x.iter().fold(T::zero(), |acc, &p| acc.add(p));
    eq("sum", &a.sum().unwrap(), &[total])?;
    let modes: Vec<usize> = (0..c.modes.len()).filter(|&m| c.summed[m]).collect();
    let got = a.sum_modes(&modes).unwrap();
    let mut want = vec![T::zero(); got.size()];
    // leaf coordinates of ordinal k (first-mode-fastest over the depth-first leaves); the
    // kept leaves' coordinates, first-mode-fastest again, give the result's ordinal
    let kept: Vec<bool> = (0..c.modes.len())
        .flat_map(|m| std::iter::repeat_n(!c.summed[m], c.modes[m].len()))
        .collect();
    for (k, &p) in x.iter().enumerate() {
        let (mut rest, mut ord, mut scale) = (k as i64, 0i64, 1i64);
        for (e, &keep) in c.extents().into_iter().zip(&kept) {
            if keep {
                ord += (rest % e) * scale;
                scale *= e;
            }
            rest /= e;
        }
        want[ord as usize] = want[ord as usize].add(p);
    }
    eq("sum_modes", &got, &want)?;
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_integer_dtype_matches_the_naive_reference_over_strided_reversed_and_broadcast_operands(c in case()) {
        check::<i8>(&c)?;
        check::<i32>(&c)?;
        check::<i64>(&c)?;
        check::<u8>(&c)?;
    }
}
