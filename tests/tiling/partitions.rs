//! The tiling views on hand-picked tensors: values, gradients, CuTe's tutorial shapes,
//! refusals, multi-subtensor tensors, and random inputs that must never panic.

use proptest::prelude::*;
use strideweave::{Carrier, Error, IntTuple, Layout, Shape, Tensor, Tiler};

use crate::autograd::adjoint::Rng;
use crate::layouts::placed;

/// A tiling view of a tensor.
type ViewOp<'a> = dyn Fn(&Tensor) -> strideweave::Result<Tensor> + 'a;

fn shape(s: &str) -> Shape {
    s.parse().unwrap()
}

fn layout(s: &str) -> Layout {
    s.parse().unwrap()
}

fn tiler(s: &str) -> Tiler {
    Tiler::from(&shape(s))
}

fn coord(s: &str) -> IntTuple {
    s.parse().unwrap()
}

/// A tensor of layout `l` whose element at ordinal `k` holds `k`: a view of it reads the
/// ordinals that the same view of any tensor of layout `l` reads.
fn ordinal_twin(l: &Layout) -> Tensor {
    let (lo, hi) = l.reach();
    let offset = (-lo) as usize;
    let mut data = vec![-1.0f64; offset + hi as usize + 1];
    for k in 0..l.size() {
        data[(offset as i64 + l.index_of(k).unwrap()) as usize] = k as f64;
    }
    Tensor::new(Carrier::from_vec(data), offset, l.clone()).unwrap()
}

/// The tensor's ordinal each coordinate of `op`'s view of a tensor of layout `l` reads, in
/// the view's first-mode-fastest order.
fn ordinals(l: &Layout, op: &ViewOp<'_>) -> Vec<usize> {
    let v = op(&ordinal_twin(l)).unwrap();
    v.to_vec::<f64>()
        .unwrap()
        .iter()
        .map(|&o| o as usize)
        .collect()
}

/// `op`'s view of a padded, row-major f64 tensor reads the elements its ordinals name, and
/// the gradient of a weighted sum of it scatters each weight back to the ordinal it read.
fn check_view_and_gradient(what: &str, src: &str, op: &ViewOp<'_>) {
    let l = layout(src);
    let x = placed::<f64>(l.clone(), (3, 2), |k| k as f64 * 0.5 - 7.0);
    let ords = ordinals(&l, op);
    let xs = x.to_vec::<f64>().unwrap();
    let v = op(&x).unwrap();
    let want: Vec<f64> = ords.iter().map(|&o| xs[o]).collect();
    assert_eq!(v.to_vec::<f64>().unwrap(), want, "{what}: values");

    x.set_requires_grad(true).unwrap();
    let v = op(&x).unwrap();
    let w: Vec<f64> = (0..v.size()).map(|k| 1.0 + k as f64 / 4.0).collect();
    v.mul(&Tensor::from_vec(w.clone(), v.shape()).unwrap())
        .unwrap()
        .sum()
        .unwrap()
        .backward()
        .unwrap();
    let mut expect = vec![0.0; x.size()];
    for (i, &o) in ords.iter().enumerate() {
        expect[o] += w[i];
    }
    let g = x.grad().expect("a gradient").to_vec::<f64>().unwrap();
    assert_eq!(g, expect, "{what}: gradient");
}

