//! `index_select` and `gather`: values against hand-computed expectations and a naive
//! reference over the top-level modes (each one axis of its size, nested or not) on
//! compact, transposed, sliced, reversed and broadcast inputs; i32 and i64 indices; every
//! error, its message and untouched carriers; gradients with repeated indices and against
//! central differences; random indices, in range or not, never panic.

use proptest::prelude::*;
use strideweave::{Carrier, Complex64, DType, ErrorKind, Key, Scalar, Tensor, no_grad};

use crate::notation::{l, s};

fn t64(values: &[f64], shape: &str) -> Tensor {
    Tensor::from_vec(values.to_vec(), &s(shape)).unwrap()
}

fn i64s(values: &[i64], shape: &str) -> Tensor {
    Tensor::from_vec(values.to_vec(), &s(shape)).unwrap()
}

fn i32s(values: &[i32], shape: &str) -> Tensor {
    Tensor::from_vec(values.to_vec(), &s(shape)).unwrap()
}

fn vals(t: &Tensor) -> Vec<f64> {
    t.to_vec::<f64>().unwrap()
}

/// The extents of the top-level modes (a nested mode counts as one axis of its size).
fn mode_sizes(t: &Tensor) -> Vec<usize> {
    (0..t.rank())
        .map(|m| t.shape().mode(m).unwrap().size())
        .collect()
}

/// The coordinates over top-level modes of ordinal `k`, first mode fastest.
fn coords(sizes: &[usize], mut k: usize) -> Vec<usize> {
    sizes
        .iter()
        .map(|&n| {
            let c = k % n;
            k /= n;
            c
        })
        .collect()
}

fn ordinal(sizes: &[usize], c: &[usize]) -> usize {
    let (mut k, mut w) = (0, 1);
    for (&n, &x) in sizes.iter().zip(c) {
        k += x * w;
        w *= n;
    }
    k
}

/// `index_select` by definition, on the values in first-mode-fastest order.
fn naive_index_select(t: &Tensor, d: usize, idx: &[i64]) -> Vec<f64> {
    let (v, sizes) = (vals(t), mode_sizes(t));
    let mut out_sizes = sizes.clone();
    out_sizes[d] = idx.len();
    (0..out_sizes.iter().product())
        .map(|k| {
            let mut c = coords(&out_sizes, k);
            c[d] = idx[c[d]] as usize;
            v[ordinal(&sizes, &c)]
        })
        .collect()
}

/// `gather` by definition.
fn naive_gather(t: &Tensor, d: usize, indices: &Tensor) -> Vec<f64> {
    let (v, sizes) = (vals(t), mode_sizes(t));
    let (iv, isizes) = (indices.to_vec::<i64>().unwrap(), mode_sizes(indices));
    (0..iv.len())
        .map(|k| {
            let mut c = coords(&isizes, k);
            c[d] = iv[k] as usize;
            v[ordinal(&sizes, &c)]
        })
        .collect()
}

/// The (3,4) input `10·i + j` at coordinate (i, j), in each of the layouts the tests read
/// through: compact, transposed storage, a stepped slice, reversed on each mode, broadcast
/// along mode 1.
fn inputs() -> Vec<(&'static str, Tensor)> {
    let compact: Vec<f64> = (0..12).map(|k| (10 * (k % 3) + k / 3) as f64).collect();
    let base = t64(&compact, "(3,4)");
    // Stored as its transpose: (4,3) compact, viewed (3,4).
    let stored: Vec<f64> = (0..12).map(|k| (10 * (k / 4) + k % 4) as f64).collect();
    let transposed = t64(&stored, "(4,3)").permute(&[1, 0]).unwrap();
    // Every other row and column of a (6,8) input holding 10·(i/2) + j/2 at (i, j).
    let big: Vec<f64> = (0..48)
        .map(|k| (10 * ((k % 6) / 2) + (k / 6) / 2) as f64)
        .collect();
    let sliced = t64(&big, "(6,8)")
        .slice(&[
            Key::slice(None, None, Some(2)),
            Key::slice(None, None, Some(2)),
        ])
        .unwrap();
    // Reversed twice: the values of `base` through negative strides.
    let flipped: Vec<f64> = (0..12)
        .map(|k| (10 * (2 - k % 3) + (3 - k / 3)) as f64)
        .collect();
    let reversed = t64(&flipped, "(3,4)")
        .reverse(0)
        .unwrap()
        .reverse(1)
        .unwrap();
    let column = t64(&[0.0, 10.0, 20.0], "3");
    let broadcast = column
        .unsqueeze(1)
        .unwrap()
        .broadcast_to(&s("(3,4)"))
        .unwrap();
    vec![
        ("compact", base),
        ("transposed", transposed),
        ("sliced", sliced),
        ("reversed", reversed),
        ("broadcast", broadcast),
    ]
}

