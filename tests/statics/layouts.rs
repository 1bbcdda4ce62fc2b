//! Static layouts (`layout_t!`, `LayoutT`, `LayoutCode`, the algebra's result types,
//! `StaticLayoutView`) against the run-time `Layout`: `const` items computed while the test
//! is built, with their values asserted, and the run-time forms' errors. The algebra's
//! agreement on random layouts and pycute's cases is the crate's unit test
//! `layout::fixed::tests`.

use std::any::TypeId;

use strideweave::{
    BlockedProduct, Complement, Compose, FlatDivide, Keep, Layout, LayoutCode, LayoutT,
    LocalPartition, LocalTile, LogicalDivide, LogicalProduct, Mode, RakedProduct, StaticLayout,
    StaticLayoutView, TiledDivide, TiledProduct, Tiler, TypedTensorView, ZippedDivide,
    ZippedProduct, layout, layout_t, shape_t,
};

fn l(text: &str) -> Layout {
    text.parse().unwrap()
}

/// The layout of issue 26: `((4,8),(2,16)):((1,64),(4,512))`.
type Issue = layout_t!(((4, 8), (2, 16)) : ((1, 64), (4, 512)));

#[test]
fn layout_t_names_one_type_per_literal() {
    assert_eq!(
        TypeId::of::<layout_t!((4, 8) : (1, 4))>(),
        TypeId::of::<layout_t!((4, 8) : (1, 4))>()
    );
    // Compact strides, the string form and the spelled-out type are the same type.
    assert_eq!(
        TypeId::of::<layout_t!((4, 8))>(),
        TypeId::of::<layout_t!("(4,8):(1,4)")>()
    );
    assert_eq!(
        TypeId::of::<layout_t!((4, 8))>(),
        TypeId::of::<LayoutT<(Mode<4, 1>, Mode<8, 4>)>>()
    );
    assert_ne!(
        TypeId::of::<layout_t!((4, 8) : (1, 4))>(),
        TypeId::of::<layout_t!((4, 8) : (8, 1))>()
    );
    // An integral layout and the one-mode tuple differ, as they do at run time.
    assert_eq!(<layout_t!(8 : 2)>::to_layout(), l("8:2"));
    assert_eq!(<layout_t!((8) : (2))>::to_layout(), l("(8):(2)"));
    assert_eq!(<layout_t!(() : ())>::to_layout(), l("():()"));
    assert_eq!(
        <layout_t!((2, (3, 4)) : (-1, (2, 6)))>::to_layout(),
        layout!((2, (3, 4)) : (-1, (2, 6)))
    );
}

#[test]
fn static_index_of_is_a_const_fn_usable_in_const_items() {
    const X: i64 = <layout_t!((4, 8) : (1, 4))>::index_of(5);
    const Y: i64 = <layout_t!((4, 8) : (8, 1))>::index_of(5);
    const Z: i64 = Issue::index_of(1000);
    const C: i64 = Issue::index(&[17, 31]);
    const SIZES: (usize, usize, usize) = (Issue::size(), Issue::cosize(), Issue::rank());
    assert_eq!((X, Y), (5, 9)); // 5 is (1, 1): 1 + 4, 8 + 1
    // 1000 is the coordinate ((0,2),(1,15)): 2·64 + 1·4 + 15·512.
    assert_eq!(Z, 2 * 64 + 4 + 15 * 512);
    // 17 is (1,4) in (4,8), 31 is (1,15) in (2,16).
    assert_eq!(C, 1 + 4 * 64 + 4 + 15 * 512);
    assert_eq!(SIZES, (1024, 1 + 3 + 7 * 64 + 4 + 15 * 512, 2));
    let run = Issue::to_layout();
    for i in 0..Issue::size() {
        assert_eq!(Issue::index_of(i), run.index_of(i).unwrap(), "ordinal {i}");
    }
}