#[test]
fn every_tiling_view_reads_its_layout_functions_elements_and_its_gradient_scatters_back() {
    let tv = Layout::tv(&layout("(2,3):(3,1)"), &layout("(2,2):(2,1)")).unwrap();
    let cases: Vec<(&str, Box<ViewOp<'_>>)> = vec![
        ("compose", Box::new(|t| t.compose(&layout("(4,3):(1,16)")))),
        (
            "logical_divide",
            Box::new(|t| t.logical_divide(&tiler("(4,3)"))),
        ),
        (
            "zipped_divide",
            Box::new(|t| t.zipped_divide(&tiler("(2,4)"))),
        ),
        (
            "tiled_divide",
            Box::new(|t| t.tiled_divide(&tiler("(2,4)"))),
        ),
        ("flat_divide", Box::new(|t| t.flat_divide(&tiler("(2,4)")))),
        (
            "zipped_divide by a strided mode tile",
            Box::new(|t| {
                t.zipped_divide(&Tiler::by_mode([Tiler::from(layout("2:4")), Tiler::Keep]))
            }),
        ),
        (
            "local_tile",
            Box::new(|t| t.local_tile(&tiler("(4,3)"), &coord("(1,2)"))),
        ),
        (
            "local_tile short",
            Box::new(|t| t.local_tile(&tiler("(4,3)"), &coord("(1)"))),
        ),
        (
            "inner_partition flat",
            Box::new(|t| t.inner_partition(&tiler("(4,3)"), &coord("5"))),
        ),
        (
            "outer_partition",
            Box::new(|t| t.outer_partition(&tiler("(4,3)"), &coord("(3,1)"))),
        ),
        (
            "outer_partition short",
            Box::new(|t| t.outer_partition(&tiler("(4,3)"), &coord("(2)"))),
        ),
        (
            "local_partition",
            Box::new(|t| t.local_partition(&layout("(4,2):(2,1)"), 5)),
        ),
        (
            "partition_tv of a tile",
            Box::new(move |t| {
                t.local_tile(&tiler("(4,6)"), &coord("(1,1)"))?
                    .partition_tv(&tv, 4)
            }),
        ),
    ];
    for (what, op) in &cases {
        check_view_and_gradient(what, "(8,12):(13,1)", op.as_ref());
    }
    // A nested, column-major source.
    check_view_and_gradient("local_tile of a nested mode", "((2,4),6):((1,2),8)", &|t| {
        t.local_tile(&tiler("(4,3)"), &coord("(1,0)"))
    });
}

#[test]
fn tile_and_thread_coordinates_out_of_range_are_refused_with_the_mode_and_the_range() {
    let t = Tensor::arange::<f32>(&shape("(8,12)"));
    let msg = |r: strideweave::Result<Tensor>| r.unwrap_err().to_string();
    assert_eq!(
        msg(t.local_tile(&tiler("(4,3)"), &coord("(1,4)"))),
        "local_tile: tile coordinate 4 is outside the 4 tiles along mode 1 (valid: 0..4)"
    );
    assert_eq!(
        msg(t.local_tile(&tiler("(4,3)"), &coord("8"))),
        "local_tile: tile coordinate 8 is outside the 8 tiles (valid: 0..8)"
    );
    assert_eq!(
        msg(t.outer_partition(&tiler("(4,3)"), &coord("(4,0)"))),
        "outer_partition: coordinate within the tile 4 is outside mode 0 of the tile, of extent 4 (valid: 0..4)"
    );
    assert_eq!(
        msg(t.local_tile(&tiler("(4,3)"), &coord("(0,0,0)"))),
        "local_tile: expected 2 tile coordinates (at most one per mode of the tile grid), found 3"
    );
    assert_eq!(
        msg(t.local_partition(&layout("(4,2):(2,1)"), 8)),
        "local_partition: thread 8 is outside the 8 threads of (4,2):(2,1) (valid: 0..8)"
    );
    let tv = Layout::tv(&layout("(2,3):(3,1)"), &layout("(2,2):(2,1)")).unwrap();
    let tile = t.local_tile(&tiler("(4,6)"), &coord("(0,0)")).unwrap();
    assert_eq!(
        msg(tile.partition_tv(&tv, 6)),
        "partition_tv: thread 6 is outside the 6 threads of ((3,2),(2,2)):((8,2),(4,1)) (valid: 0..6)"
    );
    assert!(
        msg(t.partition_tv(&layout("(4,2,2):(1,4,8)"), 0)).starts_with(
            "partition_tv: the thread-value layout (4,2,2):(1,4,8) has rank 3; it must have rank 2"
        )
    );
    assert_eq!(
        msg(t.partition_tv(&layout("(32,4):(4,1)"), 0)),
        "partition_tv: the thread-value layout (32,4):(4,1) reaches ordinal 127, outside the tensor's 96 elements (valid: 0..96)"
    );
}