#[test]
fn index_select_picks_rows_and_columns_through_every_layout() {
    for (name, x) in inputs() {
        let wide = name != "broadcast";
        // Rows 2, 0, 2 of mode 0.
        let rows = x.index_select(0, &i64s(&[2, 0, 2], "3")).unwrap();
        assert_eq!(rows.shape(), &s("(3,4)"), "{name}");
        let expected: Vec<f64> = (0..12)
            .map(|k| {
                let (i, j) = ([2, 0, 2][k % 3], k / 3);
                (10 * i + if wide { j } else { 0 }) as f64
            })
            .collect();
        assert_eq!(vals(&rows), expected, "{name}");
        // Columns 3, 1 of mode 1, by a negative dim and i32 indices.
        let cols = x.index_select(-1, &i32s(&[3, 1], "2")).unwrap();
        assert_eq!(cols.shape(), &s("(3,2)"), "{name}");
        let expected: Vec<f64> = (0..6)
            .map(|k| (10 * (k % 3) + if wide { [3, 1][k / 3] } else { 0 }) as f64)
            .collect();
        assert_eq!(vals(&cols), expected, "{name}");
        assert_eq!(vals(&cols), naive_index_select(&x, 1, &[3, 1]), "{name}");
        // The result is fresh and compact.
        assert_eq!(cols.layout(), &l("(3,2):(1,3)"), "{name}");
        assert!(!Carrier::same(cols.carrier(), x.carrier()), "{name}");
    }
}

#[test]
fn index_select_of_a_row_major_table_copies_whole_rows() {
    // A numpy-style [5, 3] table, row k holding 100k, 100k+1, 100k+2: shape (3,5) here
    // (each row contiguous along mode 0), and the same storage viewed (5,3):(3,1).
    let data: Vec<f32> = (0..15).map(|k| (100 * (k / 3) + k % 3) as f32).collect();
    let sw = Tensor::from_vec(data.clone(), &s("(3,5)")).unwrap();
    let rm = Tensor::new(Carrier::from_vec(data), 0, l("(5,3):(3,1)")).unwrap();
    let ids = i64s(&[4, 1, 1, 0], "4");
    let a = sw.index_select(1, &ids).unwrap();
    assert_eq!(
        a.to_vec::<f32>().unwrap(),
        [
            400.0, 401.0, 402.0, 100.0, 101.0, 102.0, 100.0, 101.0, 102.0, 0.0, 1.0, 2.0
        ]
    );
    let b = rm.index_select(0, &ids).unwrap();
    assert_eq!(b.shape(), &s("(4,3)"));
    assert_eq!(
        b.to_vec_row_major::<f32>().unwrap(),
        a.to_vec::<f32>().unwrap()
    );
}

