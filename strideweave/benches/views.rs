//! Per-op cost of the zero-copy tensor views (divan), side by side with ndarray's equivalent
//! views on a dynamic-rank `ArrayD<f32>` (IxDyn) and on a static-rank `Array4<f32>`.
//!
//! Run with `cargo bench -p strideweave --bench views`; not part of the test command.
//!
//! Every benchmark performs ONE view op per iteration on a source built outside the timed
//! loop and returns the new owned handle (a `Tensor` for StrideWeave, an `ArrayView` for
//! ndarray). Divan drops returned values after each sample, so the drop of the handle is not
//! timed; the `drop_view` group measures it separately. The source is a compact f32 tensor
//! of shape (8,16,32,64): first-mode-fastest for StrideWeave, row-major (standard) for
//! ndarray, each library's native compact order. Arguments (keys, orders, shapes, trees) are
//! built once outside the loop and passed through `black_box`. For ndarray, taking the view
//! handle (`.view()`) is part of the op, as cloning into a new `Tensor` handle is for
//! StrideWeave. Rearrangement is measured in four StrideWeave forms: the tree
//! (`rearrange_tree`), the einops-style pattern (`Tensor::rearrange`, parsed on every call),
//! and `rearrange!` on a `Tensor` (checked at run time, parsed at compile time) and on a
//! `StaticTensor` (checked at compile time).
//!
//! The `AllocProfiler` global allocator makes divan report allocations per op. A StrideWeave
//! view needs at most one: the new `Tensor` handle's `Arc`, taken from the thread's spare
//! handle allocations (`tensor/spare.rs`, up to 256 kept per thread) when an earlier handle
//! left one. A sample keeps its 200 results alive until it ends, and their drops refill the
//! list, so from the second sample on every op reports 0 allocations; with more than 256
//! handles alive at once, the ones beyond the list's size allocate (the first sample does).
//! The `strideweave_view` rows take the borrowed form (`Tensor::view`, then the view): no
//! reference count and no autograd record per step, the offset and layout written into an
//! allocation from the thread's spare list of view placements, as a handle's is.
//! Every benchmark runs with `bench_local`, on the thread that also drops its results, as a
//! program's views are made and dropped: with divan's `bench` (0.1.21), every StrideWeave
//! view reported one allocation, the list of the thread that ran the samples never refilled.

use divan::{AllocProfiler, Bencher, black_box};
use ndarray::{Array4, ArrayD, ArrayViewD, Axis, IxDyn, SliceInfoElem, s};
use strideweave::{Key, Shape, StaticTensor, Tensor, Tree, rearrange, shape_t};

#[global_allocator]
static ALLOC: AllocProfiler = AllocProfiler::system();

fn main() {
    // Fixed sample sizes: the auto-scaling stops at one iteration per sample when the first
    // (cold) sample is slow, which leaves the timer's precision in every sample. Command-line
    // options (`--sample-count`, `--sample-size`, ...) still override these defaults.
    divan::Divan::default()
        .sample_count(500)
        .sample_size(200)
        .config_with_args()
        .main();
}

const DIMS: [usize; 4] = [8, 16, 32, 64];

fn shape(text: &str) -> Shape {
    text.parse().unwrap()
}

fn sw_source() -> Tensor {
    Tensor::arange::<f32>(&shape("(8,16,32,64)"))
}

fn nd_dyn_source() -> ArrayD<f32> {
    ArrayD::from_shape_fn(IxDyn(&DIMS), |_| 0.0f32)
}

fn nd_static_source() -> Array4<f32> {
    Array4::from_shape_fn((8, 16, 32, 64), |_| 0.0f32)
}

/// `t[2, 1:9, :, ::2]`: an integer (drops the mode), a range, a whole mode, a step.
mod slice {
    use super::*;

    fn keys() -> [Key; 4] {
        [
            Key::Int(2),
            (1..9).into(),
            Key::all(),
            Key::slice(None, None, Some(2)),
        ]
    }

    #[divan::bench]
    fn strideweave(b: Bencher) {
        let (t, keys) = (sw_source(), keys());
        b.bench_local(|| black_box(&t).index(black_box(&keys)).unwrap());
    }