#[test]
fn index_of_each_checks_the_range_once_and_writes_every_index() {
    let ordinals: Vec<usize> = (0..Issue::size()).rev().collect();
    let mut indices = vec![-1i64; ordinals.len()];
    Issue::index_of_each(&ordinals, &mut indices).unwrap();
    let run = Issue::to_layout();
    for (&o, &i) in ordinals.iter().zip(&indices) {
        assert_eq!(i, run.index_of(o).unwrap(), "ordinal {o}");
    }
    // A bad ordinal anywhere, or a buffer of another length: an error, the buffer untouched.
    let before = indices.clone();
    let mut bad = ordinals.clone();
    bad[517] = 5000;
    assert_eq!(
        Issue::index_of_each(&bad, &mut indices)
            .unwrap_err()
            .to_string(),
        "index_of_each: ordinal 5000 is outside the layout of size 1024 (valid: 0..1024)"
    );
    assert_eq!(
        Issue::index_of_each(&ordinals[1..], &mut indices)
            .unwrap_err()
            .to_string(),
        "index_of_each: expected 1023 indices (one per ordinal), found 1024"
    );
    assert_eq!(indices, before);
    Issue::index_of_each(&[], &mut []).unwrap();
}

#[test]
fn static_layout_run_time_errors_name_the_operation_the_value_and_the_bound() {
    assert_eq!(
        Issue::try_index_of(1024).unwrap_err().to_string(),
        "try_index_of: ordinal 1024 is outside the layout of size 1024 (valid: 0..1024)"
    );
    assert_eq!(
        Issue::try_index(&[32, 0]).unwrap_err().to_string(),
        "try_index: coordinate 32 is outside mode 0 of extent 32 (valid: 0..32)"
    );
    assert_eq!(
        Issue::try_index(&[1]).unwrap_err().to_string(),
        "try_index: expected 2 top-level coordinates, found 1"
    );
    // The panicking forms say the same at run time.
    let ordinal = std::hint::black_box(1024);
    let panic = std::panic::catch_unwind(|| Issue::index_of(ordinal)).unwrap_err();
    assert_eq!(
        panic.downcast_ref::<String>().map(String::as_str),
        Some("index_of: ordinal 1024 is outside the layout of size 1024 (valid: 0..1024)")
    );
}

#[test]
fn static_algebra_is_computed_at_compile_time_and_equals_the_run_time_algebra() {
    type A = layout_t!((12, 32) : (1, 12));
    type T = shape_t!(4, 8);
    let tiler = Tiler::from(&"(4,8)".parse::<strideweave::Shape>().unwrap());
    let a = A::to_layout();

    type C = Compose<layout_t!((6, 2) : (8, 2)), layout_t!((4, 3) : (3, 1))>;
    const C5: i64 = C::index_of(5);
    assert_eq!(
        C::to_layout(),
        l("(6,2):(8,2)").compose(&l("(4,3):(3,1)")).unwrap()
    );
    assert_eq!(C5, 32);

    type Comp = Complement<layout_t!((2, 2) : (1, 6)), 24>;
    assert_eq!(Comp::to_layout(), l("(2,2):(1,6)").complement(24).unwrap());

    type D = LogicalDivide<A, layout_t!(4 : 2)>;
    assert_eq!(D::to_layout(), a.logical_divide(&l("4:2")).unwrap());
    type DT = LogicalDivide<A, T>;
    assert_eq!(DT::to_layout(), a.logical_divide_tiler(&tiler).unwrap());

    type Z = ZippedDivide<A, T>;
    const Z_AT: i64 = Z::index(&[31, 11]);
    assert_eq!(Z::to_layout(), a.zipped_divide(&tiler).unwrap());
    assert_eq!(
        Z_AT,
        a.zipped_divide(&tiler)
            .unwrap()
            .index(&[31, 11].into())
            .unwrap()
    );
    assert_eq!(
        TiledDivide::<A, T>::to_layout(),
        a.tiled_divide(&tiler).unwrap()
    );
    assert_eq!(FlatDivide::<A, T>::to_layout(), l("(4,8,3,4):(1,12,4,96)"));

    type B = layout_t!((2, 5) : (5, 1));
    type P = LogicalProduct<B, layout_t!(6 : 1)>;
    assert_eq!(
        P::to_layout(),
        B::to_layout().logical_product(&l("6:1")).unwrap()
    );
    let by_mode = Tiler::by_mode([Tiler::from(l("3:5")), Tiler::from(l("4:6"))]);
    type ByMode = (layout_t!(3 : 5), layout_t!(4 : 6));
    assert_eq!(
        ZippedProduct::<B, ByMode>::to_layout(),
        B::to_layout().zipped_product(&by_mode).unwrap()
    );
    assert_eq!(
        TiledProduct::<B, ByMode>::to_layout(),
        B::to_layout().tiled_product(&by_mode).unwrap()
    );
    type Blocks = layout_t!((3, 4));
    const BLOCKED: i64 = BlockedProduct::<B, Blocks>::index_of(7);
    assert_eq!(
        BlockedProduct::<B, Blocks>::to_layout(),
        B::to_layout()
            .blocked_product(&Blocks::to_layout())
            .unwrap()
    );
    assert_eq!(
        BLOCKED,
        B::to_layout()
            .blocked_product(&Blocks::to_layout())
            .unwrap()
            .index_of(7)
            .unwrap()
    );
    assert_eq!(
        RakedProduct::<B, Blocks>::to_layout(),
        B::to_layout().raked_product(&Blocks::to_layout()).unwrap()
    );
    // Keep leaves a mode whole, as `Tiler::Keep`.
    assert_eq!(
        ZippedDivide::<A, (layout_t!(4 : 1), Keep)>::to_layout(),
        a.zipped_divide(&Tiler::by_mode([Tiler::from(l("4:1")), Tiler::Keep]))
            .unwrap()
    );
    // The const fns of `LayoutCode` are the same algebra, callable in any const item.
    const BY_CODE: LayoutCode =
        <A as StaticLayout>::LAYOUT.zipped_divide(&<T as strideweave::StaticTiler>::TILER);
    assert_eq!(BY_CODE, <Z as StaticLayout>::LAYOUT);
}