#[test]
fn index_select_takes_more_indices_than_one_block_and_any_order_of_modes() {
    // 150 indices cross the blocks of the path where the picked mode is the result's
    // fastest; the transposed and 3-mode inputs take the slice-per-index path.
    let idx: Vec<i64> = (0..150).map(|k| (k * 7 + 3) % 11).collect();
    let x = Tensor::arange::<f64>(&s("(11,5)"));
    let ids = i64s(&idx, "150");
    for (d, t) in [
        (0, x.clone()),
        (1, x.permute(&[1, 0]).unwrap()),
        (1, x.permute(&[1, 0]).unwrap().reverse(0).unwrap()),
        (
            1,
            Tensor::arange::<f64>(&s("(2,11,3)"))
                .permute(&[2, 1, 0])
                .unwrap(),
        ),
    ] {
        assert_eq!(
            vals(&t.index_select(d, &ids).unwrap()),
            naive_index_select(&t, d, &idx),
            "{:?} along {d}",
            t.layout()
        );
    }
    // Row-major storage picked along its rows into a compact result: the picked mode is
    // the result's fastest and the rows are contiguous in the source (tiles of 32 with a
    // partial one, blocks of 64 indices with a partial one, an outer mode around them).
    let rows: Vec<i64> = (0..150).map(|k| (k * 31 + 5) % 70).collect();
    let rows_t = i64s(&rows, "150");
    let data: Vec<f64> = (0..70 * 3 * 40).map(f64::from).collect();
    for layout in [
        "(70,40):(40,1)",
        "(70,3,40):(120,40,1)",
        "(70,(40,3)):(120,(1,40))",
    ] {
        let t = Tensor::new(Carrier::from_vec(data.clone()), 0, l(layout)).unwrap();
        assert_eq!(
            vals(&t.index_select(0, &rows_t).unwrap()),
            naive_index_select(&t, 0, &rows),
            "{layout}"
        );
        let r = t.reverse(t.rank() - 1).unwrap();
        assert_eq!(
            vals(&r.index_select(0, &rows_t).unwrap()),
            naive_index_select(&r, 0, &rows),
            "{layout} reversed"
        );
    }
    // One mode only: numpy's take on a vector.
    let v = Tensor::arange::<f64>(&s("11")).reverse(0).unwrap();
    assert_eq!(
        vals(&v.index_select(0, &ids).unwrap()),
        idx.iter().map(|&i| (10 - i) as f64).collect::<Vec<_>>()
    );
}

#[test]
fn a_nested_mode_is_one_mode_indexed_by_its_ordinal_first_leaf_fastest() {
    // Mode 1 is (2,3): ordinal 4 is its coordinate (0,2).
    let x = Tensor::arange::<f64>(&s("(2,(2,3))"));
    let r = x.index_select(1, &i64s(&[4, 1], "2")).unwrap();
    assert_eq!(r.shape(), &s("(2,2)"));
    assert_eq!(vals(&r), [8.0, 9.0, 2.0, 3.0]);
    assert_eq!(
        vals(&r),
        vals(
            &x.reshape(&s("(2,6)"))
                .unwrap()
                .index_select(1, &i64s(&[4, 1], "2"))
                .unwrap()
        )
    );
    // The other modes keep their nesting; the picked one becomes one leaf.
    let y = Tensor::arange::<f64>(&s("((2,2),3)"))
        .permute(&[1, 0])
        .unwrap();
    let r = y.index_select(1, &i32s(&[3, 0, 2], "3")).unwrap();
    assert_eq!(r.shape(), &s("(3,3)"));
    assert_eq!(vals(&r), naive_index_select(&y, 1, &[3, 0, 2]));
    let z = y.index_select(0, &i64s(&[1], "1")).unwrap();
    assert_eq!(z.shape(), &s("(1,(2,2))"));
    // gather along a nested mode, and a nested index tensor.
    let g = x.gather(1, &i64s(&[5, 0, 3, 3], "(2,(2,1))")).unwrap();
    assert_eq!(g.shape(), &s("(2,(2,1))"));
    assert_eq!(vals(&g), [10.0, 1.0, 6.0, 7.0]);
}

#[test]
fn i32_and_i64_indices_agree_and_the_index_tensor_is_read_through_its_layout() {
    let x = Tensor::arange::<f64>(&s("(4,5)"));
    let a = x.index_select(1, &i64s(&[4, 0, 2], "3")).unwrap();
    let b = x.index_select(1, &i32s(&[4, 0, 2], "3")).unwrap();
    assert_eq!(vals(&a), vals(&b));
    // The same indices reversed, and every other one of a longer vector.
    let r = x
        .index_select(1, &i64s(&[2, 0, 4], "3").reverse(0).unwrap())
        .unwrap();
    assert_eq!(vals(&r), vals(&a));
    let stepped = i64s(&[4, 9, 0, 9, 2, 9], "6")
        .slice(&[Key::slice(None, None, Some(2))])
        .unwrap();
    assert_eq!(vals(&x.index_select(1, &stepped).unwrap()), vals(&a));
}