    /// The borrowed view (`Tensor::view`): `slice` keeps the integer-keyed mode at extent 1.
    #[divan::bench]
    fn strideweave_view(b: Bencher) {
        let (t, keys) = (sw_source(), keys());
        b.bench_local(|| black_box(&t).view().slice(black_box(&keys)).unwrap());
    }

    #[divan::bench]
    fn ndarray_dyn(b: Bencher) {
        let a = nd_dyn_source();
        let info = [
            SliceInfoElem::Index(2),
            SliceInfoElem::Slice {
                start: 1,
                end: Some(9),
                step: 1,
            },
            SliceInfoElem::Slice {
                start: 0,
                end: None,
                step: 1,
            },
            SliceInfoElem::Slice {
                start: 0,
                end: None,
                step: 2,
            },
        ];
        b.bench_local(|| -> ArrayViewD<'_, f32> { black_box(&a).slice(black_box(&info[..])) });
    }

    #[divan::bench]
    fn ndarray_static(b: Bencher) {
        let a = nd_static_source();
        b.bench_local(|| black_box(&a).slice(s![2, 1..9, .., ..;2]));
    }
}

/// Reorder the four top-level modes: `[3, 1, 0, 2]`.
mod permute {
    use super::*;

    const ORDER: [usize; 4] = [3, 1, 0, 2];

    #[divan::bench]
    fn strideweave(b: Bencher) {
        let t = sw_source();
        b.bench_local(|| black_box(&t).permute(black_box(&ORDER)).unwrap());
    }

    #[divan::bench]
    fn strideweave_view(b: Bencher) {
        let t = sw_source();
        b.bench_local(|| black_box(&t).view().permute(black_box(&ORDER)).unwrap());
    }

    #[divan::bench]
    fn ndarray_dyn(b: Bencher) {
        let a = nd_dyn_source();
        b.bench_local(|| black_box(&a).view().permuted_axes(black_box(&ORDER[..])));
    }

    #[divan::bench]
    fn ndarray_static(b: Bencher) {
        let a = nd_static_source();
        b.bench_local(|| black_box(&a).view().permuted_axes(black_box(ORDER)));
    }
}

/// Merge the two contiguous outer modes of the compact source: rank 4 → rank 3, no copy.
/// StrideWeave merges (8,16) (first-mode-fastest: extents 8 and 16 are adjacent in memory);
/// ndarray merges (8,16) too (row-major: both are the slow axes, still one regular step).
mod reshape {
    use super::*;

    #[divan::bench]
    fn strideweave(b: Bencher) {
        let t = sw_source();
        let target = shape("(128,32,64)");
        b.bench_local(|| black_box(&t).reshape(black_box(&target)).unwrap());
    }

    #[divan::bench]
    fn strideweave_view(b: Bencher) {
        let t = sw_source();
        let target = shape("(128,32,64)");
        b.bench_local(|| black_box(&t).view().reshape(black_box(&target)).unwrap());
    }

    #[divan::bench]
    fn ndarray_dyn(b: Bencher) {
        let a = nd_dyn_source();
        let target = [128usize, 32, 64];
        b.bench_local(|| {
            black_box(&a)
                .view()
                .into_shape_with_order(black_box(&target[..]))
                .unwrap()
        });
    }

    #[divan::bench]
    fn ndarray_static(b: Bencher) {
        let a = nd_static_source();
        b.bench_local(|| {
            black_box(&a)
                .view()
                .into_shape_with_order(black_box((128usize, 32usize, 64usize)))
                .unwrap()
        });
    }
}

/// Widen the extent-1 mode of an (8,1,32,64) source to (8,16,32,64) with stride 0.
mod broadcast {
    use super::*;

    #[divan::bench]
    fn strideweave(b: Bencher) {
        let t = Tensor::arange::<f32>(&shape("(8,1,32,64)"));
        let target = shape("(8,16,32,64)");
        b.bench_local(|| black_box(&t).broadcast_to(black_box(&target)).unwrap());
    }

    #[divan::bench]
    fn strideweave_view(b: Bencher) {
        let t = Tensor::arange::<f32>(&shape("(8,1,32,64)"));
        let target = shape("(8,16,32,64)");
        b.bench_local(|| {
            black_box(&t)
                .view()
                .broadcast_to(black_box(&target))
                .unwrap()
        });
    }

