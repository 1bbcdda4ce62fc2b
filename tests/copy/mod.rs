//! The copy engine under `copy_from`, `materialize`, `materialize_into`, `relayout`,
//! `relayout_into`, `to_vec` and `to_vec_row_major` (issue 10): every kernel path
//! (contiguous runs, fills of stride-0 sources, blocked transposes, general strided loops)
//! against a naive per-element reference over random hierarchical layouts with signed and
//! zero strides and offsets.

use proptest::prelude::*;
use strideweave::{Carrier, Complex64, DType, ErrorKind, Layout, Tensor};

mod dtypes;
mod owners;
mod vector;

use crate::layouts;
use layouts::{Shape, Strides, placed, shape, strides};

#[derive(Clone, Debug)]
struct Case {
    shape: Shape,
    src: Strides,
    dst: Strides,
    pads: (usize, usize),
}

fn case() -> impl Strategy<Value = Case> {
    (
        shape(),
        strides(true),
        strides(false),
        (0usize..3, 0usize..3),
    )
        .prop_map(|(shape, src, dst, pads)| Case {
            shape,
            src,
            dst,
            pads,
        })
}

/// The carrier of `dst` after the naive per-element copy from `src`.
fn reference(src: &Tensor, dst: &Tensor) -> Vec<i32> {
    let x = src.carrier().to_vec::<i32>().unwrap();
    let mut y = dst.carrier().to_vec::<i32>().unwrap();
    for i in 0..src.size() {
        let a = src.offset() as i64 + src.layout().index_of(i).unwrap();
        let b = dst.offset() as i64 + dst.layout().index_of(i).unwrap();
        y[b as usize] = x[a as usize];
    }
    y
}

fn build(c: &Case) -> (Tensor, Tensor) {
    let e = c.shape.leaves();
    let src = placed(c.shape.layout(&c.src.of(&e, true)), c.pads, |k| {
        k as i32 * 7 + 1
    });
    let dst = placed(
        c.shape.layout(&c.dst.of(&e, false)),
        (c.pads.1, c.pads.0),
        |_| -1,
    );
    (src, dst)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    /// copy_from and materialize_into write exactly what the per-element reference writes,
    /// and nothing else of the destination carrier.
    #[test]
    fn copy_from_matches_the_naive_reference(c in case()) {
        let (src, dst) = build(&c);
        let want = reference(&src, &dst);
        dst.copy_from(&src).unwrap();
        prop_assert_eq!(dst.carrier().to_vec::<i32>().unwrap(), want.clone());
        let (src2, dst2) = build(&c);
        src2.materialize_into(&dst2).unwrap();
        prop_assert_eq!(dst2.carrier().to_vec::<i32>().unwrap(), want);
        prop_assert_eq!(dst2.carrier().version(), 1);
    }

    /// materialize, to_vec, to_vec_row_major and relayout agree with reads by ordinal.
    #[test]
    fn materialize_and_to_vec_match_reads_by_ordinal(c in case()) {
        let (src, _) = build(&c);
        let want: Vec<i32> = (0..src.size())
            .map(|i| src.get_ordinal(i).unwrap().to_f64() as i32)
            .collect();
        prop_assert_eq!(src.to_vec::<i32>().unwrap(), want.clone());
        let m = src.materialize().unwrap();
        prop_assert_eq!(m.layout(), &Layout::compact(src.shape()));
        prop_assert_eq!(m.carrier().to_vec::<i32>().unwrap(), want.clone());
        let r = src.relayout(&Layout::row_major(src.shape())).unwrap();
        let row = src.to_vec_row_major::<i32>().unwrap();
        prop_assert_eq!(r.carrier().to_vec::<i32>().unwrap(), row);
        prop_assert_eq!(r.to_vec::<i32>().unwrap(), want);
    }

    /// fill writes the value at every index an injective layout reaches (the broadcast
    /// path) and nothing else; an aliasing layout (one element reached by several
    /// coordinates) is refused, as for copy_from, and the carrier is untouched (issue 11).
    #[test]
    fn fill_writes_every_reached_index_and_nothing_else(c in case()) {
        let (src, _) = build(&c);
        let mut want = src.carrier().to_vec::<i32>().unwrap();
        if !src.layout().is_injective() {
            let err = src.fill(9i32).unwrap_err();
            prop_assert!(err.to_string().starts_with("fill: "), "{}", err);
            prop_assert_eq!(src.carrier().to_vec::<i32>().unwrap(), want);
            prop_assert_eq!(src.carrier().version(), 0);
            return Ok(());
        }
        for i in 0..src.size() {
            want[(src.offset() as i64 + src.layout().index_of(i).unwrap()) as usize] = 9;
        }
        src.fill(9i32).unwrap();
        prop_assert_eq!(src.carrier().to_vec::<i32>().unwrap(), want);
        prop_assert_eq!(src.carrier().version(), 1);
    }

    /// Writing into a destination that shares the source's carrier reads the old values.
    #[test]
    fn a_destination_sharing_the_source_carrier_reads_the_old_values(c in case()) {
        let (src, _) = build(&c);
        let e = c.shape.leaves();
        let dl = c.shape.layout(&c.dst.of(&e, false));
        prop_assume!(dl.reach().0 >= 0 && (dl.reach().1 as usize) < src.carrier().len());
        let dst = Tensor::new(src.carrier().clone(), 0, dl).unwrap();
        let want = reference(&src, &dst);
        dst.copy_from(&src).unwrap();
        prop_assert_eq!(dst.carrier().to_vec::<i32>().unwrap(), want);
    }
}