#[test]
fn local_tile_gives_the_tile_layout_and_its_offset() {
    // CuTe's gemm tutorial: a 256×64 column-major A in 128×8 blocks.
    type A = layout_t!((256, 64));
    type Block = LocalTile<A, shape_t!(128, 8)>;
    const AT: i64 = Block::offset(&[1, 3]);
    assert_eq!(Block::to_layout(), l("(128,8):(1,256)"));
    assert_eq!(AT, 128 + 3 * 8 * 256);
    for (bm, bk) in [(0, 0), (1, 3), (1, 7)] {
        let at = Block::offset(&[bm, bk]);
        for (m, k) in [(0, 0), (127, 0), (5, 7)] {
            assert_eq!(
                at + Block::index(&[m, k]),
                A::index(&[bm * 128 + m, bk * 8 + k])
            );
        }
    }
    assert_eq!(
        Block::try_offset(&[2, 0]).unwrap_err().to_string(),
        "LocalTile::try_offset: tile coordinate 2 is outside mode 0 of the 2 tiles (valid: 0..2)"
    );
    // A by-mode tiler of fewer modes keeps the trailing ones in the tile; an integral one
    // (`shape_t!(8)` is the layout 8:1) tiles the whole layout as a 1-D function.
    type Rows = LocalTile<layout_t!((16, 4, 3)), shape_t!(8,)>;
    assert_eq!(Rows::to_layout(), l("(8,4,3):(1,16,64)"));
    assert_eq!(Rows::offset(&[1]), 8);
    type Runs = LocalTile<layout_t!((16, 4, 3)), shape_t!(8)>;
    assert_eq!(Runs::to_layout(), l("8:1"));
    assert_eq!(Runs::offset(&[3]), 24);
}

#[test]
fn local_partition_reproduces_the_gemm_tutorial_partitions() {
    // sgemm_1: sA = (128,8) m-major, tA = (32,8) threads: each thread holds (4,1) of sA.
    type SA = layout_t!((128, 8));
    type TA = layout_t!((32, 8));
    type Part = LocalPartition<SA, TA>;
    assert_eq!(Part::to_layout(), l("(4,1):(32,0)"));
    const T37: i64 = Part::offset(37); // thread 37 is (5, 1) in tA
    assert_eq!(T37, 5 + 128);
    let mut seen = vec![0u32; SA::size()];
    for thread in 0..TA::size() {
        let at = Part::offset(thread);
        let (m, k) = ((thread % 32) as i64, (thread / 32) as i64);
        for r in 0..4 {
            let index = at + Part::index(&[r, 0]);
            assert_eq!(index, SA::index(&[m + 32 * r, k]));
            seen[index as usize] += 1;
        }
    }
    assert!(
        seen.iter().all(|&n| n == 1),
        "every element of sA held once"
    );
    assert_eq!(
        Part::try_offset(256).unwrap_err().to_string(),
        "LocalPartition::try_offset: thread 256 is outside the thread layout of size 256 (valid: 0..256)"
    );
    // A thread layout with its ids row-major: (2,4):(4,1).
    type Mine = LocalPartition<layout_t!((8, 8)), layout_t!((2, 4) : (4, 1))>;
    assert_eq!(Mine::offset(5), 1 + 8);
}