    #[divan::bench]
    fn ndarray_dyn(b: Bencher) {
        let a = ArrayD::from_shape_fn(IxDyn(&[8, 1, 32, 64]), |_| 0.0f32);
        b.bench_local(|| black_box(&a).broadcast(black_box(&DIMS[..])).unwrap());
    }

    #[divan::bench]
    fn ndarray_static(b: Bencher) {
        let a = Array4::from_shape_fn((8, 1, 32, 64), |_| 0.0f32);
        b.bench_local(|| {
            black_box(&a)
                .broadcast(black_box((8usize, 16usize, 32usize, 64usize)))
                .unwrap()
        });
    }
}

/// Insert an extent-1 mode at position 2: rank 4 → rank 5.
mod unsqueeze {
    use super::*;

    #[divan::bench]
    fn strideweave(b: Bencher) {
        let t = sw_source();
        b.bench_local(|| black_box(&t).unsqueeze(black_box(2)).unwrap());
    }

    #[divan::bench]
    fn ndarray_dyn(b: Bencher) {
        let a = nd_dyn_source();
        b.bench_local(|| black_box(&a).view().insert_axis(black_box(Axis(2))));
    }

    #[divan::bench]
    fn ndarray_static(b: Bencher) {
        let a = nd_static_source();
        b.bench_local(|| black_box(&a).view().insert_axis(black_box(Axis(2))));
    }
}

/// The four StrideWeave forms of one rearrangement of the rank-4 source: the tree
/// `$tree`, and the pattern `$pattern` parsed on every call (`Tensor::rearrange`), through
/// `rearrange!` on a `Tensor` and through `rearrange!` on a `StaticTensor` (checked at
/// compile time).
macro_rules! strideweave_rearrangements {
    ($pattern:tt, $tree:expr) => {
        #[divan::bench]
        fn strideweave_tree(b: Bencher) {
            let t = sw_source();
            let out = $tree;
            b.bench_local(|| {
                black_box(&t)
                    .rearrange_tree(black_box(&out), black_box(None))
                    .unwrap()
            });
        }

        #[divan::bench]
        fn strideweave_str(b: Bencher) {
            let t = sw_source();
            b.bench_local(|| {
                black_box(&t)
                    .rearrange(black_box($pattern), black_box(&[]))
                    .unwrap()
            });
        }

        #[divan::bench]
        fn strideweave_view_str(b: Bencher) {
            let t = sw_source();
            b.bench_local(|| {
                black_box(&t)
                    .view()
                    .rearrange(black_box($pattern), black_box(&[]))
                    .unwrap()
            });
        }

        #[divan::bench]
        fn strideweave_macro_dynamic(b: Bencher) {
            let t = sw_source();
            b.bench_local(|| rearrange!(black_box(&t), $pattern).unwrap());
        }

        #[divan::bench]
        fn strideweave_macro_static(b: Bencher) {
            let t = StaticTensor::<f32, shape_t!(8, 16, 32, 64)>::arange();
            b.bench_local(|| rearrange!(black_box(&t), $pattern));
        }
    };
}

/// Rearrangement that permutes the modes: the tree `(#3,#1,#0,#2)` and the pattern
/// `"a b c d -> d b a c"` (parsed on every call); ndarray's equivalent is
/// `permuted_axes([3, 1, 0, 2])`.
mod rearrange_permute {
    use super::*;

    strideweave_rearrangements!(
        "a b c d -> d b a c",
        Tree::node([Tree::id(3), Tree::id(1), Tree::id(0), Tree::id(2)])
    );

    #[divan::bench]
    fn ndarray_dyn(b: Bencher) {
        let a = nd_dyn_source();
        b.bench_local(|| {
            black_box(&a)
                .view()
                .permuted_axes(black_box(&[3usize, 1, 0, 2][..]))
        });
    }

    #[divan::bench]
    fn ndarray_static(b: Bencher) {
        let a = nd_static_source();
        b.bench_local(|| {
            black_box(&a)
                .view()
                .permuted_axes(black_box([3usize, 1, 0, 2]))
        });
    }
}

/// Rearrangement that groups the two middle modes: the tree `(#0,(#1,#2),#3)` and the pattern
/// `"a b c d -> a (b c) d"` (parsed on every call), a nested mode for StrideWeave (no stride
/// arithmetic). ndarray has no nested modes; its closest view is the
/// reshape that merges the two middle axes, (8,16,32,64) → (8,512,64).
mod rearrange_group {
    use super::*;