#[test]
fn a_tile_that_does_not_divide_its_mode_is_refused_naming_the_mode_and_both_extents() {
    let t = Tensor::arange::<f32>(&shape("(8,12)"));
    let msg = |r: strideweave::Result<Tensor>| r.unwrap_err().to_string();
    assert_eq!(
        msg(t.local_tile(&tiler("(4,5)"), &coord("(0,0)"))),
        "local_tile: the tile 5:1 of 5 elements does not divide mode 1 of extent 12: its tiles would reach index 14 (CuTe leaves this residue to predication; pad the tensor or choose a tile that divides it)"
    );
    let t80 = Tensor::arange::<f32>(&shape("(8,10)"));
    assert!(msg(t80.zipped_divide(&Tiler::from(layout("32:1")))).starts_with(
        "zipped_divide: the tile 32:1 of 32 elements does not divide the tensor of extent 80: its tiles would reach index 95"
    ));
    assert!(
        msg(t.local_partition(&layout("(3,4):(4,1)"), 0)).starts_with(
            "local_partition: the tile 3:1 of 3 elements does not divide mode 0 of extent 8"
        )
    );
    // A by-mode tiler longer than the tensor's rank.
    assert!(msg(t.flat_divide(&tiler("(2,2,2)"))).starts_with("flat_divide: expected"));
}

#[test]
fn cute_gemm_tutorial_partitions_have_cutes_shapes_and_cover_each_element_once() {
    // sgemm_1 of CuTe's 0x_gemm_tutorial: column-major A (M,K), C (M,N); a 128×128×8 block.
    let (m, n, k) = (256i64, 128i64, 64i64);
    let a = Tensor::arange::<f32>(&shape(&format!("({m},{k})")));
    let c = Tensor::arange::<f32>(&shape(&format!("({m},{n})")));
    // gA = local_tile(mA, cta_tiler, cta_coord, Step<_1,X,_1>): (BLK_M,BLK_K,k).
    let g_a = a.local_tile(&tiler("(128,8)"), &coord("(1)")).unwrap();
    assert_eq!(g_a.shape().to_string(), "(128,8,8)");
    // gC = local_tile(mC, cta_tiler, cta_coord, Step<_1,_1,X>): (BLK_M,BLK_N).
    let g_c = c.local_tile(&tiler("(128,128)"), &coord("(1,0)")).unwrap();
    assert_eq!(g_c.shape().to_string(), "(128,128)");
    // tA = (32,8), tC = (16,16): tAgA (THR_M,THR_K,k), tCgC (THR_M,THR_N).
    let t_a = layout("(32,8):(1,32)");
    let t_c = layout("(16,16):(1,16)");
    let mut seen_a = vec![0u32; (m * k) as usize];
    for tid in 0..256 {
        let part = g_a.local_partition(&t_a, tid).unwrap();
        assert_eq!(part.shape().to_string(), "(4,1,8)");
        for o in part.to_vec::<f32>().unwrap() {
            seen_a[o as usize] += 1;
        }
        let part = g_c.local_partition(&t_c, tid).unwrap();
        assert_eq!(part.shape().to_string(), "(8,8)");
    }
    // Block row 1 of A is rows 128..256 of every column: each read by exactly one thread.
    for (o, &count) in seen_a.iter().enumerate() {
        let row = o as i64 % m;
        assert_eq!(count, u32::from(row >= 128), "element {o}");
    }
    // Thread 5 of tA holds rows 5, 37, 69, 101 of the block: 128 + 5 + 32 i.
    let t5 = g_a.local_partition(&t_a, 5).unwrap();
    assert_eq!(
        t5.to_vec::<f32>().unwrap()[..4],
        [133.0, 165.0, 197.0, 229.0]
    );
}

