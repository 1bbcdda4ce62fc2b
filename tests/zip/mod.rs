//! The elementwise engine under arithmetic, its scalar and `_into` forms, and the gemm call
//! under `matmul` and `matmul_into` (issue 10, item 2): each against a naive per-element
//! reference over random hierarchical layouts with signed and zero strides and offsets,
//! bit for bit (elementwise results are one operation per element, so any visiting order
//! gives the same bits; sums are compared with a reference that adds in ordinal order).

use proptest::prelude::*;
use proptest::test_runner::TestCaseError;
use strideweave::{Carrier, Layout, Tensor};

use crate::layouts;

mod wide;
use layouts::{Shape, Strides, extent, placed, shape, strides};

/// A value with non-trivial bits and no zero (so quotients stay finite).
fn value(k: usize, salt: usize) -> f64 {
    0.5 + ((k * 7919 + salt * 104_729) % 1000) as f64 / 7.0
}

#[derive(Clone, Debug)]
struct Case {
    shape: Shape,
    a: Strides,
    b: Strides,
    dst: Strides,
    pads: (usize, usize),
}

fn case() -> impl Strategy<Value = Case> {
    (
        shape(),
        strides(true),
        strides(true),
        strides(false),
        (0usize..3, 0usize..3),
    )
        .prop_map(|(shape, a, b, dst, pads)| Case {
            shape,
            a,
            b,
            dst,
            pads,
        })
}

/// The operands `a`, `b` (f64, any strides) and a destination placed inside a carrier of
/// -1s with padding.
fn build(c: &Case) -> (Tensor, Tensor, Tensor) {
    let e = c.shape.leaves();
    let a = placed(c.shape.layout(&c.a.of(&e, true)), c.pads, |k| value(k, 1));
    let b = placed(c.shape.layout(&c.b.of(&e, true)), c.pads, |k| value(k, 2));
    let d = c.shape.layout(&c.dst.of(&e, false));
    let dst = placed(d, (c.pads.1, c.pads.0), |_| -1.0f64);
    (a, b, dst)
}

/// The element at ordinal `i`, read through the layout (the naive walk).
fn at(t: &Tensor, i: usize) -> f64 {
    t.get_ordinal(i).unwrap().to_f64()
}

/// `f(a[i], b[i])` for every ordinal `i`.
fn naive(a: &Tensor, b: &Tensor, f: impl Fn(f64, f64) -> f64) -> Vec<u64> {
    (0..a.size())
        .map(|i| f(at(a, i), at(b, i)).to_bits())
        .collect()
}

/// The reduction rule for broadcast modes: which ordinals of `a` a reduction reads (those
/// at coordinate 0 of every reduced leaf of stride 0, i.e. not `kept`) and how often each
/// of their terms repeats (the product of those leaves' extents).
fn walked(a: &Tensor, kept: &[bool]) -> (impl Fn(usize) -> bool + use<>, i64) {
    let l = a.layout();
    let leaves: Vec<(i64, bool)> = (l.shape().leaves().iter().zip(l.stride().leaves()))
        .zip(kept)
        .map(|((&e, &s), &k)| (e, !k && s == 0))
        .collect();
    let n = leaves.iter().filter(|l| l.1).map(|l| l.0).product();
    let walked = move |i: usize| {
        let mut rest = i as i64;
        leaves.iter().all(|&(e, repeat)| {
            let c = rest % e;
            rest /= e;
            !repeat || c == 0
        })
    };
    (walked, n)
}

fn bits(t: &Tensor) -> Vec<u64> {
    t.to_vec::<f64>()
        .unwrap()
        .iter()
        .map(|x| x.to_bits())
        .collect()
}

/// The destination carrier after writing `want` (by ordinal) through its layout: what an
/// `_into` form must leave, padding and unreached indices untouched.
fn carrier_after(dst: &Tensor, want: &[u64]) -> Vec<u64> {
    let mut y: Vec<u64> = dst
        .carrier()
        .to_vec::<f64>()
        .unwrap()
        .iter()
        .map(|x| x.to_bits())
        .collect();
    for (i, w) in want.iter().enumerate() {
        y[(dst.offset() as i64 + dst.layout().index_of(i).unwrap()) as usize] = *w;
    }
    y
}