#[test]
fn every_plain_dtype_is_gathered() {
    let ids = i64s(&[2, 0], "2");
    let b = Tensor::from_vec(vec![true, false, false], &s("3")).unwrap();
    assert_eq!(
        b.index_select(0, &ids).unwrap().to_vec::<bool>().unwrap(),
        [false, true]
    );
    let i = Tensor::from_vec(vec![-1i8, 2, 3], &s("3")).unwrap();
    assert_eq!(i.gather(0, &ids).unwrap().to_vec::<i8>().unwrap(), [3, -1]);
    let u = Tensor::arange::<u8>(&s("3"));
    assert_eq!(u.index_select(0, &ids).unwrap().dtype(), DType::U8);
    let z = Tensor::from_vec(
        vec![
            Complex64::new(1.0, 2.0),
            Complex64::new(3.0, 4.0),
            Complex64::new(5.0, 6.0),
        ],
        &s("3"),
    )
    .unwrap();
    assert_eq!(
        z.index_select(0, &ids)
            .unwrap()
            .to_vec::<Complex64>()
            .unwrap(),
        [Complex64::new(5.0, 6.0), Complex64::new(1.0, 2.0)]
    );
    let h: Vec<half::f16> = [1.5, 2.5, 3.5].map(half::f16::from_f64).to_vec();
    let h = Tensor::from_vec(h, &s("3")).unwrap();
    assert_eq!(
        h.gather(0, &ids).unwrap().to_vec::<half::f16>().unwrap(),
        [half::f16::from_f64(3.5), half::f16::from_f64(1.5)]
    );
    for d in [DType::I32, DType::I64, DType::F32] {
        let t = Tensor::zeros_of(d, &s("(2,3)")).unwrap();
        assert_eq!(t.index_select(1, &ids).unwrap().dtype(), d);
    }
}

#[test]
fn gather_follows_pytorch_on_every_layout() {
    // torch.gather(x, 1, index) with index of shape (2, 3): fewer rows than x's 3, more
    // columns than x's 4 along dim 1 (any length there).
    let index = i64s(&[3, 0, 0, 1, 3, 3], "(2,3)");
    for (name, x) in inputs() {
        let wide = name != "broadcast";
        let g = x.gather(1, &index).unwrap();
        assert_eq!(g.shape(), &s("(2,3)"), "{name}");
        // out[i][j] = x[i][index[i][j]]
        let iv = [[3, 0, 3], [0, 1, 3]];
        let expected: Vec<f64> = (0..6)
            .map(|k| {
                let (i, j) = (k % 2, k / 2);
                (10 * i + if wide { iv[i][j] } else { 0 }) as f64
            })
            .collect();
        assert_eq!(vals(&g), expected, "{name}");
        let rows = i64s(&[2, 1, 0, 0], "(1,4)");
        let g0 = x.gather(0, &rows).unwrap();
        assert_eq!(vals(&g0), naive_gather(&x, 0, &rows), "{name}");
    }
}

/// The refusal `result` starts with `prefix`, is of `kind`, and neither the input's nor
/// the indices' carrier changed (`versions` and `values` as they were before the call).
fn check_refused(
    x: &Tensor,
    idx: &Tensor,
    result: strideweave::Result<Tensor>,
    prefix: &str,
    kind: ErrorKind,
    versions: (u64, u64),
    values: (&[f64], &[Scalar]),
) {
    let err = result.unwrap_err();
    assert!(err.to_string().starts_with(prefix), "{err}");
    assert_eq!(err.kind(), kind, "{err}");
    assert_eq!((x.carrier().version(), idx.carrier().version()), versions);
    assert_eq!(vals(x), values.0);
    assert_eq!(idx.to_scalars().unwrap(), values.1);
}

/// One call of `index_select` or `gather` on the indices given.
type Call<'a> = Box<dyn Fn(&Tensor) -> strideweave::Result<Tensor> + 'a>;