#[test]
fn thread_value_layouts_match_cutes_make_layout_tv_and_hold_each_element_once() {
    // The CuTe DSL's documented example.
    let tv = Layout::tv(&layout("(2,3):(3,1)"), &layout("(2,2):(2,1)")).unwrap();
    assert_eq!(tv.to_string(), "((3,2),(2,2)):((8,2),(4,1))");
    // A 16×16 tile over 32 threads, each holding a 2×4 block (row-major threads).
    let tv = Layout::tv(&layout("(8,4):(4,1)"), &layout("(2,4):(1,2)")).unwrap();
    assert_eq!(
        (
            tv.shape().mode(0).unwrap().size(),
            tv.shape().mode(1).unwrap().size()
        ),
        (32, 8)
    );
    let tile = Tensor::arange::<f32>(&shape("(16,16)"));
    let mut seen = vec![0u32; 256];
    for thread in 0..32 {
        for o in tile
            .partition_tv(&tv, thread)
            .unwrap()
            .to_vec::<f32>()
            .unwrap()
        {
            seen[o as usize] += 1;
        }
    }
    assert!(seen.iter().all(|&c| c == 1));
    // Thread 5 is at row 1, column 1 of the thread grid: rows 2–3, columns 4–7.
    let t5 = tile.partition_tv(&tv, 5).unwrap().to_vec::<f32>().unwrap();
    let mut got: Vec<(i64, i64)> = t5.iter().map(|&o| (o as i64 % 16, o as i64 / 16)).collect();
    got.sort();
    let want: Vec<(i64, i64)> = (2..4).flat_map(|r| (4..8).map(move |c| (r, c))).collect();
    assert_eq!(got, want);
    assert!(
        Layout::tv(&layout("(2,3):(3,1)"), &layout("(2,2):(4,1)"))
            .unwrap_err()
            .to_string()
            .starts_with("Layout::tv: the raked product")
    );
}

#[test]
fn flat_coordinate_inverts_the_layout_and_with_shape_reshapes_its_domain() {
    let thr = layout("((2,2),8):((1,16),2)");
    for index in 0..32 {
        let flat = thr.flat_coordinate(index).unwrap();
        // The flat coordinate indexes each top-level mode by its ordinal.
        let back = thr.index(&flat).unwrap();
        assert_eq!(back, index, "{flat}");
    }
    assert_eq!(
        thr.flat_coordinate(32).unwrap_err().to_string(),
        "flat_coordinate: index 32 is outside the layout ((2,2),8):((1,16),2) of size 32 (valid: 0..32)"
    );
    assert_eq!(
        layout("(2,16):(32,1)")
            .flat_coordinate(16)
            .unwrap_err()
            .to_string(),
        "flat_coordinate: index 16 is not reached by the layout (2,16):(32,1): the coordinate of its leaves' quotients reaches 0"
    );
    assert!(layout("(2,4):(0,1)").flat_coordinate(1).is_err());
    assert_eq!(layout("8:3").flat_coordinate(6).unwrap().to_string(), "2");
    assert_eq!(
        layout("(4,6):(1,4)")
            .with_shape(&shape("(2,12)"))
            .unwrap()
            .to_string(),
        "(2,12):(1,2)"
    );
}

#[test]
fn multi_subtensor_tensors_partition_by_the_leading_layout_at_the_origin_only() {
    let codes: Vec<i8> = (0..64).map(|k| (k % 100) as i8).collect();
    let scales: Vec<f32> = (0..16).map(|j| 1.0 + j as f32).collect();
    let t = Tensor::block_scaled(codes, scales, &shape("(8,8)"), 1, 4).unwrap();
    let tile = t.local_tile(&tiler("(4,8)"), &coord("(0,0)")).unwrap();
    assert_eq!(tile.shape().to_string(), "(4,(4,2))");
    assert_eq!(tile.representation().subtensors().len(), 2);
    let full = t.to_vec::<f32>().unwrap();
    let want: Vec<f32> = (0..8)
        .flat_map(|c| (0..4).map(move |r| (r, c)))
        .map(|(r, c)| full[r + 8 * c])
        .collect();
    assert_eq!(tile.to_vec::<f32>().unwrap(), want);
    let err = t.local_tile(&tiler("(4,8)"), &coord("(1,0)")).unwrap_err();
    assert!(matches!(err, Error::NotImplemented { .. }), "{err}");
    assert!(err.to_string().starts_with("local_tile: a multi-subtensor"));
}