fn carrier_bits(t: &Tensor) -> Vec<u64> {
    let v = t.carrier().to_vec::<f64>().unwrap();
    v.iter().map(|x| x.to_bits()).collect()
}

type BinaryOp = fn(&Tensor, &Tensor) -> strideweave::Result<Tensor>;
type BinaryInto = fn(&Tensor, &Tensor, &Tensor) -> strideweave::Result<()>;
/// The reference arithmetic of one element.
type Reference = fn(f64, f64) -> f64;

const BINARY: [(&str, BinaryOp, BinaryInto, Reference); 4] = [
    ("add", Tensor::add, Tensor::add_into, |x, y| x + y),
    ("sub", Tensor::sub, Tensor::sub_into, |x, y| x - y),
    ("mul", Tensor::mul, Tensor::mul_into, |x, y| x * y),
    ("div", Tensor::div, Tensor::div_into, |x, y| x / y),
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Every binary operation, fresh and into a strided destination, writes what the naive
    /// walk computes, bit for bit, and nothing else of the destination carrier.
    #[test]
    fn binary_operations_match_the_naive_reference(c in case()) {
        for (name, fresh, into, f) in BINARY {
            let (a, b, dst) = build(&c);
            let want = naive(&a, &b, f);
            let r = fresh(&a, &b).unwrap();
            prop_assert_eq!(r.layout(), &Layout::compact(a.shape()), "{}", name);
            prop_assert_eq!(bits(&r), want.clone(), "{}", name);
            let expected = carrier_after(&dst, &want);
            into(&a, &b, &dst).unwrap();
            prop_assert_eq!(carrier_bits(&dst), expected, "{}_into", name);
            prop_assert_eq!(dst.carrier().version(), 1);
        }
    }

    /// The scalar forms and neg, fresh and into, match the naive walk.
    #[test]
    fn scalar_operations_match_the_naive_reference(c in case(), s in 0.25f64..9.0) {
        let (a, _, dst) = build(&c);
        let cases: [(Reference, Tensor); 5] = [
            (|x, s| x + s, a.add_scalar(s).unwrap()),
            (|x, s| x - s, a.sub_scalar(s).unwrap()),
            (|x, s| x * s, a.mul_scalar(s).unwrap()),
            (|x, s| x / s, a.div_scalar(s).unwrap()),
            (|x, _| -x, a.neg().unwrap()),
        ];
        for (f, got) in cases {
            let want: Vec<u64> = (0..a.size()).map(|i| f(at(&a, i), s).to_bits()).collect();
            prop_assert_eq!(bits(&got), want);
        }
        let want: Vec<u64> = (0..a.size()).map(|i| (at(&a, i) * s).to_bits()).collect();
        let expected = carrier_after(&dst, &want);
        a.mul_scalar_into(s, &dst).unwrap();
        prop_assert_eq!(carrier_bits(&dst), expected);
    }

    /// A destination that shares a carrier with an operand gets the values computed from the
    /// old contents (the result is staged, then copied).
    #[test]
    fn a_destination_sharing_an_operand_carrier_reads_the_old_values(c in case()) {
        let (a, b, _) = build(&c);
        let e = c.shape.leaves();
        let dl = c.shape.layout(&c.dst.of(&e, false));
        prop_assume!(dl.reach().0 >= 0 && (dl.reach().1 as usize) < a.carrier().len());
        let dst = Tensor::new(a.carrier().clone(), 0, dl).unwrap();
        let want = naive(&a, &b, |x, y| x * y);
        let expected = carrier_after(&dst, &want);
        a.mul_into(&b, &dst).unwrap();
        prop_assert_eq!(carrier_bits(&dst), expected);
    }

    /// An operand that is its own destination (`a.sub_into(&b, &a)`, `a.div_into(&b, &b)`)
    /// is updated in place with the values of the naive walk, nothing else of its carrier
    /// touched, one version increment.
    #[test]
    fn an_operand_as_its_own_destination_is_updated_in_place(c in case()) {
        let e = c.shape.leaves();
        let (_, b, _) = build(&c);
        let a = placed(c.shape.layout(&c.dst.of(&e, false)), c.pads, |k| value(k, 3));
        let want = naive(&a, &b, |x, y| x - y);
        let expected = carrier_after(&a, &want);
        a.sub_into(&b, &a).unwrap();
        prop_assert_eq!(carrier_bits(&a), expected);
        prop_assert_eq!(a.carrier().version(), 1);
        let (x, _, _) = build(&c);
        let y = placed(c.shape.layout(&c.dst.of(&e, false)), c.pads, |k| value(k, 4));
        let want = naive(&x, &y, |p, q| p / q);
        let expected = carrier_after(&y, &want);
        x.div_into(&y, &y).unwrap();
        prop_assert_eq!(carrier_bits(&y), expected);
    }

    /// sum adds in first-mode-fastest order, as the naive loop does (same bits), except
    /// that the terms a stride-0 (broadcast) leaf repeats are added once and the sum
    /// multiplied by the repeat (`reduce`'s rule for broadcast modes); mean divides that
    /// sum by the size.
    #[test]
    fn sum_and_mean_add_in_ordinal_order(c in case()) {
        let (a, ..) = build(&c);
        let reduced = vec![false; a.layout().shape().leaves().len()];
        let (walked, n) = walked(&a, &reduced);
        let mut acc = 0.0f64;
        for i in (0..a.size()).filter(|&i| walked(i)) {
            acc += at(&a, i);
        }
        if n > 1 {
            acc *= n as f64;
        }
        prop_assert_eq!(a.sum().unwrap().item::<f64>().unwrap().to_bits(), acc.to_bits());
        let mean = acc / a.size() as f64;
        prop_assert_eq!(a.mean().unwrap().item::<f64>().unwrap().to_bits(), mean.to_bits());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// sum_modes (and sum_modes_into a strided destination) gives each kept coordinate the
    /// sum of its terms in ordinal order, bit for bit.
    #[test]
    fn sum_modes_adds_each_output_in_ordinal_order(c in case(), mask in 0u32..16) {
        let (a, _, _) = build(&c);
        let rank = c.shape.groups.len();
        let summed: Vec<usize> = (0..rank).filter(|m| mask >> m & 1 == 1).collect();
        prop_assume!(!summed.is_empty() && summed.len() < rank);
        // each leaf: (extent, kept)
        let leaves: Vec<(i64, bool)> = c.shape.groups.iter().enumerate()
            .flat_map(|(m, g)| {
                let kept = !summed.contains(&m);
                g.iter().map(move |&e| (e, kept))
            })
            .collect();
        let out_size: i64 = leaves.iter().filter(|l| l.1).map(|l| l.0).product();
        let mut want = vec![0.0f64; out_size as usize];
        let kept: Vec<bool> = leaves.iter().map(|l| l.1).collect();
        let (walked, n) = walked(&a, &kept);
        for i in (0..a.size()).filter(|&i| walked(i)) {
            let (mut rest, mut j, mut scale) = (i as i64, 0i64, 1i64);
            for &(e, kept) in &leaves {
                if kept {
                    j += (rest % e) * scale;
                    scale *= e;
                }
                rest /= e;
            }
            want[j as usize] += at(&a, i);
        }
        if n > 1 {
            want.iter_mut().for_each(|w| *w *= n as f64);
        }
        let want: Vec<u64> = want.iter().map(|x| x.to_bits()).collect();
        let got = a.sum_modes(&summed).unwrap();
        prop_assert_eq!(bits(&got), want.clone());
        let out = Tensor::zeros::<f64>(got.shape()).reverse(0).unwrap();
        a.sum_modes_into(&summed, &out).unwrap();
        prop_assert_eq!(bits(&out), want);
    }
}

/// A matrix operand: its two modes' leaves, the strides that place it, and padding.
#[derive(Clone, Debug)]
struct Product {
    m: Vec<i64>,
    k: Vec<i64>,
    n: Vec<i64>,
    a: Strides,
    b: Strides,
    out: Strides,
    pads: (usize, usize),
}

fn mode() -> impl Strategy<Value = Vec<i64>> {
    prop::collection::vec(extent(), 1..=2)
}

fn product() -> impl Strategy<Value = Product> {
    (
        (mode(), mode(), mode()),
        strides(true),
        strides(true),
        strides(false),
        (0usize..3, 0usize..3),
    )
        .prop_map(|((m, k, n), a, b, out, pads)| Product {
            m,
            k,
            n,
            a,
            b,
            out,
            pads,
        })
        .prop_filter("at most 40000 multiply-adds", |p| {
            let s = |v: &[i64]| v.iter().product::<i64>();
            s(&p.m) * s(&p.k) * s(&p.n) <= 40_000
        })
}

/// A rank-2 tensor of small integer values (exact in f32/f64 whatever the summation order).
fn matrix<T: strideweave::Element>(
    rows: &[i64],
    cols: &[i64],
    how: &Strides,
    pads: (usize, usize),
    salt: usize,
    cast: fn(f64) -> T,
) -> Tensor {
    let sh = Shape {
        groups: vec![rows.to_vec(), cols.to_vec()],
    };
    // salt 0 is the destination: no stride 0
    let l = sh.layout(&how.of(&sh.leaves(), salt != 0));
    placed(l, pads, |k| cast(((k * 7 + salt * 3) % 9) as f64 - 4.0))
}

/// `C[i, j] = Σ_p A[i, p]·B[p, j]` by coordinates.
fn naive_product(a: &Tensor, b: &Tensor) -> Vec<f64> {
    let (m, k) = (
        a.layout().mode(0).unwrap().size(),
        a.layout().mode(1).unwrap().size(),
    );
    let n = b.layout().mode(1).unwrap().size();
    let mut c = vec![0.0; m * n];
    for j in 0..n {
        for p in 0..k {
            for i in 0..m {
                c[i + j * m] += at(a, i + p * m) * at(b, p + j * k);
            }
        }
    }
    c
}

fn check_product<T: strideweave::Element>(
    p: &Product,
    cast: fn(f64) -> T,
    back: fn(T) -> f64,
) -> Result<(), TestCaseError> {
    let a = matrix(&p.m, &p.k, &p.a, p.pads, 1, cast);
    let b = matrix(&p.k, &p.n, &p.b, p.pads, 2, cast);
    let out = matrix(&p.m, &p.n, &p.out, p.pads, 0, cast);
    let want = naive_product(
        &matrix(&p.m, &p.k, &p.a, p.pads, 1, |x| x),
        &matrix(&p.k, &p.n, &p.b, p.pads, 2, |x| x),
    );
    let got = a.matmul(&b).unwrap();
    let read = |t: &Tensor| {
        t.to_vec::<T>()
            .unwrap()
            .into_iter()
            .map(back)
            .collect::<Vec<f64>>()
    };
    prop_assert_eq!(read(&got), want.clone());
    let before = out.carrier().version();
    a.matmul_into(&b, &out).unwrap();
    prop_assert_eq!(read(&out), want);
    prop_assert_eq!(out.carrier().version(), before + 1);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]

    /// matmul and matmul_into (f32 and f64 through the gemm kernel, straight into a strided
    /// destination; complex through the plain loop) agree with the naive product.
    #[test]
    fn matmul_matches_the_naive_product_for_any_operand_layout(p in product()) {
        check_product::<f64>(&p, |x| x, |x| x)?;
        check_product::<f32>(&p, |x| x as f32, |x| x as f64)?;
        check_product::<strideweave::Complex64>(
            &p,
            |x| strideweave::Complex64::new(x, 0.0),
            |z| z.re,
        )?;
    }
}