#[test]
fn every_refusal_names_the_operation_and_leaves_the_carriers_untouched() {
    let x = Tensor::arange::<f64>(&s("(3,4)"));
    x.set_requires_grad(true).unwrap();
    let xv = vals(&x);
    let cases: Vec<(Tensor, Call<'_>, &str, ErrorKind)> = vec![
        (
            i64s(&[0, 4], "2"),
            Box::new(|i| x.index_select(1, i)),
            "index_select: index 4 is outside mode 1 of extent 4 (found at coordinate 1 of the indices, ordinal 1) (valid: 0..4)",
            ErrorKind::Value,
        ),
        (
            i32s(&[1, -1], "(2)"),
            Box::new(|i| x.index_select(0, i)),
            "index_select: index -1 is outside mode 0 of extent 3 (found at coordinate (1) of the indices, ordinal 1; a negative index does not count back from the end) (valid: 0..3)",
            ErrorKind::Value,
        ),
        (
            i64s(&[0], "1"),
            Box::new(|i| x.index_select(2, i)),
            "index_select: dim 2 is outside the 2 top-level modes, where -2..=-1 count back from the end (valid: 0..2)",
            ErrorKind::Value,
        ),
        (
            i64s(&[0], "1"),
            Box::new(|i| x.index_select(-3, i)),
            "index_select: dim -3 is outside the 2 top-level modes",
            ErrorKind::Value,
        ),
        (
            Tensor::from_vec(vec![0.0f32], &s("1")).unwrap(),
            Box::new(|i| x.index_select(0, i)),
            "index_select: expected an i64 or i32 index tensor, found a f32 index tensor",
            ErrorKind::Type,
        ),
        (
            Tensor::from_vec(vec![0u8], &s("1")).unwrap(),
            Box::new(|i| x.index_select(0, i)),
            "index_select: expected an i64 or i32 index tensor, found a u8 index tensor",
            ErrorKind::Type,
        ),
        (
            i64s(&[0, 1], "(1,2)"),
            Box::new(|i| x.index_select(0, i)),
            "index_select: expected 1 top-level modes in the index tensor (a vector of indices), found 2",
            ErrorKind::Value,
        ),
        (
            i64s(&[0], "()"),
            Box::new(|i| x.index_select(0, i)),
            "index_select: expected 1 top-level modes in the index tensor (a vector of indices), found 0",
            ErrorKind::Value,
        ),
        (
            i64s(&[0, 1, 2, 3, 4, 3], "(3,2)"),
            Box::new(|i| x.gather(1, i)),
            "gather: index 4 is outside mode 1 of extent 4 (found at coordinate (1,1) of the indices, ordinal 4) (valid: 0..4)",
            ErrorKind::Value,
        ),
        (
            i64s(&[0, -2], "(2,1)"),
            Box::new(|i| x.gather(0, i)),
            "gather: index -2 is outside mode 0 of extent 3 (found at coordinate (1,0) of the indices, ordinal 1; a negative index does not count back from the end) (valid: 0..3)",
            ErrorKind::Value,
        ),
        (
            i32s(&[0, 1], "(2,1)"),
            Box::new(|i| x.gather(0, i)),
            "gather: expected an i64 index tensor, found a i32 index tensor",
            ErrorKind::Type,
        ),
        (
            i64s(&[0, 1], "2"),
            Box::new(|i| x.gather(0, i)),
            "gather: expected 2 top-level modes in the index tensor (the input's rank), found 1",
            ErrorKind::Value,
        ),
        (
            i64s(&[0; 5], "(1,5)"),
            Box::new(|i| x.gather(0, i)),
            "gather: shape (1,5) does not match (3,4): mode 1 of the indices has 5 positions, more than the input's 4; every mode but dim 0 must be at most as long as the input's",
            ErrorKind::Value,
        ),
        (
            i64s(&[0; 4], "(4,1)"),
            Box::new(|i| x.gather(1, i)),
            "gather: shape (4,1) does not match (3,4): mode 0 of the indices has 4 positions",
            ErrorKind::Value,
        ),
        (
            i64s(&[0], "(1,1)"),
            Box::new(|i| x.gather(5usize, i)),
            "gather: dim 5 is outside the 2 top-level modes",
            ErrorKind::Value,
        ),
    ];
    for (idx, f, prefix, kind) in cases {
        let before = idx.to_scalars().unwrap();
        let versions = (x.carrier().version(), idx.carrier().version());
        check_refused(&x, &idx, f(&idx), prefix, kind, versions, (&xv, &before));
    }
    assert!(x.grad().is_none());
    // A rank-0 input has no mode to pick along.
    let err = Tensor::scalar(1.0f64)
        .index_select(0, &i64s(&[0], "1"))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "index_select: dim 0 is outside the 0 top-level modes of a rank-0 tensor, which has no mode to pick along (valid: 0..0)"
    );
    // A block-scaled input is refused as for every one-subtensor operation.
    let q = Tensor::block_scaled(vec![1i8; 4], vec![0.5], &s("4"), 0, 4).unwrap();
    let err = q.index_select(0, &i64s(&[0], "1")).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::NotImplemented);
    assert!(err.to_string().starts_with("index_select: "), "{err}");
    assert!(
        q.gather(0, &i64s(&[0], "1"))
            .unwrap_err()
            .to_string()
            .starts_with("gather: ")
    );
}

