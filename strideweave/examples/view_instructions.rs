//! Performs N views of one kind on a rank-4 (8,16,32,64) f32 tensor; run under
//! `valgrind --tool=callgrind` and divide the instruction count by N to get instructions
//! per view. Usage: `view_instructions OP N` with OP one of permute, slice, broadcast,
//! reshape, unsqueeze, tree, none, and the rank-2 views of `benches/views.rs` (`rank2`):
//! broadcast2 (a row (1,4096) to (4096,4096)), slice2 (`[::2, ::2]` of 8192×4096),
//! permute2, reshape2 ((4096,4096) as (64,64,4096)), rearrange2 (`"a b -> b a"`, tree form);
//! the pattern forms of the rank-4 permute `"a b c d -> d b a c"`: str (`Tensor::rearrange`)
//! and macro (`rearrange!` on a `Tensor`), and macro2 (`rearrange!` of `"a b -> b a"`);
//! `view_OP` runs the borrowed form (`Tensor::view`, then the view) of permute, slice,
//! broadcast, reshape, str, and of the rank-2 broadcast2, slice2, permute2, reshape2, str2
//! (`"a b -> b a"`); `nd_OP` runs ndarray's equivalent on an `ArrayD<f32>` (`ArrayViewD` ops, as
//! benches/views.rs measures them) and `nd_none` its baseline.
use std::hint::black_box;
use strideweave::{Key, Shape, Tensor, Tree};

/// ndarray's equivalents of the views below on `ArrayD<f32>` (IxDyn), N times.
fn ndarray_views(op: &str, n: usize) {
    use ndarray::{ArrayD, Axis, IxDyn, SliceInfoElem};
    let a = ArrayD::from_shape_fn(IxDyn(&[8, 16, 32, 64]), |_| 0.0f32);
    let b = ArrayD::from_shape_fn(IxDyn(&[8, 1, 32, 64]), |_| 0.0f32);
    let range = |start, end, step| SliceInfoElem::Slice { start, end, step };
    let info = [
        SliceInfoElem::Index(2),
        range(1, Some(9), 1),
        range(0, None, 1),
        range(0, None, 2),
    ];
    let dims = [8usize, 16, 32, 64];
    let merged = [128usize, 32, 64];
    let order = [3usize, 1, 0, 2];
    // Rank 2 (benches/views.rs `rank2`), row-major: a row, a square, a tall matrix.
    let row = ArrayD::from_shape_fn(IxDyn(&[1, 4096]), |_| 0.0f32);
    let sqa = ArrayD::from_shape_fn(IxDyn(&[4096, 4096]), |_| 0.0f32);
    let big = ArrayD::from_shape_fn(IxDyn(&[8192, 4096]), |_| 0.0f32);
    let sq = [4096usize, 4096];
    let split = [64usize, 64, 4096];
    let steps = [range(0, None, 2), range(0, None, 2)];
    for _ in 0..n {
        match op {
            "nd_permute" | "nd_tree" => {
                black_box(black_box(&a).view().permuted_axes(black_box(&order[..])));
            }
            "nd_slice" => {
                black_box(black_box(&a).slice(black_box(&info[..])));
            }
            "nd_broadcast" => {
                black_box(black_box(&b).broadcast(black_box(&dims[..])).unwrap());
            }
            "nd_reshape" => {
                let v = black_box(&a).view();
                black_box(v.into_shape_with_order(black_box(&merged[..])).unwrap());
            }
            "nd_broadcast2" => {
                black_box(black_box(&row).broadcast(black_box(&sq[..])).unwrap());
            }
            "nd_slice2" => {
                black_box(black_box(&big).slice(black_box(&steps[..])));
            }
            "nd_permute2" | "nd_rearrange2" => {
                black_box(
                    black_box(&sqa)
                        .view()
                        .permuted_axes(black_box(&[1usize, 0][..])),
                );
            }
            "nd_reshape2" => {
                let v = black_box(&sqa).view();
                black_box(v.into_shape_with_order(black_box(&split[..])).unwrap());
            }
            "nd_unsqueeze" => {
                black_box(black_box(&a).view().insert_axis(black_box(Axis(2))));
            }
            _ => {
                black_box(black_box(&a));
            }
        }
    }
}

/// The sources and arguments of the StrideWeave views, built once.
struct Sources {
    t: Tensor,
    b: Tensor,
    keys: [Key; 4],
    target: Shape,
    merged: Shape,
    // Rank 2, first-mode-fastest: the transposes of ndarray's row-major sources.
    row: Tensor,
    sqt: Tensor,
    big: Tensor,
    sq: Shape,
    split: Shape,
    steps: [Key; 2],
}