/// A random tiler for a tensor of `s`: a shape, a layout or a by-mode list, usually fitting.
fn random_tiler(s: &Shape, rng: &mut Rng) -> Tiler {
    let pick = |n: i64, rng: &mut Rng| -> i64 {
        let divisors: Vec<i64> = (1..=n).filter(|d| n % d == 0).collect();
        if rng.chance(85) {
            divisors[rng.below(divisors.len())]
        } else {
            rng.range(1, n + 2)
        }
    };
    match rng.below(4) {
        0 => Tiler::from(layout(&format!(
            "{}:{}",
            pick(s.size() as i64, rng),
            rng.range(1, 3)
        ))),
        1 => {
            let rank = rng.range(0, s.rank() as i64 + 1) as usize;
            let entries: Vec<String> = (0..rank)
                .map(|i| pick(s.mode(i).map_or(1, |m| m.size() as i64), rng).to_string())
                .collect();
            if entries.is_empty() {
                Tiler::by_mode([])
            } else {
                tiler(&format!("({})", entries.join(",")))
            }
        }
        2 => Tiler::by_mode((0..s.rank().min(2)).map(|i| {
            if rng.chance(30) {
                Tiler::Keep
            } else {
                let n = s.mode(i).map_or(1, |m| m.size() as i64);
                Tiler::from(layout(&format!("{}:{}", pick(n, rng), rng.range(0, 2))))
            }
        })),
        _ => Tiler::Keep,
    }
}

fn random_coord(rng: &mut Rng) -> IntTuple {
    match rng.below(3) {
        0 => IntTuple::int(rng.range(-1, 6)),
        1 => IntTuple::tuple((0..rng.range(0, 3)).map(|_| IntTuple::int(rng.range(0, 4)))),
        _ => IntTuple::tuple([
            IntTuple::int(rng.range(0, 3)),
            IntTuple::tuple([IntTuple::int(0), IntTuple::int(1)]),
        ]),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        if std::env::var("STRIDEWEAVE_LONG").is_ok() { 20_000 } else { 64 }))]

    /// Every tiling view either refuses with an error that names its operation or reads
    /// only the tensor's own elements; the source is never changed.
    #[test]
    fn tiling_views_never_panic_and_read_only_the_tensors_elements(
        s in crate::layouts::shape(), strides in crate::layouts::strides(false), seed in any::<u64>()
    ) {
        let l = s.layout(&strides.of(&s.leaves(), false));
        let t = placed::<f64>(l, (1, 1), |k| k as f64);
        let before = t.to_vec::<f64>().unwrap();
        let idx = ordinal_twin(t.layout());
        let mut rng = Rng(seed);
        for _ in 0..8 {
            let til = random_tiler(t.shape(), &mut rng);
            let c = random_coord(&mut rng);
            let thr = layout(&format!("({},{}):(1,{})", rng.range(1, 4), rng.range(1, 3), rng.range(1, 4)));
            let thread = rng.below(8);
            let ops: Vec<(&str, Box<ViewOp<'_>>)> = vec![
                ("compose", Box::new(|x| x.compose(&thr))),
                ("logical_divide", Box::new(|x| x.logical_divide(&til))),
                ("zipped_divide", Box::new(|x| x.zipped_divide(&til))),
                ("tiled_divide", Box::new(|x| x.tiled_divide(&til))),
                ("flat_divide", Box::new(|x| x.flat_divide(&til))),
                ("local_tile", Box::new(|x| x.local_tile(&til, &c))),
                ("inner_partition", Box::new(|x| x.inner_partition(&til, &c))),
                ("outer_partition", Box::new(|x| x.outer_partition(&til, &c))),
                ("local_partition", Box::new(|x| x.local_partition(&thr, thread))),
                ("partition_tv", Box::new(|x| x.partition_tv(&thr, thread))),
            ];
            for (name, op) in &ops {
                match (op(&t), op(&idx)) {
                    (Ok(v), Ok(vi)) => {
                        let ords = vi.to_vec::<f64>().unwrap();
                        prop_assert!(ords.iter().all(|&o| o >= 0.0 && (o as usize) < t.size()), "{name}");
                        let got = v.to_vec::<f64>().unwrap();
                        let want: Vec<f64> = ords.iter().map(|&o| before[o as usize]).collect();
                        prop_assert_eq!(got, want, "{}", name);
                    }
                    (Err(e), Err(_)) => prop_assert!(e.to_string().starts_with(name), "{}: {}", name, e),
                    (a, b) => prop_assert!(false, "{name}: the tensor gave {:?}, its twin {:?}", a.err(), b.err()),
                }
            }
        }
        prop_assert_eq!(t.to_vec::<f64>().unwrap(), before);
    }
}