#[test]
fn static_layout_view_indexes_as_the_run_time_view() {
    let data: Vec<i32> = (0..96).collect();
    type V = layout_t!((4, (3, 2)) : (2, (8, 24)));
    let view = StaticLayoutView::<_, V>::new(&data).unwrap();
    let run = TypedTensorView::from_slice([4, 6], [2, 8], 0, &data).unwrap();
    for i in 0..4 {
        for j in 0..6 {
            assert_eq!(view.get([i, j]), run.get(&[i, j]), "({i}, {j})");
            assert_eq!(view[[i, j]], data[V::index(&[i as i64, j as i64]) as usize]);
        }
    }
    for k in 0..24 {
        assert_eq!(view.get_ordinal(k), Some(&data[V::index_of(k) as usize]));
    }
    assert_eq!(
        (view.get([4, 0]), view.get([0, 6]), view.get_ordinal(24)),
        (None, None, None)
    );
    let err = StaticLayoutView::<_, V>::new(&data[..46]).unwrap_err();
    assert!(
        err.to_string().starts_with("StaticLayoutView::new: "),
        "{err}"
    );
    // Negative strides: the offset must keep the lowest index in the slice.
    let reversed = StaticLayoutView::<_, layout_t!(4 : -1)>::with_offset(&data[..4], 3).unwrap();
    assert_eq!(reversed[[0]], 3);
    assert!(StaticLayoutView::<_, layout_t!(4 : -1)>::with_offset(&data[..4], 2).is_err());
    let out = std::panic::catch_unwind(|| view[[0, 6]]).unwrap_err();
    assert_eq!(
        out.downcast_ref::<String>().map(String::as_str),
        Some(
            "StaticLayoutView: coordinate 6 is outside mode 1 of extent 6 (valid: 0..6) of the layout (4,(3,2)):(2,(8,24))"
        )
    );
}

proptest::proptest! {
    #![proptest_config(crate::hostile::config(512))]

    /// The static layout's fallible functions on random input: the run-time layout's answer,
    /// or an error starting with the operation (never a panic), the buffer untouched.
    #[test]
    fn static_layout_fallible_functions_on_random_input_answer_or_refuse(
        ordinals in proptest::collection::vec(
            proptest::prop_oneof![0usize..1100, proptest::num::usize::ANY], 0..6),
        coord in proptest::collection::vec(proptest::prop_oneof![-3i64..40, proptest::num::i64::ANY], 0..4),
        room in 0usize..7,
    ) {
        let run = Issue::to_layout();
        for &o in &ordinals {
            match Issue::try_index_of(o) {
                Ok(i) => proptest::prop_assert_eq!(i, run.index_of(o).unwrap()),
                Err(e) => proptest::prop_assert!(o >= 1024 && e.to_string().starts_with("try_index_of: ")),
            }
        }
        match Issue::try_index(&coord) {
            Ok(i) => proptest::prop_assert_eq!(i, run.index(&coord[..].into()).unwrap()),
            Err(e) => proptest::prop_assert!(e.to_string().starts_with("try_index: "), "{e}"),
        }
        let mut indices = vec![-7i64; room];
        match Issue::index_of_each(&ordinals, &mut indices) {
            Ok(()) => {
                for (&o, &i) in ordinals.iter().zip(&indices) {
                    proptest::prop_assert_eq!(i, run.index_of(o).unwrap());
                }
            }
            Err(e) => {
                proptest::prop_assert!(e.to_string().starts_with("index_of_each: "), "{e}");
                proptest::prop_assert!(indices.iter().all(|&i| i == -7));
            }
        }
    }
}