    strideweave_rearrangements!(
        "a b c d -> a (b c) d",
        Tree::node([
            Tree::id(0),
            Tree::node([Tree::id(1), Tree::id(2)]),
            Tree::id(3),
        ])
    );

    #[divan::bench]
    fn ndarray_dyn(b: Bencher) {
        let a = nd_dyn_source();
        let target = [8usize, 512, 64];
        b.bench_local(|| {
            black_box(&a)
                .view()
                .into_shape_with_order(black_box(&target[..]))
                .unwrap()
        });
    }

    #[divan::bench]
    fn ndarray_static(b: Bencher) {
        let a = nd_static_source();
        b.bench_local(|| {
            black_box(&a)
                .view()
                .into_shape_with_order(black_box((8usize, 512usize, 64usize)))
                .unwrap()
        });
    }
}

/// The cost the benchmarks above leave out: dropping one rank-4 view handle.
mod drop_view {
    use super::*;

    #[divan::bench]
    fn strideweave(b: Bencher) {
        let t = sw_source();
        b.with_inputs(|| t.permute(&[3, 1, 0, 2]).unwrap())
            .bench_values(drop);
    }

    /// A borrowed view: its placement goes back to the thread's spare list.
    #[divan::bench]
    fn strideweave_view(b: Bencher) {
        let t = sw_source();
        b.with_inputs(|| t.view().permute(&[3, 1, 0, 2]).unwrap())
            .bench_local_values(drop);
    }

    #[divan::bench]
    fn ndarray_dyn(b: Bencher) {
        let a = nd_dyn_source();
        b.with_inputs(|| a.view().permuted_axes(&[3usize, 1, 0, 2][..]))
            .bench_values(drop);
    }

    #[divan::bench]
    fn ndarray_static(b: Bencher) {
        let a = nd_static_source();
        b.with_inputs(|| a.view().permuted_axes([3usize, 1, 0, 2]))
            .bench_values(drop);
    }
}

/// Rank-2 views of the copy benchmarks' workloads (issue 27: `broadcast_to` measured 2.4×
/// and `slice` 1.35× ndarray's `IxDyn` there), each on both libraries' native compact order:
/// ndarray row-major (rows × columns), StrideWeave first-mode-fastest with the modes
/// reversed, so both read the same memory. The sources are zeroed allocations (no pages
/// touched).
mod rank2 {
    use super::*;

    fn sw(text: &str) -> Tensor {
        Tensor::zeros::<f32>(&shape(text))
    }

    fn nd(dims: &[usize]) -> ArrayD<f32> {
        ArrayD::zeros(IxDyn(dims))
    }

    /// A row broadcast to 4096²: (1,4096) → (4096,4096), ndarray's `broadcast`.
    mod broadcast {
        use super::*;

        #[divan::bench]
        fn strideweave(b: Bencher) {
            let t = sw("(4096,1)");
            let target = shape("(4096,4096)");
            b.bench_local(|| black_box(&t).broadcast_to(black_box(&target)).unwrap());
        }

        #[divan::bench]
        fn strideweave_view(b: Bencher) {
            let t = sw("(4096,1)");
            let target = shape("(4096,4096)");
            b.bench_local(|| {
                black_box(&t)
                    .view()
                    .broadcast_to(black_box(&target))
                    .unwrap()
            });
        }

        #[divan::bench]
        fn ndarray_dyn(b: Bencher) {
            let a = nd(&[1, 4096]);
            b.bench_local(|| {
                black_box(&a)
                    .broadcast(black_box(&[4096usize, 4096][..]))
                    .unwrap()
            });
        }
    }

    /// `[::2, ::2]` of 8192×4096.
    mod slice {
        use super::*;

        #[divan::bench]
        fn strideweave(b: Bencher) {
            let t = sw("(4096,8192)");
            let keys = [
                Key::slice(None, None, Some(2)),
                Key::slice(None, None, Some(2)),
            ];
            b.bench_local(|| black_box(&t).slice(black_box(&keys)).unwrap());
        }

