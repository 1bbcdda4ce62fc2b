//! `Display` of `Tensor` and `StaticTensor`: one snapshot per dtype, rank 0 to 4, a view,
//! a broadcast, a reversed view, a hierarchical shape, a summarised and a huge tensor.

use crate::display::snapshot;
use strideweave::{Carrier, Complex32, Complex64, StaticTensor, Tensor, shape, shape_t};

fn t<T: strideweave::Element>(v: Vec<T>, s: &str) -> Tensor {
    Tensor::from_vec_row_major(v, &s.parse().unwrap()).unwrap()
}

#[test]
fn display_every_dtype() {
    let cases: Vec<(&str, Tensor)> = vec![
        (
            "dtype_f32",
            t(
                vec![0.5f32, -1.25, 3.0, 1e20, f32::NAN, f32::INFINITY],
                "(2,3)",
            ),
        ),
        ("dtype_f64", t(vec![0.1f64, 2.0, -3.5, 1e-7], "(2,2)")),
        ("dtype_i32", t(vec![1i32, -20, 300, 4], "(2,2)")),
        ("dtype_i64", t(vec![i64::MIN, 0, i64::MAX], "3")),
        ("dtype_u8", t(vec![0u8, 7, 255], "3")),
        ("dtype_i8", t(vec![-128i8, 0, 127, 5], "(2,2)")),
        ("dtype_bool", t(vec![true, false, false, true], "(2,2)")),
        (
            "dtype_complex64",
            t(
                vec![Complex32::new(1.0, 2.0), Complex32::new(0.5, -1.0)],
                "2",
            ),
        ),
        (
            "dtype_complex128",
            t(
                vec![Complex64::new(-1.0, 0.0), Complex64::new(3.0, -0.25)],
                "2",
            ),
        ),
        (
            "dtype_block_scaled",
            Tensor::block_scaled(
                (0..8).collect(),
                vec![1.0, 0.5, 2.0, 0.25],
                &shape!(4, 2),
                0,
                2,
            )
            .unwrap(),
        ),
    ];
    for (name, tensor) in cases {
        snapshot(name, &tensor.to_string());
    }
}

#[test]
fn display_block_scaled_prints_the_dequantized_values_in_place() {
    let q = Tensor::block_scaled(
        (0..8).collect(),
        vec![1.0, 0.5, 2.0, 0.25],
        &shape!(4, 2),
        0,
        2,
    )
    .unwrap();
    let d = q.dequantize().unwrap();
    // The same numbers as the dequantized copy, at the same coordinates.
    assert_eq!(format!("{q:#}"), format!("{d:#}"));
    let p = q.permute(&[1, 0]).unwrap();
    assert_eq!(
        format!("{p:#}"),
        format!("{:#}", d.permute(&[1, 0]).unwrap())
    );
}

#[test]
fn display_rank_0_to_4() {
    snapshot("rank0", &Tensor::scalar(2.5f64).to_string());
    snapshot("rank1", &Tensor::arange::<i32>(&shape!(5)).to_string());
    snapshot("rank2", &Tensor::arange::<i32>(&shape!(2, 3)).to_string());
    snapshot(
        "rank3",
        &Tensor::arange::<i64>(&shape!(2, 3, 4)).to_string(),
    );
    snapshot(
        "rank4",
        &Tensor::arange::<u8>(&shape!(2, 2, 2, 3)).to_string(),
    );
}

#[test]
fn display_mode_0_is_outermost_like_numpy() {
    // numpy: np.arange(6).reshape(2, 3, order="F") prints [[0 2 4] [1 3 5]].
    let t = Tensor::arange::<i32>(&shape!(2, 3));
    assert_eq!(format!("{t:#}"), "[[0 2 4]\n [1 3 5]]");
    // A row-major constructor gives numpy's default (C-order) picture.
    let r = Tensor::from_vec_row_major((0..6).collect::<Vec<i32>>(), &shape!(2, 3)).unwrap();
    assert_eq!(format!("{r:#}"), "[[0 1 2]\n [3 4 5]]");
}