#[test]
fn gradients_scatter_add_and_repeated_indices_accumulate() {
    let x = Tensor::arange::<f64>(&s("(2,3)"));
    x.set_requires_grad(true).unwrap();
    let ids = i64s(&[2, 0, 2, 2], "4");
    let y = x.index_select(1, &ids).unwrap();
    assert_eq!(y.grad_op(), Some("index_select"));
    // Σ w ⊙ y with w[k] = k + 1 over y's (2,4) elements.
    let w = t64(&(1..=8).map(f64::from).collect::<Vec<_>>(), "(2,4)");
    y.mul(&w).unwrap().sum().unwrap().backward().unwrap();
    // Column 2 of x is picked at positions 0, 2, 3; column 0 at 1; column 1 never.
    assert_eq!(
        vals(&x.grad().unwrap()),
        [3.0, 4.0, 0.0, 0.0, 1.0 + 5.0 + 7.0, 2.0 + 6.0 + 8.0]
    );
    let z = Tensor::arange::<f64>(&s("(2,3)"));
    z.set_requires_grad(true).unwrap();
    let g = z.gather(1, &i64s(&[1, 1, 1, 0], "(2,2)")).unwrap();
    assert_eq!(g.grad_op(), Some("gather"));
    g.sum().unwrap().backward().unwrap();
    assert_eq!(vals(&z.grad().unwrap()), [0.0, 1.0, 2.0, 1.0, 0.0, 0.0]);
    // No gradient reaches the indices, which cannot hold one; integer results record
    // nothing.
    let ids = i64s(&[0], "1");
    assert!(
        !Tensor::arange::<i32>(&s("3"))
            .index_select(0, &ids)
            .unwrap()
            .requires_grad()
    );
    let _g = no_grad();
    assert!(x.index_select(1, &ids).unwrap().is_leaf());
}

/// Central differences of `L = Σ W ⊙ f(x)` with respect to each storage slot of a leaf
/// with `layout` at `offset` over `len` slots, against the analytic gradient.
fn finite_differences(layout: &str, offset: usize, f: impl Fn(&Tensor) -> Tensor) {
    let layout = l(layout);
    let len = offset + layout.reach().1 as usize + 1;
    let data: Vec<f64> = (0..len)
        .map(|i| 0.5 + ((i * 37) % 11) as f64 / 7.0)
        .collect();
    let build = |d: Vec<f64>| Tensor::new(Carrier::from_vec(d), offset, layout.clone()).unwrap();
    let loss = |out: &Tensor| {
        let w: Vec<f64> = (0..out.size())
            .map(|i| 1.0 + (i % 4) as f64 * 0.75)
            .collect();
        out.mul(&Tensor::from_vec(w, out.shape()).unwrap())
            .unwrap()
            .sum()
            .unwrap()
    };
    let x = build(data.clone());
    x.set_requires_grad(true).unwrap();
    loss(&f(&x)).backward().unwrap();
    let g = vals(&x.grad().unwrap());
    let h = 1e-6;
    let eval = |d: Vec<f64>| {
        let _g = no_grad();
        loss(&f(&build(d))).item::<f64>().unwrap()
    };
    let mut seen = std::collections::BTreeSet::new();
    for (i, &gi) in g.iter().enumerate() {
        let slot = (offset as i64 + layout.index_of(i).unwrap()) as usize;
        if !seen.insert(slot) {
            continue;
        }
        let (mut plus, mut minus) = (data.clone(), data.clone());
        plus[slot] += h;
        minus[slot] -= h;
        let numeric = (eval(plus) - eval(minus)) / (2.0 * h);
        // A broadcast leaf's gradient holds each slot's sum at every alias.
        assert!(
            (gi - numeric).abs() < 1e-6 * (1.0 + numeric.abs()),
            "slot {slot}: analytic {gi}, numeric {numeric}"
        );
    }
}