fn sources() -> Sources {
    let sh = |s: &str| -> Shape { s.parse().unwrap() };
    let step2 = Key::slice(None, None, Some(2));
    Sources {
        t: Tensor::arange::<f32>(&sh("(8,16,32,64)")),
        b: Tensor::arange::<f32>(&sh("(8,1,32,64)")),
        keys: [Key::Int(2), (1..9).into(), Key::all(), step2],
        target: sh("(8,16,32,64)"),
        merged: sh("(128,32,64)"),
        row: Tensor::zeros::<f32>(&sh("(4096,1)")),
        sqt: Tensor::zeros::<f32>(&sh("(4096,4096)")),
        big: Tensor::zeros::<f32>(&sh("(4096,8192)")),
        sq: sh("(4096,4096)"),
        split: sh("(4096,64,64)"),
        steps: [step2, step2],
    }
}

/// The borrowed views (`Tensor::view`) of the same sources, N times.
fn borrowed_views(op: &str, n: usize) {
    let s = sources();
    for _ in 0..n {
        let v = match op {
            "permute" => black_box(&s.t).view().permute(black_box(&[3, 1, 0, 2])),
            "slice" => black_box(&s.t).view().slice(black_box(&s.keys)),
            "broadcast" => black_box(&s.b).view().broadcast_to(black_box(&s.target)),
            "reshape" => black_box(&s.t).view().reshape(black_box(&s.merged)),
            "str" => black_box(&s.t)
                .view()
                .rearrange(black_box("a b c d -> d b a c"), black_box(&[])),
            "broadcast2" => black_box(&s.row).view().broadcast_to(black_box(&s.sq)),
            "slice2" => black_box(&s.big).view().slice(black_box(&s.steps)),
            "permute2" => black_box(&s.sqt).view().permute(black_box(&[1, 0])),
            "reshape2" => black_box(&s.sqt).view().reshape(black_box(&s.split)),
            "str2" => black_box(&s.sqt)
                .view()
                .rearrange(black_box("a b -> b a"), black_box(&[])),
            _ => Ok(black_box(&s.t).view()),
        };
        black_box(v.unwrap());
    }
}

fn main() {
    let mut args = std::env::args().skip(1);
    let op = args.next().unwrap_or_else(|| "permute".into());
    let n: usize = args.next().map_or(100_000, |s| s.parse().unwrap());
    if op.starts_with("nd_") {
        return ndarray_views(&op, n);
    }
    if let Some(op) = op.strip_prefix("view_") {
        return borrowed_views(op, n);
    }
    let Sources {
        t,
        b,
        keys,
        target,
        merged: reshape,
        row,
        sqt,
        big,
        sq,
        split,
        steps,
    } = sources();
    let tree = Tree::node([Tree::id(3), Tree::id(1), Tree::id(0), Tree::id(2)]);
    let swap = Tree::node([Tree::id(1), Tree::id(0)]);
    for _ in 0..n {
        let v = match op.as_str() {
            "permute" => black_box(&t).permute(black_box(&[3, 1, 0, 2])).unwrap(),
            "slice" => black_box(&t)
                .index(black_box(&keys))
                .unwrap()
                .view()
                .unwrap(),
            "broadcast" => black_box(&b).broadcast_to(black_box(&target)).unwrap(),
            "reshape" => black_box(&t).reshape(black_box(&reshape)).unwrap(),
            "unsqueeze" => black_box(&t).unsqueeze(black_box(2)).unwrap(),
            "broadcast2" => black_box(&row).broadcast_to(black_box(&sq)).unwrap(),
            "slice2" => black_box(&big).slice(black_box(&steps)).unwrap(),
            "permute2" => black_box(&sqt).permute(black_box(&[1, 0])).unwrap(),
            "reshape2" => black_box(&sqt).reshape(black_box(&split)).unwrap(),
            "rearrange2" => black_box(&sqt)
                .rearrange_tree(black_box(&swap), None)
                .unwrap(),
            "str" => black_box(&t)
                .rearrange(black_box("a b c d -> d b a c"), black_box(&[]))
                .unwrap(),
            "macro" => strideweave::rearrange!(black_box(&t), "a b c d -> d b a c").unwrap(),
            "macro2" => strideweave::rearrange!(black_box(&sqt), "a b -> b a").unwrap(),
            "tree" => black_box(&t)
                .rearrange_tree(black_box(&tree), None)
                .unwrap(),
            _ => black_box(&t).clone(),
        };
        black_box(v);
    }
}
