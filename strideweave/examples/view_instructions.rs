//! Performs N views of one kind on a rank-4 (8,16,32,64) f32 tensor; run under
//! `valgrind --tool=callgrind` and divide the instruction count by N to get instructions
//! per view. Usage: `view_instructions OP N` with OP one of permute, slice, broadcast,
//! reshape, unsqueeze, tree, none.
use std::hint::black_box;
use strideweave::{Key, Shape, Tensor, Tree};

fn main() {
    let mut args = std::env::args().skip(1);
    let op = args.next().unwrap_or_else(|| "permute".into());
    let n: usize = args.next().map_or(100_000, |s| s.parse().unwrap());
    let sh = |s: &str| -> Shape { s.parse().unwrap() };
    let t = Tensor::arange::<f32>(&sh("(8,16,32,64)"));
    let b = Tensor::arange::<f32>(&sh("(8,1,32,64)"));
    let keys = [
        Key::Int(2),
        (1..9).into(),
        Key::all(),
        Key::slice(None, None, Some(2)),
    ];
    let target = sh("(8,16,32,64)");
    let reshape = sh("(128,32,64)");
    let tree = Tree::node([Tree::id(3), Tree::id(1), Tree::id(0), Tree::id(2)]);
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
            "tree" => black_box(&t)
                .rearrange_tree(black_box(&tree), None)
                .unwrap(),
            _ => black_box(&t).clone(),
        };
        black_box(v);
    }
}
