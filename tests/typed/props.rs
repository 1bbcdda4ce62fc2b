//! Property tests over random shapes, signed strides and offsets: element access agrees
//! with direct index arithmetic, and every view method agrees with the corresponding
//! `Tensor` view (`Tensor::new` over the same data, then `get`, `permute`, `slice`,
//! `reverse`, `reshape`, `to_shape`, `typed_view`).

use proptest::prelude::*;
use strideweave::{Carrier, IntTuple, Key, Layout, StridedSliceSpec, Tensor, TypedTensorView};

/// A valid strided view: shape, strides, offset, and the data it reads.
#[derive(Clone, Debug)]
struct Case {
    shape: Vec<usize>,
    strides: Vec<isize>,
    offset: isize,
    data: Vec<i32>,
}

fn case(min_extent: usize) -> impl Strategy<Value = Case> {
    (1usize..=4)
        .prop_flat_map(move |rank| {
            (
                prop::collection::vec(min_extent..=4usize, rank),
                prop::collection::vec(-5isize..=5, rank),
                0isize..3,
                0usize..3,
            )
        })
        .prop_map(|(shape, strides, lo, hi)| {
            let span = |neg: bool| -> isize {
                shape
                    .iter()
                    .zip(&strides)
                    .map(|(&e, &s)| (e as isize - 1).max(0) * s)
                    .filter(|&d| (d < 0) == neg)
                    .sum()
            };
            let offset = lo - span(true);
            let len = (offset + span(false) + 1) as usize + hi;
            Case {
                data: (0..len as i32).collect(),
                shape,
                strides,
                offset,
            }
        })
}

/// Every index of `shape` in column-major order (first axis fastest).
fn indices(shape: &[usize]) -> Vec<Vec<usize>> {
    let n: usize = shape.iter().product();
    (0..n)
        .map(|mut k| {
            shape
                .iter()
                .map(|&e| {
                    let i = k % e;
                    k /= e;
                    i
                })
                .collect()
        })
        .collect()
}

fn view(c: &Case) -> TypedTensorView<'_, i32> {
    TypedTensorView::from_slice(&c.shape, &c.strides, c.offset, &c.data).unwrap()
}

fn tensor(c: &Case) -> Tensor {
    let join = |v: Vec<String>| v.join(",");
    let text = format!(
        "({}):({})",
        join(c.shape.iter().map(|e| e.to_string()).collect()),
        join(c.strides.iter().map(|s| s.to_string()).collect())
    );
    let layout: Layout = text.parse().unwrap();
    Tensor::new(Carrier::from_vec(c.data.clone()), c.offset as usize, layout).unwrap()
}

fn elements(v: &TypedTensorView<'_, i32>) -> Vec<i32> {
    v.to_col_major().unwrap().into_vec()
}

/// Python's `range(start, stop, step)` over the normalised bounds of `spec` on an axis of
/// extent `n`, or `None` when the bounds run against the step.
fn python_indices(spec: StridedSliceSpec, n: usize) -> Option<Vec<usize>> {
    let (n, step) = (n as isize, spec.step);
    let norm = |v: isize, lo: isize, hi: isize| (if v < 0 { v + n } else { v }).clamp(lo, hi);
    let (lo, hi) = if step > 0 { (0, n) } else { (-1, n - 1) };
    let start = spec
        .start
        .map_or(if step > 0 { 0 } else { n - 1 }, |v| norm(v, lo, hi));
    let stop = spec
        .stop
        .map_or(if step > 0 { n } else { -1 }, |v| norm(v, lo, hi));
    if (step > 0 && stop < start) || (step < 0 && stop > start) {
        return None;
    }
    let mut out = vec![];
    let mut i = start;
    while (step > 0 && i < stop) || (step < 0 && i > stop) {
        out.push(i as usize);
        i += step;
    }
    Some(out)
}

fn spec() -> impl Strategy<Value = StridedSliceSpec> {
    (
        prop::option::of(-6isize..6),
        prop::option::of(-6isize..6),
        prop_oneof![-3isize..=-1, 1isize..=3],
    )
        .prop_map(|(a, z, s)| StridedSliceSpec::new(a, z, s))
}