/// Large hierarchical shapes: 2 to 5 leaves, 2¹⁸ (1 MiB of `i32`, the parallel threshold) to
/// 2²⁰ elements, extents not multiples of the 64-element block side.
fn large_shape() -> impl Strategy<Value = Shape> {
    let leaf = prop_oneof![2 => 2i64..=9, 2 => 17i64..=70, 1 => 100i64..=1100];
    prop::collection::vec(prop::collection::vec(leaf, 1..=2), 2..=3)
        .prop_map(|groups| Shape { groups })
        .prop_filter("2^18 to 2^20 elements", |s| {
            (1 << 18..=1 << 20).contains(&s.size())
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 8, ..ProptestConfig::default() })]

    /// Above the parallel threshold (feature `parallel`: the outermost leaf split across
    /// threads) copy_from still writes exactly what the per-element reference writes.
    #[test]
    fn a_copy_above_the_parallel_threshold_matches_the_naive_reference(
        shape in large_shape(),
        src in strides(true),
        dst in strides(false),
    ) {
        let c = Case { shape, src, dst, pads: (1, 2) };
        let (src, dst) = build(&c);
        let want = reference(&src, &dst);
        dst.copy_from(&src).unwrap();
        prop_assert!(dst.carrier().to_vec::<i32>().unwrap() == want);
    }
}

/// The workloads of the copy benchmarks at sizes above the parallel threshold, with tile
/// edges (extents that are no multiple of the block side) and odd extents.
#[test]
fn transposes_permutations_broadcasts_and_step_slices_match_the_reference_at_scale() {
    let permuted = |keys: &[u8], flips: &[bool], zero: &[bool], gap| Strides::Permuted {
        keys: keys.to_vec(),
        flips: flips.to_vec(),
        zero: zero.to_vec(),
        gap,
    };
    let cases = [
        // A transpose with partial blocks on both leaves.
        (
            vec![vec![515], vec![517]],
            permuted(&[1, 0], &[false; 2], &[false; 2], 1),
        ),
        // The reversed [32,64,64,32] permutation at half size, one leaf reversed.
        (
            vec![vec![16, 64], vec![64, 16]],
            permuted(&[3, 2, 1, 0], &[false, true, false, false], &[false; 4], 1),
        ),
        // A row broadcast (stride 0 across rows).
        (
            vec![vec![1031], vec![509]],
            permuted(&[0, 1], &[false; 2], &[false, true], 1),
        ),
        // Every second element of every second row.
        (
            vec![vec![1023], vec![513]],
            Strides::Free(vec![2, 4 * 1023]),
        ),
    ];
    let compact = permuted(&[0, 1, 2, 3], &[false; 4], &[false; 4], 1);
    for (groups, src) in cases {
        let c = Case {
            shape: Shape { groups },
            src,
            dst: compact.clone(),
            pads: (3, 1),
        };
        let (src, dst) = build(&c);
        let want = reference(&src, &dst);
        dst.copy_from(&src).unwrap();
        assert!(dst.carrier().to_vec::<i32>().unwrap() == want, "{c:?}");
        assert_eq!(src.to_vec::<i32>().unwrap(), dst.to_vec::<i32>().unwrap());
    }
}

