//! The cost of autograd on views (divan): `cargo bench -p strideweave --bench autograd`; not
//! part of the test command.
//!
//! * `record`: one view op per iteration on a compact f32 tensor of shape (8,16,32,64), in
//!   three states — the source does not require grad (`plain`), it does but recording is
//!   off (`no_grad`), and it does with recording on (`recorded`: the node, the ordinal map
//!   and the RT007 snapshot are built). The first two must cost the same as the view alone.
//! * `backward_10_views`: a backward through a chain of 10 views of a 1024×1024 f32 tensor
//!   (1M elements; permutes, reversals, a whole slice, unsqueeze/squeeze, a tree
//!   rearrangement), computing the gradient buffer of the source, side by side with one
//!   plain strided copy of the same size (a transposed view gathered into a fresh vector),
//!   the unavoidable floor of any gradient that moves 1M elements, the same copy into an
//!   existing destination (`copy_from` of a transposed view), and a hand-written
//!   transposing loop over plain vectors; `backward_from_sum` starts from `sum` of the
//!   chain instead (its one cotangent value filled through the chain's placement). The
//!   graph is retained and
//!   `autograd::grad` is used, so each iteration measures propagation and the gradient
//!   buffer, not graph construction or `.grad` accumulation.

use divan::{AllocProfiler, Bencher, black_box};
use strideweave::{Key, Shape, Tensor, Tree, autograd, no_grad};

#[global_allocator]
static ALLOC: AllocProfiler = AllocProfiler::system();

fn main() {
    // Fixed sample sizes, per benchmark (a size set here would override them): auto-scaling
    // may settle on one iteration per sample after a cold first sample.
    divan::Divan::default().config_with_args().main();
}

fn shape(text: &str) -> Shape {
    text.parse().unwrap()
}

fn source(requires_grad: bool) -> Tensor {
    let t = Tensor::arange::<f32>(&shape("(8,16,32,64)"));
    t.set_requires_grad(requires_grad).unwrap();
    t
}

/// One view, three recording states.
mod record {
    use super::*;

    const ORDER: [usize; 4] = [3, 1, 0, 2];

    fn keys() -> [Key; 4] {
        [
            Key::Int(2),
            (1..9).into(),
            Key::all(),
            Key::slice(None, None, Some(2)),
        ]
    }

    #[divan::bench(args = ["plain", "no_grad", "recorded"], sample_count = 300, sample_size = 200)]
    fn permute(b: Bencher, state: &str) {
        let t = source(state != "plain");
        let _off = (state == "no_grad").then(no_grad);
        b.bench(|| black_box(&t).permute(black_box(&ORDER)).unwrap());
    }

    #[divan::bench(args = ["plain", "no_grad", "recorded"], sample_count = 300, sample_size = 200)]
    fn slice(b: Bencher, state: &str) {
        let t = source(state != "plain");
        let keys = keys();
        let _off = (state == "no_grad").then(no_grad);
        b.bench(|| black_box(&t).index(black_box(&keys)).unwrap());
    }

    #[divan::bench(args = ["plain", "no_grad", "recorded"], sample_count = 300, sample_size = 200)]
    fn reshape(b: Bencher, state: &str) {
        let t = source(state != "plain");
        let target = shape("(128,32,64)");
        let _off = (state == "no_grad").then(no_grad);
        b.bench(|| black_box(&t).reshape(black_box(&target)).unwrap());
    }

    #[divan::bench(args = ["plain", "no_grad", "recorded"], sample_count = 300, sample_size = 200)]
    fn broadcast_to(b: Bencher, state: &str) {
        let t = source(state != "plain").slice(&[Key::all(), Key::all(), 0.into(), Key::all()]);
        let t = t.unwrap().unsqueeze(2).unwrap();
        let target = shape("(8,16,32,64)");
        let _off = (state == "no_grad").then(no_grad);
        b.bench(|| black_box(&t).broadcast_to(black_box(&target)).unwrap());
    }
}

/// 1M elements through 10 views, against one strided copy.
mod backward_10_views {
    use super::*;

