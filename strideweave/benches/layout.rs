//! Per-call cost of the hot layout operations (divan). Run with
//! `cargo bench -p strideweave --bench layout`; not part of the test command.

use divan::{Bencher, black_box};
use strideweave::{IntTuple, Layout};

fn main() {
    divan::main();
}

fn l(text: &str) -> Layout {
    text.parse().unwrap()
}

#[divan::bench]
fn index_hierarchical_coordinate(b: Bencher) {
    let a = l("((2,3),(4,(5,2)),7,2):((1,2),(6,(24,120)),240,1680)");
    let c: IntTuple = "((1,2),(3,(4,1)),6,1)".parse().unwrap();
    b.bench(|| black_box(&a).index(black_box(&c)));
}

#[divan::bench]
fn index_of_ordinal(b: Bencher) {
    let a = l("((2,3),(4,(5,2)),7,2):((1,2),(6,(24,120)),240,1680)");
    b.bench(|| black_box(&a).index_of(black_box(1234)));
}

#[divan::bench]
fn coalesce_rank4(b: Bencher) {
    let a = l("((2,3),4,(1,5),6):((1,2),6,(0,24),120)");
    b.bench(|| black_box(&a).coalesce());
}

#[divan::bench]
fn compose_doc_example(b: Bencher) {
    let a = l("(6,2):(8,2)");
    let c = l("(4,3):(3,1)");
    b.bench(|| black_box(&a).compose(black_box(&c)));
}

#[divan::bench]
fn is_injective_sorted_stride(b: Bencher) {
    let a = l("((2,3),(4,5)):((1,2),(6,24))");
    b.bench(|| black_box(&a).is_injective());
}

#[divan::bench]
fn is_injective_exact_fallback(b: Bencher) {
    let a = l("(3,2,4):(2,3,12)");
    b.bench(|| black_box(&a).is_injective());
}

#[divan::bench]
fn permute_rank4(b: Bencher) {
    let a = l("((2,3),4,(1,5),6):((1,2),6,(0,24),120)");
    b.bench(|| black_box(&a).permute(black_box(&[3, 1, 0, 2])));
}
