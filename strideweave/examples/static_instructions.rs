//! Performs N static or dynamic `einsum!`/`reduce!` calls on small shapes; run under
//! `valgrind --tool=callgrind` twice with different N and divide the difference of the
//! instruction counts by the difference of the N's to get instructions per call.
//! Usage: `static_instructions OP N` with OP one of einsum_static, einsum_dynamic,
//! reduce_static, reduce_dynamic (the shapes of `benches/statics.rs`).
use std::hint::black_box;
use strideweave::{StaticTensor, einsum, reduce, shape_t};

fn main() {
    let mut args = std::env::args().skip(1);
    let op = args.next().unwrap_or_else(|| "einsum_static".into());
    let n: usize = args.next().map_or(1_000, |s| s.parse().unwrap());
    let a = StaticTensor::<f32, shape_t!(2, 3)>::arange();
    let b = StaticTensor::<f32, shape_t!(3, 4)>::arange();
    let t = StaticTensor::<f32, shape_t!(2, 3, 4)>::arange();
    let (da, db, dt) = (
        a.clone().into_dynamic(),
        b.clone().into_dynamic(),
        t.clone().into_dynamic(),
    );
    for _ in 0..n {
        match op.as_str() {
            "einsum_static" => {
                black_box(einsum!(black_box(&a), black_box(&b), "i k, k j -> i j")).unwrap();
            }
            "einsum_dynamic" => {
                black_box(einsum!(black_box(&da), black_box(&db), "i k, k j -> i j")).unwrap();
            }
            "reduce_static" => {
                black_box(reduce!(black_box(&t), "a b c -> a", sum)).unwrap();
            }
            "reduce_dynamic" => {
                black_box(reduce!(black_box(&dt), "a b c -> a", sum)).unwrap();
            }
            other => panic!("unknown OP {other}"),
        }
    }
}