    fn chain(x: &Tensor) -> Tensor {
        let swap = Tree::node([Tree::id(1), Tree::id(0)]);
        x.permute(&[1, 0])
            .unwrap()
            .reverse(0)
            .unwrap()
            .slice(&[Key::all(), Key::slice(Some(0), None, None)])
            .unwrap()
            .unsqueeze(1)
            .unwrap()
            .squeeze(1)
            .unwrap()
            .permute(&[1, 0])
            .unwrap()
            .reverse(1)
            .unwrap()
            .rearrange_tree(&swap, None)
            .unwrap()
            .unsqueeze(0)
            .unwrap()
            .squeeze(0)
            .unwrap()
    }

    #[divan::bench(sample_count = 30, sample_size = 1)]
    fn backward(b: Bencher) {
        let x = Tensor::arange::<f32>(&shape("(1024,1024)"));
        x.set_requires_grad(true).unwrap();
        let v = chain(&x);
        // A cotangent with exactly the view's layout.
        let c = {
            let _off = no_grad();
            v.detach()
        };
        b.bench(|| {
            autograd::grad(&[black_box(&v)], &[&x], &[Some(&c)], true)
                .unwrap()
                .pop()
        });
    }

    /// Backward from `sum` through the same chain: the one cotangent value is read through
    /// stride 0 and filled into the gradient through the chain's placement.
    #[divan::bench(sample_count = 30, sample_size = 1)]
    fn backward_from_sum(b: Bencher) {
        let x = Tensor::arange::<f32>(&shape("(1024,1024)"));
        x.set_requires_grad(true).unwrap();
        let loss = chain(&x).sum().unwrap();
        b.bench(|| {
            autograd::grad(&[black_box(&loss)], &[&x], &[None], true)
                .unwrap()
                .pop()
        });
    }

    /// The chain behind an op whose backward passes its cotangent on as a vector
    /// (`add_scalar`): the vector is in the view's first-mode-fastest order, so the one pass
    /// onto the source transposes. Includes reading the caller's compact cotangent into that
    /// vector (a second, contiguous 1M pass).
    #[divan::bench(sample_count = 30, sample_size = 1)]
    fn backward_after_add_scalar(b: Bencher) {
        let x = Tensor::arange::<f32>(&shape("(1024,1024)"));
        x.set_requires_grad(true).unwrap();
        let y = chain(&x).add_scalar(0.0f32).unwrap();
        let c = Tensor::arange::<f32>(&shape("(1024,1024)"));
        b.bench(|| {
            autograd::grad(&[black_box(&y)], &[&x], &[Some(&c)], true)
                .unwrap()
                .pop()
        });
    }

    /// One strided copy into an existing destination: `copy_from` of a transposed view.
    #[divan::bench(sample_count = 30, sample_size = 1)]
    fn strided_copy_from(b: Bencher) {
        let x = Tensor::arange::<f32>(&shape("(1024,1024)"));
        let t = x.permute(&[1, 0]).unwrap();
        let out = Tensor::zeros::<f32>(&shape("(1024,1024)"));
        b.bench(|| black_box(&out).copy_from(black_box(&t)).unwrap());
    }

    /// The public strided read: a transposed view gathered into a fresh vector.
    #[divan::bench(sample_count = 30, sample_size = 1)]
    fn strided_copy(b: Bencher) {
        let x = Tensor::arange::<f32>(&shape("(1024,1024)"));
        let t = x.permute(&[1, 0]).unwrap();
        b.bench(|| black_box(&t).to_vec::<f32>().unwrap());
    }

    /// A hand-written transposing copy between two `Vec<f32>`: the floor.
    #[divan::bench(sample_count = 30, sample_size = 1)]
    fn raw_transpose_copy(b: Bencher) {
        let src: Vec<f32> = (0..1 << 20).map(|i| i as f32).collect();
        b.bench(|| {
            let src = black_box(&src);
            let mut out = vec![0.0f32; 1 << 20];
            for j in 0..1024 {
                for i in 0..1024 {
                    out[i + 1024 * j] = src[j + 1024 * i];
                }
            }
            out
        });
    }

    #[divan::bench(sample_count = 30, sample_size = 10)]
    fn chain_forward(b: Bencher) {
        let x = Tensor::arange::<f32>(&shape("(1024,1024)"));
        x.set_requires_grad(true).unwrap();
        b.bench(|| chain(black_box(&x)));
    }
}