        #[divan::bench]
        fn strideweave_view(b: Bencher) {
            let t = sw("(4096,8192)");
            let keys = [
                Key::slice(None, None, Some(2)),
                Key::slice(None, None, Some(2)),
            ];
            b.bench_local(|| black_box(&t).view().slice(black_box(&keys)).unwrap());
        }

        /// ndarray's `[::2, ::2]`.
        fn info() -> [SliceInfoElem; 2] {
            let step = SliceInfoElem::Slice {
                start: 0,
                end: None,
                step: 2,
            };
            [step, step]
        }

        #[divan::bench]
        fn ndarray_dyn(b: Bencher) {
            let (a, info) = (nd(&[8192, 4096]), info());
            b.bench_local(|| -> ArrayViewD<'_, f32> { black_box(&a).slice(black_box(&info[..])) });
        }

        /// ndarray's owned shared handle, as `Tensor` is one: an `ArcArray` cloned (its
        /// count incremented) and sliced into a new owned handle (`slice_move`).
        #[divan::bench]
        fn ndarray_arc(b: Bencher) {
            let (a, info) = (nd(&[8192, 4096]).into_shared(), info());
            b.bench_local(|| black_box(&a).clone().slice_move(black_box(&info[..])));
        }
    }

    /// The transpose of 4096².
    mod permute {
        use super::*;

        #[divan::bench]
        fn strideweave(b: Bencher) {
            let t = sw("(4096,4096)");
            b.bench_local(|| black_box(&t).permute(black_box(&[1, 0])).unwrap());
        }

        #[divan::bench]
        fn strideweave_view(b: Bencher) {
            let t = sw("(4096,4096)");
            b.bench_local(|| black_box(&t).view().permute(black_box(&[1, 0])).unwrap());
        }

        #[divan::bench]
        fn ndarray_dyn(b: Bencher) {
            let a = nd(&[4096, 4096]);
            b.bench_local(|| {
                black_box(&a)
                    .view()
                    .permuted_axes(black_box(&[1usize, 0][..]))
            });
        }
    }

    /// 4096² split into (64,64,4096) rows (ndarray) / (4096,64,64) (StrideWeave).
    mod reshape {
        use super::*;

        #[divan::bench]
        fn strideweave(b: Bencher) {
            let t = sw("(4096,4096)");
            let target = shape("(4096,64,64)");
            b.bench_local(|| black_box(&t).reshape(black_box(&target)).unwrap());
        }

        #[divan::bench]
        fn strideweave_view(b: Bencher) {
            let t = sw("(4096,4096)");
            let target = shape("(4096,64,64)");
            b.bench_local(|| black_box(&t).view().reshape(black_box(&target)).unwrap());
        }

        #[divan::bench]
        fn ndarray_dyn(b: Bencher) {
            let a = nd(&[4096, 4096]);
            let target = [64usize, 64, 4096];
            b.bench_local(|| {
                black_box(&a)
                    .view()
                    .into_shape_with_order(black_box(&target[..]))
                    .unwrap()
            });
        }
    }

    /// `"a b -> b a"` of 4096²: the tree `(#1,#0)`, `rearrange!` on a `Tensor`, and
    /// ndarray's `permuted_axes`.
    mod rearrange {
        use super::*;

        #[divan::bench]
        fn strideweave(b: Bencher) {
            let t = sw("(4096,4096)");
            let out = Tree::node([Tree::id(1), Tree::id(0)]);
            b.bench_local(|| {
                black_box(&t)
                    .rearrange_tree(black_box(&out), black_box(None))
                    .unwrap()
            });
        }

        #[divan::bench]
        fn strideweave_macro_dynamic(b: Bencher) {
            let t = sw("(4096,4096)");
            b.bench_local(|| rearrange!(black_box(&t), "a b -> b a").unwrap());
        }

        #[divan::bench]
        fn strideweave_view_str(b: Bencher) {
            let t = sw("(4096,4096)");
            b.bench_local(|| {
                black_box(&t)
                    .view()
                    .rearrange(black_box("a b -> b a"), black_box(&[]))
                    .unwrap()
            });
        }

        #[divan::bench]
        fn ndarray_dyn(b: Bencher) {
            let a = nd(&[4096, 4096]);
            b.bench_local(|| {
                black_box(&a)
                    .view()
                    .permuted_axes(black_box(&[1usize, 0][..]))
            });
        }
    }
}