/// A valid `Key` slice of an axis of extent `e` (non-empty, width a multiple of the step)
/// and the same slice as a spec; the start is sometimes written from the end.
fn key_slice(e: usize) -> impl Strategy<Value = (Key, StridedSliceSpec)> {
    (0..e, 1usize..=3, any::<bool>()).prop_map(move |(a, st, from_end)| {
        let st = if (e - a) / st == 0 { 1 } else { st };
        let stop = a + (e - a) / st * st;
        let start = if from_end {
            a as i64 - e as i64
        } else {
            a as i64
        };
        (
            Key::slice(Some(start), Some(stop as i64), Some(st as i64)),
            StridedSliceSpec::new(Some(start as isize), Some(stop as isize), st as isize),
        )
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// get and linear_offset are offset + Σ i·stride, for every index of random signed
    /// layouts (extents may be 0); one past the end of any axis is None.
    #[test]
    fn get_and_linear_offset_agree_with_direct_arithmetic(c in case(0)) {
        let v = view(&c);
        for idx in indices(&c.shape) {
            let at: isize = c.offset + idx.iter().zip(&c.strides).map(|(&i, &s)| i as isize * s).sum::<isize>();
            prop_assert_eq!(v.linear_offset(&idx), Some(at as usize));
            prop_assert_eq!(v.layout_linear_offset(&idx).unwrap(), at as usize);
            prop_assert_eq!(v.get(&idx), Some(&c.data[at as usize]));
        }
        for axis in 0..c.shape.len() {
            let mut idx = vec![0; c.shape.len()];
            idx[axis] = c.shape[axis];
            prop_assert_eq!(v.get(&idx), None);
        }
        prop_assert_eq!(v.n_elements(), c.shape.iter().product::<usize>());
    }

    /// to_col_major reads what the Tensor over the same data and layout reads.
    #[test]
    fn to_col_major_agrees_with_tensor_to_vec(c in case(1)) {
        prop_assert_eq!(elements(&view(&c)), tensor(&c).to_vec::<i32>().unwrap());
    }

    /// transpose_view agrees with Tensor::permute.
    #[test]
    fn transpose_view_agrees_with_permute(
        (c, perm) in case(1).prop_flat_map(|c| {
            let order: Vec<usize> = (0..c.shape.len()).collect();
            (Just(c), Just(order).prop_shuffle())
        })
    ) {
        let t = view(&c).transpose_view(&perm).unwrap();
        prop_assert_eq!(elements(&t), tensor(&c).permute(&perm).unwrap().to_vec::<i32>().unwrap());
    }

    /// slice_view agrees with Tensor::slice for every slice a Key can express.
    #[test]
    fn slice_view_agrees_with_tensor_slice(
        (c, slices) in case(1).prop_flat_map(|c| {
            let s: Vec<_> = c.shape.iter().map(|&e| key_slice(e)).collect();
            (Just(c), s)
        })
    ) {
        let (keys, specs): (Vec<Key>, Vec<StridedSliceSpec>) = slices.into_iter().unzip();
        let s = view(&c).slice_view(&specs).unwrap();
        prop_assert_eq!(elements(&s), tensor(&c).slice(&keys).unwrap().to_vec::<i32>().unwrap());
    }

    /// A reversed axis agrees with Tensor::reverse.
    #[test]
    fn reverse_agrees_with_tensor_reverse(
        (c, axis) in case(1).prop_flat_map(|c| { let r = c.shape.len(); (Just(c), 0..r) })
    ) {
        let s = view(&c).slice_axis_view(axis, StridedSliceSpec::reverse()).unwrap();
        prop_assert_eq!(elements(&s), tensor(&c).reverse(axis).unwrap().to_vec::<i32>().unwrap());
    }

    /// Any signed slice (Python semantics, empty results included) selects along its axis
    /// exactly the indices of Python's range over the normalised bounds.
    #[test]
    fn signed_slices_select_pythons_range(
        (c, axis, spec) in case(0).prop_flat_map(|c| { let r = c.shape.len(); (Just(c), 0..r, spec()) })
    ) {
        let v = view(&c);
        match (v.slice_axis_view(axis, spec), python_indices(spec, c.shape[axis])) {
            (Ok(s), Some(picked)) => {
                prop_assert_eq!(s.shape()[axis], picked.len());
                for idx in indices(s.shape()) {
                    let mut src = idx.clone();
                    src[axis] = picked[idx[axis]];
                    prop_assert_eq!(s.get(&idx), v.get(&src));
                }
            }
            (Err(e), None) => prop_assert!(e.to_string().contains("invalid slice bounds"), "{}", e),
            (got, want) => prop_assert!(false, "{:?} vs {:?}", got.map(|s| s.layout_summary()), want),
        }
    }

    /// reshape_view of a compact view agrees with Tensor::reshape, keeps the offset and
    /// the logical slice.
    #[test]
    fn reshape_view_agrees_with_tensor_reshape(
        shape in prop::collection::vec(1usize..=4, 1..=4),
        offset in 0usize..3,
        flip in any::<bool>(),
    ) {
        let n: usize = shape.iter().product();
        let data: Vec<i32> = (0..(n + offset) as i32).collect();
        let strides: Vec<isize> = shape.iter().scan(1isize, |run, &e| { let s = *run; *run *= e as isize; Some(s) }).collect();
        let c = Case { shape: shape.clone(), strides, offset: offset as isize, data };
        let target: Vec<usize> = if flip { shape.iter().rev().copied().collect() } else { vec![n] };
        let r = view(&c).reshape_view(&target).unwrap();
        prop_assert_eq!(r.as_slice().unwrap(), view(&c).as_slice().unwrap());
        let text = format!("({})", target.iter().map(|e| e.to_string()).collect::<Vec<_>>().join(","));
        let want = tensor(&c).reshape(&text.parse().unwrap()).unwrap().to_vec::<i32>().unwrap();
        prop_assert_eq!(elements(&r), want);
    }

    /// as_real_view then as_complex_view returns the same layout, and the real view reads
    /// the components of each complex element.
    #[test]
    fn complex_real_round_trip(c in case(0)) {
        let data: Vec<strideweave::Complex64> = c.data.iter().map(|&x| strideweave::Complex64::new(x as f64, -(x as f64))).collect();
        let v = TypedTensorView::from_slice(&c.shape, &c.strides, c.offset, &data).unwrap();
        let real = v.as_real_view().unwrap();
        for idx in indices(&c.shape) {
            let z = v.get(&idx).unwrap();
            let mut re = vec![0];
            re.extend(&idx);
            let mut im = vec![1];
            im.extend(&idx);
            prop_assert_eq!((real.get(&re), real.get(&im)), (Some(&z.re), Some(&z.im)));
        }
        let back = real.as_complex_view().unwrap();
        prop_assert_eq!((back.shape(), back.strides(), back.offset()), (v.shape(), v.strides(), v.offset()));
    }

    /// linear_offset and get agree with the Tensor over the same data and layout: the
    /// tensor's offset plus its layout's index, and the tensor's element.
    #[test]
    fn element_access_agrees_with_tensor_get(c in case(1)) {
        let (v, t) = (view(&c), tensor(&c));
        prop_assert_eq!(v.n_elements(), t.size());
        for idx in indices(&c.shape) {
            let coord = IntTuple::from(idx.iter().map(|&i| i as i64).collect::<Vec<_>>());
            let at = t.offset() as i64 + t.layout().index(&coord).unwrap();
            prop_assert_eq!(v.linear_offset(&idx), Some(at as usize));
            prop_assert_eq!(*v.get(&idx).unwrap() as f64, t.get(&coord).unwrap().to_f64());
        }
    }

    /// slice_axis_view with any Key-expressible slice agrees with Tensor::slice keeping
    /// the other axes whole.
    #[test]
    fn slice_axis_view_agrees_with_tensor_slice(
        (c, axis, (key, spec)) in case(1).prop_flat_map(|c| {
            let r = c.shape.len();
            (Just(c), 0..r).prop_flat_map(|(c, axis)| {
                let e = c.shape[axis];
                (Just(c), Just(axis), key_slice(e))
            })
        })
    ) {
        let s = view(&c).slice_axis_view(axis, spec).unwrap();
        let mut keys = vec![Key::all(); c.shape.len()];
        keys[axis] = key;
        prop_assert_eq!(elements(&s), tensor(&c).slice(&keys).unwrap().to_vec::<i32>().unwrap());
    }

    /// is_col_major_contiguous holds exactly when the Tensor keeps its order without a copy
    /// (to_shape succeeds), and then as_slice, duplicate and the tensor read the same
    /// elements from the same offset; otherwise as_slice and duplicate are errors.
    #[test]
    fn compactness_agrees_with_tensor_to_shape(c in case(1)) {
        let v = view(&c);
        let t = tensor(&c);
        let shape = t.shape().clone();
        let compact = v.is_col_major_contiguous().unwrap();
        match t.to_shape(&shape) {
            Ok(moved) => {
                prop_assert!(compact, "{}", v.layout_summary());
                prop_assert_eq!(moved.offset() as isize, v.offset());
                let want = moved.to_vec::<i32>().unwrap();
                prop_assert_eq!(v.as_slice().unwrap(), &want[..]);
                prop_assert_eq!(v.duplicate().unwrap().into_vec(), want);
                v.assert_col_major_contiguous().unwrap();
            }
            Err(_) => {
                prop_assert!(!compact, "{}", v.layout_summary());
                prop_assert!(v.as_slice().is_err());
                prop_assert!(v.duplicate().is_err());
                prop_assert!(v.assert_col_major_contiguous().is_err());
            }
        }
    }

    /// Tensor::typed_view over the same data has the view's metadata, to_tensor reads the
    /// view's elements, and into_tensor_read keeps the metadata.
    #[test]
    fn bridges_agree_with_the_tensor(c in case(1)) {
        let (v, t) = (view(&c), tensor(&c));
        {
            // The guard holds the carrier's read lock: it drops before the tensor is read.
            let g = t.typed_view::<i32>().unwrap();
            prop_assert_eq!((g.shape(), g.offset()), (v.shape(), v.offset()));
            // A mode of extent 1 coalesces to any stride: only the others must agree.
            for (k, &e) in c.shape.iter().enumerate() {
                if e > 1 {
                    prop_assert_eq!(g.strides()[k], v.strides()[k]);
                }
            }
            prop_assert_eq!(g.to_col_major().unwrap().into_vec(), elements(&v));
        }
        prop_assert_eq!(v.to_tensor().unwrap().to_vec::<i32>().unwrap(), t.to_vec::<i32>().unwrap());
        let read = v.clone().into_tensor_read().unwrap();
        let back = read.view::<i32>().unwrap();
        prop_assert_eq!(back.layout(), v.layout());
    }
}