#[test]
fn display_views_broadcasts_and_reversals() {
    let t = Tensor::arange::<i32>(&shape!(4, 6));
    let v = t
        .slice(&[(1..4).into(), strideweave::Key::slice(None, None, Some(2))])
        .unwrap();
    snapshot("view_slice", &v.to_string());
    let b = t
        .slice(&[(0..1).into(), (..).into()])
        .unwrap()
        .broadcast_to(&shape!(3, 6))
        .unwrap();
    snapshot("broadcast", &b.to_string());
    snapshot("reversed", &t.reverse(1).unwrap().to_string());
    let p = t.permute(&[1, 0]).unwrap();
    assert_eq!(format!("{p:#}"), format!("{:#}", p.materialize().unwrap()));
}

#[test]
fn display_hierarchical_modes_print_grouped() {
    snapshot(
        "hier_columns",
        &Tensor::arange::<i32>(&"(2,(2,3))".parse().unwrap()).to_string(),
    );
    snapshot(
        "hier_rows",
        &Tensor::arange::<i32>(&"((2,2),3)".parse().unwrap()).to_string(),
    );
}

#[test]
fn display_precision_applies_to_floats_and_complex_only() {
    let f = t(vec![1.0f64 / 3.0, 2.0, -0.5, 10.0], "(2,2)");
    assert_eq!(format!("{f:#.3}"), "[[ 0.333  2.000]\n [-0.500 10.000]]");
    let c = t(vec![Complex64::new(1.0 / 3.0, -2.0)], "1");
    assert_eq!(format!("{c:#.2}"), "[0.33-2.00i]");
    let i = Tensor::arange::<i64>(&shape!(3));
    assert_eq!(format!("{i:#.2}"), "[0 1 2]");
}

#[test]
fn display_summarises_beyond_1000_elements() {
    snapshot(
        "summarised",
        &Tensor::arange::<i64>(&shape!(40, 50)).to_string(),
    );
    // 1000 elements are printed whole, 1001 summarised.
    let whole = format!("{:#}", Tensor::arange::<i32>(&shape!(1000)));
    assert!(!whole.contains('…') && whole.contains(" 999]"));
    let cut = format!("{:#}", Tensor::arange::<i32>(&shape!(1001)));
    assert_eq!(cut, "[   0    1    2 …  998  999 1000]");
}

#[test]
fn display_huge_broadcast_reads_only_the_printed_elements() {
    // 2^40 elements over one carrier element: printing reads 36 of them at most.
    let one = Tensor::from_vec(vec![2.5f32], &shape!(1, 1)).unwrap();
    let huge = one
        .broadcast_to(&"(1048576,1048576)".parse().unwrap())
        .unwrap();
    assert_eq!(huge.size(), 1 << 40);
    snapshot("huge", &huge.to_string());
    // Rank 40 of extent 2: nothing to summarise, too many to print.
    let deep: strideweave::Shape = format!("({})", vec!["2"; 40].join(",")).parse().unwrap();
    let ones: strideweave::Shape = format!("({})", vec!["1"; 40].join(",")).parse().unwrap();
    let d = Tensor::zeros::<u8>(&ones).broadcast_to(&deep).unwrap();
    assert_eq!(
        format!("{d:#}"),
        "[… 1099511627776 elements in 40 modes: too many to show, even summarised]"
    );
}

#[test]
fn display_static_tensor_names_itself() {
    let s = StaticTensor::<f32, shape_t!(2, 2)>::arange();
    assert_eq!(
        s.to_string(),
        "StaticTensor of f32, shape (2,2), layout (2,2):(1,2)\n[[0.0 2.0]\n [1.0 3.0]]"
    );
}

#[test]
fn display_never_fails_when_values_cannot_be_read() {
    let t = Tensor::arange::<f32>(&shape!(2));
    let inside = t.carrier().read(|_: &[f32]| format!("{t:#}")).unwrap();
    assert!(
        inside.starts_with("[… the values cannot be read: Display: "),
        "{inside}"
    );
    let c = Carrier::from_vec(vec![1i32, 2]);
    let v = Tensor::new(c.clone(), 0, "2:1".parse().unwrap()).unwrap();
    assert_eq!(format!("{v:#}"), "[1 2]");
    c.release().unwrap();
    let released = format!("{v}");
    assert!(
        released.contains("[… the values cannot be read: Display: "),
        "{released}"
    );
}