#[test]
fn gradients_match_central_differences_through_views() {
    let ids = i64s(&[1, 3, 1, 0, 2], "5");
    let gidx = i64s(&[2, 0, 1, 1, 0, 0], "(3,2)");
    for (layout, offset) in [
        ("(3,4):(1,3)", 0),
        ("(3,4):(4,1)", 0),
        ("(3,4):(-1,5)", 2),
        ("(3,4):(1,0)", 0),
        ("(3,(2,2)):(2,(12,6))", 1),
    ] {
        finite_differences(layout, offset, |x| x.index_select(1, &ids).unwrap());
        finite_differences(layout, offset, |x| {
            x.permute(&[1, 0]).unwrap().index_select(0, &ids).unwrap()
        });
        finite_differences(layout, offset, |x| x.gather(1, &gidx).unwrap());
        finite_differences(layout, offset, |x| {
            x.slice(&[Key::slice(Some(1), None, None), Key::all()])
                .unwrap()
                .gather(0, &i64s(&[1, 0, 0, 1], "(1,4)"))
                .unwrap()
        });
    }
}

#[test]
fn complex_and_f32_gradients_flow() {
    let z = Tensor::from_vec(
        vec![Complex64::new(1.0, 1.0), Complex64::new(2.0, -1.0)],
        &s("2"),
    )
    .unwrap();
    z.set_requires_grad(true).unwrap();
    let ids = i64s(&[1, 1, 0], "3");
    z.index_select(0, &ids)
        .unwrap()
        .sum()
        .unwrap()
        .backward()
        .unwrap();
    assert_eq!(
        z.grad().unwrap().to_vec::<Complex64>().unwrap(),
        [Complex64::new(1.0, 0.0), Complex64::new(2.0, 0.0)]
    );
    let f = Tensor::arange::<f32>(&s("(2,2)"));
    f.set_requires_grad(true).unwrap();
    f.gather(0, &i64s(&[1, 1], "(1,2)"))
        .unwrap()
        .sum()
        .unwrap()
        .backward()
        .unwrap();
    assert_eq!(
        f.grad().unwrap().to_vec::<f32>().unwrap(),
        [0.0, 1.0, 0.0, 1.0]
    );
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Random shapes, dims and indices, in range or not: an error names the operation and
    /// the input is unchanged; otherwise the values are the naive reference's.
    #[test]
    fn random_indices_never_panic(
        extents in prop::collection::vec(1usize..5, 1..4),
        dim in -4i64..4,
        idx in prop::collection::vec(-3i64..7, 1..6),
        reversed in any::<bool>(),
    ) {
        let shape = s(&format!(
            "({})",
            extents.iter().map(|e| e.to_string()).collect::<Vec<_>>().join(",")
        ));
        let mut x = Tensor::arange::<f64>(&shape);
        if reversed {
            x = x.reverse(0).unwrap();
        }
        let before = (vals(&x), x.carrier().version());
        let rank = extents.len() as i64;
        let d = if dim < 0 { dim + rank } else { dim };
        let ids = i64s(&idx, &idx.len().to_string());
        match x.index_select(dim, &ids) {
            Ok(r) => {
                prop_assert!((0..rank).contains(&d));
                prop_assert!(idx.iter().all(|&i| (0..extents[d as usize] as i64).contains(&i)));
                prop_assert_eq!(vals(&r), naive_index_select(&x, d as usize, &idx));
            }
            Err(e) => {
                prop_assert!(e.to_string().starts_with("index_select: "), "{}", e);
                let valid = (0..rank).contains(&d)
                    && idx.iter().all(|&i| (0..extents[d as usize] as i64).contains(&i));
                prop_assert!(!valid, "{}", e);
            }
        }
        // gather with the indices laid along `dim` (one position on every other mode).
        if (0..rank).contains(&d) {
            let ishape: Vec<String> = (0..rank)
                .map(|m| if m == d { idx.len().to_string() } else { "1".into() })
                .collect();
            let gi = i64s(&idx, &format!("({})", ishape.join(",")));
            match x.gather(dim, &gi) {
                Ok(r) => prop_assert_eq!(vals(&r), naive_gather(&x, d as usize, &gi)),
                Err(e) => {
                    prop_assert!(e.to_string().starts_with("gather: "), "{}", e);
                    prop_assert!(idx.iter().any(|&i| !(0..extents[d as usize] as i64).contains(&i)));
                }
            }
        }
        prop_assert_eq!((vals(&x), x.carrier().version()), before);
    }
}