#[test]
fn matmul_into_writes_a_transposed_destination_straight_through_the_kernel() {
    let a = Tensor::arange::<f32>(&"(3,4)".parse().unwrap());
    let b = Tensor::arange::<f32>(&"(4,5)".parse().unwrap());
    let out = Tensor::zeros::<f32>(&"(5,3)".parse().unwrap())
        .permute(&[1, 0])
        .unwrap();
    a.matmul_into(&b, &out).unwrap();
    assert_eq!(
        out.to_vec::<f32>().unwrap(),
        a.matmul(&b).unwrap().to_vec::<f32>().unwrap()
    );
    assert_eq!(out.carrier().version(), 1);
}

#[test]
fn an_operand_sharing_the_destination_carrier_is_read_before_the_write() {
    let a = Tensor::arange::<f64>(&"(2,2)".parse().unwrap());
    let c: Carrier = a.carrier().clone();
    a.matmul_into(&a, &a).unwrap(); // A ← A·A, computed first
    assert_eq!(c.to_vec::<f64>().unwrap(), [2.0, 3.0, 6.0, 11.0]);
    a.add_into(&a.permute(&[1, 0]).unwrap(), &a).unwrap(); // A ← A + Aᵀ
    assert_eq!(c.to_vec::<f64>().unwrap(), [4.0, 9.0, 9.0, 22.0]);
}