#[test]
fn a_non_injective_destination_is_an_error_and_the_carrier_is_untouched() {
    let src = Tensor::arange::<i32>(&"(3,4)".parse().unwrap());
    let c = Carrier::from_vec(vec![5i32; 4]);
    let dst = Tensor::new(c.clone(), 0, "(3,4):(0,1)".parse().unwrap()).unwrap();
    for err in [
        src.materialize_into(&dst).unwrap_err(),
        dst.copy_from(&src).unwrap_err(),
    ] {
        assert_eq!(err.kind(), ErrorKind::Value);
        assert!(err.to_string().contains("not injective"), "{err}");
    }
    assert!(
        src.materialize_into(&dst)
            .unwrap_err()
            .to_string()
            .starts_with("materialize_into: ")
    );
    assert!(
        dst.copy_from(&src)
            .unwrap_err()
            .to_string()
            .starts_with("copy_from: ")
    );
    assert_eq!((c.to_vec::<i32>().unwrap(), c.version()), (vec![5; 4], 0));
}

#[test]
fn a_destination_of_another_shape_or_dtype_is_an_error_naming_the_op() {
    let src = Tensor::arange::<f32>(&"(2,3)".parse().unwrap());
    let other = Tensor::zeros::<f32>(&"(3,2)".parse().unwrap());
    let e = src.materialize_into(&other).unwrap_err().to_string();
    assert!(e.starts_with("materialize_into: shape (3,2)"), "{e}");
    let ints = Tensor::zeros::<i32>(&"(2,3)".parse().unwrap());
    let e = src.relayout_into(&ints).unwrap_err().to_string();
    assert!(
        e.starts_with("relayout_into: expected a f32 destination"),
        "{e}"
    );
    let e = src
        .relayout(&"(2,3):(2,1)".parse().unwrap())
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("relayout: layout (2,3):(2,1) is not compact"),
        "{e}"
    );
}

#[test]
fn materialize_keeps_the_dtype_for_every_plain_dtype() {
    let sh = "(2,(3,2))".parse().unwrap();
    let view = |t: Tensor| t.permute(&[1, 0]).unwrap();
    macro_rules! each {
        ($($t:ty),*) => {$(
            let t = view(Tensor::arange::<$t>(&sh));
            let m = t.materialize().unwrap();
            assert_eq!((m.dtype(), m.layout().to_string()), (t.dtype(), "((3,2),2):((1,3),6)".into()));
            assert_eq!(m.to_vec::<$t>().unwrap(), t.to_vec::<$t>().unwrap());
            let d = Tensor::zeros::<$t>(t.shape());
            d.copy_from(&t).unwrap();
            assert_eq!(d.to_vec::<$t>().unwrap(), t.to_vec::<$t>().unwrap());
        )*};
    }
    each!(
        f32,
        f64,
        i32,
        i64,
        u8,
        i8,
        bool,
        Complex64,
        strideweave::Complex32
    );
}

#[test]
fn materialize_of_a_block_scaled_tensor_gives_its_dequantized_f32_values() {
    let t = Tensor::block_scaled(
        vec![2, -4, 6, 8],
        vec![0.5, 2.0],
        &"4".parse().unwrap(),
        0,
        2,
    )
    .unwrap();
    let m = t.materialize().unwrap();
    assert_eq!(
        (m.dtype(), m.to_vec::<f32>().unwrap()),
        (DType::F32, vec![1.0, -2.0, 12.0, 16.0])
    );
    assert_eq!(m.shape(), t.shape());
    let d = Tensor::zeros::<f32>(t.shape());
    t.materialize_into(&d).unwrap();
    assert_eq!(d.to_vec::<f32>().unwrap(), [1.0, -2.0, 12.0, 16.0]);
}

#[test]
fn a_transposed_square_view_is_copied_through_the_blocked_kernel_exactly() {
    for n in [31i64, 64, 100] {
        let t = Tensor::arange::<f64>(&format!("({n},{n})").parse().unwrap());
        let v = t.permute(&[1, 0]).unwrap();
        let want: Vec<f64> = (0..n * n).map(|i| ((i % n) * n + i / n) as f64).collect();
        assert_eq!(v.to_vec::<f64>().unwrap(), want);
        assert_eq!(
            v.materialize().unwrap().carrier().to_vec::<f64>().unwrap(),
            want
        );
    }
}

#[test]
fn materialize_records_the_copy_for_autograd() {
    let x = Tensor::arange::<f64>(&"(2,3)".parse().unwrap());
    x.set_requires_grad(true).unwrap();
    let y = x.permute(&[1, 0]).unwrap().materialize().unwrap();
    y.sum().unwrap().backward().unwrap();
    assert_eq!(x.grad().unwrap().to_vec::<f64>().unwrap(), [1.0; 6]);
}
